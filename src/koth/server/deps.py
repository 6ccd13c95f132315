"""FastAPI dependencies, as ``Annotated`` aliases for the signatures of every route,
page and WebSocket.

Every dependency is ``async def``: FastAPI runs a plain ``def`` dependency in a worker
thread, two thread hops per request that cost more than answering a quiz answer.
"""

from __future__ import annotations

import contextvars
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, Header, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from fastapi.templating import Jinja2Templates
from starlette.requests import HTTPConnection

from koth.i18n import COOKIE, pick_language, translations
from koth.server.games.analysis import AnalysisService
from koth.server.games.friends import FriendsService
from koth.server.games.hints import HintService
from koth.server.games.presence import PresenceService
from koth.server.games.service import GameService
from koth.server.quiz.live import LiveEvent
from koth.server.quiz.season.service import SeriesService
from koth.server.quiz.service import QuizService
from koth.server.ratelimit import Action, RateLimits
from koth.server.settings import Settings
from koth.server.sockets import SocketBudget


async def get_settings(connection: HTTPConnection) -> Settings:
    settings: Settings = connection.app.state.settings
    return settings


async def get_templates(connection: HTTPConnection) -> Jinja2Templates:
    templates: Jinja2Templates = connection.app.state.templates
    return templates


def client_address(connection: HTTPConnection) -> str:
    """The client's address (behind a reverse proxy: the one it forwarded, when
    ``koth serve`` trusts that proxy)."""
    return connection.client.host if connection.client is not None else "unknown"


async def get_client(connection: HTTPConnection) -> str:
    return client_address(connection)


async def get_rate_limits(connection: HTTPConnection) -> RateLimits:
    limits: RateLimits = connection.app.state.rate_limits
    return limits


async def get_sockets(connection: HTTPConnection) -> SocketBudget:
    sockets: SocketBudget = connection.app.state.sockets
    return sockets


def limited(action: Action) -> Any:
    """A route dependency that counts the request against the client's ``action``
    limit (checked before the body is read)."""

    async def count(connection: HTTPConnection) -> None:
        limits: RateLimits = connection.app.state.rate_limits
        await limits.hit(action, client_address(connection))

    return Depends(count)


async def get_games(connection: HTTPConnection) -> GameService:
    service: GameService = connection.app.state.games
    return service


async def get_friends(connection: HTTPConnection) -> FriendsService:
    service: FriendsService = connection.app.state.friends
    return service


async def get_presence(connection: HTTPConnection) -> PresenceService:
    service: PresenceService = connection.app.state.presence
    return service


async def get_analyses(connection: HTTPConnection) -> AnalysisService:
    service: AnalysisService = connection.app.state.analyses
    return service


async def get_hints(connection: HTTPConnection) -> HintService:
    service: HintService = connection.app.state.hints
    return service


async def get_quiz(connection: HTTPConnection) -> QuizService:
    service: QuizService = connection.app.state.quiz
    return service


async def get_series(connection: HTTPConnection) -> SeriesService:
    service: SeriesService = connection.app.state.series
    return service


_seat_bearer = HTTPBearer(
    auto_error=False,
    scheme_name="SeatToken",
    description="The secret seat token of a join link; without it you are a spectator.",
)
_quiz_bearer = HTTPBearer(
    auto_error=False,
    scheme_name="QuizToken",
    description="The host token (judge console) or a team token (team page).",
)


async def get_seat_token(
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_seat_bearer)],
) -> str | None:
    return credentials.credentials if credentials is not None else None


@dataclass(frozen=True, slots=True)
class SeatCall:
    """What a play route needs of its request: the games, the seat token (None: a
    spectator) and the reader's language."""

    games: GameService
    token: str | None
    lang: str


def seat_call(action: Action) -> Any:
    """The one dependency of the routes a move takes (reading the game, acting): it
    counts the request against the client's ``action`` limit, then gives the games,
    the seat token and the language. FastAPI resolves dependencies anew on every
    request, at a cost per dependency: one here instead of four."""

    async def gather(
        connection: HTTPConnection,
        credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_seat_bearer)],
    ) -> SeatCall:
        state = connection.app.state
        limits: RateLimits = state.rate_limits
        await limits.hit(action, client_address(connection))
        lang = pick_language(
            connection.cookies.get(COOKIE), connection.headers.get("accept-language")
        )
        token = credentials.credentials if credentials is not None else None
        return SeatCall(state.games, token, lang)

    return Depends(gather)


_player_bearer = HTTPBearer(
    auto_error=False,
    scheme_name="PlayerKey",
    description="The device's random player key, which ties the seats it joined together.",
)


async def get_player_key(
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_player_bearer)],
) -> str | None:
    return credentials.credentials if credentials is not None else None


async def get_quiz_token(
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_quiz_bearer)],
) -> str | None:
    return credentials.credentials if credentials is not None else None


async def get_idempotency_key(
    key: Annotated[
        str | None,
        Header(
            alias="Idempotency-Key",
            description="a key the client makes per command (8 to 64 letters, digits or "
            "-_.:); a retry with the same key is applied once and answered like the first",
        ),
    ] = None,
) -> str | None:
    return key


async def get_base_url(connection: HTTPConnection) -> str:
    """Where links point: the configured public URL or the one the client used."""
    settings: Settings = connection.app.state.settings
    return (settings.public_url or str(connection.base_url)).rstrip("/")


async def get_language(connection: HTTPConnection) -> str:
    """The reader's language: the language switch's cookie, else the browser's choice."""
    return pick_language(connection.cookies.get(COOKIE), connection.headers.get("accept-language"))


_page_language: contextvars.ContextVar[str] = contextvars.ContextVar("page_language", default="en")


def page_context(request: Request) -> dict[str, Any]:
    """What every page's template gets: its language, and the texts of the catalogs in it
    (``_``/``gettext``/``ngettext`` and ``{% trans %}`` read the language set here: a
    page renders within its request)."""
    lang = pick_language(request.cookies.get(COOKIE), request.headers.get("accept-language"))
    _page_language.set(lang)
    return {"lang": lang}


def install_translations(templates: Jinja2Templates) -> None:
    """Jinja2's i18n extension on ``templates``, speaking each page's language."""
    env = templates.env
    env.add_extension("jinja2.ext.i18n")

    def gettext(message: str) -> str:
        return translations(_page_language.get()).gettext(message)

    def ngettext(singular: str, plural: str, n: int) -> str:
        return translations(_page_language.get()).ngettext(singular, plural, n)

    env.install_gettext_callables(gettext, ngettext, newstyle=True)  # type: ignore[attr-defined]


async def get_host_event(
    event_id: str,
    quiz: Annotated[QuizService, Depends(get_quiz)],
    token: Annotated[str | None, Depends(get_quiz_token)],
) -> LiveEvent:
    """The quiz event whose host token was presented (checked before the request body,
    so a stranger learns nothing of what a command would need)."""
    return await quiz.host_event(event_id, token)


SettingsDep = Annotated[Settings, Depends(get_settings)]
TemplatesDep = Annotated[Jinja2Templates, Depends(get_templates)]
GamesDep = Annotated[GameService, Depends(get_games)]
PresenceDep = Annotated[PresenceService, Depends(get_presence)]
FriendsDep = Annotated[FriendsService, Depends(get_friends)]
AnalysesDep = Annotated[AnalysisService, Depends(get_analyses)]
HintsDep = Annotated[HintService, Depends(get_hints)]
QuizDep = Annotated[QuizService, Depends(get_quiz)]
SeriesDep = Annotated[SeriesService, Depends(get_series)]
SeatTokenDep = Annotated[str | None, Depends(get_seat_token)]
QuizTokenDep = Annotated[str | None, Depends(get_quiz_token)]
PlayerKeyDep = Annotated[str | None, Depends(get_player_key)]
BaseUrlDep = Annotated[str, Depends(get_base_url)]
HostEventDep = Annotated[LiveEvent, Depends(get_host_event)]
ClientDep = Annotated[str, Depends(get_client)]
IdempotencyKeyDep = Annotated[str | None, Depends(get_idempotency_key)]
RateLimitsDep = Annotated[RateLimits, Depends(get_rate_limits)]
SocketsDep = Annotated[SocketBudget, Depends(get_sockets)]
LanguageDep = Annotated[str, Depends(get_language)]
LookupSeatDep = Annotated[SeatCall, seat_call(Action.LOOKUP)]
ActSeatDep = Annotated[SeatCall, seat_call(Action.ACT)]
