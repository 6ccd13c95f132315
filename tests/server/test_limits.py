"""Every limit against abuse: the refusal (413, 429 with Retry-After, a closed
WebSocket) and the stored state unchanged by what was refused."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from prometheus_client import REGISTRY
from starlette.websockets import WebSocketDisconnect

from koth.server.app import create_app
from tests.server.conftest import create_game, make_settings


def client_with(tmp_path: Path, **settings: Any) -> TestClient:
    return TestClient(
        create_app(make_settings(f"sqlite:///{tmp_path / 'limits.sqlite3'}", **settings))
    )


@pytest.fixture
def small(tmp_path: Path) -> Iterator[TestClient]:
    with client_with(
        tmp_path,
        max_body_bytes=2048,
        rate_create="2/minute",
        rate_join="2/minute",
        rate_recover="1/minute",
        rate_lookup="5/minute",
        sockets_per_game=1,
        sockets_per_client=2,
    ) as client:
        yield client


def lobby_count(client: TestClient) -> int:
    statuses = {"status": ["open", "running", "finished"]}
    return len(client.get("/api/games", params=statuses).json())


def test_a_body_over_the_limit_is_refused_before_it_is_read(small: TestClient) -> None:
    body = {"game": "toy_duel", "params": {"pad": "x" * 5000}}
    response = small.post("/api/games", json=body)
    assert response.status_code == 413 and response.json()["error"]["code"] == "payload_too_large"

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it arrives
        yield b'{"game": "toy_duel", "params": {"pad": "'
        for _ in range(10):
            yield b"x" * 1000
        yield b'"}}'

    streamed = small.post(
        "/api/games", content=chunks(), headers={"Content-Type": "application/json"}
    )
    assert streamed.status_code == 413
    assert small.get("/api/games").json() == []


def test_creating_games_is_rate_limited_per_address(small: TestClient) -> None:
    for _ in range(2):
        assert small.post("/api/games", json={"game": "toy_duel"}).status_code == 201
    refused = small.post("/api/games", json={"game": "toy_duel"})
    assert refused.status_code == 429 and refused.json()["error"]["code"] == "rate_limited"
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    refused_event = small.post("/api/quiz/events", json={})
    assert refused_event.status_code == 429  # games and events share the creation limit


def test_joins_and_recovery_codes_are_rate_limited(tmp_path: Path) -> None:
    with client_with(tmp_path, rate_join="2/minute", rate_recover="1/minute") as client:
        created = client.post("/api/quiz/events", json={}).json()
        code = created["join_code"]
        joined = client.post("/api/quiz/join", json={"code": code, "team": "A"}).json()
        assert (
            client.post("/api/quiz/join", json={"code": "WRONG9", "team": "B"}).status_code == 404
        )
        refused = client.post("/api/quiz/join", json={"code": code, "team": "C"})
        assert refused.status_code == 429 and "Retry-After" in refused.headers
        judge = client.get(
            f"/api/quiz/events/{created['id']}/judge",
            headers={"Authorization": f"Bearer {created['host_token']}"},
        ).json()
        assert [t["name"] for t in judge["teams"]] == ["A"]  # the refused join left no trace
        guess = {"code": code, "team": "A", "recovery_code": "AAAA-BBBB-CCCC"}
        assert client.post("/api/quiz/recover", json=guess).status_code == 403
        right = {**guess, "recovery_code": joined["recovery_code"]}
        assert client.post("/api/quiz/recover", json=right).status_code == 429


def test_asking_for_a_seat_of_my_games_is_rate_limited(tmp_path: Path) -> None:
    with client_with(tmp_path, rate_recover="1/minute") as client:
        game = create_game(client)
        key = {"Authorization": "Bearer " + "k" * 40}
        first = client.post(f"/api/me/games/{game.id}/seat", headers=key)
        assert first.status_code == 403  # no seat of that game is tied to this key
        refused = client.post(f"/api/me/games/{game.id}/seat", headers=key)
        assert refused.status_code == 429 and "Retry-After" in refused.headers


def test_lookups_of_games_are_rate_limited(small: TestClient) -> None:
    game = create_game(small)
    statuses = [small.get(f"/api/games/{game.id}").status_code for _ in range(6)]
    assert statuses == [200] * 5 + [429]


def test_answers_are_rate_limited(tmp_path: Path) -> None:
    with client_with(tmp_path, rate_act="3/minute") as client:
        created = client.post("/api/quiz/events", json={"teams": ["A", "B"]}).json()
        host = {"Authorization": f"Bearer {created['host_token']}"}
        url = f"/api/quiz/events/{created['id']}"
        for command in ("start", "open_question", "lock"):
            assert client.post(f"{url}/judge/{command}", json={}, headers=host).status_code == 200
        refused = client.post(f"{url}/judge/open_answering", json={}, headers=host)
        assert refused.status_code == 429
        assert client.get(f"{url}/judge", headers=host).json()["phase"]["stage"] == "read"


def test_websockets_are_capped_per_game_and_per_address(small: TestClient) -> None:
    first_game, second_game = create_game(small), create_game(small)
    hello = {"type": "hello", "token": None}
    with small.websocket_connect(f"/api/games/{first_game.id}/ws") as one:
        one.send_json(hello)
        assert one.receive_json()["type"] == "state"
        with small.websocket_connect(f"/api/games/{first_game.id}/ws") as two:
            two.send_json(hello)
            assert two.receive_json()["error"]["code"] == "too_many_connections"
            with pytest.raises(WebSocketDisconnect) as closed:
                two.receive_json()
            assert closed.value.code == 4429
        with small.websocket_connect(f"/api/games/{second_game.id}/ws") as three:
            three.send_json(hello)
            assert three.receive_json()["type"] == "state"
            with small.websocket_connect(f"/api/games/{second_game.id}/ws") as four:
                # the address holds 2 sockets: a third is refused before its hello
                assert four.receive_json()["error"]["code"] == "too_many_connections"


@pytest.mark.parametrize(
    "frame",
    [
        "[1, 2]",
        '"hello"',
        '{"type": "hello", "token": 5}',
        '{"type": "hello", "token": null, "extra": 1}',
        "[" * 1000 + "]" * 1000,
        '{"type": "hello", "token": "' + "x" * 5000 + '"}',
        "not json",
    ],
)
def test_a_hello_of_another_shape_closes_with_4400(small: TestClient, frame: str) -> None:
    game = create_game(small)
    with small.websocket_connect(f"/api/games/{game.id}/ws") as ws:
        ws.send_text(frame)
        assert ws.receive_json()["type"] == "error"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4400


def test_agent_budgets_over_the_cap_are_refused(tmp_path: Path) -> None:
    with client_with(tmp_path, max_agent_iterations=500) as client:
        seats = [{"kind": "computer", "agent": "mcts", "budget": 501}, {"kind": "human"}]
        refused = client.post("/api/games", json={"game": "board", "seats": seats})
        assert refused.status_code == 422 and "500" in refused.json()["error"]["message"]
        assert client.get("/api/games").json() == []
        assert 'max="500"' in client.get("/").text  # the lobby offers only allowed values


def test_two_long_thinkers_do_not_delay_a_third_games_computer_move(tmp_path: Path) -> None:
    """Two games whose computer seats ask for the largest budget (and think their whole
    time cap per move) leave room for a third game's quick computer seat: it moves while
    the thinkers are still on their first move. Every wait is for an event."""
    cap = 5.0
    with client_with(tmp_path, max_agent_iterations=10**9, max_agent_seconds=cap) as client:
        thinker = {"kind": "computer", "agent": "mcts", "budget": 10**9}
        thinkers = []
        for _ in range(2):
            seats = [thinker, thinker]
            created = client.post("/api/games", json={"game": "board", "seats": seats})
            assert created.status_code == 201
            thinkers.append(created.json()["id"])
        deadline = time.monotonic() + 120
        while (REGISTRY.get_sample_value("koth_computer_decisions_waiting") or 0) < 2:
            assert time.monotonic() < deadline, "the two thinkers never asked for a move"
            time.sleep(0.02)
        versions = [client.get(f"/api/games/{g}").json()["version"] for g in thinkers]
        quick = [{"kind": "computer", "agent": "random"}, {"kind": "human"}]
        started = time.monotonic()
        game = client.post("/api/games", json={"game": "toy_duel", "seats": quick}).json()

        def computer_to_move() -> bool:  # until seat 0 (the computer) has moved
            state = client.get(f"/api/games/{game['id']}").json()
            return bool(state["to_move"]["players"] == [0])

        while computer_to_move():
            assert time.monotonic() - started < 120, "the quick seat never moved"
            time.sleep(0.02)
        print(f"the quick seat moved {time.monotonic() - started:.2f} s after creation")
        after = [client.get(f"/api/games/{g}").json()["version"] for g in thinkers]
        assert after == versions, "the quick seat waited for a thinker's move"


def test_live_games_leave_memory_and_come_back(tmp_path: Path) -> None:
    with client_with(tmp_path, max_live_games=2) as client:
        games = [create_game(client) for _ in range(4)]
        service = client.app.state.games  # type: ignore[attr-defined]
        assert service.in_memory() == 2
        first = client.get(f"/api/games/{games[0].id}", headers=games[0].auth(0))
        assert first.status_code == 200 and first.json()["seat"] == 0  # replayed from storage
        assert service.in_memory() == 2


def test_a_watched_game_stays_in_memory(tmp_path: Path) -> None:
    with client_with(tmp_path, max_live_games=1) as client:
        watched = create_game(client)
        with client.websocket_connect(f"/api/games/{watched.id}/ws") as ws:
            ws.send_json({"type": "hello", "token": None})
            assert ws.receive_json()["type"] == "state"
            create_game(client)
            service = client.app.state.games  # type: ignore[attr-defined]
            assert watched.id in service._live  # its listener keeps it
            assert service.in_memory() == 1  # the other one left instead


def test_idle_games_and_events_leave_memory(tmp_path: Path) -> None:
    # idle for three seconds: long enough that a busy machine (the whole suite on two
    # cores) does not sweep the game between its creation and the first check
    with client_with(tmp_path, idle_seconds=3.0) as client:
        game = create_game(client)
        client.post("/api/quiz/events", json={})
        games, quiz = client.app.state.games, client.app.state.quiz  # type: ignore[attr-defined]
        assert games.in_memory() == 1
        # the app sweeps every idle_seconds / 4: wait for it, with a generous ceiling
        deadline = time.monotonic() + 120
        while (games.in_memory() or quiz.in_memory()) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert games.in_memory() == 0 and quiz.in_memory() == 0
        assert client.get(f"/api/games/{game.id}").status_code == 200
        assert games.in_memory() == 1


def test_unknown_ids_leave_nothing_behind(tmp_path: Path) -> None:
    with client_with(tmp_path) as client:
        for i in range(200):
            assert client.get(f"/api/games/unknown{i}").status_code == 404
            assert client.get(f"/api/quiz/events/unknown{i}/projector").status_code == 404
        games, quiz = client.app.state.games, client.app.state.quiz  # type: ignore[attr-defined]
        assert games.in_memory() == 0 and not games._loading
        assert quiz.in_memory() == 0
