"""The entries of a hosted quiz event's log ("ops"), each stored as one JSON row.

Ops carry everything their effect depends on (server receive times, the teams a
group judgement covers, drawn spur cells), so folding the log again after a restart
gives exactly the same event, whatever the clock says then.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StringConstraints,
    TypeAdapter,
    model_validator,
)

from koth.server.bodies import refuse_nul

Declaration = Literal["jump", "revolution", "ordinary"]
Format = Literal["single", "semifinals"]

ANSWER_MAX = 300
COMMENT_MAX = 500


class EventSettings(BaseModel):
    """What the host chooses when creating a quiz event."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    @model_validator(mode="before")
    @classmethod
    def _no_nul(cls, data: Any) -> Any:
        return refuse_nul(data)

    title: str = Field("King of the Hill", min_length=1, max_length=100)
    teams: list[str] = Field(
        default_factory=list, max_length=5000, description="teams known upfront (optional)"
    )
    steps: int = Field(10, ge=3, le=100, description="steps of a slope (N)")
    hold_moves: int = Field(3, ge=1, le=50)
    questions: int = Field(40, ge=1, le=500, description="main questions (of each semifinal)")
    backup_questions: int = Field(0, ge=0, le=100)
    final_questions: int | None = Field(
        None, ge=1, le=500, description="semifinals format: questions of the final"
    )
    partner_questions: list[int] = Field(default_factory=list, max_length=500)
    prize_places: int = Field(3, ge=1, le=100)
    format: Format = "single"
    qualifiers: int = Field(3, ge=1, le=1000, description="semifinals: teams going on (K)")
    spurs: dict[Annotated[str, StringConstraints(min_length=1)], list[int]] = Field(
        default_factory=dict, description="spur cells set by hand, per team name"
    )
    spurs_per_slope: int = Field(1, ge=0, le=20, description="spur cells drawn per slope")
    spur_seed: StrictInt | None = Field(
        default=None, ge=0, description="seed of the spur draw (default: a random one, kept secret)"
    )
    answer_seconds: int = Field(60, ge=5, le=3600, description="default answering time")
    phones_show_question: StrictBool = Field(
        False, description="team phones show the question's text once the host shows it"
    )
    withdrawn_king: Literal["stays", "refused"] = Field(
        "stays",
        description="a King that withdraws stays on the Peak answering nothing (rules "
        "Q36), or (refused) the King cannot withdraw while it reigns",
    )


class _Op(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    command_id: str | None = None
    """the idempotency key of the request that made the op: a retry of the same request
    (a console that lost its connection resends what it queued) is applied once"""


class Created(_Op):
    kind: Literal["created"] = "created"
    settings: EventSettings
    spur_seed: int


class TeamJoined(_Op):
    """A team joined (or the host added it: no token)."""

    kind: Literal["team_joined"] = "team_joined"
    team: str
    token_hash: str | None = None
    recovery_hash: str | None = None


class TeamDevice(_Op):
    """A team moved to (or added) another phone with its recovery code."""

    kind: Literal["team_device"] = "team_device"
    team: str
    token_hash: str


class PartStarted(_Op):
    kind: Literal["part_started"] = "part_started"
    name: str
    teams: list[str]
    spurs: dict[str, list[int]]


class _QuestionOp(_Op):
    """An op about one question of the current part."""

    question: int


class _TimedOp(_QuestionOp):
    """An op whose effect depends on when the server received it (``at``, epoch s)."""

    at: float


class QuestionOpened(_QuestionOp):
    kind: Literal["question_opened"] = "question_opened"


class Declared(_QuestionOp):
    kind: Literal["declared"] = "declared"
    team: str
    declaration: Declaration


class Locked(_TimedOp):
    """The question is being read: declarations are closed; answer times count from here."""

    kind: Literal["locked"] = "locked"


class AnsweringOpened(_TimedOp):
    kind: Literal["answering_opened"] = "answering_opened"
    seconds: float


class TimerPaused(_TimedOp):
    kind: Literal["timer_paused"] = "timer_paused"


class TimerResumed(_TimedOp):
    kind: Literal["timer_resumed"] = "timer_resumed"


class TimerExtended(_TimedOp):
    kind: Literal["timer_extended"] = "timer_extended"
    seconds: float


class AnsweringClosed(_TimedOp):
    kind: Literal["answering_closed"] = "answering_closed"


class Answered(_TimedOp):
    """A team's answer as the server received it."""

    kind: Literal["answered"] = "answered"
    team: str
    text: str
    submission_id: str
    by: Literal["team", "judge"] = "team"


class Judged(_QuestionOp):
    """One judgement for a group of answers of the open question."""

    kind: Literal["judged"] = "judged"
    teams: list[str]
    correct: bool


class PartnerSet(_QuestionOp):
    kind: Literal["partner_set"] = "partner_set"
    partner: bool


class Resolved(_QuestionOp):
    kind: Literal["resolved"] = "resolved"


class Corrected(_TimedOp):
    """An appeal: a judgement corrected after the fact, with the judge's comment."""

    kind: Literal["corrected"] = "corrected"
    team: str
    correct: bool
    comment: str = ""
    answer: str | None = None
    """the answer of a team whose answer never arrived, typed by the judge: it is
    admitted to the closed question with the verdict (rules Q26)"""


class BreakTaken(_Op):
    kind: Literal["break"] = "break"


class Lightning(_Op):
    kind: Literal["lightning"] = "lightning"
    teams: list[str]
    right: list[str]


# ---------------------------------------------------------------- the show
Screen = Literal["question", "answer", "standings"]


class PackLoaded(_Op):
    """The host loaded a question pack (its pictures are stored beside the log)."""

    kind: Literal["pack_loaded"] = "pack_loaded"
    pack: dict[str, Any]


class PictureStored(_Op):
    """A picture of the pack was stored with the event (its bytes are in quiz_pictures)."""

    kind: Literal["picture_stored"] = "picture_stored"
    name: str
    mime: str
    size: int


class MediaStored(_Op):
    """A sound or video of the pack was stored with the event (its bytes are kept with the
    pictures)."""

    kind: Literal["media_stored"] = "media_stored"
    name: str
    mime: str
    size: int


MediaAction = Literal["play", "pause", "replay"]


class MediaPlayed(_TimedOp):
    """The host played, paused or replayed (from the start) the open question's sound or
    video on the big screen, and on the phones too if ``phones``."""

    kind: Literal["media_played"] = "media_played"
    action: MediaAction
    phones: bool = False


class ScreenShown(_TimedOp):
    """What the big screen shows for the open question: its text (the host reads it),
    its answer (after judging) or the mountain and standings."""

    kind: Literal["screen_shown"] = "screen_shown"
    show: Screen


# ------------------------------------------------------ the host's control
class TeamRenamed(_Op):
    """The host renames a team (before or after the start): the event is folded again
    with the new name, so every earlier row reads as if the team had always had it."""

    kind: Literal["team_renamed"] = "team_renamed"
    team: str
    name: str


class TeamRemoved(_Op):
    """Before the start: the host removes a team (its phones lose their access)."""

    kind: Literal["team_removed"] = "team_removed"
    team: str


class TeamsMerged(_Op):
    """Before the start: team ``into`` absorbs team ``team`` (its phones and tokens)."""

    kind: Literal["teams_merged"] = "teams_merged"
    team: str
    into: str


class JoiningLocked(_Op):
    """Before the start: phones may (not) join; the host can still add teams."""

    kind: Literal["joining_locked"] = "joining_locked"
    locked: bool


class TeamWithdrawn(_Op):
    """After the start: the team leaves the game (rules Q36) and stays in the results."""

    kind: Literal["team_withdrawn"] = "team_withdrawn"
    team: str
    at: float


class TeamReturned(_Op):
    """A withdrawal undone (rules Q36): the team plays again from the next question."""

    kind: Literal["team_returned"] = "team_returned"
    team: str


class QuestionReopened(_QuestionOp):
    """The last resolved question is open again (until the next one is opened): the
    event is folded again without its resolution."""

    kind: Literal["question_reopened"] = "question_reopened"


class GroupCorrected(_TimedOp):
    """One appeal for several teams of a closed question (an answer group)."""

    kind: Literal["group_corrected"] = "group_corrected"
    teams: list[str]
    correct: bool
    comment: str = ""


#: the ops the host's control added (the fold replays them like any other)
CONTROL_OPS = (
    TeamRenamed,
    TeamRemoved,
    TeamsMerged,
    JoiningLocked,
    TeamWithdrawn,
    TeamReturned,
    QuestionReopened,
    GroupCorrected,
)


Op = Annotated[
    Created
    | TeamJoined
    | TeamDevice
    | PartStarted
    | QuestionOpened
    | Declared
    | Locked
    | AnsweringOpened
    | TimerPaused
    | TimerResumed
    | TimerExtended
    | AnsweringClosed
    | Answered
    | Judged
    | PartnerSet
    | Resolved
    | Corrected
    | BreakTaken
    | Lightning
    | PackLoaded
    | PictureStored
    | MediaStored
    | MediaPlayed
    | ScreenShown
    | TeamRenamed
    | TeamRemoved
    | TeamsMerged
    | JoiningLocked
    | TeamWithdrawn
    | TeamReturned
    | QuestionReopened
    | GroupCorrected,
    Field(discriminator="kind"),
]

_OP: TypeAdapter[Op] = TypeAdapter(Op)


def op_to_json(op: Op) -> dict[str, Any]:
    out: dict[str, Any] = op.model_dump(mode="json")
    if out.get("command_id") is None:
        out.pop("command_id", None)  # rows written before commands had keys look the same
    return out


def op_from_json(data: Any) -> Op:
    return _OP.validate_python(data)


_PUNCT = re.compile(r"[\W_]+", re.UNICODE)


def normalise_answer(text: str) -> str:
    """The grouping key of an answer: case, punctuation and spacing ignored, and Russian
    ё read as е (so "Ёлка!" and "  елка" fall in one group)."""
    folded = unicodedata.normalize("NFKC", text).casefold().replace("ё", "е")
    return " ".join(_PUNCT.sub(" ", folded).split())


def clean_name(name: str) -> str:
    """A team name with spacing tidied (names are compared after this)."""
    return " ".join(name.split())


#: op fields (and settings fields) that hold team names
_NAME_FIELDS = ("team", "into")
_NAME_LISTS = ("teams", "right")


def with_team_renamed(op: Op, old: str, new: str) -> Op:
    """``op`` as if team ``old`` had always been called ``new``."""

    def swap(name: Any) -> Any:
        return new if isinstance(name, str) and clean_name(name) == old else name

    def rename(data: dict[str, Any]) -> None:
        for key in _NAME_FIELDS:
            if key in data:
                data[key] = swap(data[key])
        for key in _NAME_LISTS:
            if isinstance(data.get(key), list):
                data[key] = [swap(t) for t in data[key]]
        if isinstance(data.get("spurs"), dict):
            data["spurs"] = {swap(t): cells for t, cells in data["spurs"].items()}

    data = op.model_dump(mode="json")
    rename(data)
    if isinstance(data.get("settings"), dict):
        rename(data["settings"])
    return op_from_json(data)
