"""Attacks, values, ties, discards, won cards and the end (rules C6-C13)."""

from __future__ import annotations

from typing import Any

import pytest

from koth.core.chance import random_game
from koth.core.errors import IllegalActionError, InvalidActionError
from koth.core.state import GameState
from koth.games.cards import CardsGame, CardsState, CardTermination, Phase
from koth.games.cards.tables import PLAYER_JOKERS
from tests.games.cards.helpers import handle, names, position

J0, J1 = (1 << PLAYER_JOKERS[0]), (1 << PLAYER_JOKERS[1])


def fight(
    hands: tuple[str, str], reserves: tuple[str, str] = ("", ""), **params: Any
) -> GameState[CardsState, Any]:
    """A table where player 0 has just chosen stack K."""
    table = handle(position(hands=hands, reserves=reserves), **params)
    table.apply_action("stack K")
    return table


def legal(table: GameState[CardsState, Any], player: int) -> list[str]:
    return [str(a) for a in table.legal_actions(player)]


def test_c6_attacks_are_singles_sequences_or_the_joker() -> None:
    table = fight(("3h 4h 6h 9s JK", "Ac JK"))
    assert legal(table, 0) == ["3h", "4h", "6h", "9s", "3h4h", "JK"]
    assert legal(table, 1) == ["Ac", "JK"]
    with pytest.raises(InvalidActionError, match="above Eight"):
        table.check_action("8s9s", 0)
    with pytest.raises(IllegalActionError, match=r"5h not in your hand \(rule C6\)"):
        table.check_action("4h5h6h", 0)


def test_c6_the_first_attack_uses_the_hand_only() -> None:
    table = fight(("5h JK", "2h"), reserves=("Ac", "JK"))
    assert legal(table, 0) == ["5h", "JK"]
    with pytest.raises(IllegalActionError, match="Ac not in your hand"):
        table.check_action("Ac", 0)


def test_c6_1_a_joker_in_the_reserve_may_be_played_and_returns_to_the_hand() -> None:
    table = fight(("5h", "2h JK"), reserves=("Ac JK", ""))
    assert legal(table, 0) == ["5h", "JK"]
    assert table.view(1)["players"][0]["joker"] is None  # still a secret
    table.apply_actions({0: "JK", 1: "2h"})
    data = table.data
    assert data.hands[0] & J0 and not data.reserves[0] & J0
    assert table.view(1)["players"][0]["joker"] == "hand"  # the subterfuge is revealed
    assert data.log[-1].winner == 1


def test_c6_1_a_player_with_an_empty_hand_can_play_the_joker_from_reserve() -> None:
    table = fight(("", "2h JK"), reserves=("Ac JK", ""))
    assert legal(table, 0) == ["JK"]


def test_c6_2_every_sequence_of_the_available_cards_is_listed() -> None:
    table = fight(("2c 3c 4c 5c 8d 9d JK", "JK"))
    assert legal(table, 0) == [
        "2c", "3c", "4c", "5c", "8d", "9d",
        "2c3c", "2c3c4c", "2c3c4c5c", "3c4c", "3c4c5c", "4c5c",
        "JK",
    ]  # fmt: skip
    assert table.game.parse_action("4c-5c") == table.game.parse_action("4c5c")


VALUES = [
    # (attack of player 0, attack of player 1, winner or None for a tie)
    ("Ah", "Kh", 0),
    ("Kh", "Qs", 0),
    ("Js", "Th", 0),
    ("9s", "Th", 1),
    ("7c8c", "Ah", None),  # 15 = 15
    ("5c6c", "Th", 0),  # 11 beats 10
    ("2c3c4c", "9s", None),  # 9 = 9
    ("3d4d5d6d", "Ah", 0),  # 18 beats 15
    ("2s", "JK", 0),
    ("Kd", "Ks", None),  # same rank
]


@pytest.mark.parametrize(("first", "second", "winner"), VALUES)
def test_c7_value_decides_the_fight(first: str, second: str, winner: int | None) -> None:
    hand0 = " ".join(first[i : i + 2] for i in range(0, len(first), 2))
    hand1 = " ".join(second[i : i + 2] for i in range(0, len(second), 2))
    table = fight((f"{hand0} JK", f"{hand1} JK"), ("2h", "3h"))
    table.apply_actions({0: first, 1: second})
    if winner is None:
        assert table.data.phase is Phase.TIEBREAK
    else:
        assert table.data.log[-1].winner == winner


@pytest.mark.parametrize(
    ("first", "second", "tens_equal", "winner"),
    [
        ("Ks", "Qh", False, 0),
        ("Th", "Jh", False, 1),
        ("Ks", "Qh", True, None),
        ("Th", "Jh", True, None),
        ("Ah", "Kh", True, 0),
    ],
)
def test_c7_1_rank_breaks_ties_of_ten_valued_singles_unless_tens_equal(
    first: str, second: str, tens_equal: bool, winner: int | None
) -> None:
    table = fight((f"{first} JK", f"{second} JK"), ("2h", "3h"), tens_equal=tens_equal)
    table.apply_actions({0: first, 1: second})
    if winner is None:
        assert table.data.phase is Phase.TIEBREAK
    else:
        assert table.data.log[-1].winner == winner


def test_c8_a_tie_moves_the_jokers_to_the_reserves_and_is_fought_from_there() -> None:
    table = fight(("9s 2d JK", "9h 3d JK"), reserves=("Ac 4s 5s", "Kc"))
    table.apply_actions({0: "9s", 1: "9h"})
    data = table.data
    assert data.phase is Phase.TIEBREAK
    assert data.reserves[0] & J0 and data.reserves[1] & J1
    assert legal(table, 0) == ["4s", "5s", "Ac", "4s5s", "JK"]
    assert legal(table, 1) == ["Kc", "JK"]
    with pytest.raises(IllegalActionError, match=r"2d not in your reserve \(rule C8\)"):
        table.check_action("2d", 0)
    table.apply_actions({0: "5s", 1: "JK"})
    assert table.data.log[-1].winner == 0
    assert [[str(a) for a in r] for r in table.data.log[-1].rounds] == [["9s", "9h"], ["5s", "JK"]]


def test_c8_ties_repeat_until_broken() -> None:
    table = fight(("9s JK", "9h JK"), reserves=("4s 6d", "4h 7c"))
    table.apply_actions({0: "9s", 1: "9h"})
    table.apply_actions({0: "4s", 1: "4h"})
    assert table.data.phase is Phase.TIEBREAK
    table.apply_actions({0: "6d", 1: "7c"})
    assert table.data.log[-1].winner == 1
    assert len(table.data.log[-1].rounds) == 3


def test_c8_1_a_joker_already_in_the_reserve_stays_and_is_revealed() -> None:
    table = fight(("9s", "9h JK"), reserves=("4s JK", "4h"))
    assert table.view(1)["players"][0]["joker"] is None
    table.apply_actions({0: "9s", 1: "9h"})
    assert table.data.reserves[0] == (1 << 8) | J0  # 4s and the Joker, nothing moved
    assert table.view(1)["players"][0]["joker"] == "reserve"
    assert table.view(1)["players"][0]["hand_count"] == 0


def test_c8_2_after_a_tie_break_both_jokers_return_to_the_hands() -> None:
    table = fight(("9s 2s", "9h JK"), reserves=("4s JK", "3h"))
    table.apply_actions({0: "9s", 1: "9h"})
    table.apply_actions({0: "4s", 1: "3h"})
    data = table.data
    assert data.phase is Phase.ASSIGN
    assert data.hands[0] & J0 and data.hands[1] & J1
    assert not (data.reserves[0] | data.reserves[1]) & (J0 | J1)


def test_c8_3_with_only_the_joker_in_reserve_the_joker_must_be_played() -> None:
    table = fight(("9s JK", "9h JK"), reserves=("", "4h"))
    table.apply_actions({0: "9s", 1: "9h"})
    assert legal(table, 0) == ["JK"]
    assert legal(table, 1) == ["4h", "JK"]
    table.apply_actions({0: "JK", 1: "4h"})
    assert table.data.log[-1].winner == 1


@pytest.mark.parametrize("in_tiebreak", [False, True])
def test_c9_both_jokers_discard_the_stack_and_the_turn_passes(in_tiebreak: bool) -> None:
    table = fight(("9s JK", "9h JK"), reserves=("", ""))
    if in_tiebreak:
        table.apply_actions({0: "9s", 1: "9h"})
    table.apply_actions({0: "JK", 1: "JK"})
    data = table.data
    assert data.log[-1].winner == -1
    assert data.phase is Phase.CHOOSE and table.current_player() == 1
    assert data.gone >> 10 & 1 and data.stacks[10] == ()


def discarded_two_card_stack(**params: Any) -> GameState[CardsState, Any]:
    """Stack G (``2c`` face down under ``7h``) discarded after both Jokers."""
    table = handle(position(hands=("JK Ah", "JK Ad"), stacks={"G": "2c 7h"}, gone="K"), **params)
    table.apply_action("stack G")
    table.apply_actions({0: "JK", 1: "JK"})
    assert table.data.log[-1].winner == -1
    return table


@pytest.mark.parametrize(
    ("params", "shown", "face_down"),
    [
        ({}, "7h", 1),  # C9.1 by default: only the top card was ever shown
        ({"reveal_discarded_stacks": False}, "7h", 1),
        ({"reveal_discarded_stacks": True}, "2c 7h", 0),  # the earlier reading
    ],
)
@pytest.mark.parametrize("viewer", [0, 1, None])
def test_c9_1_a_discarded_stack_shows_only_its_top_card(
    params: dict[str, Any], shown: str, face_down: int, viewer: int | None
) -> None:
    table = discarded_two_card_stack(**params)
    view = table.view(viewer)
    assert [c for c in ("2c", "7h") if c in view["discards"]] == shown.split()
    assert view["discards_face_down"] == face_down
    assert "2c" not in str(view) or "2c" in shown


def test_c9_1_the_hidden_cards_are_redrawn_and_shown_at_the_end() -> None:
    import random

    from koth.games.cards.state import evolve

    table = discarded_two_card_stack()
    data = table.data
    game = CardsGame()
    redrawn = {game.resample_hidden(data, 0, random.Random(seed)).buried for seed in range(40)}
    assert len(redrawn) > 1 and all(b.bit_count() == 1 for b in redrawn)
    over = evolve(data, phase=Phase.OVER)
    assert "2c" in game.view(over, 1)["discards"]
    assert game.view(over, 1)["discards_face_down"] == 0


def test_c10_attack_cards_are_discarded_and_visible_jokers_go_home() -> None:
    table = fight(("3c 4c 5c JK", "Ah JK"))
    table.apply_actions({0: "3c4c5c", 1: "JK"})
    data = table.data
    for card in ("3c", "4c", "5c"):
        assert card in table.view(1)["discards"]
    assert data.hands[1] & J1  # the played Joker is back in its owner's hand
    assert "Ah" in names(data.hands[1])


def test_c11_the_winner_takes_the_stack_and_assigns_each_card() -> None:
    table = handle(position(hands=("Ah JK", "2h JK"), reserves=("3s", ""), stacks={"D": "5c 6c 7c"},
                            gone="K L G"))  # fmt: skip
    table.apply_action("stack D")
    table.apply_actions({0: "Ah", 1: "2h"})
    assert table.current_player() == 0 and table.data.phase is Phase.ASSIGN
    assert legal(table, 0) == ["hand 5c", "reserve 5c"]
    table.apply_action("reserve 5c")
    table.apply_action("hand 6c")
    table.apply_action("reserve 7c")
    data = table.data
    assert names(data.hands[0]) == "6c JK"
    assert names(data.reserves[0]) == "3s 5c 7c"
    assert data.phase is Phase.CHOOSE and table.current_player() == 1
    assert not table.game.invariant_violations(data)


def test_c11_1_won_cards_are_assigned_in_order_and_placements_stay_secret() -> None:
    table = handle(position(hands=("Ah JK", "2h JK"), stacks={"D": "5c 6c 7c"}, gone="K L G"))
    table.apply_action("stack D")
    table.apply_actions({0: "Ah", 1: "2h"})
    with pytest.raises(IllegalActionError, match=r"next is 5c \(rule C11\.1\)"):
        table.apply_action("hand 7c")
    with pytest.raises(IllegalActionError):
        table.apply_action("hand 5c", player=1)
    table.apply_action("reserve 5c")
    opponent = table.view(1)
    assert opponent["players"][0]["reserve_count"] == 0  # not yet visible
    assert opponent["assignment"] == {"winner": 0, "remaining": 2, "assigned": 1}
    mine = table.view(0)["assignment"]
    assert mine["pending"] == ["6c", "7c"] and mine["to_reserve"] == ["5c"]
    table.apply_action("hand 6c")
    table.apply_action("hand 7c")
    assert table.view(1)["players"][0]["reserve_count"] == 1
    assert table.view(1)["players"][0]["known_cards"] == ["7c"]


def test_c12_winning_the_apex_wins_the_game() -> None:
    table = handle(position(hands=("2h JK", "3h JK"), gone="B C D E F G H I J K L M N O"),
                   dealer=1)  # fmt: skip
    table.apply_action("stack A")
    table.apply_actions({0: "2h", 1: "JK"})  # player 0 wins though player 1 chose
    outcome = table.outcome()
    assert outcome is not None and outcome.termination is CardTermination.APEX_WON
    assert outcome.winner == 0 and table.returns() == (1.0, -1.0)
    assert table.is_terminal()
    with pytest.raises(IllegalActionError, match="game is over"):
        table.apply_action("stack A")


def test_c12_a_discarded_apex_is_a_draw() -> None:
    table = handle(position(hands=("2h JK", "3h JK"), gone="B C D E F G H I J K L M N O"))
    table.apply_action("stack A")
    table.apply_actions({0: "JK", 1: "JK"})
    outcome = table.outcome()
    assert outcome is not None and outcome.termination is CardTermination.APEX_DISCARDED
    assert outcome.is_draw and table.returns() == (0.0, 0.0)
    assert not table.game.invariant_violations(table.data)


def test_c12_1_every_game_ends_within_15_fights() -> None:
    game = CardsGame()
    for seed in range(60):
        state = random_game(game, seed)
        assert state.is_terminal()
        assert len(state.data.log) <= 15


def test_c13_the_engine_is_for_two_players_only() -> None:
    assert CardsGame().num_players == 2
    with pytest.raises(ValueError):
        CardsGame(players=3)
