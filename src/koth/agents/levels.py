"""Named computer levels: one agent and budget per level and game, described for players.

A person choosing an opponent picks "Beginner" or "Strong", not ``ismcts:iters=300``.
Each level is one agent spec with an iteration budget (so its strength does not depend
on the machine's speed), a sentence saying how it plays, and its strength measured with
the tournament runner against the level below it (``koth simulate``, one worker, seed 1;
the commands are in docs/agents.md). The texts are English, marked for the catalogs;
the web app words them in the reader's language.

The last level of a game is its strongest: the web app's hints ask it.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from koth.agents.registry import parse_spec
from koth.core.errors import InvalidParamsError
from koth.i18n import N_

__all__ = ["LEVEL_KEYS", "Level", "Measured", "level", "level_of_spec", "levels_for", "strongest"]


@dataclass(frozen=True, slots=True)
class Measured:
    """How a level did against another: ``wins`` of ``games`` seat-rotated games, the
    rest lost or drawn (``koth simulate GAME --agents SPEC,OTHER --games N --seed 1``)."""

    opponent: str  # the other level's key
    wins: int
    games: int


@dataclass(frozen=True, slots=True)
class Level:
    """One named level of one game."""

    key: str  # "beginner", "casual", "strong", "expert"
    game: str
    spec: str  # a koth.agents spec with an iteration budget
    title: str  # English, marked N_
    summary: str  # one sentence, English, marked N_
    measured: Measured | None = None

    @property
    def agent(self) -> str:
        """The agent's name (``ismcts``)."""
        return parse_spec(self.spec)[0]

    @property
    def iterations(self) -> int | None:
        """The search budget per move, None for the agents that do not search."""
        iters = parse_spec(self.spec)[1].get("iters")
        return None if iters is None else int(iters)


TITLES = {
    "beginner": N_("Beginner"),
    "casual": N_("Casual"),
    "strong": N_("Strong"),
    "expert": N_("Expert"),
}
LEVEL_KEYS: tuple[str, ...] = tuple(TITLES)

#: "won {wins} of {games} games against {opponent}": the strength sentence's template
STRENGTH = N_("Won {wins} of {games} games against {opponent}.")

RANDOM = N_("Plays a legal move at random: good for learning the rules.")
CARDS_HEURISTIC = N_(
    "Plays by rules of thumb: keeps high cards in reserve, bids just enough, saves "
    "sequences for the apex."
)
CARDS_STRONG = N_(
    "Searches 300 imagined deals a move, guessing the cards it cannot see (a fraction of a second)."
)
CARDS_EXPERT = N_(
    "Searches 1,500 imagined deals a move, guessing the cards it cannot see (a second or two)."
)
BOARD_HEURISTIC = N_(
    "Plays by rules of thumb: recruits, heads for the center, attacks units there and "
    "guards its ring."
)
BOARD_STRONG = N_("Looks 200 possible futures ahead each move (a fraction of a second).")
BOARD_EXPERT = N_(
    "Looks 1,000 possible futures ahead each move and judges them by what it learned "
    "from 23,500 games (a second or two)."
)

LEVELS: dict[str, tuple[Level, ...]] = {
    "cards": (
        Level("beginner", "cards", "random", TITLES["beginner"], RANDOM),
        Level(
            "casual",
            "cards",
            "heuristic",
            TITLES["casual"],
            CARDS_HEURISTIC,
            Measured("beginner", 84, 100),
        ),
        Level(
            "strong",
            "cards",
            "ismcts:iters=300",
            TITLES["strong"],
            CARDS_STRONG,
            Measured("casual", 33, 40),
        ),
        Level(
            "expert",
            "cards",
            "ismcts:iters=1500",
            TITLES["expert"],
            CARDS_EXPERT,
            Measured("strong", 7, 12),
        ),
    ),
    "board": (
        Level("beginner", "board", "random", TITLES["beginner"], RANDOM),
        Level(
            "casual",
            "board",
            "heuristic",
            TITLES["casual"],
            BOARD_HEURISTIC,
            Measured("beginner", 40, 40),
        ),
        Level(
            "strong",
            "board",
            "mcts:iters=200",
            TITLES["strong"],
            BOARD_STRONG,
            Measured("casual", 20, 20),
        ),
        Level(
            "expert",
            "board",
            "learned:iters=1000",
            TITLES["expert"],
            BOARD_EXPERT,
            Measured("strong", 7, 12),
        ),
    ),
}


def levels_for(game: str) -> tuple[Level, ...]:
    """The levels of ``game``, weakest first (none for a game without them)."""
    return LEVELS.get(game, ())


def level(game: str, key: str) -> Level:
    """The level ``key`` of ``game`` (InvalidParamsError naming the levels there are)."""
    for found in levels_for(game):
        if found.key == key:
            return found
    known = ", ".join(lv.key for lv in levels_for(game)) or "none"
    raise InvalidParamsError(f"the {game} game has no level {key!r}; its levels: {known}")


def strongest(game: str) -> Level | None:
    """The strongest level of ``game`` (None for a game without levels)."""
    found = levels_for(game)
    return found[-1] if found else None


def level_of_spec(game: str, spec: str, ignore: Collection[str] = ()) -> Level | None:
    """The level whose agent and options are ``spec``'s (options in any order, those
    named in ``ignore`` left out: a server's caps such as ``seconds``), if any."""
    try:
        name, options = parse_spec(spec)
    except InvalidParamsError:
        return None
    options = {k: v for k, v in options.items() if k not in ignore}
    for found in levels_for(game):
        if parse_spec(found.spec) == (name, options):
            return found
    return None
