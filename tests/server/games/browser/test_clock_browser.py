"""Clocks and resigning at the card table: a game created from the lobby with a clock per
decision; its person stays away until the clock runs out and the computer plays for the
seat (both say so), then comes back ("I'm back") and plays on, and finally resigns
(confirmed first) and sees the end screen with the reason."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.server.games.browser.clock_steps import (
    MSG,
    come_back_and_play,
    create_with_clock,
    resign,
    wait_for_computer,
)
from tests.server.games.browser.conftest import PHONE, SCREENSHOTS
from tests.server.live_server import LiveServer

WIDE = {"width": 1280, "height": 800}


@pytest.mark.parametrize("viewport", [WIDE, PHONE], ids=["desktop", "phone"])
def test_a_clock_runs_out_the_computer_plays_then_the_person_is_back_and_resigns(
    slow_server: LiveServer, browser: Any, viewport: dict[str, int]
) -> None:
    size = "phone" if viewport is PHONE else "desktop"
    page = browser.new_context(viewport=viewport).new_page()
    create_with_clock(page, slow_server.url, "cards", ["human", "computer"], "Anna", 5)

    # seated at once: every seat is taken, so the clock runs
    page.wait_for_selector("#clocks .clock-seat[data-seat='0']")
    assert page.locator("#clocks .clock-mode").inner_text() == "5 s per decision"
    chip = page.locator("#clocks .clock-seat[data-seat='0']")
    assert "Anna" in chip.inner_text()
    assert page.locator("#clocks button.resign").is_visible()
    page.wait_for_selector("#clocks .clock-seat.running")
    page.screenshot(path=str(SCREENSHOTS / f"table-clock-{size}.png"), full_page=False)

    # away: the clock runs out and the computer plays for the seat
    wait_for_computer(page, 0)
    assert page.locator("#clock-away").inner_text() == (
        "The computer is playing for Seat 1 (Anna) (out of time)."
    )
    assert page.locator("button.im-back").is_visible()
    # the status says so too (not "Your choice" while the computer chooses for the seat)
    status = page.locator("#status").inner_text()
    assert status == (
        "You are Anna (Seat 1). The computer is playing for you (out of time): "
        'press "I\'m back" to play again.'
    ), status
    page.screenshot(path=str(SCREENSHOTS / f"table-away-{size}.png"), full_page=False)

    # back: the computer stops, the person's clock runs again and they play on
    come_back_and_play(page, 0, random.Random(1))

    # resign: asked first, then sent; the end screen says why
    resign(page)
    status = page.locator("#status").inner_text()
    assert "Seat 1 (Anna) resigned" in status and "won by" in status, status
    banner = page.locator("#table .result").inner_text()
    assert banner == "Seat 1 (Anna) resigned: Seat 2 wins the game.", banner
    page.screenshot(path=str(SCREENSHOTS / f"resigned-{size}.png"), full_page=False)

    # the replay and the lobby tell it too
    game_id = page.evaluate(f"() => {MSG}.game_id")
    page.goto(f"{slow_server.url}/games/{game_id}/replay")
    page.wait_for_selector("#ending")
    assert page.locator("#ending").inner_text() == "Seat 1 (Anna) resigned"
    page.goto(slow_server.url + "/")
    item = page.locator(f".game-item[data-game-id='{game_id}']")
    assert "(resigned)" in item.inner_text()
