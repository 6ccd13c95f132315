"""The web app's errors: domain errors raised in the features, HTTP only at the edge.

Services, stores and the quiz fold raise the classes below (all :class:`KothError`, like
the rules' own typed errors); none of them knows about HTTP. :data:`ERROR_TABLE` maps
every error class to its HTTP status and its stable code, and :class:`ErrorCode` lists
every code a client can receive, once. Clients get ``{"error": {"code", "message",
"rule"?}}``.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

from pydantic import BaseModel, Field

from koth.core.errors import (
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    InvalidParamsError,
    KothError,
    NotYourTurnError,
)
from koth.i18n import DEFAULT, N_, Translator


class ErrorCode(enum.StrEnum):
    """Every stable machine-readable error code of the API."""

    BAD_REQUEST = "bad_request"
    MALFORMED_REQUEST = "malformed_request"
    INVALID_PARAMS = "invalid_params"
    INVALID_REQUEST = "invalid_request"
    INVALID_ACTION = "invalid_action"
    ILLEGAL_ACTION = "illegal_action"
    FORBIDDEN = "forbidden"
    NOT_FOUND = "not_found"
    UNKNOWN_GAME = "unknown_game"
    METHOD_NOT_ALLOWED = "method_not_allowed"
    STALE = "stale"
    NOT_YOUR_TURN = "not_your_turn"
    GAME_OVER = "game_over"
    ALREADY_SUBMITTED = "already_submitted"
    NOT_SUBMITTED = "not_submitted"
    NOT_FINISHED = "not_finished"
    WRONG_PHASE = "wrong_phase"
    ANSWERING_CLOSED = "answering_closed"
    ALREADY_ANSWERED = "already_answered"
    NAME_TAKEN = "name_taken"
    JOIN_CLOSED = "join_closed"
    SEAT_TAKEN = "seat_taken"
    STORAGE_UNAVAILABLE = "storage_unavailable"
    RATE_LIMITED = "rate_limited"
    TOO_MANY_CONNECTIONS = "too_many_connections"
    PAYLOAD_TOO_LARGE = "payload_too_large"
    HTTP_ERROR = "http_error"


class ServerError(KothError):
    """A refused request of the web app (domain level: no HTTP here).

    ``message`` is English with ``{name}`` parameters, marked ``N_`` where it is raised
    so the catalogs translate it (docs/translating.md); ``message`` holds it filled in,
    ``template`` and ``params`` let :func:`api_error_from` word it in the reader's
    language."""

    def __init__(self, message: str, *, rule: str | None = None, **params: object) -> None:
        text = message.format(**params) if params else message
        super().__init__(text)
        self.message = text
        self.template = message
        self.params = params
        self.rule = rule


class NotFoundError(ServerError):
    """No such game, quiz event, join code, team or answer."""


class UnknownGameError(NotFoundError):
    """No game of that name is registered."""


class ForbiddenError(ServerError):
    """A missing or wrong token, or acting for a seat or team one does not hold."""


class StaleVersionError(ServerError):
    """The action was based on an older version of the game than the stored one."""


class AlreadySubmittedError(ServerError):
    """The seat has already submitted its secret action at this simultaneous node."""


class NotSubmittedError(ServerError):
    """The seat has no secret action waiting to be taken back at this point."""


class NotFinishedError(ServerError):
    """What was asked for exists only once the game is over."""


class WrongPhaseError(ServerError):
    """The request does not fit the quiz event's phase (not started, no open question...)."""


class AnsweringClosedError(ServerError):
    """The answer came before answering opened or after it closed."""


class AlreadyAnsweredError(ServerError):
    """The team (or this submission id) has already answered the question."""


class NameTakenError(ServerError):
    """A team of that name has joined already (or a join code collided)."""


class JoinClosedError(ServerError):
    """The event no longer takes new teams."""


class SeatTakenError(ServerError):
    """The seat is not open: a person holds it already (or it is the computer's)."""


class IllegalDeclarationError(ServerError, IllegalActionError):
    """A declaration the quiz rules do not allow now (Q3, Q8, Q15, Q21): an illegal
    action, worded by the web app."""


class InvalidRequestError(ServerError):
    """A well-formed request whose values cannot be used (a quiz setting, a team name)."""


class MalformedRequestError(ServerError):
    """The request body or query does not have the documented shape."""


class StorageUnavailableError(ServerError):
    """The database refused the write; nothing was acknowledged. Retry."""


class RateLimitedError(ServerError):
    """Too many requests of one kind from one client address; retry after the pause."""

    def __init__(self, message: str, *, retry_after: int, **params: object) -> None:
        super().__init__(message, rule=None, **params)
        self.retry_after = retry_after


class PayloadTooLargeError(ServerError):
    """The request body is larger than the server takes (refused before it is read)."""


class TooManyConnectionsError(ServerError):
    """A game, event or client address holds as many live connections as allowed."""


@dataclass(frozen=True, slots=True)
class ErrorKind:
    status: HTTPStatus
    code: ErrorCode
    description: str


#: error class -> HTTP status and code; looked up along the class's MRO, so a subclass
#: without its own row gets its parent's
ERROR_TABLE: dict[type[KothError], ErrorKind] = {
    NotFoundError: ErrorKind(HTTPStatus.NOT_FOUND, ErrorCode.NOT_FOUND, N_("no such resource")),
    UnknownGameError: ErrorKind(
        HTTPStatus.NOT_FOUND, ErrorCode.UNKNOWN_GAME, N_("no game of that name")
    ),
    ForbiddenError: ErrorKind(
        HTTPStatus.FORBIDDEN, ErrorCode.FORBIDDEN, N_("missing or wrong token")
    ),
    StaleVersionError: ErrorKind(
        HTTPStatus.CONFLICT, ErrorCode.STALE, N_("the game has moved on: reload and retry")
    ),
    AlreadySubmittedError: ErrorKind(
        HTTPStatus.CONFLICT, ErrorCode.ALREADY_SUBMITTED, N_("this seat has already chosen")
    ),
    NotSubmittedError: ErrorKind(
        HTTPStatus.CONFLICT, ErrorCode.NOT_SUBMITTED, N_("this seat has no choice to take back")
    ),
    NotFinishedError: ErrorKind(
        HTTPStatus.CONFLICT, ErrorCode.NOT_FINISHED, N_("only once the game is over")
    ),
    WrongPhaseError: ErrorKind(
        HTTPStatus.CONFLICT, ErrorCode.WRONG_PHASE, N_("not possible at this point of the event")
    ),
    AnsweringClosedError: ErrorKind(
        HTTPStatus.CONFLICT, ErrorCode.ANSWERING_CLOSED, N_("answering is not open")
    ),
    AlreadyAnsweredError: ErrorKind(
        HTTPStatus.CONFLICT, ErrorCode.ALREADY_ANSWERED, N_("only the first answer counts")
    ),
    NameTakenError: ErrorKind(
        HTTPStatus.CONFLICT, ErrorCode.NAME_TAKEN, N_("a team of that name has joined")
    ),
    JoinClosedError: ErrorKind(
        HTTPStatus.CONFLICT, ErrorCode.JOIN_CLOSED, N_("the event takes no new teams")
    ),
    SeatTakenError: ErrorKind(
        HTTPStatus.CONFLICT, ErrorCode.SEAT_TAKEN, N_("this seat is not open any more")
    ),
    InvalidRequestError: ErrorKind(
        HTTPStatus.UNPROCESSABLE_ENTITY, ErrorCode.INVALID_REQUEST, N_("values that cannot be used")
    ),
    MalformedRequestError: ErrorKind(
        HTTPStatus.UNPROCESSABLE_ENTITY,
        ErrorCode.MALFORMED_REQUEST,
        N_("the request does not have the documented shape"),
    ),
    StorageUnavailableError: ErrorKind(
        HTTPStatus.SERVICE_UNAVAILABLE,
        ErrorCode.STORAGE_UNAVAILABLE,
        N_("the database refused the write; nothing was stored: retry"),
    ),
    RateLimitedError: ErrorKind(
        HTTPStatus.TOO_MANY_REQUESTS,
        ErrorCode.RATE_LIMITED,
        N_("too many requests from this address: retry after the seconds in Retry-After"),
    ),
    PayloadTooLargeError: ErrorKind(
        HTTPStatus.REQUEST_ENTITY_TOO_LARGE,
        ErrorCode.PAYLOAD_TOO_LARGE,
        N_("the request body is larger than the server takes"),
    ),
    TooManyConnectionsError: ErrorKind(
        HTTPStatus.TOO_MANY_REQUESTS,
        ErrorCode.TOO_MANY_CONNECTIONS,
        N_("as many live connections as allowed are open"),
    ),
    GameOverError: ErrorKind(HTTPStatus.CONFLICT, ErrorCode.GAME_OVER, N_("the game is over")),
    NotYourTurnError: ErrorKind(
        HTTPStatus.CONFLICT, ErrorCode.NOT_YOUR_TURN, N_("this seat is not to move")
    ),
    IllegalActionError: ErrorKind(
        HTTPStatus.BAD_REQUEST, ErrorCode.ILLEGAL_ACTION, N_("the action breaks a rule")
    ),
    InvalidActionError: ErrorKind(
        HTTPStatus.BAD_REQUEST, ErrorCode.INVALID_ACTION, N_("not an action of this game")
    ),
    InvalidParamsError: ErrorKind(
        HTTPStatus.UNPROCESSABLE_ENTITY, ErrorCode.INVALID_PARAMS, N_("invalid game parameters")
    ),
    KothError: ErrorKind(HTTPStatus.BAD_REQUEST, ErrorCode.BAD_REQUEST, N_("refused")),
}


@dataclass(frozen=True, slots=True)
class ApiError:
    """An error as a client receives it."""

    status: int
    code: ErrorCode
    message: str
    rule: str | None = None
    headers: tuple[tuple[str, str], ...] = ()

    def to_json(self) -> dict[str, object]:
        body: dict[str, object] = {"code": self.code.value, "message": self.message}
        if self.rule is not None:
            body["rule"] = self.rule
        return {"error": body}


def kind_of(exc_type: type[KothError]) -> ErrorKind:
    for cls in exc_type.__mro__:
        kind = ERROR_TABLE.get(cls)
        if kind is not None:
            return kind
    return ERROR_TABLE[KothError]  # pragma: no cover (KothError is in every MRO)


def api_error_from(exc: KothError, lang: str = DEFAULT) -> ApiError:
    """The status, code, message and rule a client gets for ``exc``, worded in ``lang``:
    the error's own words where the catalog has them, else (a rule engine's refusal, for
    instance) its kind's description; English always has the error's own words."""
    kind = kind_of(type(exc))
    _ = Translator(lang)
    if isinstance(exc, ServerError) and _.translates(exc.template):
        message = _(exc.template, **exc.params)
    elif _.lang == DEFAULT:
        message = exc.message if isinstance(exc, ServerError) else str(exc)
    else:
        message = _(kind.description)
    rule = getattr(exc, "rule", None)
    if message == _(kind.description) and isinstance(rule, str):
        message += f" ({rule})"
    headers = (("Retry-After", str(exc.retry_after)),) if isinstance(exc, RateLimitedError) else ()
    return ApiError(
        int(kind.status), kind.code, message, rule if isinstance(rule, str) else None, headers
    )


class ErrorBody(BaseModel):
    code: ErrorCode = Field(description="stable machine-readable code, e.g. stale")
    message: str
    rule: str | None = Field(
        default=None, description="the rule an illegal action breaks, if known"
    )


class ErrorResponse(BaseModel):
    """The body of every error response."""

    error: ErrorBody


def error_responses(*errors: type[KothError]) -> dict[int | str, dict[str, Any]]:
    """OpenAPI ``responses`` for routes that may raise ``errors``: one entry per status,
    naming its codes."""
    by_status: dict[int, list[ErrorKind]] = {}
    for error in errors:
        kind = kind_of(error)
        if kind not in by_status.setdefault(int(kind.status), []):
            by_status[int(kind.status)].append(kind)
    return {
        status: {
            "model": ErrorResponse,
            "description": "; ".join(f"`{k.code}`: {k.description}" for k in kinds),
        }
        for status, kinds in sorted(by_status.items())
    }
