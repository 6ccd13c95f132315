"""The tables the code declares are exactly the schema the migrations create."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from koth.server.database import Base, make_engine, migrate
from koth.server.games import store as games_store
from koth.server.quiz import series_store
from koth.server.quiz import store as quiz_store


def test_every_table_is_in_the_one_metadata() -> None:
    tables = set(Base.metadata.tables)
    assert {"games", "seats", "moves", "pending"} <= tables
    assert {"quiz_events", "quiz_log", "quiz_pictures", "quiz_series"} <= tables
    rows = (games_store.GameRow, quiz_store.QuizEventRow, quiz_store.QuizLogRow)
    for row in (*rows, quiz_store.QuizPictureRow, series_store.QuizSeriesRow):
        assert row.metadata is Base.metadata


def test_the_migrated_database_matches_the_models(database_url: str) -> None:
    engine = make_engine(database_url)
    try:
        migrate(engine)
        with engine.connect() as connection:
            context = MigrationContext.configure(connection, opts={"compare_type": True})
            differences = compare_metadata(context, Base.metadata)
    finally:
        engine.dispose()
    assert differences == []
