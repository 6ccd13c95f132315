"""Legal actions: the hot path of random playouts, on flat tuples and short lists.

docs/board_engine.md is the reader's guide: the state layout, the bit idioms and their
helpers, every cache of this module, and the oracle that is the readable spec.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import reduce
from operator import or_
from typing import Final

from koth.core.offered import as_sequence
from koth.core.players import PlayerId
from koth.games.board.actions import (
    DROPS,
    MAX_PLAYERS,
    PAY_MOVE,
    PAY_PAIR,
    PAY_RECRUIT,
    Action,
    Ally,
    Answer,
    Attack,
    End,
    Exclude,
    MoveArea,
    Place,
    Recruit,
    Roll,
    TurnRing,
    action_id,
)
from koth.games.board.offers import MOVE_ROWS, SWAPS, TurnActions, move_row, segment
from koth.games.board.params import BoardParams
from koth.games.board.state import (
    PHASE_ANSWER,
    PHASE_EXCLUDE,
    PHASE_PLACE,
    PHASE_TURN,
    BoardState,
)
from koth.games.board.tables import (
    ALL_EDGES,
    BALLS,
    CENTER,
    DIFFICULT,
    EDGES,
    EDGES_AT_TILE,
    EDGES_FROM_TILE,
    EDGES_TO_TILE,
    FIGHTER,
    LIGHT,
    NORMAL,
    NUM_LOCS,
    NUM_TILES,
    ORIGIN_SLOTS,
    PLAYFIELD,
    REACH,
    RING_SIZE,
    RUNNER,
    STACK_LIMIT,
    STRIDE,
    TOTAL_UNITS,
    edges_from,
    edges_to,
    has_bit,
    locs_of,
    lowest_bit,
    reach_key,
    search_reach,
    without_bit,
)

ROLL_OUTCOMES: Final[tuple[tuple[Action, float], ...]] = tuple(
    (Roll(f), 1 / 6) for f in range(1, 7)
)
ANSWERS: Final[tuple[Action, ...]] = (Answer(True), Answer(False))
RING_TURNS: Final[tuple[Action, ...]] = tuple(
    TurnRing(ring, right) for ring in range(1, 5) for right in (False, True)
)
AREA_MOVES: Final[tuple[MoveArea, ...]] = tuple(MoveArea(i) for i in range(RING_SIZE))
#: B14, by the mask of the free positions of the outer ring (bit i: no area touches
#: index i): the ring turns, then the own area's moves to each free position
TURNING: Final[tuple[tuple[Action, ...], ...]] = tuple(
    RING_TURNS + tuple(AREA_MOVES[i] for i in range(RING_SIZE) if has_bit(free, i))
    for free in range(1 << RING_SIZE)
)
#: the ids of each ``TURNING`` list, in the same order (``TurnActions.ids``)
TURNING_IDS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(action_id(action, MAX_PLAYERS) for action in turning) for turning in TURNING
)
#: per target tile (and the center): the mask of ORIGIN_SLOTS[target]
ORIGIN_SLOT_MASKS: Final[tuple[int, ...]] = tuple(
    reduce(or_, (1 << loc for loc in slots), 0) for slots in ORIGIN_SLOTS
)
#: the End value of each choice of dice to give up (one value each, reused)
END_VALUES: Final[dict[tuple[int, ...], Action]] = {drop: End(drop) for drop in DROPS}
#: ``RECRUITS[unit][by_move]``
RECRUITS: Final[tuple[tuple[Action, Action], ...]] = tuple(
    (Recruit(t, False), Recruit(t, True)) for t in range(3)
)
#: B8, by ``types << 2 | 2 * (a recruit die) + (recruits paid by a move die)``, where
#: bit t of ``types`` says that type t may be recruited: the recruits, in id order
RECRUIT_LISTS: Final[tuple[tuple[Action, ...], ...]] = tuple(
    tuple(
        RECRUITS[t][by_move]
        for t in range(3)
        if has_bit(code >> 2, t)
        for by_move in (0, 1)
        if has_bit(code, 1 - by_move)
    )
    for code in range(8 << 2)
)
#: the ids of each ``RECRUIT_LISTS`` list, in the same order (``TurnActions.ids``)
RECRUIT_ID_LISTS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(action_id(action, MAX_PLAYERS) for action in recruits) for recruits in RECRUIT_LISTS
)

#: ``bytes.translate`` tables: "1" where a terrain byte is light, normal, difficult
_IS_TERRAIN: Final = tuple(bytes(49 if v == kind else 48 for v in range(256)) for kind in range(3))
#: _moves_to results by ``dests << 10 | (unit * NUM_LOCS + src) * 8 + payments as a bit
#: set`` (below 1024)
_MOVES_TO: Final[dict[int, tuple[Action, ...]]] = {}
_MOVES_LIMIT: Final = 20_000
#: Whether this module runs compiled. Then a turn's actions are a ``TurnActions``, which
#: keeps each unit's destinations as a mask and builds the move that is read (a random
#: playout reads one action of some sixty), and ``terrain_masks`` reads the terrain tile
#: by tile. Interpreted, each read of such a list runs several Python calls, and the
#: plain list (one memo lookup of a whole tuple of moves per source) and
#: ``bytes.translate`` are faster (docs/performance.md).
COMPILED: Final = not __file__.endswith(".py")


def moves_to_key(dests: int, unit: int, src: int, pays_key: int) -> int:
    """The ``_MOVES_TO`` key of a unit's moves from ``src`` to ``dests`` paid by the
    payments ``pays_key`` (``pay_set``): one int, which hashes faster than a tuple."""
    return dests << 10 | (unit * NUM_LOCS + src) * 8 + pays_key


def pay_set(pays: tuple[int, ...]) -> int:
    """The payments of a move as a bit set (below 8): a memo key's part."""
    bits = 0
    for pay in pays:
        bits |= 1 << pay
    return bits


def _moves_to(unit: int, src: int, pays: tuple[int, ...], dests: int) -> tuple[Action, ...]:
    """The moves of a ``unit`` from ``src`` to each location of ``dests`` (a mask), each
    with every payment of ``pays`` in turn, in id order. Remembered in ``_MOVES_TO``."""
    row = (unit * NUM_LOCS + src) * 3
    if len(pays) == 1:  # the usual case: one row of the table, no interleaving
        by_dst = MOVE_ROWS[row + pays[0]]
        moves: tuple[Action, ...] = tuple([by_dst[dst] for dst in locs_of(dests)])
    else:
        rows = [MOVE_ROWS[row + pay] for pay in pays]
        moves = tuple([by_dst[dst] for dst in locs_of(dests) for by_dst in rows])
    if len(_MOVES_TO) >= _MOVES_LIMIT:
        _MOVES_TO.clear()  # bounded memory (a few MB); the lists in use come back soon
    _MOVES_TO[moves_to_key(dests, unit, src, pay_set(pays))] = moves
    return moves


def die_counts(pool: tuple[int, ...]) -> tuple[int, int, int]:
    """The recruit, move and turn dice of a pool. Compiled, counting its four faces or
    fewer costs less than hashing the pool for the memo; interpreted, it costs more."""
    if not COMPILED:
        counts = _DIE_COUNTS.get(pool)
        if counts is not None:
            return counts
    recruit = move = turn = 0
    for face in pool:
        if face <= 2:
            recruit += 1
        elif face <= 4:
            move += 1
        else:
            turn += 1
    if not COMPILED:
        _DIE_COUNTS[pool] = (recruit, move, turn)
    return recruit, move, turn


#: the payments of a move, indexed ``4 * (a move die) + 2 * (a recruit die usable) +
#: (two turn dice)``: a tuple read by an int index boxes nothing, a dict's key would
_PAYS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(
        pay
        for pay, usable in ((PAY_MOVE, move), (PAY_RECRUIT, recruit), (PAY_PAIR, pair))
        if usable
    )
    for move in (False, True)
    for recruit in (False, True)
    for pair in (False, True)
)
#: die_counts of each pool met (pools are short tuples of faces: a few hundred at most)
_DIE_COUNTS: Final[dict[tuple[int, ...], tuple[int, int, int]]] = {}
#: pay_pairs by the die counts and the payments (as a bit set) packed into one int,
#: filled as met: a list read by an int index, where a dict would hash a tuple of tuples
_PAY_PAIRS: Final[list[tuple[tuple[int, int], ...] | None]] = [None] * (5 * 5 * 5 * 8)
#: _ends by its key (last turn of the round, slots used, die counts), filled as met: a
#: list read by an int index, where a dict would hash a tuple of tuples
_ENDS: Final[list[tuple[tuple[Action, ...], tuple[int, ...]] | None]] = [None] * (2 * 3 * 5 * 5 * 5)


#: ``[start << 3 | steps]``: (near, seen, passed) of the last search from ``start`` over
#: ``steps`` (see ``_add_unit_moves``): most units stand still from one listing to the
#: next, and a list read by an int index costs less than the ``REACH`` memo's dict
#: lookup by a boxed key. Entries are replaced whole, so threads sharing it stay safe.
_LAST_REACH: Final[list[tuple[int, int, int]]] = [(-1, 0, 0)] * (64 << 3)
#: the swaps' tuples by their mask of EDGES (for the plain list), bounded
_SWAP_LISTS: Final[dict[int, tuple[Action, ...]]] = {}
_SWAPS_LIMIT: Final = 5_000
#: what LegalActions.terrain_masks returns
_TerrainMasks = tuple[int, int, int, int, int, int, int]


def swapped_tiles(old: tuple[int, ...], new: tuple[int, ...]) -> int:
    """Whether the layout ``new`` is ``old`` with two tiles swapped: ``a << 6 | b`` for
    the tiles ``a`` < ``b`` (0 when the layouts are equal), or -1."""
    a = b = -1
    for i in range(NUM_TILES):
        if old[i] != new[i]:
            if a < 0:
                a = i
            elif b < 0:
                b = i
            else:
                return -1
    if a < 0:
        return 0  # equal layouts: "tile 0 swapped with itself" changes nothing
    if b < 0 or old[a] != new[b] or old[b] != new[a]:
        return -1
    return a << 6 | b


def _fighter_origins(
    units: bytes, area_of: tuple[int, ...], attached: tuple[int, ...], q: int, target: int
) -> list[int]:
    """The slots around ``target`` from which player ``q``'s fighters may assault it: the
    tiles (and center) holding one, or ``q``'s own area when it touches ``target``."""
    qb = q * STRIDE + 1
    q_area = CENTER + area_of[q]
    return [
        loc
        for loc in ORIGIN_SLOTS[target]
        if units[qb + loc * 3] and (loc <= CENTER or (loc == q_area and attached[target] == loc))
    ]


def blocker_victim(units: Sequence[int], order: tuple[int, ...], p: int, target: int) -> int:
    """The opponent of ``p`` whose blocker an attack by ``p`` on ``target`` kills: the
    first one after ``p`` in turn order with a blocker there (B12.4; blockers of several
    players share a tile only where blockers may join enemy blockers)."""
    n = len(order)
    start = order.index(p)
    for i in range(1, n):
        q = order[(start + i) % n]
        if units[q * STRIDE + target * 3 + 2]:
            return q
    raise ValueError(f"no enemy blocker on location {target}")


class LegalActions:
    """The legal-action half of ``Rules`` (which sets ``params`` and ``n``)."""

    params: BoardParams
    n: int
    #: plain copies of the parameters read at every turn (a pydantic attribute read
    #: costs several plain ones): the runner, fighter and blocker ranges (B9, B10)
    ranges: tuple[int, int, int]
    runner_first_round: int
    runners_blocked_by_own: bool
    blockers_avoid_blockers: bool
    #: (terrain, terrain_masks(terrain)) of the last terrain met, read and written as one
    #: tuple so that sharing the rules between threads stays safe
    _last_terrain: tuple[tuple[int, ...] | None, _TerrainMasks] = (None, (0,) * 7)
    #: (area_pos, _attached(area_pos)) of the last placement of the areas met, likewise
    _last_attached: tuple[tuple[int, ...] | None, tuple[int, ...]] = (None, ())
    #: (terrain, fighters, blockers, the swaps as a mask) of the last ``_swap_mask``,
    #: likewise
    _last_swap_mask: tuple[tuple[int, ...] | None, int, int, int] = (None, 0, 0, 0)

    def next_area_to_place(self, s: BoardState) -> int:
        """The highest area number not yet attached (B3)."""
        for area in range(self.n, 0, -1):
            if s.area_pos[area - 1] < 0:
                return area
        return 0

    # ------------------------------------------------------------ legal actions
    def legal_actions(self, s: BoardState, player: PlayerId) -> Sequence[Action]:
        phase = s.phase
        if phase is PHASE_TURN:
            return self.turn_actions(s, player) if player == s.active() else []
        if phase is PHASE_ANSWER:
            return list(ANSWERS) if s.offer is not None and player == s.offer.helper else []
        if phase is PHASE_PLACE:
            if player != s.area_of.index(self.next_area_to_place(s)):
                return []
            taken = set(s.area_pos)
            return [Place(i) for i in range(RING_SIZE) if i not in taken]
        if phase is PHASE_EXCLUDE:
            return [Exclude(t) for t in range(3)] if 0 <= player < self.n else []
        return []

    def all_recruited(self, s: BoardState, p: int) -> bool:
        """No unit the player may use is left in hand (B7)."""
        excluded = s.excluded[p]
        hand = s.hand
        k = p * 3
        return (
            (hand[k] == 0 or excluded == 0)
            and (hand[k + 1] == 0 or excluded == 1)
            and (hand[k + 2] == 0 or excluded == 2)
        )

    def pay_pairs(self, s: BoardState, p: int, pays: tuple[int, ...]) -> list[tuple[int, int]]:
        """The payments of an assault: two move actions at once (B11)."""
        counts = die_counts(s.dice[p])
        # a pool holds at most four dice, so each count is below 5
        key = ((counts[0] * 5 + counts[1]) * 5 + counts[2]) * 8 + pay_set(pays)
        pairs = _PAY_PAIRS[key]
        if pairs is None:
            need = {PAY_MOVE: (0, 1, 0), PAY_RECRUIT: (1, 0, 0), PAY_PAIR: (0, 0, 2)}
            result = []
            for k, first in enumerate(pays):
                for second in pays[k:]:
                    total = [need[first][c] + need[second][c] for c in range(3)]
                    if all(total[c] <= counts[c] for c in range(3)):
                        result.append((first, second))
            pairs = _PAY_PAIRS[key] = tuple(result)
        return list(pairs)

    def attached(self, s: BoardState) -> list[int]:
        """Per outer index: the location of the area touching it, or -1."""
        return list(self._attached(s.area_pos))

    def _attached(self, area_pos: tuple[int, ...]) -> tuple[int, ...]:
        last, attached = self._last_attached
        if last is area_pos:
            return attached
        result = [-1] * RING_SIZE
        for k, pos in enumerate(area_pos):
            if pos >= 0:
                result[pos] = CENTER + 1 + k
        attached = tuple(result)
        self._last_attached = (area_pos, attached)
        return attached

    def turn_actions(self, s: BoardState, p: int) -> Sequence[Action]:
        """Every action of the active player ``p`` in a turn, in id order: recruits,
        unit moves, assaults and alliance offers, turning, ends. A ``TurnActions`` in
        the compiled build, a list otherwise (``list_turn_actions``)."""
        return self.list_turn_actions(s, p, COMPILED)

    def list_turn_actions(self, s: BoardState, p: int, lazy: bool) -> Sequence[Action]:
        """``turn_actions`` as a ``TurnActions`` (``lazy``) or as a list."""
        n_recruit, n_move, n_turn = die_counts(s.dice[p])
        hand = s.hand
        nothing_in_play = hand[p * 3] + hand[p * 3 + 1] + hand[p * 3 + 2] == TOTAL_UNITS
        attached = self._attached(s.area_pos)

        # Generate recruits (B8): a unit in hand, not the excluded type, runners from
        # their first round; paid by a recruit die, or by a move die while nothing is in
        # play (B7.4). The recruits of each case are one prebuilt tuple.
        recruit_by_move = bool(n_move) and nothing_in_play
        head: tuple[Action, ...] = ()
        head_ids: tuple[int, ...] = ()  # the ids of each part, for TurnActions.ids
        if n_recruit or recruit_by_move:
            excluded = s.excluded[p]
            runners_too = s.round >= self.runner_first_round
            types = 0
            for t in range(3):
                if hand[p * 3 + t] and t != excluded and (t != RUNNER or runners_too):
                    types |= 1 << t
            paid = (2 if n_recruit else 0) | (1 if recruit_by_move else 0)
            head = RECRUIT_LISTS[types << 2 | paid]
            head_ids = RECRUIT_ID_LISTS[types << 2 | paid]

        # Generate unit moves (B9-B12), then assaults (B11.2) and alliance offers (B13),
        # each paid as a move may be paid now (B7, B7.4). Listed lazily, the recruits
        # are the head, the moves are kept as one ``segment`` per moving unit, and what
        # follows them are the middle (the assaults and offers, then the turning), the
        # swaps' mask and the ends; the list of assaults and offers is made only when
        # there is a target.
        segments: list[int] = []
        swaps = 0
        # the plain list; lazily, the assaults and offers alone, made when there are
        actions: list[Action] | None = None if lazy else list(head)
        pays = _PAYS[
            (4 if n_move else 0)
            + (2 if n_recruit and self.all_recruited(s, p) else 0)
            + (1 if n_turn >= 2 else 0)
        ]
        if pays and not nothing_in_play:
            terrain = self.terrain_masks(s.terrain)
            enemy_blockers = self._add_unit_moves(s, p, pays, terrain, actions, segments)
            # blockers not on difficult terrain, next to (a slot of) an own fighter: the
            # others have no own fighter to assault or ally from
            # (an assault needs the turn's first slot, an alliance a third player)
            if s.slots == 0 or self.n > 2:
                own_fighters = s.occupied[p * 3 + FIGHTER]
                standing = terrain[0] | terrain[1] | 1 << CENTER
                rest = enemy_blockers & standing
                targets: list[int] | None = None
                while rest:  # lowest first
                    d = lowest_bit(rest)
                    rest &= rest - 1
                    if own_fighters & ORIGIN_SLOT_MASKS[d]:
                        if targets is None:
                            targets = []
                        targets.append(d)
                if targets is not None:
                    if actions is None:
                        actions = []
                    self._assaults(s, p, pays, targets, attached, actions)

        # Generate turning (B14): ring turns, the own area to a free position, swaps.
        turning: tuple[Action, ...] = ()
        turning_ids: tuple[int, ...] = ()
        if n_turn:
            free = 0
            for i in range(RING_SIZE):
                if attached[i] < 0:
                    free |= 1 << i
            turning = TURNING[free]
            turning_ids = TURNING_IDS[free]
            if lazy:
                swaps = self._swap_mask(s)
            else:
                assert actions is not None  # the plain list, made above
                actions += turning
                actions += self._swaps(s)

        # Generate the ends of the turn (B7, B7.1).
        ends, end_ids = self._ends(s, n_recruit, n_move, n_turn)
        if lazy:
            # the middle: the assaults and offers (if any), then the turning
            middle = tuple(actions) + turning if actions else turning
            return as_sequence(
                TurnActions(
                    head, segments, pays, middle, swaps, ends, (head_ids, turning_ids, end_ids)
                )
            )
        assert actions is not None  # the plain list, made above
        actions += ends
        return actions

    def _add_unit_moves(
        self,
        s: BoardState,
        p: int,
        pays: tuple[int, ...],
        terrain: _TerrainMasks,
        actions: list[Action] | None,
        segments: list[int],
    ) -> int:
        """Append every move of one of ``p``'s units (B9-B12), with each payment of
        ``pays``, in id order (``terrain``: ``terrain_masks`` of the state), to
        ``actions``; or, without ``actions``, append each moving unit's ``segment`` (its
        ``move_row`` and its destinations, a mask) to ``segments``. Returns the mask of the enemy
        blockers (for the assaults)."""
        units = s.units
        occupied = s.occupied
        hp = p * 3
        own_r = occupied[hp]
        own_f = occupied[hp + 1]
        own_b = occupied[hp + 2]
        enemy_r = enemy_f = enemy_b = 0
        for q in range(self.n):
            if q != p:
                enemy_r |= occupied[q * 3]
                enemy_f |= occupied[q * 3 + 1]
                enemy_b |= occupied[q * 3 + 2]
        # B5: own stacks at their limit take no more units (the own locations' bits,
        # lowest first: walking bits builds no list)
        full = 0
        base = p * STRIDE
        mine = own_r | own_f | own_b
        while mine:
            loc = lowest_bit(mine)
            mine &= mine - 1
            k = base + loc * 3
            if units[k] + units[k + 1] + units[k + 2] >= STACK_LIMIT[loc]:
                full |= 1 << loc
        center = 1 << CENTER
        # B9: where fighters and blockers may stand (tiles of allowed terrain, the
        # center; runners anywhere on the playfield). Plain locals, as the ranges below:
        # compiled, indexing a tuple of ints by a variable boxes it into a new tuple.
        fighter_ground = terrain[0] | terrain[1] | center
        blocker_ground = terrain[0] | center
        enemy_any = enemy_f | enemy_b | enemy_r
        own_area = CENTER + s.area_of[p]
        area_pos = s.area_pos
        own_pos = area_pos[own_area - CENTER - 1] if own_area > CENTER else -1
        own_bit = 1 << own_area
        own_touch = 1 << own_pos if own_pos >= 0 else 0  # the tile next to the own area
        # B10: runners never onto or over enemy fighters or blockers (option: own too)
        blocked_runner = enemy_f | enemy_b | (own_f | own_b if self.runners_blocked_by_own else 0)
        runner_range, fighter_range, blocker_range = self.ranges
        # the payments as a bit set, for the memo of the plain list's moves
        pays_key = pay_set(pays) if actions is not None else 0
        for t in range(3):  # RUNNER, FIGHTER, BLOCKER
            positions = occupied[hp + t]
            if not positions:
                continue
            # stop: what a path may not pass (B9.1, B10); target_ok: where it may end
            # (B5; B10; B11: no fighter onto an enemy blocker; B12: no blocker onto an
            # enemy fighter; B12.3: with the option, nor onto an enemy blocker)
            if t == RUNNER:
                reach = runner_range
                stop = blocked_runner
                target_ok = PLAYFIELD & ~blocked_runner & ~full
            elif t == FIGHTER:
                reach = fighter_range
                stop = ~fighter_ground | enemy_any
                target_ok = fighter_ground & ~full & ~enemy_b
            else:
                reach = blocker_range
                stop = ~blocker_ground | enemy_any
                target_ok = blocker_ground & ~full & ~enemy_f
                if self.blockers_avoid_blockers:
                    target_ok &= ~enemy_b
            while positions:  # the sources, lowest location first
                src = lowest_bit(positions)
                positions &= positions - 1
                # A search of ``steps`` steps from ``start``; from the own area (B3.1)
                # the first step is onto the one tile it touches, and the search goes on
                # from there unless that tile stops it.
                start, steps, dests = src, reach, 0
                if src > CENTER:
                    start = area_pos[src - CENTER - 1]
                    if start < 0:
                        continue
                    dests = 1 << start & target_ok
                    steps = 0 if has_bit(stop, start) else reach - 1
                if steps:
                    # only the tiles a search may pass, steps - 1 away, make its memo key
                    near = stop & BALLS[steps - 1][start]
                    slot = start << 3 | steps
                    last_near, seen, passed = _LAST_REACH[slot]
                    if last_near != near:
                        found = REACH.get(reach_key(steps, start, near))
                        if found is None:
                            found = search_reach(steps, start, near)
                        seen, passed = found
                        _LAST_REACH[slot] = (near, seen, passed)
                    dests |= seen & target_ok
                    if passed & own_touch and src <= CENTER:
                        dests |= own_bit  # B3.1: back into the own area, a dead end
                if not dests:
                    continue
                if actions is None:
                    segments.append(segment(move_row(t, src), dests))
                    continue
                moves = _MOVES_TO.get(moves_to_key(dests, t, src, pays_key))
                if moves is None:
                    moves = _moves_to(t, src, pays, dests)
                actions += moves
        return enemy_b

    def _assaults(
        self,
        s: BoardState,
        p: int,
        pays: tuple[int, ...],
        targets: list[int],
        attached: tuple[int, ...],
        actions: list[Action],
    ) -> None:
        """Append the assaults by two own fighters (B11) and the alliance offers (B13)
        on the enemy blockers ``targets``."""
        units = s.units
        area_of = s.area_of
        base = p * STRIDE
        n = self.n
        pairs = self.pay_pairs(s, p, pays) if s.slots == 0 else []
        # an ally is neither the attacker, nor one who declined this turn, nor (below)
        # the blocker's owner: with two players there is never one
        helpers = [q for q in range(n) if q != p and not has_bit(s.declined, q)] if n > 2 else []
        if not pairs and not helpers:
            return  # an assault needs the turn's first slot, an alliance an ally
        # every assault comes before every alliance offer: their ids are in that order
        origins_of = [(d, _fighter_origins(units, area_of, attached, p, d)) for d in targets]
        if pairs:
            for d, origins in origins_of:
                for a in origins:
                    for b in origins:
                        if a == b and units[base + a * 3 + 1] < 2:
                            continue
                        for pp in pairs:
                            actions.append(Attack(d, a, b, pp))
        if not helpers:
            return
        for d, origins in origins_of:
            if not origins:
                continue
            owner = blocker_victim(units, s.order, p, d)
            helper_origins = [
                (q, _fighter_origins(units, area_of, attached, q, d)) for q in helpers if q != owner
            ]
            for a in origins:
                for h_loc in ORIGIN_SLOTS[d]:
                    for q, locs in helper_origins:
                        if h_loc in locs:
                            for payment in pays:
                                actions.append(Ally(d, a, q, h_loc, payment))

    def terrain_masks(self, terrain: tuple[int, ...]) -> _TerrainMasks:
        """Derived masks of one terrain layout, remembered for the last layout met (it
        changes only when a player turns a ring or swaps tiles): the light and normal
        tiles, the edges (bit = index in EDGES) whose tiles have the same terrain, and
        those whose first (a) or second (b) tile is difficult, or not light. A layout
        that is the last one with two tiles swapped gets its masks derived from the
        last one's (``remember_swapped_terrain``)."""
        last, masks = self._last_terrain
        if last is terrain:
            return masks
        if last is not None:
            pair = swapped_tiles(last, terrain)
            if pair >= 0:
                self.remember_swapped_terrain(last, terrain, pair >> 6, pair & 63)
                return self._last_terrain[1]
        light = normal = difficult = 0
        if COMPILED:
            for i in range(NUM_TILES):
                kind = terrain[i]
                if kind == LIGHT:
                    light |= 1 << i
                elif kind == NORMAL:
                    normal |= 1 << i
                elif kind == DIFFICULT:
                    difficult |= 1 << i
        else:
            try:
                raw = bytes(terrain)
            except ValueError:  # terrain still to be drawn (-1): of no kind yet
                raw = bytes(t if 0 <= t < 256 else 255 for t in terrain)
            light = int(raw.translate(_IS_TERRAIN[LIGHT])[::-1], 2)
            normal = int(raw.translate(_IS_TERRAIN[NORMAL])[::-1], 2)
            difficult = int(raw.translate(_IS_TERRAIN[DIFFICULT])[::-1], 2)
        unknown = ((1 << NUM_TILES) - 1) & ~(light | normal | difficult)
        same = 0
        for kind in (light, normal, difficult, unknown):
            if kind:
                same |= edges_from(kind) & edges_to(kind)
        not_light = normal | difficult
        masks = (
            light,
            normal,
            ALL_EDGES & ~same,
            edges_from(difficult),
            edges_to(difficult),
            edges_from(not_light),
            edges_to(not_light),
        )
        self._last_terrain = (terrain, masks)
        return masks

    def _placement(self, s: BoardState) -> tuple[int, int]:
        """The locations of every player's fighters, and of their blockers."""
        occupied = s.occupied
        fighters = blockers = 0
        for q in range(self.n):
            fighters |= occupied[q * 3 + 1]
            blockers |= occupied[q * 3 + 2]
        return fighters, blockers

    def remember_swapped_terrain(
        self, old: tuple[int, ...], new: tuple[int, ...], a: int, b: int
    ) -> None:  # called by terrain_masks only: no rule's apply writes a cache
        """``new`` is ``old`` with tiles ``a`` and ``b`` swapped: when ``old``'s
        ``terrain_masks`` are the ones remembered, remember ``new``'s, derived from them
        (a swap changes the masks of two tiles and of the edges at them) instead of
        computed afresh at the next listing."""
        last, masks = self._last_terrain
        if last is not old:
            return
        light, normal, differ, a_difficult, b_difficult, a_not_light, b_not_light = masks
        was_a, was_b = old[a], old[b]
        if was_a != was_b:
            tiles = 1 << a | 1 << b
            # each tile is the first (a) or second (b) end of its own edges: a tile
            # entering or leaving a kind adds or removes exactly its edges
            from_tiles = EDGES_FROM_TILE[a] ^ EDGES_FROM_TILE[b]
            to_tiles = EDGES_TO_TILE[a] ^ EDGES_TO_TILE[b]
            if was_a == LIGHT or was_b == LIGHT:
                light ^= tiles
                a_not_light ^= from_tiles
                b_not_light ^= to_tiles
            if was_a == NORMAL or was_b == NORMAL:
                normal ^= tiles
            if was_a == DIFFICULT or was_b == DIFFICULT:
                a_difficult ^= from_tiles
                b_difficult ^= to_tiles
            for at in (EDGES_AT_TILE[a], EDGES_AT_TILE[b]):
                for e in at:
                    x, y = EDGES[e]
                    if new[x] != new[y]:
                        differ |= 1 << e
                    else:
                        differ = without_bit(differ, e)
        masks = (light, normal, differ, a_difficult, b_difficult, a_not_light, b_not_light)
        self._last_terrain = (new, masks)

    def _swap_mask(self, s: BoardState) -> int:
        """B14: the terrain swaps allowed in ``s``, as a mask of ``EDGES``. Remembered
        for the last terrain and placement met: a turn's second action often moves a
        runner, which changes neither."""
        fighters, blockers = self._placement(s)
        terrain = s.terrain
        last, last_fighters, last_blockers, mask = self._last_swap_mask
        if last is terrain and last_fighters == fighters and last_blockers == blockers:
            return mask
        mask = self._swap_edges(terrain, fighters, blockers)
        self._last_swap_mask = (terrain, fighters, blockers, mask)
        return mask

    def _swaps(self, s: BoardState) -> tuple[Action, ...]:
        """B14: the terrain swaps allowed in ``s``, in id order (the plain list's part;
        ``_swap_mask`` gives the mask, the tuples are remembered by it)."""
        mask = self._swap_mask(s)
        swaps = _SWAP_LISTS.get(mask)
        if swaps is None:
            if len(_SWAP_LISTS) >= _SWAPS_LIMIT:
                _SWAP_LISTS.clear()
            swaps = _SWAP_LISTS[mask] = tuple([SWAPS[e] for e in locs_of(mask)])
        return swaps

    def _swap_edges(self, terrain: tuple[int, ...], fighters: int, blockers: int) -> int:
        """B14: the terrain swaps allowed when ``fighters`` and ``blockers`` (location
        masks, every player's) stand where they do, as a mask of ``EDGES``. A tile may
        get difficult terrain only when no fighter or blocker stands on it, normal
        terrain only when no blocker does. Computed for all edges at once."""
        _, _, differ, a_difficult, b_difficult, a_not_light, b_not_light = self.terrain_masks(
            terrain
        )
        tiles = (1 << NUM_TILES) - 1
        occupied = (fighters | blockers) & tiles
        blockers &= tiles
        # the edges whose first (a) or second (b) tile holds a fighter or blocker, or a
        # blocker
        a_occupied = edges_from(occupied)
        b_occupied = edges_to(occupied)
        a_blocker = edges_from(blockers)
        b_blocker = edges_to(blockers)
        refused = (
            (b_difficult & a_occupied)
            | (a_difficult & b_occupied)
            | (b_not_light & a_blocker)
            | (a_not_light & b_blocker)
        )
        return differ & ~refused

    def _ends(
        self, s: BoardState, n_recruit: int, n_move: int, n_turn: int
    ) -> tuple[tuple[Action, ...], tuple[int, ...]]:
        """The ends of the turn (B7, B7.1), and their ids."""
        # a pool holds at most four dice, so each count is below 5; slots used: 0 to 2
        key = (((3 if s.turn >= self.n else 0) + s.slots) * 5 + n_recruit) * 25
        key += n_move * 5 + n_turn
        ends = _ENDS[key]
        if ends is None:
            options = tuple(self._end_options(s, n_recruit, n_move, n_turn))
            ids = tuple(action_id(action, MAX_PLAYERS) for action in options)
            ends = _ENDS[key] = (options, ids)
        return ends

    def _end_options(self, s: BoardState, n_recruit: int, n_move: int, n_turn: int) -> list[Action]:
        if s.turn >= self.n:
            return [END_VALUES[()]]
        to_drop = min(2 - s.slots, n_recruit + n_move + n_turn)
        counts = (n_recruit, n_move, n_turn)
        options: list[tuple[int, ...]] = []
        if to_drop == 1:
            options = [(c,) for c in range(3) if counts[c]]
        elif to_drop == 2:
            options = [
                (c1, c2)
                for c1 in range(3)
                for c2 in range(c1, 3)
                if (counts[c1] >= 2 if c1 == c2 else counts[c1] and counts[c2])
            ]
        if len(options) <= 1:
            return [END_VALUES[()]]
        return [END_VALUES[option] for option in options]
