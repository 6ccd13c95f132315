"""The board page explains itself: a legend of terrain and unit shapes, units drawn as
shapes of their type with counts, and a status that names the action expected."""

from __future__ import annotations

import time
from typing import Any

import httpx

from tests.server.games.browser.conftest import PHONE, SCREENSHOTS, sync_api
from tests.server.live_server import LiveServer

WIDE = {"width": 1280, "height": 800}


def _status(page: Any) -> str:
    return str(page.locator("#status").inner_text())


def _wait_for_status(page: Any, *words: str, timeout: float = 30) -> str:
    deadline = time.monotonic() + timeout
    while not any(word in _status(page) for word in words):
        assert time.monotonic() < deadline, f"status never said {words}: {_status(page)!r}"
        time.sleep(0.05)
    return _status(page)


def _seat_legal(server: LiveServer, game_id: str, token: str, timeout: float = 60) -> list[str]:
    """Seat's legal actions once it has some (the computer may move first)."""
    auth = {"Authorization": f"Bearer {token}"}
    deadline = time.monotonic() + timeout
    while True:
        mine = httpx.get(f"{server.url}/api/games/{game_id}", headers=auth, timeout=10).json()
        if mine["legal"]:
            return [a["text"] for a in mine["legal"]]
        assert time.monotonic() < deadline, "seat 1 never got a decision"
        time.sleep(0.05)


def _game_with_a_recruit(server: LiveServer) -> dict[str, Any]:
    """A game against the computer where Seat 1, its starting area placed through the
    API, may recruit a fighter at its first turn: the dice are rolled by chance, and
    about one roll in 25 (four turn dice) allows no recruit at all, so a game that rolls
    one is left and another created."""
    body = {
        "game": "board",
        "params": {"num_players": 2},
        "seats": [{"kind": "human"}, {"kind": "computer", "agent": "heuristic"}],
    }
    for _ in range(20):
        created: dict[str, Any] = httpx.post(
            f"{server.url}/api/games", json=body, timeout=10
        ).json()
        token = next(s["token"] for s in created["seats"] if s["seat"] == 0)
        legal = _seat_legal(server, created["id"], token)
        if all(text.startswith("place") for text in legal):
            response = httpx.post(
                f"{server.url}/api/games/{created['id']}/actions",
                json={"action": legal[0]},
                headers={"Authorization": f"Bearer {token}"},
                timeout=10,
            )
            assert response.status_code == 200, response.text
            legal = _seat_legal(server, created["id"], token)
        if any(text.startswith("recruit fighter") for text in legal):
            return created
    raise AssertionError("20 games in a row rolled no recruit for Seat 1")


def test_the_board_shows_a_legend_unit_shapes_and_the_expected_action(
    server: LiveServer, browser: Any
) -> None:
    created = _game_with_a_recruit(server)
    link = next(s["join_url"] for s in created["seats"] if s["seat"] == 0)
    page = browser.new_context(viewport=WIDE).new_page()
    page.goto(link)
    page.wait_for_selector("#table svg.rings")

    legend = page.locator("#board-legend")
    assert legend.locator(".legend-terrain").count() == 4
    assert [
        legend.locator(".legend-unit-row").nth(i).get_attribute("data-kind") for i in range(3)
    ] == [
        "R",
        "F",
        "B",
    ]
    assert "difficult: runners only" in legend.inner_text()

    status = _wait_for_status(page, "Use a die")
    assert "action 1 of 2" in status and "or end the turn" in status
    assert "Ending now forfeits" in status

    # recruit: the unit appears in the starting area as its shape, with its count
    page.locator("#table .recruit-badge").click()
    page.wait_for_selector("#board-popover")
    # without a recruit die among the dice the recruit is paid with a move die ("recruit
    # fighter by move"): the dice are rolled by chance, so either is offered
    option = page.locator("#board-popover .popover-option[data-action^='recruit fighter']")
    if option.count():  # a choice of unit types: the fighter
        option.first.click()
    page.locator("#board-popover .popover-confirm[data-action^='recruit fighter']").click()
    page.wait_for_selector("#table g.unit[data-player='0'][data-kind='F'] circle.unit-shape")
    unit = page.locator("#table g.unit[data-player='0'][data-kind='F']").first
    assert unit.locator(".unit-count").text_content() == unit.get_attribute("data-count")
    assert "action 2 of 2" in _wait_for_status(page, "action 2 of 2")
    page.screenshot(path=str(SCREENSHOTS / "board-legend.png"), full_page=True)
    page.set_viewport_size(PHONE)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path=str(SCREENSHOTS / "board-legend-phone.png"), full_page=True)
    page.context.close()


def test_b16_3_a_teamplay_table_names_its_pairs_and_counts_units_in_words(
    server: LiveServer, browser: Any
) -> None:
    body = {"game": "board", "params": {"num_players": 4, "teamplay": True}, "seats": [{}] * 4}
    created = httpx.post(f"{server.url}/api/games", json=body, timeout=10).json()
    for viewport, size in ((WIDE, "desktop"), (PHONE, "phone")):
        page = browser.new_context(viewport=viewport).new_page()
        page.goto(f"{server.url}/games/{created['id']}")  # a spectator
        teams = page.locator("#table .teams")
        sync_api.expect(teams).to_have_text(
            "Seat 1 and Seat 3 against Seat 2 and Seat 4, points 0 : 0 (B16.3)", timeout=30_000
        )
        hand = page.locator("#table .players li").first.inner_text()
        assert "runners" in hand and "(s)" not in hand, hand
        page.locator("#table .board-side").screenshot(
            path=str(SCREENSHOTS / f"board-teams-{size}.png")
        )
        page.context.close()
