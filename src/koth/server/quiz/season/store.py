"""Storage of seasons (series of quiz events): one row each, its settings, events and
merged team spellings in a JSON document (a season holds a few dozen events at most)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, DateTime, Engine, String
from sqlalchemy.orm import Mapped, mapped_column, sessionmaker

from koth.server.database import Base


class QuizSeriesRow(Base):
    __tablename__ = "quiz_series"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    title: Mapped[str] = mapped_column(String(100))
    host_token_hash: Mapped[str] = mapped_column(String(64))
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    data: Mapped[dict[str, Any]] = mapped_column(JSON)


@dataclass
class StoredSeries:
    id: str
    title: str
    host_token_hash: str
    formula: str = "places"
    best: int = 1
    events: list[str] = field(default_factory=list)
    merges: dict[str, str] = field(default_factory=dict)

    def data(self) -> dict[str, Any]:
        return {
            "formula": self.formula,
            "best": self.best,
            "events": list(self.events),
            "merges": dict(self.merges),
        }


class SeriesRepository:
    def __init__(self, engine: Engine) -> None:
        self._sessions = sessionmaker(engine, expire_on_commit=False)

    def create(self, series: StoredSeries) -> None:
        with self._sessions.begin() as session:
            session.add(
                QuizSeriesRow(
                    id=series.id,
                    title=series.title,
                    host_token_hash=series.host_token_hash,
                    created=datetime.now(UTC),
                    data=series.data(),
                )
            )

    def get(self, series_id: str) -> StoredSeries | None:
        with self._sessions() as session:
            row = session.get(QuizSeriesRow, series_id)
            if row is None:
                return None
            data = dict(row.data)
            return StoredSeries(
                row.id,
                row.title,
                row.host_token_hash,
                str(data.get("formula", "places")),
                int(data.get("best", 1)),
                list(data.get("events", [])),
                dict(data.get("merges", {})),
            )

    def save(self, series: StoredSeries) -> None:
        with self._sessions.begin() as session:
            row = session.get(QuizSeriesRow, series.id)
            if row is not None:
                row.data = series.data()
