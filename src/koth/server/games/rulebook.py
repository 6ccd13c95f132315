"""The rules of a game as HTML, rendered from its one source, ``docs/rules/<game>.md``.

The learn pages show the same text as the repository's rules documents, rendered on the
server with markdown-it-py (CommonMark with tables; raw HTML in the source is escaped,
not passed through). A wheel ships the documents inside the package (``koth/rules/``,
see pyproject.toml); a checkout reads them from ``docs/rules/``.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Final

from markdown_it import MarkdownIt

from koth.i18n import N_

#: the games with a rules document
RULEBOOKS: Final = ("cards", "board")
_PACKAGE = Path(__file__).resolve().parents[2]  # src/koth (or site-packages/koth)
_PLACES: Final = (_PACKAGE / "rules", _PACKAGE.parents[1] / "docs" / "rules")


def rules_path(game: str) -> Path:
    """Where ``game``'s rules document is (FileNotFoundError naming both places)."""
    if game not in RULEBOOKS:
        raise FileNotFoundError(f"no rules document for the game {game!r}")
    for folder in _PLACES:
        path = folder / f"{game}.md"
        if path.is_file():
            return path
    places = " or ".join(str(folder) for folder in _PLACES)
    raise FileNotFoundError(f"the rules of {game!r} are missing: looked in {places}")


@functools.cache
def rules_html(game: str) -> str:
    """``game``'s rules document as HTML (safe to insert: the source's HTML is escaped)."""
    renderer = MarkdownIt("commonmark", {"html": False}).enable("table")
    html: str = renderer.render(rules_path(game).read_text(encoding="utf-8"))
    return html


#: the rules in brief, a few sentences each, translated through the catalogs (the
#: documents themselves are English)
SUMMARIES: Final[dict[str, tuple[str, ...]]] = {
    "cards": (
        N_(
            "Two players fight for the 15 stacks of a pyramid of cards. Whoever wins the "
            "stack at the top, the apex, wins the game."
        ),
        N_(
            "Each player gets 11 cards and a Joker and first decides in secret, card by "
            "card, which of them go face down into a reserve: the reserve breaks ties."
        ),
        N_(
            "The players take turns choosing a stack that is free to take. Both then attack "
            "it at the same time, face down: with a single card, with a sequence (two or "
            "more cards of one suit in a row, none above the Eight, worth the sum of their "
            "ranks) or with the Joker, which declines the stack."
        ),
        N_(
            "The higher value takes the stack (Jack, Queen and King are worth 10, the Ace "
            "15); a tie is fought again from the reserves. The winner puts each won card "
            "into hand or reserve. Every card played is discarded; a Joker goes back to "
            "its owner."
        ),
    ),
    "board": (
        N_(
            "Two to four players race for the center of a round board of four rings of "
            "seven tiles. At the end of every turn, each player with a unit on the center "
            "scores a point; the first to 30 points wins."
        ),
        N_(
            "Each round every player rolls four dice: 1-2 recruit a unit into your starting "
            "area, 3-4 move a unit, 5-6 turn a ring, move your area or swap two tiles. "
            "Every player has two turns a round, each with two actions."
        ),
        N_(
            "Runners move up to three tiles on any terrain, but fighters and blockers stop "
            "them. Fighters enter light and normal tiles and fight the enemy units on the "
            "tile they enter; blockers enter only light tiles and push enemy runners away."
        ),
        N_(
            "Two fighters next to an enemy blocker can assault it together, and another "
            "player's fighter can join an attack on a blocker as an ally."
        ),
    ),
}
