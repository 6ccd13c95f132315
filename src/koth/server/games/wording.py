"""The lobby's words for game options and computer levels, in the reader's language.

A game's parameters are named in code (``tens_equal``) and described with rule numbers;
a person choosing a game reads a label in words with the rule in brackets ("Jokers",
"3, the apex holds a Joker (C1.1)"). A parameter without an entry here keeps its own
description. The computer levels come from ``koth.agents.levels``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from koth.agents.levels import LEVELS, STRENGTH, TITLES, Level, levels_for
from koth.i18n import N_, Translator


@dataclass(frozen=True, slots=True)
class OptionWords:
    label: str
    #: words for each value of a choice (an int with a few values becomes a choice too)
    choices: Mapping[Any, str] = field(default_factory=dict)


OPTIONS: dict[str, dict[str, OptionWords]] = {
    "cards": {
        "jokers": OptionWords(
            N_("Jokers"),
            {
                3: N_("3, the apex holds a Joker (C1.1)"),
                2: N_("2, the apex is an empty stack (C1.1)"),
            },
        ),
        "tens_equal": OptionWords(N_("All ten-valued single cards tie (variant, C7.1)")),
        "dealer": OptionWords(
            N_("Who chooses the first stack (C5)"), {0: N_("Seat 1"), 1: N_("Seat 2")}
        ),
        "reveal_discarded_stacks": OptionWords(
            N_("Show a stack discarded after two Jokers to both players (C9.1)")
        ),
    },
    "board": {
        "num_players": OptionWords(N_("Players at the table (B3, B6)")),
        "runner_range": OptionWords(N_("How far a runner moves, in tiles (B9)")),
        "runner_first_round": OptionWords(N_("First round in which runners may be recruited (B8)")),
        "fighter_range": OptionWords(N_("How far a fighter moves, in tiles (B9)")),
        "blocker_range": OptionWords(N_("How far a blocker moves, in tiles (B9)")),
        "runners_blocked_by_own": OptionWords(
            N_("Runners are stopped by their own fighters and blockers too (B10)")
        ),
        "blockers_avoid_blockers": OptionWords(
            N_("Blockers may not enter a tile with an enemy blocker (B12.3)")
        ),
        "score_own_turns_only": OptionWords(N_("Score only at the end of your own turns (B15)")),
        "countdown": OptionWords(
            N_("Variant: a shared countdown replaces the points target (B16.1)")
        ),
        "one_excluded": OptionWords(
            N_("Variant: each player secretly leaves out one unit type (B16.2)")
        ),
        "teamplay": OptionWords(
            N_(
                "Variant for 4 players, in pairs pooling their points: Seat 1 and Seat 3 "
                "against Seat 2 and Seat 4 (B16.3)"
            )
        ),
        "round_limit": OptionWords(N_("Rounds before the game is a draw (B17)")),
        "target_points": OptionWords(N_("Points that win the game (B15)")),
        "countdown_start": OptionWords(N_("Start of the countdown (B16.1)")),
    },
}


def option_words(game: str, lang: str) -> dict[str, dict[str, Any]]:
    """``{param: {"label": text, "choices": {value: text}}}`` for ``game`` in ``lang``."""
    _ = Translator(lang)
    return {
        name: {"label": _(words.label), "choices": {k: _(v) for k, v in words.choices.items()}}
        for name, words in OPTIONS.get(game, {}).items()
    }


def level_words(level: Level, lang: str) -> dict[str, str]:
    """A level as the lobby shows it: key, title, its sentence and its measured strength."""
    _ = Translator(lang)
    strength = ""
    if level.measured is not None:
        strength = _(
            STRENGTH,
            wins=level.measured.wins,
            games=level.measured.games,
            opponent=_(TITLES[level.measured.opponent]),
        )
    return {
        "key": level.key,
        "title": _(level.title),
        "summary": _(level.summary),
        "strength": strength,
        "spec": level.spec,
    }


def levels_words(game: str, lang: str) -> list[dict[str, str]]:
    return [level_words(found, lang) for found in levels_for(game)]


def level_names(lang: str) -> dict[tuple[str, str], str]:
    """``{(game, level key): title}`` for every level, to name a seat's agent."""
    _ = Translator(lang)
    return {(game, lv.key): _(lv.title) for game, found in LEVELS.items() for lv in found}
