"""At a game table, the opponent's move arriving while a button is held down does not
swallow the click: the page holds its redraw until the button is released, so the press
and the release land on the same element and the browser sends the click."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx

from tests.server.games.browser.conftest import DESKTOP
from tests.server.live_server import LiveServer
from tests.server.pointer import press


def test_a_card_held_down_while_the_opponent_places_one_is_played(
    server: LiveServer, browser: Any
) -> None:
    created = httpx.post(
        f"{server.url}/api/games",
        json={"game": "cards", "seats": [{"kind": "human"}, {"kind": "human"}]},
    ).json()
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    url = f"{server.url}/api/games/{created['id']}"

    def seat_state(seat: int) -> dict[str, Any]:
        body: dict[str, Any] = httpx.get(
            url, headers={"Authorization": f"Bearer {tokens[seat]}"}
        ).json()
        return body

    def until(condition: Callable[[], bool], failure: str) -> None:
        for _ in range(100):
            if condition():
                return
            page.wait_for_timeout(50)
        raise AssertionError(failure)

    page = browser.new_context(viewport=DESKTOP).new_page()
    frames: list[str] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda f: frames.append(str(f))))
    page.goto(created["seats"][0]["join_url"])
    target = "#table [data-action-id] >> nth=0"
    page.locator(target).wait_for()
    version = seat_state(0)["version"]

    press(page, target)
    seen = len(frames)
    opponent = seat_state(1)["legal"][0]["text"]
    moved = httpx.post(
        f"{url}/actions",
        json={"action": opponent},
        headers={"Authorization": f"Bearer {tokens[1]}"},
    )
    assert moved.status_code == 200, moved.text
    # the page has the opponent's move before the button comes up
    until(lambda: len(frames) > seen, "the opponent's move never reached the page")
    page.wait_for_timeout(100)
    page.mouse.up()

    # both placements in: the simultaneous step was resolved
    until(lambda: seat_state(0)["version"] > version, "the held card was not played")
