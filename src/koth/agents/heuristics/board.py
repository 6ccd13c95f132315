"""A rule-based player of the board game, from its view only, and a position evaluator.

Each legal action gets a score and the best one is played (ties broken at random):

* recruit while units wait in the starting area's hand (fighters first: they fight
  and hold the center; runners are fast);
* advance: every ring nearer the center is worth points, reaching the center most;
* defend the center: never leave it; when holding it, bring blockers and fighters to
  the ring around it; fighters attack enemies, above all an enemy on the center;
* dice are ended rather than spent on turning rings or swapping terrain at random.

The evaluator scores an unfinished game by points (a unit on the center counts as a
few points more), for search rollouts that stop before the end.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from typing import Any, Final

from koth.agents.heuristics import register_heuristic, register_rollout
from koth.core.game import Game
from koth.games.board.actions import PAY_MOVE, Ally, Answer, Attack, End, Move, Recruit
from koth.games.board.tables import (
    CENTER,
    FIGHTER,
    LOC_BY_NAME,
    NUM_LOCS,
    RUNNER,
    STRIDE,
    ring_of,
)

_CODE: Final = re.compile(r"([RFB])(\d+)")
RECRUIT_SCORE: Final = {FIGHTER: 40.0, RUNNER: 34.0}
BLOCKER_RECRUIT_SCORE: Final = 22.0
CENTER_RING: Final = 5
#: how many points a unit on the center is worth to the evaluator
CENTER_BONUS: Final = 3.0


def units_at(view: Mapping[str, Any]) -> dict[int, dict[int, dict[str, int]]]:
    """location -> player -> unit letter -> count, from the view's ``units``."""
    table: dict[int, dict[int, dict[str, int]]] = {}
    for name, owners in view.get("units", {}).items():
        loc = LOC_BY_NAME[name.lower()]
        table[loc] = {
            int(player): {letter: int(n) for letter, n in _CODE.findall(code)}
            for player, code in owners.items()
        }
    return table


def _enemies(table: Mapping[int, Mapping[int, Mapping[str, int]]], loc: int, me: int) -> int:
    return sum(sum(units.values()) for p, units in table.get(loc, {}).items() if p != me)


def _score_move(move: Move, me: int, table: Mapping[int, Mapping[int, Mapping[str, int]]]) -> float:
    src_ring, dst_ring = ring_of(move.src), ring_of(move.dst)
    holding = me in table.get(CENTER, {})
    score = 10.0 * (dst_ring - src_ring)
    if move.src == CENTER:
        score -= 150
    if move.dst == CENTER:
        score += 100
    enemies = _enemies(table, move.dst, me)
    if enemies and move.unit == FIGHTER:
        score += 90 if move.dst == CENTER else 35 + 5 * dst_ring
    if holding and dst_ring == CENTER_RING - 1 and move.unit != RUNNER:
        score += 25  # guard the approaches
    if move.pay != PAY_MOVE:
        score -= 3  # a die of another kind may be worth more elsewhere
    return score


def score_action(
    action: Any, me: int, table: Mapping[int, Mapping[int, Mapping[str, int]]]
) -> float:
    if isinstance(action, Move):
        return _score_move(action, me, table)
    if isinstance(action, Recruit):
        base = RECRUIT_SCORE.get(action.unit, BLOCKER_RECRUIT_SCORE)
        return base - (4 if action.by_move else 0)
    if isinstance(action, Attack):
        return 60 + (60 if ring_of(action.target) >= CENTER_RING - 1 else 0)
    if isinstance(action, Ally):
        return 20
    if isinstance(action, Answer):
        return 1 if action.accept else 0
    if isinstance(action, End):
        return -float(len(action.drop))  # keep every die that may still serve
    return -10  # turning a ring, moving the area, swapping terrain, setup choices


def board_policy(
    game: Game[Any, Any, Any],
    player: int,
    view: Mapping[str, Any],
    legal: Sequence[Any],
    rng: random.Random,
) -> Any:
    table = units_at(view)
    best, best_score = legal[0], -1e18
    for action in legal:
        score = score_action(action, player, table) + rng.random()
        if score > best_score:
            best, best_score = action, score
    return best


def board_evaluator(game: Game[Any, Any, Any], view: Mapping[str, Any]) -> tuple[float, ...]:
    """Estimated returns in [-1, 1]: the lead in points over the best other player,
    relative to the points target."""
    points = [float(p) for p in view["points"]]
    table = units_at(view)
    for player in table.get(CENTER, {}):
        points[player] += CENTER_BONUS
    target = float(getattr(game.params, "target_points", 30))
    values = []
    for player, mine in enumerate(points):
        best_other = max(p for q, p in enumerate(points) if q != player)
        values.append(max(-1.0, min(1.0, (mine - best_other) / target)))
    return tuple(values)


register_heuristic("board", board_policy, board_evaluator)


# --------------------------------------------------------------- search support
# Search agents call these on *sampled* states (for this perfect-information game the
# state itself), thousands of times a move: they read the rules state directly.

_RINGS: Final = tuple(ring_of(loc) for loc in range(NUM_LOCS))
#: what a unit is worth to the evaluator by ring (area/hand 0 .. center), in points
PROGRESS: Final = (0.0, 0.3, 0.6, 1.0, 1.5, 0.0)


class _StateTable:
    """The two questions the action scores ask, answered from ``BoardState.units``."""

    __slots__ = ("holding", "me", "n", "units")

    def __init__(self, units: Sequence[int], me: int, n: int) -> None:
        self.units = units
        self.me = me
        self.n = n
        k = me * STRIDE + CENTER * 3
        self.holding = bool(units[k] or units[k + 1] or units[k + 2])

    def enemies(self, loc: int) -> int:
        units, total = self.units, 0
        for q in range(self.n):
            if q != self.me:
                k = q * STRIDE + loc * 3
                total += units[k] + units[k + 1] + units[k + 2]
        return total


def _state_score_move(move: Move, table: _StateTable) -> float:
    src_ring, dst_ring = _RINGS[move.src], _RINGS[move.dst]
    score = 10.0 * (dst_ring - src_ring)
    if move.src == CENTER:
        score -= 150
    if move.dst == CENTER:
        score += 100
    if move.unit == FIGHTER and table.enemies(move.dst):
        score += 90 if move.dst == CENTER else 35 + 5 * dst_ring
    if table.holding and dst_ring == CENTER_RING - 1 and move.unit != RUNNER:
        score += 25
    if move.pay != PAY_MOVE:
        score -= 3
    return score


def state_score(action: Any, table: _StateTable) -> float:
    """``score_action`` from a rules state."""
    if type(action) is Move:
        return _state_score_move(action, table)
    return _other_score(action)


def _other_score(action: Any) -> float:
    """``state_score`` of an action that is not a move (it reads no units)."""
    kind = type(action)
    if kind is Recruit:
        base = RECRUIT_SCORE.get(action.unit, BLOCKER_RECRUIT_SCORE)
        return base - (4 if action.by_move else 0)
    if kind is Attack:
        return 60 + (60 if _RINGS[action.target] >= CENTER_RING - 1 else 0)
    if kind is Ally:
        return 20
    if kind is Answer:
        return 1 if action.accept else 0
    if kind is End:
        return -float(len(action.drop))
    return -10


def board_rollout_policy(
    game: Game[Any, Any, Any], state: Any, player: int, rng: random.Random
) -> Any:
    """The heuristic above, read from a rules state: for search rollouts. The same
    choice as the highest ``state_score(action) + rng.random()`` (one draw per legal
    action, in order), with the move scores worked out in one loop: a rollout scores
    every legal action of every step, about 50, and three calls per move cost more
    than the score. Who holds a tile comes from the occupancy masks."""
    legal = game.legal_actions(state, player)
    if len(legal) == 1:
        return legal[0]
    occupied = state.occupied
    enemy = own = 0
    for q in range(game.num_players):
        k = q * 3
        if q == player:
            own = occupied[k] | occupied[k + 1] | occupied[k + 2]
        else:
            enemy |= occupied[k] | occupied[k + 1] | occupied[k + 2]
    holding = bool(own >> CENTER & 1)
    rings = _RINGS
    best, best_score = legal[0], -1e18
    for action in legal:
        if type(action) is Move:
            # _state_score_move, term by term in the same order (the same float)
            src, dst, unit = action.src, action.dst, action.unit
            dst_ring = rings[dst]
            score = 10.0 * (dst_ring - rings[src])
            if src == CENTER:
                score -= 150
            if dst == CENTER:
                score += 100
            if unit == FIGHTER and enemy >> dst & 1:
                score += 90 if dst == CENTER else 35 + 5 * dst_ring
            if holding and dst_ring == CENTER_RING - 1 and unit != RUNNER:
                score += 25
            if action.pay != PAY_MOVE:
                score -= 3
            score += rng.random()
        else:
            score = _other_score(action) + rng.random()
        if score > best_score:
            best, best_score = action, score
    return best


def board_ranking(game: Game[Any, Any, Any], state: Any, player: int) -> list[Any]:
    """The legal actions, best first by the heuristic's score (for progressive
    widening in the search tree)."""
    legal = game.legal_actions(state, player)
    table = _StateTable(state.units, player, game.num_players)
    # best score first, equal scores in listing order (a stable sort by -score)
    scored = sorted((-state_score(a, table), k) for k, a in enumerate(legal))
    return [legal[k] for _, k in scored]


def board_state_evaluator(game: Game[Any, Any, Any], state: Any) -> tuple[float, ...]:
    """Estimated returns in [-1, 1] from public facts: the lead in points, plus a unit
    on the center (CENTER_BONUS points) and units on their way (PROGRESS by ring),
    relative to the points target."""
    n = game.num_players
    units = state.units
    worth = []
    for player in range(n):
        base = player * STRIDE
        total = float(state.points[player])
        k = base + CENTER * 3
        if units[k] or units[k + 1] or units[k + 2]:
            total += CENTER_BONUS
        for loc in range(CENTER):
            k = base + loc * 3
            count = units[k] + units[k + 1] + units[k + 2]
            if count:
                total += PROGRESS[_RINGS[loc]] * min(count, 2)
        worth.append(total)
    target = float(getattr(game.params, "target_points", 30))
    values = []
    for player, mine in enumerate(worth):
        best_other = max(w for q, w in enumerate(worth) if q != player)
        values.append(max(-1.0, min(1.0, (mine - best_other) / target)))
    return tuple(values)


register_rollout(
    "board",
    board_rollout_policy,
    state_evaluator=board_state_evaluator,
    ranking=board_ranking,
)
