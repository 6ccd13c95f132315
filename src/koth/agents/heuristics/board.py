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
from typing import Any

from koth.agents.heuristics import register_heuristic
from koth.core.game import Game
from koth.games.board.actions import PAY_MOVE, Ally, Answer, Attack, End, Move, Recruit
from koth.games.board.board import CENTER, FIGHTER, LOC_BY_NAME, RUNNER, ring_of

_CODE = re.compile(r"([RFB])(\d+)")
RECRUIT_SCORE = {FIGHTER: 40.0, RUNNER: 34.0}
BLOCKER_RECRUIT_SCORE = 22.0
CENTER_RING = 5
#: how many points a unit on the center is worth to the evaluator
CENTER_BONUS = 3.0


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
