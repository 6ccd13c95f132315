"""Names people type on phones (quiz teams, players at a game table): normalised and
checked alike. A name is stored NFKC-normalised with its spacing tidied; it may not hold
control, direction-override, zero-width or other invisible characters (Unicode's format,
unassigned and private-use categories, and every Default_Ignorable_Code_Point, from the
Unicode data of the ``regex`` library); and at least one of its characters is a letter
or a digit (a name of combining marks or blank-looking symbols alone shows nothing)."""

from __future__ import annotations

import unicodedata

import regex

from koth.server.errors import InvalidRequestError

#: Unicode categories that never show: control, format (bidi overrides, zero-width
#: joiners...), surrogates, private use and unassigned code points
INVISIBLE = frozenset({"Cc", "Cf", "Cs", "Co", "Cn"})
#: characters Unicode says a renderer may show as nothing at all
IGNORABLE = regex.compile(r"\p{Default_Ignorable_Code_Point}")


def _invisible(char: str) -> bool:
    return unicodedata.category(char) in INVISIBLE or IGNORABLE.match(char) is not None


def normal_name(name: str) -> str:
    """``name`` NFKC-normalised with its spacing tidied (what is stored and shown)."""
    return " ".join(unicodedata.normalize("NFKC", name).split())


def name_problem(name: str, what: str, most: int) -> str | None:
    """Why ``name`` (already normalised) cannot be ``what`` (e.g. "a team name") of 1 to
    ``most`` visible characters, or None."""
    hidden = sorted({f"U+{ord(c):04X}" for c in name if _invisible(c)})
    if hidden:
        return (
            f"{what} may not hold control, direction, zero-width or other invisible "
            f"characters ({', '.join(hidden[:3])})"
        )
    visible = sum(1 for c in name if not c.isspace())
    if not visible >= 1 or len(name) > most:
        return f"{what} has 1 to {most} visible characters"
    if not any(unicodedata.category(c)[0] in "LN" for c in name):
        return f"{what} needs at least one visible letter or digit character"
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
