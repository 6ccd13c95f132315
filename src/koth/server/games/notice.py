"""The change a game's notice carries, so that another process holding the game takes
it in without reading the database.

A notice is ``"game <id> <version> <origin>"`` (the version after the change), followed,
for the changes a move or a secret choice makes, by the change as JSON: the moves
appended (as stored) with the version before them and the game's stored facts that a
move changes (status, decisions, outcome, clock, deadline); or the seat that chose at
the simultaneous node of that version (never what it chose: the action stays secret
until the joint move is played; a process reads it when that seat's own message is
built there); or the seat that took its choice back. A receiver whose game is not at the
version before the change, a notice without a change (a resignation, a clock, a seat
taken, a rematch) or one too long for the broker, reads the game from the database as
before. Notices travel between the server's own processes only.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError
from pydantic_core import PydanticSerializationError

from koth.server.games.rows import StoredGame
from koth.server.games.schemas import GameStatus

log = logging.getLogger(__name__)

#: PostgreSQL refuses a NOTIFY payload of 8,000 bytes or more; a notice longer than this
#: goes without its change (every receiver reads the change from the database)
MAX_NOTICE_BYTES = 7000


class Appended(BaseModel):
    """Moves appended after version ``before`` (a seat's move and the chance after it)."""

    # a stored float beyond JSON's own (the database's JSON keeps them) as JavaScript's
    model_config = ConfigDict(frozen=True, extra="forbid", ser_json_inf_nan="constants")

    kind: Literal["moves"] = "moves"
    before: int = Field(ge=0)
    #: the moves as stored (``store.move_json``)
    moves: list[dict[str, Any]] = Field(min_length=1)
    status: GameStatus
    decisions: int = Field(ge=0)
    outcome: dict[str, Any] | None
    clock: dict[str, Any] | None
    deadline: datetime | None


class Submitted(BaseModel):
    """``seat`` chose its secret action at the simultaneous node of the notice's version
    (another seat has still to choose)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Literal["submitted"] = "submitted"
    seat: int = Field(ge=0)


class Withdrawn(BaseModel):
    """``seat`` took back its secret action at the node of the notice's version."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Literal["withdrawn"] = "withdrawn"
    seat: int = Field(ge=0)


#: the facts of a stored game that a move changes (besides its version), as carried
MOVED_FACTS = ("status", "decisions", "outcome", "clock", "deadline")


def appended(before: int, moves: list[dict[str, Any]], stored: StoredGame) -> Appended:
    """The change of ``moves`` appended after version ``before``, which left the game
    ``stored``."""
    return Appended(before=before, moves=moves, **{k: getattr(stored, k) for k in MOVED_FACTS})


def stored_after(stored: StoredGame, version: int, change: Appended) -> StoredGame:
    """``stored`` (the game before ``change``) as ``change`` left it, at ``version``."""
    return replace(stored, version=version, **{k: getattr(change, k) for k in MOVED_FACTS})


Change = Annotated[Appended | Submitted | Withdrawn, Field(discriminator="kind")]

_CHANGE: TypeAdapter[Appended | Submitted | Withdrawn] = TypeAdapter(Change)


def game_notice(
    game_id: str, version: int, origin: str, change: Appended | Submitted | Withdrawn | None
) -> str:
    """The notice of a change of ``game_id`` (now at ``version``) made by ``origin``; the
    change is left out when there is none or the notice would be too long."""
    plain = f"game {game_id} {version} {origin}"
    if change is None:
        return plain
    try:
        full = f"{plain} {change.model_dump_json()}"
    except PydanticSerializationError:  # a stored value JSON cannot hold: readers read it
        log.warning("game %s: its change at version %d goes without its moves", game_id, version)
        return plain
    return full if len(full.encode()) <= MAX_NOTICE_BYTES else plain


def read_change(game_id: str, text: str | None) -> Appended | Submitted | Withdrawn | None:
    """The change a notice of ``game_id`` carries (``text``: what follows its origin);
    None when it carries none, or one that does not parse (logged without its content,
    which may hold the game's hidden moves: the receiver reads the change instead)."""
    if not text:
        return None
    try:
        return _CHANGE.validate_json(text)
    except ValidationError as exc:
        log.warning(
            "game %s: a change notice of %d bytes does not parse (%d errors, the first at %s); "
            "reading the change from the database",
            game_id,
            len(text.encode()),
            exc.error_count(),
            ".".join(str(p) for p in exc.errors()[0]["loc"]) if exc.error_count() else "-",
        )
        return None
