"""The games' JSON API and WebSocket: the lobby, playing a game, replays and records.
Every route calls the service layer only."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated

from fastapi import APIRouter, Path, Query, Response, WebSocket, status

from koth.core.errors import (
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    InvalidParamsError,
    NotYourTurnError,
)
from koth.core.record import GameRecord
from koth.server.deps import (
    ActSeatDep,
    AnalysesDep,
    BaseUrlDep,
    ClientDep,
    FriendsDep,
    GamesDep,
    HintsDep,
    LanguageDep,
    LookupSeatDep,
    PlayerKeyDep,
    PresenceDep,
    RateLimitsDep,
    SeatTokenDep,
    SocketsDep,
    get_language,
    limited,
)
from koth.server.errors import (
    AlreadySubmittedError,
    ForbiddenError,
    InvalidRequestError,
    MalformedRequestError,
    NotFinishedError,
    NotFoundError,
    NotSubmittedError,
    PayloadTooLargeError,
    RateLimitedError,
    SeatTakenError,
    StaleVersionError,
    UnknownGameError,
    error_responses,
)
from koth.server.games.catalog import catalog, check_table
from koth.server.games.messages import qr_svg
from koth.server.games.schemas import (
    ActionRequest,
    CatalogEntry,
    CreatedGameResponse,
    CreateGameRequest,
    GameAnalysisResponse,
    GameHello,
    GameStatus,
    GameSummary,
    HintResponse,
    MyGame,
    ParamsCheckRequest,
    PlayerKeyRequest,
    QrRequest,
    QrResponse,
    ReplayResponse,
    SeatLink,
    SeatNameRequest,
    StateMessage,
    TableInfo,
    TakeSeatRequest,
)
from koth.server.games.service import SeatRequest
from koth.server.ratelimit import Action
from koth.server.responses import attachment
from koth.server.sockets import serve_socket

router = APIRouter(
    prefix="/api",
    responses=error_responses(MalformedRequestError, RateLimitedError, PayloadTooLargeError),
)
LOOKUP = [limited(Action.LOOKUP)]

GAME_ERRORS = (NotFoundError, ForbiddenError)


# ------------------------------------------------------------------- lobby
@router.get(
    "/catalog", tags=["lobby"], summary="The games that can be hosted, with their parameters"
)
async def get_catalog() -> list[CatalogEntry]:
    return catalog()


@router.post(
    "/catalog/{game}/table",
    dependencies=LOOKUP,
    tags=["lobby"],
    summary="Check parameters and count the seats they give",
    responses=error_responses(UnknownGameError, InvalidParamsError),
)
async def table(game: str, body: ParamsCheckRequest) -> TableInfo:
    return check_table(game, body.params)


@router.get(
    "/games",
    tags=["lobby"],
    summary="Games in the lobby (open and running by default)",
    dependencies=LOOKUP,
)
async def list_games(
    games: GamesDep,
    friends: FriendsDep,
    presence: PresenceDep,
    base: BaseUrlDep,
    status_filter: Annotated[
        list[GameStatus] | None,
        Query(alias="status", description="open, running and/or finished"),
    ] = None,
) -> list[GameSummary]:
    statuses = status_filter or [GameStatus.OPEN, GameStatus.RUNNING]
    return presence.mark(await friends.with_ratings(await games.list_games(statuses, base)))


@router.post(
    "/games",
    tags=["lobby"],
    dependencies=[limited(Action.CREATE)],
    status_code=status.HTTP_201_CREATED,
    summary="Create a game; the response holds each human seat's secret join link",
    responses=error_responses(UnknownGameError, InvalidParamsError),
)
async def create_game(
    body: CreateGameRequest, games: GamesDep, base: BaseUrlDep
) -> CreatedGameResponse:
    seats = (
        [SeatRequest(s.kind, s.agent, s.budget, s.name) for s in body.seats]
        if body.seats is not None
        else None
    )
    return await games.create(
        body.game, body.params, seats, base, clock=body.clock, rated=body.rated
    )


@router.post(
    "/games/{game_id}/seats/{seat}/take",
    tags=["lobby"],
    dependencies=[limited(Action.ACT)],
    summary="Take an open person's seat: its new secret token and join link, given once; "
    "of two takers one wins, the other is told the seat is taken",
    responses=error_responses(NotFoundError, InvalidRequestError, SeatTakenError, GameOverError),
)
async def take_seat(
    game_id: str,
    seat: Annotated[int, Path(ge=0, le=63, description="the seat, from 0")],
    games: GamesDep,
    base: BaseUrlDep,
    body: TakeSeatRequest | None = None,
) -> SeatLink:
    return await games.take_seat(game_id, seat, base, body.name if body else None)


@router.post(
    "/qr",
    tags=["lobby"],
    dependencies=LOOKUP,
    summary="A QR code of a text (a join link): the link travels in the body, never in "
    "a request line that logs keep",
)
async def qr_code(body: QrRequest) -> QrResponse:
    return QrResponse(svg=qr_svg(body.text))


# -------------------------------------------------------------------- play
@router.get(
    "/games/{game_id}",
    tags=["play"],
    summary="The game as this seat (or a spectator, without a token) may see it now",
    responses=error_responses(*GAME_ERRORS),
)
async def get_game(game_id: str, call: LookupSeatDep) -> StateMessage:
    return await call.games.message(game_id, call.token, call.lang)


@router.post(
    "/games/{game_id}/actions",
    tags=["play"],
    summary="Act for the seat of the token; answered once the action is stored",
    responses=error_responses(
        *GAME_ERRORS,
        InvalidActionError,
        IllegalActionError,
        StaleVersionError,
        NotYourTurnError,
        GameOverError,
        AlreadySubmittedError,
    ),
)
async def post_action(game_id: str, body: ActionRequest, call: ActSeatDep) -> StateMessage:
    return await call.games.act(game_id, call.token, body.chosen, body.version, call.lang)


@router.put(
    "/games/{game_id}/name",
    tags=["play"],
    dependencies=[limited(Action.ACT)],
    summary="The name shown for the seat of the token (instead of 'Seat n')",
    responses=error_responses(*GAME_ERRORS, InvalidRequestError),
)
async def name_seat(
    game_id: str, body: SeatNameRequest, games: GamesDep, token: SeatTokenDep, lang: LanguageDep
) -> StateMessage:
    return await games.name_seat(game_id, token, body.name, lang)


@router.put(
    "/games/{game_id}/player",
    tags=["play"],
    dependencies=[limited(Action.ACT)],
    summary="Tie the seat of the token to this device's player key, for 'My games'",
    status_code=status.HTTP_204_NO_CONTENT,
    responses=error_responses(*GAME_ERRORS),
)
async def tie_player(
    game_id: str, body: PlayerKeyRequest, games: GamesDep, token: SeatTokenDep
) -> None:
    await games.tie_player(game_id, token, body.key)


@router.get(
    "/me/games",
    tags=["play"],
    dependencies=LOOKUP,
    summary="The games of the seats tied to the player key: running first, those "
    "where the seat is to act before the others",
    responses=error_responses(ForbiddenError),
)
async def my_games(games: GamesDep, key: PlayerKeyDep, base: BaseUrlDep) -> list[MyGame]:
    return await games.my_games(key, base)


@router.post(
    "/games/{game_id}/hint",
    tags=["play"],
    dependencies=[limited(Action.ACT)],
    summary="The strongest computer level's move for the seat of the token, from its view; "
    "only for a person playing the computer alone",
    responses=error_responses(*GAME_ERRORS, InvalidRequestError, NotYourTurnError, GameOverError),
)
async def post_hint(
    game_id: str, hints: HintsDep, token: SeatTokenDep, lang: LanguageDep
) -> HintResponse:
    return await hints.hint(game_id, token, lang)


@router.post(
    "/games/{game_id}/resign",
    tags=["play"],
    dependencies=[limited(Action.ACT)],
    summary="Resign the seat: in a game of two the other seat wins; with more seats the "
    "computer plays it on and the game ends when one seat is left",
    responses=error_responses(*GAME_ERRORS, StaleVersionError, GameOverError),
)
async def resign(
    game_id: str, games: GamesDep, token: SeatTokenDep, lang: LanguageDep
) -> StateMessage:
    return await games.resign(game_id, token, lang)


@router.post(
    "/games/{game_id}/back",
    tags=["play"],
    dependencies=[limited(Action.ACT)],
    summary="I'm back: the computer stops playing the seat for its person (nothing "
    "changes when it does not)",
    responses=error_responses(*GAME_ERRORS, StaleVersionError, GameOverError),
)
async def come_back(
    game_id: str, games: GamesDep, token: SeatTokenDep, lang: LanguageDep
) -> StateMessage:
    return await games.back(game_id, token, lang)


@router.delete(
    "/games/{game_id}/actions",
    tags=["play"],
    dependencies=[limited(Action.ACT)],
    summary="Take back the seat's secret choice while another seat has yet to choose",
    responses=error_responses(*GAME_ERRORS, StaleVersionError, NotSubmittedError),
)
async def withdraw_action(
    game_id: str,
    games: GamesDep,
    token: SeatTokenDep,
    lang: LanguageDep,
    version: Annotated[
        int | None, Query(ge=0, description="the version the choice was made at")
    ] = None,
) -> StateMessage:
    return await games.withdraw(game_id, token, version, lang)


@router.websocket("/games/{game_id}/ws")
async def game_socket(
    websocket: WebSocket,
    game_id: str,
    games: GamesDep,
    limits: RateLimitsDep,
    sockets: SocketsDep,
    client: ClientDep,
) -> None:
    """Live updates. The client's first frame is ``{"type": "hello", "token": ...}``
    (token null for a spectator); every frame after that from the server is a full
    ``state`` message built for the client's seat, or an ``error``. Clients may send
    ``{"type": "ping"}`` to keep the connection alive. Refused: a hello of another
    shape (close 4400), an unknown game (4404), a wrong token (4403), too many
    connections to the game or from the address, or too many requests (4429)."""

    async def subscribe(hello: GameHello) -> tuple[str, Callable[[], None]]:
        # the texts of every message on this socket (the notes) speak the page's language
        lang = await get_language(websocket)
        subscriber, first = await games.subscribe(game_id, websocket, hello.token, lang)
        return first.model_dump_json(), lambda: games.unsubscribe(game_id, subscriber)

    await serve_socket(
        websocket,
        limits=limits,
        budget=sockets,
        client=client,
        feature="games",
        hello=GameHello,
        subscribe=subscribe,
        pong=lambda: {"type": "pong"},
        what="a token",
    )


# ----------------------------------------------------------------- records
@router.get(
    "/games/{game_id}/replay",
    dependencies=LOOKUP,
    tags=["records"],
    summary="Every step as views: the viewer's own while the game runs, all seats' after",
    responses=error_responses(*GAME_ERRORS),
)
async def get_replay(
    game_id: str, games: GamesDep, token: SeatTokenDep, lang: LanguageDep
) -> ReplayResponse:
    return await games.replay(game_id, token, lang)


@router.get(
    "/games/{game_id}/record",
    dependencies=LOOKUP,
    tags=["records"],
    summary="The full game record (koth-record/1 JSON); only once the game is over",
    responses=error_responses(NotFoundError, NotFinishedError),
)
async def get_record(game_id: str, games: GamesDep, response: Response) -> GameRecord:
    record = await games.record(game_id)  # an unknown id is refused before any header
    response.headers.update(attachment(f"koth-{game_id}.json"))
    return record


@router.get(
    "/games/{game_id}/analysis",
    dependencies=LOOKUP,
    tags=["records"],
    summary="A finished game's analysis: each seat's estimated win chance and the move a "
    "search prefers at each of its decisions, from that seat's view at the time; "
    "'analysing' until it is ready",
    responses=error_responses(NotFoundError, NotFinishedError, InvalidRequestError),
)
async def get_analysis(game_id: str, analyses: AnalysesDep) -> GameAnalysisResponse:
    return await analyses.analysis(game_id)
