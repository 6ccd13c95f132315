"""Resigning, time controls and absence through the JSON API, on SQLite and PostgreSQL.

A clock is made to run out by moving its start back in the database (the deadline with
it), as if that much time had passed; the test then waits for what the server does, with
a generous ceiling."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import Engine, select, update
from sqlalchemy.orm import Session

from koth.server.app import create_app
from koth.server.games.rows import GameRow
from tests.server.conftest import Created, create_game, make_settings
from tests.server.games.test_api import act, assert_error, state

MOVE_CLOCK = {"mode": "move", "seconds": 60, "level": "random"}


def clocked(client: TestClient, clock: dict[str, Any], **kwargs: Any) -> Created:
    """A toy duel with ``clock``, both seats opened (the clocks run)."""
    response = client.post(
        "/api/games", json={"game": "toy_duel", "params": {}, "clock": clock, **kwargs}
    )
    assert response.status_code == 201, response.text
    data = response.json()
    game = Created(data["id"], {s["seat"]: s["token"] for s in data["seats"]}, data)
    for seat in game.tokens:
        state(client, game, seat)
    return game


def age_clock(client: TestClient, game_id: str, seconds: float) -> None:
    """Move the clock's start (and its deadline) ``seconds`` back; the server reads the
    game again."""
    engine = engine_of(client)
    with Session(engine) as session, session.begin():
        row = session.get(GameRow, game_id)
        assert row is not None and row.clock is not None and row.deadline is not None
        clock = dict(row.clock)
        clock["since"] = float(clock["since"]) - seconds
        session.execute(
            update(GameRow)
            .where(GameRow.id == game_id)
            .values(clock=clock, deadline=row.deadline - timedelta(seconds=seconds))
        )
    client.app.state.games.forget(game_id)  # type: ignore[attr-defined]


def wait_for(
    read: Callable[[], dict[str, Any]], ok: Callable[[dict[str, Any]], bool]
) -> dict[str, Any]:
    """Read until ``ok`` (a generous ceiling: a failure names what was last read)."""
    ceiling = time.monotonic() + 30
    while True:
        seen = read()
        if ok(seen):
            return seen
        assert time.monotonic() < ceiling, seen
        time.sleep(0.05)


def engine_of(client: TestClient) -> Engine:
    engine: Engine = client.app.state.engine  # type: ignore[attr-defined]
    return engine


def test_a_resignation_ends_a_game_of_two_with_its_reason_everywhere(client: TestClient) -> None:
    game = create_game(client, seats=[{"name": "Boris"}, {"name": "Anna"}])
    state(client, game, 0)
    assert_error(client.post(f"/api/games/{game.id}/resign"), 403, "forbidden")
    resigned = client.post(f"/api/games/{game.id}/resign", headers=game.auth(1))
    assert resigned.status_code == 200, resigned.text
    body = resigned.json()
    assert body["status"] == "finished"
    assert body["outcome"] == {"termination": "resigned", "winners": [0], "seat": 1}
    assert body["ending"] == {
        "reason": "resigned",
        "seat": 1,
        "winners": [0],
        "text": "Seat 2 (Anna) resigned",
    }
    assert (
        body["legal"] == [] and state(client, game, 0)["ending"]["text"] == "Seat 2 (Anna) resigned"
    )
    # nothing more is played, nor resigned
    assert_error(act(client, game, 0, "stake 1"), 409, "game_over")
    assert_error(
        client.post(f"/api/games/{game.id}/resign", headers=game.auth(0)), 409, "game_over"
    )
    listed = client.get("/api/games", params={"status": "finished"}).json()
    mine = next(g for g in listed if g["id"] == game.id)
    assert mine["winners"] == [0] and mine["termination"] == "resigned"
    record = client.get(f"/api/games/{game.id}/record")
    assert (
        record.status_code == 200 and record.json()["meta"]["ending"]["termination"] == "resigned"
    )
    replay = client.get(f"/api/games/{game.id}/replay").json()
    assert replay["finished"] and replay["ending"]["text"] == "Seat 2 (Anna) resigned"
    russian = client.get(f"/api/games/{game.id}", headers={"Accept-Language": "ru"}).json()
    assert (
        russian["ending"]["text"] != "Seat 2 (Anna) resigned"
        and "Anna" in russian["ending"]["text"]
    )


def test_with_three_seats_a_resigned_seat_is_played_on_until_one_is_left(
    client: TestClient,
) -> None:
    game = create_game(client, game="board", num_players=3)
    first = {seat: state(client, game, seat) for seat in game.tokens}[0]
    (mover,) = first["to_move"]["players"]
    other, last_one = (s for s in (0, 1, 2) if s != mover)
    out = client.post(f"/api/games/{game.id}/resign", headers=game.auth(mover)).json()
    assert out["status"] == "running" and out["ending"] is None
    seat = out["clock"]["seats"][mover]
    assert seat["resigned"] and seat["computer"] and seat["left_ms"] is None
    # the computer plays the resigned seat on: the others' game goes on
    wait_for(
        lambda: state(client, game, other),
        lambda m: m["version"] > first["version"] and mover not in m["to_move"]["players"],
    )
    refused = client.post(f"/api/games/{game.id}/resign", headers=game.auth(mover))
    assert_error(refused, 409, "game_over")
    last = client.post(f"/api/games/{game.id}/resign", headers=game.auth(other)).json()
    assert last["status"] == "finished" and last["ending"]["winners"] == [last_one]
    assert last["ending"]["text"] == f"Seat {other + 1} resigned"


def test_a_per_decision_clock_run_out_hands_the_seat_to_the_computer(client: TestClient) -> None:
    game = clocked(client, MOVE_CLOCK)
    first = state(client, game, 1)
    assert first["version"] == 2 and first["to_move"]["players"] == [0]
    clock = first["clock"]
    assert clock["mode"] == "move" and clock["started"]
    assert clock["seats"][0]["running"] and not clock["seats"][1]["running"]
    assert 0 < clock["seats"][0]["left_ms"] <= 60_000
    age_clock(client, game.id, 61)
    # the server's watch acts on it: the computer stakes for seat 1 (index 0)
    moved = wait_for(lambda: state(client, game, 1), lambda m: m["version"] > 2)
    assert moved["clock"]["seats"][0]["computer"]
    assert moved["to_move"]["kind"] == "simultaneous" and moved["status"] == "running"
    # the person is back: the computer stops playing for the seat
    back = client.post(f"/api/games/{game.id}/back", headers=game.auth(0))
    assert back.status_code == 200, back.text
    assert not back.json()["clock"]["seats"][0]["computer"]
    assert_error(client.post(f"/api/games/{game.id}/back"), 403, "forbidden")


def test_a_seat_that_loses_on_time_ends_the_game_out_of_time(client: TestClient) -> None:
    game = clocked(client, {**MOVE_CLOCK, "on_timeout": "lose"}, seats=[{"name": "Boris"}, {}])
    age_clock(client, game.id, 61)
    over = wait_for(lambda: state(client, game, 1), lambda m: m["status"] == "finished")
    assert over["ending"]["reason"] == "out_of_time" and over["ending"]["winners"] == [1]
    assert over["ending"]["text"] == "Seat 1 (Boris) ran out of time"
    assert over["version"] == 2  # nobody moved


def test_the_chess_clock_charges_the_time_spent_and_adds_the_increment(client: TestClient) -> None:
    game = clocked(client, {"mode": "chess", "seconds": 300, "increment": 5, "level": "random"})
    age_clock(client, game.id, 100)
    after = act(client, game, 0, "stake 1", version=2)
    assert after.status_code == 200, after.text
    seats = after.json()["clock"]["seats"]
    # 300 s - 100 s (and the moments the requests took) + 5 s
    assert 200_000 <= seats[0]["left_ms"] <= 205_000
    # the secret choice that follows: both seats owe it, both clocks run
    assert seats[0]["running"] and seats[1]["running"]
    assert 200_000 <= seats[1]["left_ms"] <= 300_000


def test_bad_time_controls_are_refused_before_any_game_is_made(client: TestClient) -> None:
    def create(clock: dict[str, Any]) -> Any:
        return client.post("/api/games", json={"game": "toy_duel", "clock": clock})

    before = client.get("/api/games").json()
    assert_error(create({"mode": "hourglass"}), 422, "malformed_request")
    assert_error(create({"mode": "move", "seconds": 1}), 422, "malformed_request")
    assert_error(create({"mode": "move", "increment": 3}), 422, "malformed_request")
    assert_error(create({"mode": "move", "level": "grandmaster"}), 422, "invalid_params")
    assert client.get("/api/games").json() == before


def test_a_restarted_server_keeps_the_clock_and_acts_on_it(database_url: str) -> None:
    # this one never looks at the clocks: it stops before its first look
    with TestClient(create_app(make_settings(database_url, clock_check_seconds=60))) as client:
        game = clocked(client, MOVE_CLOCK)
        engine = engine_of(client)
        age_clock(client, game.id, 61)
        with Session(engine) as session:
            assert session.scalar(select(GameRow.version).where(GameRow.id == game.id)) == 2
    with TestClient(create_app(make_settings(database_url))) as client:
        moved = wait_for(lambda: state(client, game, 1), lambda m: m["version"] > 2)
        assert moved["clock"]["seats"][0]["computer"]


def test_an_abandoned_game_is_closed_and_leaves_the_lobby_whatever_its_clock(
    database_url: str,
) -> None:
    with TestClient(create_app(make_settings(database_url, clock_check_seconds=60))) as client:
        idle = clocked(client, {**MOVE_CLOCK, "seconds": 86_400})
        fresh = clocked(client, {**MOVE_CLOCK, "seconds": 86_400})
        listed = {g["id"] for g in client.get("/api/games").json()}
        assert {idle.id, fresh.id} <= listed
        with Session(engine_of(client)) as session, session.begin():
            session.execute(
                update(GameRow)
                .where(GameRow.id == idle.id)
                .values(updated=datetime.now(UTC) - timedelta(days=15))
            )
    with TestClient(create_app(make_settings(database_url, abandon_days=14))) as client:
        listed = {g["id"] for g in client.get("/api/games").json()}
        assert idle.id not in listed and fresh.id in listed
        assert_error(client.get(f"/api/games/{idle.id}"), 404, "not_found")
