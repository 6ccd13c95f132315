"""The parts of the audiences' messages that come from the show: the question the big
screen shows (and its answer once revealed), declared Revolutions, short slope labels,
the question on the phones (a host setting) and the pack's answer for the judge.

Nothing here gives a question or its answer away early: the text reaches the projector
and phones only once the host shows it, the answer only once the host reveals it.
"""

from __future__ import annotations

import re
from urllib.parse import quote

from koth.games.quiz.pack import PackQuestion
from koth.games.quiz.wording import end_text
from koth.i18n import Translator
from koth.server.quiz import ops
from koth.server.quiz.model import EventModel
from koth.server.quiz.parts import Part, Question
from koth.server.quiz.schemas import (
    AnswerGroup,
    ExpectedAnswer,
    JudgeMessage,
    MediaContent,
    PackSummary,
    ProjectorMessage,
    ScreenContent,
    TeamMessage,
)
from koth.server.quiz.show import pack_question

LABEL_MAX = 3
_DIGITS = re.compile(r"\d+")


def picture_url(event_id: str, name: str) -> str:
    return f"/api/quiz/events/{event_id}/pictures/{quote(name, safe='')}"


def media_url(event_id: str, name: str) -> str:
    return f"/api/quiz/events/{event_id}/media/{quote(name, safe='')}"


def _media(model: EventModel, q: Question, found: PackQuestion | None) -> MediaContent | None:
    """The question's sound or video once it is shown and stored (None: none)."""
    media = found.media if found is not None else None
    if media is None or not q.shown or media[1] not in model.media:
        return None
    return MediaContent(
        kind=media[0],
        url=media_url(model.event_id, media[1]),
        playing=q.media_playing,
        starts=q.media_starts,
        phones=q.media_phones,
    )


def slope_labels(teams: list[str]) -> dict[str, str]:
    """A short label per team for the slopes of the mountain: its initials (with the
    number in its name, so "Team 17" is "T17"), or its number in the list where two
    teams would share a label, so 50 teams stay distinct."""
    initials = {t: _initials(t) for t in teams}
    counts: dict[str, int] = {}
    for label in initials.values():
        counts[label] = counts.get(label, 0) + 1
    return {
        t: initials[t] if counts[initials[t]] == 1 and initials[t] else str(i + 1)
        for i, t in enumerate(teams)
    }


def _initials(name: str) -> str:
    digits = "".join(_DIGITS.findall(name))
    words = [w for w in re.split(r"[\W_]+", name) if w and not w.isdigit()]
    letters = "".join(w[0].upper() for w in words)[: max(1, LABEL_MAX - len(digits))]
    return (letters + digits)[: LABEL_MAX + 1]


def _pack_question(model: EventModel, part: Part, q: Question) -> PackQuestion | None:
    return pack_question(model.pack, part, q.number)


def _picture(model: EventModel, found: PackQuestion | None) -> str | None:
    if found is None or found.picture is None or found.picture not in model.pictures:
        return None
    return picture_url(model.event_id, found.picture)


def fill_projector(out: ProjectorMessage, model: EventModel, part: Part) -> None:
    out.labels = slope_labels(list(part.config.teams))
    out.main_questions = part.config.questions
    q = part.open_question
    lightning = lightning_question(model, part)
    if lightning is not None:
        number, quick = lightning
        out.screen = ScreenContent(
            question=number,
            show="question",
            text=quick.text,
            picture=_picture(model, quick),
            lightning=True,
        )
    if q is None:
        return
    if q.locked_at is not None:
        out.revolutions = [t for t, d in q.declarations.items() if d == "revolution"]
    if q.screen in ("question", "answer"):
        found = _pack_question(model, part, q)
        content = ScreenContent(question=q.number, show=q.screen)
        if found is not None:
            content.text = found.text
            content.picture = _picture(model, found)
            content.partner = found.partner
            content.media = _media(model, q, found)
            if q.screen == "answer":
                content.answer = found.answer
                content.accepted = found.accepted
                content.comment = found.comment or None
        out.screen = content


def lightning_question(model: EventModel, part: Part) -> tuple[int, PackQuestion] | None:
    """While a tie is played off: the pack's next lightning question (numbered by the
    lightning questions the part has played), if the pack has one."""
    if model.pack is None or part.open_question is not None:
        return None
    if not part.state.finished or part.settled:
        return None
    number = len(part.lightning) + 1
    found = model.pack.lightning_question(part.name, number)
    return None if found is None else (number, found)


def end_reason_text(part: Part, lang: str = "en") -> str | None:
    """Why ``part`` ended, in words of ``lang`` (None: it is still running)."""
    reason = part.state.standings.reason
    if reason is None or not part.state.finished:
        return None
    return end_text(reason, Translator(lang))


def fill_team(out: TeamMessage, model: EventModel) -> None:
    """The shown question's text (if the host's setting says so) and its sound or video
    (if the host plays it on the phones too)."""
    part = model.part
    q = part.open_question if part is not None else None
    if part is None or q is None or not q.shown:
        return
    found = _pack_question(model, part, q)
    if q.media_phones:
        out.media = _media(model, q, found)
    if model.config.phones_show_question:
        out.question_text = found.text if found is not None else None


def fill_judge(out: JudgeMessage, model: EventModel) -> None:
    pack = model.pack
    if pack is None:
        return
    out.pack = PackSummary(
        title=pack.title,
        questions=pack.count("main"),
        backup_questions=pack.count("backup"),
        lightning_questions=pack.count("lightning"),
        pictures=pack.pictures(),
        missing_pictures=[p for p in pack.pictures() if p not in model.pictures],
        media=sorted(pack.media()),
        missing_media=sorted(m for m in pack.media() if m not in model.media),
    )
    part = model.part
    lightning = lightning_question(model, part) if part is not None else None
    if lightning is not None:
        number, quick = lightning
        out.expected = ExpectedAnswer(
            question=number,
            text=quick.text,
            answer=quick.answer,
            accepted=quick.accepted,
            comment=quick.comment,
            source=quick.source,
            partner=None,
            picture=_picture(model, quick),
            screen="question",
            lightning=True,
        )
        return
    q = part.open_question if part is not None else None
    if part is None or q is None:
        return
    found = _pack_question(model, part, q)
    if found is None:
        return
    out.expected = ExpectedAnswer(
        question=q.number,
        text=found.text,
        answer=found.answer,
        accepted=found.accepted,
        comment=found.comment,
        source=found.source,
        partner=found.partner,
        picture=_picture(model, found),
        screen=q.screen,
        media=_media(model, q, found),
    )
    if out.open is not None:
        mark_matches(out.open.groups, found)


def mark_matches(groups: list[AnswerGroup], found: PackQuestion) -> None:
    """Pre-mark the groups whose normalised text is the answer's or a variant's (the
    judge still confirms each group)."""
    keys = {ops.normalise_answer(a) for a in [found.answer, *found.accepted]}
    keys.discard("")
    for group in groups:
        group.matches = group.key in keys
