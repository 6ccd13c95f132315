"""Errors of quiz hosting, on top of the web app's :class:`ApiError` (status + code)."""

from __future__ import annotations

from http import HTTPStatus

from koth.server.errors import ApiError, ForbiddenError, NotFoundError


class QuizConflictError(ApiError):
    """The request does not fit the event's phase (the game has not started, ...)."""

    status = HTTPStatus.CONFLICT
    code = "wrong_phase"


class AnsweringClosedError(ApiError):
    status = HTTPStatus.CONFLICT
    code = "answering_closed"


class AlreadyAnsweredError(ApiError):
    status = HTTPStatus.CONFLICT
    code = "already_answered"


class NameTakenError(ApiError):
    status = HTTPStatus.CONFLICT
    code = "name_taken"


class JoinClosedError(ApiError):
    status = HTTPStatus.CONFLICT
    code = "join_closed"


class InvalidQuizRequestError(ApiError):
    status = HTTPStatus.UNPROCESSABLE_ENTITY
    code = "invalid_request"


class StorageError(ApiError):
    """The database refused the write; nothing was acknowledged. Retry."""

    status = HTTPStatus.SERVICE_UNAVAILABLE
    code = "storage_unavailable"


__all__ = [
    "AlreadyAnsweredError",
    "AnsweringClosedError",
    "ForbiddenError",
    "InvalidQuizRequestError",
    "JoinClosedError",
    "NameTakenError",
    "NotFoundError",
    "QuizConflictError",
    "StorageError",
]
