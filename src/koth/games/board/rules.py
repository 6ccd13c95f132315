"""The rules as pure functions over ``BoardState``: who moves and what actions do.

The hot paths (``turn_actions`` and the effects in ``apply``) work on flat tuples and
short-lived lists; every public function returns a new state and never mutates one.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import factorial
from typing import Final

from koth.core.players import TO_MOVE_CHANCE, TO_MOVE_TERMINAL, PlayerId, ToMove
from koth.games.board.actions import (
    PAY_MOVE,
    PAY_RECRUIT,
    Action,
    Ally,
    Answer,
    AreaDraw,
    Attack,
    End,
    Exclude,
    Move,
    MoveArea,
    Place,
    Recruit,
    Roll,
    Swap,
    TerrainDraw,
    TurnRing,
    area_permutations,
)
from koth.games.board.legal import ROLL_OUTCOMES, LegalActions, blocker_victim
from koth.games.board.params import BoardParams
from koth.games.board.state import (
    PHASE_ALLY_DIE,
    PHASE_ANSWER,
    PHASE_DRAW,
    PHASE_EXCLUDE,
    PHASE_OVER,
    PHASE_PLACE,
    PHASE_ROLL,
    PHASE_TERRAIN,
    PHASE_TURN,
    BoardState,
    BoardTermination,
    evolve,
)
from koth.games.board.tables import (
    ARRANGEMENTS,
    BLOCKER,
    CENTER,
    FIGHTER,
    MOVE_DIE,
    NUM_TILES,
    OUTWARD,
    RECRUIT_DIE,
    RING_SIZE,
    RUNNER,
    STACK_LIMIT,
    STRIDE,
    TURN_DIE,
    UNITS_PER_PLAYER,
    with_face,
    without_bit,
    without_die,
)

#: the ToMove of each seat's decisions, shared (ToMove is an immutable value)
_TO_MOVE_PLAYER: Final = tuple(ToMove.player(p) for p in range(4))


def pay(pool: tuple[int, ...], payment: int) -> tuple[int, ...]:
    if payment == PAY_MOVE:
        return without_die(pool, MOVE_DIE)
    if payment == PAY_RECRUIT:
        return without_die(pool, RECRUIT_DIE)
    return without_die(without_die(pool, TURN_DIE), TURN_DIE)


class Rules(LegalActions):
    """The rules for one parameter set."""

    def __init__(self, params: BoardParams) -> None:
        self.params = params
        self.n = n = params.num_players
        self.ranges = (params.runner_range, params.fighter_range, params.blocker_range)
        self.runner_first_round = params.runner_first_round
        self.runners_blocked_by_own = params.runners_blocked_by_own
        self.blockers_avoid_blockers = params.blockers_avoid_blockers
        # read at the end of every turn: plain attributes, not the pydantic model's
        self.score_own_turns_only = params.score_own_turns_only
        self.countdown_variant = params.countdown
        self.round_limit = params.round_limit
        self.target_points = params.target_points
        self.sides: tuple[tuple[int, ...], ...] = (
            ((0, 2), (1, 3)) if params.teamplay else tuple((p,) for p in range(n))
        )
        self.terrain_outcomes: dict[int, tuple[tuple[Action, float], ...]] = {
            ring: tuple((TerrainDraw(ring, a), 1 / len(ARRANGEMENTS)) for a in ARRANGEMENTS)
            for ring in range(1, 5)
        }
        self.draw_outcomes: tuple[tuple[Action, float], ...] = tuple(
            (AreaDraw(perm), 1 / factorial(n)) for perm in area_permutations(n)
        )

    # ------------------------------------------------------------ setup
    def initial(self) -> BoardState:
        n = self.n
        return BoardState(
            phase=PHASE_TERRAIN,
            terrain=(-1,) * NUM_TILES,
            area_of=(0,) * n,
            area_pos=(-1,) * n,
            order=tuple(range(n)),
            units=bytes(STRIDE * n),
            hand=UNITS_PER_PLAYER * n,
            excluded=(-1,) * n,
            used_types=(0,) * n,
            round=0,
            turn=0,
            dice=((),) * n,
            slots=0,
            declined=0,
            offer=None,
            points=(0,) * n,
            countdown=self.params.countdown_start,
        )

    def to_move(self, s: BoardState) -> ToMove:
        phase = s.phase
        if phase is PHASE_TURN:
            return _TO_MOVE_PLAYER[s.order[s.turn % self.n]]
        if phase is PHASE_ROLL or phase is PHASE_TERRAIN or phase is PHASE_DRAW:
            return TO_MOVE_CHANCE
        if phase is PHASE_ALLY_DIE:
            return TO_MOVE_CHANCE
        if phase is PHASE_ANSWER:
            assert s.offer is not None
            return _TO_MOVE_PLAYER[s.offer.helper]
        if phase is PHASE_PLACE:
            return _TO_MOVE_PLAYER[s.area_of.index(self.next_area_to_place(s))]
        if phase is PHASE_EXCLUDE:
            return ToMove.simultaneous(tuple(range(self.n)))
        return TO_MOVE_TERMINAL

    def chance_outcomes(self, s: BoardState) -> Sequence[tuple[Action, float]]:
        if s.phase is PHASE_ROLL or s.phase is PHASE_ALLY_DIE:
            return ROLL_OUTCOMES
        if s.phase is PHASE_TERRAIN:
            return self.terrain_outcomes[sum(1 for t in s.terrain[::RING_SIZE] if t >= 0) + 1]
        if s.phase is PHASE_DRAW:
            return self.draw_outcomes
        return ()

    # ------------------------------------------------------------ effects
    def apply(self, s: BoardState, player: PlayerId, action: Action) -> BoardState:
        phase = s.phase
        if phase is PHASE_TURN:
            return self._apply_turn(s, player, action)
        if phase is PHASE_ROLL:
            assert isinstance(action, Roll)
            return self._apply_roll(s, action.face)
        if phase is PHASE_ANSWER:
            assert isinstance(action, Answer) and s.offer is not None
            return self._answer(s, s.offer, action.accept)
        if phase is PHASE_ALLY_DIE:
            assert isinstance(action, Roll) and s.offer is not None
            return self._after_action(self._alliance_fight(s, s.offer, action.face))
        if phase is PHASE_TERRAIN:
            assert isinstance(action, TerrainDraw)
            start = (action.ring - 1) * RING_SIZE
            terrain = s.terrain[:start] + action.arrangement + s.terrain[start + RING_SIZE :]
            return evolve(s, terrain=terrain, phase=PHASE_DRAW if action.ring == 4 else s.phase)
        if phase is PHASE_DRAW:
            assert isinstance(action, AreaDraw)
            order = tuple(sorted(range(self.n), key=action.areas.__getitem__))
            return evolve(s, area_of=action.areas, order=order, phase=PHASE_PLACE)
        if phase is PHASE_PLACE:
            assert isinstance(action, Place)
            area = self.next_area_to_place(s)
            area_pos = (*s.area_pos[: area - 1], action.index, *s.area_pos[area:])
            if area > 1:
                return evolve(s, area_pos=area_pos)
            if self.params.one_excluded:
                return evolve(s, area_pos=area_pos, phase=PHASE_EXCLUDE)
            return evolve(s, area_pos=area_pos, phase=PHASE_ROLL, round=1)
        raise ValueError(f"no action is applied in phase {phase.name}")

    def apply_joint(self, s: BoardState, actions: dict[PlayerId, Action]) -> BoardState:
        excluded = []
        for p in range(self.n):
            action = actions[p]
            assert isinstance(action, Exclude)
            excluded.append(action.unit)
        return evolve(s, excluded=tuple(excluded), phase=PHASE_ROLL, round=1)

    def _apply_roll(self, s: BoardState, face: int) -> BoardState:
        """B6: the die goes to the first seat in turn order with fewer than four; once
        every seat has four, the turns start."""
        dice = s.dice
        for p in s.order:
            pool = dice[p]
            if len(pool) < 4:
                pool = with_face(pool, face)
                dice = _set(dice, p, pool)
                if len(pool) < 4:
                    return evolve(s, dice=dice)  # three rolls in four end here
                break
        for pool in dice:
            if len(pool) != 4:
                return evolve(s, dice=dice)
        return evolve(s, dice=dice, phase=PHASE_TURN, turn=0, slots=0, declined=0)

    def _apply_turn(self, s: BoardState, p: int, action: Action) -> BoardState:
        dice = s.dice
        if isinstance(action, Move):
            units, hand, occupied = self._move(s, p, action.unit, action.src, action.dst)
            return self._after_action(
                evolve(
                    s,
                    units=units,
                    hand=hand,
                    occupied=occupied,
                    slots=s.slots + 1,
                    dice=_set(dice, p, pay(dice[p], action.pay)),
                )
            )
        if isinstance(action, End):
            pool = dice[p]
            if s.turn < self.n:
                to_drop = min(2 - s.slots, len(pool))
                drop = action.drop
                if not drop and to_drop:
                    # a forced choice: every multiset of that size is the same one
                    drop = tuple(sorted((f - 1) // 2 for f in pool))[:to_drop]
                for category in drop:
                    pool = without_die(pool, category)
            return self._finish_turn(evolve(s, dice=_set(dice, p, pool)))
        if isinstance(action, Recruit):
            new_hand = list(s.hand)
            new_hand[p * 3 + action.unit] -= 1
            new_units = bytearray(s.units)
            new_occupied = list(s.occupied)
            _add_unit(new_units, new_occupied, p, CENTER + s.area_of[p], action.unit)
            used = (*s.used_types[:p], s.used_types[p] | 1 << action.unit, *s.used_types[p + 1 :])
            pool = without_die(dice[p], MOVE_DIE if action.by_move else RECRUIT_DIE)
            return self._after_action(
                evolve(
                    s,
                    units=bytes(new_units),
                    hand=tuple(new_hand),
                    occupied=tuple(new_occupied),
                    used_types=used,
                    slots=s.slots + 1,
                    dice=_set(dice, p, pool),
                )
            )
        if isinstance(action, Attack):
            pool = pay(pay(dice[p], action.pays[0]), action.pays[1])
            units, hand, occupied = self._assault(s, p, action)
            return self._after_action(
                evolve(
                    s,
                    units=units,
                    hand=hand,
                    occupied=occupied,
                    slots=2,
                    dice=_set(dice, p, pool),
                )
            )
        if isinstance(action, Ally):
            return evolve(s, phase=PHASE_ANSWER, offer=action)
        s = evolve(s, dice=_set(dice, p, without_die(dice[p], TURN_DIE)), slots=s.slots + 1)
        if isinstance(action, TurnRing):
            return self._after_action(self._rotate(s, action.ring, action.right))
        if isinstance(action, MoveArea):
            area = s.area_of[p]
            area_pos = (*s.area_pos[: area - 1], action.index, *s.area_pos[area:])
            return self._after_action(evolve(s, area_pos=area_pos))
        if isinstance(action, Swap):
            swapped = list(s.terrain)
            swapped[action.a], swapped[action.b] = swapped[action.b], swapped[action.a]
            return self._after_action(evolve(s, terrain=tuple(swapped)))
        raise ValueError(f"{action} is not a turn action")

    def _rotate(self, s: BoardState, ring: int, right: bool) -> BoardState:
        """Turning right, what stood at index i of the ring goes to i + 1 (6 to 0)."""
        start = (ring - 1) * RING_SIZE
        end = start + RING_SIZE
        old = s.terrain[start:end]
        turned = old[-1:] + old[:-1] if right else old[1:] + old[:1]
        terrain = s.terrain[:start] + turned + s.terrain[end:]
        units = bytearray(s.units)
        for q in range(self.n):
            lo = q * STRIDE + start * 3
            hi = lo + RING_SIZE * 3
            counts = s.units[lo:hi]
            # three counts per tile: a turn moves each tile's counts by three bytes
            units[lo:hi] = counts[-3:] + counts[:-3] if right else counts[3:] + counts[:3]
        occupied = tuple([_rotate_ring(mask, start, right) for mask in s.occupied])
        return evolve(s, terrain=terrain, units=bytes(units), occupied=occupied)

    def _kill_runners(
        self, units: bytearray, hand: list[int], occupied: list[int], p: int, loc: int
    ) -> None:
        """A fighter of ``p`` entered ``loc``: every enemy runner there dies (B11)."""
        for q in range(self.n):
            if q != p:
                k = q * STRIDE + loc * 3
                if units[k]:
                    hand[q * 3] += units[k]
                    units[k] = 0
                    occupied[q * 3] = without_bit(occupied[q * 3], loc)

    def _move(
        self, s: BoardState, p: int, t: int, src: int, dst: int
    ) -> tuple[bytes, tuple[int, ...], tuple[int, ...]]:
        """(units, hand, occupied) after ``p`` moved a unit of type ``t``."""
        units = bytearray(s.units)
        occupied = list(s.occupied)
        _remove_unit(units, occupied, p, src, t)
        n = self.n
        if t != RUNNER:
            # a fighter that meets an enemy fighter or runners, or a blocker that meets
            # enemy runners, changes the hands (B11, B12); any other move does not
            here = 1 << dst
            met = 0
            for q in range(n):
                if q != p:
                    met |= occupied[q * 3] | (occupied[q * 3 + 1] if t == FIGHTER else 0)
            if met & here:
                return self._move_meeting(s, p, t, src, dst, units, occupied)
        _add_unit(units, occupied, p, dst, t)
        return bytes(units), s.hand, tuple(occupied)

    def _move_meeting(
        self,
        s: BoardState,
        p: int,
        t: int,
        src: int,
        dst: int,
        units: bytearray,
        occupied: list[int],
    ) -> tuple[bytes, tuple[int, ...], tuple[int, ...]]:
        """``_move`` of a fighter or blocker onto enemies (the unit has left ``src``)."""
        hand = list(s.hand)
        n = self.n
        if t == FIGHTER:
            for q in range(n):
                if q != p and units[q * STRIDE + dst * 3 + 1]:
                    # B11: the attacker and one enemy fighter die
                    _remove_unit(units, occupied, q, dst, FIGHTER)
                    hand[q * 3 + 1] += 1
                    hand[p * 3 + 1] += 1
                    return bytes(units), tuple(hand), tuple(occupied)
            self._kill_runners(units, hand, occupied, p, dst)
        elif t == BLOCKER:
            self._push(units, hand, occupied, p, src, dst)
        _add_unit(units, occupied, p, dst, t)
        return bytes(units), tuple(hand), tuple(occupied)

    def _push(
        self, units: bytearray, hand: list[int], occupied: list[int], p: int, src: int, dst: int
    ) -> None:
        """B12: enemy runners on ``dst`` go one ring outward (from ring 1 or the center:
        to the blocker's origin); one that finds no room (or an area) there dies."""
        target = OUTWARD[dst]
        if target < 0:
            target = src
        for q in range(self.n):
            k = q * STRIDE + dst * 3
            if q == p or not units[k]:
                continue
            pushed = units[k]
            units[k] = 0
            occupied[q * 3] = without_bit(occupied[q * 3], dst)
            t = q * STRIDE + target * 3
            for _ in range(pushed):
                if (
                    target <= CENTER
                    and units[t] + units[t + 1] + units[t + 2] < STACK_LIMIT[target]
                ):
                    _add_unit(units, occupied, q, target, RUNNER)
                else:
                    hand[q * 3] += 1

    def _enter_after_fight(
        self,
        units: bytearray,
        hand: list[int],
        occupied: list[int],
        q: int,
        origin: int,
        target: int,
    ) -> None:
        """A surviving fighter of ``q`` moves onto ``target`` if nothing forbids it."""
        n = self.n
        for r in range(n):
            k = r * STRIDE + target * 3
            if r != q and (units[k + 1] or units[k + 2]):
                return  # another enemy fighter or blocker still holds the tile
        k = q * STRIDE + target * 3
        if units[k] + units[k + 1] + units[k + 2] >= STACK_LIMIT[target]:
            return
        _remove_unit(units, occupied, q, origin, FIGHTER)
        self._kill_runners(units, hand, occupied, q, target)
        _add_unit(units, occupied, q, target, FIGHTER)

    def _kill_blocker(
        self,
        units: bytearray,
        hand: list[int],
        occupied: list[int],
        order: tuple[int, ...],
        p: int,
        target: int,
    ) -> None:
        q = blocker_victim(units, order, p, target)
        _remove_unit(units, occupied, q, target, BLOCKER)
        hand[q * 3 + 2] += 1

    def _assault(
        self, s: BoardState, p: int, action: Attack
    ) -> tuple[bytes, tuple[int, ...], tuple[int, ...]]:
        units = bytearray(s.units)
        hand = list(s.hand)
        occupied = list(s.occupied)
        _remove_unit(units, occupied, p, action.lose, FIGHTER)
        hand[p * 3 + 1] += 1
        self._kill_blocker(units, hand, occupied, s.order, p, action.target)
        self._enter_after_fight(units, hand, occupied, p, action.keep, action.target)
        return bytes(units), tuple(hand), tuple(occupied)

    def _answer(self, s: BoardState, offer: Ally, accept: bool) -> BoardState:
        active = s.active()
        if not accept:
            return evolve(s, phase=PHASE_TURN, offer=None, declined=s.declined | 1 << offer.helper)
        units = bytearray(s.units)
        hand = list(s.hand)
        occupied = list(s.occupied)
        # the blocker's owner is neither of the allies (B13, B12.4)
        self._kill_blocker(units, hand, occupied, s.order, active, offer.target)
        return evolve(
            s,
            phase=PHASE_ALLY_DIE,
            units=bytes(units),
            hand=tuple(hand),
            occupied=tuple(occupied),
            slots=s.slots + 1,
            dice=_set(s.dice, active, pay(s.dice[active], offer.pay)),
        )

    def _alliance_fight(self, s: BoardState, offer: Ally, face: int) -> BoardState:
        active = s.active()
        units = bytearray(s.units)
        hand = list(s.hand)
        occupied = list(s.occupied)
        if face <= 3:
            dead, dead_at, survivor, survivor_at = (
                active,
                offer.own,
                offer.helper,
                offer.helper_from,
            )
        else:
            dead, dead_at, survivor, survivor_at = (
                offer.helper,
                offer.helper_from,
                active,
                offer.own,
            )
        _remove_unit(units, occupied, dead, dead_at, FIGHTER)
        hand[dead * 3 + 1] += 1
        self._enter_after_fight(units, hand, occupied, survivor, survivor_at, offer.target)
        return evolve(
            s,
            phase=PHASE_TURN,
            offer=None,
            units=bytes(units),
            hand=tuple(hand),
            occupied=tuple(occupied),
        )

    # ------------------------------------------------------------ turn end
    def _after_action(self, s: BoardState) -> BoardState:
        if s.slots >= 2 or not s.dice[s.active()]:
            return self._finish_turn(s)
        return s

    def _finish_turn(self, s: BoardState) -> BoardState:
        """Score, check the end, and pass to the next turn that has dice (B6, B7, B15)."""
        n = self.n
        occupied = s.occupied
        center = 1 << CENTER
        on_center = [
            q
            for q in range(n)
            if (occupied[q * 3] | occupied[q * 3 + 1] | occupied[q * 3 + 2]) & center
        ]
        # new tuples only where something changes: most turns end with no one on the
        # center and, in the first turn of the round, no pool given up
        points = s.points
        dice = s.dice
        countdown = s.countdown
        turn = s.turn
        while True:
            active = s.order[turn % n]
            if turn >= n and dice[active]:
                dice = _set(dice, active, ())
            if on_center:
                scored = list(points)
                for q in on_center:
                    if not self.score_own_turns_only or q == active:
                        scored[q] += 1
                points = tuple(scored)
            winners: tuple[int, ...] = ()
            termination = None
            if self.countdown_variant:
                if on_center:
                    countdown -= 1
                    if countdown <= 0:
                        termination = BoardTermination.COUNTDOWN
                        best = _leader(on_center, points, s.order)
                        winners = self._side(best)
            else:
                winners = self._target_winners(points, active, s.order)
                if winners:
                    termination = BoardTermination.TARGET_POINTS
            if termination is None and turn == 2 * n - 1 and s.round >= self.round_limit:
                termination = BoardTermination.ROUND_LIMIT_DRAW
                totals = [sum(points[q] for q in side) for side in self.sides]
                top = max(totals)
                winners = tuple(
                    sorted(
                        q
                        for side, v in zip(self.sides, totals, strict=True)
                        if v == top
                        for q in side
                    )
                )
            if termination is not None:
                return evolve(
                    s,
                    phase=PHASE_OVER,
                    points=points,
                    dice=dice,
                    countdown=countdown,
                    termination=termination,
                    winners=winners,
                    slots=0,
                    offer=None,
                )
            if turn == 2 * n - 1:
                return evolve(
                    s,
                    phase=PHASE_ROLL,
                    round=s.round + 1,
                    turn=0,
                    slots=0,
                    declined=0,
                    dice=((),) * n,
                    points=points,
                    countdown=countdown,
                    offer=None,
                )
            turn += 1
            if turn >= n and not dice[s.order[turn % n]]:
                continue  # B7: no dice left for the second turn: it is skipped
            return evolve(
                s,
                phase=PHASE_TURN,
                turn=turn,
                slots=0,
                declined=0,
                offer=None,
                dice=dice,
                points=points,
                countdown=countdown,
            )

    def _side(self, player: int) -> tuple[int, ...]:
        return next(side for side in self.sides if player in side)

    def _target_winners(
        self, points: tuple[int, ...], active: int, order: tuple[int, ...]
    ) -> tuple[int, ...]:
        target = self.target_points
        if len(self.sides) == self.n:
            for q in range(self.n):  # a loop: compiled, max() is a generic call
                if points[q] >= target:
                    break
            else:
                return ()  # one player per side, none at the target (the usual case)
        reached = [side for side in self.sides if sum(points[q] for q in side) >= target]
        if not reached:
            return ()
        best = reached[0]
        best_key = _side_rank(best, points, active, order)
        for side in reached[1:]:
            key = _side_rank(side, points, active, order)
            if key > best_key:
                best, best_key = side, key
        return tuple(sorted(best))


def _leader(players: list[int], points: tuple[int, ...], order: tuple[int, ...]) -> int:
    """The player with the most points, the earlier in turn order on a tie."""
    best = players[0]
    for q in players[1:]:
        if (points[q], -order.index(q)) > (points[best], -order.index(best)):
            best = q
    return best


def _side_rank(
    side: tuple[int, ...], points: tuple[int, ...], active: int, order: tuple[int, ...]
) -> tuple[int, bool, int]:
    """How a side that reached the target ranks: points, then the side on turn, then
    the side whose first member comes earlier in turn order."""
    return (sum(points[q] for q in side), active in side, -min(order.index(q) for q in side))


def _add_unit(units: bytearray, occupied: list[int], q: int, loc: int, t: int) -> None:
    """One unit of type ``t`` of ``q`` arrives at ``loc`` (counts and occupancy mask)."""
    units[q * STRIDE + loc * 3 + t] += 1
    occupied[q * 3 + t] |= 1 << loc


def _remove_unit(units: bytearray, occupied: list[int], q: int, loc: int, t: int) -> None:
    """One unit of type ``t`` of ``q`` leaves ``loc``; its bit goes with the last one."""
    k = q * STRIDE + loc * 3 + t
    left = units[k] - 1
    units[k] = left
    if not left:
        occupied[q * 3 + t] = without_bit(occupied[q * 3 + t], loc)


def _rotate_ring(mask: int, start: int, right: bool) -> int:
    """A location mask after the ring whose tiles start at ``start`` turned one step."""
    ring = mask >> start & 0x7F
    # turning right, what stood at index i goes to i + 1 (index 6 to 0)
    turned = (ring << 1 | ring >> 6) & 0x7F if right else ring >> 1 | (ring & 1) << 6
    return mask & ~(0x7F << start) | turned << start


def _set(
    dice: tuple[tuple[int, ...], ...], p: int, pool: tuple[int, ...]
) -> tuple[tuple[int, ...], ...]:
    """``dice`` with seat ``p``'s pool replaced by ``pool``."""
    # A tuple display of known length: compiled, one tuple filled in place (a list and
    # its copy cost two objects; a starred display extends a list with each part).
    n = len(dice)
    if n == 2:
        return (pool, dice[1]) if p == 0 else (dice[0], pool)
    if n == 3:
        return (
            pool if p == 0 else dice[0],
            pool if p == 1 else dice[1],
            pool if p == 2 else dice[2],
        )
    new = list(dice)
    new[p] = pool
    return tuple(new)
