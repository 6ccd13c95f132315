"""Presence across processes: two app instances on one PostgreSQL database show the same
seats online, from the live connections each holds; and a rated game's ratings change
once however many processes see its end."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from koth.server.app import create_app
from tests.server.conftest import make_settings, postgres_schema
from tests.server.games.friends_helpers import PLAYERS, bearer, finish, two_friends
from tests.server.test_processes import eventually


@pytest.fixture
def pair() -> Iterator[tuple[TestClient, TestClient]]:
    with (
        postgres_schema("koth_presence") as url,
        TestClient(create_app(make_settings(url))) as a,
        TestClient(create_app(make_settings(url))) as b,
    ):
        yield a, b


class Table:
    """A table's live connection and the last picture it was sent."""

    def __init__(self, socket: WebSocketTestSession, token: str | None) -> None:
        self.socket = socket
        socket.send_json({"type": "hello", "token": token})
        self.last: dict[str, Any] = socket.receive_json()

    def until_online(self, wanted: list[int]) -> None:
        """The frames until one shows the seats ``wanted`` online (each frame is
        awaited: the notice may take a moment to cross between the processes)."""
        for _ in range(200):
            if self.last.get("type") == "state" and self.last["friends"]["online"] == wanted:
                return
            self.last = self.socket.receive_json()
        raise AssertionError(f"no frame showed seats {wanted} online")


def test_seats_connected_to_two_processes_are_online_on_both(
    pair: tuple[TestClient, TestClient],
) -> None:
    a, b = pair
    game_id, tokens = two_friends(a)
    with b.websocket_connect(f"/api/games/{game_id}/ws") as boris_socket:
        boris = Table(boris_socket, tokens[1])
        boris.until_online([1])
        with a.websocket_connect(f"/api/games/{game_id}/ws") as anna_socket:
            anna = Table(anna_socket, tokens[0])
            anna.until_online([0, 1])  # Boris is connected to the other process
            boris.until_online([0, 1])
            with a.websocket_connect(f"/api/games/{game_id}/ws") as watcher_socket:
                # a spectator is nobody's presence
                Table(watcher_socket, None).until_online([0, 1])
        boris.until_online([1])  # Anna closed her table
    # Boris's table closed too: the other process hears of it
    assert eventually(lambda: a.get(f"/api/games/{game_id}").json()["friends"]["online"] == [])


def test_a_rated_game_seen_by_two_processes_changes_the_ratings_once(
    pair: tuple[TestClient, TestClient],
) -> None:
    a, b = pair
    game_id, tokens = two_friends(a, rated=True)
    finish(b, game_id, tokens, winner=1)
    for client in (a, b, a, b):
        client.get(f"/api/games/{game_id}")
    for name in ("Anna", "Boris"):
        history = a.get("/api/me/ratings", headers=bearer(PLAYERS[name])).json()["history"]
        assert [h["game_id"] for h in history] == [game_id]
