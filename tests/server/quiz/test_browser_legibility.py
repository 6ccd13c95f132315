"""Projector legibility, measured: on every projector screen (the lobby, the standings,
a question, its answer, the challenge banner, the timer, a lightning question, the
podium, the final table), in English and Russian, at 1920x1080 and 1024x768, no text
the hall reads is under 28 px on 1080 lines (scaled by the screen's height). The sizes
are the browser's computed font sizes of every visible element holding text.

The mountain's slope labels (each team's initials, repeated in the table's badges) are
SVG text drawn to the mountain's scale: their size on the screen is their font size in
the drawing's units times the drawing's scale (its pixels per unit), measured too, and
held to the same floor. The King's initials at the peak are drawn smaller (the King's
box says the name in large type) and the operator's buttons show only while the mouse
moves: neither is measured. At 1024x768 a long team name is never cut without a trace:
it is whole, or ends in an ellipsis with the whole name as its title.

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


#: the slope labels the hall sees, each with its size on the screen (font size in the
#: drawing's units times its pixels per unit)
SLOPE_LABELS = """() => {
  const svg = document.getElementById("mountain");
  if (!svg || !svg.getClientRects().length) return [];
  const scale = svg.getScreenCTM().a;
  return [...svg.querySelectorAll(".team-label")].filter((n) => {
    const b = n.getBoundingClientRect();
    const hit = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
    return b.width > 0 && hit && svg.contains(hit);
  }).map((n) => [n.textContent, parseFloat(getComputedStyle(n).fontSize) * scale]);
}"""


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
    measured: list[float] = []

    def check(screen: str, ready: Callable[[], None]) -> None:
        for size in SIZES:
            page.set_viewport_size(size)
            ready()
            page.wait_for_timeout(150)  # the resize's redraw and its next frame
            floor = 28 * size["height"] / 1080
            small = page.evaluate(SMALL_TEXT, floor)
            assert not small, f"{screen} at {size['width']}x{size['height']} ({lang}): {small}"
            labels = page.evaluate(SLOPE_LABELS)
            measured.extend(px for _label, px in labels)
            small = [(label, px) for label, px in labels if px < floor - 0.01]
            assert not small, f"slope labels of {screen} at {size['width']}: {small}"
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
    assert measured, "the slope labels were measured on some screen"


#: every team name the projector shows that is cut: not whole, and not ending in an
#: ellipsis with the whole name as its title (or leaving the screen)
CUT_NAMES = """(names) => {
  const out = [];
  const where = "#proj-joined .chip, #proj-table td.name, #proj-king";
  const nodes = [...document.querySelectorAll(where)];
  for (const el of nodes) {
    if (!el.getClientRects().length) continue;
    const text = el.textContent;
    const name = names.find((n) => text.includes(n.slice(0, 6)));
    if (!name) continue;
    const box = el.getBoundingClientRect();
    const whole = el.scrollWidth <= el.clientWidth + 1 && text.includes(name);
    const ellipsis = getComputedStyle(el).textOverflow === "ellipsis";
    const marked = ellipsis && (el.title || "").includes(name);
    if (box.right > innerWidth + 1 || !(whole || marked)) out.push([el.id || el.className, text]);
  }
  return out;
}"""
LONG_NAMES = [
    "The Owls of the Night Shift at the Mill",
    "Совы ночной смены со старой мельницы",
    "Bears",
    "Кошки",
]


def test_long_team_names_are_never_cut_without_a_trace_at_1024x768(
    server: LiveServer, browser: Any, quiz: QuizApi
) -> None:
    quiz.create(title="Long names", steps=3, hold_moves=2, questions=4, spurs_per_slope=0)
    for team in LONG_NAMES:
        quiz.join(team)
    page = browser.new_page(viewport=SIZES[1])
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(f"{server.url}/quiz/{quiz.event_id}/projector")
    expect(page.locator("#proj-joined .chip")).to_have_count(4)
    assert page.evaluate(CUT_NAMES, LONG_NAMES) == []
    quiz.cmd("start")
    expect(page.locator("#proj-table tbody tr")).to_have_count(4)
    assert page.evaluate(CUT_NAMES, LONG_NAMES) == []
    for number in (1, 2, 3):
        quiz.play(number, {LONG_NAMES[0]: "yes", "Bears": "no"}, {"yes"})
    expect(page.locator("#proj-king")).to_be_visible()  # the longest name is the King's
    assert page.evaluate(CUT_NAMES, LONG_NAMES) == []
