"""The state message carries a game's recent public events (``notes``): a board turn
ended early tells every seat and spectator which dice were forfeited (B7.1), in the
reader's language."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.server.conftest import Created, create_game


def _state(client: TestClient, game: Created, seat: int | None, lang: str = "en") -> Any:
    headers = {"Accept-Language": lang, **(game.auth(seat) if seat is not None else {})}
    response = client.get(f"/api/games/{game.id}", headers=headers)
    assert response.status_code == 200, response.text
    return response.json()


def end_first_turn(client: TestClient, game: Created) -> int:
    """Place the starting areas, then end the first turn at once; the seat that did."""
    for _ in range(20):
        seat = _state(client, game, None)["to_move"]["players"][0]
        legal = [a["text"] for a in _state(client, game, seat)["legal"]]
        ending = [text for text in legal if text.startswith("end")]
        action = ending[0] if ending else legal[0]
        response = client.post(
            f"/api/games/{game.id}/actions", json={"action": action}, headers=game.auth(seat)
        )
        assert response.status_code == 200, response.text
        if ending:
            return int(seat)
    raise AssertionError("no turn began")


def test_b7_1_the_state_message_notes_the_dice_forfeited_by_an_early_end(
    client: TestClient,
) -> None:
    game = create_game(client, "board", num_players=2)
    assert _state(client, game, None)["notes"] == []
    seat = end_first_turn(client, game)
    spectator = _state(client, game, None)
    (note,) = spectator["notes"]
    assert note["code"] == "dice_forfeited" and note["rule"] == "B7.1"
    assert note["params"] == {"seat": seat, "count": 2}
    assert note["text"] == f"Seat {seat + 1} forfeits 2 unused dice"
    assert note["move"] == spectator["version"] - 1  # the end, the turn's last move
    # public: every seat reads the same notes
    assert _state(client, game, 1 - seat)["notes"] == spectator["notes"]
    (russian,) = _state(client, game, seat, "ru")["notes"]
    assert russian["text"] == f"Место {seat + 1} теряет 2 неиспользованных кубика"


def test_notes_are_rebuilt_when_a_game_is_loaded_again(client: TestClient) -> None:
    game = create_game(client, "board", num_players=2)
    end_first_turn(client, game)
    before = _state(client, game, None)["notes"]
    service = client.app.state.games  # type: ignore[attr-defined]
    service.forget(game.id)  # as after a restart: replayed from the stored moves
    assert _state(client, game, None)["notes"] == before != []
