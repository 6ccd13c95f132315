"""What each player may see, and redrawing the rest (C15, C15.1)."""

from __future__ import annotations

import json
import random
import re
from typing import Any

from koth.core.chance import sample_outcome
from koth.core.state import GameState
from koth.games.cards import CardsGame, CardsState, Phase
from koth.games.cards.observe import known_possessions, resample_hidden
from koth.games.cards.tables import (
    ALL_NORMAL,
    PLAYER_JOKERS,
    STACK_SIZES,
    bits,
    card_str,
    parse_card,
)
from tests.games.cards.helpers import handle, position


def secret_cards(state: CardsState, viewer: int | None) -> set[str]:
    """Cards ``viewer`` must not be able to name from its view."""
    secret = 0
    for p in (0, 1):
        if p != viewer:
            secret |= (state.hands[p] | state.reserves[p]) & ~known_possessions(state, p)
    for s, stack in enumerate(state.stacks):
        complete = len(stack) == STACK_SIZES[s]
        for c in stack[:-1] if complete else stack:
            secret |= 1 << c
    if state.phase is Phase.ASSIGN and state.log[-1].winner != viewer:
        top = state.log[-1].top
        secret |= (state.pending | state.to_hand | state.to_reserve) & ~(1 << (top or 0))
    secret |= state.undealt
    return {card_str(c) for c in bits(secret & ALL_NORMAL)}


def random_states(seeds: range) -> list[GameState[CardsState, Any]]:
    game = CardsGame()
    snapshots = []
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if rng.random() < 0.15:
                snapshots.append(state.clone())
            if state.is_chance_node():
                state.apply_action(sample_outcome(state.chance_outcomes(), rng))
            elif state.is_simultaneous_node():
                state.apply_actions({p: rng.choice(state.legal_actions(p)) for p in (0, 1)})
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        snapshots.append(state)
    return snapshots


def test_c15_a_view_never_names_a_card_its_viewer_cannot_see() -> None:
    for state in random_states(range(25)):
        for viewer in (0, 1, None):
            text = json.dumps(state.view(viewer))
            named = set(re.findall(r'"([2-9TJQKA][shdc])"', text))
            leaked = named & secret_cards(state.data, viewer)
            assert not leaked, (viewer, leaked, state)


def test_c15_own_cards_are_shown_the_opponents_are_not() -> None:
    table = handle(position(hands=("Ah 2c JK", "Kd JK"), reserves=("3s", "4s 5s")))
    mine, theirs, public = table.view(0), table.view(1), table.view(None)
    assert mine["players"][0]["hand"] == ["2c", "Ah", "JK"]
    assert mine["players"][0]["reserve"] == ["3s"]
    assert "hand" not in mine["players"][1] and "reserve" not in mine["players"][1]
    assert mine["players"][1]["hand_count"] == 2 and mine["players"][1]["reserve_count"] == 2
    assert theirs["players"][1]["reserve"] == ["4s", "5s"]
    assert all("hand" not in p for p in public["players"])


def test_c15_an_attack_is_seen_only_once_revealed() -> None:
    table = handle(position(hands=("9s JK", "9h JK"), reserves=("4s", "4h 6h")))
    table.apply_action("stack K")
    before = table.view(0)
    table.check_action("9h", 1)  # checking a choice stores nothing
    assert table.view(0) == before and before["rounds"] == []
    table.apply_actions({0: "9s", 1: "9h"})
    assert table.view(0)["rounds"] == [["9s", "9h"]]
    assert table.view(None)["rounds"] == [["9s", "9h"]]


def test_c15_views_do_not_depend_on_what_the_viewer_cannot_see() -> None:
    rng = random.Random(7)
    for state in random_states(range(25, 45)):
        for viewer in (0, 1, None):
            other = resample_hidden(state.data, viewer, rng)
            assert state.game.view(other, viewer) == state.view(viewer)
            assert not state.game.invariant_violations(other)


def test_c15_1_redrawing_keeps_known_cards_with_their_owner_and_a_public_joker() -> None:
    table = handle(position(hands=("Ah JK", "2h JK"), stacks={"K": "7c"}))
    table.apply_action("stack K")
    table.apply_actions({0: "Ah", 1: "JK"})  # player 1's Joker is now public, in hand
    table.apply_action("reserve 7c")
    rng = random.Random(3)
    redrawn = [resample_hidden(table.data, 1, rng) for _ in range(30)]
    for state in redrawn:
        assert (state.hands[0] | state.reserves[0]) >> parse_card("7c") & 1  # stays with 0
    for state in (resample_hidden(table.data, 0, rng) for _ in range(30)):
        assert state.hands[1] >> PLAYER_JOKERS[1] & 1  # the played Joker is known in hand
    # the hidden cards really change
    assert len({s.stacks[1] for s in redrawn}) > 1
    assert len({s.hands[0] for s in redrawn}) > 1


def test_c15_1_during_the_reserve_phase_the_opponent_split_is_redrawn() -> None:
    game = CardsGame()
    state = game.new_initial_state()
    rng = random.Random(0)
    while state.is_chance_node():
        state.apply_action(sample_outcome(state.chance_outcomes(), rng))
    for _ in range(6):
        state.apply_actions({p: state.legal_actions(p)[1] for p in (0, 1)})
    splits = {resample_hidden(state.data, 0, rng).reserves[1].bit_count() for _ in range(40)}
    assert len(splits) > 1
    assert all(resample_hidden(state.data, 0, rng).reserves[0] == state.data.reserves[0]
               for _ in range(5))  # fmt: skip
