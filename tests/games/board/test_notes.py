"""The notes of a turn's end: dice forfeited (B7.1) and second turns skipped (B7.2)."""

from __future__ import annotations

from typing import Any

import pytest

from koth.core.notes import TransitionNote
from koth.core.players import CHANCE
from koth.core.state import GameState
from koth.games.board import BoardGame, Phase
from koth.games.board.notes import BoardNote, DiceForfeited, TurnSkipped, turn_end_notes
from tests.games.board.helpers import make_state

G2 = BoardGame()
G3 = BoardGame(num_players=3)


def last_notes(game: BoardGame, state: Any, *texts: str) -> list[BoardNote]:
    """Play ``texts`` through the checked API; the notes of the last one."""
    gs = GameState(game, state)
    notes: list[BoardNote] = []
    for text in texts:
        before = gs.data
        action = gs.apply_action(text)
        notes = turn_end_notes(game.params, before, gs.data, action)
    return notes


FIGHTER = {(0, "2.1"): "F1"}

# (game, the state's units, dice and turn, the actions, the notes of the last action)
SCENARIOS: dict[str, tuple[BoardGame, dict[str, Any], tuple[str, ...], list[BoardNote]]] = {
    "2p_nothing_to_note_mid_turn": (
        G2,
        {"units": FIGHTER, "dice": {0: (1, 3, 5, 5), 1: (1, 1, 1, 1)}},
        ("move fighter 2.1>2.2",),
        [],
    ),
    "2p_two_actions_end_the_turn_with_nothing_lost": (
        G2,
        {"units": FIGHTER, "dice": {0: (1, 3, 5, 5), 1: (1, 1, 1, 1)}},
        ("move fighter 2.1>2.2", "move fighter 2.2>2.1 by pair"),
        [],
    ),
    "2p_first_turn_ended_at_once_forfeits_two": (
        G2,
        {"units": FIGHTER, "dice": {0: (1, 3, 5, 5), 1: (1, 1, 1, 1)}},
        ("end drop turn+turn",),
        [DiceForfeited(0, 2)],
    ),
    "2p_first_turn_ended_after_one_action_forfeits_one": (
        G2,
        {"units": FIGHTER, "dice": {0: (1, 3, 5, 5), 1: (1, 1, 1, 1)}},
        ("move fighter 2.1>2.2", "end drop turn"),
        [DiceForfeited(0, 1)],
    ),
    "2p_second_turn_ended_early_forfeits_what_is_left": (
        G2,
        {"units": FIGHTER, "dice": {0: (1, 3), 1: (1, 1)}, "turn": 2},
        ("end",),
        [DiceForfeited(0, 2)],
    ),
    "2p_last_turn_of_the_round_forfeits_what_is_left": (
        G2,
        {"units": FIGHTER, "dice": {0: (), 1: (1,)}, "turn": 3},
        ("end",),
        [DiceForfeited(1, 1)],
    ),
    "2p_second_turn_without_dice_is_skipped": (
        G2,
        {"units": FIGHTER, "dice": {0: (5, 5, 6, 6), 1: (1, 1, 1, 1)}},
        (
            "move fighter 2.1>2.2 by pair",
            "move fighter 2.2>2.1 by pair",
            "recruit fighter",
            "recruit fighter",
        ),
        [TurnSkipped(0)],
    ),
    "3p_nothing_to_note_when_the_turn_ends_by_itself": (
        G3,
        {"units": FIGHTER, "dice": {0: (1, 1, 3, 3), 1: (1,), 2: (1,)}},
        ("recruit fighter", "recruit fighter"),
        [],
    ),
    "3p_first_turn_ended_at_once_forfeits_two": (
        G3,
        {"units": FIGHTER, "dice": {0: (1, 3, 5, 5), 1: (1,), 2: (1,)}},
        ("end drop recruit+move",),
        [DiceForfeited(0, 2)],
    ),
    "3p_first_turn_ended_after_one_action_forfeits_one": (
        G3,
        {"units": FIGHTER, "dice": {0: (1,), 1: (1, 3, 5, 5), 2: (1,)}, "turn": 1},
        ("recruit fighter", "end drop turn"),
        [DiceForfeited(1, 1)],
    ),
    "3p_forfeit_then_two_second_turns_skipped": (
        G3,
        {"units": FIGHTER, "dice": {0: (), 1: (), 2: (1, 1, 1, 1)}, "turn": 2},
        ("end",),
        [DiceForfeited(2, 2), TurnSkipped(0), TurnSkipped(1)],
    ),
    "3p_skips_up_to_the_end_of_the_round": (
        G3,
        {"units": FIGHTER, "dice": {0: (1,), 1: (), 2: ()}, "turn": 3},
        ("end",),
        [DiceForfeited(0, 1), TurnSkipped(1), TurnSkipped(2)],
    ),
}


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_b7_1_b7_2_notes_of_each_scenario(name: str) -> None:
    game, setup, texts, expected = SCENARIOS[name]
    assert last_notes(game, make_state(game, **setup), *texts) == expected


@pytest.mark.parametrize(
    ("units", "dice", "attack"),
    [
        (
            {(0, "2.1"): "F1", (0, "2.3"): "F1", (1, "2.2"): "R1B1"},
            (1, 1, 3, 4),
            "attack 2.2 lose 2.1 keep 2.3",
        ),
        (
            {(0, "2.1"): "F2", (1, "2.2"): "B2"},
            (1, 3, 5, 6),
            "attack 2.2 lose 2.1 keep 2.1 by move+pair",
        ),
    ],
)
def test_b7_1_an_assault_pays_both_its_dice_and_forfeits_none(
    units: dict[tuple[int, str], str], dice: tuple[int, ...], attack: str
) -> None:
    state = make_state(G2, units=units, dice={0: dice, 1: (1, 1, 1, 1)})
    assert last_notes(G2, state, attack) == []


def test_b7_1_the_game_ending_turn_notes_no_turn_after_it() -> None:
    state = make_state(G2, units={(0, "C"): "R1"}, dice={0: (1,), 1: (1,)}, points=(29, 0))
    gs = GameState(G2, state)
    gs.apply_action("end")
    assert gs.is_terminal()
    assert turn_end_notes(G2.params, state, gs.data, G2.parse_action("end")) == [
        DiceForfeited(0, 1)
    ]


@pytest.mark.parametrize(
    ("params", "points", "countdown"),
    [
        ({}, (0, 28, 0), None),
        ({"score_own_turns_only": True}, (0, 29, 0), None),
        ({"countdown": True}, (0, 0, 0), 2),
    ],
)
def test_b7_2_a_game_won_on_a_skipped_turn_notes_the_skips_up_to_it(
    params: dict[str, Any], points: tuple[int, ...], countdown: int | None
) -> None:
    game = BoardGame(num_players=3, **params)
    # seat 0 ends its second turn; seat 1's is skipped and scores the win (B15.2); seat 2,
    # which still has a die, never gets its turn
    state = make_state(
        game,
        units={(1, "C"): "R1"},
        dice={0: (1,), 1: (), 2: (1,)},
        turn=3,
        points=points,
        countdown=countdown,
    )
    assert last_notes(game, state, "end") == [DiceForfeited(0, 1), TurnSkipped(1)]
    gs = GameState(game, state)
    gs.apply_action("end")
    assert gs.data.phase is Phase.OVER and gs.data.winners == (1,)


def test_b7_2_the_die_of_an_alliance_ends_the_turn_and_the_skips_follow() -> None:
    state = make_state(
        G3,
        units={(0, "2.1"): "F1", (1, "2.3"): "F1", (2, "2.2"): "B1"},
        dice={0: (3,), 1: (), 2: ()},
        turn=3,
    )
    gs = GameState(G3, state)
    gs.apply_action("ally 2.2 from 2.1 with 1 from 2.3")
    gs.apply_action("accept")
    before = gs.data
    roll = gs.apply_action("roll 6")
    assert gs.data.round == before.round + 1  # the round ended with the skipped turns
    notes = G3.transition_notes(before, gs.data, CHANCE, roll)
    assert notes == [
        TransitionNote("turn_skipped", "B7.2", {"seat": 1}),
        TransitionNote("turn_skipped", "B7.2", {"seat": 2}),
    ]


def test_b7_1_the_game_contract_gives_the_notes_as_plain_values() -> None:
    state = make_state(G2, units=FIGHTER, dice={0: (1, 3, 5, 5), 1: (1, 1, 1, 1)})
    after = G2.apply(state, 0, G2.parse_action("end drop turn+turn"))
    assert G2.transition_notes(state, after, 0, G2.parse_action("end drop turn+turn")) == [
        TransitionNote("dice_forfeited", "B7.1", {"seat": 0, "count": 2})
    ]
