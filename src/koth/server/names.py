"""Names people type on phones (quiz teams, players at a game table): normalised and
checked alike. A name is stored NFKC-normalised with its spacing tidied and may not hold
control, direction-override, zero-width or other invisible characters."""

from __future__ import annotations

import unicodedata

from koth.server.errors import InvalidRequestError

#: Unicode categories that never show: control, format (bidi overrides, zero-width
#: joiners...), surrogates, private use and unassigned code points
INVISIBLE = frozenset({"Cc", "Cf", "Cs", "Co", "Cn"})


def normal_name(name: str) -> str:
    """``name`` NFKC-normalised with its spacing tidied (what is stored and shown)."""
    return " ".join(unicodedata.normalize("NFKC", name).split())


def name_problem(name: str, what: str, most: int) -> str | None:
    """Why ``name`` (already normalised) cannot be ``what`` (e.g. "a team name") of 1 to
    ``most`` visible characters, or None."""
    hidden = sorted({f"U+{ord(c):04X}" for c in name if unicodedata.category(c) in INVISIBLE})
    if hidden:
        return (
            f"{what} may not hold control, direction or zero-width characters "
            f"({', '.join(hidden[:3])})"
        )
    visible = sum(1 for c in name if not c.isspace())
    if not visible >= 1 or len(name) > most:
        return f"{what} has 1 to {most} visible characters"
    return None


#: the longest name a player may show at a game table
PLAYER_NAME_MAX = 24


def player_name(raw: str) -> str:
    """``raw`` as a player's display name (normalised), or InvalidRequestError naming
    what is wrong with it."""
    name = normal_name(raw)
    problem = name_problem(name, "a player's name", PLAYER_NAME_MAX)
    if problem is not None:
        raise InvalidRequestError(f"{problem}: {raw[: PLAYER_NAME_MAX * 2]!r}")
    return name
