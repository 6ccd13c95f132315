"""The board game's log (``koth.games.board.events``): over whole random games, every
action, die, fight, death, push, alliance and point the engine played appears in every
reader's log, the excluded type is told to its owner alone, and no entry names what its
reader had not seen (B19)."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from typing import Any

import pytest

from koth.core.chance import sample_outcome
from koth.core.conformance import check_log
from koth.core.log import LogEvent, game_log
from koth.core.players import CHANCE
from koth.core.state import GameState
from koth.games.board import BoardGame
from koth.games.board.actions import (
    Ally,
    Answer,
    Attack,
    Move,
    MoveArea,
    Recruit,
    Roll,
    Swap,
    TurnRing,
)
from koth.games.board.events import PUBLIC_WORDS, BoardEvent
from koth.games.board.state import Phase
from koth.games.board.tables import LOC_NAMES, STRIDE

VARIANTS = [
    {"num_players": 3, "one_excluded": True, "round_limit": 15},
    {"num_players": 4, "teamplay": True, "round_limit": 15},
    {"num_players": 2, "countdown": True},
]


def fighting_policy(state: GameState[Any, Any], player: int, rng: random.Random) -> Any:
    """Random, but alliances are offered and accepted and assaults made whenever they
    can be, so that every kind of fight happens in a short game."""
    legal = list(state.legal_actions(player))
    for kind in (Ally, Attack):
        chosen = [a for a in legal if isinstance(a, kind)]
        if chosen:
            return rng.choice(chosen)
    accept = [a for a in legal if isinstance(a, Answer) and a.accept]
    if accept and rng.random() < 0.7:
        return accept[0]
    return rng.choice(legal)


def play(game: BoardGame, seed: int) -> tuple[GameState[Any, Any], list[tuple[Any, Any, Any]]]:
    """A whole game; every single move as (state before, player, action)."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    moves = []
    while not state.is_terminal():
        before = state.data
        if state.is_chance_node():
            action = sample_outcome(state.chance_outcomes(), rng)
            state.apply_action(action)
            moves.append((before, CHANCE, action))
        elif state.is_simultaneous_node():
            state.apply_actions({p: fighting_policy(state, p, rng) for p in state.acting_players()})
        else:
            p = state.current_player()
            action = fighting_policy(state, p, rng)
            state.apply_action(action, p)
            moves.append((before, p, action))
    return state, moves


def expected(moves: list[tuple[Any, Any, Any]], final: Any) -> Counter[str]:
    """How many events of each kind the engine's moves must have made."""
    counts: Counter[str] = Counter()
    for before, player, action in moves:
        if isinstance(action, Roll):
            kind = BoardEvent.ALLY_DIE if before.phase is Phase.ALLY_DIE else BoardEvent.ROLL
            counts[kind] += 1
        elif isinstance(action, Ally):
            counts[BoardEvent.ALLY_OFFER] += 1
        elif isinstance(action, Answer):
            counts[BoardEvent.ALLY_ACCEPTED if action.accept else BoardEvent.ALLY_DECLINED] += 1
        elif isinstance(action, Attack):
            counts[BoardEvent.ASSAULT] += 1
        elif isinstance(action, Move):
            counts[BoardEvent.MOVE] += 1
            enemies = [
                q
                for q in range(len(before.order))
                if q != player
                and any(before.units[q * STRIDE + action.dst * 3 : q * STRIDE + action.dst * 3 + 3])
            ]
            if action.unit == 1 and enemies:
                counts[BoardEvent.FIGHT] += 1
        elif isinstance(action, Recruit):
            counts[BoardEvent.RECRUIT] += 1
        elif isinstance(action, TurnRing):
            counts[BoardEvent.RING_CLOCKWISE if action.right else BoardEvent.RING_COUNTER] += 1
        elif isinstance(action, Swap):
            counts[BoardEvent.SWAP] += 1
        elif isinstance(action, MoveArea):
            counts[BoardEvent.AREA_MOVED] += 1
    return counts


def _deaths(moves: list[tuple[Any, Any, Any]], final: Any) -> int:
    """Units that went back to a hand other than by being recruited from it (B4)."""
    states = [before for before, _, _ in moves] + [final]
    total = 0
    for a, b in itertools.pairwise(states):
        total += sum(max(0, y - x) for x, y in zip(a.hand, b.hand, strict=True))
    return total


@pytest.mark.parametrize("params", VARIANTS, ids=str)
@pytest.mark.parametrize("seed", range(2))
def test_b19_every_reader_logs_every_action_fight_and_alliance(
    params: dict[str, Any], seed: int
) -> None:
    game = BoardGame(params)
    state, moves = play(game, seed)
    counts = expected(moves, state.data)
    for reader in (*range(game.num_players), None):
        log = [e.event for e in game_log(game.new_initial_state(), reader, state.history)]
        found = Counter(e.code for e in log)
        for code, count in counts.items():
            assert found[code] == count, code
        assert sum(int(e.params["n"]) for e in log if e.code == BoardEvent.DIED) == _deaths(
            moves, state.data
        )
        for seat, points in enumerate(state.data.points):
            scored = [e for e in log if e.code == BoardEvent.POINT and e.seat == seat]
            assert sum(int(e.params["n"]) for e in scored) == points
        assaults = [e.params["at"] for e in log if e.code == BoardEvent.ASSAULT]
        assert assaults == [LOC_NAMES[a.target] for _, _, a in moves if isinstance(a, Attack)]
        offers = [(e.seat, e.params["helper"]) for e in log if e.code == BoardEvent.ALLY_OFFER]
        assert offers == [(p, a.helper) for _, p, a in moves if isinstance(a, Ally)]
        assert sum(e.code in (BoardEvent.GAME_WON, BoardEvent.GAME_DRAWN) for e in log) >= 1


def test_b19_an_alliance_is_logged_from_offer_to_die() -> None:
    game = BoardGame(num_players=3, round_limit=30)
    for seed in range(20):
        state, moves = play(game, seed)
        if any(isinstance(a, Answer) and a.accept for _, _, a in moves):
            break
    else:
        raise AssertionError("no alliance was accepted in 20 games")
    log = [e.event for e in game_log(game.new_initial_state(), None, state.history)]
    start = next(i for i, e in enumerate(log) if e.code == BoardEvent.ALLY_ACCEPTED)
    offer = log[start - 1]
    assert offer.code == BoardEvent.ALLY_OFFER and offer.params["helper"] == log[start].seat
    die = next(e for e in log[start:] if e.code == BoardEvent.ALLY_DIE)
    assert die.seat == offer.seat
    loser = die.seat if int(die.params["face"]) <= 3 else offer.params["helper"]
    assert die.params["loser"] == loser
    # the blocker and one fighter die: the loser's fighter among them (B13)
    died = [e for e in log[start + 1 : start + 6] if e.code == BoardEvent.DIED]
    assert any(e.seat == loser and e.params["unit"] == "fighter" for e in died)
    assert any(e.params["unit"] == "blocker" for e in died)


def test_b19_the_excluded_type_is_logged_to_its_owner_alone() -> None:
    game = BoardGame(num_players=3, one_excluded=True, round_limit=2)
    state, _ = play(game, 1)
    for reader in (0, 1, 2, None):
        log = game_log(game.new_initial_state(), reader, state.history)
        excluded: list[LogEvent] = [e.event for e in log if e.event.code == BoardEvent.EXCLUDED]
        assert [e.seat for e in excluded] == [0, 1, 2]
        assert [("unit" in e.params) for e in excluded] == [s == reader for s in (0, 1, 2)]


@pytest.mark.parametrize("params", VARIANTS, ids=str)
def test_b19_no_log_entry_names_what_its_reader_had_not_seen(params: dict[str, Any]) -> None:
    assert check_log(BoardGame(params), 0, public=PUBLIC_WORDS) > 0
