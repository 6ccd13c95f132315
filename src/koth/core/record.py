"""Game records: parameters plus every action (chance outcomes included) in JSON.

A record replays deterministically to the identical state; this is what the CLI
saves, the server stores and ``koth replay`` checks. Records and the JSON of a game and
its state are made from above the state (``GameRecord.from_state``, ``state_to_json``),
as python-chess makes a PGN game from a board and OpenSpiel serialises a game and state
with a free function: the state itself knows nothing of them.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from koth.core.errors import InvalidParamsError, KothError, RecordError
from koth.core.game import Game
from koth.core.registry import load_game
from koth.core.state import GameState, HistoryEntry

RECORD_FORMAT: Literal["koth-record/1"] = "koth-record/1"


class RecordedMove(BaseModel):
    """One history entry: ``{"player": 0, "action": "..."}`` (player -1 is chance), or
    ``{"joint": {"0": "...", "1": "..."}}`` for a simultaneous node."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    player: int | None = None
    action: str | None = None
    joint: dict[int, str] | None = None

    @model_validator(mode="after")
    def _one_form(self) -> RecordedMove:
        single = self.player is not None and self.action is not None
        if single == (self.joint is not None) or (
            self.joint is None and (self.player is None) != (self.action is None)
        ):
            raise ValueError('a move is either {"player", "action"} or {"joint"}')
        return self


class GameRecord(BaseModel):
    """A whole game: which game, its parameters, and its moves in order."""

    model_config = ConfigDict(extra="forbid")

    format: Literal["koth-record/1"] = RECORD_FORMAT
    game: str
    params: dict[str, Any] = Field(default_factory=dict)
    moves: list[RecordedMove] = Field(default_factory=list)
    meta: dict[str, Any] = Field(default_factory=dict)

    @classmethod
    def from_state(cls, state: GameState[Any, Any], **meta: Any) -> GameRecord:
        game = state.game
        moves = []
        for move in state.history:
            if move.simultaneous:
                moves.append(
                    RecordedMove(joint={p: game.action_to_str(a) for p, a in move.actions})
                )
            else:
                ((player, action),) = move.actions
                moves.append(RecordedMove(player=player, action=game.action_to_str(action)))
        return cls(game=game.name, params=game.params.to_json(), moves=moves, meta=meta)

    @classmethod
    def from_json_text(cls, text: str) -> GameRecord:
        try:
            return cls.model_validate_json(text)
        except ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(str(p) for p in e['loc']) or 'record'}: {e['msg']}"
                for e in exc.errors()[:5]
            )
            raise RecordError(f"not a valid koth record: {problems}") from None

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise RecordError(f"cannot read record {path}: {exc.strerror}") from None
        return cls.from_json_text(text)

    def save(self, path: str | Path) -> None:
        """Write the record as a whole or not at all: into a temporary file beside
        ``path``, then renamed over it, so an interrupted save never leaves half a
        record (nor destroys the one already there). Raises OSError."""
        target = Path(path)
        fd, temporary = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                out.write(self.to_json_text() + "\n")
            os.replace(temporary, target)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise

    def to_json_text(self) -> str:
        return json.dumps(self.model_dump(mode="json"), indent=1)


def moves_from_record(game: Game[Any, Any, Any], record: GameRecord) -> list[HistoryEntry[Any]]:
    """The record's moves parsed (not checked against the rules)."""
    moves: list[HistoryEntry[Any]] = []
    for index, entry in enumerate(record.moves):
        try:
            if entry.joint is not None:
                pairs = tuple((p, game.parse_action(t)) for p, t in sorted(entry.joint.items()))
                moves.append(HistoryEntry(pairs, simultaneous=True))
            else:
                assert entry.player is not None and entry.action is not None
                moves.append(HistoryEntry(((entry.player, game.parse_action(entry.action)),)))
        except KothError as exc:
            raise RecordError(f"move {index}: {exc}", index=index) from None
    return moves


def replay(record: GameRecord, game: Game[Any, Any, Any] | None = None) -> GameState[Any, Any]:
    """Replay ``record`` from the initial state, checking every move.

    ``game`` defaults to the registered game the record names, with its parameters.
    Raises RecordError naming the index of the first bad move and the rule it breaks.
    """
    if game is None:
        try:
            game = load_game(record.game, record.params)
        except InvalidParamsError as exc:
            raise RecordError(str(exc)) from None
    elif game.name != record.game or game.params.to_json() != record.params:
        raise RecordError(f"the record is of {record.game} ({record.params}), not {game!r}")
    state = game.new_initial_state()
    for index, move in enumerate(moves_from_record(game, record)):
        try:
            if move.simultaneous:
                state.apply_actions(dict(move.actions))
            else:
                ((player, action),) = move.actions
                state.apply_action(action, player)
        except KothError as exc:
            raise RecordError(
                f"move {index}: {exc}", index=index, rule=getattr(exc, "rule", None)
            ) from None
    return state


def state_to_json(state: GameState[Any, Any]) -> dict[str, Any]:
    """The full state, secrets included, with its game and record (to continue or replay
    it); ``state_from_json`` reads it back."""
    game = state.game
    return {
        "game": game.name,
        "params": game.params.to_json(),
        "state": game.state_to_json(state.data),
        "moves": GameRecord.from_state(state).model_dump(mode="json")["moves"],
    }


def state_from_json(
    data: Mapping[str, Any], game: Game[Any, Any, Any] | None = None
) -> GameState[Any, Any]:
    """The inverse of ``state_to_json``; ``game`` defaults to the registered game named
    in ``data`` with its parameters. Raises ValueError on malformed data."""
    try:
        if game is None:
            game = load_game(data["game"], data.get("params", {}))
        record = GameRecord.model_validate(
            {"game": data["game"], "params": data.get("params", {}), "moves": data["moves"]}
        )
        state_data = game.state_from_json(data["state"])
    except (KeyError, TypeError) as exc:
        raise ValueError(f"malformed state JSON: missing or wrong field {exc}") from None
    return GameState(game, state_data, moves_from_record(game, record))
