"""Alembic environment: run by koth.server.database.migrate with a live connection
(``config.attributes["connection"]``), or standalone with ``sqlalchemy.url`` set."""

from __future__ import annotations

from alembic import context
from sqlalchemy import engine_from_config, pool

from koth.server.database import Base
from koth.server.games import friends_store as _friends_store  # noqa: F401  (registers its tables)
from koth.server.games import rows as _games_rows  # noqa: F401  (registers its tables)
from koth.server.quiz import store as _quiz_store  # noqa: F401  (registers its tables)
from koth.server.quiz.season import store as _season_store  # noqa: F401  (registers its tables)

config = context.config
target_metadata = Base.metadata


def run_migrations() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        context.configure(connection=connection, target_metadata=target_metadata)
        with context.begin_transaction():
            context.run_migrations()
        return
    engine = engine_from_config(
        config.get_section(config.config_ini_section) or {},
        prefix="sqlalchemy.",
        poolclass=pool.NullPool,
    )
    with engine.connect() as conn:
        context.configure(connection=conn, target_metadata=target_metadata)
        with context.begin_transaction():
            context.run_migrations()


if context.is_offline_mode():
    context.configure(url=config.get_main_option("sqlalchemy.url"), target_metadata=target_metadata)
    with context.begin_transaction():
        context.run_migrations()
else:
    run_migrations()
