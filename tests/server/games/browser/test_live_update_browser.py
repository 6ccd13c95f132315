"""At a game table, the opponent's move arriving while a button is held down does not
swallow the click: the page holds its redraw until the button is released, so the press
and the release land on the same element and the browser sends the click."""

from __future__ import annotations

from typing import Any

import httpx

from tests.server.games.browser.conftest import DESKTOP
from tests.server.live_server import LiveServer


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

    page = browser.new_context(viewport=DESKTOP).new_page()
    frames: list[str] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda f: frames.append(str(f))))
    page.goto(created["seats"][0]["join_url"])
    target = page.locator("#table [data-action-id]").first
    target.wait_for()
    version = seat_state(0)["version"]

    target.scroll_into_view_if_needed()
    box = target.bounding_box()
    assert box
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    seen = len(frames)
    opponent = seat_state(1)["legal"][0]["text"]
    moved = httpx.post(
        f"{url}/actions",
        json={"action": opponent},
        headers={"Authorization": f"Bearer {tokens[1]}"},
    )
    assert moved.status_code == 200, moved.text
    for _ in range(100):  # the page has the opponent's move before the button comes up
        if len(frames) > seen:
            break
        page.wait_for_timeout(50)
    assert len(frames) > seen, "the opponent's move never reached the page"
    page.wait_for_timeout(100)
    page.mouse.up()

    # both placements in: the simultaneous step was resolved
    for _ in range(100):
        if seat_state(0)["version"] > version:
            break
        page.wait_for_timeout(50)
    assert seat_state(0)["version"] > version, page.locator("#error").inner_text()
