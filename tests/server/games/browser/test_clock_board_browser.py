"""Clocks and resigning at the board table: a per-decision clock runs out, the computer
plays for the absent seat and the status says so; the person presses "I'm back", plays
on by hand and resigns, and the table shows the end with the reason."""

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

pytest.importorskip("koth.games.board", reason="the board game is not importable yet")

WIDE = {"width": 1280, "height": 800}


@pytest.mark.parametrize("viewport", [WIDE, PHONE], ids=["desktop", "phone"])
def test_the_computer_plays_an_absent_board_seat_then_its_person_is_back_and_resigns(
    slow_server: LiveServer, browser: Any, viewport: dict[str, int]
) -> None:
    size = "phone" if viewport is PHONE else "desktop"
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    create_with_clock(page, slow_server.url, "board", ["human", "computer"], "Anna", 10)
    page.wait_for_selector("#table svg.rings")
    page.wait_for_selector("#clocks .clock-seat[data-seat='0']")
    assert page.locator("#clocks .clock-mode").inner_text() == "10 s per decision"

    # away: the clock runs out and the computer plays for the seat; both lines say so
    wait_for_computer(page, 0)
    assert page.locator("#clock-away").inner_text() == (
        "The computer is playing for Seat 1 (Anna) (out of time)."
    )
    status = page.locator("#status").inner_text()
    assert status == (
        "You are Anna (Seat 1). The computer is playing for you (out of time): "
        'press "I\'m back" to play again.'
    ), status
    assert page.locator("button.im-back").is_visible()
    page.screenshot(path=str(SCREENSHOTS / f"board-away-{size}.png"), full_page=False)

    # back: the computer stops and the person plays on by hand
    come_back_and_play(page, 0, random.Random(2))
    assert "computer is playing" not in page.locator("#status").inner_text()

    # resign: the table ends with the reason and the other seat wins
    resign(page)
    status = page.locator("#status").inner_text()
    assert "Seat 1 (Anna) resigned" in status and "won by Seat 2" in status, status
    assert page.evaluate(f"() => {MSG}.outcome.winners") == [1]
    page.screenshot(path=str(SCREENSHOTS / f"board-resigned-{size}.png"), full_page=False)
    context.close()


def test_with_three_seats_the_resigned_person_is_told_the_computer_plays_on(
    slow_server: LiveServer, browser: Any
) -> None:
    context = browser.new_context(viewport=WIDE)
    page = context.new_page()
    kinds = ["human", "computer", "computer"]
    create_with_clock(page, slow_server.url, "board", kinds, "Anna", 60)
    page.wait_for_selector("#table svg.rings")
    page.click("#clocks button.resign")
    page.click("#clocks button.resign-yes")
    page.wait_for_function(f"() => {MSG}.clock.seats[0].resigned")
    assert page.evaluate(f"() => {MSG}.status") == "running"  # two seats play on
    status = page.locator("#status").inner_text()
    assert status == "You are Anna (Seat 1). You resigned: the computer plays your seat on.", status
    page.wait_for_selector("#clock-away:not(.hidden)")
    assert page.locator("#clock-away").inner_text() == (
        "The computer is playing for Seat 1 (Anna) (resigned)."
    )
    assert page.locator("#clocks button").count() == 0  # no way back, nothing to resign
    page.screenshot(path=str(SCREENSHOTS / "board-resigned-of-three.png"), full_page=False)
    context.close()
