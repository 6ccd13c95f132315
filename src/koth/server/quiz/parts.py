"""The records of a quiz event's fold: its teams, and each part with its questions,
answers, timers and appeals. :class:`~koth.server.quiz.model.EventModel` builds them from
the log; its handlers (``control``, ``judging``, ``show``) and the views read them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from koth.games.quiz import QuizConfig, QuizEvent, QuizState, apply_event, situation
from koth.games.quiz.situation import Downgrade
from koth.server.quiz import ops


@dataclass
class Team:
    name: str
    token_hashes: set[str] = field(default_factory=set)
    recovery_hash: str | None = None
    withdrawn_after: int | None = None
    """questions opened in its part when the team withdrew (rules Q36)"""
    withdrawn_in: str = ""
    """the part it withdrew from"""

    @property
    def has_device(self) -> bool:
        return bool(self.token_hashes)


@dataclass
class Timer:
    """Answering time, from server timestamps; clients only display it."""

    seconds: float
    started_at: float
    paused_at: float | None = None
    paused_total: float = 0.0
    closed_at: float | None = None

    def elapsed(self, now: float) -> float:
        end = now
        if self.closed_at is not None:
            end = min(end, self.closed_at)
        if self.paused_at is not None:
            end = min(end, self.paused_at)
        return max(0.0, end - self.started_at - self.paused_total)

    def remaining(self, now: float) -> float:
        return max(0.0, self.seconds - self.elapsed(now))

    def accepts(self, at: float) -> bool:
        """An answer received at ``at`` is in time (pausing stops the clock, not answering)."""
        if self.closed_at is not None and at >= self.closed_at:
            return False
        return at >= self.started_at and self.remaining(at) > 0

    def is_open(self, now: float) -> bool:
        return self.closed_at is None and self.remaining(now) > 0


@dataclass
class Answer:
    question: int
    team: str
    text: str
    key: str
    at: float
    time: float
    """seconds since the question was read (Q16)"""
    submission_id: str
    by: str
    seq: int
    judged: bool | None = None


@dataclass
class Appeal:
    question: int
    team: str
    correct: bool
    comment: str
    at: float
    after_question: int
    """the last question closed when the appeal was made (where the protocol puts it)"""
    downgraded: list[Downgrade] = field(default_factory=list)
    """downgrades the correction caused, as the engine reported them"""
    admitted: bool = False
    """the team's answer never arrived: the judge typed it in on appeal (Q26)"""


@dataclass
class Question:
    number: int
    declarations: dict[str, ops.Declaration] = field(default_factory=dict)
    late: list[tuple[str, ops.Declaration]] = field(default_factory=list)
    locked_at: float | None = None
    timer: Timer | None = None
    answers: dict[str, Answer] = field(default_factory=dict)
    partner_flag: bool = False
    resolved: bool = False
    judged_at_close: dict[str, bool] = field(default_factory=dict)
    screen: ops.Screen | None = None
    """what the big screen shows for it (None: the mountain, as before any pack)"""
    shown: bool = False
    """its text was shown (its picture may then be served to everyone)"""
    media_playing: bool = False
    """the host's last word on its sound or video: play (True) or pause"""
    media_starts: int = 0
    """how often the host started it from the beginning (a replay restarts it)"""
    media_phones: bool = False
    """the phones play it too (the host's choice)"""


@dataclass
class Part:
    name: str
    config: QuizConfig
    state: QuizState
    questions: list[Question] = field(default_factory=list)
    appeals: list[Appeal] = field(default_factory=list)
    lightning: list[ops.Lightning] = field(default_factory=list)
    breaks: list[int] = field(default_factory=list)
    memo: dict[str, tuple[tuple[Any, ...], Any]] = field(default_factory=dict)
    """views computed once per engine state (see koth.server.quiz.views)"""

    @property
    def open_question(self) -> Question | None:
        if self.questions and not self.questions[-1].resolved:
            return self.questions[-1]
        return None

    @property
    def settled(self) -> bool:
        """Over, with every tie for a prize place (or across the cut) settled."""
        return self.state.finished and not situation(self.state).lightning_required


def part_names(settings: ops.EventSettings) -> list[str]:
    return ["game"] if settings.format == "single" else ["semifinal 1", "semifinal 2", "final"]


def advanced(state: QuizState, events: Iterable[QuizEvent]) -> QuizState:
    """``state`` after the engine applied ``events`` (raises on the first refused)."""
    for event in events:
        state = apply_event(state, event)
    return state
