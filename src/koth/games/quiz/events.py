"""The events of a quiz game: small frozen values with a JSON form.

Every event names the question it belongs to (1-based), so a late or misplaced event
is caught. The JSON form is a dict with a ``"type"`` key; see :func:`events_to_json`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from pydantic import Field, TypeAdapter

Declaration = Literal["jump", "revolution", "ordinary"]


@dataclass(frozen=True, slots=True)
class QuestionOpened:
    """Question ``question`` starts: declarations may be made (Q3, Q8)."""

    question: int
    type: Literal["question_opened"] = "question_opened"


@dataclass(frozen=True, slots=True)
class DeclarationMade:
    """A team declares a jump or a Revolution (``"ordinary"`` withdraws it). After the
    question was read (declarations locked) it counts as an ordinary move (Q3)."""

    question: int
    team: str
    declaration: Declaration
    type: Literal["declaration"] = "declaration"


@dataclass(frozen=True, slots=True)
class DeclarationsLocked:
    """The presenter starts reading the question: declarations are closed (Q3)."""

    question: int
    type: Literal["declarations_locked"] = "declarations_locked"


@dataclass(frozen=True, slots=True)
class AnswerReceived:
    """A team's answer reached the system ``time`` seconds after the question was read
    (Q16; None: not recorded). ``correct`` may judge it at once; otherwise an
    :class:`AnswerJudged` follows."""

    question: int
    team: str
    time: float | None
    correct: bool | None = None
    type: Literal["answer_received"] = "answer_received"


@dataclass(frozen=True, slots=True)
class AnswerJudged:
    """The judge scores a received answer of the open question (Q2)."""

    question: int
    team: str
    correct: bool
    type: Literal["answer_judged"] = "answer_judged"


@dataclass(frozen=True, slots=True)
class JudgementCorrected:
    """A judgement is corrected, possibly of an earlier question: everything from that
    question on is recomputed (Q26)."""

    question: int
    team: str
    correct: bool
    type: Literal["judgement_corrected"] = "judgement_corrected"


@dataclass(frozen=True, slots=True)
class AnswerAdmitted:
    """On appeal, an answer the system never received (written on paper, a phone that
    failed) is admitted to a closed question with the judge's verdict; everything from
    that question on is recomputed (Q26)."""

    question: int
    team: str
    correct: bool
    type: Literal["answer_admitted"] = "answer_admitted"


@dataclass(frozen=True, slots=True)
class PartnerFlagged:
    """The host flags (or unflags) the open question as a partner question (Q5)."""

    question: int
    partner: bool = True
    type: Literal["partner_flagged"] = "partner_flagged"


@dataclass(frozen=True, slots=True)
class QuestionClosed:
    """The question is over: every team's move is resolved at once (Q2)."""

    question: int
    type: Literal["question_closed"] = "question_closed"


@dataclass(frozen=True, slots=True)
class BreakTaken:
    """A break between parts of a single game; no effect on the rules (Q15, Q31)."""

    after_question: int
    type: Literal["break"] = "break"


@dataclass(frozen=True, slots=True)
class LightningAnswer:
    correct: bool
    time: float | None = None


@dataclass(frozen=True, slots=True)
class LightningQuestion:
    """One lightning-round question for one group of tied teams (Q14, Q29)."""

    teams: tuple[str, ...]
    answers: Mapping[str, LightningAnswer] = field(default_factory=dict)
    type: Literal["lightning"] = "lightning"


QuizEvent = Annotated[
    QuestionOpened
    | DeclarationMade
    | DeclarationsLocked
    | AnswerReceived
    | AnswerJudged
    | JudgementCorrected
    | AnswerAdmitted
    | PartnerFlagged
    | QuestionClosed
    | BreakTaken
    | LightningQuestion,
    Field(discriminator="type"),
]

_EVENTS: TypeAdapter[list[QuizEvent]] = TypeAdapter(list[QuizEvent])
_EVENT: TypeAdapter[QuizEvent] = TypeAdapter(QuizEvent)


def event_to_json(event: QuizEvent) -> dict[str, Any]:
    """The JSON form of one event (a dict with a ``"type"`` key)."""
    out: dict[str, Any] = _EVENT.dump_python(event, mode="json")
    return out


def events_to_json(events: Sequence[QuizEvent]) -> list[dict[str, Any]]:
    """The JSON form of a list of events."""
    out: list[dict[str, Any]] = _EVENTS.dump_python(list(events), mode="json")
    return out


def events_from_json(data: Any) -> list[QuizEvent]:
    """Parse the JSON form back (raises pydantic's ValidationError when malformed)."""
    return _EVENTS.validate_python(data)
