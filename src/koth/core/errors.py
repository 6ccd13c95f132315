"""Typed errors shared by every game of the platform.

Every error that rejects an action is raised *before* anything changes, so a
caller that catches it still holds the state it had.
"""

from __future__ import annotations


class KothError(Exception):
    """Base class of every error raised on purpose by koth."""


class InvalidParamsError(KothError, ValueError):
    """Game parameters (or a game configuration) are malformed or out of range."""


class InvalidActionError(KothError, ValueError):
    """The text or value given is not an action of this game at all (malformed notation,
    unknown action id)."""


class IllegalActionError(KothError, ValueError):
    """A well-formed action that the rules do not allow now.

    The message names the action, the rule it breaks and the relevant part of the state
    (for logs and developers); ``reason`` is what a player is told: why, and the rule.
    """

    def __init__(self, message: str, *, rule: str | None = None, reason: str | None = None) -> None:
        super().__init__(message)
        self.rule = rule
        self.reason = reason or message


class NotYourTurnError(IllegalActionError):
    """A player tried to act while it is not among the players to move."""


class GameOverError(IllegalActionError):
    """An action was submitted after the game ended."""


class RecordError(KothError, ValueError):
    """A game record could not be read or replayed.

    ``index`` is the position of the offending entry in the record's move list
    (None when the record itself is malformed).
    """

    def __init__(self, message: str, *, index: int | None = None, rule: str | None = None) -> None:
        super().__init__(message)
        self.index = index
        self.rule = rule
