"""Every message a client receives about a game is built here, through ``view``.

Nothing in a message comes from the full state except what ``game.view(state, seat)``
returns, the seat's own legal actions, the node kind, which seats have submitted at a
simultaneous node (never what), and the outcome once the game is over.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from koth.core.game import Game
from koth.core.state import GameState

if TYPE_CHECKING:
    from koth.server.services.games import LiveGame


def to_json_value(value: Any) -> Any:
    """``value`` made of dict/list/str/int/float/bool/None (enums by value)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_json_value(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, enum.Enum):
        return to_json_value(value.value)
    if isinstance(value, Mapping):
        return {str(k): to_json_value(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        items = [to_json_value(v) for v in value]
        return sorted(items, key=repr) if isinstance(value, set | frozenset) else items
    if value is None or isinstance(value, str | int | float | bool):
        return value
    return str(value)


def action_entry(game: Game[Any, Any, Any], action: Any) -> dict[str, Any]:
    """One legal action for the page: its id, notation, type and structured fields."""
    fields = to_json_value(action) if dataclasses.is_dataclass(action) else {}
    return {
        "id": game.action_id(action),
        "text": game.action_to_str(action),
        "type": type(action).__name__,
        "fields": fields if isinstance(fields, dict) else {},
    }


def seat_list(live: LiveGame) -> list[dict[str, Any]]:
    return [
        {"seat": s.seat, "kind": s.kind, "agent": s.agent, "budget": s.budget, "claimed": s.claimed}
        for s in live.stored.seats
    ]


def state_message(live: LiveGame, seat: int | None) -> dict[str, Any]:
    """The full current picture of the game for ``seat`` (None: a spectator)."""
    state = live.state
    game = state.game
    to_move = state.to_move()
    legal: list[dict[str, Any]] = []
    if seat is not None and seat in to_move.players and seat not in live.submitted:
        legal = [action_entry(game, a) for a in state.legal_actions(seat)]
    outcome = state.outcome()
    return {
        "type": "state",
        "game_id": live.stored.id,
        "game": game.name,
        "params": game.params.to_json(),
        "version": live.version,
        "status": live.status,
        "seat": seat,
        "seats": seat_list(live),
        "to_move": {"kind": to_move.kind.value, "players": list(to_move.players)},
        "submitted": sorted(live.submitted),
        "view": state.view(seat),
        "legal": legal,
        "outcome": outcome.to_json() if outcome else None,
        "returns": list(state.returns()) if outcome else None,
    }


def replay_frame(state: GameState[Any, Any], seats: list[int | None]) -> dict[str, Any]:
    """One step of a replay: the views of ``seats`` (all of them once the game is over,
    which is when hidden cards may be revealed)."""
    to_move = state.to_move()
    outcome = state.outcome()
    return {
        "version": state.num_moves,
        "to_move": {"kind": to_move.kind.value, "players": list(to_move.players)},
        "views": {("spectator" if s is None else str(s)): state.view(s) for s in seats},
        "outcome": outcome.to_json() if outcome else None,
    }
