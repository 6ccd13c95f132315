"""A table keeps its place once drawn: nothing drawn a moment after the board (the clock
and resign panel above it) pushes the board down under a person's finger. Chromium's
layout-shift entries are recorded from the page's start; none may move the board."""

from __future__ import annotations

from typing import Any

from tests.server.games.browser.board_positions import having, store_position
from tests.server.games.browser.clock_steps import create_with_clock
from tests.server.games.browser.conftest import PHONE
from tests.server.live_server import LiveServer

# every layout shift, with whether one of its moved nodes is the board or inside it
RECORD_SHIFTS = """
window.__shifts = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const board = document.getElementById("board");
    const moved = entry.sources.map((s) => s.node).filter(Boolean);
    window.__shifts.push({
      value: entry.value,
      board: moved.some((node) => board && (node === board || board.contains(node))),
      nodes: moved.map((node) => node.id || String(node.className) || node.nodeName),
    });
  }
}).observe({ type: "layout-shift", buffered: true });
"""

# two animation frames: every frame drawn so far has reported its shifts
FRAMES = "new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"


def board_shifts(page: Any) -> list[dict[str, Any]]:
    """The layout shifts that moved the board, once the table is live and its panel is
    drawn."""
    page.wait_for_selector("#conn[data-state='live']")
    page.wait_for_selector("#clocks button.resign")
    page.evaluate(FRAMES)
    return [shift for shift in page.evaluate("window.__shifts") if shift["board"]]


def test_the_board_game_table_does_not_move_when_its_panel_appears(
    server: LiveServer, browser: Any
) -> None:
    context = browser.new_context(viewport=PHONE)
    try:
        position = store_position(server, having("end drop"))
        page = context.new_page()
        page.add_init_script(RECORD_SHIFTS)
        page.goto(position.links[position.mover])
        page.wait_for_selector("#table .board-control[data-select='end']")
        assert board_shifts(page) == []
    finally:
        context.close()


def test_the_card_table_with_a_clock_does_not_move_when_its_clocks_appear(
    server: LiveServer, browser: Any
) -> None:
    context = browser.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        page.add_init_script(RECORD_SHIFTS)
        create_with_clock(page, server.url, "cards", ["human", "computer"], "Anna", 600)
        page.wait_for_selector("#clocks .clock-seat[data-seat='0']")
        assert board_shifts(page) == []
    finally:
        context.close()
