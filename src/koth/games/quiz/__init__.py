"""The quiz game "King of the Hill" (rules 1.2.2): an event-sourced engine.

The game state is a pure fold of a :class:`QuizConfig` over an append-only list of
events. See ``docs/rules/quiz.md`` for every rule (Q1, Q2, ...) and interpretation.
"""

from koth.games.quiz.config import QuizConfig, draw_spurs, make_config
from koth.games.quiz.engine import (
    QuizGame,
    apply_event,
    fold,
    initial_state,
    jump_is_legal,
    legal_declarations,
)
from koth.games.quiz.errors import QuizGameOverError, QuizRuleError
from koth.games.quiz.events import (
    AnswerAdmitted,
    AnswerJudged,
    AnswerReceived,
    BreakTaken,
    DeclarationMade,
    DeclarationsLocked,
    JudgementCorrected,
    LightningQuestion,
    PartnerFlagged,
    QuestionClosed,
    QuestionOpened,
    QuizEvent,
    events_from_json,
    events_to_json,
)
from koth.games.quiz.situation import Situation, TeamLine, situation
from koth.games.quiz.state import QuizState, Standings

__all__ = [
    "AnswerAdmitted",
    "AnswerJudged",
    "AnswerReceived",
    "BreakTaken",
    "DeclarationMade",
    "DeclarationsLocked",
    "JudgementCorrected",
    "LightningQuestion",
    "PartnerFlagged",
    "QuestionClosed",
    "QuestionOpened",
    "QuizConfig",
    "QuizEvent",
    "QuizGame",
    "QuizGameOverError",
    "QuizRuleError",
    "QuizState",
    "Situation",
    "Standings",
    "TeamLine",
    "apply_event",
    "draw_spurs",
    "events_from_json",
    "events_to_json",
    "fold",
    "initial_state",
    "jump_is_legal",
    "legal_declarations",
    "make_config",
    "situation",
]
