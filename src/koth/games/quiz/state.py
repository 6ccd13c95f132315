"""The immutable state of a quiz game.

Team data are kept as parallel tuples indexed by the team's position in
``config.teams`` (fast to copy once per question, cheap to compare).
"""

from __future__ import annotations

import enum
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from koth.games.quiz.config import QuizConfig
from koth.games.quiz.events import Declaration, LightningQuestion
from koth.games.quiz.pvec import PVec


class EndReason(enum.StrEnum):
    """Why a game ended (Q25 checks them in this order). The values are the texts the
    JSON and the web app carry."""

    KING_HELD = "king_held"
    QUESTIONS_EXHAUSTED = "questions_exhausted"
    NO_CHALLENGER = "no_challenger"

    @property
    def rule(self) -> str:
        """The rule that ends the game so."""
        return _END_RULES[self]


_END_RULES: Final = {
    EndReason.KING_HELD: "Q11",
    EndReason.QUESTIONS_EXHAUSTED: "Q13",
    EndReason.NO_CHALLENGER: "Q12",
}


class Problem(enum.StrEnum):
    """Why a declaration does not stand (Q3, Q8, Q15, Q21); the words for each are in
    :mod:`koth.games.quiz.wording`."""

    JUMP_FROM_START = "jump_from_start"
    JUMP_ON_PEAK = "jump_on_peak"
    JUMP_NEAR_PEAK = "jump_near_peak"
    JUMP_AFTER_WRONG = "jump_after_wrong"
    NO_REVOLUTION_IN_SEMIFINAL = "no_revolution_in_semifinal"
    NO_KING = "no_king"
    KING_REVOLTS = "king_revolts"
    NOT_BELOW_PEAK = "not_below_peak"
    REVOLUTION_USED = "revolution_used"


#: a note's or problem's parameters, as (name, value) pairs in a fixed order
Params = tuple[tuple[str, str | int], ...]


class NoteKind(enum.StrEnum):
    """What a ``Note`` reports. The values are the texts the JSON and the web app
    carry."""

    LATE_DECLARATION = "late_declaration"
    DOWNGRADED = "downgraded"
    CROWNED = "crowned"
    OVERTHROWN = "overthrown"
    KEPT_PEAK = "kept_peak"
    STAYED_BELOW = "stayed_below"
    REVOLUTION_FAILED = "revolution_failed"

    @property
    def rule(self) -> str:
        """The rule the note applies (a downgrade's text names the exact one)."""
        return _NOTE_RULES[self]


_NOTE_RULES: Final = {
    NoteKind.LATE_DECLARATION: "Q3",
    NoteKind.DOWNGRADED: "Q3",
    NoteKind.CROWNED: "Q7",
    NoteKind.OVERTHROWN: "Q10",
    NoteKind.KEPT_PEAK: "Q10",
    NoteKind.STAYED_BELOW: "Q7",
    NoteKind.REVOLUTION_FAILED: "Q10",
}

#: per-team answer slot of the open question: None (no answer) or (time, correct | None)
AnswerSlot = tuple[float | None, bool | None] | None


@dataclass(frozen=True, slots=True)
class Standings:
    """The game situation after ``question`` questions were resolved."""

    question: int
    position: tuple[int, ...]
    points: tuple[int, ...]
    last_wrong: tuple[bool, ...]
    """the team's answer to the last resolved question was wrong or missing (Q3, Q17)"""
    revolution_right: tuple[bool, ...]
    spurs_left: tuple[frozenset[int], ...]
    spurs_used: tuple[frozenset[int], ...]
    king: int | None = None
    king_since: int = 0
    """the question on which the King took the Peak (Q11)"""
    finished: bool = False
    reason: EndReason | None = None

    @property
    def king_hold(self) -> int:
        return self.question - self.king_since if self.king is not None else 0


@dataclass(frozen=True, slots=True)
class Note:
    """Something noteworthy of one question for one team (a downgrade, a coronation...):
    a code and its parameters, never words (:mod:`koth.games.quiz.wording` has them).
    ``str(note)`` is ``Q<question> <kind> {"team": ..., <parameters>}`` (JSON) and
    :meth:`parse` reads it back."""

    question: int
    team: str
    kind: NoteKind
    params: Params = ()

    @property
    def details(self) -> dict[str, str | int]:
        return dict(self.params)

    def __str__(self) -> str:
        fields = json.dumps({"team": self.team, **self.details}, ensure_ascii=False)
        return f"Q{self.question} {self.kind} {fields}"

    @classmethod
    def parse(cls, text: str) -> Note:
        """The note written by ``str``; ValueError naming the text if it is not one."""
        number, _, rest = text.partition(" ")
        kind, _, fields = rest.partition(" ")
        try:
            values = json.loads(fields)
            team = values.pop("team")
            params = tuple((str(k), v) for k, v in values.items())
            if not (number[:1] == "Q" and number[1:].isdigit() and isinstance(team, str)):
                raise ValueError("bad question or team")
            if not all(isinstance(v, str | int) for _, v in params):
                raise ValueError("a parameter is neither text nor a number")
            return cls(int(number[1:]), team, NoteKind(kind), params)
        except (ValueError, KeyError, AttributeError, TypeError) as exc:
            raise ValueError(
                f'not a note: {text!r} (expected Q<n> <kind> {{"team": ...}}: {exc})'
            ) from None


@dataclass(frozen=True, slots=True)
class QuestionRecord:
    """The inputs of one closed question (what the fold needs to recompute it)."""

    number: int
    declarations: Mapping[int, Declaration]
    """declarations made before the question was read, by team index"""
    late: tuple[tuple[int, Declaration], ...]
    judged: tuple[bool | None, ...]
    """per team: None = no answer (counts as wrong), else the judgement"""
    times: tuple[float | None, ...]
    partner: bool


@dataclass(frozen=True, slots=True)
class OpenQuestion:
    """The question being played: declarations and answers collected so far."""

    number: int
    locked: bool
    partner_flag: bool
    declarations: PVec[Declaration | None]
    answers: PVec[AnswerSlot]
    late: tuple[tuple[int, Declaration], ...] = ()
    unjudged: int = 0


@dataclass(frozen=True, slots=True)
class QuizState:
    """The whole game: configuration, per-question inputs and snapshots.

    ``snapshots[k]`` is the situation after k resolved questions (``snapshots[0]`` is the
    start); ``records[k-1]`` the inputs of question k. Records beyond the last snapshot
    are questions voided because a correction ended the game earlier (Q26).
    ``notes[k-1]`` are the notes of question k.
    """

    config: QuizConfig
    index: Mapping[str, int]
    snapshots: tuple[Standings, ...]
    records: tuple[QuestionRecord, ...] = ()
    notes: tuple[tuple[Note, ...], ...] = ()
    open: OpenQuestion | None = None
    lightning: tuple[LightningQuestion, ...] = ()
    breaks: tuple[int, ...] = ()

    @property
    def standings(self) -> Standings:
        return self.snapshots[-1]

    @property
    def questions_played(self) -> int:
        return self.snapshots[-1].question

    @property
    def finished(self) -> bool:
        return self.snapshots[-1].finished

    @property
    def voided_questions(self) -> tuple[int, ...]:
        return tuple(r.number for r in self.records[self.questions_played :])

    def team(self, name: str) -> int:
        return self.index[name]
