"""Team names as people type them on phones: normalised, checked, compared.

A name is stored NFKC-normalised with its spacing tidied; it may not hold control,
direction-override, zero-width or other invisible characters (Unicode's format,
unassigned and private-use categories, and every Default_Ignorable_Code_Point: variation
selectors, fillers, the combining grapheme joiner...); it has 1 to :data:`TEAM_NAME_MAX`
visible characters, at least one of them a letter or a digit (a name of combining marks
or blank-looking symbols alone shows nothing); the checks are those of every name people
type (:mod:`koth.server.names`); and two names are the same team when they
differ only by case or by letters that look alike in another script (a Cyrillic "О" for
a Latin "O"), so "Owls", "OWLS" and "Оwls" cannot all join one event.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from confusable_homoglyphs import confusables

from koth.server.errors import InvalidRequestError
from koth.server.names import name_problem as shared_name_problem
from koth.server.names import normal_name

__all__ = ["TEAM_NAME_MAX", "check_team_name", "name_key", "name_problem", "normal_name"]

TEAM_NAME_MAX = 40


def name_problem(name: str) -> str | None:
    """Why ``name`` (already normalised) cannot be a team name, or None."""
    return shared_name_problem(name, "a team name", TEAM_NAME_MAX)


@lru_cache(maxsize=4096)
def _latin_look_alike(char: str) -> str:
    found = confusables.is_confusable(char, preferred_aliases=["latin"], greedy=True)
    if found:
        for glyph in found[0]["homoglyphs"]:
            if glyph["n"].startswith("LATIN"):
                return str(glyph["c"]).casefold()
    return char


def name_key(name: str) -> str:
    """What two names that count as the same team share: case folded, and each letter
    that looks like a Latin one read as that letter."""
    return "".join(_latin_look_alike(c) for c in unicodedata.normalize("NFKC", name).casefold())


def check_team_name(name: str, *, new: bool = True) -> None:
    """Refuse a name that is not stored normalised, or (for new names) that
    :func:`~koth.server.quiz.names.name_problem` refuses."""
    problem = name_problem(name) if new else None
    if problem is None and (
        not name or name != " ".join(name.split()) or len(name) > TEAM_NAME_MAX
    ):
        problem = f"a team name has 1 to {TEAM_NAME_MAX} characters without surrounding spaces"
    if problem is not None:
        raise InvalidRequestError(problem)
