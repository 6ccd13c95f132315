"""A whole card game, a person against the computer, played by clicking in Chromium."""

from __future__ import annotations

import random
from typing import Any

import httpx
import pytest

from koth.core.record import GameRecord, replay
from tests.server.games.browser.conftest import (
    DESKTOP,
    PHONE,
    SCREENSHOTS,
    Wiretap,
    cards_in,
    play_by_clicking,
)
from tests.server.live_server import LiveServer

pytest.importorskip("koth.games.cards", reason="the card game is not importable yet")


def secret_cards_by_version(record: GameRecord, viewer: int) -> dict[int, set[str]]:
    """For each version: the opponent's cards that ``viewer`` may not know then."""
    state = replay(record)
    current = state.game.new_initial_state()
    secrets: dict[int, set[str]] = {}
    opponent = 1 - viewer

    def secret_now() -> set[str]:
        truth = current.view(opponent)["players"][opponent]
        known = set(current.view(viewer)["players"][opponent].get("known_cards") or [])
        cards = set(truth.get("hand") or []) | set(truth.get("reserve") or [])
        return {c for c in cards if c != "JK"} - known

    secrets[0] = secret_now()
    for move in state.history:
        current.apply_move(move)
        secrets[len(current.history)] = secret_now()
    return secrets


def test_a_whole_card_game_against_the_computer(server: LiveServer, browser: Any) -> None:
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    wiretap = Wiretap()
    wiretap.attach(page)

    page.goto(server.url + "/")
    page.click("button.tab[data-tab='new-cards']")
    form = page.locator("form#new-cards")
    form.locator("select[name='seat.0.kind']").select_option("human")
    form.locator("select[name='seat.1.kind']").select_option("computer")
    page.screenshot(path=str(SCREENSHOTS / "lobby.png"), full_page=True)
    form.locator("button[type='submit']").click()  # seated at once against the computer
    page.wait_for_selector("#table .pyramid")
    game_id = page.locator("#table").get_attribute("data-game-id")

    rng = random.Random(7)
    shots: dict[str, bool] = {"desktop": False}

    def after_click(clicks: int) -> None:
        if clicks == 15:  # mid-game: reload, and the seat must carry on where it was
            version = page.locator("#table").get_attribute("data-version")
            page.reload()
            page.wait_for_selector("#table .pyramid")
            page.wait_for_function(
                "(v) => Number(document.querySelector('#table').dataset.version) >= Number(v)",
                arg=version,
            )
        if (
            not shots["desktop"]
            and page.locator("#table .stack.legal").count() > 0
            and clicks >= 13
        ):
            page.screenshot(path=str(SCREENSHOTS / "cards.png"), full_page=True)
            page.set_viewport_size(PHONE)
            page.screenshot(path=str(SCREENSHOTS / "cards-phone.png"), full_page=True)
            page.set_viewport_size(DESKTOP)
            shots["desktop"] = True

    clicks = play_by_clicking(page, rng, on_click=after_click)
    assert clicks > 12  # at least the twelve reserve decisions were clicked
    assert "Game over" in page.locator("#status").inner_text()
    page.locator("#record-link").wait_for(state="visible")

    record = GameRecord.model_validate(httpx.get(f"{server.url}/api/games/{game_id}/record").json())
    assert replay(record).is_terminal()

    # nothing the browser received ever showed a card of the computer's it could not know
    secrets = secret_cards_by_version(record, viewer=0)
    messages = wiretap.state_messages()
    assert len(messages) > 12  # a message at least after each reserve round
    for message in messages:
        if message["outcome"] is None:
            assert message["seat"] == 0
            leaked = cards_in(message) & secrets[message["version"]]
            assert not leaked, f"version {message['version']} showed {leaked}"

    # the replay viewer steps through the finished game by decision, every hand revealed
    page.goto(f"{server.url}/games/{game_id}/replay")
    page.wait_for_selector("#board .pyramid")
    last = page.locator("#step").inner_text()
    page.click("#back")
    assert page.locator("#step").inner_text() != last
    page.click("#first")
    assert page.locator("#step").inner_text().startswith("decision 1 ")
    assert "all cards are shown" in page.locator("#status").inner_text()
    context.close()
