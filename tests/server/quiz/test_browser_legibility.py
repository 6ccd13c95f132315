"""Projector legibility, measured: on every projector screen (the lobby, the standings,
a question, its answer, the challenge banner, the timer, a lightning question, the
podium, the final table), in English and Russian, at 1920x1080 and 1024x768, no text
the hall reads is under 28 px on 1080 lines (scaled by the screen's height). The sizes
are the browser's computed font sizes of every visible element holding text.

The mountain's SVG labels are drawn to the mountain's scale (short labels, repeated in
the table's badges) and the operator's buttons show only while the mouse moves: neither
is text the hall must read, and neither is measured.

Screenshots go to docs/screenshots/ when KOTH_SCREENSHOTS=1 (else to a temp folder).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.live_server import LiveServer
from tests.server.quiz.helpers import QuizApi, shots_dir

playwright_sync = pytest.importorskip("playwright.sync_api")
expect = playwright_sync.expect

TIMEOUT_MS = 15_000
SIZES = ({"width": 1920, "height": 1080}, {"width": 1024, "height": 768})
TEAMS = ("Совы ночные", "Owls", "Медведи", "Cats")
PACK = (
    "number,text,answer,accepted,comment,lightning\n"
    "1,Which city stands on the Seine?,Paris,Lutetia,The capital of France,\n"
    "2,Which river flows through Rome?,Tiber,Tevere,,\n"
    "3,Which sea is the saltiest?,Dead Sea,,,\n"
    "4,Which planet is red?,Mars,,,\n"
    "1,How many legs has a spider?,Eight,8,,yes\n"
)

#: every visible element holding text, smaller than the floor: (what, text, px)
SMALL_TEXT = """(floor) => {
  const out = [];
  for (const el of document.querySelectorAll("body *")) {
    if (el.closest("svg, .proj-tools, script, style, title")) continue;
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own || !el.getClientRects().length) continue;
    const style = getComputedStyle(el);
    if (style.visibility !== "visible") continue;
    let faded = false;
    for (let p = el; p; p = p.parentElement) if (getComputedStyle(p).opacity === "0") faded = true;
    if (faded) continue;
    const box = el.getBoundingClientRect();
    const off = box.bottom <= 0 || box.top >= innerHeight;
    if (off || box.right <= 0 || box.left >= innerWidth) continue;
    // covered by another layer (the site's header under the full-screen projector)
    const hit = document.elementFromPoint(
      Math.min(innerWidth - 1, Math.max(0, box.left + box.width / 2)),
      Math.min(innerHeight - 1, Math.max(0, box.top + box.height / 2)));
    if (hit && !el.contains(hit) && !hit.contains(el)) continue;
    const size = parseFloat(style.fontSize);
    const what = el.id || el.className || el.tagName;
    if (size < floor - 0.01) out.push([what, el.textContent.trim().slice(0, 40), size]);
  }
  return out;
}"""


@pytest.fixture
def quiz(server: LiveServer) -> Iterator[QuizApi]:
    with httpx.Client(base_url=server.url) as client:
        yield QuizApi(client)


def play(api: QuizApi, number: int, right: set[str]) -> None:
    api.cmd("open_question")
    api.cmd("lock")
    api.cmd("open_answering", seconds=600)
    for team in TEAMS:
        api.answer(team, number, "yes" if team in right else "no")
    api.cmd("close_answering")
    api.judge_texts(number, {"yes"})
    api.cmd("resolve")


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_no_projector_text_is_under_28_px_on_1080_lines(
    server: LiveServer, browser: Any, quiz: QuizApi, tmp_path: Path, lang: str
) -> None:
    shots = shots_dir(tmp_path)
    quiz.create(
        title="Friday quiz",
        steps=3,
        hold_moves=2,
        questions=4,
        prize_places=3,
        spurs_per_slope=0,
    )
    quiz.cmd("pack", form="csv", text=PACK)
    for team in TEAMS:
        quiz.join(team)
    ctx = browser.new_context(viewport=SIZES[0])
    ctx.add_cookies([{"name": "koth_lang", "value": lang, "url": server.url}])
    page = ctx.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(f"{server.url}/quiz/{quiz.event_id}/projector")
    seen: list[str] = []

    def check(screen: str, ready: Callable[[], None]) -> None:
        for size in SIZES:
            page.set_viewport_size(size)
            ready()
            page.wait_for_timeout(150)  # the resize's redraw and its next frame
            floor = 28 * size["height"] / 1080
            small = page.evaluate(SMALL_TEXT, floor)
            assert not small, f"{screen} at {size['width']}x{size['height']} ({lang}): {small}"
            name = f"projector_legible_{screen}_{size['width']}_{lang}.png"
            page.screenshot(path=str(shots / name))
        seen.append(screen)

    check("lobby", lambda: expect(page.locator("#proj-joined .chip")).to_have_count(4))
    quiz.cmd("start")
    check("standings", lambda: expect(page.locator("#proj-table tbody tr")).to_have_count(4))
    play(quiz, 1, {"Совы ночные", "Owls"})
    play(quiz, 2, {"Совы ночные", "Owls"})
    play(quiz, 3, {"Совы ночные"})  # the King; Owls one step below
    quiz.cmd("open_question")
    quiz.declare("Owls", 4, "revolution")
    quiz.cmd("lock")
    quiz.cmd("screen", show="question")
    check("question", lambda: expect(page.locator("#proj-challenge")).to_be_visible())
    quiz.cmd("open_answering", seconds=600)
    check("answering", lambda: expect(page.locator(".proj-timer")).not_to_be_empty())
    quiz.cmd("close_answering")
    quiz.cmd("screen", show="answer")
    check("answer", lambda: expect(page.locator("#proj-q-answer")).to_be_visible())
    quiz.judge_texts(4, set())
    quiz.cmd("resolve")  # Медведи and Cats tie for third: a lightning question
    check("lightning", lambda: expect(page.locator("#proj-q-text")).to_contain_text("spider"))
    quiz.cmd("lightning", teams=["Медведи", "Cats"], right=["Cats"])
    check("podium", lambda: expect(page.locator("#proj-podium")).to_be_visible())
    page.locator("#proj-podium").click()
    check("final_table", lambda: expect(page.locator("#proj-podium")).to_be_hidden())
    assert len(seen) == 8
