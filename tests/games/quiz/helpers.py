"""Small builders for quiz tests: a question as sets of team names."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from koth.games.quiz import (
    AnswerReceived,
    DeclarationMade,
    DeclarationsLocked,
    PartnerFlagged,
    QuestionClosed,
    QuestionOpened,
    QuizConfig,
    QuizEvent,
    QuizState,
    apply_event,
    initial_state,
    make_config,
)


def cfg(teams: Iterable[str] = ("A", "B", "C"), **options: Any) -> QuizConfig:
    options.setdefault("questions", 60)
    return make_config(list(teams), **options)


def names(text: str | Iterable[str]) -> list[str]:
    return text.split() if isinstance(text, str) else list(text)


def question(
    k: int,
    right: str | Iterable[str] = "",
    wrong: str | Iterable[str] = "",
    *,
    jump: str | Iterable[str] = "",
    rev: str | Iterable[str] = "",
    times: Mapping[str, float] | None = None,
    partner: bool = False,
) -> list[QuizEvent]:
    times = times or {}
    events: list[QuizEvent] = [QuestionOpened(k)]
    events += [DeclarationMade(k, t, "jump") for t in names(jump)]
    events += [DeclarationMade(k, t, "revolution") for t in names(rev)]
    events.append(DeclarationsLocked(k))
    for n, t in enumerate(names(right)):
        events.append(AnswerReceived(k, t, times.get(t, 10.0 + n), True))
    for t in names(wrong):
        events.append(AnswerReceived(k, t, times.get(t, 50.0), False))
    if partner:
        events.append(PartnerFlagged(k))
    events.append(QuestionClosed(k))
    return events


def play(
    config: QuizConfig, *questions: Mapping[str, Any], state: QuizState | None = None
) -> QuizState:
    """Play questions given as keyword dicts for :func:`question`, numbered in order."""
    state = state or initial_state(config)
    for spec in questions:
        for event in question(state.questions_played + 1, **spec):
            state = apply_event(state, event)
    return state


def climb(team: str, steps: int, others: str = "") -> list[dict[str, Any]]:
    """Ordinary right answers of ``team`` (and ``others``) for ``steps`` questions."""
    return [{"right": f"{team} {others}".strip()} for _ in range(steps)]


def pos(state: QuizState, team: str) -> int:
    return state.standings.position[state.index[team]]


def pts(state: QuizState, team: str) -> int:
    return state.standings.points[state.index[team]]
