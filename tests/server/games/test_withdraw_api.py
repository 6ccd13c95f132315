"""A secret choice at a simultaneous node may be taken back until every acting seat has
chosen (``DELETE /api/games/{id}/actions``); the seat sees its own choice in the message
(``my_submission``), nobody else does; once the game is over the message reveals every
seat's final view."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.server.conftest import Created, create_game
from tests.server.games.test_log_api import play_to_the_end


def _state(client: TestClient, game: Created, seat: int | None) -> Any:
    headers = game.auth(seat) if seat is not None else {}
    response = client.get(f"/api/games/{game.id}", headers=headers)
    assert response.status_code == 200, response.text
    return response.json()


def _post(client: TestClient, game: Created, seat: int, action: str) -> Any:
    response = client.post(
        f"/api/games/{game.id}/actions", json={"action": action}, headers=game.auth(seat)
    )
    assert response.status_code == 200, response.text
    return response.json()


def test_a_secret_choice_is_taken_back_until_the_other_seat_chooses(client: TestClient) -> None:
    game = create_game(client, "cards")
    first = _state(client, game, 0)
    assert first["to_move"]["kind"] == "simultaneous"  # the first reserve round (C4.1)
    choice = first["legal"][0]["text"]
    mine = _post(client, game, 0, choice)
    assert mine["my_submission"] == choice and mine["submitted"] == [0] and mine["legal"] == []
    assert _state(client, game, 1)["my_submission"] is None  # never another seat's
    assert _state(client, game, None)["my_submission"] is None

    url = f"/api/games/{game.id}/actions"
    spectator = client.delete(url)
    assert spectator.status_code == 403
    nothing = client.delete(url, headers=game.auth(1))
    assert nothing.status_code == 409 and nothing.json()["error"]["code"] == "not_submitted"
    back = client.delete(url, params={"version": mine["version"]}, headers=game.auth(0))
    assert back.status_code == 200, back.text
    taken = back.json()
    assert taken["my_submission"] is None and taken["submitted"] == []
    assert [a["text"] for a in taken["legal"]] == [a["text"] for a in first["legal"]]
    assert taken["version"] == first["version"]  # nothing was played

    # chosen again, and then the other seat completes the node: it is played for good
    other = _post(client, game, 0, first["legal"][-1]["text"])
    _post(client, game, 1, _state(client, game, 1)["legal"][0]["text"])
    late = client.delete(url, params={"version": other["version"]}, headers=game.auth(0))
    assert late.status_code == 409 and late.json()["error"]["code"] == "stale"
    assert _state(client, game, 0)["version"] == other["version"] + 1


def test_the_end_of_a_card_game_reveals_every_seat_s_cards(client: TestClient) -> None:
    game = create_game(client, "cards")
    assert _state(client, game, 0)["reveal"] is None
    play_to_the_end(client, game, 2, seed=5)
    for reader in (0, 1, None):
        reveal = _state(client, game, reader)["reveal"]
        assert set(reveal) == {"0", "1"}
        for seat in (0, 1):
            assert "hand" in reveal[str(seat)]["players"][seat]
