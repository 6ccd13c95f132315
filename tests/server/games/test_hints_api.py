"""Hints: only for a person playing the computer alone, a legal move from the seat's
view, and the move played after one is marked in the replay."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from koth.server.app import create_app
from tests.server.conftest import Created, create_game, make_settings


@pytest.fixture
def quick(database_url: str) -> Iterator[TestClient]:
    """The app with searches capped at a tenth of a second (a hint's think)."""
    with TestClient(create_app(make_settings(database_url, max_agent_seconds=0.1))) as client:
        yield client


def hint(client: TestClient, game: Created, seat: int | None, lang: str = "en") -> Any:
    headers = {"Accept-Language": lang, **(game.auth(seat) if seat is not None else {})}
    return client.post(f"/api/games/{game.id}/hint", headers=headers)


def refused(response: Any, status: int, code: str, words: str) -> None:
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert error["code"] == code and words in error["message"], error


def play_hinted(client: TestClient, game: Created, body: Any) -> None:
    """Seat 1 plays the hinted card; returns once the move is complete (the computer
    seat has chosen too: a secret choice)."""
    played = client.post(
        f"/api/games/{game.id}/actions",
        json={"action_id": body["action"]["id"], "version": body["version"]},
        headers=game.auth(0),
    )
    assert played.status_code == 200, played.text
    deadline = time.monotonic() + 30
    while client.get(f"/api/games/{game.id}").json()["version"] == body["version"]:
        assert time.monotonic() < deadline, "the computer seat never chose"
        time.sleep(0.05)


def test_a_hint_is_a_legal_move_of_the_seat_and_its_move_is_marked(quick: TestClient) -> None:
    game = create_game(
        quick, "cards", seats=[{"kind": "human"}, {"kind": "computer", "agent": "beginner"}]
    )
    me = quick.get(f"/api/games/{game.id}", headers=game.auth(0)).json()
    answer = hint(quick, game, 0)
    assert answer.status_code == 200, answer.text
    body = answer.json()
    legal = {entry["id"]: entry for entry in me["legal"]}
    assert body["version"] == me["version"] and body["seat"] == 0
    assert body["level"] == "expert" and body["level_title"] == "Expert"
    assert legal[body["action"]["id"]] == body["action"]  # one of the seat's legal moves
    assert body["reason"].startswith("The Expert level ")
    russian = hint(quick, game, 0, "ru").json()
    assert russian["level_title"] == "Эксперт" and "Эксперт" in russian["reason"]

    play_hinted(quick, game, body)
    frames = quick.get(f"/api/games/{game.id}/replay", headers=game.auth(0)).json()["frames"]
    marked = [f["version"] for f in frames if f["hinted"]]
    assert marked == [body["version"] + 1], marked
    assert all(f["hinted"] in ([], [0]) for f in frames)


def test_the_hint_mark_survives_a_restart_and_reaches_another_process(database_url: str) -> None:
    # the hint is given by one process, which then stops; the move is played through a
    # second process that never saw the hint, and a third (after a restart) replays it
    settings = make_settings(database_url, max_agent_seconds=0.1)
    seats = [{"kind": "human"}, {"kind": "computer", "agent": "beginner"}]
    with TestClient(create_app(settings)) as first:
        game = create_game(first, "cards", seats=seats)
        body = hint(first, game, 0).json()
    with TestClient(create_app(settings)) as second:
        play_hinted(second, game, body)
    with TestClient(create_app(settings)) as third:
        frames = third.get(f"/api/games/{game.id}/replay", headers=game.auth(0)).json()["frames"]
    assert [f["version"] for f in frames if f["hinted"]] == [body["version"] + 1]


def test_hints_are_refused_where_they_are_not_offered(quick: TestClient) -> None:
    alone = create_game(
        quick, "board", seats=[{"kind": "human"}, {"kind": "computer", "agent": "casual"}]
    )
    refused(hint(quick, alone, None), 403, "forbidden", "spectators get no hints")
    friends = create_game(quick, "cards")
    refused(hint(quick, friends, 0), 403, "forbidden", "this game has 2 people")
    toy = create_game(quick, seats=[{"kind": "human"}, {"kind": "computer"}])
    refused(hint(quick, toy, 0), 422, "invalid_request", "toy_duel game has no computer levels")
    refused(
        quick.post(f"/api/games/{alone.id}/hint", headers={"Authorization": "Bearer nope"}),
        403,
        "forbidden",
        "not valid",
    )


def test_no_hint_without_a_move_to_make(database_url: str) -> None:
    # the computer waits a minute before it moves: after the person's secret choice the
    # decision is the computer's alone
    settings = make_settings(database_url, computer_delay=60.0, max_agent_seconds=0.1)
    with TestClient(create_app(settings)) as client:
        game = create_game(
            client, "cards", seats=[{"kind": "human"}, {"kind": "computer", "agent": "beginner"}]
        )
        me = client.get(f"/api/games/{game.id}", headers=game.auth(0)).json()
        chosen = client.post(
            f"/api/games/{game.id}/actions",
            json={"action_id": me["legal"][0]["id"]},
            headers=game.auth(0),
        ).json()
        assert chosen["submitted"] == [0] and chosen["legal"] == []
        refused(hint(client, game, 0), 409, "not_your_turn", "seat 1 has no move to make now")
