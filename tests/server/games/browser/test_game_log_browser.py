"""The game log panel at a board table (1280x800 and a 390x844 phone): every public event
the message's `log` holds, newest first, each with its rule, the entries of the last
decision marked and the tiles they name marked on the board; and the replay of a finished
card game steps from decision to decision, its log growing with it."""

from __future__ import annotations

import random
from typing import Any

import httpx

from tests.server.games.browser.conftest import PHONE, SCREENSHOTS, sync_api
from tests.server.games.browser.test_board_events_browser import _end_turns
from tests.server.live_server import LiveServer

WIDE = {"width": 1280, "height": 800}
WAIT = 30_000
expect = sync_api.expect


def test_b19_the_board_shows_its_log_newest_first(server: LiveServer, browser: Any) -> None:
    body = {"game": "board", "params": {"num_players": 2}, "seats": [{}, {}]}
    created = httpx.post(f"{server.url}/api/games", json=body, timeout=10).json()
    _end_turns(server, created, 2)  # the starting areas placed, two turns ended
    api = httpx.get(f"{server.url}/api/games/{created['id']}", timeout=10).json()
    log = api["log"]
    for viewport, name in ((WIDE, "desktop"), (PHONE, "phone")):
        page = browser.new_context(viewport=viewport).new_page()
        page.goto(f"{server.url}/games/{created['id']}")  # a spectator
        entries = page.locator("#log .log-entry")
        expect(entries).to_have_count(len(log), timeout=WAIT)
        texts = entries.locator(".log-text").all_inner_texts()
        assert texts == [e["text"] for e in reversed(log)]  # newest first
        assert entries.first.locator(".rule").inner_text() == log[-1]["rule"]
        latest = [e for e in log if e["decision"] == log[-1]["decision"]]
        expect(page.locator("#log .log-entry.latest")).to_have_count(len(latest))
        codes = {e["code"] for e in log}
        assert {"terrain_drawn", "area_drawn", "area_placed", "die_rolled"} <= codes
        placed = [e["params"]["at"] for e in log if e["code"] == "area_placed"]
        assert page.locator(f"#board [data-loc='{placed[0]}']").count() == 1
        page.screenshot(path=str(SCREENSHOTS / f"board_log_{name}.png"), full_page=True)
        page.context.close()
    # a table open while the game goes on: each update carries only its new entries, which
    # the table adds to the log it has
    page = browser.new_context(viewport=WIDE).new_page()
    page.goto(f"{server.url}/games/{created['id']}")
    entries = page.locator("#log .log-entry")
    expect(entries).to_have_count(len(log), timeout=WAIT)
    _end_turns(server, created, 3)
    log = httpx.get(f"{server.url}/api/games/{created['id']}", timeout=10).json()["log"]
    expect(entries).to_have_count(len(log), timeout=WAIT)
    assert entries.locator(".log-text").all_inner_texts() == [e["text"] for e in reversed(log)]
    page.context.close()


def test_the_replay_steps_by_decision_with_its_log(server: LiveServer, browser: Any) -> None:
    body = {"game": "cards", "seats": [{}, {}]}
    created = httpx.post(f"{server.url}/api/games", json=body, timeout=10).json()
    url = f"{server.url}/api/games/{created['id']}"
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    rng = random.Random(2)
    for _ in range(400):
        if httpx.get(url, timeout=10).json()["outcome"]:
            break
        for token in tokens.values():
            auth = {"Authorization": f"Bearer {token}"}
            legal = httpx.get(url, headers=auth, timeout=10).json()["legal"]
            if legal:
                action = rng.choice(legal)["text"]
                httpx.post(f"{url}/actions", json={"action": action}, headers=auth, timeout=10)
    replay = httpx.get(f"{url}/replay", timeout=10).json()
    decisions = [f for f in replay["frames"] if f["to_move"]["kind"] != "chance"]
    page = browser.new_context(viewport=WIDE).new_page()
    page.goto(f"{server.url}/games/{created['id']}/replay")
    step = page.locator("#step")
    expect(step).to_have_text(f"decision {len(decisions)} of {len(decisions)}", timeout=WAIT)
    entries = page.locator("#log .log-entry")
    expect(entries).to_have_count(len(replay["logs"]["spectator"]))
    page.click("#first")
    expect(step).to_have_text(f"decision 1 of {len(decisions)}")
    # the deal's 52 cards are one step: the first decision already shows it done
    expect(entries).to_have_count(1)
    assert entries.first.get_attribute("data-code") == "cards_dealt"
    page.click("#forward")
    expect(step).to_have_text(f"decision 2 of {len(decisions)}")
    assert "all cards are shown" in page.locator("#status").inner_text()
    # and they are: seen as Seat 1, Seat 2's cards are face up too
    page.select_option("#perspective", "0")
    expect(page.locator("#board .revealed[data-player='1'] [data-card]")).to_have_count(12)
    assert "Each seat's chance, estimated from what that seat could see" in (
        page.locator("#analysis-explained").inner_text()
    )
    page.screenshot(path=str(SCREENSHOTS / "replay_log_desktop.png"), full_page=True)
    page.context.close()
    phone = browser.new_context(viewport=PHONE).new_page()
    phone.goto(f"{server.url}/games/{created['id']}/replay")
    expect(phone.locator("#step")).to_have_text(
        f"decision {len(decisions)} of {len(decisions)}", timeout=WAIT
    )
    expect(phone.locator("#log .log-entry")).to_have_count(len(replay["logs"]["spectator"]))
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    phone.screenshot(path=str(SCREENSHOTS / "replay_log_phone.png"), full_page=True)
    phone.context.close()
