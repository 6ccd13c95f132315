"""A live state that arrives while a button is held down does not swallow the click.

Every state frame redraws the judge console and the team phone; a redraw that replaced the
pressed button between the press and the release made the browser send no click at all
(the press and the release landed on different elements), so a judge's mark or a team's
declaration was silently lost whenever another change arrived mid-tap. Here the tap is
held open with Playwright's mouse, another client changes the event, the page receives
that frame, and only then is the button released.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.server.live_server import LiveServer
from tests.server.pointer import press
from tests.server.quiz.helpers import QuizApi, answered, started
from tests.server.quiz.test_browser_control import judge_page, phone

playwright_sync = pytest.importorskip("playwright.sync_api")
expect = playwright_sync.expect


@pytest.fixture
def quiz(server: LiveServer) -> Iterator[QuizApi]:
    with httpx.Client(base_url=server.url) as client:
        yield QuizApi(client)


def frames(page: Any) -> int:
    return int(page.evaluate("window.__quizFrames || 0"))


def while_pressed(page: Any, change: Any) -> None:
    """Make ``change`` through the API and wait until ``page`` has received its frame."""
    before = frames(page)
    change()
    page.wait_for_function("(n) => (window.__quizFrames || 0) > n", arg=before)
    page.wait_for_timeout(100)  # the frame's own handlers have run


def test_a_mark_held_down_while_a_co_judge_marks_another_group_is_sent(
    server: LiveServer, browser: Any, quiz: QuizApi
) -> None:
    answered(started(quiz), 1, {"A": "Paris", "B": "Rome", "C": "Oslo"})
    quiz.cmd("close_answering")
    judge = judge_page(browser, server, quiz)
    expect(judge.locator(".group")).to_have_count(3)

    seq = judge.locator("#judge").get_attribute("data-seq")
    press(judge, '.group[data-key="paris"] .mark-right')
    while_pressed(judge, lambda: quiz.cmd("judge", key="rome", correct=False))
    assert judge.locator("#judge").get_attribute("data-seq") == seq  # held while pressed
    judge.mouse.up()

    expect(judge.locator('.group[data-key="paris"] .mark-right.chosen')).to_have_count(1)
    expect(judge.locator('.group[data-key="rome"] .mark-wrong.chosen')).to_have_count(1)
    groups = {g["key"]: g for g in quiz.judge_view()["open"]["groups"]}
    assert groups["paris"]["right"] and not groups["paris"]["unjudged"]


def test_a_declaration_held_down_while_the_host_flags_a_partner_question_is_sent(
    server: LiveServer, browser: Any, quiz: QuizApi
) -> None:
    started(quiz, teams=("A", "B", "C", "D"))
    # a jump needs a step to stand on and a right answer to the question before
    for question, other in enumerate(("B", "C"), start=1):
        quiz.play(question, {"A": "Paris", other: "Paris"}, {"Paris"})
    quiz.cmd("open_question")
    page = phone(browser, server, quiz, "A", "en")
    button = 'button[data-declaration="jump"]'
    expect(page.locator(button)).to_be_visible()

    press(page, button)
    while_pressed(page, lambda: quiz.cmd("partner", partner=True))
    page.mouse.up()

    expect(page.locator(button)).to_have_class("declare jump chosen")
    assert quiz.judge_view()["open"]["declarations"]["A"] == "jump"


#: a pointer pressed whose release the page never sees (let go outside the window)
LOST_PRESS = "() => document.dispatchEvent(new PointerEvent('pointerdown', {pointerId: 7}))"


def test_a_press_never_released_holds_the_console_three_seconds_once(
    server: LiveServer, browser: Any, quiz: QuizApi
) -> None:
    started(quiz)
    judge = judge_page(browser, server, quiz)
    seq = judge.locator("#judge").get_attribute("data-seq")
    judge.evaluate(LOST_PRESS)
    while_pressed(judge, lambda: quiz.cmd("open_question"))
    assert judge.locator("#judge").get_attribute("data-seq") == seq  # held
    expect(judge.locator("#judge")).to_have_attribute("data-stage", "declaring", timeout=5_000)
    # the lost press was forgotten with that draw: the next change is not held 3 s again
    seq = judge.locator("#judge").get_attribute("data-seq")
    quiz.cmd("lock")
    expect(judge.locator("#judge")).not_to_have_attribute("data-seq", seq or "", timeout=2_500)
