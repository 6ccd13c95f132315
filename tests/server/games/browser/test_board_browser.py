"""A 3-player board game: two people in two browser contexts and one computer seat."""

from __future__ import annotations

import random
import time
from typing import Any

import httpx
import pytest

from koth.core.record import GameRecord, replay
from tests.server.games.browser.conftest import DESKTOP, PHONE, SCREENSHOTS, click_one
from tests.server.live_server import LiveServer

pytest.importorskip("koth.games.board", reason="the board game is not importable yet")


def test_two_people_and_a_computer_play_the_board_game_to_the_end(
    server: LiveServer, browser: Any
) -> None:
    host = browser.new_context(viewport=DESKTOP)
    guest = browser.new_context(viewport=DESKTOP)
    lobby = host.new_page()
    lobby.goto(server.url + "/")
    lobby.click("button.tab[data-tab='new-board']")
    form = lobby.locator("form#new-board")
    form.locator("input[name='param.num_players']").fill("3")
    form.locator("input[name='param.num_players']").dispatch_event("change")
    form.locator("input[name='param.round_limit']").fill("3")
    lobby.wait_for_selector("form#new-board .seat-row[data-seat='2']")
    form.locator("select[name='seat.0.kind']").select_option("human")
    form.locator("select[name='seat.1.kind']").select_option("human")
    form.locator("select[name='seat.2.kind']").select_option("computer")
    form.locator("button[type='submit']").click()
    lobby.wait_for_selector(".join-link[data-seat='1'] .qr svg")
    links = [lobby.locator(f"a.join[data-seat='{s}']").get_attribute("href") for s in (0, 1)]
    assert all("token=" in str(link) for link in links)
    assert lobby.locator(".join-link[data-seat='2']").is_hidden()  # the computer's

    first = host.new_page()
    second = guest.new_page()
    first.goto(str(links[0]))
    second.goto(str(links[1]))
    for page in (first, second):
        page.wait_for_selector("#table svg.rings")
    game_id = first.locator("#table").get_attribute("data-game-id")

    rng = random.Random(3)
    clicks = 0
    reloaded = False
    screenshot_taken = False
    deadline = time.monotonic() + 150
    while first.locator("#table").get_attribute("data-finished") != "true":
        assert time.monotonic() < deadline, "the board game did not finish"
        acted = False
        for page in (first, second):
            if click_one(page, rng):
                acted = True
                clicks += 1
        if not acted:
            time.sleep(0.05)  # the computer seat is thinking
        if clicks >= 8 and not reloaded:
            second.reload()  # mid-game: the seat reconnects where it was
            second.wait_for_selector("#table svg.rings")
            reloaded = True
        if not screenshot_taken and first.locator("#table circle.hit.source").count() > 0:
            # a unit picked and a destination clicked: the move previewed, to confirm
            first.locator("#table circle.hit.source").first.click()
            first.locator("#table circle.hit.target, #table circle.hit.area-target").first.click()
            first.wait_for_selector("#board-popover .popover-confirm")
            first.screenshot(path=str(SCREENSHOTS / "board.png"), full_page=True)
            first.set_viewport_size(PHONE)
            first.screenshot(path=str(SCREENSHOTS / "board-phone.png"), full_page=True)
            first.set_viewport_size(DESKTOP)
            screenshot_taken = True
    second.wait_for_function("() => document.querySelector('#table').dataset.finished === 'true'")
    assert clicks > 5 and reloaded
    for page in (first, second):
        assert "Game over" in page.locator("#status").inner_text()

    record = GameRecord.model_validate(httpx.get(f"{server.url}/api/games/{game_id}/record").json())
    final = replay(record)
    assert final.is_terminal() and final.game.num_players == 3
    humans = {p for move in final.history for p, _ in move.actions if p in (0, 1)}
    assert humans == {0, 1}  # both people really played
    host.close()
    guest.close()
