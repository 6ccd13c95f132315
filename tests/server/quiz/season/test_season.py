"""Seasons: the formulas (sum of places, sum of points, best N of M), teams matched by
name key and merged by hand, and the API with its CSV."""

from __future__ import annotations

import csv
import io

import pytest
from fastapi.testclient import TestClient

from koth.server.quiz.names import name_key
from koth.server.quiz.season.standing import (
    EventResult,
    SeasonEvent,
    event_results,
    merge_problem,
    season_table,
)
from tests.server.quiz.helpers import QuizApi, bearer

RIGHT = "Paris"


def ev(event_id: str, *results: tuple[str, int, int], finished: bool = True) -> SeasonEvent:
    return SeasonEvent(event_id, event_id, finished, tuple(EventResult(*r) for r in results))


SEASON = [
    ev("e1", ("Owls", 1, 9), ("Bears", 2, 7), ("Cats", 3, 2)),
    ev("e2", ("OWLS", 3, 1), ("Bears", 1, 8)),  # Cats missed it; "OWLS" is Owls
    ev("e3", ("Cats", 1, 10), ("Owls", 2, 6), ("Bears", 3, 3)),
    ev("e4", ("Owls", 1, 5), finished=False),  # still running: not counted
]


@pytest.mark.parametrize(
    ("formula", "best", "expected"),
    [
        # places: missing e2 costs Cats 2 teams + 1 = 3
        ("places", 1, [("Bears", 6, 1), ("Owls", 6, 1), ("Cats", 7, 3)]),
        ("points", 1, [("Bears", 18, 1), ("Owls", 16, 2), ("Cats", 12, 3)]),
        ("best", 1, [("Cats", 10, 1), ("Owls", 9, 2), ("Bears", 8, 3)]),
        ("best", 2, [("Bears", 15, 1), ("Owls", 15, 1), ("Cats", 12, 3)]),
    ],
)
def test_season_formulas(formula: str, best: int, expected: list[tuple[str, int, int]]) -> None:
    lines = season_table(SEASON, formula, best, {})  # type: ignore[arg-type]
    assert [(x.team, x.score, x.rank) for x in lines] == expected


def test_teams_are_matched_by_name_key_and_show_their_latest_spelling() -> None:
    lines = season_table(SEASON, "points", 1, {})
    owls = next(x for x in lines if x.key == name_key("Owls"))
    assert owls.team == "Owls" and owls.played == 3
    assert owls.results["e2"] == EventResult("OWLS", 3, 1)


def test_a_merge_counts_two_spellings_as_one_team() -> None:
    season = [
        ev("e1", ("Совы", 1, 5), ("Cats", 2, 1)),
        ev("e2", ("Совы ночные", 1, 4), ("Cats", 2, 2)),
    ]
    assert len(season_table(season, "points", 1, {})) == 3
    merges = {name_key("Совы"): name_key("Совы ночные")}
    lines = season_table(season, "points", 1, merges)
    assert [(x.team, x.score, x.played) for x in lines] == [("Совы ночные", 9, 2), ("Cats", 3, 2)]
    assert (
        merge_problem("Совы ночные", "Совы", merges)
        == "'Совы' is already merged into 'Совы ночные'"
    )
    assert merge_problem("owls", "OWLS", {}) == "'owls' and 'OWLS' are already one team"


def test_semifinal_losers_come_after_the_finalists() -> None:
    semi1 = ([("A", 1, 5), ("C", 2, 3)], ["A"])
    semi2 = ([("B", 1, 4), ("D", 2, 1)], ["B"])
    final = ([("B", 1, 6), ("A", 2, 2)], None)
    assert event_results([semi1, semi2, final]) == [
        EventResult("B", 1, 6),
        EventResult("A", 2, 2),
        EventResult("C", 3, 3),
        EventResult("D", 4, 1),
    ]


def finished_event(client: TestClient, teams: tuple[str, ...], right: set[str]) -> QuizApi:
    api = QuizApi(client)
    api.create(steps=6, hold_moves=2, questions=1, spurs_per_slope=0, prize_places=1)
    for team in teams:
        api.join(team)
    api.cmd("start")
    api.play(1, {t: RIGHT if t in right else "no" for t in teams}, {RIGHT})
    return api


def test_the_season_api(client: TestClient) -> None:
    created = client.post("/api/quiz/series", json={"title": "Autumn", "formula": "points"})
    assert created.status_code == 201
    sid, token = created.json()["id"], created.json()["host_token"]
    host = bearer(token)
    one = finished_event(client, ("Owls", "Cats"), {"Owls"})
    two = finished_event(client, ("owls", "Кошки"), {"Кошки"})
    url = f"/api/quiz/series/{sid}"
    # the event's host token is needed too: a season host cannot take others' events
    refused = client.post(
        f"{url}/events", json={"event_id": one.event_id, "event_token": "x"}, headers=host
    )
    assert refused.status_code == 403
    for api in (one, two):
        body = {"event_id": api.event_id, "event_token": api.host_token}
        assert client.post(f"{url}/events", json=body, headers=host).status_code == 200
    again = client.post(
        f"{url}/events",
        json={"event_id": one.event_id, "event_token": one.host_token},
        headers=host,
    )
    assert again.status_code == 422 and "already in this season" in again.json()["error"]["message"]
    assert (
        client.post(f"{url}/merge", json={"spelling": "Кошки", "into": "Cats"}).status_code == 403
    )
    table = client.post(
        f"{url}/merge", json={"spelling": "Кошки", "into": "Cats"}, headers=host
    ).json()
    lines = [(x["rank"], x["team"], x["score"], x["played"]) for x in table["lines"]]
    assert lines == [(1, "owls", 1, 2), (1, "Кошки", 1, 2)]  # Cats and Кошки: one team
    table = client.post(f"{url}/settings", json={"formula": "places"}, headers=host).json()
    assert table["formula"] == "places" and [x["score"] for x in table["lines"]] == [3, 3]
    raw = client.get(f"{url}/export.csv").content
    assert raw.startswith(b"\xef\xbb\xbfrank,team,score,played,")
    rows = list(csv.reader(io.StringIO(raw.decode("utf-8-sig"))))
    assert len(rows) == 3 and len(rows[0]) == 4 + 2 * 2
    assert client.get("/api/quiz/series/nope").status_code == 404
    bad = client.post(f"{url}/settings", json={"formula": "median"}, headers=host)
    assert bad.status_code == 422
