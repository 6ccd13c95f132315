"""Clocks and resigning at the card table: a game created from the lobby with a clock per
decision; its person stays away until the clock runs out and the computer plays for the
seat (both say so), then comes back ("I'm back") and plays on, and finally resigns
(confirmed first) and sees the end screen with the reason."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.games.browser.conftest import PHONE, SCREENSHOTS, click_one
from tests.server.live_server import LiveServer

WIDE = {"width": 1280, "height": 800}
MSG = "KOTH.table.msg"


@pytest.fixture(scope="module")
def slow_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server whose computer waits a second before each move, so that a game the
    computer plays for an absent person lasts until the person is back."""
    database: Path = tmp_path_factory.mktemp("clocks") / "koth.sqlite3"
    live = LiveServer(f"sqlite:///{database}", computer_delay=1.0).start()
    try:
        yield live
    finally:
        live.stop()


@pytest.mark.parametrize("viewport", [WIDE, PHONE], ids=["desktop", "phone"])
def test_a_clock_runs_out_the_computer_plays_then_the_person_is_back_and_resigns(
    slow_server: LiveServer, browser: Any, viewport: dict[str, int]
) -> None:
    size = "phone" if viewport is PHONE else "desktop"
    page = browser.new_context(viewport=viewport).new_page()
    page.goto(slow_server.url + "/")
    page.click("button.tab[data-tab='new-cards']")
    form = page.locator("form#new-cards")
    form.locator("input[name='player_name']").fill("Anna")
    form.locator("input[name='player_name']").dispatch_event("change")
    form.locator("select[name='seat.0.kind']").select_option("human")
    form.locator("select[name='seat.1.kind']").select_option("computer")
    form.locator("select[name='clock.mode']").select_option("move")
    form.locator("input[name='clock.seconds']").fill("5")
    form.locator("select[name='clock.level']").select_option("beginner")
    form.locator("button[type='submit']").click()

    # seated at once: every seat is taken, so the clock runs
    page.wait_for_selector("#clocks .clock-seat[data-seat='0']")
    assert page.locator("#clocks .clock-mode").inner_text() == "5 s per decision"
    chip = page.locator("#clocks .clock-seat[data-seat='0']")
    assert "Anna" in chip.inner_text()
    assert page.locator("#clocks button.resign").is_visible()
    page.wait_for_selector("#clocks .clock-seat.running")
    page.screenshot(path=str(SCREENSHOTS / f"table-clock-{size}.png"), full_page=False)

    # away: the clock runs out and the computer plays for the seat
    page.wait_for_selector("#clock-away:not(.hidden)", timeout=60_000)
    assert page.locator("#clock-away").inner_text() == (
        "The computer is playing for Seat 1 (Anna) (out of time)."
    )
    assert page.locator("button.im-back").is_visible()
    page.wait_for_function(f"() => {MSG}.clock.seats[0].computer")
    # the status says so too (not "Your choice" while the computer chooses for the seat)
    status = page.locator("#status").inner_text()
    assert status == (
        "You are Anna (Seat 1). The computer is playing for you (out of time): "
        'press "I\'m back" to play again.'
    ), status
    page.screenshot(path=str(SCREENSHOTS / f"table-away-{size}.png"), full_page=False)

    # back: the computer stops, the person's clock runs again and they play on
    page.click("button.im-back")
    page.wait_for_function(f"() => !{MSG}.clock.seats[0].computer")
    page.wait_for_selector("#clock-away", state="hidden")  # drawn on the next tick
    page.wait_for_function(f"() => {MSG}.legal.length > 0", timeout=60_000)
    before = page.evaluate(f"() => {MSG}.version")
    # played: the game moved on, or (a secret choice) the seat's choice is in
    played = f"(v) => {MSG}.version > v || {MSG}.submitted.includes(0)"
    rng = random.Random(1)
    for _ in range(20):
        click_one(page, rng)
        if page.evaluate(played, before):
            break
    page.wait_for_function(played, arg=before)
    assert not page.evaluate(f"() => {MSG}.clock.seats[0].computer")

    # resign: asked first, then sent; the end screen says why
    page.click("#clocks button.resign")
    assert page.locator("#clocks .resign-question").is_visible()
    page.click("#clocks button.resign-cancel")
    assert page.evaluate(f"() => {MSG}.status") == "running"
    page.click("#clocks button.resign")
    page.click("#clocks button.resign-yes")
    page.wait_for_function(f"() => {MSG}.status === 'finished'")
    status = page.locator("#status").inner_text()
    assert "Seat 1 (Anna) resigned" in status and "won by" in status, status
    assert page.locator("#clocks button.resign").count() == 0
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
