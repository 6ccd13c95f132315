"""The JSON API on SQLite and PostgreSQL: play, secrets, and every error case."""

from __future__ import annotations

import time
from typing import Any

from fastapi.testclient import TestClient

from koth.agents.registry import AGENT_NAMES, check_spec
from koth.core.errors import InvalidParamsError
from koth.core.record import GameRecord, replay
from tests.core.toy_game import SecretDuel
from tests.server.conftest import Created, create_game

ERROR_KEYS = {"code", "message"}


def state(client: TestClient, game: Created, seat: int | None) -> dict[str, Any]:
    headers = game.auth(seat) if seat is not None else {}
    response = client.get(f"/api/games/{game.id}", headers=headers)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def act(
    client: TestClient, game: Created, seat: int, action: str, version: int | None = None
) -> Any:
    body: dict[str, Any] = {"action": action}
    if version is not None:
        body["version"] = version
    return client.post(f"/api/games/{game.id}/actions", json=body, headers=game.auth(seat))


def assert_error(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    error: dict[str, Any] = response.json()["error"]
    assert set(error) >= ERROR_KEYS and error["code"] == code, error
    return error


def test_a_game_is_played_through_views_only(client: TestClient) -> None:
    game = create_game(client)
    assert game.body["status"] == "open" and set(game.tokens) == {0, 1}
    seat0, seat1, spectator = (
        state(client, game, 0),
        state(client, game, 1),
        state(client, game, None),
    )
    # the deal (two chance moves) was sampled on the server when the game was created
    assert seat0["version"] == 2 and seat0["to_move"] == {"kind": "player", "players": [0]}
    mine, theirs = seat0["view"]["cards"], seat1["view"]["cards"]
    assert mine[0] is not None and mine[1] is None and theirs[0] is None and theirs[1] is not None
    assert spectator["view"]["cards"] == [None, None] and spectator["legal"] == []
    assert [a["text"] for a in seat0["legal"]] == ["stake 1", "stake 2"] and seat1["legal"] == []
    assert state(client, game, 0)["status"] == "running"  # both seats have been opened

    after = act(client, game, 0, "stake 2", version=2)
    assert after.status_code == 200 and after.json()["version"] == 3
    assert after.json()["to_move"]["kind"] == "simultaneous"

    # a secret choice: stored, but nobody else learns it
    first = act(client, game, 0, "fold", version=3).json()
    assert first["version"] == 3 and first["submitted"] == [0] and first["legal"] == []
    other = state(client, game, 1)
    assert other["submitted"] == [0] and other["view"]["choices"] is None
    assert "fold" not in str(other["view"]) and "fold" not in str(state(client, game, None))
    assert_error(act(client, game, 0, "stay", version=3), 409, "already_submitted")

    final = act(client, game, 1, "stay", version=3).json()
    assert final["version"] == 4 and final["outcome"] == {"termination": "fold", "winners": [1]}
    assert final["returns"] == [-2.0, 2.0] and final["status"] == "finished"
    # cards are only shown at a showdown: a fold keeps them hidden even now
    assert final["view"]["cards"][0] is None


def test_every_bad_input_is_refused_and_changes_nothing(client: TestClient) -> None:
    game = create_game(client)
    before = state(client, game, 0)

    def unchanged() -> None:
        now = state(client, game, 0)
        assert (now["version"], now["view"], now["legal"]) == (
            before["version"],
            before["view"],
            before["legal"],
        )

    # unknown game
    assert_error(client.get("/api/games/nope"), 404, "not_found")
    assert_error(client.post("/api/games/nope/actions", json={"action": "stay"}), 404, "not_found")
    assert_error(client.get("/api/games/nope/replay"), 404, "not_found")
    assert_error(client.get("/api/games/nope/record"), 404, "not_found")
    assert_error(client.post("/api/games", json={"game": "chess"}), 404, "unknown_game")
    assert_error(client.post("/api/catalog/chess/table", json={}), 404, "unknown_game")
    # invalid parameters and tables
    assert_error(
        client.post("/api/games", json={"game": "toy_duel", "params": {"max_card": 99}}),
        422,
        "invalid_params",
    )
    assert_error(
        client.post("/api/games", json={"game": "toy_duel", "seats": [{"kind": "human"}]}),
        422,
        "invalid_params",
    )
    assert_error(
        client.post(
            "/api/games",
            json={"game": "toy_duel", "seats": [{"kind": "computer", "agent": "oracle"}] * 2},
        ),
        422,
        "invalid_params",
    )
    # malformed JSON and bodies
    url = f"/api/games/{game.id}/actions"
    raw = client.post(
        url, content=b"{not json", headers={**game.auth(0), "Content-Type": "application/json"}
    )
    assert_error(raw, 422, "malformed_request")
    assert_error(
        client.post(url, json={"action": "stake 1", "action_id": 4}, headers=game.auth(0)),
        422,
        "malformed_request",
    )
    assert_error(
        client.post(url, json={"move": "stake 1"}, headers=game.auth(0)), 422, "malformed_request"
    )
    assert_error(client.post(url, json=["stake 1"], headers=game.auth(0)), 422, "malformed_request")
    # wrong, missing or someone else's token
    assert_error(client.post(url, json={"action": "stake 1"}), 403, "forbidden")
    wrong = {"Authorization": "Bearer " + game.tokens[0][:-2] + "xx"}
    assert_error(client.post(url, json={"action": "stake 1"}, headers=wrong), 403, "forbidden")
    assert_error(client.get(f"/api/games/{game.id}", headers=wrong), 403, "forbidden")
    other = create_game(client)
    foreign = {"Authorization": f"Bearer {other.tokens[0]}"}
    assert_error(client.post(url, json={"action": "stake 1"}, headers=foreign), 403, "forbidden")
    # malformed and illegal actions, the wrong player, a stale version
    assert_error(act(client, game, 0, "stake 7"), 400, "invalid_action")
    assert_error(
        client.post(url, json={"action_id": 999}, headers=game.auth(0)), 400, "invalid_action"
    )
    assert_error(act(client, game, 0, "stay"), 400, "illegal_action")
    assert_error(act(client, game, 1, "stake 1"), 409, "not_your_turn")
    assert_error(act(client, game, 0, "stake 1", version=1), 409, "stale")
    assert_error(client.get(f"/api/games/{game.id}/record"), 409, "not_finished")
    unchanged()

    # after the end
    act(client, game, 0, "stake 1")
    act(client, game, 0, "stay")
    act(client, game, 1, "stay")
    assert state(client, game, 0)["outcome"] is not None
    assert_error(act(client, game, 0, "stay"), 409, "game_over")
    assert_error(client.post(url, json={"action_id": 0}, headers=game.auth(1)), 409, "game_over")
    # unknown routes answer in the same error format
    assert_error(client.get("/api/nothing-here"), 404, "not_found")


def test_record_and_replay_reveal_secrets_only_after_the_end(client: TestClient) -> None:
    game = create_game(client)
    act(client, game, 0, "stake 1")
    act(client, game, 0, "stay")
    running = client.get(f"/api/games/{game.id}/replay", headers=game.auth(0)).json()
    assert not running["finished"] and running["seat"] == 0
    assert all(set(frame["views"]) == {"0"} for frame in running["frames"])
    assert all(frame["views"]["0"]["cards"][1:] in ([], [None]) for frame in running["frames"])
    watcher = client.get(f"/api/games/{game.id}/replay").json()
    assert all(
        frame["views"]["spectator"]["cards"] in ([], [None], [None, None])
        for frame in watcher["frames"]
    )
    assert "stay" not in str(running) and "stay" not in str(watcher)

    final = act(client, game, 1, "stay").json()
    replayed = client.get(f"/api/games/{game.id}/replay").json()
    assert replayed["finished"] and set(replayed["frames"][-1]["views"]) == {"spectator", "0", "1"}
    assert [f["version"] for f in replayed["frames"]] == [0, 1, 2, 3, 4]
    assert replayed["frames"][-1]["views"]["0"] == final["view"]

    response = client.get(f"/api/games/{game.id}/record")
    assert response.status_code == 200 and "attachment" in response.headers["content-disposition"]
    record = GameRecord.model_validate(response.json())
    assert record.game == "toy_duel" and len(record.moves) == 4
    assert "chance_seed" not in response.text and "seed" not in str(record.meta)
    assert replay(record).view(0) == final["view"]


def test_a_computer_seat_plays_in_the_background(client: TestClient) -> None:
    game = create_game(client, seats=[{"kind": "human"}, {"kind": "computer", "agent": "random"}])
    assert game.tokens.keys() == {0}
    act(client, game, 0, "stake 2")
    deadline = time.monotonic() + 60
    while state(client, game, 0)["submitted"] != [1]:
        assert time.monotonic() < deadline, "the computer seat never chose"
        time.sleep(0.02)
    final = act(client, game, 0, "stay").json()
    assert final["outcome"] is not None and final["status"] == "finished"

    # computer-only tables play to the end by themselves
    bots = create_game(client, seats=[{"kind": "computer"}, {"kind": "computer"}])
    assert bots.body["status"] == "running" and bots.tokens == {}
    deadline = time.monotonic() + 60
    while client.get(f"/api/games/{bots.id}").json()["outcome"] is None:
        assert time.monotonic() < deadline, "the computer seats never finished"
        time.sleep(0.02)


def test_lobby_lists_games_and_the_catalog_describes_them(client: TestClient) -> None:
    game = create_game(client)
    listed = client.get("/api/games").json()
    assert [g["id"] for g in listed] == [game.id] and listed[0]["status"] == "open"
    assert "token" not in str(listed)
    assert client.get("/api/games", params={"status": "finished"}).json() == []
    catalog = {entry["name"]: entry for entry in client.get("/api/catalog").json()}
    assert catalog["toy_duel"]["default_players"] == 2 and "random" in catalog["toy_duel"]["agents"]
    assert "max_card" in catalog["toy_duel"]["params_schema"]["properties"]
    table = client.post("/api/catalog/toy_duel/table", json={"params": {"max_card": 5}}).json()
    assert table["num_players"] == 2 and table["params"] == {"max_card": 5}


def test_the_openapi_schema_documents_every_endpoint(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    paths = schema["paths"]
    expected = {
        ("/api/catalog", "get"),
        ("/api/catalog/{game}/table", "post"),
        ("/api/games", "get"),
        ("/api/games", "post"),
        ("/api/games/{game_id}", "get"),
        ("/api/games/{game_id}/actions", "post"),
        ("/api/games/{game_id}/replay", "get"),
        ("/api/games/{game_id}/record", "get"),
    }
    documented = {(p, m) for p, methods in paths.items() for m in methods}
    assert expected <= documented
    for path, method in expected:
        operation = paths[path][method]
        assert operation.get("summary"), (path, method)
        assert "422" in operation["responses"], (path, method)
        if "{game" in path:
            assert "404" in operation["responses"], (path, method)
    assert "SeatToken" in schema["components"]["securitySchemes"]
    assert not any(p.startswith("/games") or p == "/" for p in paths)  # pages are not API


def test_computer_seats_are_checked_against_the_agents_at_creation(client: Any) -> None:
    # The catalog offers exactly the agents that can play the game; whether the toy game
    # has a heuristic depends on which test modules registered one in this process.
    catalog = {entry["name"]: entry for entry in client.get("/api/catalog").json()}
    playable = []
    for name in AGENT_NAMES:
        try:
            check_spec(name, SecretDuel())
        except InvalidParamsError:
            continue
        playable.append(name)
    assert catalog["toy_duel"]["agents"] == playable
    assert {"random", "mcts", "ismcts"} <= set(playable)
    refused = [
        ({"kind": "computer", "agent": "random", "budget": 50}, "takes no budget"),
        ({"kind": "computer", "agent": "oracle"}, "unknown agent 'oracle'"),
    ]
    if "heuristic" not in playable:
        refused.append(({"kind": "computer", "agent": "heuristic"}, "no heuristic policy"))
    for seat, message in refused:
        response = client.post(
            "/api/games", json={"game": "toy_duel", "seats": [{"kind": "human"}, seat]}
        )
        assert response.status_code == 422, response.text
        assert "seat 1" in response.text and message in response.text
    response = client.post(
        "/api/games",
        json={
            "game": "toy_duel",
            "seats": [{"kind": "human"}, {"kind": "computer", "agent": "mcts", "budget": 20}],
        },
    )
    assert response.status_code in (200, 201), response.text
