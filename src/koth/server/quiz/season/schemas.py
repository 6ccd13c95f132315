"""Request and response bodies of seasons (series of quiz events)."""

from __future__ import annotations

from pydantic import BaseModel, Field

from koth.server.bodies import RequestBody
from koth.server.quiz.names import TEAM_NAME_MAX
from koth.server.quiz.season.standing import Formula


class _Body(RequestBody):
    pass


class SeriesSettings(_Body):
    formula: Formula = Field("places", description="places, points, or best (best N events)")
    best: int = Field(1, ge=1, le=100, description="the N of the best-N formula")


class CreateSeries(SeriesSettings):
    title: str = Field(min_length=1, max_length=100)


class AddEvent(_Body):
    event_id: str = Field(min_length=1, max_length=32)
    event_token: str = Field(
        min_length=1, max_length=200, description="the event's host token: only its host adds it"
    )


class MergeTeams(_Body):
    spelling: str = Field(min_length=1, max_length=TEAM_NAME_MAX)
    into: str = Field(min_length=1, max_length=TEAM_NAME_MAX)


class CreatedSeries(BaseModel):
    id: str
    host_token: str = Field(description="shown once: keep it secret")
    page: str


class SeriesEventInfo(BaseModel):
    event_id: str
    title: str
    finished: bool


class SeasonResult(BaseModel):
    place: int
    points: int


class SeasonLineOut(BaseModel):
    rank: int
    team: str
    score: int
    played: int
    results: dict[str, SeasonResult | None] = Field(description="per event id")


class SeriesTable(BaseModel):
    id: str
    title: str
    formula: Formula
    best: int
    events: list[SeriesEventInfo]
    merges: dict[str, str] = Field(description="name key -> the name key it was merged into")
    lines: list[SeasonLineOut]
