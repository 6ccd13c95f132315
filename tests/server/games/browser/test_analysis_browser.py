"""The replay page of a finished game shows its analysis: "analysing…" first, then the
win-chance chart that steps through the game with the replay."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.games.browser.conftest import PHONE, SCREENSHOTS
from tests.server.live_server import LiveServer

WIDE = {"width": 1280, "height": 800}


@pytest.fixture(scope="module")
def analysing_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    database = tmp_path_factory.mktemp("analysis") / "koth.sqlite3"
    env = {"KOTH_ANALYSIS_AGENT": "ismcts:iters=40"}
    live = LiveServer(f"sqlite:///{database}", env=env).start()
    try:
        yield live
    finally:
        live.stop()


def _finished_game(server: LiveServer, game: str, params: dict[str, Any]) -> str:
    seats = [{"kind": "computer", "agent": "heuristic"}] * 2
    body = {"game": game, "params": params, "seats": seats}
    created = httpx.post(f"{server.url}/api/games", json=body, timeout=10)
    assert created.status_code == 201, created.text
    game_id: str = created.json()["id"]
    deadline = time.monotonic() + 60
    while httpx.get(f"{server.url}/api/games/{game_id}", timeout=10).json()["outcome"] is None:
        assert time.monotonic() < deadline, "the computer seats never finished"
        time.sleep(0.1)
    return game_id


@pytest.mark.parametrize(("game", "params"), [("cards", {}), ("board", {"target_points": 4})])
def test_the_replay_shows_the_analysis_chart(
    analysing_server: LiveServer, browser: Any, game: str, params: dict[str, Any]
) -> None:
    game_id = _finished_game(analysing_server, game, params)
    context = browser.new_context(viewport=WIDE)
    page = context.new_page()
    page.goto(f"{analysing_server.url}/games/{game_id}/replay")
    page.wait_for_selector("#analysis:not(.hidden)")
    first_state = page.locator("#analysis").get_attribute("data-state")
    assert first_state in ("analysing", "ready")
    if first_state == "analysing":
        assert "analysing" in page.locator("#analysis-status").inner_text()
    page.wait_for_selector("#analysis[data-state='ready'] svg.analysis-chart", timeout=120_000)
    assert page.locator("svg.analysis-chart path.series").count() == 2
    assert page.locator(".analysis-legend li").count() == 3
    analysis = httpx.get(f"{analysing_server.url}/api/games/{game_id}/analysis").json()
    decisions = [d for seat in analysis["seats"] for d in seat["decisions"]]
    marked = [d for d in decisions if d["mark"] in ("??", "?")]
    assert page.locator("svg.analysis-chart circle.mark").count() == len(marked)

    # clicking the chart at a decision shows the position after it, with its move
    last = decisions[-1]
    page.locator("#first").click()
    page.locator("#analysis-move").wait_for()
    frame = last["move"] + 1
    # the replay stops at decisions: a decision followed by chance (the dice) shows on
    # the next stop, with the chance steps folded in
    while int(page.locator("#replay").get_attribute("data-step") or 0) < frame:
        page.locator("#forward").click()
    note = page.locator("#analysis-move").inner_text()
    assert f"Seat {last['seat'] + 1} played {last['played']}" in note
    if last["preferred"] != last["played"]:
        assert f"Preferred: {last['preferred']}" in note
    page.screenshot(path=str(Path(SCREENSHOTS) / f"replay-analysis-{game}.png"), full_page=True)
    phone = browser.new_context(viewport=PHONE).new_page()
    phone.goto(f"{analysing_server.url}/games/{game_id}/replay")
    phone.wait_for_selector("#analysis[data-state='ready'] svg.analysis-chart")
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], "the analysis does not fit a phone"
    phone.screenshot(
        path=str(Path(SCREENSHOTS) / f"replay-analysis-{game}-phone.png"), full_page=True
    )
    context.close()
