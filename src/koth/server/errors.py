"""API errors: each has an HTTP status and a stable code; all reach clients as
``{"error": {"code": ..., "message": ..., "rule": ...}}``."""

from __future__ import annotations

from http import HTTPStatus

from koth.core.errors import (
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    InvalidParamsError,
    KothError,
    NotYourTurnError,
)


class ApiError(KothError):
    """An error with an HTTP status and a machine-readable code."""

    status: int = HTTPStatus.BAD_REQUEST
    code: str = "bad_request"

    def __init__(self, message: str, *, rule: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule

    def to_json(self) -> dict[str, object]:
        body: dict[str, object] = {"code": self.code, "message": self.message}
        if self.rule is not None:
            body["rule"] = self.rule
        return {"error": body}


class NotFoundError(ApiError):
    status = HTTPStatus.NOT_FOUND
    code = "not_found"


class UnknownGameError(ApiError):
    status = HTTPStatus.NOT_FOUND
    code = "unknown_game"


class ForbiddenError(ApiError):
    """A missing or wrong seat token, or acting for a seat one does not hold."""

    status = HTTPStatus.FORBIDDEN
    code = "forbidden"


class StaleVersionError(ApiError):
    """The action was based on an older version of the game than the stored one."""

    status = HTTPStatus.CONFLICT
    code = "stale"


class AlreadySubmittedError(ApiError):
    status = HTTPStatus.CONFLICT
    code = "already_submitted"


class NotFinishedError(ApiError):
    status = HTTPStatus.CONFLICT
    code = "not_finished"


class MalformedRequestError(ApiError):
    status = HTTPStatus.UNPROCESSABLE_ENTITY
    code = "malformed_request"


def api_error_from(exc: KothError) -> ApiError:
    """The API error for a typed error of the rules (order matters: subclasses first)."""
    if isinstance(exc, ApiError):
        return exc
    rule = getattr(exc, "rule", None)
    if isinstance(exc, GameOverError):
        return _with(HTTPStatus.CONFLICT, "game_over", str(exc), rule)
    if isinstance(exc, NotYourTurnError):
        return _with(HTTPStatus.CONFLICT, "not_your_turn", str(exc), rule)
    if isinstance(exc, IllegalActionError):
        return _with(HTTPStatus.BAD_REQUEST, "illegal_action", str(exc), rule)
    if isinstance(exc, InvalidActionError):
        return _with(HTTPStatus.BAD_REQUEST, "invalid_action", str(exc), None)
    if isinstance(exc, InvalidParamsError):
        return _with(HTTPStatus.UNPROCESSABLE_ENTITY, "invalid_params", str(exc), None)
    return _with(HTTPStatus.BAD_REQUEST, "bad_request", str(exc), rule)


def _with(status: int, code: str, message: str, rule: str | None) -> ApiError:
    error = ApiError(message, rule=rule)
    error.status = status
    error.code = code
    return error
