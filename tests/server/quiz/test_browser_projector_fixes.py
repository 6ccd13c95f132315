"""The projector in Chromium where an evening's screen failed the hall, at 1920x1080 and
1024x768: a word longer than the screen is wide, the challenge banner over the question's
heading, a bar whose title and buttons shrank to a letter or left the screen, and the
King's box under the table at the first coronation.

Screenshots go to docs/screenshots/ when KOTH_SCREENSHOTS=1 (else to a temp folder).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.live_server import LiveServer
from tests.server.quiz.helpers import QuizApi, shots_dir, started

playwright_sync = pytest.importorskip("playwright.sync_api")
expect = playwright_sync.expect

TIMEOUT_MS = 15_000
SIZES = ({"width": 1920, "height": 1080}, {"width": 1024, "height": 768})
LONG_WORD = "Donaudampfschifffahrtsgesellschaftskapitänswitwenrentenversicherungsanstalt"
PACK = (
    "number,text,answer\n"
    "1,Which city?,Paris\n"
    "2,Which river?,Seine\n"
    "3,Which sea?,Baltic\n"
    f"4,Which company is the {LONG_WORD} of https://example.org/a/very/long/address?,Ship\n"
)

#: the right edge of every line of an element's text (a Range's boxes, one per line)
TEXT_RIGHT = """(id) => {
  const range = document.createRange();
  range.selectNodeContents(document.getElementById(id));
  return Math.max(...[...range.getClientRects()].map((r) => r.right));
}"""


@pytest.fixture
def quiz(server: LiveServer) -> Iterator[QuizApi]:
    with httpx.Client(base_url=server.url) as client:
        yield QuizApi(client)


def box(page: Any, selector: str) -> dict[str, float]:
    found = page.locator(selector).bounding_box()
    assert found, selector
    return dict(found)


def bar_fits(page: Any) -> None:
    """Nothing of the bar leaves the screen, and no text of it is cut."""
    width = page.evaluate("window.innerWidth")
    cut = page.evaluate(
        """() => [...document.querySelectorAll('.proj-bar > span')]
             .filter((s) => s.offsetParent && s.textContent.trim())
             .map((s) => ({id: s.id || s.className, right: s.getBoundingClientRect().right,
                           cut: s.scrollWidth > s.clientWidth + 1}))"""
    )
    for span in cut:
        assert span["right"] <= width + 1, f"{span['id']} leaves a {width} px screen"
        assert not span["cut"], f"{span['id']} is cut ({span})"
    assert box(page, "#proj-fullscreen")["x"] + box(page, "#proj-fullscreen")["width"] <= width


def test_the_projector_keeps_every_word_and_heading_on_the_screen(
    server: LiveServer, browser: Any, quiz: QuizApi, tmp_path: Path
) -> None:
    shots = shots_dir(tmp_path)
    started(
        quiz,
        teams=("Owls", "Bears", "Cats"),
        steps=3,
        hold_moves=3,
        title="Friday Night Quiz at the Old Mill",
    )
    quiz.cmd("pack", form="csv", text=PACK)
    page = browser.new_page(viewport=SIZES[0])
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(f"{server.url}/quiz/{quiz.event_id}/projector")
    expect(page.locator("#proj-table tbody tr")).to_have_count(3)
    quiz.play(1, {"Owls": "Paris", "Bears": "Paris"}, {"Paris"})
    quiz.play(2, {"Owls": "Seine", "Bears": "Seine"}, {"Seine"})
    seq = quiz.projector()["seq"]
    quiz.play(3, {"Owls": "Baltic"}, {"Baltic"})  # Owls on the Peak: the first coronation
    expect(page.locator("#proj-king")).to_be_visible()
    expect(page.locator("#projector")).not_to_have_attribute("data-seq", str(seq))
    for size in SIZES:
        page.set_viewport_size(size)
        page.wait_for_timeout(200)  # the resize's redraw and its next frame
        hold, head = box(page, "#proj-king-hold"), box(page, "#proj-table thead")
        assert hold["y"] + hold["height"] <= head["y"] + 1, f"the King's box under the table {size}"

    quiz.cmd("open_question")
    quiz.declare("Bears", 4, "revolution")
    quiz.cmd("lock")
    quiz.cmd("screen", show="question")
    expect(page.locator("#proj-challenge")).to_be_visible()
    expect(page.locator("#proj-question")).to_be_visible()
    quiz.cmd("open_answering", seconds=600)
    quiz.cmd("pause")
    expect(page.locator(".proj-timer")).to_contain_text("paused")
    for size in SIZES:
        page.set_viewport_size(size)
        page.wait_for_timeout(200)
        banner, heading = box(page, "#proj-challenge"), box(page, ".proj-q-head")
        assert banner["y"] + banner["height"] <= heading["y"] + 1, f"banner over heading {size}"
        right = page.evaluate(TEXT_RIGHT, "proj-q-text")
        assert right <= size["width"], f"the question's text runs to {right} px on {size}"
        page.screenshot(path=str(shots / f"projector_long_word_{size['width']}.png"))
        bar_fits(page)


#: whether the King's box is whole on the screen: inside the window, above the table's
#: head, and on top wherever it is drawn (no other element covers any corner of its text)
KING_WHOLE = """() => {
  const hold = document.getElementById("proj-king-hold");
  const r = hold.getBoundingClientRect();
  const head = document.querySelector("#proj-table thead").getBoundingClientRect();
  const inside = r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth;
  const range = document.createRange();
  range.selectNodeContents(hold);
  const text = range.getBoundingClientRect();
  const points = [[text.left + 2, text.top + 2], [text.right - 2, text.bottom - 2],
                  [(text.left + text.right) / 2, (text.top + text.bottom) / 2]];
  const covered = points.filter(([x, y]) => !hold.contains(document.elementFromPoint(x, y)));
  return {inside, above: r.bottom <= head.top + 1, covered: covered.length, text: hold.textContent,
          hold: [r.top, r.bottom], head: head.top};
}"""
#: resolves after the browser drew two more frames (the redraw's own frame included)
FRAMES = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s['width']}x{s['height']}")
def test_the_kings_hold_is_whole_after_a_live_first_coronation(
    server: LiveServer, browser: Any, quiz: QuizApi, size: dict[str, int]
) -> None:
    """The projector stays open (no reload) while the first King is crowned: the "holds
    the Peak 0/3" line is whole, above the table, at once and at both sizes."""
    started(quiz, teams=("Owls", "Bears", "Cats"), steps=3, hold_moves=3, title="Mill quiz")
    page = browser.new_page(viewport=size)
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(f"{server.url}/quiz/{quiz.event_id}/projector")
    expect(page.locator("#proj-table tbody tr")).to_have_count(3)
    expect(page.locator("#proj-king")).to_be_hidden()
    for number, answer in ((1, "Paris"), (2, "Seine")):
        quiz.play(number, {"Owls": answer, "Bears": answer}, {answer})
    quiz.play(3, {"Owls": "Baltic"}, {"Baltic"})  # Owls on the Peak: the first coronation
    seq = quiz.projector()["seq"]
    expect(page.locator("#projector")).to_have_attribute("data-seq", str(seq))
    expect(page.locator("#proj-king-hold")).to_have_text("holds the Peak 0/3")
    page.evaluate(FRAMES)
    found = page.evaluate(KING_WHOLE)
    assert found["inside"] and found["above"] and found["covered"] == 0, found
