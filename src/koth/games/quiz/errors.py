"""Typed errors of the quiz engine (built on :mod:`koth.core.errors`)."""

from __future__ import annotations

from koth.core.errors import GameOverError, IllegalActionError
from koth.games.quiz.state import Params, Problem


class QuizRuleError(IllegalActionError):
    """An event that the quiz rules do not allow now; the state is left unchanged.

    ``question`` is the question number concerned (None when none applies), ``team``
    the team concerned (None when none applies) and ``rule`` the rule number (``"Q3"``).
    A refused declaration also names its ``problem`` and the problem's ``params``, so an
    adapter can word it in its reader's language.
    """

    def __init__(
        self,
        message: str,
        *,
        rule: str,
        question: int | None = None,
        team: str | None = None,
        problem: Problem | None = None,
        params: Params = (),
    ) -> None:
        parts = []
        if question is not None:
            parts.append(f"question {question}")
        if team is not None:
            parts.append(f"team {team}")
        prefix = ", ".join(parts)
        text = f"{prefix}: {message} (rule {rule})" if prefix else f"{message} (rule {rule})"
        super().__init__(text, rule=rule)
        self.question = question
        self.team = team
        self.reason = message
        self.problem = problem
        self.params = params


class QuizGameOverError(QuizRuleError, GameOverError):
    """An event of play (a new question) arrived after the game ended."""
