"""Time controls, resigning and absence as the API shows them: the options chosen at
creation, a table's clocks now, and how a game ended outside its rules."""

from __future__ import annotations

import enum

from pydantic import BaseModel, Field, model_validator

from koth.server.bodies import RequestBody


class ClockMode(enum.StrEnum):
    NONE = "none"
    """friendly: no clock"""
    MOVE = "move"
    """each decision has ``seconds``"""
    CHESS = "chess"
    """each seat has ``seconds`` in all, plus ``increment`` after each of its decisions"""


class OnTimeout(enum.StrEnum):
    COMPUTER = "computer"
    """the computer plays the seat (at ``level``) until its person returns"""
    LOSE = "lose"
    """the seat loses: the game ends, 'out of time'"""


class EndReason(enum.StrEnum):
    RESIGNED = "resigned"
    OUT_OF_TIME = "out_of_time"


class ClockOptions(RequestBody):
    """The time control of a game, chosen at creation."""

    mode: ClockMode = Field(default=ClockMode.NONE, description="none, move or chess")
    seconds: int = Field(
        default=60,
        ge=5,
        le=86_400,
        description="move: seconds per decision; chess: seconds per seat in all",
    )
    increment: int = Field(
        default=0, ge=0, le=3600, description="chess: seconds added after each decision"
    )
    on_timeout: OnTimeout = Field(
        default=OnTimeout.COMPUTER,
        description="when a clock runs out: the computer plays the seat until its person "
        "returns (computer), or the seat loses (lose)",
    )
    level: str = Field(
        default="casual",
        max_length=32,
        description="the computer level that plays for an absent person (see the catalog)",
    )

    @model_validator(mode="after")
    def _increment_needs_chess(self) -> ClockOptions:
        if self.increment and self.mode is not ClockMode.CHESS:
            raise ValueError("an increment goes with the chess clock (mode chess) only")
        return self


class SeatClock(BaseModel):
    seat: int
    left_ms: int | None = Field(
        description="the time left now (milliseconds); null: no clock for this seat now"
    )
    running: bool = Field(description="this seat owes a decision and its clock runs")
    computer: bool = Field(
        description="the computer plays this seat now (its person ran out of time or is away)"
    )
    resigned: bool = Field(default=False, description="its person resigned")


class ClockInfo(BaseModel):
    """A table's clocks as of the message (the client counts down from there)."""

    mode: ClockMode
    seconds: int
    increment: int
    on_timeout: OnTimeout
    level: str
    started: bool = Field(description="the clocks run (every seat has been taken)")
    seats: list[SeatClock]


class Ending(BaseModel):
    """A game ended outside its rules: a seat resigned or ran out of time."""

    reason: EndReason
    seat: int = Field(description="the seat that resigned or ran out of time")
    winners: list[int] = Field(description="the seats that won")
    text: str = Field(description="in the reader's language, e.g. 'Seat 2 (Anna) resigned'")
