"""Engines, the one declarative base of every table, and migrations: SQLite (WAL,
synchronous=FULL) or PostgreSQL."""

from __future__ import annotations

import fcntl
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.engine import make_url
from sqlalchemy.orm import DeclarativeBase

#: shipped inside the package, so an installed wheel can migrate its own database
MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"


class Base(DeclarativeBase):
    """The base of every table of the web app (games and quiz events alike), so one
    metadata describes the whole schema that the migrations create."""


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # WAL lets readers run beside the single writer; synchronous=FULL makes a commit
    # durable before it returns, so an acknowledged action survives a power cut or kill.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.close()


def check_database_url(url: str) -> str:
    """The backend of ``url`` ("sqlite" or "postgresql"); ValueError names what is wrong."""
    try:
        parsed = make_url(url)
    except Exception:
        raise ValueError(
            f"{url!r} is not a database URL (sqlite:///path or postgresql+psycopg://...)"
        ) from None
    backend = parsed.get_backend_name()
    if backend not in ("sqlite", "postgresql"):
        raise ValueError(f"{url!r}: koth runs on sqlite or postgresql, not {backend!r}")
    return backend


def _sqlite_path(url: str) -> Path | None:
    database = make_url(url).database
    if not database or database == ":memory:":
        return None
    return Path(database).expanduser().resolve()


def sqlite_in_use(url: str) -> str | None:
    """The SQLite file of ``url`` if another process serves it now, else None."""
    path = _sqlite_path(url)
    if path is None or not path.parent.exists():
        return None
    try:
        SqliteOwner(path).release()
    except SqliteBusyError:
        return str(path)
    return None


class SqliteBusyError(RuntimeError):
    """Another process serves this SQLite file."""


class SqliteOwner:
    """An exclusive claim on a SQLite file by one serving process (a lock file beside
    it): a second process on the same file would not hear of the first one's changes,
    so it is refused. The operating system lets go of it when the process dies."""

    def __init__(self, path: Path) -> None:
        self.path = path.with_name(path.name + ".koth-lock")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._file = self.path.open("a")
        try:
            fcntl.flock(self._file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self._file.close()
            raise SqliteBusyError(
                f"another koth serve serves {path}: SQLite serves one process only; for "
                "several use PostgreSQL (postgresql+psycopg://user@host/db)"
            ) from None

    @classmethod
    def of(cls, url: str) -> SqliteOwner | None:
        """The claim on ``url``'s file (None for PostgreSQL or an in-memory SQLite)."""
        if make_url(url).get_backend_name() != "sqlite":
            return None
        path = _sqlite_path(url)
        return None if path is None else cls(path)

    def release(self) -> None:
        fcntl.flock(self._file, fcntl.LOCK_UN)
        self._file.close()


def make_engine(url: str) -> Engine:
    """An engine for ``url``; a SQLite file's folder is created if missing. A database
    error never shows the statement's parameters (a token's hash, a join code): its
    message, and so any log line of it, says they were hidden."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        if parsed.database and parsed.database != ":memory:":
            Path(parsed.database).expanduser().parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(
            url,
            connect_args={"check_same_thread": False, "timeout": 10},
            pool_pre_ping=True,
            hide_parameters=True,
        )
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    return create_engine(
        url, pool_pre_ping=True, pool_size=10, max_overflow=10, hide_parameters=True
    )


def alembic_config(engine: Engine) -> Config:
    """An Alembic config built in code (no alembic.ini needed)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    # configparser interpolates "%": escape it, or a password holding one would break
    url = engine.url.render_as_string(hide_password=False).replace("%", "%%")
    config.set_main_option("sqlalchemy.url", url)
    return config


def migrate(engine: Engine) -> None:
    """Bring the schema to the newest revision (idempotent). On PostgreSQL the workers
    that start together take turns (an advisory lock held by the migration's
    transaction), so the first migrates and the others find the schema current."""
    config = alembic_config(engine)
    with engine.begin() as connection:
        if engine.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(hashtext('koth-migrate'))"))
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
