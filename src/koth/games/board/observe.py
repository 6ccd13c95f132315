"""What each player may know: the view, and redrawing what it may not know (B16.2)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from koth.core.game import JSON
from koth.core.outcome import Outcome
from koth.core.players import PlayerId
from koth.games.board.state import BoardState, BoardTermination, Phase, evolve, units_code
from koth.games.board.tables import (
    LOC_NAMES,
    NUM_LOCS,
    RING_SIZE,
    STRIDE,
    TERRAIN_LETTERS,
    UNIT_NAMES,
    has_bit,
)

if TYPE_CHECKING:
    from koth.games.board.rules import Rules


def outcome_of(state: BoardState) -> Outcome | None:
    """Who won and why, once the game is over (B15-B17)."""
    if state.termination is None:
        return None
    # B16.3: teammates win together; B17: leaders at the round limit draw
    drawn = state.termination is BoardTermination.ROUND_LIMIT_DRAW and len(state.winners) > 1
    return Outcome(state.termination, frozenset(state.winners), draw=drawn)


def excluded_visible(state: BoardState, viewer: PlayerId | None, player: int) -> bool:
    """B16.2: an excluded type is secret to the others until the game ends."""
    return viewer == player or state.phase is Phase.OVER


def view(rules: Rules, state: BoardState, player: PlayerId | None) -> dict[str, JSON]:
    """What ``player`` (None: a spectator) may know: everything but the others'
    excluded types before the end (B16.2)."""
    n = rules.n
    units = units_view(state.units, n)
    excluded: list[str | None] = []
    for q in range(n):
        if state.excluded[q] < 0:
            excluded.append(None)
        elif excluded_visible(state, player, q):
            excluded.append(UNIT_NAMES[state.excluded[q]])
        else:
            excluded.append("hidden")
    outcome = outcome_of(state)
    to_move = rules.to_move(state)
    data: dict[str, JSON] = {
        "phase": state.phase.name.lower(),
        "round": state.round,
        "turn": state.turn,
        "to_move": list(to_move.players) if to_move.players else to_move.kind.value,
        "order": list(state.order),
        "terrain": terrain_rows(state),
        "areas": {
            f"A{a + 1}": {
                "player": state.area_of.index(a + 1) if a + 1 in state.area_of else None,
                "touches": f"1.{pos}" if pos >= 0 else None,
            }
            for a, pos in enumerate(state.area_pos)
        },
        "units": units,
        "hand": [list(state.hand[q * 3 : q * 3 + 3]) for q in range(n)],
        "dice": [list(d) for d in state.dice],
        "slots_used": state.slots,
        "declined": [q for q in range(n) if has_bit(state.declined, q)],
        "offer": str(state.offer) if state.offer else None,
        "points": list(state.points),
        "excluded": excluded,
        "used_types": [
            [UNIT_NAMES[t] for t in range(3) if state.used_types[q] >> t & 1] for q in range(n)
        ],
        "outcome": outcome.to_json() if outcome else None,
    }
    if rules.params.teamplay:
        data["team_points"] = [sum(state.points[q] for q in side) for side in rules.sides]
    if rules.params.countdown:
        data["countdown"] = state.countdown
    return data


def resample_hidden(
    rules: Rules, state: BoardState, player: PlayerId | None, rng: random.Random
) -> BoardState:
    """``state`` with every excluded type ``player`` may not know redrawn (B16.2)."""
    if not rules.params.one_excluded or state.phase is Phase.OVER:
        return state
    excluded = list(state.excluded)
    for q in range(rules.n):
        if q != player and excluded[q] >= 0:
            # any type this player has never recruited is consistent with the record
            excluded[q] = rng.choice([t for t in range(3) if not state.used_types[q] >> t & 1])
    return evolve(state, excluded=tuple(excluded))


def unit_code(state: BoardState, player: int, loc: int) -> str:
    """e.g. ``R1F2``: one player's units on one location."""
    k = player * STRIDE + loc * 3
    return _code_of(tuple(state.units[k : k + 3]))


#: the code of each (runners, fighters, blockers) count met so far (a few dozen)
_CODES: dict[tuple[int, ...], str] = {}
_NO_UNITS = (0, 0, 0)


def _code_of(counts: tuple[int, ...]) -> str:
    code = _CODES.get(counts)
    if code is None:
        code = _CODES[counts] = units_code(counts)
    return code


def units_view(units: bytes, n: int) -> dict[str, dict[str, str]]:
    """The ``units`` part of a view: per occupied location, each player's unit code.

    Every view of every decision builds this, so each player's counts are read as
    (runners, fighters, blockers) triples in one pass instead of location by location.
    """
    triples = []
    for q in range(n):
        own = units[q * STRIDE : (q + 1) * STRIDE]
        triples.append(list(zip(own[0::3], own[1::3], own[2::3], strict=True)))
    result: dict[str, dict[str, str]] = {}
    for loc in range(NUM_LOCS):
        here: dict[str, str] = {}
        for q in range(n):
            counts = triples[q][loc]
            if counts != _NO_UNITS:
                here[str(q)] = _code_of(counts)
        if here:
            result[LOC_NAMES[loc]] = here
    return result


def terrain_rows(state: BoardState) -> list[str]:
    return [
        "".join(
            TERRAIN_LETTERS[t] if t >= 0 else "?"
            for t in state.terrain[r * RING_SIZE : (r + 1) * RING_SIZE]
        )
        for r in range(4)
    ]
