"""The post-game analysis: marks, known blunders, and that no secret is used."""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from koth.analysis.engine import (
    THRESHOLDS,
    GameAnalysis,
    Mark,
    analyse_position,
    analyse_record,
    analysis_spec,
    check_analysable,
    mark_for,
)
from koth.core.errors import InvalidParamsError, RecordError
from koth.core.record import GameRecord, replay
from koth.core.state import GameState
from koth.games.cards.state import Phase
from tests.analysis.records import board_center_left_to_the_enemy, cards_apex_given_away

cards_blunder = cache(cards_apex_given_away)
board_blunder = cache(board_center_left_to_the_enemy)


@pytest.mark.parametrize(
    ("drop", "mark"),
    [
        (0.0, Mark.NONE),
        (0.049, Mark.NONE),
        (0.05, Mark.INACCURACY),
        (0.099, Mark.INACCURACY),
        (0.10, Mark.MISTAKE),
        (0.199, Mark.MISTAKE),
        (0.20, Mark.BLUNDER),
        (1.0, Mark.BLUNDER),
    ],
)
def test_mark_thresholds(drop: float, mark: Mark) -> None:
    assert mark_for(drop) is mark
    assert [least for _, least in THRESHOLDS] == sorted(
        (least for _, least in THRESHOLDS), reverse=True
    )


def _decision_at(analysis: GameAnalysis, move: int) -> Any:
    (seat,) = analysis.seats
    return next(d for d in seat.decisions if d.move == move)


@pytest.mark.parametrize("agent", ["ismcts:iters=300", "mcts:iters=300"])
@pytest.mark.parametrize(
    ("blunder", "played"),
    [(cards_blunder, "JK"), (board_blunder, "end")],
    ids=["cards-apex-given-away", "board-center-left-to-the-enemy"],
)
def test_known_blunder_is_marked(blunder: Any, played: str, agent: str) -> None:
    record, move = blunder()
    analysis = analyse_record(record, seats=[0], agent=agent, moves={move}, seed=1)
    decision = _decision_at(analysis, move)
    assert decision.played.startswith(played)
    assert decision.preferred != decision.played
    assert decision.mark is Mark.BLUNDER, decision
    assert analysis.seats[0].result == 0.0  # the blunder lost the game


def test_a_whole_game_is_analysed_for_the_seat_chosen() -> None:
    record, _ = cards_blunder()
    analysis = analyse_record(record, seats=[1], agent="ismcts:iters=40", seed=3)
    (seat,) = analysis.seats
    assert seat.seat == 1 and seat.result == 1.0
    assert seat.decisions and all(d.seat == 1 for d in seat.decisions)
    moves = [d.move for d in seat.decisions]
    assert moves == sorted(moves) and len(set(moves)) == len(moves)
    for d in seat.decisions:
        assert 0.0 <= d.played_chance <= 1.0 and 0.0 <= d.win_chance <= 1.0
        assert d.options and d.options[0].action == d.preferred
    again = analyse_record(record, seats=[1], agent="ismcts:iters=40", seed=3)
    assert again == analysis  # an iteration budget is reproducible


def _attack_states(record: GameRecord) -> list[GameState[Any, Any]]:
    state = replay(GameRecord(game=record.game, params=record.params))
    found = []
    for entry in record.moves:
        if state.data.phase is Phase.ATTACK:
            found.append(state.clone())
        state.apply_move(_move(state, entry))
    return found


def _move(state: GameState[Any, Any], entry: Any) -> Any:
    from koth.core.record import moves_from_record

    (move,) = moves_from_record(
        state.game,
        GameRecord(game=state.game.name, params=state.game.params.to_json(), moves=[entry]),
    )
    return move


@settings(max_examples=6, deadline=None)
@given(which=st.integers(0, 1000), redraw=st.integers(0, 2**32))
def test_no_hidden_information_is_used(which: int, redraw: int) -> None:
    """Two true states that the analysed seat cannot tell apart (the opponent's cards and
    the face-down pyramid redrawn) give the identical analysis."""
    record, _ = cards_blunder()
    states = _attack_states(record)
    state = states[which % len(states)]
    game = state.game
    other = GameState(game, game.resample_hidden(state.data, 0, random.Random(redraw)))
    assert game.view(other.data, 0) == game.view(state.data, 0)
    assert other.data.hands[1] != state.data.hands[1] or other.data.stacks != state.data.stacks
    played = state.legal_actions(0)[0]
    spec = analysis_spec("ismcts:iters=150")
    assert analyse_position(other, 0, played, spec, 7) == analyse_position(
        state, 0, played, spec, 7
    )


def test_the_true_state_would_show() -> None:
    """The property above can fail: a search given another true state (not a redraw of
    the seat's information) answers differently."""
    record, _ = cards_blunder()
    state = _attack_states(record)[0]
    other = GameState(state.game, state.game.resample_hidden(state.data, 1, random.Random(5)))
    spec = analysis_spec("ismcts:iters=150")
    played = state.legal_actions(0)[0]
    assert state.game.view(other.data, 0) != state.game.view(state.data, 0)
    assert analyse_position(other, 0, played, spec, 7) != analyse_position(
        state, 0, played, spec, 7
    )


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("heuristic", "needs a search agent"),
        ("random", "needs a search agent"),
        ("ismcts:bogus=1", "unknown search option"),
        ("alphazero", "unknown agent"),
    ],
)
def test_bad_agent_is_refused(spec: str, message: str) -> None:
    with pytest.raises(InvalidParamsError, match=message):
        analysis_spec(spec)


def test_early_stop_is_off_unless_asked() -> None:
    assert analysis_spec("ismcts:iters=5") == "ismcts:iters=5:early=0"
    assert analysis_spec("mcts:iters=5:early=1") == "mcts:iters=5:early=1"


def test_bad_records_are_refused() -> None:
    record, _ = cards_blunder()
    unfinished = record.model_copy(update={"moves": record.moves[:60]})
    with pytest.raises(RecordError, match="not finished"):
        analyse_record(unfinished, agent="ismcts:iters=5")
    with pytest.raises(InvalidParamsError, match="Seat 3 is not at this cards table"):
        analyse_record(record, seats=[2], agent="ismcts:iters=5")
    with pytest.raises(RecordError, match="cannot be analysed"):
        check_analysable(GameRecord(game="quiz"))
    broken = record.model_copy(update={"moves": [*record.moves[:3], record.moves[70]]})
    with pytest.raises(RecordError, match="move 3"):
        analyse_record(broken, agent="ismcts:iters=5")
