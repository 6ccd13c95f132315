"""Notation and action ids (C14, C14.1)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from koth.core.errors import InvalidActionError
from koth.games.cards import CardsGame, Choose, Deal, JokerPlay, Place, Run, Single
from koth.games.cards.actions import NUM_ACTIONS
from koth.games.cards.tables import JOKER, parse_card

GAME = CardsGame()

EXAMPLES = [
    ("deal 7h", Deal(parse_card("7h"))),
    ("hand Td", Place(parse_card("Td"), False)),
    ("reserve Qs", Place(parse_card("Qs"), True)),
    ("hand JK", Place(JOKER, False)),
    ("stack K", Choose(10)),
    ("stack A", Choose(0)),
    ("Ac", Single(parse_card("Ac"))),
    ("4c5c6c", Run(3, 2, 4)),
    ("JK", JokerPlay()),
]


@pytest.mark.parametrize(("text", "action"), EXAMPLES)
def test_c14_notation_examples_parse_and_print(text: str, action: object) -> None:
    assert GAME.parse_action(text) == action
    assert str(action) == text


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("4c-6c", "4c5c6c"),
        ("4c 5c 6c", "4c5c6c"),
        ("6C,5c,4c", "4c5c6c"),
        ("10h", "Th"),
        ("ac", "Ac"),
        ("joker", "JK"),
        ("jk", "JK"),
        ("K", "stack K"),
        ("Stack b", "stack B"),
        ("RESERVE 10s", "reserve Ts"),
    ],
)
def test_c14_alternative_spellings_are_read(text: str, canonical: str) -> None:
    assert str(GAME.parse_action(text)) == canonical


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("", "empty"),
        ("7x", "not a card"),
        ("8s9s", "above Eight"),
        ("4c6c", "consecutive"),
        ("4c5h", "one suit"),
        ("4c4c", "twice"),
        ("stack P", "A \\(apex\\) to O"),
        ("deal JK", "not dealt"),
        ("hand", "followed by one card"),
        ("6c-4c", "low to a higher"),
    ],
)
def test_c14_malformed_text_is_refused_with_a_reason(text: str, why: str) -> None:
    with pytest.raises(InvalidActionError, match=why):
        GAME.parse_action(text)


def test_c14_1_every_id_round_trips_through_notation() -> None:
    assert GAME.num_distinct_actions() == NUM_ACTIONS == 310
    seen = set()
    for action_id in range(NUM_ACTIONS):
        action = GAME.action_from_id(action_id)
        assert GAME.action_id(action) == action_id
        assert GAME.parse_action(str(action)) == action
        seen.add(str(action))
    assert len(seen) == NUM_ACTIONS
    with pytest.raises(InvalidActionError):
        GAME.action_from_id(NUM_ACTIONS)
    with pytest.raises(InvalidActionError):
        GAME.action_id(Run(0, 5, 9))  # a Nine: not a sequence


def test_c14_1_id_layout() -> None:
    layout = {
        "deal 2s": 0,
        "deal Ac": 51,
        "hand 2s": 52,
        "hand JK": 104,
        "reserve 2s": 105,
        "reserve JK": 157,
        "stack A": 158,
        "stack O": 172,
        "2s": 173,
        "Ac": 224,
        "2s3s": 225,
        "7c8c": 308,
        "JK": 309,
    }
    for text, action_id in layout.items():
        assert GAME.action_id(GAME.parse_action(text)) == action_id


@given(st.integers(0, NUM_ACTIONS - 1), st.sampled_from([str.lower, str.upper, str]))
@settings(max_examples=200, deadline=None)
def test_c14_parsing_ignores_case(action_id: int, case: object) -> None:
    action = GAME.action_from_id(action_id)
    assert GAME.parse_action(case(str(action))) == action  # type: ignore[operator]
