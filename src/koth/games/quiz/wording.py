"""The words for the quiz engine's notes, refusals and end reasons.

The engine reports codes with parameters (:class:`~koth.games.quiz.state.Note`,
:class:`~koth.games.quiz.state.Problem`, :class:`~koth.games.quiz.state.EndReason`); the
texts below are their English, marked for the catalogs (docs/translating.md), so each
adapter renders them in its reader's language: the terminal in English, the web app
through the catalogs (its scripts get the same texts in the page's table).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Final

from koth.games.quiz.state import EndReason, Note, NoteKind, Problem
from koth.i18n import N_

#: a note's text per kind; ``{declaration}`` etc. are the note's parameters
NOTE_TEXTS: Final[Mapping[str, str]] = {
    NoteKind.LATE_DECLARATION: N_(
        "{declaration} declared after the question was read: ordinary move (Q3)"
    ),
    NoteKind.DOWNGRADED: N_("{declaration} downgraded to an ordinary move: {reason} ({rule})"),
    NoteKind.CROWNED: N_("reached the Peak: King (Q7)"),
    "crowned_revolution": N_("won the Revolution: King (Q10)"),
    NoteKind.OVERTHROWN: N_("answered wrong and was overthrown by {king} (Q10)"),
    NoteKind.KEPT_PEAK: N_("kept the Peak (Q10)"),
    NoteKind.STAYED_BELOW: N_("right, but {king} took the Peak: stays one step below (Q7, Q10)"),
    NoteKind.REVOLUTION_FAILED: N_("right, but the King answered right and keeps the Peak (Q10)"),
}

#: why a declaration does not stand
PROBLEM_TEXTS: Final[Mapping[str, str]] = {
    Problem.JUMP_FROM_START: N_("a jump is not allowed from the start (position 0)"),
    Problem.JUMP_ON_PEAK: N_("a jump is not allowed on the Peak"),
    Problem.JUMP_NEAR_PEAK: N_("a jump is not allowed with {left} steps left to the Peak"),
    "jump_one_step": N_("a jump is not allowed with 1 step left to the Peak"),
    Problem.JUMP_AFTER_WRONG: N_("a jump is not allowed right after the team's own wrong answer"),
    Problem.NO_REVOLUTION_IN_SEMIFINAL: N_("there is no King and no Revolution in a semifinal"),
    Problem.NO_KING: N_("there is no King to overthrow"),
    Problem.KING_REVOLTS: N_("the King cannot declare a Revolution"),
    Problem.NOT_BELOW_PEAK: N_(
        "only a team one step below the Peak (position {below}) may declare a Revolution; "
        "the team stands on {position}"
    ),
    Problem.REVOLUTION_USED: N_("the team already used its right to revolt against this King"),
}

#: the declarations, as the notes name them
DECLARATION_TEXTS: Final[Mapping[str, str]] = {
    "ordinary": N_("ordinary move"),
    "jump": N_("jump"),
    "revolution": N_("revolution"),
}

END_TEXTS: Final[Mapping[str, str]] = {
    EndReason.KING_HELD: N_("the King held the Peak"),
    EndReason.QUESTIONS_EXHAUSTED: N_("the questions ran out"),
    EndReason.NO_CHALLENGER: N_("no team can overthrow the King any more"),
}

#: a translation function: text as written -> text in the reader's language
Translate = Callable[[str], str]


def _english(text: str) -> str:
    return text


def note_key(kind: str, params: Mapping[str, str | int]) -> str:
    """The key of a note's text in :data:`NOTE_TEXTS` (a Revolution's crown has its own)."""
    if kind == NoteKind.CROWNED and params.get("by") == "revolution":
        return "crowned_revolution"
    return str(kind)


def problem_template(problem: str, params: Mapping[str, str | int]) -> str:
    """The English of ``problem`` with its ``{name}`` parameters still to fill in."""
    key = "jump_one_step" if problem == Problem.JUMP_NEAR_PEAK and params["left"] == 1 else problem
    return PROBLEM_TEXTS[key]


def problem_text(
    problem: str, params: Mapping[str, str | int], translate: Translate = _english
) -> str:
    return translate(problem_template(problem, params)).format(**params)


def note_params_text(
    kind: str, params: Mapping[str, str | int], translate: Translate = _english
) -> str:
    """A note (kind and parameters, as the JSON carries them) in words."""
    values: dict[str, str | int] = dict(params)
    if "declaration" in values:
        values["declaration"] = translate(DECLARATION_TEXTS[str(values["declaration"])])
    if "reason" in values:
        values["reason"] = problem_text(str(values["reason"]), params, translate)
    return translate(NOTE_TEXTS[note_key(kind, params)]).format(**values)


def note_text(note: Note, translate: Translate = _english) -> str:
    return note_params_text(note.kind, note.details, translate)


def end_text(reason: EndReason, translate: Translate = _english) -> str:
    return translate(END_TEXTS[reason])
