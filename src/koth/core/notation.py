"""How action values print: as their notation."""

from __future__ import annotations


class Notation:
    """Base of a game's action values: ``repr`` is the notation, ``Single('6h')``, as
    python-chess prints ``Move.from_uci('g1f3')``; the text parses back to the action.
    A frozen dataclass deriving from it passes ``repr=False``."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({str(self)!r})"
