"""Request and response bodies of the JSON API (documented in the OpenAPI schema)."""

from __future__ import annotations

import enum
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator
from pydantic.json_schema import SkipJsonSchema

from koth.games.board.events import BoardEvent
from koth.games.board.notes import DiceForfeited, TurnSkipped
from koth.games.cards.events import CardsEvent
from koth.server.bodies import RequestBody
from koth.server.games.clock_schemas import ClockInfo, ClockOptions, Ending
from koth.server.games.friends_schemas import FriendsInfo

#: every code a log entry may carry (the schema's enum)
LOG_CODES: list[str] = sorted({*(e.value for e in CardsEvent), *(e.value for e in BoardEvent)})
#: every code a recent event (a transition note) may carry (the schema's enum)
NOTE_CODES: list[str] = sorted({DiceForfeited.code, TurnSkipped.code})


class GameStatus(enum.StrEnum):
    OPEN = "open"
    """a human seat has never connected"""
    RUNNING = "running"
    FINISHED = "finished"


class SeatKind(enum.StrEnum):
    HUMAN = "human"
    COMPUTER = "computer"


# ------------------------------------------------------------------ requests
class SeatConfig(RequestBody):
    kind: SeatKind = SeatKind.HUMAN
    agent: str | None = Field(
        default=None,
        description="computer seats: a level of the game (beginner, casual, strong, expert: "
        "see the catalog) or an agent name (default random)",
    )
    budget: int | None = Field(
        None,
        ge=1,
        description="computer seats running mcts or ismcts: search iterations per move "
        "(at most the server's max_agent_iterations)",
    )
    name: str | None = Field(
        default=None,
        max_length=200,
        description="people's seats: the name shown for the seat (1 to 24 visible "
        "characters, normalised; default: 'Seat n')",
    )


class CreateGameRequest(RequestBody):
    game: str = Field(description="registry name, e.g. cards or board")
    params: dict[str, Any] = Field(
        default_factory=dict,
        description="the game's parameters: an object of its params_schema (GET /api/catalog), "
        "whose unknown keys are refused",
    )
    seats: list[SeatConfig] | None = Field(
        None, description="one entry per seat (default: every seat human)"
    )
    clock: ClockOptions | None = Field(
        default=None, description="the time control (default: none, a friendly game)"
    )
    rated: bool = Field(
        False, description="the result changes the persons' ratings (every seat a person)"
    )


def _no_default(schema: dict[str, Any]) -> None:
    """A field that is either given or absent: its schema names no default (null)."""
    schema.pop("default", None)


class SeatNameRequest(RequestBody):
    name: str = Field(
        max_length=200,
        description="the name shown for the seat (1 to 24 visible characters, normalised)",
    )


class TakeSeatRequest(RequestBody):
    name: str | None = Field(
        default=None, max_length=200, description="the name shown for the seat taken"
    )


PLAYER_KEY_PATTERN = r"^[A-Za-z0-9_-]{32,64}$"


class PlayerKeyRequest(RequestBody):
    key: str = Field(
        pattern=PLAYER_KEY_PATTERN,
        description="the device's random player key (32 to 64 URL-safe characters)",
    )


class QrRequest(RequestBody):
    text: str = Field(min_length=1, max_length=600, description="what the code reads as")


class QrResponse(BaseModel):
    svg: str = Field(description="the QR code as an inline SVG image")


class ActionRequest(RequestBody):
    """One action, by notation or by id; ``version`` guards against acting on a stale
    picture (a 409 "stale" error if the game has moved on)."""

    # exactly one of the two is given (the schema's oneOf): neither is null
    model_config = ConfigDict(
        json_schema_extra={"oneOf": [{"required": ["action"]}, {"required": ["action_id"]}]}
    )

    action: Annotated[str, Field(max_length=200)] | SkipJsonSchema[None] = Field(
        default=None, description="the action's notation", json_schema_extra=_no_default
    )
    action_id: Annotated[int, Field(ge=0)] | SkipJsonSchema[None] = Field(
        default=None, description="the action's integer id", json_schema_extra=_no_default
    )
    version: int | None = Field(
        default=None, ge=0, description="the game version the action was made at"
    )

    @model_validator(mode="after")
    def _exactly_one(self) -> ActionRequest:
        if (self.action is None) == (self.action_id is None):
            raise ValueError("give exactly one of action (notation) and action_id")
        return self

    @property
    def chosen(self) -> str | int:
        """The action as given: its notation or its id."""
        if self.action is not None:
            return self.action
        assert self.action_id is not None  # the validator above
        return self.action_id


class GameHello(RequestBody):
    """The first frame of a game's WebSocket."""

    type: Literal["hello"]
    token: str | None = Field(default=None, max_length=200, description="null: a spectator")


class ParamsCheckRequest(RequestBody):
    params: dict[str, Any] = Field(default_factory=dict)


# ----------------------------------------------------------------- responses
class SeatSummary(BaseModel):
    seat: int
    kind: SeatKind
    agent: str | None = None
    budget: int | None = None
    claimed: bool
    name: str | None = Field(default=None, description="the name its person chose, if any")
    rating: int | None = Field(
        default=None, description="in the lobby: its person's rating in this kind of game"
    )
    online: bool | None = Field(
        default=None, description="in the lobby: its person has the table open now"
    )


class GameSummary(BaseModel):
    id: str
    game: str
    params: dict[str, Any]
    status: GameStatus
    version: int = Field(description="moves stored so far, chance steps included")
    decisions: int = Field(description="moves the seats chose (chance steps not counted)")
    created: datetime
    seats: list[SeatSummary]
    spectate_url: str
    winners: list[int] | None = Field(
        default=None,
        description="once finished: the winning seats (empty: nobody won); "
        "null while the game runs",
    )
    termination: str | None = Field(default=None, description="once finished: why it ended")


class MyGame(GameSummary):
    seat: int = Field(description="the seat this device plays")
    to_move: list[int] = Field(description="the seats to act now (empty once over)")
    my_turn: bool = Field(description="this seat is to act now")


class SeatLink(SeatSummary):
    join_url: str | None = Field(default=None, description="human seats: the secret join link")
    token: str | None = Field(default=None, description="human seats: the secret seat token")


class CreatedGameResponse(BaseModel):
    id: str
    game: str
    params: dict[str, Any]
    status: GameStatus
    seats: list[SeatLink]
    spectate_url: str


class LegalAction(BaseModel):
    id: int
    text: str = Field(description="notation")
    type: str = Field(
        description="the action's kind (`Game.action_kinds`: the enum lists every registered "
        "game's)"
    )
    fields: dict[str, Any] = Field(description="the action's structured fields")


class ToMoveInfo(BaseModel):
    kind: Literal["player", "simultaneous", "chance", "terminal"]
    players: list[int]


class NoteEntry(BaseModel):
    """A recent public event that the position alone does not show (dice forfeited, a
    turn skipped), as ``game.transition_notes`` named it."""

    move: int = Field(description="index of the move whose transition made it")
    code: str = Field(
        description="the kind of event (stable: clients word it)",
        json_schema_extra={"enum": list[Any](NOTE_CODES)},
    )
    rule: str | None = Field(description="the rule that made it, e.g. B7.1")
    params: dict[str, int | str] = Field(description="its values (seats as ids, from 0)")
    text: str = Field(description="worded in the reader's language")


class LogEntry(BaseModel):
    """One public event of the game, as the reader saw it (``koth.core.log``): built from
    the reader's own views and what it may know of each action, never the full state."""

    move: int = Field(description="index of the move that made it")
    decision: int = Field(
        description="index of the decision it belongs to: the last move a player made up to "
        "it (chance outcomes fold into the decision before them; -1: the set-up)"
    )
    seat: int | None = Field(description="the seat it is about (from 0), or None")
    code: str = Field(
        description="the kind of event (stable: clients word it)",
        json_schema_extra={"enum": list[Any](LOG_CODES)},
    )
    rule: str | None = Field(description="the rule that made it, e.g. C8 or B11.2")
    params: dict[str, int | str | list[str]] = Field(
        description="its values: seats as ids from 0, cards and tiles in notation"
    )
    text: str = Field(description="worded in the reader's language")


class StateMessage(BaseModel):
    """What one seat (or a spectator) may see of a game now; also the WebSocket frame
    ``{"type": "state", ...}``."""

    type: Literal["state"] = "state"
    game_id: str
    game: str
    params: dict[str, Any]
    version: int
    status: GameStatus
    seat: int | None
    seats: list[SeatSummary]
    to_move: ToMoveInfo
    submitted: list[int] = Field(description="seats that have submitted (never what)")
    view: dict[str, Any] = Field(description="game.view(state, seat)")
    legal: list[LegalAction] = Field(description="this seat's legal actions now")
    outcome: dict[str, Any] | None
    returns: list[float] | None
    notes: list[NoteEntry] = Field(
        default_factory=list,
        description="the recent events (at most 8, newest last): public, the same for all",
    )
    log_from: int = Field(
        default=0,
        ge=0,
        description="the index of the first entry of `log` in the reader's whole log: a live "
        "update carries only the entries its connection has not had (the first message of a "
        "connection, and every HTTP answer, carry the whole log: 0)",
    )
    log: list[LogEntry] = Field(
        default_factory=list,
        description="the public events of the game as this reader saw them, oldest first: "
        "the whole log from entry `log_from` on",
    )
    my_submission: str | None = Field(
        default=None,
        description="this seat's own secret action at the current simultaneous node, once "
        "submitted (never another seat's); it may be taken back until every seat is in",
    )
    reveal: dict[str, dict[str, Any]] | None = Field(
        default=None,
        description="once the game is over: every seat's final view (hidden cards shown)",
    )
    clock: ClockInfo | None = Field(
        default=None, description="the clocks, resigned seats and stand-ins (null: none)"
    )
    ending: Ending | None = Field(
        default=None, description="the game ended by a resignation or a clock run out"
    )
    friends: FriendsInfo = Field(
        default_factory=FriendsInfo,
        description="the people at the table: presence, ratings, the score, a rematch",
    )


class HintResponse(BaseModel):
    """The strongest computer level's move for the asking seat, from its view."""

    game_id: str
    version: int = Field(description="the game version the hint is for")
    seat: int
    level: str = Field(description="the level asked, e.g. expert")
    level_title: str = Field(description="its name in the reader's language")
    action: LegalAction = Field(description="the suggested move, one of the seat's legal actions")
    reason: str = Field(description="one line on why, in the reader's language")


class ReplayFrame(BaseModel):
    version: int
    hinted: list[int] = Field(
        default_factory=list,
        description="the seats that played the move leading here after asking for a hint",
    )
    to_move: ToMoveInfo
    views: dict[str, dict[str, Any]] = Field(
        description="view per seat ('spectator' for None): only the viewer's own until the "
        "game is over, then every seat's"
    )
    outcome: dict[str, Any] | None


class ReplayResponse(BaseModel):
    game_id: str
    game: str
    params: dict[str, Any]
    seat: int | None
    finished: bool
    seats: list[SeatSummary] = Field(
        default_factory=list, description="the game's seats, with their people's names"
    )
    frames: list[ReplayFrame]
    logs: dict[str, list[LogEntry]] = Field(
        default_factory=dict,
        description="the whole game's log per reader, keyed like a frame's views",
    )
    ending: Ending | None = Field(
        default=None, description="the game ended by a resignation or a clock run out"
    )


class AnalysisStatus(enum.StrEnum):
    ANALYSING = "analysing"
    READY = "ready"
    FAILED = "failed"


class AnalysedDecision(BaseModel):
    """One decision of one seat, as the analysing search saw it from that seat's view."""

    move: int = Field(description="index of the move in the game (frame move + 1 shows it)")
    seat: int
    played: str
    preferred: str = Field(description="the move the search prefers")
    win_chance: float = Field(description="estimated win chance (0-1) with the preferred move")
    played_chance: float = Field(description="estimated win chance after the move played")
    drop: float = Field(description="win chance the move played gave away")
    mark: Literal["??", "?", "?!", ""] = Field(description="blunder, mistake, inaccuracy")


class AnalysedSeat(BaseModel):
    seat: int
    result: float = Field(description="the seat's final result on the same 0-1 scale")
    decisions: list[AnalysedDecision]


class GameAnalysisResponse(BaseModel):
    """A finished game's analysis: computed in the background on first request and kept."""

    game_id: str
    status: AnalysisStatus
    agent: str | None = None
    level: str | None = Field(
        default=None, description="the computer level whose agent and budget analysed it, if any"
    )
    moves: int | None = None
    seats: list[AnalysedSeat] = Field(default_factory=list)
    error: str | None = None


class LevelEntry(BaseModel):
    """A named computer level: a seat's ``agent`` may be its key."""

    key: str = Field(description="e.g. beginner, casual, strong, expert")
    title: str
    summary: str = Field(description="how it plays, in one sentence")
    strength: str = Field(description="its measured strength against the level below")
    spec: str = Field(description="the agent and budget it stands for")


class CatalogEntry(BaseModel):
    name: str
    title: str
    default_players: int
    params_schema: dict[str, Any]
    agents: list[str]
    levels: list[LevelEntry] = Field(
        default_factory=list, description="the computer levels, weakest first"
    )


class TableInfo(BaseModel):
    game: str
    params: dict[str, Any]
    num_players: int


class LessonEntry(BaseModel):
    """One lesson of the tutorial: a scripted position and what to do there."""

    key: str = Field(description="e.g. reserve, choose, recruit")
    title: str
    task: str = Field(description="what to do, with the rule in words")
    rule: str = Field(description="the rule it teaches, e.g. C4")
    choices: list[str] = Field(description="moves to try: one right, the others breaking a rule")
    message: dict[str, Any] = Field(
        description="the position as the learner's seat sees it, shaped like a state message"
    )


class LessonTry(BaseModel):
    """A move tried in a lesson, by notation or by id."""

    model_config = ConfigDict(extra="forbid")

    action: str | None = Field(default=None, max_length=200, description="the move's notation")
    action_id: int | None = Field(default=None, ge=0, description="the move's integer id")

    @model_validator(mode="after")
    def _exactly_one(self) -> LessonTry:
        if (self.action is None) == (self.action_id is None):
            raise ValueError("give exactly one of action (notation) and action_id")
        return self


class LessonTryResponse(BaseModel):
    """The engine's verdict on a tried move; nothing is stored."""

    correct: bool = Field(description="the move the lesson asks for")
    legal: bool = Field(description="allowed by the rules here")
    text: str = Field(description="what the engine says: the rule broken, or what it did")
    rule: str | None = None
    after: dict[str, Any] | None = Field(
        default=None, description="the learner's view after a right move (not at a secret choice)"
    )
