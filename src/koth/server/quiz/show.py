"""The show of a quiz evening as the log records it: the question pack the host loaded,
the pictures stored with the event, and what the big screen shows for the open question.

The fold (:class:`~koth.server.quiz.model.EventModel`) calls these checks; the messages
built from them are in :mod:`koth.server.quiz.screen`.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from koth.games.quiz.pack import Pack, PackQuestion
from koth.i18n import N_
from koth.server.errors import InvalidRequestError, WrongPhaseError
from koth.server.quiz import ops
from koth.server.quiz.parts import Part, Question, Timer


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


def play_media(pack: Pack | None, part: Part, q: Question, op: ops.MediaPlayed) -> None:
    """The host plays, pauses or replays question ``q``'s sound or video: only a question
    of the pack that has one, and only once its text is shown (not before: the file would
    give the question away)."""
    found = pack_question(pack, part, q.number)
    if found is None or found.media is None:
        raise InvalidRequestError(
            N_("question {question} has no sound or video in the pack"), question=q.number
        )
    if not q.shown:
        raise WrongPhaseError(
            N_("show question {question} before playing its sound or video"), question=q.number
        )
    q.media_playing = op.action != "pause"
    if op.action == "replay" or (op.action == "play" and not q.media_starts):
        q.media_starts += 1
    q.media_phones = op.phones


def pack_question(pack: Pack | None, part: Part, number: int) -> PackQuestion | None:
    """The pack's question read as question ``number`` of ``part`` (None: no pack, or the
    pack has no such question)."""
    if pack is None:
        return None
    return pack.find(part.name, number, part.config.questions)


def shown_files(pack: Pack | None, parts: list[Part], finished: bool) -> set[str]:
    """The pictures, sounds and videos everyone may see: those of questions already shown
    (all of them once the event is over); before that a file would give its question
    away."""
    if pack is None:
        return set()
    if finished:
        return {*pack.pictures(), *pack.media()}
    names: set[str] = set()
    for part in parts:
        for q in part.questions:
            found = pack_question(pack, part, q.number) if q.shown else None
            names.update(_files(found))
        # lightning questions are on the screen from the moment their tie is played off
        asked = len(part.lightning) + (0 if part.settled or not part.state.finished else 1)
        for number in range(1, asked + 1):
            names.update(_files(pack.lightning_question(part.name, number)))
    return names


def _files(found: PackQuestion | None) -> set[str]:
    if found is None:
        return set()
    return {n for n in (found.picture, found.audio, found.video) if n}
