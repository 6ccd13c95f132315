"""Steps shared by the browser tests of clocks, absence and resigning: create a game
with a clock per decision from the lobby, wait until the computer plays for a seat, come
back and play on, resign."""

from __future__ import annotations

import random
from typing import Any

from tests.server.games.browser.conftest import click_one, sync_api

expect = sync_api.expect

MSG = "KOTH.table.msg"


def create_with_clock(
    page: Any, url: str, game: str, kinds: list[str], name: str, seconds: int
) -> None:
    """Fill and send the lobby's form for ``game`` ("cards", "board"): the seats' kinds,
    the creator's name and a clock of ``seconds`` per decision, the beginner playing for
    a person out of time."""
    page.goto(url + "/")
    page.click(f"button.tab[data-tab='new-{game}']")
    form = page.locator(f"form#new-{game}")
    form.locator("input[name='player_name']").fill(name)
    form.locator("input[name='player_name']").dispatch_event("change")
    if len(kinds) > 2:  # the board game for three or four
        form.locator("input[name='param.num_players']").fill(str(len(kinds)))
        form.locator("input[name='param.num_players']").dispatch_event("change")
        page.wait_for_selector(f"form#new-{game} .seat-row[data-seat='{len(kinds) - 1}']")
    for seat, kind in enumerate(kinds):
        form.locator(f"select[name='seat.{seat}.kind']").select_option(kind)
    form.locator("select[name='clock.mode']").select_option("move")
    form.locator("input[name='clock.seconds']").fill(str(seconds))
    form.locator("select[name='clock.level']").select_option("beginner")
    form.locator("button[type='submit']").click()


def wait_for_computer(page: Any, seat: int) -> None:
    """Wait until the clock of ``seat`` ran out and the computer plays for it."""
    page.wait_for_selector("#clock-away:not(.hidden)", timeout=60_000)
    page.wait_for_function(f"(s) => {MSG}.clock.seats[s].computer", arg=seat)


def come_back_and_play(page: Any, seat: int, rng: random.Random) -> None:
    """Press "I'm back" as ``seat``'s person, then play one decision by hand."""
    page.click("button.im-back")
    page.wait_for_function(f"(s) => !{MSG}.clock.seats[s].computer", arg=seat)
    page.wait_for_selector("#clock-away", state="hidden")  # drawn on the next tick
    page.wait_for_function(f"() => {MSG}.legal.length > 0", timeout=60_000)
    before = page.evaluate(f"() => {MSG}.version")
    # played: the game moved on, or (a secret choice) the seat's choice is in
    played = f"(a) => {MSG}.version > a[0] || {MSG}.submitted.includes(a[1])"
    for _ in range(30):
        click_one(page, rng)
        if page.evaluate(played, [before, seat]):
            break
    page.wait_for_function(played, arg=[before, seat])
    # by the person: had the clock run out again, the computer would play the seat
    assert not page.evaluate(f"(s) => {MSG}.clock.seats[s].computer", seat)


def resign(page: Any) -> None:
    """Resign at ``page``'s table: asked first (cancelled once), then confirmed."""
    page.click("#clocks button.resign")
    expect(page.locator("#clocks .resign-question")).to_be_visible()
    page.click("#clocks button.resign-cancel")
    assert page.evaluate(f"() => {MSG}.status") == "running"
    page.click("#clocks button.resign")
    page.click("#clocks button.resign-yes")
    page.wait_for_function(f"() => {MSG}.status === 'finished'")
    # the clocks' panel follows on its next tick: no clock, no question, no button left
    page.wait_for_selector("#clocks .resign-question", state="detached")
    expect(page.locator("#clocks button")).to_have_count(0)
    expect(page.locator("#clocks .clock-seat")).to_have_count(0)
