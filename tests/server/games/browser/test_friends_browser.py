"""Friends at two tables: names and presence, the turn in the tab's title, a finished
card game's score and rematch accepted with one click, both tables moving on; and "My
games" on a second device after its recovery code."""

from __future__ import annotations

import random
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from tests.server.games.browser.clock_steps import MSG
from tests.server.games.browser.conftest import PHONE, SCREENSHOTS, click_one
from tests.server.live_server import LiveServer

# a generous ceiling for what a page waits for: CI's machine can be loaded
TIMEOUT_MS = 60_000

WIDE = {"width": 1280, "height": 800}
TURN_TITLE = "Your turn - King of the Hill"
BOTH_ONLINE = "() => document.querySelectorAll('#people .person.online').length === 2"


def create(server: LiveServer, game: str = "cards") -> tuple[str, dict[int, str]]:
    seats = [{"kind": "human", "name": "Anna"}, {"kind": "human", "name": "Boris"}]
    created = httpx.post(f"{server.url}/api/games", json={"game": game, "seats": seats})
    assert created.status_code == 201, created.text
    data = created.json()
    return data["id"], {s["seat"]: s["token"] for s in data["seats"]}


def state(server: LiveServer, game_id: str, token: str | None = None) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    data: dict[str, Any] = httpx.get(f"{server.url}/api/games/{game_id}", headers=headers).json()
    return data


def play_out(server: LiveServer, game_id: str, tokens: dict[int, str], seed: int) -> None:
    """Both seats play random legal moves through the API until the game is over."""
    rng = random.Random(seed)
    for _ in range(3000):
        for token in tokens.values():
            current = state(server, game_id, token)
            if current["outcome"]:
                return
            if current["legal"]:
                move = httpx.post(
                    f"{server.url}/api/games/{game_id}/actions",
                    json={"action_id": rng.choice(current["legal"])["id"]},
                    headers={"Authorization": f"Bearer {token}"},
                )
                assert move.status_code in (200, 409), move.text
    raise AssertionError("the game did not end")


def open_table(browser: Any, viewport: dict[str, int], url: str) -> Any:
    page = browser.new_context(viewport=viewport).new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(url)
    page.wait_for_selector("#table[data-version]")
    return page


def score_text(msg: dict[str, Any]) -> str:
    def points(value: float) -> str:
        whole = int(value)
        return (f"{whole}½" if whole else "½") if value - whole >= 0.5 else str(whole)

    names = [s["name"] for s in msg["seats"]]
    score = msg["friends"]["score"]
    left, right = score["points"]
    text = f"{names[0]} {points(left)} - {points(right)} {names[1]}"
    return f"{text} ({score['draws']} drawn)" if score["draws"] else text


@pytest.mark.parametrize("viewport", [WIDE, PHONE], ids=["desktop", "phone"])
def test_two_friends_play_see_each_other_and_accept_a_rematch_with_one_click(
    server: LiveServer, browser: Any, viewport: dict[str, int]
) -> None:
    size = "phone" if viewport is PHONE else "desktop"
    game_id, tokens = create(server)
    url = f"{server.url}/games/{game_id}"
    anna = open_table(browser, viewport, f"{url}#seat=0&token={tokens[0]}")
    boris = open_table(browser, viewport, f"{url}#seat=1&token={tokens[1]}")
    for page in (anna, boris):  # each sees both persons online, by name
        page.wait_for_function(
            "() => document.querySelectorAll('#people .person.online').length === 2"
        )
        assert "Anna" in page.locator("#people").inner_text()
        assert "Boris" in page.locator("#people").inner_text()
    # the tab's title tells whose turn it is
    first = state(server, game_id)["to_move"]["players"]
    if first == [0] or first == [1]:
        mover, waiter = (anna, boris) if first == [0] else (boris, anna)
        mover.wait_for_function(f"() => document.title === {TURN_TITLE!r}")
        assert waiter.title() != TURN_TITLE
    else:  # both choose at once: both are to act
        for page in (anna, boris):
            page.wait_for_function(f"() => document.title === {TURN_TITLE!r}")
    anna.screenshot(path=str(SCREENSHOTS / f"friends-table-{size}.png"), full_page=True)
    boris.close()  # Boris leaves: Anna sees him away
    anna.wait_for_function(
        "() => document.querySelector(\"#people [data-seat='1']\").classList.contains('away')"
    )
    boris = open_table(browser, viewport, f"{url}#seat=1&token={tokens[1]}")
    anna.wait_for_function(BOTH_ONLINE)

    play_out(server, game_id, tokens, seed=7)
    finished = state(server, game_id)
    expected = score_text(finished)
    for page in (anna, boris):
        page.wait_for_selector("#rematch-button")
        assert expected in page.locator("#rematch .end-score").inner_text()
    anna.screenshot(path=str(SCREENSHOTS / f"friends-end-{size}.png"), full_page=True)

    anna.click("#rematch-button")
    boris.wait_for_selector("#rematch-accept")
    expect(boris.locator("#rematch")).to_contain_text("Anna offers a rematch", timeout=TIMEOUT_MS)
    # Anna's own table shows the wait once her offer is back from the server
    expect(anna.locator("#rematch")).to_contain_text("waiting for Boris", timeout=TIMEOUT_MS)
    boris.click("#rematch-accept")  # one click: both tables move to the new game
    for page in (anna, boris):
        page.wait_for_function(
            "(old) => location.pathname.startsWith('/games/') && !location.pathname.endsWith(old)",
            arg=game_id,
        )
        page.wait_for_selector("#table[data-version]")
    second = anna.url.split("/games/")[1].split("#")[0]
    assert boris.url.split("/games/")[1].split("#")[0] == second
    rematch = state(server, second)
    assert [s["name"] for s in rematch["seats"]] == ["Boris", "Anna"]  # seats rotated
    # the running score over the chain, the same on both tables
    text = score_text(rematch)
    for page in (anna, boris):
        page.wait_for_function(
            "(t) => (document.querySelector('#people .score') || {}).textContent === 'Score: ' + t",
            arg=text,
        )
        page.context.close()


def test_my_games_reach_a_second_device_with_a_recovery_code(
    server: LiveServer, browser: Any
) -> None:
    game_id, tokens = create(server)
    laptop = open_table(browser, WIDE, f"{server.url}/games/{game_id}#seat=0&token={tokens[0]}")
    # the table tied its seat to this device's player key
    laptop.wait_for_function(
        "(id) => localStorage.getItem('koth.seat.' + id) !== null", arg=game_id
    )
    laptop.goto(f"{server.url}/me")
    laptop.wait_for_selector(f".game-item[data-game-id='{game_id}']")
    laptop.click("#recovery-show")
    laptop.wait_for_selector("#recovery-code:not(.hidden)")
    code = laptop.locator("#recovery-code").inner_text()
    assert len(code) == 14

    phone = browser.new_context(viewport=PHONE).new_page()
    phone.goto(f"{server.url}/me")
    phone.wait_for_selector("#no-games:not(.hidden)")
    phone.fill("#recover-input", "WRNG-CODE-0000")
    phone.click("#recover-form button[type='submit']")
    phone.wait_for_selector("#recovery-error:not(.hidden)")
    assert "not known" in phone.locator("#recovery-error").inner_text()
    phone.fill("#recover-input", code)
    phone.click("#recover-form button[type='submit']")
    phone.wait_for_selector(f".game-item[data-game-id='{game_id}']")
    laptop.reload()  # the identity moved: the laptop holds it no more
    laptop.wait_for_selector("#no-games:not(.hidden)")
    # the phone plays the seat from "My games": a fresh link, the laptop's stops working
    phone.click(f".game-item[data-game-id='{game_id}'] a.game-name")
    phone.wait_for_selector("#table[data-version]")
    phone.wait_for_function(f"() => {MSG}.seat === 0")
    rng = random.Random(5)
    for _ in range(50):  # Boris moves (through the API) until Anna is to act
        boris = state(server, game_id, tokens[1])
        if 0 in boris["to_move"]["players"]:
            break
        move = httpx.post(
            f"{server.url}/api/games/{game_id}/actions",
            json={"action_id": rng.choice(boris["legal"])["id"]},
            headers={"Authorization": f"Bearer {tokens[1]}"},
        )
        assert move.status_code == 200, move.text
    phone.wait_for_function(f"() => {MSG}.legal.length > 0", timeout=60_000)
    before = phone.evaluate(f"() => {MSG}.version")
    played = f"(v) => {MSG}.version > v || {MSG}.submitted.includes(0)"
    for _ in range(30):
        click_one(phone, rng)
        if phone.evaluate(played, before):
            break
    phone.wait_for_function(played, arg=before)
    laptop_link = {"Authorization": f"Bearer {tokens[0]}"}
    assert httpx.get(f"{server.url}/api/games/{game_id}", headers=laptop_link).status_code == 403
    phone.context.close()
    laptop.context.close()
