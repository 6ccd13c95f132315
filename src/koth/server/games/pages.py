"""Server-rendered pages (Jinja2): the lobby, the game table and the replay viewer."""

from __future__ import annotations

from dataclasses import replace
from typing import Any
from urllib.parse import parse_qs, urlencode

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse

from koth.agents.levels import strongest
from koth.core.errors import InvalidParamsError, KothError
from koth.i18n import COOKIE, N_, Translator, pick_language
from koth.server.deps import (
    BaseUrlDep,
    ClientDep,
    FriendsDep,
    GamesDep,
    PresenceDep,
    RateLimitsDep,
    SettingsDep,
    TemplatesDep,
    get_language,
    limited,
)
from koth.server.errors import api_error_from
from koth.server.games import i18n as texts
from koth.server.games.agents import agent_names
from koth.server.games.catalog import GameInfo, ParamField, game_info, offered_games
from koth.server.games.clocks import clock_from_form
from koth.server.games.schemas import CreatedGameResponse, GameStatus, SeatKind
from koth.server.games.service import SeatRequest
from koth.server.games.wording import level_names, levels_words, option_words
from koth.server.ratelimit import Action

router = APIRouter(include_in_schema=False)
LOOKUP = [limited(Action.LOOKUP)]

#: games with their own table page; every other game gets the generic one
RENDERERS = {"cards": "cards", "board": "board"}
#: each renderer's own scripts and style sheets, under static/ (games/ for the newer ones)
RENDERER_SCRIPTS: dict[str, tuple[str, ...]] = {
    "cards": ("cards.js",),
    "board": ("games/board_draw.js", "games/board.js"),
}
RENDERER_STYLES: dict[str, tuple[str, ...]] = {"board": ("games/board.css",)}
MAX_FORM_BYTES = 20_000


@router.get("/", response_class=HTMLResponse)
async def lobby_page(
    request: Request,
    games: GamesDep,
    templates: TemplatesDep,
    base: BaseUrlDep,
    settings: SettingsDep,
    friends: FriendsDep,
    presence: PresenceDep,
) -> HTMLResponse:
    listed = presence.mark(
        await friends.with_ratings(
            await games.list_games([GameStatus.OPEN, GameStatus.RUNNING], base)
        )
    )
    finished = await friends.with_ratings(
        (await games.list_games([GameStatus.FINISHED], base))[:20]
    )
    lang = await get_language(request)
    catalog = offered_games()
    return templates.TemplateResponse(
        request,
        "lobby.html",
        {
            "catalog": catalog,
            "words": {info.name: option_words(info.name, lang) for info in catalog},
            "levels": {info.name: levels_words(info.name, lang) for info in catalog},
            "agent_names": level_names(lang),
            "agents": agent_names(),
            "games": listed,
            "finished": finished,
            "max_budget": settings.max_agent_iterations,
            "texts": texts.strings(lang),
        },
    )


@router.post("/lobby/create", response_model=None)
async def create_from_form(
    request: Request,
    games: GamesDep,
    templates: TemplatesDep,
    base: BaseUrlDep,
    limits: RateLimitsDep,
    client: ClientDep,
) -> HTMLResponse | RedirectResponse:
    body = (await request.body())[:MAX_FORM_BYTES].decode("utf-8", errors="replace")
    form = {k: v[-1] for k, v in parse_qs(body, keep_blank_values=True).items()}
    try:
        await limits.hit(Action.CREATE, client)
        info = game_info(form.get("game", ""))
        params = _params_from_form(info, form)
        seats = _seats_from_form(form)
        clock = clock_from_form(form)
        response = await games.create(
            info.name, params, seats, base, creator_seated=True, clock=clock, rated="rated" in form
        )
    except KothError as exc:
        lang = await get_language(request)
        error = api_error_from(exc, lang)
        return templates.TemplateResponse(
            request,
            "error.html",
            {
                "title": Translator(lang)(N_("The game could not be created")),
                "message": error.message,
            },
            status_code=error.status,
        )
    return RedirectResponse(created_location(response), status_code=303)


def created_location(created: CreatedGameResponse) -> str:
    """Where the creator goes once the game is made (a reload never makes another): the
    table, seated at the first person's seat; with other people to invite, the invite
    page first. The secret tokens travel in the fragment, which no request carries."""
    tokens = {s.seat: s.token for s in created.seats if s.token}
    if not tokens:
        return f"/games/{created.id}"
    mine = min(tokens)
    fragment = {"seat": str(mine), "token": tokens[mine]}
    if len(tokens) == 1:
        return f"/games/{created.id}#{urlencode(fragment)}"
    fragment.update({f"s{seat}": token for seat, token in tokens.items() if seat != mine})
    return f"/games/{created.id}/invite#{urlencode(fragment)}"


@router.get("/me", response_class=HTMLResponse)
async def my_games_page(request: Request, templates: TemplatesDep) -> HTMLResponse:
    """The games played on this device (its player key stays in the browser)."""
    return templates.TemplateResponse(request, "my_games.html", {})


@router.get("/games/{game_id}/invite", response_class=HTMLResponse, dependencies=LOOKUP)
async def invite_page(
    request: Request, game_id: str, games: GamesDep, templates: TemplatesDep
) -> HTMLResponse:
    """The join links of the game's other seats, each with Copy, Share and a QR code;
    the links themselves are kept only on the creator's device."""
    context = await _page_context(request, games, game_id)
    if context is None:
        return _not_found(request, templates, game_id)
    return templates.TemplateResponse(request, "invite.html", context)


@router.get("/games/{game_id}", response_class=HTMLResponse, dependencies=LOOKUP)
async def game_page(
    request: Request, game_id: str, games: GamesDep, templates: TemplatesDep
) -> HTMLResponse:
    context = await _page_context(request, games, game_id)
    if context is None:
        return _not_found(request, templates, game_id)
    return templates.TemplateResponse(request, "game.html", context)


@router.get("/games/{game_id}/replay", response_class=HTMLResponse, dependencies=LOOKUP)
async def replay_page(
    request: Request, game_id: str, games: GamesDep, templates: TemplatesDep
) -> HTMLResponse:
    context = await _page_context(request, games, game_id)
    if context is None:
        return _not_found(request, templates, game_id)
    return templates.TemplateResponse(request, "replay.html", context)


async def _page_context(request: Request, games: GamesDep, game_id: str) -> dict[str, Any] | None:
    try:
        table = await games.table(game_id)
    except KothError:
        return None
    lang = await get_language(request)
    hint_level = strongest(table.game)
    renderer = RENDERERS.get(table.game, "generic")
    return {
        "game_id": game_id,
        "game_name": table.game,
        "hint_level": Translator(lang)(hint_level.title) if hint_level else None,
        "title": game_info(table.game).title,
        "renderer": renderer,
        "renderer_scripts": RENDERER_SCRIPTS.get(renderer, ()),
        "renderer_styles": RENDERER_STYLES.get(renderer, ()),
        "num_players": table.num_players,
        "texts": texts.strings(lang),
    }


def _not_found(request: Request, templates: TemplatesDep, game_id: str) -> HTMLResponse:
    _ = Translator(
        pick_language(request.cookies.get(COOKIE), request.headers.get("accept-language"))
    )
    return templates.TemplateResponse(
        request,
        "error.html",
        {
            "title": _(N_("No such game")),
            "message": _(N_("There is no game {game_id!r}."), game_id=game_id),
        },
        status_code=404,
    )


def _params_from_form(info: GameInfo, form: dict[str, str]) -> dict[str, Any]:
    params: dict[str, Any] = {}
    for field in info.fields:
        key = f"param.{field.name}"
        if field.kind == "bool":
            params[field.name] = key in form
        elif key in form and form[key] != "":
            params[field.name] = _convert(field, form[key])
    return params


def _convert(field: ParamField, text: str) -> Any:
    if field.kind == "choice":
        for choice in field.choices:
            if str(choice) == text:
                return choice
        return text  # rejected by the game's parameter validation, with its message
    if field.kind == "int":
        try:
            return int(text)
        except ValueError:
            return text
    if field.kind == "float":
        try:
            return float(text)
        except ValueError:
            return text
    return text


def _seats_from_form(form: dict[str, str]) -> list[SeatRequest]:
    seats = []
    index = 0
    while f"seat.{index}.kind" in form:
        try:
            kind = SeatKind(form[f"seat.{index}.kind"])
        except ValueError:
            raise InvalidParamsError(f"seat {index}: kind must be human or computer") from None
        budget_text = form.get(f"seat.{index}.budget", "").strip()
        budget = int(budget_text) if budget_text.isdigit() and int(budget_text) > 0 else None
        # a named level, else (the level left empty: "advanced") the agent chosen
        agent = form.get(f"seat.{index}.level") or form.get(f"seat.{index}.agent") or None
        seats.append(SeatRequest(kind, agent if kind is SeatKind.COMPUTER else None, budget))
        index += 1
    # the creator's name goes to the first person's seat, the creator's own
    name = form.get("player_name", "").strip()
    people = [i for i, seat in enumerate(seats) if seat.kind is SeatKind.HUMAN]
    if name and people:
        seats[people[0]] = replace(seats[people[0]], name=name)
    return seats
