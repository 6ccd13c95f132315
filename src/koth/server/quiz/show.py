"""The show of a quiz evening as the log records it: the question pack the host loaded,
the pictures stored with the event, and what the big screen shows for the open question.

The fold (:class:`~koth.server.quiz.model.EventModel`) calls these checks; the messages
built from them are in :mod:`koth.server.quiz.screen`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from koth.games.quiz.pack import Pack, PackQuestion
from koth.i18n import N_
from koth.server.errors import InvalidRequestError, WrongPhaseError
from koth.server.quiz import ops

if TYPE_CHECKING:
    from koth.server.quiz.model import Part, Timer


def load_pack(data: dict[str, Any]) -> Pack:
    """The pack an op holds (it was checked when it was uploaded)."""
    try:
        return Pack.model_validate(data)
    except ValidationError as exc:
        raise InvalidRequestError(
            N_("the question pack is not valid: {why}"), why=exc.errors()[0]["msg"]
        ) from None


def check_screen(timer: Timer | None, op: ops.ScreenShown) -> None:
    """The answer is shown only once answering is over (never while teams can answer)."""
    if op.show == "answer" and (timer is None or timer.is_open(op.at)):
        raise WrongPhaseError(
            N_("the answer to question {question} can be shown once answering is over"),
            question=op.question,
        )


def pack_question(pack: Pack | None, part: Part, number: int) -> PackQuestion | None:
    """The pack's question read as question ``number`` of ``part`` (None: no pack, or the
    pack has no such question)."""
    if pack is None:
        return None
    return pack.find(part.name, number, part.config.questions)


def shown_pictures(pack: Pack | None, parts: list[Part], finished: bool) -> set[str]:
    """The pictures everyone may see: those of questions already shown (all of them once
    the event is over); before that a picture would give its question away."""
    if pack is None:
        return set()
    if finished:
        return set(pack.pictures())
    names: set[str] = set()
    for part in parts:
        for q in part.questions:
            found = pack_question(pack, part, q.number) if q.shown else None
            if found is not None and found.picture:
                names.add(found.picture)
        # lightning questions are on the screen from the moment their tie is played off
        asked = len(part.lightning) + (0 if part.settled or not part.state.finished else 1)
        for number in range(1, asked + 1):
            quick = pack.lightning_question(part.name, number)
            if quick is not None and quick.picture:
                names.add(quick.picture)
    return names
