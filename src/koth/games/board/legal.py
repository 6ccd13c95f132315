"""Legal actions: the hot path of random playouts, on flat tuples and short lists."""

from __future__ import annotations

from collections.abc import Sequence

from koth.core.players import PlayerId
from koth.games.board.actions import (
    PAY_MOVE,
    PAY_PAIR,
    PAY_RECRUIT,
    Action,
    Ally,
    Answer,
    Attack,
    End,
    Exclude,
    Move,
    MoveArea,
    Place,
    Recruit,
    Roll,
    Swap,
    TurnRing,
)
from koth.games.board.board import (
    ALLOWED_TERRAIN,
    CENTER,
    DIFFICULT,
    EDGES,
    FIGHTER,
    LIGHT,
    NEIGHBOURS,
    NORMAL,
    NUM_LOCS,
    NUM_TILES,
    ORIGIN_SLOTS,
    RING_SIZE,
    RUNNER,
    STACK_LIMIT,
    TOTAL_UNITS,
)
from koth.games.board.params import BoardParams
from koth.games.board.state import BoardState, Phase

STRIDE = NUM_LOCS * 3  # entries of ``units`` per player
ROLL_OUTCOMES: tuple[tuple[Action, float], ...] = tuple((Roll(f), 1 / 6) for f in range(1, 7))
ANSWERS: tuple[Action, ...] = (Answer(True), Answer(False))
ZEROS: tuple[int, ...] = (0,) * NUM_LOCS
SWAPS: tuple[Action, ...] = tuple(Swap(a, b) for a, b in EDGES)
RING_TURNS: tuple[Action, ...] = tuple(
    TurnRing(ring, right) for ring in range(1, 5) for right in (False, True)
)
#: every Move value, indexed like its action id, built once: construction is the hot path
MOVES: tuple[Action, ...] = tuple(
    Move(t, src, dst, payment)
    for t in range(3)
    for src in range(NUM_LOCS)
    for dst in range(NUM_LOCS)
    for payment in range(3)
)
AREA_MOVES: tuple[MoveArea, ...] = tuple(MoveArea(i) for i in range(RING_SIZE))


def die_counts(pool: tuple[int, ...]) -> tuple[int, int, int]:
    recruit = move = turn = 0
    for face in pool:
        if face <= 2:
            recruit += 1
        elif face <= 4:
            move += 1
        else:
            turn += 1
    return recruit, move, turn


class LegalActions:
    """The legal-action half of ``Rules`` (which sets ``params`` and ``n``)."""

    params: BoardParams
    n: int

    def next_area_to_place(self, s: BoardState) -> int:
        """The highest area number not yet attached (B3)."""
        for area in range(self.n, 0, -1):
            if s.area_pos[area - 1] < 0:
                return area
        return 0

    # ------------------------------------------------------------ legal actions
    def legal_actions(self, s: BoardState, player: PlayerId) -> list[Action]:
        phase = s.phase
        if phase is Phase.TURN:
            return self.turn_actions(s, player) if player == s.active() else []
        if phase is Phase.ANSWER:
            return list(ANSWERS) if s.offer is not None and player == s.offer.helper else []
        if phase is Phase.PLACE:
            if player != s.area_of.index(self.next_area_to_place(s)):
                return []
            taken = set(s.area_pos)
            return [Place(i) for i in range(RING_SIZE) if i not in taken]
        if phase is Phase.EXCLUDE:
            return [Exclude(t) for t in range(3)] if 0 <= player < self.n else []
        return []

    def all_recruited(self, s: BoardState, p: int) -> bool:
        """No unit the player may use is left in hand (B7)."""
        excluded = s.excluded[p]
        hand = s.hand
        return all(hand[p * 3 + t] == 0 or t == excluded for t in range(3))

    def move_payments(self, s: BoardState, p: int) -> list[int]:
        recruit, move, turn = die_counts(s.dice[p])
        pays = []
        if move:
            pays.append(PAY_MOVE)
        if recruit and self.all_recruited(s, p):
            pays.append(PAY_RECRUIT)
        if turn >= 2:
            pays.append(PAY_PAIR)
        return pays

    def pay_pairs(self, s: BoardState, p: int, pays: list[int]) -> list[tuple[int, int]]:
        """The payments of an assault: two move actions at once (B11)."""
        counts = die_counts(s.dice[p])
        need = {PAY_MOVE: (0, 1, 0), PAY_RECRUIT: (1, 0, 0), PAY_PAIR: (0, 0, 2)}
        result = []
        for k, first in enumerate(pays):
            for second in pays[k:]:
                total = [need[first][c] + need[second][c] for c in range(3)]
                if all(total[c] <= counts[c] for c in range(3)):
                    result.append((first, second))
        return result

    def attached(self, s: BoardState) -> list[int]:
        """Per outer index: the location of the area touching it, or -1."""
        result = [-1] * RING_SIZE
        for k, pos in enumerate(s.area_pos):
            if pos >= 0:
                result[pos] = CENTER + 1 + k
        return result

    def turn_actions(self, s: BoardState, p: int) -> list[Action]:
        n = self.n
        units = s.units
        pool = s.dice[p]
        n_recruit, n_move, n_turn = die_counts(pool)
        hand = s.hand
        hp = p * 3
        excluded = s.excluded[p]
        actions: list[Action] = []

        # ---- recruit (B8); a move die recruits when nothing is in play (B7)
        nothing_in_play = hand[hp] + hand[hp + 1] + hand[hp + 2] == TOTAL_UNITS
        recruit_by_move = bool(n_move) and nothing_in_play
        if n_recruit or recruit_by_move:
            for t in range(3):
                if hand[hp + t] and t != excluded and (t != RUNNER or s.round > 3):
                    if n_recruit:
                        actions.append(Recruit(t, False))
                    if recruit_by_move:
                        actions.append(Recruit(t, True))

        pays = self.move_payments(s, p)
        base = p * STRIDE
        own_area = CENTER + s.area_of[p]
        attached = self.attached(s)
        area_pos = s.area_pos
        if pays and not nothing_in_play:
            own = units[base : base + STRIDE]
            own_runners, own_fighters, own_blockers = own[0::3], own[1::3], own[2::3]
            own_fb = [f + b for f, b in zip(own_fighters, own_blockers, strict=True)]
            own_total = [fb + r for fb, r in zip(own_fb, own_runners, strict=True)]
            enemy_f: Sequence[int] = ZEROS
            enemy_b: Sequence[int] = ZEROS
            enemy_r: Sequence[int] = ZEROS
            for q in range(n):
                if q != p:
                    theirs = units[q * STRIDE : (q + 1) * STRIDE]
                    if enemy_f is ZEROS:
                        enemy_r, enemy_f, enemy_b = theirs[0::3], theirs[1::3], theirs[2::3]
                    else:
                        enemy_r = [x + y for x, y in zip(enemy_r, theirs[0::3], strict=True)]
                        enemy_f = [x + y for x, y in zip(enemy_f, theirs[1::3], strict=True)]
                        enemy_b = [x + y for x, y in zip(enemy_b, theirs[2::3], strict=True)]
            terrain = s.terrain

            def neighbours(loc: int) -> tuple[int, ...]:
                if loc < RING_SIZE:
                    area = attached[loc]
                    return NEIGHBOURS[loc] + (area,) if area >= 0 else NEIGHBOURS[loc]
                if loc > CENTER:
                    pos = area_pos[loc - CENTER - 1]
                    return (pos,) if pos >= 0 else ()
                return NEIGHBOURS[loc]

            blocked_by_own = self.params.runners_blocked_by_own
            ranges = (3, self.params.fighter_range, self.params.blocker_range)
            for t, counts in ((0, own_runners), (1, own_fighters), (2, own_blockers)):
                allowed = ALLOWED_TERRAIN[t]
                for src in [loc for loc in range(NUM_LOCS) if counts[loc]]:
                    frontier = [src]
                    visited = {src}
                    dests: list[int] = []
                    for _ in range(ranges[t]):
                        nxt = []
                        for loc in frontier:
                            for nb in neighbours(loc):
                                if nb in visited:
                                    continue
                                visited.add(nb)
                                if nb > CENTER:
                                    if nb == own_area:
                                        dests.append(nb)  # a dead end: never passed through
                                    continue
                                if t == RUNNER:
                                    # B10: never onto or over enemy fighters and blockers
                                    if (
                                        enemy_f[nb]
                                        or enemy_b[nb]
                                        or (blocked_by_own and own_fb[nb])
                                    ):
                                        continue
                                    if own_total[nb] < STACK_LIMIT[nb]:
                                        dests.append(nb)
                                    nxt.append(nb)
                                    continue
                                if nb < NUM_TILES and not (allowed >> terrain[nb]) & 1:
                                    continue
                                if (
                                    own_total[nb] < STACK_LIMIT[nb]
                                    and not enemy_b[nb]
                                    and (t == FIGHTER or not enemy_f[nb])
                                ):
                                    dests.append(nb)
                                if not (enemy_f[nb] or enemy_b[nb] or enemy_r[nb]):
                                    nxt.append(nb)
                        frontier = nxt
                    dests.sort()
                    row = ((t * NUM_LOCS + src) * NUM_LOCS) * 3
                    if len(pays) == 1:
                        payment = row + pays[0]
                        actions.extend([MOVES[payment + dst * 3] for dst in dests])
                    else:
                        actions.extend(
                            [MOVES[row + dst * 3 + pay] for dst in dests for pay in pays]
                        )

            def fighter_origins(q: int, target: int) -> list[int]:
                qb = q * STRIDE + 1
                q_area = CENTER + s.area_of[q]
                return [
                    loc
                    for loc in ORIGIN_SLOTS[target]
                    if units[qb + loc * 3]
                    and (loc <= CENTER or (loc == q_area and attached[target] == loc))
                ]

            def blocker_owner(target: int) -> int:
                return next(q for q in range(n) if q != p and units[q * STRIDE + target * 3 + 2])

            # ---- assault on a blocker by two own fighters (B11)
            pairs = self.pay_pairs(s, p, pays) if s.slots == 0 else []
            targets = [
                d
                for d in range(CENTER + 1)
                if enemy_b[d] and (d == CENTER or terrain[d] != DIFFICULT)
            ]
            if pairs:
                for d in targets:
                    origins = fighter_origins(p, d)
                    for a in origins:
                        for b in origins:
                            if a == b and units[base + a * 3 + 1] < 2:
                                continue
                            for pp in pairs:
                                actions.append(Attack(d, a, b, pp))
            # ---- alliance offers (B13)
            helpers = [q for q in range(n) if q != p and not (s.declined >> q) & 1]
            if helpers:
                for d in targets:
                    owner = blocker_owner(d)
                    own_origins = fighter_origins(p, d)
                    if not own_origins:
                        continue
                    helper_origins = {q: fighter_origins(q, d) for q in helpers if q != owner}
                    for a in own_origins:
                        for h_loc in ORIGIN_SLOTS[d]:
                            for q, locs in helper_origins.items():
                                if h_loc in locs:
                                    for payment in pays:
                                        actions.append(Ally(d, a, q, h_loc, payment))

        # ---- turning (B14)
        if n_turn:
            actions.extend(RING_TURNS)
            actions.extend([AREA_MOVES[i] for i in range(RING_SIZE) if attached[i] < 0])
            actions.extend(self._swaps(s))

        # ---- end of turn (B7)
        actions.extend(self._ends(s, n_recruit, n_move, n_turn))
        return actions

    def _swaps(self, s: BoardState) -> list[Action]:
        units = s.units
        terrain = s.terrain
        # the highest terrain code each tile may get: 2 anything, 1 not difficult, 0 light
        ceiling = [DIFFICULT] * NUM_TILES
        for q in range(self.n):
            theirs = units[q * STRIDE : q * STRIDE + NUM_TILES * 3]
            for loc, (f, b) in enumerate(zip(theirs[1::3], theirs[2::3], strict=True)):
                if b:
                    ceiling[loc] = LIGHT
                elif f and ceiling[loc] == DIFFICULT:
                    ceiling[loc] = NORMAL
        return [
            swap
            for swap, (a, b) in zip(SWAPS, EDGES, strict=True)
            if terrain[a] != terrain[b] and terrain[b] <= ceiling[a] and terrain[a] <= ceiling[b]
        ]

    def _ends(self, s: BoardState, n_recruit: int, n_move: int, n_turn: int) -> list[Action]:
        if s.turn >= self.n:
            return [End()]
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
            return [End()]
        return [End(option) for option in options]
