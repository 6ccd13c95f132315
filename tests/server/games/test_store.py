"""Storage on SQLite and PostgreSQL: migrations, durability settings, racing writers,
restarts and the live WebSocket."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import inspect, text

from koth.server.app import create_app
from koth.server.database import SqliteBusyError, make_engine, migrate, sqlite_in_use
from koth.server.errors import StaleVersionError
from koth.server.games.rows import StoredSeat
from koth.server.games.schemas import GameStatus, SeatKind
from koth.server.games.store import Repository
from tests.server.conftest import create_game, make_settings


def new_repository(url: str) -> Repository:
    engine = make_engine(url)
    migrate(engine)
    return Repository(engine)


def test_migrations_create_the_schema_once(database_url: str) -> None:
    repository = new_repository(database_url)
    migrate(repository.engine)  # idempotent
    tables = set(inspect(repository.engine).get_table_names())
    assert {"games", "seats", "moves", "pending", "alembic_version"} <= tables
    uniques = inspect(repository.engine).get_unique_constraints("moves")
    assert any(set(u["column_names"]) == {"game_id", "version"} for u in uniques)
    if database_url.startswith("sqlite"):
        with repository.engine.connect() as connection:
            assert connection.execute(text("PRAGMA journal_mode")).scalar() == "wal"
            assert connection.execute(text("PRAGMA synchronous")).scalar() == 2  # FULL
    repository.engine.dispose()


def test_two_writers_racing_for_one_version_exactly_one_wins(database_url: str) -> None:
    repository = new_repository(database_url)
    repository.create_game(
        game_id="race",
        game_name="toy_duel",
        params={"max_card": 4},
        chance_seed=1,
        seats=[StoredSeat(0, SeatKind.HUMAN, None, None, "h0", False)],
        status=GameStatus.RUNNING,
        initial_moves=[{"player": -1, "action": "deal 1"}],
    )
    barrier = threading.Barrier(2)

    def write(action: str) -> str:
        barrier.wait()  # both sessions start their transaction at the same moment
        try:
            repository.append_moves("race", 1, [{"player": -1, "action": action}])
        except StaleVersionError as exc:
            assert "stale" in str(exc)
            return "stale"
        return "ok"

    with ThreadPoolExecutor(2) as pool:
        results = sorted(pool.map(write, ["deal 2", "deal 3"]))
    assert results == ["ok", "stale"]
    moves = repository.moves("race")
    assert len(moves) == 2 and moves[1]["action"] in ("deal 2", "deal 3")
    assert repository.get_game("race").version == 2  # type: ignore[union-attr]
    repository.engine.dispose()


def test_a_second_server_on_one_sqlite_file_is_refused(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'koth.sqlite3'}"
    with TestClient(create_app(make_settings(url))):
        with (
            pytest.raises(SqliteBusyError, match="PostgreSQL"),
            TestClient(create_app(make_settings(url))),
        ):
            pass
        assert sqlite_in_use(url) == str((tmp_path / "koth.sqlite3").resolve())
    assert sqlite_in_use(url) is None
    with TestClient(create_app(make_settings(url))):  # free again once the first stopped
        pass


def test_two_servers_on_one_database_cannot_both_accept(database_url: str) -> None:
    """Two app instances (as two server processes would) share the store; both act at
    version 2: whether the second has heard of the first's move yet or not, only one
    action is accepted."""
    if database_url.startswith("sqlite"):
        pytest.skip("SQLite serves one process only (the test above)")
    first, second = create_app(make_settings(database_url)), create_app(make_settings(database_url))
    with TestClient(first) as a, TestClient(second) as b:
        game = create_game(a)
        for client in (a, b):  # both cache the game at version 2
            assert client.get(f"/api/games/{game.id}", headers=game.auth(0)).json()["version"] == 2
        ok = a.post(
            f"/api/games/{game.id}/actions", json={"action": "stake 1"}, headers=game.auth(0)
        )
        late = b.post(
            f"/api/games/{game.id}/actions",
            json={"action": "stake 2", "version": 2},
            headers=game.auth(0),
        )
        assert ok.status_code == 200
        assert late.status_code == 409 and late.json()["error"]["code"] == "stale"
        # the loser reloads from the store and now agrees with the winner
        assert b.get(f"/api/games/{game.id}").json()["version"] == 3
        assert b.get(f"/api/games/{game.id}").json()["view"]["stake"] == 1


def test_concurrent_requests_with_the_same_version(client: TestClient) -> None:
    game = create_game(client)
    url = f"/api/games/{game.id}/actions"

    def send(action: str) -> int:
        body = {"action": action, "version": 2}
        return client.post(url, json=body, headers=game.auth(0)).status_code

    with ThreadPoolExecutor(4) as pool:
        statuses = sorted(pool.map(send, ["stake 1", "stake 2", "stake 1", "stake 2"]))
    assert statuses == [200, 409, 409, 409]


def test_a_restarted_server_rebuilds_every_game_from_its_moves(database_url: str) -> None:
    views: dict[int | None, Any] = {}
    with TestClient(create_app(make_settings(database_url))) as client:
        game = create_game(client)
        client.post(
            f"/api/games/{game.id}/actions", json={"action": "stake 2"}, headers=game.auth(0)
        )
        client.post(f"/api/games/{game.id}/actions", json={"action": "stay"}, headers=game.auth(1))
        for seat in (0, 1, None):
            headers = game.auth(seat) if seat is not None else {}
            views[seat] = client.get(f"/api/games/{game.id}", headers=headers).json()
    with TestClient(create_app(make_settings(database_url))) as client:
        for seat in (0, 1, None):
            headers = game.auth(seat) if seat is not None else {}
            again = client.get(f"/api/games/{game.id}", headers=headers).json()
            assert again == views[seat]
        assert again["submitted"] == [1]  # the secret submission survived, still secret
        done = client.post(
            f"/api/games/{game.id}/actions", json={"action": "fold"}, headers=game.auth(0)
        ).json()
        assert done["outcome"] is not None


def test_the_websocket_pushes_each_seat_its_own_view(client: TestClient) -> None:
    game = create_game(client)
    url = f"/api/games/{game.id}/ws"
    with client.websocket_connect(url) as seat1, client.websocket_connect(url) as watcher:
        seat1.send_json({"type": "hello", "token": game.tokens[1]})
        watcher.send_json({"type": "hello", "token": None})
        first = seat1.receive_json()
        assert first["type"] == "state" and first["seat"] == 1 and first["version"] == 2
        assert watcher.receive_json()["view"]["cards"] == [None, None]
        client.post(
            f"/api/games/{game.id}/actions", json={"action": "stake 1"}, headers=game.auth(0)
        )
        update = seat1.receive_json()
        for _ in range(5):  # seats being claimed are announced too, at the same version
            if update["version"] == 3:
                break
            update = seat1.receive_json()
        assert update["version"] == 3 and update["view"]["stake"] == 1 and update["seat"] == 1
        assert update["view"]["cards"][0] is None
        assert [a["text"] for a in update["legal"]] == ["stay", "fold"]
        seat1.send_json({"type": "ping"})
        assert seat1.receive_json() == {"type": "pong"}

    with client.websocket_connect(url) as intruder:
        intruder.send_json({"type": "hello", "token": "not-a-token"})
        error = intruder.receive_json()
        assert error["type"] == "error" and error["error"]["code"] == "forbidden"
    with client.websocket_connect("/api/games/missing/ws") as lost:
        lost.send_json({"type": "hello", "token": None})
        assert lost.receive_json()["error"]["code"] == "not_found"


@pytest.mark.parametrize("seats", [2])
def test_pages_render(client: TestClient, seats: int) -> None:
    lobby = client.get("/")
    assert lobby.status_code == 200 and "toy_duel" in lobby.text
    form = (
        "game=toy_duel&param.max_card=5&seat.0.kind=human&seat.1.kind=computer&seat.1.agent=random"
    )
    created = client.post(
        "/lobby/create",
        content=form,
        headers={"Content-Type": "application/x-www-form-urlencoded"},
        follow_redirects=False,
    )
    # the creator is sent to the table, seated (the token in the fragment)
    assert created.status_code == 303 and "#seat=0&token=" in created.headers["location"]
    game_id = client.get("/api/games").json()[0]["id"]
    assert created.headers["location"].startswith(f"/games/{game_id}#")
    assert client.get(f"/api/games/{game_id}").json()["params"] == {"max_card": 5}
    assert client.get(f"/games/{game_id}").status_code == 200
    assert client.get(f"/games/{game_id}/replay").status_code == 200
    assert client.get("/games/missing").status_code == 404
    bad = client.post(
        "/lobby/create",
        content="game=toy_duel&param.max_card=77&seat.0.kind=human&seat.1.kind=human",
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    assert bad.status_code == 422 and "max_card" in bad.text
    assert client.get("/static/client.js").status_code == 200


def test_of_two_takers_of_an_open_seat_exactly_one_wins(database_url: str) -> None:
    engine = make_engine(database_url)
    migrate(engine)
    repository = Repository(engine)
    repository.create_game(
        game_id="open",
        game_name="toy_duel",
        params={},
        chance_seed=1,
        seats=[
            StoredSeat(0, SeatKind.HUMAN, None, None, "a" * 64, claimed=True),
            StoredSeat(1, SeatKind.HUMAN, None, None, "b" * 64, claimed=False),
        ],
        status=GameStatus.OPEN,
        initial_moves=[],
    )
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lambda h: repository.take_seat("open", 1, h), ["c" * 64] * 4))
    engine.dispose()
    assert results.count(GameStatus.RUNNING) == 1 and results.count(None) == 3
