"""A plain reference move generator for the board game, written against the rule text
(docs/rules/board.md) and nothing of the engine's listing: no masks, no memos, no tables
beyond the board's geometry. Slow on purpose: each rule is one readable function, and
the tests diff its answers with ``BoardGame.legal_actions``.

It covers the decision phases (placing an area, a turn, answering an offer); the
chance phases and the simultaneous exclusion are the engine's alone.
"""

from __future__ import annotations

from itertools import combinations_with_replacement

from koth.games.board.actions import (
    PAY_MOVE,
    PAY_PAIR,
    PAY_RECRUIT,
    Action,
    Ally,
    Answer,
    Attack,
    End,
    Move,
    MoveArea,
    Place,
    Recruit,
    Swap,
    TurnRing,
)
from koth.games.board.params import BoardParams
from koth.games.board.state import BoardState, Phase
from koth.games.board.tables import (
    BLOCKER,
    CENTER,
    DIFFICULT,
    EDGES,
    FIGHTER,
    LIGHT,
    NEIGHBOURS,
    NORMAL,
    NUM_TILES,
    RING_SIZE,
    RUNNER,
    STACK_LIMIT,
    STRIDE,
    UNITS_PER_PLAYER,
)

#: B9: the terrain each unit type may enter
ALLOWED = {
    RUNNER: {LIGHT, NORMAL, DIFFICULT},
    FIGHTER: {LIGHT, NORMAL},
    BLOCKER: {LIGHT},
}


class Position:
    """A board state read the way the rulebook speaks of it."""

    def __init__(self, params: BoardParams, s: BoardState) -> None:
        self.params = params
        self.s = s
        self.n = params.num_players

    # ---------------------------------------------------------------- geometry
    def area_loc(self, player: int) -> int:
        return CENTER + self.s.area_of[player]

    def area_tile(self, area_loc: int) -> int | None:
        """B3.1: the one outer tile an area touches (None before it is placed)."""
        pos = self.s.area_pos[area_loc - CENTER - 1]
        return pos if pos >= 0 else None

    def neighbours(self, loc: int) -> list[int]:
        """B1, B3.1: tiles touch orthogonally; an area touches the outer tile it is
        attached to, and that tile touches the area."""
        if loc > CENTER:
            tile = self.area_tile(loc)
            return [] if tile is None else [tile]
        result = list(NEIGHBOURS[loc])
        for k, pos in enumerate(self.s.area_pos):
            if pos == loc:
                result.append(CENTER + 1 + k)
        return result

    def allows(self, loc: int, unit: int) -> bool:
        """B2, B9: the center and the areas accept every unit."""
        return loc >= NUM_TILES or self.s.terrain[loc] in ALLOWED[unit]

    # ------------------------------------------------------------------- units
    def count(self, player: int, loc: int, unit: int) -> int:
        return self.s.units[player * STRIDE + loc * 3 + unit]

    def stack(self, player: int, loc: int) -> int:
        return sum(self.count(player, loc, unit) for unit in range(3))

    def enemies(self, player: int) -> list[int]:
        """B16.3: teammates are opponents on the board."""
        return [q for q in range(self.n) if q != player]

    def enemy_count(self, player: int, loc: int, units: tuple[int, ...]) -> int:
        return sum(self.count(q, loc, unit) for q in self.enemies(player) for unit in units)

    def in_hand(self, player: int, unit: int) -> int:
        return self.s.hand[player * 3 + unit]

    def may_recruit(self, player: int, unit: int) -> bool:
        """B8, B16.2: a unit in hand, not the excluded type, runners from their round."""
        if self.in_hand(player, unit) == 0 or self.s.excluded[player] == unit:
            return False
        return unit != RUNNER or self.s.round >= self.params.runner_first_round

    def all_recruited(self, player: int) -> bool:
        """B7.4: no unit the player may use is in hand; runners still waiting for their
        round count as usable."""
        return all(
            self.in_hand(player, unit) == 0 or self.s.excluded[player] == unit for unit in range(3)
        )

    def nothing_in_play(self, player: int) -> bool:
        """B7.4: all nine units in hand."""
        return sum(self.in_hand(player, unit) for unit in range(3)) == sum(UNITS_PER_PLAYER)

    # -------------------------------------------------------------------- dice
    def dice_of_kind(self, player: int) -> tuple[int, int, int]:
        """B7: faces 1-2 recruit, 3-4 move, 5-6 turn."""
        faces = self.s.dice[player]
        return (
            sum(1 for f in faces if f in (1, 2)),
            sum(1 for f in faces if f in (3, 4)),
            sum(1 for f in faces if f in (5, 6)),
        )

    def move_payments(self, player: int) -> list[int]:
        """B7, B7.3, B7.4: a move die; a recruit die once all is recruited; two turning
        dice."""
        recruit, move, turn = self.dice_of_kind(player)
        payments = []
        if move:
            payments.append(PAY_MOVE)
        if recruit and self.all_recruited(player):
            payments.append(PAY_RECRUIT)
        if turn >= 2:
            payments.append(PAY_PAIR)
        return payments


# ------------------------------------------------------------------ recruiting
def recruits(pos: Position, p: int) -> list[Action]:
    """B8, with B7's conversion: move dice recruit while no unit is in play."""
    recruit_dice, move_dice, _ = pos.dice_of_kind(p)
    result: list[Action] = []
    for unit in range(3):
        if not pos.may_recruit(p, unit):
            continue
        if recruit_dice:
            result.append(Recruit(unit, False))
        if move_dice and pos.nothing_in_play(p):
            result.append(Recruit(unit, True))
    return result


# ------------------------------------------------------------------- movement
def may_pass(pos: Position, p: int, unit: int, loc: int) -> bool:
    """May a moving unit go on through ``loc`` (not end there)? Never through an area
    (B3.1); runners never through enemy fighters or blockers, nor, with the option, their
    own (B10); fighters and blockers only over terrain they may enter and tiles without
    any enemy unit (B9.1)."""
    if loc > CENTER:
        return False
    if unit == RUNNER:
        if pos.enemy_count(p, loc, (FIGHTER, BLOCKER)):
            return False
        if pos.params.runners_blocked_by_own:
            return not (pos.count(p, loc, FIGHTER) or pos.count(p, loc, BLOCKER))
        return True
    return pos.allows(loc, unit) and pos.enemy_count(p, loc, (RUNNER, FIGHTER, BLOCKER)) == 0


def may_end(pos: Position, p: int, unit: int, loc: int) -> bool:
    """May a moving unit end its move on ``loc``?"""
    if loc > CENTER:
        return loc == pos.area_loc(p)  # B3, B9.2: the own area only, any number of units
    if pos.stack(p, loc) >= STACK_LIMIT[loc]:  # B5, B11.1
        return False
    if unit == RUNNER:  # B10, B10.1
        if pos.enemy_count(p, loc, (FIGHTER, BLOCKER)):
            return False
        own_blocks = pos.count(p, loc, FIGHTER) or pos.count(p, loc, BLOCKER)
        return not (pos.params.runners_blocked_by_own and own_blocks)
    if not pos.allows(loc, unit):  # B9
        return False
    if unit == FIGHTER:  # B11: a single fighter never enters an enemy blocker's tile
        return pos.enemy_count(p, loc, (BLOCKER,)) == 0
    # B12: blockers never enter a tile with an enemy fighter; B12.3: with the option,
    # nor one with an enemy blocker
    if pos.params.blockers_avoid_blockers:
        return pos.enemy_count(p, loc, (FIGHTER, BLOCKER)) == 0
    return pos.enemy_count(p, loc, (FIGHTER,)) == 0


def destinations(pos: Position, p: int, unit: int, src: int) -> set[int]:
    """B9, B9.1: every location some path of 1..range steps from ``src`` ends on; the
    tiles before the last one are passed."""
    reach = (pos.params.runner_range, pos.params.fighter_range, pos.params.blocker_range)[unit]
    found: set[int] = set()
    paths = [[src]]
    for _ in range(reach):
        longer = []
        for path in paths:
            here = path[-1]
            if len(path) > 1 and not may_pass(pos, p, unit, here):
                continue
            for nxt in pos.neighbours(here):
                if nxt in path:
                    continue
                if may_end(pos, p, unit, nxt):
                    found.add(nxt)
                longer.append([*path, nxt])
        paths = longer
    found.discard(src)
    return found


def moves(pos: Position, p: int) -> list[Action]:
    """B9: one unit, from where it stands to a reachable location, by each payment."""
    payments = pos.move_payments(p)
    result: list[Action] = []
    for src in range(CENTER + 1 + 4):
        for unit in range(3):
            if pos.count(p, src, unit):
                for dst in destinations(pos, p, unit, src):
                    result += [Move(unit, src, dst, pay) for pay in payments]
    return result


# ------------------------------------------------------------------- fighting
def enemy_blockers(pos: Position, p: int) -> list[tuple[int, int]]:
    """(tile, owner) of every ring tile or the center with an enemy blocker; where
    several enemies' blockers share it, the owner is the one an attack kills: the first
    after ``p`` in turn order (B12.4)."""
    order = list(pos.s.order)
    after_p = order[order.index(p) + 1 :] + order[: order.index(p)]
    result = []
    for loc in range(CENTER + 1):
        owners = [q for q in after_p if pos.count(q, loc, BLOCKER)]
        if owners:
            result.append((loc, owners[0]))
    return result


def fighter_origins(pos: Position, player: int, target: int) -> list[int]:
    """B11.2: where ``player``'s fighters stand next to ``target`` (any fighter range)."""
    return [loc for loc in pos.neighbours(target) if pos.count(player, loc, FIGHTER)]


def payment_pairs(pos: Position, p: int) -> list[tuple[int, int]]:
    """B11.2: an assault spends two move actions, each paid as a move is; together they
    must fit the dice."""
    recruit, move, turn = pos.dice_of_kind(p)
    cost = {PAY_MOVE: (0, 1, 0), PAY_RECRUIT: (1, 0, 0), PAY_PAIR: (0, 0, 2)}
    pairs = []
    for first, second in combinations_with_replacement(pos.move_payments(p), 2):
        need = [cost[first][k] + cost[second][k] for k in range(3)]
        if need[0] <= recruit and need[1] <= move and need[2] <= turn:
            pairs.append((first, second))
    return pairs


def assaults(pos: Position, p: int) -> list[Action]:
    """B11.2: two own fighters next to an enemy blocker, in a fresh turn; both may stand
    on one tile when it holds two."""
    if pos.s.slots != 0:
        return []
    result: list[Action] = []
    for target, _ in enemy_blockers(pos, p):
        origins = fighter_origins(pos, p, target)
        for lose in origins:
            for keep in origins:
                if lose == keep and pos.count(p, lose, FIGHTER) < 2:
                    continue
                result += [Attack(target, lose, keep, pays) for pays in payment_pairs(pos, p)]
    return result


def alliance_offers(pos: Position, p: int) -> list[Action]:
    """B13, B13.1: an own fighter and a third player's fighter next to an enemy blocker;
    the helper neither owns the blocker nor declined this turn; one move action."""
    result: list[Action] = []
    for target, owner in enemy_blockers(pos, p):
        for helper in pos.enemies(p):
            if helper == owner or pos.s.declined >> helper & 1:
                continue
            for own in fighter_origins(pos, p, target):
                for helper_from in fighter_origins(pos, helper, target):
                    result += [
                        Ally(target, own, helper, helper_from, pay) for pay in pos.move_payments(p)
                    ]
    return result


# -------------------------------------------------------------------- turning
def turnings(pos: Position, p: int) -> list[Action]:
    """B14: ring turns, the own area to a free outer position, terrain swaps."""
    if not pos.dice_of_kind(p)[2]:
        return []
    result: list[Action] = [
        TurnRing(ring, right) for ring in range(1, 5) for right in (False, True)
    ]
    taken = set(pos.s.area_pos)
    result += [MoveArea(index) for index in range(RING_SIZE) if index not in taken]
    result += [Swap(a, b) for a, b in EDGES if swap_allowed(pos, a, b)]
    return result


def swap_allowed(pos: Position, a: int, b: int) -> bool:
    """B14, B14.2: different terrain, and no unit ends on terrain it may not stand on."""
    terrain = pos.s.terrain
    if terrain[a] == terrain[b]:
        return False
    for here, new_terrain in ((a, terrain[b]), (b, terrain[a])):
        for q in range(pos.n):
            for unit in range(3):
                if pos.count(q, here, unit) and new_terrain not in ALLOWED[unit]:
                    return False
    return True


# ----------------------------------------------------------------- ending
def ends(pos: Position, p: int) -> list[Action]:
    """B7, B7.1: a first turn's unused slots forfeit one die each, chosen by the
    player when there is a choice; a second turn simply ends."""
    if pos.s.turn >= pos.n:
        return [End()]
    counts = pos.dice_of_kind(p)
    to_drop = min(2 - pos.s.slots, sum(counts))
    choices = [
        drop
        for drop in combinations_with_replacement(range(3), to_drop)
        if all(drop.count(kind) <= counts[kind] for kind in range(3))
    ]
    if len(choices) <= 1:
        return [End()]
    return [End(drop) for drop in choices]


# ---------------------------------------------------------------- the phases
def turn_actions(pos: Position, p: int) -> list[Action]:
    return (
        recruits(pos, p)
        + moves(pos, p)
        + assaults(pos, p)
        + alliance_offers(pos, p)
        + turnings(pos, p)
        + ends(pos, p)
    )


def legal_actions(params: BoardParams, s: BoardState, player: int) -> list[Action]:
    """Every legal action of ``player`` in a decision phase (in no particular order)."""
    pos = Position(params, s)
    if s.phase is Phase.TURN:
        return turn_actions(pos, player) if player == s.order[s.turn % pos.n] else []
    if s.phase is Phase.ANSWER:
        return [Answer(True), Answer(False)] if s.offer and player == s.offer.helper else []
    if s.phase is Phase.PLACE:
        # B3: highest area number first, onto an outer tile no other area touches
        unplaced = [area for area in range(1, pos.n + 1) if s.area_pos[area - 1] < 0]
        if player != s.area_of.index(max(unplaced)):
            return []
        return [Place(i) for i in range(RING_SIZE) if i not in s.area_pos]
    raise ValueError(f"{s.phase.name} is not a phase the oracle knows")
