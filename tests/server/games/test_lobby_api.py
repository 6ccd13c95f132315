"""The lobby's facts: decisions counted without chance steps, the winner once finished."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.server.conftest import create_game


def listed(client: TestClient, game_id: str) -> dict[str, Any]:
    statuses = {"status": ["open", "running", "finished"]}
    games: list[dict[str, Any]] = client.get("/api/games", params=statuses).json()
    return next(g for g in games if g["id"] == game_id)


def test_the_lobby_counts_decisions_not_chance_steps_and_names_the_winner(
    client: TestClient,
) -> None:
    game = create_game(client)
    fresh = listed(client, game.id)
    # the deal (two chance steps) is stored, but nobody has decided anything yet
    assert fresh["version"] == 2 and fresh["decisions"] == 0
    assert fresh["winners"] is None and fresh["termination"] is None
    assert fresh["created"]
    auth = game.auth
    assert client.post(
        f"/api/games/{game.id}/actions", json={"action": "stake 2"}, headers=auth(0)
    ).is_success
    assert listed(client, game.id)["decisions"] == 1
    for seat, action in ((0, "fold"), (1, "stay")):
        response = client.post(
            f"/api/games/{game.id}/actions", json={"action": action}, headers=auth(seat)
        )
        assert response.is_success, response.text
    # the two secret choices are one joint decision
    done = listed(client, game.id)
    assert done["decisions"] == 2 and done["version"] == 4
    assert done["winners"] == [1] and done["termination"] == "fold"


def create_by_form(client: TestClient, seats: list[str]) -> str:
    form = {"game": "toy_duel"}
    form.update({f"seat.{i}.kind": kind for i, kind in enumerate(seats)})
    response = client.post("/lobby/create", data=form, follow_redirects=False)
    assert response.status_code == 303, response.text
    return str(response.headers["location"])


def test_creating_by_form_redirects_and_seats_the_creator_at_once(client: TestClient) -> None:
    against_computer = create_by_form(client, ["human", "computer"])
    path, fragment = against_computer.split("#")
    game_id = path.removeprefix("/games/")
    assert "token=" in fragment and "seat=0" in fragment and "token" not in path
    # the creator's seat is taken at creation: the game runs, no seat is offered
    game = listed(client, game_id)
    assert game["status"] == "running" and game["seats"][0]["claimed"] is True
    # the page it leads to is the table; loading it again creates nothing
    count = len(client.get("/api/games").json())
    assert client.get(path).status_code == 200
    assert len(client.get("/api/games").json()) == count

    with_friend = create_by_form(client, ["human", "human"])
    path, fragment = with_friend.split("#")
    assert path.endswith("/invite") and "s1=" in fragment and "seat=0" in fragment
    invite = client.get(path)
    assert invite.status_code == 200 and "token" not in invite.text
    game = listed(client, path.split("/")[2])
    assert game["status"] == "open"
    assert [s["claimed"] for s in game["seats"]] == [True, False]


def test_an_open_seat_is_handed_out_once(client: TestClient) -> None:
    game = create_game(client)
    taken = client.post(f"/api/games/{game.id}/seats/1/take")
    assert taken.status_code == 200, taken.text
    token = taken.json()["token"]
    assert taken.json()["join_url"].endswith(f"#seat=1&token={token}")
    # the new token plays the seat; the creator's old link of that seat no longer does
    mine = client.get(f"/api/games/{game.id}", headers={"Authorization": f"Bearer {token}"})
    assert mine.json()["seat"] == 1
    assert client.get(f"/api/games/{game.id}", headers=game.auth(1)).status_code == 403
    again = client.post(f"/api/games/{game.id}/seats/1/take")
    assert again.status_code == 409 and again.json()["error"]["code"] == "seat_taken"
    assert listed(client, game.id)["seats"][1]["claimed"] is True


def test_taking_a_seat_refuses_bad_input_before_any_work(client: TestClient) -> None:
    bots = create_game(client, seats=[{"kind": "human"}, {"kind": "computer"}])
    cases = [
        (f"/api/games/{bots.id}/seats/1/take", 409, "seat_taken"),  # the computer's
        (f"/api/games/{bots.id}/seats/7/take", 422, "invalid_request"),
        (f"/api/games/{bots.id}/seats/-1/take", 422, "malformed_request"),
        ("/api/games/nosuchgame/seats/0/take", 404, "not_found"),
    ]
    for url, status, code in cases:
        response = client.post(url)
        assert response.status_code == status, (url, response.text)
        assert response.json()["error"]["code"] == code
    assert [s["claimed"] for s in listed(client, bots.id)["seats"]] == [False, True]


def test_a_qr_code_is_drawn_from_the_body() -> None:
    from koth.server.games.messages import qr_svg

    assert qr_svg("https://example.org/games/x#seat=1&token=t").startswith("<svg")


def test_players_name_their_seats_and_the_lobby_and_table_show_the_names(
    client: TestClient,
) -> None:
    game = create_game(client, seats=[{"kind": "human", "name": "  Anna\u3000 K "}, {}])
    assert [s["name"] for s in game.body["seats"]] == ["Anna K", None]  # normalised
    taken = client.post(f"/api/games/{game.id}/seats/1/take", json={"name": "Boris"})
    assert taken.status_code == 200 and taken.json()["name"] == "Boris"
    boris = {"Authorization": f"Bearer {taken.json()['token']}"}
    assert [s["name"] for s in listed(client, game.id)["seats"]] == ["Anna K", "Boris"]
    renamed = client.put(f"/api/games/{game.id}/name", json={"name": "Bo"}, headers=boris)
    assert renamed.status_code == 200, renamed.text
    assert [s["name"] for s in renamed.json()["seats"]] == ["Anna K", "Bo"]
    assert "Bo" in client.get("/").text

    form = {"game": "toy_duel", "seat.0.kind": "human", "seat.1.kind": "computer"}
    location = client.post(
        "/lobby/create", data={**form, "player_name": "Vera"}, follow_redirects=False
    ).headers["location"]
    game_id = location.split("#")[0].removeprefix("/games/")
    assert listed(client, game_id)["seats"][0]["name"] == "Vera"


def test_a_bad_name_is_refused_before_any_work(client: TestClient) -> None:
    before = len(client.get("/api/games").json())
    for bad in ["", "   ", "x" * 25, "Anna\u200b", "A\u202eB"]:
        response = client.post(
            "/api/games", json={"game": "toy_duel", "seats": [{"name": bad}, {}]}
        )
        assert response.status_code == 422, (bad, response.text)
        assert response.json()["error"]["code"] == "invalid_request"
    assert len(client.get("/api/games").json()) == before
    game = create_game(client)
    refused = client.post(f"/api/games/{game.id}/seats/1/take", json={"name": "\u200b"})
    assert refused.status_code == 422 and listed(client, game.id)["seats"][1]["claimed"] is False
    unnamed = client.put(f"/api/games/{game.id}/name", json={"name": "Anna"})
    assert unnamed.status_code == 403  # a spectator names no seat
    wrong = client.put(f"/api/games/{game.id}/name", json={"name": "x" * 30}, headers=game.auth(0))
    assert wrong.status_code == 422
    assert [s["name"] for s in listed(client, game.id)["seats"]] == [None, None]


def test_my_games_lists_the_seats_of_a_device_running_first_my_turn_first(
    client: TestClient,
) -> None:
    key, other = "k" * 43, "o" * 43
    waiting, playing = create_game(client), create_game(client)
    for game, seat in ((waiting, 1), (playing, 0)):
        tied = client.put(
            f"/api/games/{game.id}/player", json={"key": key}, headers=game.auth(seat)
        )
        assert tied.status_code == 204, tied.text
    mine = client.get("/api/me/games", headers={"Authorization": f"Bearer {key}"}).json()
    assert [(g["id"], g["seat"], g["my_turn"]) for g in mine] == [
        (playing.id, 0, True),
        (waiting.id, 1, False),
    ]
    assert mine[1]["to_move"] == [0] and "token" not in str(mine)
    nobody = client.get("/api/me/games", headers={"Authorization": f"Bearer {other}"})
    assert nobody.status_code == 200 and nobody.json() == []


def test_my_games_refuses_a_missing_key_or_a_foreign_seat(client: TestClient) -> None:
    game = create_game(client)
    assert client.get("/api/me/games").status_code == 403
    short = client.get("/api/me/games", headers={"Authorization": "Bearer short"})
    assert short.status_code == 403
    url = f"/api/games/{game.id}/player"
    assert client.put(url, json={"key": "k" * 43}).status_code == 403  # no seat token
    bad = client.put(url, json={"key": "not a key!"}, headers=game.auth(0))
    assert bad.status_code == 422
    assert client.get("/api/me/games", headers={"Authorization": f"Bearer {'k' * 43}"}).json() == []
