"""Per-game facts for balance questions: one number (or none) per finished game.

A fact reads a game entry of ``results.json`` (its ``stats`` come from
``koth.sim.collect``) and gives a number, or None where it does not apply (the rounds to
win of a drawn game). Reports average them with 95% intervals, and comparisons of
variants take their paired differences over games played with the same seed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from koth.sim.stats import moving_order

GameEntry = Mapping[str, Any]


@dataclass(frozen=True)
class Fact:
    label: str
    #: "share": a 0/1 value per game; "fraction": a part of the game (0..1); "mean": any
    #: number. Shares and fractions are shown as percentages.
    kind: str
    read: Callable[[GameEntry], float | None]

    @property
    def percent(self) -> bool:
        return self.kind in ("share", "fraction")

    def values(self, games: Sequence[GameEntry]) -> dict[int, float | None]:
        """The fact of each game, by game index."""
        return {int(game["index"]): self.read(game) for game in games}


def _stats(game: GameEntry) -> Mapping[str, Any]:
    stats: Mapping[str, Any] = game.get("stats") or {}
    return stats


def turn_order(game: GameEntry) -> list[int]:
    """The game's seats in the order they moved, the seat that moved first first."""
    return moving_order(game)


def first_mover_wins(game: GameEntry) -> float:
    return 1.0 if list(game["winners"]) == turn_order(game)[:1] else 0.0


def decided(game: GameEntry) -> bool:
    return len(game["winners"]) == 1


def _number(key: str) -> Callable[[GameEntry], float | None]:
    def read(game: GameEntry) -> float | None:
        value = _stats(game).get(key)
        return None if value is None else float(value)

    return read


GENERIC_FACTS: tuple[Fact, ...] = (
    Fact("first mover wins", "share", first_mover_wins),
    Fact("decisions per game", "mean", lambda g: float(g["decisions"])),
    Fact("drawn or shared", "share", lambda g: 0.0 if decided(g) else 1.0),
)


# ------------------------------------------------------------------ cards
def _apex_by_chooser(game: GameEntry) -> float | None:
    stats = _stats(game)
    winner = stats.get("apex_winner")
    if winner is None or stats.get("apex_chooser") is None:
        return None
    return 1.0 if winner == stats["apex_chooser"] else 0.0


def _apex_discarded(game: GameEntry) -> float | None:
    stats = _stats(game)
    if stats.get("apex_chooser") is None:
        return None  # stopped before the apex was fought for
    return 1.0 if stats.get("apex_winner") is None else 0.0


def _cards_won_by(position: int) -> Callable[[GameEntry], float | None]:
    def read(game: GameEntry) -> float | None:
        won = _stats(game).get("cards_won")
        return None if won is None else float(won[turn_order(game)[position]])

    return read


def _cards_won_by_winner(game: GameEntry) -> float | None:
    won = _stats(game).get("cards_won")
    if won is None or not decided(game):
        return None
    return float(won[game["winners"][0]])


CARDS_FACTS: tuple[Fact, ...] = (
    Fact("apex taken by the player who chose it", "share", _apex_by_chooser),
    Fact("apex discarded (a draw)", "share", _apex_discarded),
    Fact("tie-break rounds per game", "mean", _number("tie_breaks")),
    Fact("fights that went to a tie-break, per game", "mean", _number("fights_tied")),
    Fact("discarded stacks per game", "mean", _number("discarded_stacks")),
    Fact("cards won by the first chooser", "mean", _cards_won_by(0)),
    Fact("cards won by the second chooser", "mean", _cards_won_by(1)),
    Fact("cards won by the winner", "mean", _cards_won_by_winner),
)


# ------------------------------------------------------------------ board
def _rounds_to_win(game: GameEntry) -> float | None:
    rounds = _stats(game).get("rounds")
    return None if rounds is None or not decided(game) else float(rounds)


def _center_share(game: GameEntry) -> float | None:
    stats = _stats(game)
    ends = stats.get("turn_ends")
    return None if not ends else float(stats["center_held_turns"]) / float(ends)


def _kills(victim: str | None) -> Callable[[GameEntry], float | None]:
    def read(game: GameEntry) -> float | None:
        kills = _stats(game).get("kills")
        if kills is None:
            return None
        return float(
            sum(
                count
                for seat in kills
                for key, count in seat.items()
                if victim is None or key.endswith(" " + victim)
            )
        )

    return read


def _forfeited_per_player(game: GameEntry) -> float | None:
    forfeited = _stats(game).get("forfeited_dice")
    return None if forfeited is None else sum(forfeited) / len(forfeited)


BOARD_FACTS: tuple[Fact, ...] = (
    Fact("rounds to win", "mean", _rounds_to_win),
    Fact("share of turn ends with the center held", "fraction", _center_share),
    Fact("kills per game", "mean", _kills(None)),
    Fact("runners killed per game", "mean", _kills("runner")),
    Fact("fighters killed per game", "mean", _kills("fighter")),
    Fact("blockers killed per game", "mean", _kills("blocker")),
    Fact("forfeited dice per player and game", "mean", _forfeited_per_player),
)

_BY_GAME: dict[str, tuple[Fact, ...]] = {"cards": CARDS_FACTS, "board": BOARD_FACTS}


def facts_for(game_name: str) -> tuple[Fact, ...]:
    """The generic facts, then the game's own."""
    return GENERIC_FACTS + _BY_GAME.get(game_name, ())


def agent_scores(games: Sequence[GameEntry], agent: str) -> dict[int, float | None]:
    """Per game: 1 when ``agent`` was the sole winner, else 0 (None if it did not play;
    an agent on several seats counts once)."""
    scores: dict[int, float | None] = {}
    for game in games:
        seats = [s for s, name in enumerate(game["seats"]) if name == agent]
        scores[int(game["index"])] = (
            None if not seats else float(decided(game) and game["winners"][0] in seats)
        )
    return scores
