"""The JSON API of what ties people's games together: the rematch, ratings and
recovery codes. Every route calls the service layer only."""

from __future__ import annotations

from fastapi import APIRouter

from koth.server.deps import BaseUrlDep, FriendsDep, PlayerKeyDep, SeatTokenDep, limited
from koth.server.errors import (
    ForbiddenError,
    MalformedRequestError,
    NotFinishedError,
    NotFoundError,
    PayloadTooLargeError,
    RateLimitedError,
    SeatTakenError,
    error_responses,
)
from koth.server.games.friends_schemas import (
    MyRatingsResponse,
    RecoveredResponse,
    RecoverRequest,
    RecoveryCodeResponse,
    RematchResponse,
)
from koth.server.games.schemas import SeatLink
from koth.server.ratelimit import Action

router = APIRouter(
    prefix="/api",
    responses=error_responses(MalformedRequestError, RateLimitedError, PayloadTooLargeError),
)


@router.post(
    "/games/{game_id}/rematch",
    tags=["play"],
    dependencies=[limited(Action.ACT)],
    summary="Offer the finished game's rematch (same options and persons, seats rotated), "
    "or accept the one offered: the token's person's seat there, its secret link given once",
    responses=error_responses(NotFoundError, ForbiddenError, NotFinishedError, SeatTakenError),
)
async def rematch(
    game_id: str, friends: FriendsDep, token: SeatTokenDep, base: BaseUrlDep
) -> RematchResponse:
    return await friends.rematch(game_id, token, base)


@router.get(
    "/me/ratings",
    tags=["play"],
    dependencies=[limited(Action.LOOKUP)],
    summary="The player key's ratings per kind of game, and each rated game's change",
    responses=error_responses(ForbiddenError),
)
async def my_ratings(friends: FriendsDep, key: PlayerKeyDep) -> MyRatingsResponse:
    return await friends.my_ratings(key)


@router.post(
    "/me/recovery",
    tags=["play"],
    dependencies=[limited(Action.ACT)],
    summary="A recovery code of the player key: shown once, stored hashed, working once "
    "for a short while; entered on another device it moves the identity there",
    responses=error_responses(ForbiddenError),
)
async def recovery_code(friends: FriendsDep, key: PlayerKeyDep) -> RecoveryCodeResponse:
    return await friends.recovery_code(key)


@router.post(
    "/me/recover",
    tags=["play"],
    dependencies=[limited(Action.RECOVER)],
    summary="Move an identity to this device with its recovery code: a new player key "
    "holds its seats and ratings (and this device's own seats)",
    responses=error_responses(ForbiddenError),
)
async def recover(
    body: RecoverRequest, friends: FriendsDep, key: PlayerKeyDep
) -> RecoveredResponse:
    return await friends.recover(body.code, key)


@router.post(
    "/me/games/{game_id}/seat",
    tags=["play"],
    dependencies=[limited(Action.RECOVER)],
    summary="A fresh secret link of the game's seat tied to the player key (a device the "
    "identity was moved to plays it): given once, the seat's earlier link stops working",
    responses=error_responses(ForbiddenError, NotFoundError),
)
async def my_seat(
    game_id: str, friends: FriendsDep, key: PlayerKeyDep, base: BaseUrlDep
) -> SeatLink:
    return await friends.seat_link(game_id, key, base)
