"""Two friends at the card table with names and a clock per decision, one on a desktop
and one on a phone: Anna stays away until her clock runs out and the computer plays for
her (Boris's table says so, hers tells her how to come back); then Boris resigns and
both tables show the end with the reason."""

from __future__ import annotations

import random
from typing import Any

from tests.server.games.browser.clock_steps import MSG, create_with_clock, resign
from tests.server.games.browser.conftest import PHONE, SCREENSHOTS, click_one
from tests.server.live_server import LiveServer

WIDE = {"width": 1280, "height": 800}
ANNA_AWAY = f"() => {MSG}.clock.seats[0].computer"


def test_two_friends_one_runs_out_of_time_the_other_sees_it_then_resigns(
    slow_server: LiveServer, browser: Any
) -> None:
    desktop = browser.new_context(viewport=WIDE)
    phone = browser.new_context(viewport=PHONE)
    anna = desktop.new_page()
    create_with_clock(anna, slow_server.url, "cards", ["human", "human"], "Anna", 10)
    anna.wait_for_selector(".join-link[data-seat='1'] .qr svg")
    game_id = anna.url.split("/")[-2]

    # Boris takes the open seat from the lobby under his name: the clocks start
    boris = phone.new_page()
    boris.goto(slow_server.url + "/")
    name = boris.locator("form.new-game:visible input[name='player_name']")
    name.fill("Boris")
    name.dispatch_event("change")
    boris.locator(f".game-item[data-game-id='{game_id}'] button.take-seat[data-seat='1']").click()
    anna.click("#to-table")
    for page in (anna, boris):
        page.wait_for_selector("#table .pyramid")
        page.wait_for_selector("#clocks .clock-seat.running")
    assert "Boris" in anna.locator("#clocks").inner_text()
    assert "Anna" in boris.locator("#clocks").inner_text()

    # Boris plays; Anna does not, until her clock runs out and the computer plays for her
    rng = random.Random(5)
    for _ in range(200):
        boris.wait_for_function(f"() => {MSG}.legal.length > 0 || ({ANNA_AWAY})()", timeout=60_000)
        if boris.evaluate(ANNA_AWAY):
            break
        click_one(boris, rng)
    assert boris.evaluate(ANNA_AWAY), "Anna's clock did not run out"
    notice = "The computer is playing for Seat 1 (Anna) (out of time)."
    boris.wait_for_selector("#clock-away:not(.hidden)")
    assert boris.locator("#clock-away").inner_text() == notice
    assert boris.locator("button.im-back").count() == 0  # only Anna can come back
    # while the computer plays for Anna, Boris's status names her so when it waits for her
    waiting = boris.evaluate(
        f"() => KOTH.table.statusText({{...{MSG}, to_move: {{kind: 'player', players: [0]}}}})"
    )
    assert waiting == "You are Boris (Seat 2). Waiting for Anna (the computer plays).", waiting
    boris.evaluate("() => window.scrollTo(0, 0)")  # to the clocks, from the cards played
    boris.screenshot(path=str(SCREENSHOTS / "friends-away-phone.png"), full_page=False)
    anna.wait_for_function(ANNA_AWAY)
    anna.wait_for_selector("#clock-away:not(.hidden)")
    assert anna.locator("#clock-away").inner_text() == notice
    assert "The computer is playing for you" in anna.locator("#status").inner_text()
    assert anna.locator("button.im-back").is_visible()
    anna.screenshot(path=str(SCREENSHOTS / "friends-away-desktop.png"), full_page=False)

    # Boris resigns: both tables show the end and why
    resign(boris)
    anna.wait_for_function(f"() => {MSG}.status === 'finished'")
    anna.wait_for_selector("#clocks button", state="detached")
    for page, banner in (
        (boris, "Seat 2 (Boris) resigned: Anna wins the game."),
        (anna, "Seat 2 (Boris) resigned: you win the game."),
    ):
        status = page.locator("#status").inner_text()
        assert "Game over (Seat 2 (Boris) resigned)" in status, status
        assert page.locator("#table .result").inner_text() == banner
    assert "you won" in anna.locator("#status").inner_text()
    anna.screenshot(path=str(SCREENSHOTS / "friends-resigned-desktop.png"), full_page=False)
    boris.screenshot(path=str(SCREENSHOTS / "friends-resigned-phone.png"), full_page=False)
    desktop.close()
    phone.close()
