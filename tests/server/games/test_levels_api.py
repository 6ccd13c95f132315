"""Computer levels in the lobby and the API, and the lobby's options in words."""

from __future__ import annotations

from fastapi.testclient import TestClient

from koth.agents.levels import levels_for
from tests.server.conftest import create_game

FORM = {"Content-Type": "application/x-www-form-urlencoded"}


def test_the_catalog_offers_each_games_levels_with_their_strength(client: TestClient) -> None:
    catalog = {entry["name"]: entry for entry in client.get("/api/catalog").json()}
    for game in ("cards", "board"):
        levels = catalog[game]["levels"]
        assert [lv["key"] for lv in levels] == [lv.key for lv in levels_for(game)]
        assert [lv["spec"] for lv in levels] == [lv.spec for lv in levels_for(game)]
        assert levels[0]["title"] == "Beginner" and levels[0]["strength"] == ""
        assert all(lv["strength"].startswith("Won ") for lv in levels[1:])
    assert catalog["toy_duel"]["levels"] == []


def test_a_seat_plays_at_a_level_and_a_level_is_checked(client: TestClient) -> None:
    game = create_game(
        client, "board", seats=[{"kind": "human"}, {"kind": "computer", "agent": "beginner"}]
    )
    assert game.body["seats"][1]["agent"] == "beginner"
    refused = [
        ("cards", {"kind": "computer", "agent": "strong", "budget": 50}, "sets its own budget"),
        ("toy_duel", {"kind": "computer", "agent": "expert"}, "toy_duel game has no level"),
    ]
    for name, seat, message in refused:
        response = client.post(
            "/api/games", json={"game": name, "seats": [{"kind": "human"}, seat]}
        )
        assert response.status_code == 422 and message in response.text, response.text


def test_the_lobby_words_options_and_levels_in_both_languages(client: TestClient) -> None:
    page = client.get("/").text
    assert "3, the apex holds a Joker (C1.1)" in page and ">Jokers<" in page
    assert "Who chooses the first stack (C5)" in page and ">Seat 2</option>" in page
    assert "Players at the table (B3, B6)" in page and "tens equal" not in page
    assert "Seat 1 and Seat 3 against Seat 2 and Seat 4 (B16.3)" in page and "0+2" not in page
    assert ">Strong</option>" in page and "Won 84 of 100 games against Casual." not in page
    assert "Won 84 of 100 games against Beginner." in page and "ismcts:iters=300" not in page
    assert "<summary>advanced</summary>" in page and 'href="/learn/cards"' in page
    russian = client.get("/", headers={"Accept-Language": "ru"}).text
    assert "Джокеры" in russian and ">Новичок</option>" in russian

    form = "game=cards&param.jokers=2&param.dealer=1&seat.0.kind=human"
    form += "&seat.1.kind=computer&seat.1.level=beginner&seat.1.agent=ismcts"
    created = client.post("/lobby/create", content=form, headers=FORM, follow_redirects=False)
    assert created.status_code == 303, created.text
    listed = client.get("/api/games").json()[0]
    assert listed["params"]["jokers"] == 2 and listed["params"]["dealer"] == 1
    assert listed["seats"][1]["agent"] == "beginner"
    # no level ("advanced"): the agent chosen under it
    form = "game=board&seat.0.kind=human&seat.1.kind=computer&seat.1.level=&seat.1.agent=random"
    created = client.post("/lobby/create", content=form, headers=FORM, follow_redirects=False)
    assert created.status_code == 303, created.text
    board = next(g for g in client.get("/api/games").json() if g["game"] == "board")
    assert board["seats"][1]["agent"] == "random"
