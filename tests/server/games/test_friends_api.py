"""The rematch and its running score, rated games and recovery codes, through the API."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from fastapi.testclient import TestClient

from koth.server import security
from tests.server.games.friends_helpers import (
    PLAYERS,
    act,
    bearer,
    finish,
    tie,
    two_friends,
)
from tests.server.test_processes import eventually


def friends(client: TestClient, game_id: str, token: str | None = None) -> dict[str, Any]:
    headers = bearer(token) if token else {}
    response = client.get(f"/api/games/{game_id}", headers=headers)
    assert response.status_code == 200, response.text
    info: dict[str, Any] = response.json()["friends"]
    return info


def rematch(client: TestClient, game_id: str, token: str) -> dict[str, Any]:
    response = client.post(f"/api/games/{game_id}/rematch", headers=bearer(token))
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def test_a_rematch_rotates_the_seats_and_the_score_runs_over_the_chain(
    client: TestClient,
) -> None:
    first, tokens = two_friends(client)
    finish(client, first, tokens, winner=0)  # Anna wins
    assert friends(client, first)["score"] == {"games": 1, "points": [1.0, 0.0], "draws": 0}
    offer = rematch(client, first, tokens[0])
    assert offer["seat"] == 1 and not offer["accepted"]
    shown = friends(client, first, tokens[1])["rematch"]
    assert shown == {"game_id": offer["game_id"], "offered_by": 0, "waiting": [1]}
    accepted = rematch(client, first, tokens[1])
    assert accepted["game_id"] == offer["game_id"] and accepted["seat"] == 0
    assert accepted["accepted"]
    assert friends(client, first)["rematch"]["waiting"] == []
    second = offer["game_id"]
    state = client.get(f"/api/games/{second}").json()
    assert [s["name"] for s in state["seats"]] == ["Boris", "Anna"]
    assert state["status"] == "running"
    new_tokens = {0: accepted["token"], 1: offer["token"]}
    finish(client, second, new_tokens, winner=0)  # Boris wins
    # by seat of the second game: Boris 1 - 1 Anna
    assert friends(client, second)["score"] == {"games": 2, "points": [1.0, 1.0], "draws": 0}
    third = rematch(client, second, new_tokens[1])  # Anna offers, Boris accepts
    boris = rematch(client, second, new_tokens[0])
    third_tokens = {third["seat"]: third["token"], boris["seat"]: boris["token"]}
    assert third["seat"] == 0  # Anna is back at seat 1
    finish(client, third["game_id"], third_tokens, winner=None)
    score = friends(client, third["game_id"])["score"]
    assert score == {"games": 3, "points": [1.5, 1.5], "draws": 1}
    # the persons' devices follow them: "My games" lists the rematches
    mine = client.get("/api/me/games", headers=bearer(PLAYERS["Anna"])).json()
    assert {g["id"] for g in mine} == {first, second, third["game_id"]}


def test_a_rematch_needs_the_end_and_a_seat(client: TestClient) -> None:
    game_id, tokens = two_friends(client)
    act(client, game_id, tokens[0], "stake 1")
    early = client.post(f"/api/games/{game_id}/rematch", headers=bearer(tokens[0]))
    assert early.status_code == 409 and early.json()["error"]["code"] == "not_finished"
    spectator = client.post(f"/api/games/{game_id}/rematch")
    assert spectator.status_code == 403
    act(client, game_id, tokens[0], "stay")
    act(client, game_id, tokens[1], "fold")
    offer = rematch(client, game_id, tokens[0])
    again = client.post(f"/api/games/{game_id}/rematch", headers=bearer(tokens[0]))
    assert again.status_code == 409 and again.json()["error"]["code"] == "seat_taken"
    assert friends(client, game_id)["rematch"]["game_id"] == offer["game_id"]


def ratings(client: TestClient, name: str) -> dict[str, Any]:
    response = client.get("/api/me/ratings", headers=bearer(PLAYERS[name]))
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def test_a_rated_game_changes_both_ratings_once(client: TestClient) -> None:
    game_id, tokens = two_friends(client, rated=True)
    assert ratings(client, "Anna") == {"current": [], "history": []}
    finish(client, game_id, tokens, winner=0)
    for _ in range(3):  # every look at the finished game: still one change
        info = friends(client, game_id)
    anna, boris = ratings(client, "Anna"), ratings(client, "Boris")
    assert [h["game_id"] for h in anna["history"]] == [game_id]
    assert [h["game_id"] for h in boris["history"]] == [game_id]
    assert anna["history"][0]["before"] == boris["history"][0]["before"] == 1000
    assert anna["current"][0]["rating"] > 1000 > boris["current"][0]["rating"]
    assert anna["current"][0]["games"] == 1
    assert info["rated"] and info["ratings"] == [
        anna["current"][0]["rating"],
        boris["current"][0]["rating"],
    ]
    # the lobby shows them next to the names
    listed = client.get("/api/games", params={"status": "finished"}).json()
    [entry] = [g for g in listed if g["id"] == game_id]
    assert [s["rating"] for s in entry["seats"]] == info["ratings"]
    # a second rated game moves the ratings on from there, again once
    second, more = two_friends(client, rated=True)
    assert f"Anna · {info['ratings'][0]}" in client.get("/").text  # a running game's seat
    finish(client, second, more, winner=1)
    friends(client, second)
    assert len(ratings(client, "Anna")["history"]) == 2
    assert ratings(client, "Anna")["history"][0]["before"] == anna["current"][0]["rating"]


def test_games_against_the_computer_and_unrated_games_change_no_rating(
    client: TestClient,
) -> None:
    seats = [{"kind": "human"}, {"kind": "computer", "agent": "random"}]
    refused = client.post("/api/games", json={"game": "toy_duel", "seats": seats, "rated": True})
    assert refused.status_code == 422
    assert "computer" in refused.json()["error"]["message"]
    game_id, tokens = two_friends(client, rated=False)
    finish(client, game_id, tokens, winner=0)
    assert not friends(client, game_id)["rated"]
    assert ratings(client, "Anna") == {"current": [], "history": []}


def test_a_rated_game_of_one_device_on_both_seats_is_not_rated(client: TestClient) -> None:
    seats = [{"kind": "human"}, {"kind": "human"}]
    created = client.post("/api/games", json={"game": "toy_duel", "seats": seats, "rated": True})
    data = created.json()
    tokens = {s["seat"]: s["token"] for s in data["seats"]}
    for seat in (0, 1):
        tie(client, data["id"], tokens[seat], PLAYERS["Anna"])
    finish(client, data["id"], tokens, winner=0)
    friends(client, data["id"])
    assert ratings(client, "Anna") == {"current": [], "history": []}


def test_a_recovery_code_moves_the_identity_to_another_device(client: TestClient) -> None:
    game_id, tokens = two_friends(client, rated=True)
    finish(client, game_id, tokens, winner=0)
    friends(client, game_id)
    code = client.post("/api/me/recovery", headers=bearer(PLAYERS["Anna"]))
    assert code.status_code == 200, code.text
    text = code.json()["code"]
    phone = "p" * 40
    wrong = client.post("/api/me/recover", json={"code": "AAAA-BBBB-CCCC"}, headers=bearer(phone))
    assert wrong.status_code == 403 and "not known" in wrong.json()["error"]["message"]
    malformed = client.post("/api/me/recover", json={"code": "not a code"})
    assert malformed.status_code in (400, 422)
    moved = client.post("/api/me/recover", json={"code": text.lower()}, headers=bearer(phone))
    assert moved.status_code == 200, moved.text
    key = moved.json()["key"]
    assert moved.json()["games"] == 1
    games = client.get("/api/me/games", headers=bearer(key)).json()
    assert [g["id"] for g in games] == [game_id]
    assert client.get("/api/me/games", headers=bearer(PLAYERS["Anna"])).json() == []
    assert ratings_of(client, key)["history"][0]["game_id"] == game_id
    used = client.post("/api/me/recover", json={"code": text}, headers=bearer(phone))
    assert used.status_code == 403 and "used" in used.json()["error"]["message"]


def test_the_device_a_recovery_code_moved_the_identity_to_plays_its_seats(
    client: TestClient,
) -> None:
    game_id, tokens = two_friends(client)
    code = client.post("/api/me/recovery", headers=bearer(PLAYERS["Anna"])).json()["code"]
    key = client.post("/api/me/recover", json={"code": code}).json()["key"]
    seat = client.post(f"/api/me/games/{game_id}/seat", headers=bearer(key))
    assert seat.status_code == 200, seat.text
    link = seat.json()
    assert link["seat"] == 0 and link["name"] == "Anna"
    assert link["join_url"].endswith(f"/games/{game_id}#seat=0&token={link['token']}")
    # the new device plays; the seat's old token (on the first device) stops working
    act(client, game_id, link["token"], "stake 1")
    old = client.post(
        f"/api/games/{game_id}/actions", json={"action": "stay"}, headers=bearer(tokens[0])
    )
    assert old.status_code == 403
    # Boris's seat is not the moved identity's; no key, a wrong game: refused
    boris = client.post(f"/api/me/games/{game_id}/seat", headers=bearer(PLAYERS["Anna"]))
    assert boris.status_code == 403 and "tied" in boris.json()["error"]["message"]
    assert client.post(f"/api/me/games/{game_id}/seat").status_code == 403
    unknown = client.post("/api/me/games/nosuchgame/seat", headers=bearer(key))
    assert unknown.status_code == 404
    act(client, game_id, tokens[1], "stay")


def ratings_of(client: TestClient, key: str) -> dict[str, Any]:
    data: dict[str, Any] = client.get("/api/me/ratings", headers=bearer(key)).json()
    return data


def test_an_expired_recovery_code_is_refused_and_moves_nothing(client: TestClient) -> None:
    game_id, _ = two_friends(client)
    friends_service = client.app.state.friends  # type: ignore[attr-defined]
    past = datetime.now(UTC) - timedelta(minutes=1)
    friends_service.repository.add_recovery(
        security.hash_token("ABCDEFGHJKMN"), security.hash_token(PLAYERS["Boris"]), past
    )
    expired = client.post("/api/me/recover", json={"code": "ABCD-EFGH-JKMN"})
    assert expired.status_code == 403 and "expired" in expired.json()["error"]["message"]
    mine = client.get("/api/me/games", headers=bearer(PLAYERS["Boris"])).json()
    assert [g["id"] for g in mine] == [game_id]
    no_key = client.post("/api/me/recovery")
    assert no_key.status_code == 403


def test_a_rematch_seat_is_kept_for_its_person(client: TestClient) -> None:
    game_id, tokens = two_friends(client)
    finish(client, game_id, tokens, winner=1)
    offer = rematch(client, game_id, tokens[1])  # Boris offers: his seat is 1 there
    assert offer["seat"] == 0
    stranger = client.post(f"/api/games/{offer['game_id']}/seats/1/take", json={"name": "Eve"})
    assert stranger.status_code == 409 and stranger.json()["error"]["code"] == "seat_taken"
    anna = rematch(client, game_id, tokens[0])
    assert anna["seat"] == 1 and anna["accepted"]


def test_a_rematch_against_the_computer_starts_at_once(client: TestClient) -> None:
    seats = [{"kind": "human", "name": "Anna"}, {"kind": "computer", "agent": "random"}]
    created = client.post("/api/games", json={"game": "toy_duel", "seats": seats}).json()
    token = created["seats"][0]["token"]
    act(client, created["id"], token, "stake 1")
    act(client, created["id"], token, "fold")
    # the computer chooses in the worker: the game ends once it has
    assert eventually(lambda: client.get(f"/api/games/{created['id']}").json()["outcome"])
    offer = rematch(client, created["id"], token)
    assert offer["accepted"] and offer["seat"] == 1
    seats_after = client.get(f"/api/games/{offer['game_id']}").json()["seats"]
    assert [s["kind"] for s in seats_after] == ["computer", "human"]


def test_the_lobby_form_creates_a_rated_game_between_persons_only(client: TestClient) -> None:
    form = {"game": "toy_duel", "seat.0.kind": "human", "seat.1.kind": "human", "rated": "on"}
    created = client.post("/lobby/create", data=form, follow_redirects=False)
    assert created.status_code == 303, created.text
    game_id = created.headers["location"].split("#")[0].split("/")[2]
    assert friends(client, game_id)["rated"]
    friendly = {k: v for k, v in form.items() if k != "rated"}  # the box left unticked
    unrated = client.post("/lobby/create", data=friendly, follow_redirects=False)
    assert unrated.status_code == 303
    assert not friends(client, unrated.headers["location"].split("#")[0].split("/")[2])["rated"]
    form["seat.1.kind"] = "computer"
    refused = client.post("/lobby/create", data=form, follow_redirects=False)
    assert refused.status_code == 422 and "computer" in refused.text


def test_the_lobby_marks_the_persons_at_their_table(client: TestClient) -> None:
    game_id, tokens = two_friends(client)

    def seats() -> list[Any]:
        listed = client.get("/api/games").json()
        return [s["online"] for g in listed if g["id"] == game_id for s in g["seats"]]

    assert seats() == [False, False]
    with client.websocket_connect(f"/api/games/{game_id}/ws") as anna:
        anna.send_json({"type": "hello", "token": tokens[0]})
        anna.receive_json()
        assert seats() == [True, False]
        assert 'class="online-dot"' in client.get("/").text
    assert eventually(lambda: seats() == [False, False])  # once the server saw it close
