"""Server settings: one pydantic-settings object, read from ``KOTH_*`` variables."""

from __future__ import annotations

from pathlib import Path

import platformdirs
from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


def default_database_url() -> str:
    """A SQLite file in the user's data directory (created on first use)."""
    data_dir = Path(platformdirs.user_data_dir("koth", appauthor=False))
    data_dir.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{data_dir / 'koth.sqlite3'}"


class Settings(BaseSettings):
    """Everything ``koth serve`` can be configured with (env prefix ``KOTH_``)."""

    model_config = SettingsConfigDict(env_prefix="KOTH_", extra="ignore")

    host: str = Field(default="127.0.0.1", description="interface to listen on")
    port: int = Field(default=8000, ge=0, le=65535, description="TCP port")
    database: str | None = Field(
        default=None,
        description="SQLAlchemy URL (sqlite:///path or postgresql+psycopg://...); "
        "default: a SQLite file in the user data directory",
    )
    computer_delay: float = Field(
        default=0.4,
        ge=0,
        description="seconds a computer seat waits before it moves (so people see it)",
    )
    agent_workers: int = Field(
        default=2, ge=1, le=64, description="threads that run computer seats"
    )
    extra_games: list[str] = Field(
        default_factory=list,
        description="modules to import at start-up that register more games (plugins, tests)",
    )
    public_url: str | None = Field(
        default=None, description="base URL used in join links (default: taken from each request)"
    )

    def database_url(self) -> str:
        return self.database or default_database_url()
