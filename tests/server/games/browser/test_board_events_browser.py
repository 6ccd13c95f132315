"""The board page lists the recent events the position alone does not show: dice
forfeited when a turn ends early (B7.1), for seats and spectators alike, on a desktop
and on a phone."""

from __future__ import annotations

from typing import Any

import httpx

from tests.server.games.browser.conftest import PHONE, SCREENSHOTS, sync_api
from tests.server.live_server import LiveServer

WIDE = {"width": 1280, "height": 800}


def _end_turns(server: LiveServer, created: dict[str, Any], turns: int) -> None:
    """Place the starting areas, then end ``turns`` turns at once, through the API."""
    game_id = created["id"]
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    ended = 0
    while ended < turns:
        spectator = httpx.get(f"{server.url}/api/games/{game_id}", timeout=10).json()
        seat = spectator["to_move"]["players"][0]
        auth = {"Authorization": f"Bearer {tokens[seat]}"}
        mine = httpx.get(f"{server.url}/api/games/{game_id}", headers=auth, timeout=10).json()
        legal = [a["text"] for a in mine["legal"]]
        ending = [text for text in legal if text.startswith("end")]
        action = ending[0] if ending else legal[0]
        response = httpx.post(
            f"{server.url}/api/games/{game_id}/actions",
            json={"action": action},
            headers=auth,
            timeout=10,
        )
        assert response.status_code == 200, response.text
        ended += bool(ending)


def test_b7_1_the_board_lists_forfeited_dice_for_seats_and_spectators(
    server: LiveServer, browser: Any
) -> None:
    body = {"game": "board", "params": {"num_players": 2}, "seats": [{}, {}]}
    created = httpx.post(f"{server.url}/api/games", json=body, timeout=10).json()
    link = next(s["join_url"] for s in created["seats"] if s["seat"] == 0)
    page = browser.new_context(viewport=WIDE).new_page()
    page.goto(link)
    page.wait_for_selector("#table svg.rings")
    assert page.locator("#board-events").count() == 0  # nothing to tell yet

    _end_turns(server, created, 3)
    # the page learns of them over its WebSocket, as any move
    # (a locator's wait: a wait_for_function expression is eval'd, which the page's
    # security policy refuses whenever the events are not there at the first look)
    events = page.locator("#board-events li.event")
    sync_api.expect(events).to_have_count(3)
    first = events.first
    assert first.get_attribute("data-code") == "dice_forfeited"
    assert first.get_attribute("data-rule") == "B7.1"
    assert "forfeits 2 unused dice (B7.1)" in first.inner_text()
    assert "Recent events" in page.locator("#board-events h3").inner_text()
    page.screenshot(path=str(SCREENSHOTS / "board_forfeit_desktop.png"), full_page=False)

    page.set_viewport_size(PHONE)
    page.wait_for_timeout(200)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.locator("#board-events").scroll_into_view_if_needed()
    page.screenshot(path=str(SCREENSHOTS / "board_forfeit_phone.png"), full_page=False)
    page.context.close()

    # a spectator coming to the table sees the same events, in its own language
    watcher = browser.new_context(viewport=PHONE, locale="ru-RU").new_page()
    watcher.goto(f"{server.url}/games/{created['id']}")
    watcher.wait_for_selector("#board-events li.event")
    assert watcher.locator("#board-events li.event").count() == 3
    text = watcher.locator("#board-events").inner_text()
    assert "Недавние события" in text and "неиспользованных кубика (B7.1)" in text
    watcher.context.close()
