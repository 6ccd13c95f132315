"""The judge console in Chromium where an evening broke: a field typed over while a live
update arrives, the server's reason for a refused command, and the appeal form.

Each test drives the page as a judge would and changes the event from another client
in between, as a co-judge or a team does during an evening.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.server.live_server import LiveServer
from tests.server.quiz.helpers import QuizApi, started
from tests.server.quiz.test_browser_control import judge_page
from tests.server.quiz.test_browser_redraw import frames

playwright_sync = pytest.importorskip("playwright.sync_api")
expect = playwright_sync.expect


@pytest.fixture
def quiz(server: LiveServer) -> Iterator[QuizApi]:
    with httpx.Client(base_url=server.url) as client:
        yield QuizApi(client)


def frame_arrives(page: Any, change: Any) -> None:
    """Make ``change`` through the API and wait until ``page`` has drawn its frame."""
    before = frames(page)
    change()
    page.wait_for_function("(n) => (window.__quizFrames || 0) > n", arg=before)
    page.wait_for_timeout(100)  # the frame's own handlers have run


def test_the_answering_time_typed_over_while_an_update_arrives_is_what_was_typed(
    server: LiveServer, browser: Any, quiz: QuizApi
) -> None:
    started(quiz, answer_seconds=45)
    quiz.cmd("open_question")
    quiz.cmd("lock")
    judge = judge_page(browser, server, quiz)
    field = judge.locator("#answer-seconds")
    expect(field).to_have_value("45")
    field.click()
    field.press("Control+a")  # the judge selects 45 to type over it ...
    frame_arrives(judge, lambda: quiz.cmd("partner", partner=True))  # ... a co-judge flags
    judge.keyboard.type("90")
    expect(field).to_have_value("90")
    judge.locator("#btn-open-answering").click()
    expect(judge.locator("#judge")).to_have_attribute("data-stage", "answering")
    assert quiz.judge_view()["phase"]["timer"]["remaining"] == pytest.approx(90, abs=5)


def test_a_refused_answering_time_shows_its_reason_and_starts_nothing(
    server: LiveServer, browser: Any, quiz: QuizApi
) -> None:
    started(quiz)
    quiz.cmd("open_question")
    quiz.cmd("lock")
    judge = judge_page(browser, server, quiz)
    judge.fill("#answer-seconds", "9045")
    judge.locator("#btn-open-answering").click()
    expect(judge.locator("#error")).to_contain_text("from 5 to 3600")
    expect(judge.locator("#error")).to_contain_text("9045")
    assert quiz.judge_view()["phase"]["stage"] == "read"


def test_a_refused_command_shows_the_servers_reason_not_a_general_sentence(
    server: LiveServer, browser: Any, quiz: QuizApi
) -> None:
    quiz.create(steps=6, hold_moves=2, questions=10, spurs_per_slope=0)
    judge = judge_page(browser, server, quiz)
    judge.locator("#btn-add-team").click()  # no name typed in
    expect(judge.locator("#error")).to_contain_text("team")
    expect(judge.locator("#error")).not_to_contain_text("expected shape")
