"""Every message a client receives about a game is built here, through ``view``, as the
response models of :mod:`koth.server.games.schemas`.

Nothing in a message comes from the full state except what ``game.view(state, seat)``
returns, the seat's own legal actions, the node kind, which seats have submitted at a
simultaneous node (never what, but to the seat itself its own choice), the outcome and
every seat's final view once the game is over, the recent public events the game names
(``Game.transition_notes``) and the reader's log (built from its own views).
"""

from __future__ import annotations

import dataclasses
import enum
import time
from collections.abc import Mapping
from typing import Any

import segno

from koth.core.game import Game
from koth.core.state import GameState
from koth.i18n import DEFAULT
from koth.server.games import clocks
from koth.server.games.friends_schemas import FriendsInfo
from koth.server.games.live import LiveGame
from koth.server.games.log import log_entries
from koth.server.games.notes import note_entries
from koth.server.games.rows import StoredGame
from koth.server.games.schemas import (
    CreatedGameResponse,
    GameSummary,
    LegalAction,
    ReplayFrame,
    SeatLink,
    SeatSummary,
    StateMessage,
    ToMoveInfo,
)


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


def action_entry(game: Game[Any, Any, Any], action: Any) -> LegalAction:
    """One legal action for the page: its id, notation, type and structured fields."""
    fields = to_json_value(action) if dataclasses.is_dataclass(action) else {}
    return LegalAction(
        id=game.action_id(action),
        text=game.action_to_str(action),
        type=game.action_kind(action),
        fields=fields if isinstance(fields, dict) else {},
    )


def seat_list(game: StoredGame) -> list[SeatSummary]:
    return [
        SeatSummary(
            seat=s.seat,
            kind=s.kind,
            agent=s.agent,
            budget=s.budget,
            claimed=s.claimed,
            name=s.name,
        )
        for s in game.seats
    ]


def to_move_info(state: GameState[Any, Any]) -> ToMoveInfo:
    to_move = state.to_move()
    return ToMoveInfo(kind=to_move.kind.value, players=list(to_move.players))


def state_message(
    live: LiveGame, seat: int | None, lang: str = DEFAULT, log_from: int = 0
) -> StateMessage:
    """The full current picture of the game for ``seat`` (None: a spectator), its texts
    in ``lang``; its log only from entry ``log_from`` on (the reader has had those
    before it)."""
    state = live.state
    game = state.game
    to_move = state.to_move()
    legal: list[LegalAction] = []
    if seat is not None and seat in to_move.players and seat not in live.submitted:
        legal = [action_entry(game, a) for a in state.legal_actions(seat)]
    outcome_json = outcome_of(live)
    running = clocks.owing(state, live.stored.seats, live.stored.clock, live.submitted)
    entries = live.book.entries(seat) if live.book is not None else []
    log_from = min(log_from, len(entries))
    return StateMessage(
        game_id=live.stored.id,
        game=game.name,
        params=game.params.to_json(),
        version=live.version,
        status=live.status,
        seat=seat,
        seats=seat_list(live.stored),
        to_move=to_move_info(state),
        submitted=sorted(live.submitted),
        view=state.view(seat),
        legal=legal,
        outcome=outcome_json,
        returns=list(state.returns()) if state.is_terminal() else None,
        notes=note_entries(live.notes, lang),
        log_from=log_from,
        log=log_entries(entries[log_from:], lang),
        my_submission=live.pending.get(seat) if seat is not None else None,
        reveal=({str(s): state.view(s) for s in range(game.num_players)} if outcome_json else None),
        clock=clocks.clock_info(live.stored.clock, live.stored.seats, running, time.time()),
        ending=clocks.ending_of(live.stored.outcome, live.stored.seats, lang),
        friends=(live.friends or FriendsInfo()).model_copy(update={"online": sorted(live.online)}),
    )


def outcome_of(live: LiveGame) -> dict[str, Any] | None:
    """How the game ended: by its rules, or by a resignation or a clock (stored)."""
    outcome = live.state.outcome()
    if outcome is not None:
        return dict(outcome.to_json())
    ended = clocks.ending_of(live.stored.outcome, live.stored.seats, DEFAULT)
    return dict(live.stored.outcome or {}) if ended is not None else None


def replay_frame(
    state: GameState[Any, Any], seats: list[int | None], hinted: list[int] | None = None
) -> ReplayFrame:
    """One step of a replay: the views of ``seats`` (all of them once the game is over,
    which is when hidden cards may be revealed); ``hinted``: the seats that played the
    move leading here after a hint."""
    outcome = state.outcome()
    return ReplayFrame(
        version=state.num_moves,
        hinted=hinted or [],
        to_move=to_move_info(state),
        views={("spectator" if s is None else str(s)): state.view(s) for s in seats},
        outcome=outcome.to_json() if outcome else None,
    )


def spectate_url(base: str, game_id: str) -> str:
    return f"{base}/games/{game_id}"


def join_url(base: str, game_id: str, seat: int, token: str) -> str:
    # the token travels in the fragment: browsers never send it in a request line, so
    # it stays out of access logs and Referer headers
    return f"{base}/games/{game_id}#seat={seat}&token={token}"


def qr_svg(text: str) -> str:
    """``text`` as a QR code, an inline SVG image."""
    return str(segno.make(text, error="m").svg_inline(scale=3, dark="#1d2433"))


def summary(game: StoredGame, base: str) -> GameSummary:
    """A game as the lobby lists it."""
    return GameSummary(
        id=game.id,
        game=game.game_name,
        params=game.params,
        status=game.status,
        version=game.version,
        decisions=game.decisions,
        created=game.created,
        seats=seat_list(game),
        spectate_url=spectate_url(base, game.id),
        winners=list(game.outcome["winners"]) if game.outcome is not None else None,
        termination=str(game.outcome["termination"]) if game.outcome is not None else None,
    )


def created_response(game: StoredGame, tokens: Mapping[int, str], base: str) -> CreatedGameResponse:
    """What the creator of a game gets: every human seat's secret join link, once."""
    seats = []
    for s in seat_list(game):
        token = tokens.get(s.seat)
        link = join_url(base, game.id, s.seat, token) if token else None
        seats.append(SeatLink(**s.model_dump(), token=token, join_url=link))
    return CreatedGameResponse(
        id=game.id,
        game=game.game_name,
        params=game.params,
        status=game.status,
        seats=seats,
        spectate_url=spectate_url(base, game.id),
    )
