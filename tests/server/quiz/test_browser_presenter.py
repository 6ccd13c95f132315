"""The judge console mirrored to the room (presenter mode) and judged from the keyboard,
in Chromium on a 1366x768 laptop: the console's page holds no answer (the pack's, its
variants, the teams') before the judge reveals it; the evening's next steps, "Show the
question" included, are above the fold and on keys, listed in large type on "?".

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
LAPTOP = {"width": 1366, "height": 768}
PACK = "number,text,answer,accepted\n1,Which city is on the Seine?,Lutetia,Parisium\n"


@pytest.fixture
def quiz(server: LiveServer) -> Iterator[QuizApi]:
    with httpx.Client(base_url=server.url) as client:
        yield QuizApi(client)


def key(page: Any, name: str, stage: str | None = None) -> None:
    """Press ``name`` on the console (no field focused) and wait for the stage."""
    page.locator("body").press(name)
    if stage is not None:
        expect(page.locator("#judge")).to_have_attribute("data-stage", stage)


def secrets_in(page: Any) -> list[str]:
    html = page.content()
    return [s for s in ("Lutetia", "Parisium", "Paris!", "Rome?") if s in html]


def test_presenter_mode_hides_answers_and_the_keyboard_runs_a_question(
    server: LiveServer, browser: Any, quiz: QuizApi, tmp_path: Path
) -> None:
    shots = shots_dir(tmp_path)
    started(quiz, teams=("Owls", "Bears"))
    quiz.cmd("pack", form="csv", text=PACK)
    page = browser.new_context(viewport=LAPTOP).new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(f"{server.url}/quiz/{quiz.event_id}/judge#token={quiz.host_token}")
    expect(page.locator("#conn")).to_have_attribute("data-state", "live")
    page.locator("#btn-presenter").click()
    expect(page.locator("#btn-presenter")).to_have_attribute("aria-pressed", "true")
    page.reload()  # remembered
    expect(page.locator("#btn-presenter")).to_have_attribute("aria-pressed", "true")

    key(page, "o", "declaring")
    key(page, "l", "read")
    show = page.locator("#btn-show-question")
    expect(show).to_be_visible()
    bottom = show.evaluate("b => b.getBoundingClientRect().bottom")
    assert bottom <= LAPTOP["height"], f"Show the question at {bottom} px: below the fold"
    key(page, "q")
    expect(show).to_have_class("chosen")
    assert quiz.projector()["screen"]["show"] == "question"
    key(page, "o", "answering")
    quiz.answer("Owls", 1, "Paris!")
    quiz.answer("Bears", 1, "Rome?")
    expect(page.locator("#answers-veiled")).to_contain_text("2 answer groups")
    assert secrets_in(page) == []  # the room sees no answer while teams answer
    page.screenshot(path=str(shots / "quiz_judge_presenter.png"))
    key(page, "c", "judging")
    expect(page.locator(".group")).to_have_count(2)
    assert "Lutetia" not in page.content() and "Parisium" not in page.content()
    key(page, "v")  # the judge reveals the expected answer
    expect(page.locator("#expected .expected-answer")).to_have_text("Lutetia")
    key(page, "r")  # the first group right, the next one wrong
    key(page, "w")
    expect(page.locator("#btn-resolve")).to_be_enabled()
    key(page, "s", "between")
    rows = {r["team"]: r["correct"] for r in quiz.judge_view()["closed"][0]["rows"]}
    assert sorted(rows.values()) == [False, True]
    page.keyboard.press("?")
    expect(page.locator("#shortcuts.shown")).to_be_visible()
    expect(page.locator("#shortcuts")).to_contain_text("Q show the question")
    page.screenshot(path=str(shots / "quiz_judge_shortcuts.png"))
    page.keyboard.press("Escape")
    expect(page.locator("#shortcuts.shown")).to_have_count(0)
