"""The quiz pages (Jinja2): host form, team join, team phone, judge console, projector
and results. The pages are shells; their scripts talk to the JSON API and WebSocket."""

from __future__ import annotations

from typing import Annotated, Any
from urllib.parse import urlparse

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse

from koth.core.errors import KothError
from koth.server.deps import QuizDep, TemplatesDep, limited
from koth.server.quiz import i18n
from koth.server.ratelimit import Action

router = APIRouter(include_in_schema=False)
LOOKUP = [limited(Action.LOOKUP)]


def _lang(request: Request) -> str:
    return i18n.pick_language(
        request.cookies.get(i18n.COOKIE), request.headers.get("accept-language")
    )


def _render(
    request: Request, templates: TemplatesDep, template: str, **context: Any
) -> HTMLResponse:
    lang = _lang(request)
    strings = i18n.strings(lang)
    other = "ru" if lang == "en" else "en"
    return templates.TemplateResponse(
        request, template, {"lang": lang, "t": strings, "other_lang": other, **context}
    )


@router.get("/quiz", response_class=HTMLResponse)
async def host_page(request: Request, templates: TemplatesDep) -> HTMLResponse:
    return _render(request, templates, "quiz/host.html")


@router.get("/quiz/join", response_class=HTMLResponse)
async def join_page(
    request: Request, templates: TemplatesDep, code: Annotated[str, Query(max_length=16)] = ""
) -> HTMLResponse:
    return _render(request, templates, "quiz/join.html", code=code)


@router.get("/quiz/lang/{lang}")
async def switch_language(
    request: Request, lang: str, next: Annotated[str, Query(max_length=500)] = "/quiz"
) -> RedirectResponse:
    target = urlparse(next)
    # only a path on this site: never an open redirect
    safe = next if not target.scheme and not target.netloc and next.startswith("/") else "/quiz"
    response = RedirectResponse(safe, status_code=303)
    if lang in i18n.LANGUAGES:
        response.set_cookie(i18n.COOKIE, lang, max_age=365 * 24 * 3600, samesite="lax")
    return response


async def _event_page(
    request: Request, templates: TemplatesDep, quiz: QuizDep, event_id: str, template: str
) -> HTMLResponse:
    try:
        stored = await quiz.stored(event_id)
    except KothError:
        lang = _lang(request)
        return templates.TemplateResponse(
            request,
            "error.html",
            {"title": "404", "message": i18n.strings(lang)["error_not_found"], "lang": lang},
            status_code=404,
        )
    return _render(
        request,
        templates,
        template,
        event_id=event_id,
        event_title=stored.title,
        join_code=stored.join_code,
    )


@router.get("/quiz/{event_id}/team", response_class=HTMLResponse, dependencies=LOOKUP)
async def team_page(
    request: Request, event_id: str, quiz: QuizDep, templates: TemplatesDep
) -> HTMLResponse:
    return await _event_page(request, templates, quiz, event_id, "quiz/team.html")


@router.get("/quiz/{event_id}/judge", response_class=HTMLResponse, dependencies=LOOKUP)
async def judge_page(
    request: Request, event_id: str, quiz: QuizDep, templates: TemplatesDep
) -> HTMLResponse:
    return await _event_page(request, templates, quiz, event_id, "quiz/judge.html")


@router.get("/quiz/{event_id}/projector", response_class=HTMLResponse, dependencies=LOOKUP)
async def projector_page(
    request: Request, event_id: str, quiz: QuizDep, templates: TemplatesDep
) -> HTMLResponse:
    return await _event_page(request, templates, quiz, event_id, "quiz/projector.html")


@router.get("/quiz/{event_id}/results", response_class=HTMLResponse, dependencies=LOOKUP)
async def results_page(
    request: Request, event_id: str, quiz: QuizDep, templates: TemplatesDep
) -> HTMLResponse:
    return await _event_page(request, templates, quiz, event_id, "quiz/results.html")


@router.get("/quiz/{event_id}/certificates", response_class=HTMLResponse, dependencies=LOOKUP)
async def certificates_page(
    request: Request, event_id: str, quiz: QuizDep, templates: TemplatesDep
) -> HTMLResponse:
    return await _event_page(request, templates, quiz, event_id, "quiz/print_certificates.html")


# ---------------------------------------------------------------- seasons
@router.get("/quiz/series", response_class=HTMLResponse)
async def series_form(request: Request, templates: TemplatesDep) -> HTMLResponse:
    return _render(request, templates, "quiz/series.html", series_id=None)


@router.get("/quiz/series/{series_id}", response_class=HTMLResponse, dependencies=LOOKUP)
async def series_page(request: Request, series_id: str, templates: TemplatesDep) -> HTMLResponse:
    return _render(request, templates, "quiz/series.html", series_id=series_id)
