"""Places: by position (the Peak first), then points, then lightning results (Q13, Q14).

Competition ranking: tied teams share a place and the next place skips (1, 2, 2, 4).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from koth.games.quiz.events import LightningQuestion
from koth.games.quiz.state import Standings


@dataclass(frozen=True, slots=True)
class Ranking:
    order: tuple[int, ...]
    """team indices, best first"""
    places: tuple[int, ...]
    """place of each team, by team index"""
    groups: tuple[tuple[int, tuple[int, ...]], ...]
    """tied groups of two or more teams: (place, team indices in team order)"""
    applied: tuple[bool, ...]
    """for each lightning question: whether it applied to a tied group"""


def needs_lightning(place: int, size: int, *, prize_places: int, cut: int | None) -> bool:
    """A tied group needs a lightning round when it shares a prize place (Q14), or, in a
    semifinal, when it straddles the qualification cut (Q15)."""
    if size < 2:
        return False
    if cut is not None:
        return place <= cut < place + size - 1
    return place <= prize_places


def rank(
    standings: Standings,
    lightning: Sequence[LightningQuestion],
    index: dict[str, int] | None,
    *,
    prize_places: int,
    cut: int | None = None,
) -> Ranking:
    """Rank the teams; apply each lightning question that still matches a tied group
    needing one (others are reported as not applied)."""
    n = len(standings.position)
    keys: list[tuple[int, ...]] = [() for _ in range(n)]
    applied: list[bool] = []
    ranking = _rank(standings, keys)
    for question in lightning:
        members = _lightning_members(question, index)
        group = _matching_group(ranking, members, prize_places, cut)
        if group is None:
            applied.append(False)
            continue
        applied.append(True)
        for name, i in zip(question.teams, members, strict=True):
            answer = question.answers.get(name)
            keys[i] = (*keys[i], -1 if answer is not None and answer.correct else 0)
        ranking = _rank(standings, keys)
    return Ranking(ranking.order, ranking.places, ranking.groups, tuple(applied))


def _lightning_members(question: LightningQuestion, index: dict[str, int] | None) -> list[int]:
    if index is None:
        return []
    return [index[name] for name in question.teams if name in index]


def _matching_group(
    ranking: Ranking, members: list[int], prize_places: int, cut: int | None
) -> tuple[int, ...] | None:
    wanted = set(members)
    if len(wanted) != len(members):
        return None
    for place, group in ranking.groups:
        if set(group) == wanted and needs_lightning(
            place, len(group), prize_places=prize_places, cut=cut
        ):
            return group
    return None


def _rank(standings: Standings, keys: list[tuple[int, ...]]) -> Ranking:
    position = standings.position
    points = standings.points
    sort_keys = [(-position[i], -points[i], keys[i]) for i in range(len(position))]
    order = sorted(range(len(position)), key=sort_keys.__getitem__)
    places = [0] * len(position)
    groups: list[tuple[int, tuple[int, ...]]] = []
    start = 0
    while start < len(order):
        end = start + 1
        key = sort_keys[order[start]]
        while end < len(order) and sort_keys[order[end]] == key:
            end += 1
        for j in range(start, end):
            places[order[j]] = start + 1
        if end - start > 1:
            groups.append((start + 1, tuple(sorted(order[start:end]))))
        start = end
    return Ranking(tuple(order), tuple(places), tuple(groups), ())
