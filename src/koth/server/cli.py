"""``koth serve``: run the web app with Uvicorn."""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich.console import Console

console = Console()


def serve_command(
    host: Annotated[str | None, typer.Option(help="Interface to listen on.")] = None,
    port: Annotated[int | None, typer.Option(help="TCP port.")] = None,
    database: Annotated[
        str | None,
        typer.Option(
            help="SQLAlchemy URL, e.g. sqlite:///koth.sqlite3 or "
            "postgresql+psycopg://user@host/db (default: a SQLite file in the user data "
            "directory)."
        ),
    ] = None,
) -> None:
    """Host games in the browser: lobby, live play, computer seats and replays.

    Options fall back to the KOTH_HOST, KOTH_PORT and KOTH_DATABASE environment variables.
    """
    import uvicorn

    from koth.server.app import create_app
    from koth.server.settings import Settings

    given: dict[str, Any] = {"host": host, "port": port, "database": database}
    settings = Settings(**{k: v for k, v in given.items() if v is not None})
    app = create_app(settings)
    url = settings.database_url()
    shown = url.split("@")[-1] if "@" in url else url
    console.print(
        f"[bold]koth[/] serving on http://{settings.host}:{settings.port}  (database: {shown})",
        highlight=False,
    )
    uvicorn.run(app, host=settings.host, port=settings.port, log_level="info")
