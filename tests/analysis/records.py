"""Game records with a known blunder, played by seeded agents with one move replaced."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from koth.agents.registry import make_policy
from koth.core.record import GameRecord
from koth.core.registry import load_game
from koth.core.state import GameState
from koth.games.board.tables import CENTER
from koth.games.cards.state import Phase

#: ``(state, action the seat would play) -> the blunder instead, or None``
Swap = Callable[[GameState[Any, Any], Any], Any]


def play_with_swap(
    game_name: str, params: dict[str, Any], agents: list[str], seed: int, swap: Swap
) -> tuple[GameRecord, int | None]:
    """A seeded game of ``agents`` in which seat 0's first move that ``swap`` replaces is
    replaced; the record and the index of that move (None: nothing was replaced)."""
    game = load_game(game_name, params)
    rng = random.Random(seed)
    policies = [make_policy(spec, game, seat, seed) for seat, spec in enumerate(agents)]
    state = game.new_initial_state()
    swapped: int | None = None
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
            continue
        joint = {p: policies[p](state, p, rng) for p in state.acting_players()}
        if swapped is None and 0 in joint:
            blunder = swap(state, joint[0])
            if blunder is not None:
                swapped, joint[0] = state.num_moves, blunder
        if state.is_simultaneous_node():
            state.apply_actions(joint)
        else:
            ((player, action),) = joint.items()
            state.apply_action(action, player)
    return GameRecord.from_state(state), swapped


def _joker_on_the_apex(state: GameState[Any, Any], chosen: Any) -> Any:
    data = state.data
    if data.phase is Phase.ATTACK and data.stack == 0 and str(chosen) != "JK":
        return next(a for a in state.legal_actions(0) if str(a) == "JK")
    return None


def cards_apex_given_away() -> tuple[GameRecord, int]:
    """Seat 0 plays its Joker (declining the stack) in the apex fight it would have won
    with its heuristic's attack, and seat 1 takes the apex and the game."""
    for seed in range(200):
        honest, _ = play_with_swap("cards", {}, ["heuristic", "heuristic"], seed, lambda s, a: None)
        if _winner(honest) != 0:
            continue
        record, move = play_with_swap(
            "cards", {}, ["heuristic", "heuristic"], seed, _joker_on_the_apex
        )
        if move is not None and _winner(record) == 1:
            return record, move
    raise AssertionError("no seed gives the apex away")


def _on_center(data: Any, player: int) -> bool:
    return any(data.units[(player * 33 + CENTER) * 3 + kind] for kind in range(3))


def _end_under_the_enemy(target: int) -> Swap:
    def swap(state: GameState[Any, Any], chosen: Any) -> Any:
        data = state.data
        if not _on_center(data, 1) or data.points[1] != target - 1:
            return None
        legal = state.legal_actions(0)
        if all(_on_center(state.child(a, 0).data, 1) for a in legal):
            return None  # nothing saves seat 0: ending the turn is no blunder
        for action in legal:
            after = state.child(action, 0)
            if str(action).startswith("end") and after.is_terminal() and _winner_of(after) == 1:
                return action
        return None

    return swap


def board_center_left_to_the_enemy() -> tuple[GameRecord, int]:
    """Seat 1 holds the center one point short of the target; seat 0 could drive it
    off this turn, but ends its turn instead, and seat 1 wins at that turn end."""
    target = 10
    params = {"target_points": target}
    for seed in range(300):
        record, move = play_with_swap(
            "board", params, ["random", "random"], seed, _end_under_the_enemy(target)
        )
        if move is not None:
            return record, move
    raise AssertionError("no seed leaves the center to the enemy")


def _winner_of(state: GameState[Any, Any]) -> int | None:
    outcome = state.outcome()
    winners = sorted(outcome.winners) if outcome else []
    return winners[0] if len(winners) == 1 else None


def _winner(record: GameRecord) -> int | None:
    from koth.core.record import replay

    return _winner_of(replay(record))
