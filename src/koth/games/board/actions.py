"""Actions of the board game: values, notation (``str`` / ``parse``) and integer ids.

Ids are laid out in blocks, in this order (so that a turn's actions, generated block by
block, come out sorted): chance outcomes, setup decisions, recruit, move, assault,
alliance offer, alliance answer, ring turn, area move, terrain swap, end of turn.
Movement is identified by unit type, origin and destination (a runner's path never
changes what happens, only whether some path exists); assault and alliance origins by
their slot among the target's possible neighbours, which keeps the space at ~36k ids.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations_with_replacement, permutations
from typing import Final

from koth.core.errors import InvalidActionError
from koth.core.notation import notation_repr
from koth.games.board.tables import (
    ARRANGEMENT_INDEX,
    ARRANGEMENTS,
    CENTER,
    DIE_NAMES,
    EDGE_INDEX,
    EDGES,
    LOC_BY_NAME,
    LOC_NAMES,
    NUM_LOCS,
    NUM_RINGS,
    ORIGIN_SLOT_INDEX,
    ORIGIN_SLOTS,
    RING_SIZE,
    TERRAIN_LETTERS,
    UNIT_NAMES,
)

#: how a move action is paid: a move die, a recruit die (all units recruited) or two
#: turning dice
PAY_MOVE: Final = 0
PAY_RECRUIT: Final = 1
PAY_PAIR: Final = 2
PAY_NAMES: Final = ("move", "recruit", "pair")
PAY_PAIRS: Final[tuple[tuple[int, int], ...]] = tuple(combinations_with_replacement(range(3), 2))
DROPS: Final[tuple[tuple[int, ...], ...]] = (
    (),
    *tuple((c,) for c in range(3)),
    *tuple(combinations_with_replacement(range(3), 2)),
)
MAX_PLAYERS: Final = 4


@dataclass(frozen=True, slots=True, repr=False)
class Roll:
    face: int

    # pickled by its fields: the compiled build's frozen class refuses the slot-by-slot
    # restore that pickle would otherwise use (worker processes, Ray)
    def __reduce__(self) -> tuple[type[Roll], tuple[object, ...]]:
        return (Roll, (self.face,))

    def __repr__(self) -> str:
        return notation_repr(self)

    def __str__(self) -> str:
        return f"roll {self.face}"


@dataclass(frozen=True, slots=True, repr=False)
class TerrainDraw:
    ring: int
    arrangement: tuple[int, ...]

    def __reduce__(self) -> tuple[type[TerrainDraw], tuple[object, ...]]:
        return (TerrainDraw, (self.ring, self.arrangement))

    def __repr__(self) -> str:
        return notation_repr(self)

    def __str__(self) -> str:
        return f"terrain ring{self.ring} " + "".join(TERRAIN_LETTERS[t] for t in self.arrangement)


@dataclass(frozen=True, slots=True, repr=False)
class AreaDraw:
    areas: tuple[int, ...]  # the area number of each seat

    def __reduce__(self) -> tuple[type[AreaDraw], tuple[object, ...]]:
        return (AreaDraw, (self.areas,))

    def __repr__(self) -> str:
        return notation_repr(self)

    def __str__(self) -> str:
        return "areas " + ",".join(map(str, self.areas))


@dataclass(frozen=True, slots=True, repr=False)
class Place:
    index: int

    def __reduce__(self) -> tuple[type[Place], tuple[object, ...]]:
        return (Place, (self.index,))

    def __repr__(self) -> str:
        return notation_repr(self)

    def __str__(self) -> str:
        return f"place 1.{self.index}"


@dataclass(frozen=True, slots=True, repr=False)
class Exclude:
    unit: int

    def __reduce__(self) -> tuple[type[Exclude], tuple[object, ...]]:
        return (Exclude, (self.unit,))

    def __repr__(self) -> str:
        return notation_repr(self)

    def __str__(self) -> str:
        return f"exclude {UNIT_NAMES[self.unit]}"


@dataclass(frozen=True, slots=True, repr=False)
class Recruit:
    unit: int
    by_move: bool = False

    def __reduce__(self) -> tuple[type[Recruit], tuple[object, ...]]:
        return (Recruit, (self.unit, self.by_move))

    def __repr__(self) -> str:
        return notation_repr(self)

    def __str__(self) -> str:
        return f"recruit {UNIT_NAMES[self.unit]}" + (" by move" if self.by_move else "")


def _by(pay: int) -> str:
    return "" if pay == PAY_MOVE else f" by {PAY_NAMES[pay]}"


@dataclass(frozen=True, slots=True, repr=False)
class Move:
    unit: int
    src: int
    dst: int
    pay: int = PAY_MOVE

    def __reduce__(self) -> tuple[type[Move], tuple[object, ...]]:
        return (Move, (self.unit, self.src, self.dst, self.pay))

    def __repr__(self) -> str:
        return notation_repr(self)

    def __str__(self) -> str:
        return f"move {UNIT_NAMES[self.unit]} {LOC_NAMES[self.src]}>{LOC_NAMES[self.dst]}" + _by(
            self.pay
        )


@dataclass(frozen=True, slots=True, repr=False)
class Attack:
    """Two fighters assault an enemy blocker: ``lose`` dies, ``keep`` may move in."""

    target: int
    lose: int
    keep: int
    pays: tuple[int, int] = (PAY_MOVE, PAY_MOVE)

    def __reduce__(self) -> tuple[type[Attack], tuple[object, ...]]:
        return (Attack, (self.target, self.lose, self.keep, self.pays))

    def __repr__(self) -> str:
        return notation_repr(self)

    def __str__(self) -> str:
        where = LOC_NAMES[self.target]
        text = f"attack {where} lose {LOC_NAMES[self.lose]} keep {LOC_NAMES[self.keep]}"
        if self.pays != (PAY_MOVE, PAY_MOVE):
            text += " by " + "+".join(PAY_NAMES[p] for p in self.pays)
        return text


@dataclass(frozen=True, slots=True, repr=False)
class Ally:
    """The active player's fighter at ``own`` and ``helper``'s fighter at ``helper_from``
    attack the blocker on ``target`` together."""

    target: int
    own: int
    helper: int
    helper_from: int
    pay: int = PAY_MOVE

    def __reduce__(self) -> tuple[type[Ally], tuple[object, ...]]:
        return (Ally, (self.target, self.own, self.helper, self.helper_from, self.pay))

    def __repr__(self) -> str:
        return notation_repr(self)

    def __str__(self) -> str:
        return (
            f"ally {LOC_NAMES[self.target]} from {LOC_NAMES[self.own]} with {self.helper} "
            f"from {LOC_NAMES[self.helper_from]}" + _by(self.pay)
        )


@dataclass(frozen=True, slots=True, repr=False)
class Answer:
    accept: bool

    def __reduce__(self) -> tuple[type[Answer], tuple[object, ...]]:
        return (Answer, (self.accept,))

    def __repr__(self) -> str:
        return notation_repr(self)

    def __str__(self) -> str:
        return "accept" if self.accept else "decline"


@dataclass(frozen=True, slots=True, repr=False)
class TurnRing:
    ring: int
    right: bool

    def __reduce__(self) -> tuple[type[TurnRing], tuple[object, ...]]:
        return (TurnRing, (self.ring, self.right))

    def __repr__(self) -> str:
        return notation_repr(self)

    def __str__(self) -> str:
        return f"turn ring{self.ring} {'right' if self.right else 'left'}"


@dataclass(frozen=True, slots=True, repr=False)
class MoveArea:
    index: int

    def __reduce__(self) -> tuple[type[MoveArea], tuple[object, ...]]:
        return (MoveArea, (self.index,))

    def __repr__(self) -> str:
        return notation_repr(self)

    def __str__(self) -> str:
        return f"area 1.{self.index}"


@dataclass(frozen=True, slots=True, repr=False)
class Swap:
    a: int
    b: int

    def __reduce__(self) -> tuple[type[Swap], tuple[object, ...]]:
        return (Swap, (self.a, self.b))

    def __repr__(self) -> str:
        return notation_repr(self)

    def __str__(self) -> str:
        return f"swap {LOC_NAMES[self.a]} {LOC_NAMES[self.b]}"


@dataclass(frozen=True, slots=True, repr=False)
class End:
    drop: tuple[int, ...] = ()  # dice categories given up when the choice matters

    def __reduce__(self) -> tuple[type[End], tuple[object, ...]]:
        return (End, (self.drop,))

    def __repr__(self) -> str:
        return notation_repr(self)

    def __str__(self) -> str:
        if not self.drop:
            return "end"
        return "end drop " + "+".join(DIE_NAMES[c] for c in self.drop)


Action = (
    Roll
    | TerrainDraw
    | AreaDraw
    | Place
    | Exclude
    | Recruit
    | Move
    | Attack
    | Ally
    | Answer
    | TurnRing
    | MoveArea
    | Swap
    | End
)

# ------------------------------------------------------------------ id blocks
#: every (target, origin, origin) pair of neighbours an assault or alliance can name
ORIGIN_PAIRS: Final[tuple[tuple[int, int, int], ...]] = tuple(
    (target, first, second)
    for target in range(CENTER + 1)
    for first in ORIGIN_SLOTS[target]
    for second in ORIGIN_SLOTS[target]
)
ORIGIN_PAIR_INDEX: Final = {triple: k for k, triple in enumerate(ORIGIN_PAIRS)}
PAY_PAIR_INDEX: Final = {pair: k for k, pair in enumerate(PAY_PAIRS)}
DROP_INDEX: Final = {drop: k for k, drop in enumerate(DROPS)}

ROLL_BASE: Final = 0
TERRAIN_BASE: Final = ROLL_BASE + 6
PLACE_BASE: Final = TERRAIN_BASE + NUM_RINGS * len(ARRANGEMENTS)
EXCLUDE_BASE: Final = PLACE_BASE + RING_SIZE
RECRUIT_BASE: Final = EXCLUDE_BASE + 3
MOVE_BASE: Final = RECRUIT_BASE + 3 * 2
ATTACK_BASE: Final = MOVE_BASE + 3 * NUM_LOCS * NUM_LOCS * 3
ALLY_BASE: Final = ATTACK_BASE + len(ORIGIN_PAIRS) * len(PAY_PAIRS)
ANSWER_BASE: Final = ALLY_BASE + len(ORIGIN_PAIRS) * MAX_PLAYERS * 3
TURN_BASE: Final = ANSWER_BASE + 2
AREA_BASE: Final = TURN_BASE + NUM_RINGS * 2
SWAP_BASE: Final = AREA_BASE + RING_SIZE
END_BASE: Final = SWAP_BASE + len(EDGES)
#: the area draw comes last: its block has n! ids, so only its size depends on the table
AREAS_BASE: Final = END_BASE + len(DROPS)


def num_actions(num_players: int) -> int:
    return AREAS_BASE + len(area_permutations(num_players))


_PERMUTATIONS: Final = {n: tuple(permutations(range(1, n + 1))) for n in range(1, MAX_PLAYERS + 1)}
_PERMUTATION_INDEX: Final = {n: {p: k for k, p in enumerate(ps)} for n, ps in _PERMUTATIONS.items()}


def area_permutations(num_players: int) -> tuple[tuple[int, ...], ...]:
    return _PERMUTATIONS[num_players]


def _pair_index(target: int, first: int, second: int) -> int:
    try:
        return ORIGIN_PAIR_INDEX[(target, first, second)]
    except KeyError:
        raise InvalidActionError(
            f"{LOC_NAMES[first]} and {LOC_NAMES[second]} are not both next to {LOC_NAMES[target]}"
        ) from None


def action_id(action: Action, num_players: int) -> int:
    match action:
        case Move(unit, src, dst, pay):
            return MOVE_BASE + ((unit * NUM_LOCS + src) * NUM_LOCS + dst) * 3 + pay
        case Roll(face):
            return ROLL_BASE + face - 1
        case End(drop):
            return END_BASE + DROP_INDEX[drop]
        case Recruit(unit, by_move):
            return RECRUIT_BASE + unit * 2 + int(by_move)
        case Attack(target, lose, keep, pays):
            pair = _pair_index(target, lose, keep)
            return ATTACK_BASE + pair * len(PAY_PAIRS) + PAY_PAIR_INDEX[pays]
        case Ally(target, own, helper, helper_from, pay):
            if not 0 <= helper < MAX_PLAYERS:
                raise InvalidActionError(f"no player {helper}")
            pair = _pair_index(target, own, helper_from)
            return ALLY_BASE + (pair * MAX_PLAYERS + helper) * 3 + pay
        case Answer(accept):
            return ANSWER_BASE + (0 if accept else 1)
        case TurnRing(ring, right):
            return TURN_BASE + (ring - 1) * 2 + int(right)
        case MoveArea(index):
            return AREA_BASE + index
        case Swap(a, b):
            return SWAP_BASE + EDGE_INDEX[(a, b)]
        case TerrainDraw(ring, arrangement):
            return TERRAIN_BASE + (ring - 1) * len(ARRANGEMENTS) + ARRANGEMENT_INDEX[arrangement]
        case AreaDraw(areas):
            return AREAS_BASE + _PERMUTATION_INDEX[num_players][areas]
        case Place(index):
            return PLACE_BASE + index
        case Exclude(unit):
            return EXCLUDE_BASE + unit
    raise InvalidActionError(f"{action!r} is not a board action")


def action_from_id(action_id: int, num_players: int) -> Action:
    """The action with this id (the caller checks the range)."""
    if action_id < TERRAIN_BASE:
        return Roll(action_id - ROLL_BASE + 1)
    if action_id < PLACE_BASE:
        ring, k = divmod(action_id - TERRAIN_BASE, len(ARRANGEMENTS))
        return TerrainDraw(ring + 1, ARRANGEMENTS[k])
    if action_id < EXCLUDE_BASE:
        return Place(action_id - PLACE_BASE)
    if action_id < RECRUIT_BASE:
        return Exclude(action_id - EXCLUDE_BASE)
    if action_id < MOVE_BASE:
        unit, by_move = divmod(action_id - RECRUIT_BASE, 2)
        return Recruit(unit, bool(by_move))
    if action_id < ATTACK_BASE:
        rest, pay = divmod(action_id - MOVE_BASE, 3)
        rest, dst = divmod(rest, NUM_LOCS)
        unit, src = divmod(rest, NUM_LOCS)
        return Move(unit, src, dst, pay)
    if action_id < ALLY_BASE:
        pair, pays = divmod(action_id - ATTACK_BASE, len(PAY_PAIRS))
        target, lose, keep = ORIGIN_PAIRS[pair]
        return Attack(target, lose, keep, PAY_PAIRS[pays])
    if action_id < ANSWER_BASE:
        rest, pay = divmod(action_id - ALLY_BASE, 3)
        pair, helper = divmod(rest, MAX_PLAYERS)
        target, own, helper_from = ORIGIN_PAIRS[pair]
        return Ally(target, own, helper, helper_from, pay)
    if action_id < TURN_BASE:
        return Answer(action_id == ANSWER_BASE)
    if action_id < AREA_BASE:
        ring, right = divmod(action_id - TURN_BASE, 2)
        return TurnRing(ring + 1, bool(right))
    if action_id < SWAP_BASE:
        return MoveArea(action_id - AREA_BASE)
    if action_id < END_BASE:
        return Swap(*EDGES[action_id - SWAP_BASE])
    if action_id < AREAS_BASE:
        return End(DROPS[action_id - END_BASE])
    return AreaDraw(area_permutations(num_players)[action_id - AREAS_BASE])


# ------------------------------------------------------------------ parsing
_UNIT_BY_NAME: Final = {name: k for k, name in enumerate(UNIT_NAMES)}
_PAY_BY_NAME: Final = {name: k for k, name in enumerate(PAY_NAMES)}
_DIE_BY_NAME: Final = {name: k for k, name in enumerate(DIE_NAMES)}
_TERRAIN_BY_LETTER: Final = {letter: k for k, letter in enumerate(TERRAIN_LETTERS)}

GRAMMAR: Final = (
    "recruit <unit> [by move] | move <unit> <from>><to> [by recruit|pair] | "
    "attack <tile> lose <from> keep <from> [by <pay>+<pay>] | "
    "ally <tile> from <from> with <player> from <from> [by recruit|pair] | accept | decline | "
    "turn ring<1-4> left|right | area 1.<i> | swap <tile> <tile> | "
    "end [drop <die>[+<die>]] | place 1.<i> | exclude <unit> | roll <1-6> | "
    "terrain ring<r> <7 of L/N/D> | areas <a>,<b>,..."
)


class _Malformed(Exception):
    pass


def _loc(word: str) -> int:
    try:
        return LOC_BY_NAME[word]
    except KeyError:
        raise _Malformed(f"{word!r} is not a location (1.0 .. 4.6, C, A1 .. A4)") from None


def _outer(word: str) -> int:
    loc = _loc(word)
    if loc >= RING_SIZE:
        raise _Malformed(f"{word!r} is not an outer-ring tile (1.0 .. 1.6)")
    return loc


def _unit(word: str) -> int:
    try:
        return _UNIT_BY_NAME[word]
    except KeyError:
        raise _Malformed(f"{word!r} is not a unit (runner, fighter, blocker)") from None


def _pay(word: str) -> int:
    try:
        return _PAY_BY_NAME[word]
    except KeyError:
        raise _Malformed(f"{word!r} is not a payment (move, recruit, pair)") from None


def _ring(word: str) -> int:
    if word.startswith("ring") and word[4:] in ("1", "2", "3", "4"):
        return int(word[4:])
    raise _Malformed(f"{word!r} is not a ring (ring1 .. ring4)")


def _optional_pay(words: list[str]) -> int:
    match words:
        case []:
            return PAY_MOVE
        case ["by", pay]:
            return _pay(pay)
    raise _Malformed("expected nothing or 'by <payment>' at the end")


def _parse_words(words: list[str], num_players: int) -> Action:
    match words:
        case ["recruit", unit]:
            return Recruit(_unit(unit))
        case ["recruit", unit, "by", "move"]:
            return Recruit(_unit(unit), True)
        case ["move", unit, path, *rest]:
            ends = path.split(">")
            if len(ends) != 2:
                raise _Malformed(f"{path!r}: write a move as <from>><to>, e.g. 1.3>2.3")
            src, dst = _loc(ends[0]), _loc(ends[1])
            return Move(_unit(unit), src, dst, _optional_pay(rest))
        case ["attack", target, "lose", lose, "keep", keep, *rest]:
            pays: tuple[int, int] = (PAY_MOVE, PAY_MOVE)
            if rest:
                if len(rest) != 2 or rest[0] != "by" or rest[1].count("+") != 1:
                    raise _Malformed("an assault is paid 'by <pay>+<pay>'")
                first, second = rest[1].split("+")
                low, high = sorted((_pay(first), _pay(second)))
                pays = (low, high)
            return _checked_attack(Attack(_loc(target), _loc(lose), _loc(keep), pays))
        case ["ally", target, "from", own, "with", helper, "from", helper_from, *rest]:
            if not helper.isdigit() or not 0 <= int(helper) < MAX_PLAYERS:
                raise _Malformed(f"{helper!r} is not a player number (0 .. 3)")
            ally = Ally(
                _loc(target), _loc(own), int(helper), _loc(helper_from), _optional_pay(rest)
            )
            _slot_checked(ally.target, ally.own)
            _slot_checked(ally.target, ally.helper_from)
            return ally
        case ["accept"]:
            return Answer(True)
        case ["decline"]:
            return Answer(False)
        case ["turn", ring, ("left" | "right") as side]:
            return TurnRing(_ring(ring), side == "right")
        case ["area", tile]:
            return MoveArea(_outer(tile))
        case ["swap", first, second]:
            a, b = sorted((_loc(first), _loc(second)))
            if (a, b) not in EDGE_INDEX:
                raise _Malformed(f"{first} and {second} are not neighbouring ring tiles")
            return Swap(a, b)
        case ["end"]:
            return End()
        case ["end", "drop", dice]:
            try:
                drop = tuple(sorted(_DIE_BY_NAME[d] for d in dice.split("+")))
            except KeyError:
                raise _Malformed(f"{dice!r}: drop dice as recruit/move/turn joined by +") from None
            if len(drop) > 2:
                raise _Malformed("at most two dice are dropped")
            return End(drop)
        case ["place", tile]:
            return Place(_outer(tile))
        case ["exclude", unit]:
            return Exclude(_unit(unit))
        case ["roll", face] if face in ("1", "2", "3", "4", "5", "6"):
            return Roll(int(face))
        case ["terrain", ring, letters]:
            try:
                arrangement = tuple(_TERRAIN_BY_LETTER[c] for c in letters.upper())
            except KeyError:
                raise _Malformed(f"{letters!r}: terrain letters are L, N, D") from None
            if arrangement not in ARRANGEMENT_INDEX:
                raise _Malformed("a ring has 3 light, 2 normal and 2 difficult tiles")
            return TerrainDraw(_ring(ring), arrangement)
        case ["areas", numbers]:
            try:
                areas = tuple(int(x) for x in numbers.split(","))
            except ValueError:
                raise _Malformed(f"{numbers!r}: write area numbers as 2,1,...") from None
            if sorted(areas) != list(range(1, num_players + 1)):
                raise _Malformed(f"areas must be a permutation of 1..{num_players}")
            return AreaDraw(areas)
    raise _Malformed("unknown action")


def _slot_checked(target: int, origin: int) -> None:
    if target > CENTER or origin not in ORIGIN_SLOT_INDEX[target]:
        raise _Malformed(f"{LOC_NAMES[origin]} is not next to {LOC_NAMES[target]}")


def _checked_attack(attack: Attack) -> Attack:
    _slot_checked(attack.target, attack.lose)
    _slot_checked(attack.target, attack.keep)
    return attack


def parse_action(text: str, num_players: int) -> Action:
    words = text.strip().lower().split()
    try:
        return _parse_words(words, num_players)
    except _Malformed as exc:
        raise InvalidActionError(
            f"{text!r} is not a board action: {exc}. Actions: {GRAMMAR}"
        ) from None
