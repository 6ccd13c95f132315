"""Typed, validated game parameters."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self

from pydantic import BaseModel, ConfigDict, ValidationError

from koth.core.errors import InvalidParamsError


class GameParams(BaseModel):
    """Base class of every game's parameters.

    Subclasses declare fields with defaults and ``Field(description=...)``; unknown keys
    are rejected, values are checked, and an instance is immutable.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", validate_default=True)

    @classmethod
    def parse(cls, data: Mapping[str, Any] | GameParams | None = None, **overrides: Any) -> Self:
        """Build validated parameters, raising InvalidParamsError with a readable message."""
        if isinstance(data, cls):
            base: dict[str, Any] = data.model_dump()
        elif isinstance(data, GameParams):
            raise InvalidParamsError(
                f"{type(data).__name__} given where {cls.__name__} is expected"
            )
        else:
            base = dict(data or {})
        base.update(overrides)
        try:
            return cls.model_validate(base)
        except ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(str(p) for p in err['loc']) or 'params'}: {err['msg']}"
                for err in exc.errors()
                if err["type"] != "extra_forbidden"
            )
            unknown = [str(e["loc"][0]) for e in exc.errors() if e["type"] == "extra_forbidden"]
            if unknown:
                names = ", ".join(repr(name) for name in unknown)
                valid = ", ".join(cls.model_fields)
                known = f"unknown option {names} (the options are: {valid})"
                problems = f"{known}; {problems}" if problems else known
            raise InvalidParamsError(f"invalid {cls.__name__}: {problems}") from None

    def to_json(self) -> dict[str, Any]:
        return self.model_dump(mode="json")
