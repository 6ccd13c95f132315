"""What an operator's tools see: liveness, readiness, metrics, the access log, and
``koth serve`` refusing what cannot work."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from tests.server.conftest import create_game


def test_health_and_readiness(client: TestClient) -> None:
    assert client.get("/healthz").json() == {"status": "ok", "detail": ""}
    assert client.get("/readyz").json()["status"] == "ok"
    engine = client.app.state.engine  # type: ignore[attr-defined]
    with engine.begin() as connection:
        connection.execute(text("UPDATE alembic_version SET version_num = '0001_initial'"))
    not_ready = client.get("/readyz")
    assert not_ready.status_code == 503 and "migrations" in not_ready.json()["detail"]


def test_metrics_count_requests_moves_and_sockets(client: TestClient) -> None:
    game = create_game(client)
    client.post(f"/api/games/{game.id}/actions", json={"action": "stake 1"}, headers=game.auth(0))
    with client.websocket_connect(f"/api/games/{game.id}/ws") as ws:
        ws.send_json({"type": "hello", "token": None})
        ws.receive_json()
        metrics = client.get("/metrics").text
        assert 'koth_websockets{feature="games"} 1.0' in metrics
    assert 'route="/api/games/{game_id}/actions"' in metrics
    assert "koth_moves_committed_total" in metrics
    assert "koth_request_seconds_bucket" in metrics


def test_the_access_log_names_routes_never_secrets(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    game = create_game(client)
    with caplog.at_level(logging.INFO, logger="koth.access"):
        client.get(f"/api/games/{game.id}?secret=abc", headers=game.auth(0))
    lines = [json.loads(r.getMessage()) for r in caplog.records if r.name == "koth.access"]
    assert lines[-1]["route"] == "/api/games/{game_id}" and lines[-1]["status"] == 200
    logged = caplog.text
    assert game.tokens[0] not in logged and "secret" not in logged and game.id not in logged


def test_nested_routes_are_named_with_their_whole_path(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    event = client.post("/api/quiz/events", json={"title": "Routes"}).json()
    host = {"Authorization": f"Bearer {event['host_token']}"}
    with caplog.at_level(logging.INFO, logger="koth.access"):
        client.post(f"/api/quiz/events/{event['id']}/judge/start", json={}, headers=host)
        client.get("/api/quiz/series/nosuchseries")
    lines = [json.loads(r.getMessage()) for r in caplog.records if r.name == "koth.access"]
    routes = [line["route"] for line in lines[-2:]]
    assert routes == ["/api/quiz/events/{event_id}/judge/start", "/api/quiz/series/{series_id}"]
    assert set(routes) <= set(client.get("/openapi.json").json()["paths"])
    assert 'route="/api/quiz/events/{event_id}/judge/start"' in client.get("/metrics").text


def serve(*args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-c", "from koth.cli import main; main()", "serve", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--workers", "2", "--database", "sqlite:///{tmp}/k.sqlite3"], "PostgreSQL"),
        (["--database", "bogus://x"], "bogus"),
        (["--port", "99999"], "port"),
    ],
)
def test_koth_serve_refuses_what_cannot_work(tmp_path: Path, args: list[str], says: str) -> None:
    result = serve(*(a.replace("{tmp}", str(tmp_path)) for a in args))
    assert result.returncode == 2, result.stderr
    output = result.stdout + result.stderr
    assert says in output and "Traceback" not in output
