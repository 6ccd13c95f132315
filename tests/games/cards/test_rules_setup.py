"""Deck, deal, pyramid, reserve and turn order (rules C1-C5)."""

from __future__ import annotations

import math

import pytest

from koth.core.errors import IllegalActionError
from koth.games.cards import CardsGame, Phase
from koth.games.cards.rules import available_stacks, chooser
from koth.games.cards.tables import (
    APEX_JOKER,
    CARD_VALUES,
    COVERED_BY,
    PLAYER_JOKERS,
    RANKS,
    STACK_NAMES,
    STACK_SIZES,
    card_str,
    parse_card,
)
from tests.games.cards.helpers import dealt_state, finish_reserve, handle, names, position


def test_c1_deck_of_52_ranked_cards_and_three_jokers() -> None:
    state = dealt_state(seed=3)
    game = state.game
    assert not game.invariant_violations(state.data)
    held = [state.data.hands[p] | state.data.reserves[p] for p in (0, 1)]
    in_stacks = [c for stack in state.data.stacks for c in stack]
    assert sum(h.bit_count() for h in held) + len(in_stacks) == 55
    assert APEX_JOKER in state.data.stacks[0]
    # ranks from 2 (low) to Ace (high): card ids sort by rank
    assert [card_str(c) for c in (0, 4, 48)] == ["2s", "3s", "As"]
    assert RANKS[0] == "2" and RANKS[-1] == "A"


def test_c1_1_two_jokers_leave_the_apex_empty_but_fought_for() -> None:
    state = dealt_state(seed=3, jokers=2)
    assert state.data.stacks[0] == ()
    assert not state.game.invariant_violations(state.data)
    position_ = position(hands=("Ah JK", "2h JK"), gone="B C D E F G H I J K L M N O", jokers=2)
    table = handle(position_, jokers=2)
    table.apply_action("stack A")
    table.apply_actions({0: "Ah", 1: "2h"})
    assert table.is_terminal()
    assert table.outcome() is not None and table.outcome().winner == 0  # type: ignore[union-attr]
    assert table.returns() == (1.0, -1.0)


def test_c2_deal_gives_each_player_12_cards_and_builds_the_pyramid() -> None:
    state = dealt_state(seed=5)
    data = state.data
    assert data.phase is Phase.RESERVE
    for p in (0, 1):
        assert data.hands[p].bit_count() == 12
        assert data.hands[p] >> PLAYER_JOKERS[p] & 1
        assert data.reserves[p] == 0
    assert tuple(len(s) for s in data.stacks) == STACK_SIZES
    seen = state.view(0)["pyramid"]
    for stack, shown in zip(data.stacks, seen, strict=True):
        assert shown["top"] == card_str(stack[-1])  # only the top card is shown
        assert shown["size"] == len(stack)


def test_c2_1_deal_order_is_hands_alternately_then_stacks_bottom_first() -> None:
    game = CardsGame()
    state = game.new_initial_state()
    order = [c for c in range(52)]
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 52
    assert all(math.isclose(p, 1 / 52) for _, p in outcomes)
    for card in order:
        state.apply_action(f"deal {card_str(card)}")
    data = state.data
    assert names(data.hands[0]) == "2s 2d 3s 3d 4s 4d 5s 5d 6s 6d 7s JK"
    assert names(data.hands[1]) == "2h 2c 3h 3c 4h 4c 5h 5c 6h 6c 7h JK"
    # card 23 (7d) is the bottom of stack B, card 26 its face-up top
    assert [card_str(c) for c in data.stacks[1]] == ["7d", "7c", "8s", "8h"]
    assert [card_str(c) for c in data.stacks[14]] == ["Ac"]
    with pytest.raises(IllegalActionError, match="C2"):
        fresh = game.new_initial_state()
        fresh.apply_action("deal 7h")
        fresh.apply_action("deal 7h")


def test_c2_1_a_stack_shows_its_top_only_when_complete() -> None:
    game = CardsGame()
    state = game.new_initial_state()
    for card in range(23):  # the hands, then the first card of stack B
        state.apply_action(f"deal {card_str(card)}")
    assert state.view(0)["pyramid"][1] == {
        "name": "B",
        "size": 1,
        "top": None,
        "gone": False,
        "available": False,
    }


AVAILABILITY = [
    ("", "K L M N O"),
    ("K", "G L M N O"),
    ("L", "G H K M N O"),
    ("K L", "G H M N O"),
    ("K L G", "D H M N O"),
    ("G H I J K L M N O", "D E F"),
    ("D E F G H I J K L M N O", "B C"),
    ("B D E F G H I J K L M N O", "C"),
    ("B C D E F G H I J K L M N O", "A"),
]


@pytest.mark.parametrize(("gone", "available"), AVAILABILITY)
def test_c3_stack_available_when_a_cover_is_gone_apex_when_both(gone: str, available: str) -> None:
    state = position(gone=gone)
    got = [STACK_NAMES[s] for s in available_stacks(state.gone)]
    assert got == available.split()


def test_c3_choosing_a_covered_stack_is_refused() -> None:
    table = handle(position(gone="K L M N O G H I J D E F B"))
    with pytest.raises(IllegalActionError, match=r"apex.*B and C.*\(rule C3\)"):
        table.apply_action("stack A")
    with pytest.raises(IllegalActionError, match="already won or discarded"):
        table.apply_action("stack B")
    table.apply_action("stack C")
    assert table.data.stack == 2


def test_c3_1_stack_names_and_what_covers_them() -> None:
    assert STACK_NAMES == "ABCDEFGHIJKLMNO"
    covers = {STACK_NAMES[s]: "".join(STACK_NAMES[c] for c in COVERED_BY[s]) for s in range(15)}
    assert covers["A"] == "BC"
    assert covers["D"] == "GH"
    assert covers["J"] == "NO"
    assert covers["K"] == ""
    assert STACK_SIZES == (1, 4, 4, 3, 3, 3, 2, 2, 2, 2, 1, 1, 1, 1, 1)


def test_c4_any_subset_can_go_to_the_reserve_joker_included() -> None:
    state = dealt_state(seed=11)
    hand0 = names(state.data.hands[0]).split()
    chosen = " ".join([*hand0[:3], "JK"])
    finish_reserve(state, (chosen, ""))
    assert names(state.data.reserves[0]) == " ".join(sorted_names(chosen, 0))
    assert state.data.reserves[1] == 0
    assert state.data.hands[0].bit_count() == 8
    assert state.data.phase is Phase.CHOOSE


def sorted_names(text: str, owner: int) -> list[str]:
    from tests.games.cards.helpers import cards

    return [card_str(c) for c in sorted(cards(text, owner))]


def test_c4_1_reserve_is_chosen_card_by_card_in_card_order() -> None:
    state = dealt_state(seed=2)
    first0 = names(state.data.hands[0]).split()[0]
    assert [str(a) for a in state.legal_actions(0)] == [f"hand {first0}", f"reserve {first0}"]
    second0 = names(state.data.hands[0]).split()[1]
    with pytest.raises(IllegalActionError, match=r"decide on .*\(rule C4\.1\)"):
        state.check_action(f"reserve {second0}", 0)
    for _ in range(11):
        state.apply_actions({0: state.legal_actions(0)[0], 1: state.legal_actions(1)[1]})
    assert [str(a) for a in state.legal_actions(0)] == ["hand JK", "reserve JK"]
    state.apply_actions({0: "reserve JK", 1: "hand JK"})
    assert state.data.phase is Phase.CHOOSE
    assert state.data.reserves[0] == 1 << PLAYER_JOKERS[0]
    assert state.data.hands[1] == 1 << PLAYER_JOKERS[1]


def test_c4_2_the_opponent_split_is_secret_until_the_reserve_phase_ends() -> None:
    state = dealt_state(seed=2)
    state.apply_actions({0: state.legal_actions(0)[1], 1: state.legal_actions(1)[1]})
    seen = state.view(0)["players"]
    assert seen[1]["hand_count"] is None and seen[1]["reserve_count"] is None
    assert seen[1]["cards"] == 12
    assert seen[0]["reserve_count"] == 1
    assert state.view(None)["players"][0]["reserve_count"] is None
    finish_reserve(state, ("", ""))
    seen = state.view(0)["players"]
    assert seen[1]["hand_count"] == 11 and seen[1]["reserve_count"] == 1


@pytest.mark.parametrize("dealer", [0, 1])
def test_c5_the_dealer_chooses_first_then_the_choice_alternates(dealer: int) -> None:
    table = handle(position(hands=("9h 9s JK", "2h 2s JK")), dealer=dealer)
    choosers = []
    for stack, attacks in (("K", ("9h", "2h")), ("L", ("JK", "2s")), ("M", ("JK", "JK"))):
        choosers.append(table.current_player())
        table.apply_action(f"stack {stack}")
        table.apply_actions({0: attacks[0], 1: attacks[1]})
        while table.data.phase is Phase.ASSIGN:
            table.apply_action(table.legal_actions()[0])
    assert choosers == [dealer, 1 - dealer, dealer]
    assert chooser(table.data, table.game.params) == 1 - dealer  # type: ignore[arg-type]


def test_c5_only_the_chooser_may_choose() -> None:
    table = handle(position())
    with pytest.raises(IllegalActionError, match="player 0 to move"):
        table.apply_action("stack K", player=1)
    assert parse_card("10h") == parse_card("Th")
    assert CARD_VALUES[parse_card("Ah")] == 15
