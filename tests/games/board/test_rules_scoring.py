"""Scenario tests for rules B15-B18: scoring, winning, variants, limits, notation."""

from __future__ import annotations

import random

import pytest

from koth.core.errors import IllegalActionError, InvalidActionError, InvalidParamsError
from koth.core.state import GameState
from koth.games.board import BoardGame, BoardTermination, Phase
from koth.games.board.actions import GRAMMAR
from koth.games.board.state import evolve
from tests.games.board.helpers import code_at, legal, make_state, play

G2 = BoardGame()


def test_b15_everyone_on_the_center_scores_at_every_turn_end() -> None:
    state = make_state(G2, units={(0, "C"): "R1"}, dice={0: (1, 1, 1, 1), 1: (1, 1, 1, 1)})
    after = play(G2, state, "end")
    assert after.points == (1, 0)
    after = play(G2, after, "end")
    assert after.points == (2, 0)


def test_b15_thirty_points_win() -> None:
    state = make_state(G2, units={(0, "C"): "R1"}, dice={0: (1,), 1: (1,)}, points=(29, 0))
    gs = GameState(G2, play(G2, state, "end"))
    assert gs.is_terminal() and gs.outcome().termination is BoardTermination.TARGET_POINTS
    assert gs.outcome().winner == 0 and gs.returns() == (1.0, -1.0)
    with pytest.raises(IllegalActionError):
        gs.apply_action("end")


def test_b15_ties_go_to_more_points_then_the_active_player_then_turn_order() -> None:
    state = make_state(
        G2,
        units={(0, "C"): "R1", (1, "C"): "R1"},
        dice={0: (1,), 1: (1,)},
        points=(29, 29),
        turn=1,
    )
    after = play(G2, state, "end")
    assert after.winners == (1,)  # equal points: the active player
    rules = BoardGame(num_players=3).rules
    assert rules._target_winners((31, 30, 30), 1, (0, 1, 2)) == (0,)
    assert rules._target_winners((30, 30, 30), 1, (2, 0, 1)) == (1,)
    assert rules._target_winners((30, 20, 30), 1, (2, 0, 1)) == (2,)


def test_b15_1_option_scores_only_own_turns() -> None:
    game = BoardGame(score_own_turns_only=True)
    state = make_state(game, units={(0, "C"): "R1"}, dice={0: (1, 1), 1: (1, 1)}, turn=1)
    assert play(game, state, "end").points == (0, 0)
    state = make_state(game, units={(0, "C"): "R1"}, dice={0: (1, 1), 1: (1, 1)})
    assert play(game, state, "end").points == (1, 0)


def test_b15_2_a_skipped_turn_still_scores() -> None:
    state = make_state(
        G2, units={(0, "C"): "R1"}, dice={0: (), 1: (1, 1, 1)}, turn=1, points=(0, 0)
    )
    after = play(G2, state, "end")  # player 1 ends; player 0's second turn is skipped
    assert after.points == (2, 0) and after.turn == 3 and after.active() == 1


def test_b16_1_countdown_replaces_the_points_target() -> None:
    game = BoardGame(countdown=True)
    state = make_state(
        game, units={(0, "C"): "R1"}, dice={0: (1, 1), 1: (1, 1)}, points=(40, 0), countdown=2
    )
    after = play(game, state, "end")
    assert after.countdown == 1 and after.phase is Phase.TURN
    after = play(game, after, "end")
    assert after.termination is BoardTermination.COUNTDOWN and after.winners == (0,)


def test_b16_1_countdown_ties_go_to_most_center_turns_then_turn_order() -> None:
    game = BoardGame(countdown=True)
    units = {(0, "C"): "R1", (1, "C"): "R1"}
    state = make_state(game, units=units, dice={0: (1,)}, points=(5, 7), countdown=1)
    assert play(game, state, "end").winners == (1,)
    state = make_state(game, units=units, dice={0: (1,)}, points=(5, 5), countdown=1)
    assert play(game, state, "end").winners == (0,)
    empty = make_state(game, dice={0: (1,), 1: (1,)}, countdown=1)
    assert play(game, empty, "end").countdown == 1  # no unit on the center: no tick


def test_b16_2_one_excluded_is_a_secret_simultaneous_choice() -> None:
    game = BoardGame(one_excluded=True)
    gs = game.new_initial_state()
    for ring in range(1, 5):
        gs.apply_action(f"terrain ring{ring} LLLNNDD")
    gs.apply_action("areas 1,2")
    gs.apply_action("place 1.3")
    gs.apply_action("place 1.0")
    assert gs.is_simultaneous_node() and gs.acting_players() == (0, 1)
    gs.apply_actions({0: "exclude blocker", 1: "exclude runner"})
    assert gs.data.excluded == (2, 0)
    assert gs.view(0)["excluded"] == ["blocker", "hidden"]
    assert gs.view(None)["excluded"] == ["hidden", "hidden"]
    other = game.resample_hidden(gs.data, 0, random.Random(1))
    assert other.excluded[0] == 2 and game.view(other, 0) == gs.view(0)


def test_b16_2_excluded_type_is_never_recruited_and_ignored_for_all_recruited() -> None:
    game = BoardGame(one_excluded=True)
    state = make_state(
        game, units={(0, "A1"): "R2F4", (0, "2.1"): "F1"}, dice={0: (1,)}, excluded=(2, 0)
    )
    actions = legal(game, state)
    assert "recruit blocker" not in actions
    assert "move fighter 2.1>2.2 by recruit" in actions  # blockers excluded: all recruited
    with pytest.raises(IllegalActionError, match=r"B16\.2"):
        play(game, make_state(game, dice={0: (1,)}, excluded=(2, 0)), "recruit blocker")


def test_b16_2_resample_keeps_used_types() -> None:
    game = BoardGame(one_excluded=True, num_players=3)
    state = make_state(game, dice={0: (1,)}, excluded=(0, 1, 2))
    state = evolve(state, used_types=(0, 0b101, 0b011))
    for seed in range(20):
        other = game.resample_hidden(state, 0, random.Random(seed))
        assert other.excluded == (0, 1, 2)  # one choice left for each opponent


def test_b16_3_teamplay_pools_points_and_needs_four_players() -> None:
    with pytest.raises(InvalidParamsError):
        BoardGame(num_players=3, teamplay=True)
    game = BoardGame(num_players=4, teamplay=True)
    state = make_state(
        game,
        units={(0, "C"): "R1", (2, "C"): "R1"},
        dice={0: (1,), 1: (1,), 2: (1,), 3: (1,)},
        points=(14, 20, 14, 0),
    )
    after = play(game, state, "end")
    assert after.termination is BoardTermination.TARGET_POINTS and after.winners == (0, 2)
    assert game.returns(after) == pytest.approx((1 / 3, -1 / 3, 1 / 3, -1 / 3))
    assert game.view(after, None)["team_points"] == [30, 20]
    outcome = game.outcome(after)
    assert outcome is not None and not outcome.is_draw and outcome.winner is None  # a team win


def test_b16_3_teammates_still_fight_on_the_board() -> None:
    game = BoardGame(num_players=4, teamplay=True)
    state = make_state(game, units={(0, "2.1"): "F1", (2, "2.2"): "R1"}, dice={0: (3,)})
    after = play(game, state, "move fighter 2.1>2.2")
    assert code_at(after, 2, "2.2") == "" and after.hand[6] == 2


def test_b17_round_limit_draws_among_the_leaders() -> None:
    game = BoardGame(round_limit=4)
    state = make_state(game, dice={1: (1,)}, turn=3, points=(3, 3), round_=4)
    after = play(game, state, "end")
    assert after.termination is BoardTermination.ROUND_LIMIT_DRAW and after.winners == (0, 1)
    assert game.returns(after) == (0.0, 0.0)
    outcome = game.outcome(after)
    assert outcome is not None and outcome.is_draw
    state = make_state(game, dice={1: (1,)}, turn=3, points=(2, 3), round_=4)
    alone = play(game, state, "end")
    assert alone.winners == (1,)
    outcome = game.outcome(alone)
    assert outcome is not None and not outcome.is_draw and outcome.winner == 1
    assert play(game, make_state(game, dice={1: (1,)}, turn=3, round_=3), "end").phase is Phase.ROLL


@pytest.mark.parametrize(
    ("players", "winners", "expected"),
    [
        (2, (0,), (1.0, -1.0)),
        (3, (1,), (-0.5, 1.0, -0.5)),
        (3, (0, 2), (0.25, -0.5, 0.25)),
        (4, (3,), (-1 / 3, -1 / 3, -1 / 3, 1.0)),
        (4, (0, 1, 2, 3), (0.0, 0.0, 0.0, 0.0)),
    ],
)
def test_b17_1_returns_are_zero_sum(
    players: int, winners: tuple[int, ...], expected: tuple[float, ...]
) -> None:
    game = BoardGame(num_players=players)
    state = make_state(game)
    state = evolve(state, termination=BoardTermination.TARGET_POINTS, winners=winners)
    assert game.returns(state) == pytest.approx(expected)
    assert sum(game.returns(state)) == pytest.approx(0.0)


@pytest.mark.parametrize(
    "text",
    [
        "recruit fighter",
        "recruit runner by move",
        "move runner 1.3>2.4",
        "move fighter A1>1.0 by recruit",
        "move blocker 4.2>C by pair",
        "attack 3.4 lose 2.4 keep 3.5",
        "attack C lose 4.1 keep 4.1 by move+pair",
        "ally 1.2 from A3 with 2 from 1.1 by pair",
        "accept",
        "decline",
        "turn ring2 left",
        "turn ring4 right",
        "area 1.5",
        "swap 2.3 2.4",
        "end",
        "end drop move+turn",
        "place 1.6",
        "exclude blocker",
        "roll 6",
        "terrain ring3 LNDLLDN",
        "areas 2,1",
    ],
)
def test_b18_notation_round_trips(text: str) -> None:
    action = G2.parse_action(text)
    assert str(action) == text
    assert G2.action_from_id(G2.action_id(action)) == action
    assert G2.parse_action(text.upper().replace("RING", "ring")) == action


def test_b18_every_id_round_trips_and_the_space_is_small() -> None:
    for players in (2, 3, 4):
        game = BoardGame(num_players=players)
        assert game.num_distinct_actions() < 30_000
        for action_id in range(game.num_distinct_actions()):
            action = game.action_from_id(action_id)
            assert game.action_id(action) == action_id
            assert game.parse_action(str(action)) == action


@pytest.mark.parametrize(
    "text",
    [
        "",
        "fly away",
        "move runner 1.3",
        "move tank 1.3>1.4",
        "swap 1.1 1.3",
        "attack 3.4 lose 1.0 keep 3.5",
        "turn ring5 left",
        "roll 7",
        "areas 1,1",
        "terrain ring1 LLLLLLL",
        "end drop move+move+move",
        "area 2.3",
    ],
)
def test_b18_malformed_notation_is_rejected_with_the_grammar(text: str) -> None:
    with pytest.raises(InvalidActionError, match="recruit <unit>"):
        G2.parse_action(text)
    assert "move <unit>" in GRAMMAR


def test_b16_variants_are_options_and_off_by_default() -> None:
    params = BoardGame().params
    assert not (params.countdown or params.one_excluded or params.teamplay)
    assert BoardGame(countdown=True, one_excluded=True).params.countdown
