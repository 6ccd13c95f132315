"""The tables the code declares are exactly the schema the migrations create."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from koth.server.database import Base, make_engine, migrate
from koth.server.games import rows as games_rows
from koth.server.quiz import store as quiz_store
from koth.server.quiz.season import store as season_store


def test_every_table_is_in_the_one_metadata() -> None:
    tables = set(Base.metadata.tables)
    assert {"games", "seats", "moves", "pending"} <= tables
    assert {"quiz_events", "quiz_log", "quiz_pictures", "quiz_series"} <= tables
    rows = (games_rows.GameRow, quiz_store.QuizEventRow, quiz_store.QuizLogRow)
    for row in (*rows, quiz_store.QuizPictureRow, season_store.QuizSeriesRow):
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


def test_the_lobby_facts_migration_counts_the_stored_decisions(database_url: str) -> None:
    from alembic import command
    from sqlalchemy import text

    from koth.server.database import alembic_config

    engine = make_engine(database_url)
    try:
        config = alembic_config(engine)
        with engine.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, "0004_analyses")
            connection.execute(
                text(
                    "INSERT INTO games (id, game_name, params, chance_seed, created, status, "
                    "version) VALUES ('g1', 'toy_duel', '{}', 1, CURRENT_TIMESTAMP, "
                    "'running', 3)"
                )
            )
            for version, move in enumerate(
                (
                    '{"player": -1, "action": "5"}',
                    '{"player": -1, "action": "2"}',
                    '{"player": 0, "action": "stake 2"}',
                ),
                start=1,
            ):
                connection.execute(
                    text(
                        "INSERT INTO moves (game_id, version, move, created) "
                        "VALUES ('g1', :v, :m, CURRENT_TIMESTAMP)"
                    ),
                    {"v": version, "m": move},
                )
        migrate(engine)
        with engine.connect() as connection:
            row = connection.execute(text("SELECT decisions, outcome FROM games")).one()
    finally:
        engine.dispose()
    assert tuple(row) == (1, None)
