"""FastAPI dependencies, as ``Annotated`` aliases for route signatures."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from fastapi.templating import Jinja2Templates
from starlette.requests import HTTPConnection

from koth.server.services.games import GameService
from koth.server.settings import Settings


def get_service(connection: HTTPConnection) -> GameService:
    service: GameService = connection.app.state.service
    return service


def get_settings(connection: HTTPConnection) -> Settings:
    settings: Settings = connection.app.state.settings
    return settings


def get_templates(connection: HTTPConnection) -> Jinja2Templates:
    templates: Jinja2Templates = connection.app.state.templates
    return templates


_bearer = HTTPBearer(
    auto_error=False,
    scheme_name="SeatToken",
    description="The secret seat token of a join link; without it you are a spectator.",
)


def get_seat_token(
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> str | None:
    return credentials.credentials if credentials is not None else None


def base_url(connection: HTTPConnection) -> str:
    """Where join links point: the configured public URL or the one the client used."""
    settings = get_settings(connection)
    return (settings.public_url or str(connection.base_url)).rstrip("/")


ServiceDep = Annotated[GameService, Depends(get_service)]
SettingsDep = Annotated[Settings, Depends(get_settings)]
TemplatesDep = Annotated[Jinja2Templates, Depends(get_templates)]
SeatTokenDep = Annotated[str | None, Depends(get_seat_token)]
BaseUrlDep = Annotated[str, Depends(base_url)]
