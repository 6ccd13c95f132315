"""The card game's log (``koth.games.cards.events``): over whole random games, every
fight, tie-break and result the engine recorded appears in every reader's log, the
winner of a stack alone reads its cards, and no entry names a card its reader had not
seen (C15.2)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from koth.core.conformance import ConformanceError, check_log, random_step
from koth.core.log import LogEvent, game_log
from koth.core.players import PlayerId
from koth.core.state import GameState
from koth.games.cards import CardsGame
from koth.games.cards.actions import CardsAction, Place
from koth.games.cards.events import CardsEvent
from koth.games.cards.state import DISCARDED
from koth.games.cards.tables import STACK_NAMES

VARIANTS = [{}, {"jokers": 2, "dealer": 1}, {"reveal_discarded_stacks": True}]


def random_game(game: CardsGame, seed: int) -> GameState[Any, Any]:
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        random_step(state, rng)
    return state


@pytest.mark.parametrize("params", VARIANTS, ids=str)
@pytest.mark.parametrize("seed", range(4))
def test_c15_2_every_reader_logs_every_fight_of_a_whole_game(
    params: dict[str, Any], seed: int
) -> None:
    game = CardsGame(params)
    state = random_game(game, seed)
    fights = state.data.log
    for reader in (0, 1, None):
        log = [e.event for e in game_log(game.new_initial_state(), reader, state.history)]
        rounds = [e for e in log if e.code == CardsEvent.FIGHT]
        assert [(e.params["stack"], e.params["attack1"], e.params["attack2"]) for e in rounds] == [
            (STACK_NAMES[f.stack], str(a), str(b)) for f in fights for a, b in f.rounds
        ]
        ties = [e for e in log if e.code == CardsEvent.TIE]
        assert len(ties) == sum(len(f.rounds) - 1 for f in fights)
        results = [
            (e.params["stack"], e.seat if e.code == CardsEvent.STACK_WON else DISCARDED)
            for e in log
            if e.code in (CardsEvent.STACK_WON, CardsEvent.STACK_DISCARDED)
        ]
        assert results == [(STACK_NAMES[f.stack], f.winner) for f in fights]
        chosen = [e.params["stack"] for e in log if e.code == CardsEvent.STACK_CHOSEN]
        assert chosen == [STACK_NAMES[f.stack] for f in fights]
        # the won cards are named to their winner only
        for event in log:
            if event.code == CardsEvent.STACK_WON:
                assert ("cards" in event.params) == (
                    reader == event.seat and event.params["stack"] != "A"
                )
        (end,) = [e for e in log if e.code in (CardsEvent.APEX_WON, CardsEvent.APEX_DISCARDED)]
        assert end.seat == (None if fights[-1].winner == DISCARDED else fights[-1].winner)


@pytest.mark.parametrize("params", VARIANTS, ids=str)
@pytest.mark.parametrize("seed", range(3))
def test_c15_2_no_log_entry_names_a_card_its_reader_had_not_seen(
    params: dict[str, Any], seed: int
) -> None:
    assert check_log(CardsGame(params), seed) > 0


class LeakyCards(CardsGame):
    """Shows every placement of a won card to both players, and logs it."""

    def shown_action(
        self, player: PlayerId, action: CardsAction, reader: PlayerId | None
    ) -> CardsAction | None:
        return action

    def log_events(
        self,
        before: Any,
        after: Any,
        player: PlayerId,
        action: CardsAction | None,
        reader: PlayerId | None,
    ) -> list[LogEvent]:
        events = super().log_events(before, after, player, action, reader)
        if isinstance(action, Place) and before["phase"] == "assign":
            events.append(LogEvent("placed", None, player, {"card": str(action).split()[1]}))
        return events


def test_c15_2_the_log_check_finds_a_card_told_to_the_opponent() -> None:
    with pytest.raises(ConformanceError, match="which it had not seen"):
        for seed in range(5):
            check_log(LeakyCards(), seed)
