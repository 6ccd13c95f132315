"""Creating a game for two people: the creator is seated and sees the other seat's link
with Copy, Share and its QR code (again after a reload); a stranger takes the open seat
from the lobby; the lobby tells each game's facts."""

from __future__ import annotations

from typing import Any

import pytest

from tests.server.games.browser.conftest import PHONE, SCREENSHOTS
from tests.server.live_server import LiveServer

WIDE = {"width": 1280, "height": 800}


@pytest.mark.parametrize("viewport", [WIDE, PHONE], ids=["desktop", "phone"])
def test_a_friend_is_invited_and_a_stranger_takes_the_open_seat_from_the_lobby(
    server: LiveServer, browser: Any, viewport: dict[str, int]
) -> None:
    size = "phone" if viewport is PHONE else "desktop"
    host = browser.new_context(viewport=viewport)
    page = host.new_page()
    page.goto(server.url + "/")
    page.click("button.tab[data-tab='new-cards']")
    form = page.locator("form#new-cards")
    form.locator("select[name='seat.0.kind']").select_option("human")
    form.locator("select[name='seat.1.kind']").select_option("human")
    form.locator("input[name='player_name']").fill("Anna")
    form.locator("input[name='player_name']").dispatch_event("change")
    form.locator("button[type='submit']").click()

    page.wait_for_selector(".join-link[data-seat='1'] .qr svg")
    assert page.url.endswith("/invite")  # the secret links left the address bar
    friend = page.locator(".join-link[data-seat='1']")
    link = str(friend.locator("input.copy").input_value())
    assert "#seat=1&token=" in link
    assert page.locator(".join-link[data-seat='0'] .mine").is_visible()
    friend.locator(".copy-button").click()
    page.wait_for_function(
        "() => document.querySelector(\".join-link[data-seat='1'] .copy-button\")"
        ".textContent === 'Copied'"
    )
    page.screenshot(path=str(SCREENSHOTS / f"invite-{size}.png"), full_page=True)
    page.reload()  # the links stay on the creator's device; nothing is created again
    page.wait_for_selector(".join-link[data-seat='1'] .qr svg")
    assert friend.locator("input.copy").input_value() == link
    game_id = page.url.split("/")[-2]

    page.click("#to-table")
    page.wait_for_selector("#table .pyramid")
    assert page.locator("#invite-link").is_visible()  # the links again, from the table

    stranger = browser.new_context(viewport=viewport).new_page()
    stranger.goto(server.url + "/")
    name = stranger.locator("form.new-game:visible input[name='player_name']")
    assert name.input_value() == ""  # another device remembers no name
    name.fill("Boris")
    name.dispatch_event("change")
    item = stranger.locator(f".game-item[data-game-id='{game_id}']")
    assert item.locator(".badge").inner_text() == "open"
    assert item.locator(".moves").inner_text() == "0 moves"  # the deal is no decision
    assert item.locator("time.created").inner_text().strip() != ""
    assert "Anna" in item.locator(".seat-chip").nth(0).inner_text()
    assert "open" in item.locator(".seat-chip").nth(1).inner_text()
    stranger.screenshot(path=str(SCREENSHOTS / f"lobby-open-seat-{size}.png"), full_page=True)
    item.locator("button.take-seat[data-seat='1']").click()
    stranger.wait_for_selector("#table .pyramid")
    assert "#seat=1&token=" in stranger.url and "token=" + link.split("token=")[1] not in (
        stranger.url
    )
    # each table names the other person
    stranger.wait_for_function("() => document.body.innerText.includes('Anna')")
    page.wait_for_function("() => document.body.innerText.includes('Boris')")
    page.screenshot(path=str(SCREENSHOTS / f"table-names-{size}.png"), full_page=True)
    # the seat is no longer offered
    stranger.goto(server.url + "/")
    item = stranger.locator(f".game-item[data-game-id='{game_id}']")
    assert item.locator(".badge").inner_text() == "running"
    assert item.locator("button.take-seat").count() == 0
    assert "Boris" in item.locator(".seat-chip").nth(1).inner_text()
    # "My games", from the header of any page: the game, with this device's own seat link
    stranger.click("a.my-games-link")
    mine = stranger.locator(f"#my-game-list .game-item[data-game-id='{game_id}']")
    mine.wait_for()
    assert "#seat=1&token=" in str(mine.locator("a.game-name").get_attribute("href"))
    assert "Anna" in mine.inner_text() and mine.locator(".turn").inner_text() == "your turn"
    stranger.screenshot(path=str(SCREENSHOTS / f"my-games-{size}.png"), full_page=True)
    page.reload()  # the creator's device remembers the name for the next game
    page.goto(server.url + "/")
    assert page.locator("form.new-game:visible input[name='player_name']").input_value() == "Anna"
    host.close()
    stranger.context.close()
