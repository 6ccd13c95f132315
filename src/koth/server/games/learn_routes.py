"""Learning a game in the app: the ``/learn/<game>`` page and its tutorial's JSON API.

The page shows the rules in brief (translated), the interactive tutorial (positions
drawn by the table's own renderer) and the whole rules document rendered from
``docs/rules/<game>.md``. The API serves the lessons and checks each tried move with the
engine (``games/tutorial.py``); nothing is stored.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from koth.core.errors import IllegalActionError, InvalidActionError
from koth.i18n import N_, Translator
from koth.server.deps import LanguageDep, TemplatesDep, get_language, limited
from koth.server.errors import (
    MalformedRequestError,
    NotFoundError,
    PayloadTooLargeError,
    RateLimitedError,
    error_responses,
)
from koth.server.games import i18n as texts
from koth.server.games.catalog import game_info
from koth.server.games.rulebook import RULEBOOKS, SUMMARIES, rules_html
from koth.server.games.schemas import LessonEntry, LessonTry, LessonTryResponse
from koth.server.games.tutorial import all_lessons, try_move
from koth.server.ratelimit import Action

pages = APIRouter(include_in_schema=False)
api = APIRouter(
    prefix="/api/learn",
    tags=["learn"],
    responses=error_responses(MalformedRequestError, RateLimitedError, PayloadTooLargeError),
)


def _known(game: str) -> None:
    if game not in RULEBOOKS:
        raise NotFoundError(N_("there is no tutorial for the game {game!r}"), game=game)


@pages.get("/learn/{game}", response_class=HTMLResponse, dependencies=[limited(Action.LOOKUP)])
async def learn_page(request: Request, game: str, templates: TemplatesDep) -> HTMLResponse:
    lang = await get_language(request)
    _ = Translator(lang)
    if game not in RULEBOOKS:
        return templates.TemplateResponse(
            request,
            "error.html",
            {
                "title": _("No such game"),
                "message": _("There is no game {game_id!r}.", game_id=game),
            },
            status_code=404,
        )
    return templates.TemplateResponse(
        request,
        "learn.html",
        {
            "game_name": game,
            "title": game_info(game).title,
            "renderer": game,
            "summary": [_(paragraph) for paragraph in SUMMARIES[game]],
            "rules": rules_html(game),
            "texts": texts.strings(lang),
        },
    )


@api.get(
    "/{game}",
    summary="The tutorial's lessons: a scripted position per kind of action",
    dependencies=[limited(Action.LOOKUP)],
    responses=error_responses(NotFoundError),
)
async def lessons(game: str, lang: LanguageDep) -> list[LessonEntry]:
    _known(game)
    return all_lessons(game, lang)


@api.post(
    "/{game}/lessons/{key}",
    summary="Try a move in a lesson: the engine says whether it is the one asked for, or "
    "which rule it breaks",
    dependencies=[limited(Action.ACT)],
    responses=error_responses(NotFoundError, InvalidActionError, IllegalActionError),
)
async def try_lesson(game: str, key: str, body: LessonTry, lang: LanguageDep) -> LessonTryResponse:
    _known(game)
    return try_move(game, key, body, lang)
