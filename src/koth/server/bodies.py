"""The base of every JSON request body: no field it does not document, and no NUL
character in any text (PostgreSQL cannot store one, and no person types one)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, model_validator


def nul_at(data: Any, path: tuple[str, ...] = ()) -> str | None:
    """Where in ``data`` (a parsed JSON value) a text holds U+0000, or None."""
    if isinstance(data, str):
        return ".".join(path) or "body" if "\x00" in data else None
    if isinstance(data, dict):
        items: list[tuple[Any, Any]] = list(data.items())
    elif isinstance(data, list | tuple):
        items = list(enumerate(data))
    else:
        return None
    for key, value in items:
        if isinstance(key, str) and "\x00" in key:
            return ".".join(path) or "body"
        found = nul_at(value, (*path, str(key)))
        if found is not None:
            return found
    return None


def refuse_nul(data: Any) -> Any:
    """``data`` unchanged; ValueError when some text of it holds U+0000."""
    where = nul_at(data)
    if where is not None:
        raise ValueError(f"{where}: a text may not hold the NUL character (U+0000)")
    return data


class RequestBody(BaseModel):
    """A request body: unknown fields and NUL characters are refused (422)."""

    model_config = ConfigDict(extra="forbid")

    @model_validator(mode="before")
    @classmethod
    def _no_nul(cls, data: Any) -> Any:
        return refuse_nul(data)
