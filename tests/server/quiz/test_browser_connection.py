"""Honest connection state in Chromium: a server that stops answering (frozen with
SIGSTOP, so every socket still looks open) is shown as offline within 5 s on the judge
console, a team phone, the projector and the results; commands the judge gives while
the server is down wait in order and are applied once, each, when it is back on the
same database; a command whose reply was lost is resent with its key and applied once.
"""

from __future__ import annotations

import os
import re
import signal
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.server.live_server import LiveServer
from tests.server.quiz.helpers import QuizApi

playwright_sync = pytest.importorskip("playwright.sync_api")
expect = playwright_sync.expect
expect.set_options(timeout=15_000)

TIMEOUT_MS = 15_000
#: a page must say it is offline this soon after the server stops answering
OFFLINE_WITHIN_MS = 5_000


@pytest.fixture
def server(own_server: LiveServer) -> LiveServer:
    """These tests freeze and restart the server: one of their own."""
    return own_server


@pytest.fixture
def quiz(server: LiveServer) -> Iterator[QuizApi]:
    with httpx.Client(base_url=server.url) as client:
        api = QuizApi(client)
        api.create(steps=6, hold_moves=2, questions=10, spurs_per_slope=0)
        yield api


def open_judge(browser: Any, server: LiveServer, api: QuizApi) -> Any:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
    page = ctx.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(f"{server.url}/quiz/{api.event_id}/judge#token={api.host_token}")
    expect(page.locator("#conn")).to_have_attribute("data-state", "live")
    return page


def open_phone(browser: Any, server: LiveServer, api: QuizApi, team: str) -> Any:
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = ctx.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(f"{server.url}/quiz/join?code={api.join_code}")
    page.locator("[name=team]").fill(team)
    page.locator("#join-form button[type=submit]").click()
    page.wait_for_url(lambda url: url.endswith("/team"))
    expect(page.locator("#conn")).to_have_attribute("data-state", "live")
    return page


def game_page(browser: Any, server: LiveServer) -> Any:
    """A game table (client.js), watched as a spectator."""
    with httpx.Client(base_url=server.url) as client:
        name = client.get("/api/catalog").json()[0]["name"]
        created = client.post("/api/games", json={"game": name, "params": {}})
        assert created.status_code == 201, created.text
    page = browser.new_context().new_page()
    page.goto(f"{server.url}/games/{created.json()['id']}")
    return page


def test_a_frozen_server_shows_offline_within_5_s_on_every_page(
    server: LiveServer, browser: Any, quiz: QuizApi
) -> None:
    judge = open_judge(browser, server, quiz)
    phone = open_phone(browser, server, quiz, "Owls")
    projector = judge.context.browser.new_context().new_page()
    projector.goto(f"{server.url}/quiz/{quiz.event_id}/projector")
    results = judge.context.new_page()  # the host sees the results before the end
    results.goto(f"{server.url}/quiz/{quiz.event_id}/results")
    game = game_page(judge.context.browser, server)
    pages = [judge, phone, projector, results, game]
    for page in pages:
        expect(page.locator("#conn")).to_have_attribute("data-state", "live", timeout=TIMEOUT_MS)
        expect(page.locator("#offline-banner")).to_be_hidden()
    assert server.process is not None
    os.kill(server.process.pid, signal.SIGSTOP)
    try:
        for page in pages:
            expect(page.locator("#conn")).to_have_attribute(
                "data-state", "offline", timeout=OFFLINE_WITHIN_MS
            )
            expect(page.locator("#offline-banner")).to_be_visible()
            expect(page.locator("#offline-banner")).to_contain_text("No connection")
    finally:
        os.kill(server.process.pid, signal.SIGCONT)
    for page in pages:
        expect(page.locator("#conn")).to_have_attribute("data-state", "live", timeout=TIMEOUT_MS)
        expect(page.locator("#offline-banner")).to_be_hidden()


def test_judge_commands_given_offline_are_applied_once_in_order_after_a_restart(
    server: LiveServer, browser: Any, quiz: QuizApi
) -> None:
    quiz.join("Owls")
    judge = open_judge(browser, server, quiz)
    server.stop()
    expect(judge.locator("#conn")).to_have_attribute(
        "data-state", "offline", timeout=OFFLINE_WITHIN_MS
    )
    for team in ("Otters", "Pumas"):
        judge.fill("#new-team", team)
        judge.locator("#btn-add-team").click()
    judge.locator("#btn-start").click()
    expect(judge.locator("#offline-banner")).to_contain_text("3 commands wait")
    expect(judge.locator("#error")).to_be_hidden()  # waiting is not an error ("error 0")
    server.start()  # the same database
    # the console retries with backoff (at most 10 s apart)
    expect(judge.locator("#judge")).to_have_attribute("data-stage", "between", timeout=25_000)
    expect(judge.locator("#offline-banner")).to_be_hidden()
    expect(judge.locator("#error")).to_be_hidden()
    view = quiz.judge_view()
    assert [t["name"] for t in view["teams"]] == ["Owls", "Otters", "Pumas"]
    assert view["seq"] == 5  # created, joined, two teams added, started: nothing twice


def test_a_command_whose_reply_was_lost_is_resent_and_applied_once(
    server: LiveServer, browser: Any, quiz: QuizApi
) -> None:
    judge = open_judge(browser, server, quiz)
    keys: list[str] = []

    def lose_the_reply(route: Any) -> None:
        keys.append(route.request.headers["idempotency-key"])
        if len(keys) == 1:
            route.fetch()  # the server applies it ...
            route.abort("connectionreset")  # ... and the reply never arrives
        else:
            route.continue_()

    judge.route("**/judge/add_team", lose_the_reply)
    judge.fill("#new-team", "Otters")
    judge.locator("#btn-add-team").click()
    expect(judge.locator("#side")).to_contain_text("Otters")
    expect(judge.locator("body")).not_to_have_class(re.compile("busy"))  # the queue is empty
    expect(judge.locator("#error")).to_be_hidden()
    expect(judge.locator("#conn")).to_have_attribute("data-state", "live")
    assert len(keys) >= 2 and len(set(keys)) == 1  # resent with the same key
    view = quiz.judge_view()
    assert [t["name"] for t in view["teams"]] == ["Otters"]
    assert view["seq"] == 2
