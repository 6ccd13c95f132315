"""How action values print: as their notation."""

from __future__ import annotations


def notation_repr(action: object) -> str:
    """The ``repr`` of an action value: its notation, ``Single('6h')``, as python-chess
    prints ``Move.from_uci('g1f3')``; the text parses back to the action. Each action
    class defines ``__repr__`` with it (and ``repr=False`` in its dataclass): the
    compiled build compiles the classes, and a compiled class cannot take its methods
    from a base class that is not compiled."""
    return f"{type(action).__name__}({str(action)!r})"
