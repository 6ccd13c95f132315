"""``koth serve``: run the web app with Uvicorn."""

from __future__ import annotations

import copy
import os
import tempfile
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console

from koth.games.terminal import fail

console = Console()


def serve_command(
    host: Annotated[str | None, typer.Option(help="Interface to listen on.")] = None,
    port: Annotated[int | None, typer.Option(help="TCP port.")] = None,
    database: Annotated[
        str | None,
        typer.Option(
            help="The database as an SQLAlchemy URL: sqlite:///koth.sqlite3 for a file, "
            "or a PostgreSQL URL: postgresql+psycopg:// then USER@HOST/DB (see "
            "docs/deploy.md). Default: a SQLite file in the user data directory."
        ),
    ] = None,
    workers: Annotated[
        int,
        typer.Option(
            min=1,
            help="Server processes (Uvicorn's workers); more than one needs PostgreSQL.",
        ),
    ] = 1,
    forwarded_allow_ips: Annotated[
        str | None,
        typer.Option(
            help="Addresses of the reverse proxies whose X-Forwarded-For is trusted "
            "(the client address that rate limits count)."
        ),
    ] = None,
) -> None:
    """Host games in the browser: lobby, live play, computer seats, replays and quiz events.

    Options fall back to the KOTH_HOST, KOTH_PORT and KOTH_DATABASE environment variables.
    """
    import uvicorn
    from pydantic import ValidationError

    from koth.server.database import check_database_url, sqlite_in_use
    from koth.server.settings import Settings
    from koth.server.sockets import MAX_MESSAGE_BYTES
    from koth.server.supervision import SUPERVISOR_ENV

    given: dict[str, Any] = {"host": host, "port": port, "database": database}
    try:
        settings = Settings(**{k: v for k, v in given.items() if v is not None})
    except ValidationError as exc:
        problem = exc.errors()[0]
        field = ".".join(str(p) for p in problem.get("loc", ())) or "setting"
        _fail(f"{field} (option --{field} or KOTH_{field.upper()}): {problem.get('msg')}")
    url = settings.database_url()
    try:
        backend = check_database_url(url)
        busy = sqlite_in_use(url) if backend == "sqlite" else None
    except ValueError as exc:
        _fail(str(exc))
    if backend == "sqlite" and (workers > 1 or busy):
        why = f"{workers} workers" if workers > 1 else f"another process serves {busy}"
        _fail(
            f"{why}: SQLite serves one process only; for several use PostgreSQL "
            "(--database postgresql+psycopg://user@host/db)"
        )
    # the workers build their settings from the environment
    os.environ.update(
        {"KOTH_HOST": settings.host, "KOTH_PORT": str(settings.port), "KOTH_DATABASE": url}
    )
    if workers > 1:  # each worker stops when this supervisor dies
        os.environ[SUPERVISOR_ENV] = str(os.getpid())
    if workers > 1 and "PROMETHEUS_MULTIPROC_DIR" not in os.environ:
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="koth-metrics-")
    shown = url.split("@")[-1] if "@" in url else url
    console.print(
        f"[bold]koth[/] serving on http://{settings.host}:{settings.port} with {workers} "
        f"process{'es' if workers > 1 else ''}  (database: {shown})",
        highlight=False,
    )
    options: dict[str, Any] = dict(
        factory=True,
        host=settings.host,
        port=settings.port,
        workers=workers,
        log_config=log_config(),
        access_log=False,  # koth.access logs each request without query or headers
        forwarded_allow_ips=forwarded_allow_ips,
        proxy_headers=forwarded_allow_ips is not None,
        # a client frame is at most a hello: a larger one is refused unread
        ws_max_size=MAX_MESSAGE_BYTES,
        # no compression: a move's message is built once per audience, but compressing
        # it is paid per connection (a game's hundred spectators cost a hundred)
        ws_per_message_deflate=False,
        # the supervisor replaces a worker that does not answer its ping in time: a
        # worker still starting on a busy machine is slow, not hung (a dead one is seen
        # at once either way)
        timeout_worker_healthcheck=WORKER_HEALTHCHECK_S,
    )
    if workers == 1:
        uvicorn.run("koth.server.app:create_app", **options)
        return
    from koth.server.listening import check_port_free, run_workers

    try:
        check_port_free(settings.host, settings.port)
    except OSError as exc:
        _fail(str(exc))
    run_workers(uvicorn.Config("koth.server.app:create_app", **options))


#: how long ``--workers``' supervisor waits for a worker's answer before replacing it
WORKER_HEALTHCHECK_S = 60


def log_config() -> dict[str, Any]:
    """Uvicorn's logging, with the app's access log (one JSON line a request) beside it."""
    from uvicorn.config import LOGGING_CONFIG

    config = copy.deepcopy(LOGGING_CONFIG)
    config["formatters"]["line"] = {"format": "%(asctime)s %(name)s %(message)s"}
    config["handlers"]["koth"] = {
        "formatter": "line",
        "class": "logging.StreamHandler",
        "stream": "ext://sys.stderr",
    }
    config["loggers"]["koth"] = {"handlers": ["koth"], "level": "INFO", "propagate": False}
    return config


def _fail(message: str) -> NoReturn:
    raise fail(message)
