"""Request and response bodies of quiz hosting (documented in the OpenAPI schema).

The WebSocket frames are the same models as the REST answers: a team, the projector and
the judge each get one ``state`` message of their audience, built in
:mod:`koth.server.quiz.views`. The judge console's command bodies are in
:mod:`koth.server.quiz.command_schemas`.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from koth.games.quiz import TeamLine
from koth.games.quiz.protocol import EventIn, GameIn
from koth.games.quiz.situation import Downgrade, TieGroup
from koth.server.bodies import RequestBody
from koth.server.quiz.names import TEAM_NAME_MAX
from koth.server.quiz.ops import (
    ANSWER_MAX,
    Declaration,
    EventSettings,
    Format,
    Screen,
)

Stage = Literal[
    "lobby", "between", "declaring", "read", "answering", "judging", "lightning", "part_over",
    "finished",
]  # fmt: skip
AnswerStatus = Literal["accepted", "right", "wrong"]
#: an event as the quiz engine's protocol (``koth quiz score`` scores it)
ProtocolDocument = GameIn | EventIn


class _Body(RequestBody):
    pass


# ------------------------------------------------------------------ requests
class JoinRequest(_Body):
    code: str = Field(min_length=4, max_length=16)
    team: str = Field(min_length=1, max_length=TEAM_NAME_MAX + 10)


class RecoverRequest(JoinRequest):
    recovery_code: str = Field(min_length=12, max_length=20)


class DeclarationRequest(_Body):
    question: int = Field(ge=1)
    declaration: Declaration


class AnswerRequest(_Body):
    question: int = Field(ge=1)
    text: str = Field(min_length=1, max_length=ANSWER_MAX + 50)
    submission_id: str = Field(min_length=8, max_length=64, description="client-made, per answer")


class QuizHello(_Body):
    """The first frame of a quiz event's WebSocket."""

    type: Literal["hello"]
    role: Literal["team", "projector", "judge"]
    token: str | None = Field(default=None, max_length=200)


# ------------------------------------------------------------ small answers
class EventLinks(BaseModel):
    judge: str
    projector: str
    results: str
    join: str
    qr: str
    host: str = Field(description="the judge console with the host token in its fragment")


class CreatedEventResponse(BaseModel):
    id: str
    join_code: str
    host_token: str = Field(description="shown once: keep it secret")
    links: EventLinks


class CredentialsResponse(BaseModel):
    event_id: str
    team: str
    token: str = Field(description="the team's secret token (Bearer)")
    recovery_code: str = Field(description="moves the team to another phone")
    team_page: str


class AnswerAck(BaseModel):
    accepted: Literal[True] = True
    question: int
    text: str = Field(description="the answer as stored")
    received_at: float = Field(description="server receive time (epoch seconds)")
    seq: int = Field(description="the log row that holds it")
    duplicate: bool = Field(description="a retry of an answer stored before")


# --------------------------------------------------------------- the picture
class TimerInfo(BaseModel):
    seconds: float
    remaining: float
    running: bool
    paused: bool


class Phase(BaseModel):
    """Where the evening stands (public)."""

    part: str | None = None
    part_index: int
    parts: list[str]
    question: int | None = None
    questions_played: int = 0
    total_questions: int = 0
    stage: Stage = "lobby"
    timer: TimerInfo | None = None
    event_finished: bool
    partner: bool | None = Field(
        default=None, description="the open question is a partner question"
    )


class EventInfo(BaseModel):
    id: str
    title: str
    format: Format


class Standings(BaseModel):
    """The public situation of a part; spur cells appear only once it is over."""

    finished: bool
    reason: str | None
    king: str | None
    king_hold: int
    hold_moves: int
    steps: int
    kind: str
    questions_played: int
    teams: list[TeamLine] = Field(description="sorted by place")
    lightning_required: list[TieGroup]
    qualified: list[str] | None
    downgraded: list[Downgrade]


class NoteInfo(BaseModel):
    """An engine note: its kind and parameters (the words come from the page's table)."""

    kind: str
    params: dict[str, str | int] = Field(default_factory=dict)


class MoveRow(BaseModel):
    """What one team did on one closed question and where it took the team."""

    team: str
    declaration: Declaration
    late: list[Declaration] = Field(description="declarations made after the reading began")
    correct: bool | None = Field(description="null: no answer")
    time: float | None
    void: bool = Field(description="a question voided by the end of the game")
    answer: str | None = Field(default=None, description="the answer text (judge and results only)")
    king: bool | None = None
    position: int | None = None
    points: int | None = None
    steps: int | None = None
    gained: int | None = None
    spur: bool | None = None
    notes: list[NoteInfo] = Field(
        default_factory=list, description="the engine's notes, as codes (worded by the page)"
    )
    downgraded: bool | None = None


class LastMove(MoveRow):
    question: int


class TeamAnswer(BaseModel):
    text: str
    submission_id: str
    status: AnswerStatus
    time: float


class TeamStandings(BaseModel):
    finished: bool
    king: str | None
    king_hold: int
    hold_moves: int
    steps: int
    qualified: list[str] | None
    top: list[TeamLine]
    teams: int = Field(description="how many teams play")


class TeamSelf(BaseModel):
    """The team's own line; the fields after ``plays`` are set while it plays a part."""

    plays: bool = False
    name: str | None = None
    position: int | None = None
    points: int | None = None
    place: int | None = None
    spur_used: bool | None = None
    revolution_right: bool | None = None
    king: bool | None = None
    spurs: list[int] | None = None
    declaration: Declaration | None = None
    legal: list[Declaration] | None = Field(
        default=None, description="declarations it may make now"
    )
    answer: TeamAnswer | None = None
    last_move: LastMove | None = None


class _StateMessage(BaseModel):
    type: Literal["state"] = "state"
    seq: int = Field(description="log rows folded so far")
    server_time: float
    event: EventInfo
    phase: Phase


class TeamMessage(_StateMessage):
    """What one team may see: never another team's answer, never a spur cell before the
    end."""

    audience: Literal["team"] = "team"
    team: str
    me: TeamSelf
    teams_joined: int | None = None
    standings: TeamStandings | None = None
    question_text: str | None = Field(
        default=None, description="the open question's text once shown (a host setting)"
    )
    media: MediaContent | None = Field(
        default=None,
        description="the shown question's sound or video, if the host plays it on phones",
    )
    withdrawn: bool = Field(default=False, description="the team withdrew (rules Q36)")


class ProjectorMessage(_StateMessage):
    """The public picture for the big screen."""

    audience: Literal["projector"] = "projector"
    joined: list[str] = Field(description="before the start: the teams that joined")
    standings: Standings | None = None
    last_question: int | None = None
    moves: dict[str, MoveRow] = Field(default_factory=dict, description="per team")
    answered: int | None = None
    teams_total: int | None = None
    sectors: list[str] = Field(default_factory=list)
    format: Format | None = None
    screen: ScreenContent | None = Field(
        default=None, description="the open question's text (and answer) while shown"
    )
    revolutions: list[str] = Field(
        default_factory=list, description="teams that declared a Revolution on the open question"
    )
    labels: dict[str, str] = Field(
        default_factory=dict, description="per team a short label for the mountain's slopes"
    )
    main_questions: int | None = Field(
        default=None, description="main questions of the part (later ones are backups)"
    )
    withdrawn: list[str] = Field(
        default_factory=list, description="teams of the part that withdrew (rules Q36)"
    )


class ChangeInfo(BaseModel):
    """A change the host made to the team list, or a re-opened question."""

    seq: int
    kind: str = Field(
        description="renamed, removed, rejoined, merged, joining_locked, joining_opened, "
        "withdrawn, returned, reopened"
    )
    team: str = Field(description="the team (its new name, the one that absorbed the other)")
    detail: str = Field(description="the old name (renamed), the absorbed team (merged)")
    part: str = Field(default="", description="the part of a withdrawal or a re-opening")
    question: int | None = Field(
        default=None, description="withdrawn after this question; this question re-opened"
    )


class HostControlInfo(BaseModel):
    joining_locked: bool
    reopenable: int | None = Field(description="the question Re-open would open again")
    changes: list[ChangeInfo]


class JudgeTeam(BaseModel):
    name: str
    device: bool = Field(description="the team joined on a phone")
    withdrawn: bool = Field(default=False, description="the team withdrew (rules Q36)")


class NextPart(BaseModel):
    name: str
    teams: list[str]


class AnswerGroup(BaseModel):
    key: str = Field(description="the normalised text shared by the group")
    text: str = Field(description="the group's most common spelling")
    teams: list[str]
    right: int
    wrong: int
    unjudged: int
    matches: bool = Field(
        default=False, description="matches the pack's answer or an accepted variant"
    )


class LateDeclaration(BaseModel):
    team: str
    declaration: Declaration


class OpenQuestionDetail(BaseModel):
    question: int
    locked: bool
    partner_flag: bool
    partner_listed: bool
    declarations: dict[str, Declaration]
    late: list[LateDeclaration]
    answered: int
    unjudged: int
    groups: list[AnswerGroup]
    missing: list[str] = Field(description="teams without an answer")


class DeclarationStats(BaseModel):
    declaration: Declaration
    teams: int
    right: int


class WrongAnswer(BaseModel):
    text: str = Field(description="the group's first spelling")
    teams: int


class QuestionStats(BaseModel):
    """A closed question's figures (the results page, the console, the exports)."""

    teams: int
    answered: int
    right: int
    by_declaration: list[DeclarationStats] = Field(
        description="per declared move: how many teams made it and how many answered right"
    )
    wrong_answers: list[WrongAnswer] = Field(
        description="the most common wrong answers, grouped as for marking"
    )


class ClosedQuestion(BaseModel):
    question: int
    partner: bool
    rows: list[MoveRow]
    stats: QuestionStats


class AppealInfo(BaseModel):
    question: int
    team: str
    correct: bool
    comment: str
    after_question: int | None = None
    downgraded: list[Downgrade]
    admitted: bool = Field(
        default=False, description="the answer never arrived: the judge typed it in"
    )


class LightningInfo(BaseModel):
    teams: list[str]
    right: list[str]


class JudgeMessage(_StateMessage):
    """Everything, for the holder of the host token."""

    audience: Literal["judge"] = "judge"
    settings: EventSettings
    teams: list[JudgeTeam]
    next_part: NextPart | None = None
    join_code: str | None = None
    standings: Standings | None = None
    spurs: dict[str, list[int]] | None = None
    open: OpenQuestionDetail | None = None
    closed: list[ClosedQuestion] | None = None
    appeals: list[AppealInfo] | None = None
    lightning: list[LightningInfo] | None = None
    applied_seq: int | None = Field(default=None, description="commands: the log row they made")
    pack: PackSummary | None = None
    expected: ExpectedAnswer | None = Field(
        default=None, description="the open question as the pack has it"
    )
    duplicate: bool = Field(
        default=False, description="commands: a retry of a command already applied (same key)"
    )
    control: HostControlInfo | None = None


# ------------------------------------------------------------------- results
class PartResults(BaseModel):
    name: str
    end_reason: str | None = Field(default=None, description="why the part ended, in words")
    standings: Standings
    spurs: dict[str, list[int]]
    questions: list[ClosedQuestion]
    appeals: list[AppealInfo]
    lightning: list[LightningInfo]
    breaks: list[int]


class ResultsDocument(BaseModel):
    """The full record of an event: places, and every team's move on every question."""

    event: EventInfo
    finished: bool
    settings: EventSettings
    parts: list[PartResults]
    changes: list[ChangeInfo] = Field(
        default_factory=list, description="the host's changes to the team list, in order"
    )


# ------------------------------------------------------------------ the show
class MediaContent(BaseModel):
    """The open question's sound or video and the host's last word on it: the page plays
    it while ``playing``, pauses it otherwise, and starts it again whenever ``starts``
    grows (a replay)."""

    kind: Literal["audio", "video"]
    url: str = Field(description="the file's address (served once the question is shown)")
    playing: bool
    starts: int = Field(description="how often the host started it from the beginning")
    phones: bool = Field(description="the phones play it too (the host's choice)")


class PictureStoredResponse(BaseModel):
    name: str
    mime: str
    size: int


class PackSummary(BaseModel):
    title: str
    questions: int
    backup_questions: int
    lightning_questions: int = 0
    pictures: list[str]
    missing_pictures: list[str] = Field(description="named by the pack, not uploaded yet")
    media: list[str] = Field(default_factory=list, description="sounds and videos it names")
    missing_media: list[str] = Field(
        default_factory=list, description="sounds and videos not uploaded yet"
    )


class ScreenContent(BaseModel):
    """What the big screen shows of the open question."""

    question: int
    show: Screen
    text: str | None = None
    picture: str | None = Field(default=None, description="the picture's address")
    partner: str | None = None
    answer: str | None = Field(default=None, description="only once the host shows it")
    accepted: list[str] = Field(default_factory=list)
    comment: str | None = None
    lightning: bool = Field(default=False, description="a lightning question of the pack")
    media: MediaContent | None = Field(default=None, description="its sound or video")


class ExpectedAnswer(BaseModel):
    """The open question (or the lightning question being played) as the pack has it
    (judge only)."""

    question: int
    text: str
    answer: str
    accepted: list[str]
    comment: str
    source: str
    partner: str | None
    picture: str | None
    lightning: bool = False
    screen: Screen | None
    media: MediaContent | None = None
