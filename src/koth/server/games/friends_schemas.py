"""Request and response bodies of what ties people's games together: who is at the
table now, the rematch and the running score, ratings and recovery codes."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, Field

from koth.server.bodies import RequestBody

#: a recovery code as shown: three groups of four letters or digits (no 0/O or 1/I/L)
RECOVERY_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
RECOVERY_PATTERN = r"^[A-Za-z0-9]{4}-?[A-Za-z0-9]{4}-?[A-Za-z0-9]{4}$"


class ChainScore(BaseModel):
    """The head-to-head score over a rematch chain (this game and those before it)."""

    games: int = Field(description="finished games of the chain")
    points: list[float] = Field(
        description="by seat of this game: the points of the person sitting there "
        "(a win 1, a draw a half each)"
    )
    draws: int = Field(description="finished games nobody won")


class RematchInfo(BaseModel):
    game_id: str = Field(description="the rematch: same options and persons, seats rotated")
    offered_by: int = Field(description="the seat of this game whose person offered it")
    waiting: list[int] = Field(
        description="the seats of this game whose person has not taken their rematch seat yet"
    )


class FriendsInfo(BaseModel):
    """The people at a table: presence, ratings, the running score and a rematch."""

    online: list[int] = Field(
        default_factory=list, description="seats with a live connection (on any server process)"
    )
    rated: bool = Field(default=False, description="the result changes the persons' ratings")
    ratings: list[int | None] = Field(
        default_factory=list,
        description="by seat: the person's rating in this kind of game (null: none yet)",
    )
    score: ChainScore | None = Field(
        default=None, description="the running score, from the second game of a rematch chain"
    )
    rematch: RematchInfo | None = Field(default=None, description="once offered")


class RematchResponse(BaseModel):
    """A rematch seat, given to its person once (the offer, or the acceptance)."""

    game_id: str
    seat: int = Field(description="the seat of the rematch, from 0")
    token: str = Field(description="its secret seat token")
    join_url: str = Field(description="its secret join link")
    accepted: bool = Field(description="every person has taken their seat: the game is on")


class RatingEntry(BaseModel):
    kind: str = Field(description="the kind of game, e.g. cards or board")
    rating: int = Field(description="the rating as shown")
    games: int = Field(description="rated games played in this kind")


class RatingChange(BaseModel):
    game_id: str
    kind: str
    seat: int
    before: int
    after: int
    created: datetime


class MyRatingsResponse(BaseModel):
    current: list[RatingEntry]
    history: list[RatingChange] = Field(description="the newest first")


class RecoveryCodeResponse(BaseModel):
    code: str = Field(description="shown once; entered on another device, it moves the identity")
    expires: datetime


class RecoverRequest(RequestBody):
    code: str = Field(
        pattern=RECOVERY_PATTERN,
        description="the recovery code shown on the other device (XXXX-XXXX-XXXX)",
    )


class RecoveredResponse(BaseModel):
    key: str = Field(description="this device's new player key: keep it, it holds the identity")
    games: int = Field(description="seats now tied to it")
