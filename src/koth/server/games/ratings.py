"""Ratings of persons in one kind of game, from OpenSkill's Plackett-Luce model (a
Bayesian rating: each person's skill is a mean and an uncertainty).

A rating is shown as one number: ``1000 + 40 * (mu - 3 * sigma)``, a cautious estimate
(the skill is above it with about 99.9 % certainty), so a newcomer starts at 1000 and
climbs as games make the model surer. See docs/ratings.md.
"""

from __future__ import annotations

from collections.abc import Sequence

from openskill.models import PlackettLuce

from koth.server.games.friends_store import Rating

#: the model (its defaults: mu 25, sigma 25/3)
MODEL = PlackettLuce()
#: the shown rating of a newcomer, and how many shown points one unit of skill is
BASE, SCALE = 1000.0, 40.0


def shown(rating: Rating | None) -> float:
    """The rating as shown (a person with no rated game yet: the newcomer's)."""
    mu, sigma = (MODEL.mu, MODEL.sigma) if rating is None else (rating.mu, rating.sigma)
    return BASE + SCALE * (mu - 3.0 * sigma)


def rate(old: Sequence[Rating | None], winners: Sequence[int]) -> list[Rating]:
    """The persons' new ratings after a game where the seats ``winners`` won (none: a
    draw); ``old`` by seat (None: a first rated game)."""
    players = [[MODEL.rating() if r is None else MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in old]
    won = set(winners)
    ranks = [1.0 if (seat in won or not won) else 2.0 for seat in range(len(old))]
    teams = MODEL.rate(players, ranks=ranks)
    return [
        Rating(team[0].mu, team[0].sigma, (r.games if r is not None else 0) + 1)
        for team, r in zip(teams, old, strict=True)
    ]
