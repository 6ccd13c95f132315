"""Playing a toy duel to a chosen end through the API, for the rematch, rating and
presence tests (the duel: seat 1 stakes, then both stay or fold at once; whoever stays
alone wins, both folding is a draw)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

PLAYERS = {"Anna": "a" * 40, "Boris": "b" * 40}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def act(client: TestClient, game_id: str, token: str, action: str) -> dict[str, Any]:
    response = client.post(
        f"/api/games/{game_id}/actions", json={"action": action}, headers=bearer(token)
    )
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def finish(client: TestClient, game_id: str, tokens: dict[int, str], winner: int | None) -> None:
    """Play the duel ``game_id`` to the end: ``winner`` wins (None: a draw)."""
    act(client, game_id, tokens[0], "stake 1")
    act(client, game_id, tokens[0], "stay" if winner == 0 else "fold")
    last = act(client, game_id, tokens[1], "stay" if winner == 1 else "fold")
    assert last["outcome"] is not None
    assert last["outcome"]["winners"] == ([] if winner is None else [winner])


def tie(client: TestClient, game_id: str, token: str, key: str) -> None:
    """The seat of ``token`` is played from the device of player ``key``."""
    tied = client.put(f"/api/games/{game_id}/player", json={"key": key}, headers=bearer(token))
    assert tied.status_code == 204, tied.text


def two_friends(client: TestClient, rated: bool = False) -> tuple[str, dict[int, str]]:
    """A duel of Anna (seat 1) and Boris (seat 2), each tied to their device's key."""
    seats = [{"kind": "human", "name": "Anna"}, {"kind": "human", "name": "Boris"}]
    response = client.post("/api/games", json={"game": "toy_duel", "seats": seats, "rated": rated})
    assert response.status_code == 201, response.text
    data = response.json()
    tokens = {s["seat"]: s["token"] for s in data["seats"]}
    tie(client, data["id"], tokens[0], PLAYERS["Anna"])
    tie(client, data["id"], tokens[1], PLAYERS["Boris"])
    return data["id"], tokens
