"""The state message's ``log``: every public event of the game so far, as its reader
saw it, worded in the reader's language. Played through the API to the end: each
reader's log is the one the engine's events make from that reader's views (C15.2, B19),
the won cards of a stack are named to its winner alone, and a game loaded again from its
stored moves has the same log."""

from __future__ import annotations

import random
from typing import Any

from fastapi.testclient import TestClient

from koth.core.log import game_log
from koth.core.record import GameRecord, replay
from koth.core.registry import load_game
from koth.server.games.log import log_entries
from tests.server.conftest import Created, create_game


def _state(client: TestClient, game: Created, seat: int | None, lang: str = "en") -> Any:
    headers = {"Accept-Language": lang, **(game.auth(seat) if seat is not None else {})}
    response = client.get(f"/api/games/{game.id}", headers=headers)
    assert response.status_code == 200, response.text
    return response.json()


def play_to_the_end(client: TestClient, game: Created, seats: int, seed: int) -> None:
    """Every seat picks a random legal action whenever it may act."""
    rng = random.Random(seed)
    for _ in range(5000):
        if _state(client, game, None)["outcome"]:
            return
        for seat in range(seats):
            legal = _state(client, game, seat)["legal"]
            if legal:
                action = rng.choice(legal)["id"]
                response = client.post(
                    f"/api/games/{game.id}/actions",
                    json={"action_id": action},
                    headers=game.auth(seat),
                )
                assert response.status_code == 200, response.text
    raise AssertionError("the game did not end")


def engine_log(client: TestClient, game: Created, seat: int | None, lang: str) -> list[Any]:
    """The log the engine's events make for ``seat``, from the game's full history (its
    record once it is over, the cached state before)."""
    response = client.get(f"/api/games/{game.id}/record")
    if response.status_code == 200:
        record = GameRecord.model_validate(response.json())
        played = load_game(record.game, record.params)
        history = replay(record, played).history
    else:
        service = client.app.state.games  # type: ignore[attr-defined]
        state = service._live.get(game.id).state
        played, history = state.game, state.history
    return [
        entry.model_dump(mode="json")
        for entry in log_entries(game_log(played.new_initial_state(), seat, history), lang)
    ]


def test_c15_2_a_card_game_logs_every_fight_to_every_reader(client: TestClient) -> None:
    game = create_game(client, "cards")
    play_to_the_end(client, game, 2, seed=3)
    final = _state(client, game, None)
    fights = final["view"]["log"]
    for seat in (0, 1, None):
        log = _state(client, game, seat)["log"]
        assert log == engine_log(client, game, seat, "en")
        stacks = [e["params"]["stack"] for e in log if e["code"] == "stack_chosen"]
        assert stacks == [f["stack"] for f in fights]
        rounds = [e for e in log if e["code"] == "fight"]
        assert len(rounds) == sum(len(f["rounds"]) for f in fights)
        for entry in log:
            if entry["code"] == "stack_won" and entry["seat"] != seat:
                assert "cards" not in entry["params"]  # only the winner reads them
        assert log[-1]["code"] in ("apex_won", "apex_discarded")
    russian = _state(client, game, 0, "ru")["log"]
    assert russian == engine_log(client, game, 0, "ru")
    assert russian[0]["text"].startswith("Карты розданы")
    service = client.app.state.games  # type: ignore[attr-defined]
    service.forget(game.id)  # as after a restart: replayed from the stored moves
    assert _state(client, game, 1)["log"] == engine_log(client, game, 1, "en")


def test_b19_a_board_game_logs_its_setup_and_turns_to_every_reader(client: TestClient) -> None:
    game = create_game(client, "board", num_players=2)
    spectator = _state(client, game, None)
    codes = [e["code"] for e in spectator["log"]]
    # the setup the chance nodes made before anyone acted
    assert codes == ["terrain_drawn"] * 4 + ["area_drawn"] * 2
    assert spectator["log"][4]["text"].startswith("Seat 1 draws starting area A")
    seat = spectator["to_move"]["players"][0]
    legal = _state(client, game, seat)["legal"]
    response = client.post(
        f"/api/games/{game.id}/actions",
        json={"action_id": legal[0]["id"]},
        headers=game.auth(seat),
    )
    assert response.status_code == 200, response.text
    entry = response.json()["log"][-1]
    assert entry["code"] == "area_placed" and entry["seat"] == seat and entry["rule"] == "B3"
    assert entry["move"] == response.json()["version"] - 1
    for reader in (0, 1, None):
        assert _state(client, game, reader)["log"] == engine_log(client, game, reader, "en")


def merged_log(socket: Any, final_version: int) -> tuple[list[Any], int, list[int]]:
    """Read ``socket``'s messages until the game's last version, merging the log as the
    table does; returns the log, the first message's entries and each update's."""
    first = socket.receive_json()
    assert first["log_from"] == 0
    log, updates = list(first["log"]), []
    message = first
    while message["version"] < final_version or message["outcome"] is None:
        message = socket.receive_json()
        assert message["log_from"] == len(log)  # nothing missed, nothing sent twice
        log = log[: message["log_from"]] + message["log"]
        updates.append(len(message["log"]))
    return log, len(first["log"]), updates


def test_c15_2_a_live_update_carries_only_the_new_log_entries(client: TestClient) -> None:
    game = create_game(client, "cards")
    url = f"/api/games/{game.id}/ws"
    with client.websocket_connect(url) as seat, client.websocket_connect(url) as watcher:
        seat.send_json({"type": "hello", "token": game.tokens[0]})
        watcher.send_json({"type": "hello", "token": None})
        play_to_the_end(client, game, 2, seed=5)
        final = _state(client, game, None)["version"]
        for socket, reader in ((seat, 0), (watcher, None)):
            log, first, updates = merged_log(socket, final)
            assert log == engine_log(client, game, reader, "en")
            assert first + sum(updates) == len(log)  # every entry sent once
            assert max(updates) < len(log) // 4  # an update is a move's entries, not the log
    with client.websocket_connect(url) as again:  # a new connection gets the whole log
        again.send_json({"type": "hello", "token": game.tokens[0]})
        whole = again.receive_json()
        assert whole["log_from"] == 0 and whole["log"] == engine_log(client, game, 0, "en")
