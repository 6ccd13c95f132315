"""The replay analysis endpoint: computed in the background, kept across restarts."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import ValidationError

from koth.server.app import create_app
from tests.server.conftest import Created, create_game, make_settings

ANALYST = "ismcts:iters=30"


def _finished_cards_game(client: TestClient) -> Created:
    game = create_game(client, "cards", seats=[{"kind": "computer", "agent": "heuristic"}] * 2)
    deadline = time.monotonic() + 30
    while client.get(f"/api/games/{game.id}").json()["outcome"] is None:
        assert time.monotonic() < deadline, "the computer seats never finished"
        time.sleep(0.05)
    return game


def _ready(client: TestClient, game_id: str) -> dict[str, Any]:
    deadline = time.monotonic() + 120
    while True:
        response = client.get(f"/api/games/{game_id}/analysis")
        assert response.status_code == 200, response.text
        body: dict[str, Any] = response.json()
        if body["status"] == "ready":
            return body
        assert body["status"] == "analysing", body
        assert time.monotonic() < deadline, "the analysis never finished"
        time.sleep(0.2)


def test_a_finished_game_is_analysed_once_and_kept(database_url: str) -> None:
    settings = make_settings(database_url, analysis_agent=ANALYST)
    with TestClient(create_app(settings)) as client:
        game = _finished_cards_game(client)
        first = client.get(f"/api/games/{game.id}/analysis").json()
        assert first["status"] in ("analysing", "ready") and first["game_id"] == game.id
        body = _ready(client, game.id)
        assert body["agent"].startswith(f"{ANALYST}:early=0:seconds=")
        assert body["level"] is None  # 30 iterations are no computer level
        assert [s["seat"] for s in body["seats"]] == [0, 1]
        results = sorted(s["result"] for s in body["seats"])
        assert results in ([0.0, 1.0], [0.5, 0.5])
        record = client.get(f"/api/games/{game.id}/record").json()
        for seat in body["seats"]:
            assert seat["decisions"]
            for d in seat["decisions"]:
                assert d["seat"] == seat["seat"] and d["mark"] in ("??", "?", "?!", "")
                assert 0 <= d["win_chance"] <= 1 and 0 <= d["played_chance"] <= 1
                move = record["moves"][d["move"]]
                played = move.get("action") or move["joint"][str(d["seat"])]
                assert played == d["played"]
    # a restart reads it back from the database: no second analysis
    with TestClient(create_app(settings)) as client:
        again = client.get(f"/api/games/{game.id}/analysis").json()
        assert again == body


def test_analysis_is_refused_while_running_or_for_unknown_games(database_url: str) -> None:
    with TestClient(create_app(make_settings(database_url, analysis_agent=ANALYST))) as client:
        running = create_game(client, "cards")
        response = client.get(f"/api/games/{running.id}/analysis")
        assert response.status_code == 409 and response.json()["error"]["code"] == "not_finished"
        response = client.get("/api/games/nosuchgame/analysis")
        assert response.status_code == 404 and response.json()["error"]["code"] == "not_found"


def test_a_game_without_search_agents_is_refused(database_url: str) -> None:
    with TestClient(create_app(make_settings(database_url, analysis_agent=ANALYST))) as client:
        toy = create_game(client, seats=[{"kind": "computer"}, {"kind": "computer"}])
        deadline = time.monotonic() + 60
        while client.get(f"/api/games/{toy.id}").json()["outcome"] is None:
            assert time.monotonic() < deadline, "the computer seats never finished"
            time.sleep(0.02)
        response = client.get(f"/api/games/{toy.id}/analysis")
        assert response.status_code == 422, response.text
        assert response.json()["error"]["code"] == "invalid_request"
        assert "no search agent" in response.json()["error"]["message"]


@pytest.mark.parametrize("spec", ["heuristic", "ismcts:nonsense=1", "minimax"])
def test_the_analysing_agent_setting_must_be_a_search(spec: str) -> None:
    with pytest.raises(ValidationError, match="analysis_agent"):
        make_settings("sqlite://", analysis_agent=spec)
