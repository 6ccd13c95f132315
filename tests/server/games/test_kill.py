"""SIGKILL the real server in the middle of a game: every acknowledged action survives."""

from __future__ import annotations

import random
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest

from koth.core.record import GameRecord, replay
from tests.server.live_server import LiveServer

pytest.importorskip("koth.games.cards", reason="the card game is not importable yet")


def play_one(client: httpx.Client, url: str, tokens: dict[int, str], rng: random.Random) -> Any:
    """One random legal action of a seat to move; returns the acknowledged message."""
    for seat in sorted(tokens, key=lambda _: rng.random()):
        headers = {"Authorization": f"Bearer {tokens[seat]}"}
        message = client.get(url, headers=headers).json()
        if message["outcome"] is not None:
            return None
        if message["legal"]:
            choice = rng.choice(message["legal"])
            body = {"action_id": choice["id"], "version": message["version"]}
            response = client.post(f"{url}/actions", json=body, headers=headers)
            assert response.status_code == 200, response.text
            return response.json()
    raise AssertionError("nobody can act in an unfinished game")


def test_acknowledged_actions_survive_sigkill(tmp_path: Path) -> None:
    server = LiveServer(f"sqlite:///{tmp_path / 'koth.sqlite3'}").start()
    acknowledged: list[dict[str, Any]] = []
    try:
        with httpx.Client(base_url=server.url, timeout=10) as client:
            created = client.post(
                "/api/games", json={"game": "cards", "seats": [{"kind": "human"}] * 2}
            ).json()
        url = f"{server.url}/api/games/{created['id']}"
        tokens = {s["seat"]: s["token"] for s in created["seats"]}
        enough = threading.Event()

        def player() -> None:
            rng = random.Random(1)
            with httpx.Client(timeout=10) as client:
                try:
                    while True:
                        message = play_one(client, url, tokens, rng)
                        if message is None:
                            return
                        acknowledged.append(message)
                        if len(acknowledged) >= 25:
                            enough.set()
                except httpx.HTTPError:
                    return  # the server died under us: that action was never acknowledged

        thread = threading.Thread(target=player)
        thread.start()
        assert enough.wait(60), "the game did not get going"
        server.kill()  # while the player keeps sending actions
        thread.join(30)
        assert len(acknowledged) >= 25

        server.start()  # same database, fresh process
        rng = random.Random(2)
        with httpx.Client(timeout=10) as client:
            for seat in tokens:
                headers = {"Authorization": f"Bearer {tokens[seat]}"}
                now = client.get(url, headers=headers).json()
                assert now["version"] >= acknowledged[-1]["version"]
            while play_one(client, url, tokens, rng) is not None:
                pass
            record = GameRecord.model_validate(client.get(f"{url}/record").json())
    finally:
        server.stop()

    # every acknowledged message is exactly what the stored history shows at its version
    state = replay(record)
    states = [state.game.new_initial_state()]
    for move in state.history:
        after = states[-1].clone()
        after.apply_move(move)
        states.append(after)
    for message in acknowledged:
        seat = message["seat"]
        assert states[message["version"]].view(seat) == message["view"]
