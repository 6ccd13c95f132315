"""A club's season: quiz events grouped in a series, each team's result per event and a
season standing by the formula the host chooses.

* Each event gives each of its teams a **place** and **points**: a team that played the
  last part (the game, or the final) has its place and points there; a team knocked out
  in a semifinal comes after every finalist, ordered by its semifinal place, then points.
* Teams are matched across events by :func:`~koth.server.quiz.names.name_key` (case and
  look-alike letters ignored); the host merges two spellings of one team by hand.
* Formulas: ``places`` adds the places (lower is better; an event a team missed counts
  as its number of teams plus one), ``points`` adds the points (higher is better),
  ``best`` adds the points of a team's best N events. Ties: more events played, then
  the name.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

from koth.server.quiz.names import name_key

Formula = Literal["places", "points", "best"]


@dataclass(frozen=True, slots=True)
class EventResult:
    """One team's result in one event."""

    team: str
    place: int
    points: int


@dataclass(frozen=True, slots=True)
class SeasonEvent:
    event_id: str
    title: str
    finished: bool
    results: tuple[EventResult, ...]


@dataclass
class SeasonLine:
    team: str
    key: str
    results: dict[str, EventResult | None] = field(default_factory=dict)
    score: int = 0
    played: int = 0
    rank: int = 0


def resolve(key: str, merges: dict[str, str]) -> str:
    """The key a (possibly merged) name key ends at (merges never loop: see
    :func:`merge_problem`)."""
    seen = {key}
    while key in merges:
        key = merges[key]
        if key in seen:
            break
        seen.add(key)
    return key


def merge_problem(spelling: str, into: str, merges: dict[str, str]) -> str | None:
    """Why ``spelling`` cannot be merged into ``into`` (None: it can)."""
    source, target = name_key(spelling), name_key(into)
    if source == target:
        return f"{spelling!r} and {into!r} are already one team"
    if resolve(target, merges) == source:
        return f"{into!r} is already merged into {spelling!r}"
    return None


def season_table(
    events: Iterable[SeasonEvent], formula: Formula, best: int, merges: dict[str, str]
) -> list[SeasonLine]:
    """The season standing: one line per team, best first, ranks shared by equal lines."""
    events = list(events)
    lines: dict[str, SeasonLine] = {}
    for event in events:
        for result in event.results:
            key = resolve(name_key(result.team), merges)
            line = lines.setdefault(key, SeasonLine(result.team, key))
            line.team = result.team  # the latest spelling is the one shown
            line.results[event.event_id] = result
    counted = [e for e in events if e.finished]
    for line in lines.values():
        got = [line.results.get(e.event_id) for e in counted]
        line.played = sum(1 for r in got if r is not None)
        if formula == "places":
            line.score = sum(
                r.place if r is not None else len(e.results) + 1
                for r, e in zip(got, counted, strict=True)
            )
        elif formula == "points":
            line.score = sum(r.points for r in got if r is not None)
        else:
            line.score = sum(sorted((r.points for r in got if r is not None), reverse=True)[:best])
    sign = 1 if formula == "places" else -1
    ordered = sorted(lines.values(), key=lambda x: (sign * x.score, -x.played, x.team.casefold()))
    for i, line in enumerate(ordered):
        before = ordered[i - 1] if i else None
        same = before is not None and (before.score, before.played) == (line.score, line.played)
        line.rank = before.rank if same and before is not None else i + 1
    return ordered


def event_results(
    parts: list[tuple[list[tuple[str, int, int]], list[str] | None]],
) -> list[EventResult]:
    """Per team its place and points in an event, from its parts in order, each given
    as (teams as (name, place, points) by place, qualified teams or None)."""
    if not parts:
        return []
    last, _ = parts[-1]
    out = [EventResult(name, place, points) for name, place, points in last]
    placed = {r.team for r in out}
    knocked: list[tuple[int, int, str]] = []
    for teams, _qualified in parts[:-1]:
        knocked += [(place, -points, name) for name, place, points in teams if name not in placed]
    for i, (place, minus_points, name) in enumerate(sorted(knocked)):
        del place
        out.append(EventResult(name, len(last) + i + 1, -minus_points))
    return out
