"""Server settings: one pydantic-settings object, read from ``KOTH_*`` variables."""

from __future__ import annotations

from pathlib import Path

import platformdirs
from limits import parse
from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from koth.games.quiz.pack import AUDIO_MAX_BYTES, PICTURE_MAX_BYTES, VIDEO_MAX_BYTES, FileLimits


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
        default=4,
        ge=1,
        le=64,
        description="processes that run searching computer seats (and threads for the "
        "quick ones); a game uses at most one at a time",
    )
    max_agent_iterations: int = Field(
        default=20_000,
        ge=1,
        description="the largest search budget (iterations per move) a computer seat may have",
    )
    max_agent_seconds: float = Field(
        default=5.0,
        gt=0,
        description="the longest a computer seat may think per move (also caps an iteration "
        "budget: the search stops at whichever comes first)",
    )
    analysis_agent: str = Field(
        default="ismcts:iters=300",
        description="the search agent and budget that analyse finished games for their "
        "replays (each decision also stops at max_agent_seconds)",
    )
    max_body_bytes: int = Field(
        default=256 * 1024, ge=1024, description="largest request body accepted (413 above)"
    )
    quiz_picture_bytes: int = Field(
        default=PICTURE_MAX_BYTES,
        ge=1024,
        description="largest picture of a question pack (it also has to fit in a request "
        "body); `koth quiz pack check` applies the same default",
    )
    quiz_audio_bytes: int = Field(
        default=AUDIO_MAX_BYTES,
        ge=1024,
        description="largest sound (MP3, OGG, M4A) of a question pack; its upload may be this "
        "large whatever max_body_bytes says; `koth quiz pack check` applies the same default",
    )
    quiz_video_bytes: int = Field(
        default=VIDEO_MAX_BYTES,
        ge=1024,
        description="largest video (MP4, WebM) of a question pack; its upload may be this "
        "large whatever max_body_bytes says; `koth quiz pack check` applies the same default",
    )
    quiz_pack_bytes: int = Field(
        default=1024 * 1024,
        ge=1024,
        description="the most a question pack may take once stored (its questions as JSON); "
        "a larger pack is refused",
    )
    sockets_per_game: int = Field(
        default=200,
        ge=1,
        description="spectators' WebSockets one game accepts at once (each seat has 16 of "
        "its own, so spectators never keep a player out)",
    )
    sockets_per_event: int = Field(
        default=3000,
        ge=1,
        description="projector and public WebSockets one quiz event accepts at once (the "
        "judge console and each team have 32 of their own)",
    )
    sockets_per_client: int = Field(
        default=100,
        ge=1,
        description="WebSockets one client address may hold at once (a venue's phones often "
        "share one address)",
    )
    takeover_seconds: float = Field(
        default=5.0,
        gt=0,
        description="how soon another process claims the computer moves that a dead process "
        "had claimed (every process looks twice in this time)",
    )
    clock_check_seconds: float = Field(
        default=1.0,
        gt=0,
        le=60,
        description="how often a process looks for the games' clocks that ran out (each "
        "is acted on once, by one process)",
    )
    broker: str | None = Field(
        default=None,
        description="how processes tell each other of changes: default PostgreSQL's own "
        "LISTEN/NOTIFY (one SQLite process needs none); redis://host:6379 for Redis pub/sub",
    )
    rate_limit_storage: str = Field(
        default="memory://",
        description="where rate-limit counters live: memory:// (one process) or "
        "redis://host:port (shared by every process)",
    )
    rate_create: str = Field(
        default="20/minute", description="games and quiz events created per client address"
    )
    rate_join: str = Field(default="60/minute", description="quiz joins per client address")
    rate_recover: str = Field(
        default="10/minute", description="recovery-code attempts per client address"
    )
    rate_act: str = Field(
        default="600/minute",
        description="moves, answers and declarations per client address",
    )
    rate_lookup: str = Field(
        default="1200/minute",
        description="requests naming a game, event, code or token, per client address",
    )
    rate_ipv6_prefix: int = Field(
        default=64,
        ge=16,
        le=128,
        description="rate limits and the per-address socket cap count an IPv6 client by "
        "the network of this many leading bits of its address (128: the address alone)",
    )
    max_live_games: int = Field(
        default=2000, ge=1, description="games kept in memory; the least recently used go"
    )
    max_live_events: int = Field(
        default=200, ge=1, description="quiz events kept in memory; the least recently used go"
    )
    idle_seconds: float = Field(
        default=3600.0,
        gt=0,
        description="a game or event nobody watched or changed for this long leaves memory "
        "(it is reloaded from the database on the next request)",
    )
    abandon_days: float = Field(
        default=14.0,
        gt=0,
        description="an unfinished game nobody moved in for this many days is deleted "
        "(its links answer 404)",
    )
    extra_games: list[str] = Field(
        default_factory=list,
        description="modules to import at start-up that register more games (plugins, tests)",
    )
    public_url: str | None = Field(
        default=None, description="base URL used in join links (default: taken from each request)"
    )

    @field_validator("rate_create", "rate_join", "rate_recover", "rate_act", "rate_lookup")
    @classmethod
    def _a_rate(cls, value: str) -> str:
        parse(value)  # ValueError: not a rate such as 20/minute
        return value

    @field_validator("analysis_agent")
    @classmethod
    def _an_analyst(cls, value: str) -> str:
        from koth.analysis.engine import analysis_spec

        analysis_spec(value)  # InvalidParamsError (a ValueError): not a search agent spec
        return value

    def database_url(self) -> str:
        return self.database or default_database_url()

    def quiz_file_limits(self) -> FileLimits:
        """The largest picture, sound and video of a question pack (the limits ``koth quiz
        pack check`` applies by default)."""
        return FileLimits(
            picture=self.quiz_picture_bytes,
            audio=self.quiz_audio_bytes,
            video=self.quiz_video_bytes,
        )
