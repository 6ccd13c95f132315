"""Fast construction of frozen, slotted dataclass states for the rules' hot paths."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import MISSING, fields
from typing import Any, TypeVar

T = TypeVar("T")


def fast_constructors(
    cls: type[T], names: Sequence[str] | None = None
) -> tuple[Callable[..., T], Callable[..., T]]:
    """``(new, evolve)`` for a frozen, slotted dataclass without ``__post_init__``, or
    for any slotted class whose fields are ``names`` (its ``__slots__`` in order).

    ``new(*fields)`` builds an instance from every field in order and
    ``evolve(state, **changes)`` is ``dataclasses.replace`` without its per-call
    introspection. Both store each field through its slot descriptor, which skips the
    frozen ``__setattr__`` check that makes the generated ``__init__`` slow. The results
    are ordinary instances, equal to and indistinguishable from constructed ones.
    """
    if names is None:
        names = [f.name for f in fields(cls)]  # type: ignore[arg-type]
    namespace: dict[str, Any] = {"_new": object.__new__, "_cls": cls, "_keep": MISSING}
    for k, name in enumerate(names):
        namespace[f"_set{k}"] = cls.__dict__[name].__set__
    sets = "".join(f" _set{k}(o, {name})\n" for k, name in enumerate(names))
    evolve_sets = "".join(
        f" _set{k}(o, s.{name} if {name} is _keep else {name})\n" for k, name in enumerate(names)
    )
    source = (
        f"def new({', '.join(names)}):\n o = _new(_cls)\n{sets} return o\n"
        f"def evolve(s, *, {', '.join(f'{n}=_keep' for n in names)}):\n"
        f" o = _new(_cls)\n{evolve_sets} return o\n"
    )
    # The way dataclasses itself builds __init__: source made only of the class's own
    # field names, compiled once at import.
    exec(source, namespace)
    return namespace["new"], namespace["evolve"]
