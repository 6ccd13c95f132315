"""WebSockets under abuse: a binary frame, a frame larger than the protocol needs, and a
crowd of spectators or projectors, none of which can keep a player out."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest
import websockets
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from koth.server.sockets import MAX_MESSAGE_BYTES
from tests.server.conftest import create_game
from tests.server.live_server import LiveServer
from tests.server.quiz.helpers import QuizApi
from tests.server.test_limits import client_with

SPECTATOR = {"type": "hello", "token": None}


@pytest.fixture
def crowded(tmp_path: Path) -> Iterator[TestClient]:
    with client_with(tmp_path, sockets_per_game=2, sockets_per_event=2) as client:
        yield client


def closed_with(ws: WebSocketTestSession) -> int:
    with pytest.raises(WebSocketDisconnect) as closed:
        while True:
            ws.receive_json()
    return closed.value.code


@pytest.mark.parametrize("after_hello", [False, True])
def test_a_binary_frame_closes_with_4400(crowded: TestClient, after_hello: bool) -> None:
    game = create_game(crowded)
    with crowded.websocket_connect(f"/api/games/{game.id}/ws") as ws:
        if after_hello:
            ws.send_json(SPECTATOR)
            assert ws.receive_json()["type"] == "state"
        ws.send_bytes(b'{"type": "hello", "token": null}')
        error = ws.receive_json()
        assert error["type"] == "error" and "binary" in error["error"]["message"]
        assert closed_with(ws) == 4400


def test_spectators_never_keep_a_seat_out(crowded: TestClient) -> None:
    game = create_game(crowded)
    with ExitStack() as stack:
        for _ in range(2):  # the spectators' cap is full
            ws = stack.enter_context(crowded.websocket_connect(f"/api/games/{game.id}/ws"))
            ws.send_json(SPECTATOR)
            assert ws.receive_json()["type"] == "state"
        third = stack.enter_context(crowded.websocket_connect(f"/api/games/{game.id}/ws"))
        third.send_json(SPECTATOR)
        assert third.receive_json()["error"]["code"] == "too_many_connections"
        for seat in (0, 1):
            player = stack.enter_context(crowded.websocket_connect(f"/api/games/{game.id}/ws"))
            player.send_json({"type": "hello", "token": game.tokens[seat]})
            message = player.receive_json()
            assert message["type"] == "state" and message["seat"] == seat


def test_projectors_never_keep_a_team_or_the_judge_out(crowded: TestClient) -> None:
    api = QuizApi(crowded)
    api.create(title="Crowd")
    token = api.join("Owls")
    with ExitStack() as stack:
        for _ in range(2):
            ws = stack.enter_context(crowded.websocket_connect(api.url("ws")))
            ws.send_json({"type": "hello", "role": "projector"})
            assert ws.receive_json()["type"] == "state"
        extra = stack.enter_context(crowded.websocket_connect(api.url("ws")))
        extra.send_json({"type": "hello", "role": "projector"})
        assert extra.receive_json()["error"]["code"] == "too_many_connections"
        for role, secret in (("team", token), ("judge", api.host_token)):
            ws = stack.enter_context(crowded.websocket_connect(api.url("ws")))
            ws.send_json({"type": "hello", "role": role, "token": secret})
            assert ws.receive_json()["type"] == "state"


def test_a_frame_larger_than_the_protocol_needs_is_refused_unread(server: LiveServer) -> None:
    game = create_game_over_http(server.url)

    async def send_too_much() -> int:
        url = f"ws://127.0.0.1:{server.port}/api/games/{game}/ws"
        # the client's own limit is lifted: only the server's may refuse
        async with websockets.connect(url, max_size=None, compression=None) as ws:
            await ws.send("x" * (MAX_MESSAGE_BYTES + 1))
            try:
                await asyncio.wait_for(ws.recv(), 30)
            except websockets.ConnectionClosed as exc:
                assert exc.rcvd is not None
                return exc.rcvd.code
            raise AssertionError("the server answered an oversized frame")

    assert asyncio.run(send_too_much()) == 1009  # "message too big", from the header


def test_messages_go_uncompressed_however_a_client_offers(server: LiveServer) -> None:
    """A move's message is built once per audience; compressing it would be paid once per
    connection (a game's hundred spectators, a hundred times)."""
    game = create_game_over_http(server.url)

    async def negotiated() -> tuple[str | None, str]:
        url = f"ws://127.0.0.1:{server.port}/api/games/{game}/ws"
        async with websockets.connect(url, compression="deflate") as ws:  # offered
            await ws.send('{"type": "hello", "token": null}')
            first = await asyncio.wait_for(ws.recv(), 30)
            assert ws.response is not None
            return ws.response.headers.get("Sec-WebSocket-Extensions"), str(first)

    extensions, first = asyncio.run(negotiated())
    assert extensions is None and '"type":"state"' in first.replace(" ", "")


def create_game_over_http(base: str) -> str:
    import httpx

    response = httpx.post(f"{base}/api/games", json={"game": "cards", "params": {}}, timeout=30)
    assert response.status_code == 201, response.text
    game_id: str = response.json()["id"]
    return game_id
