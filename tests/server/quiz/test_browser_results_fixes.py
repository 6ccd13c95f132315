"""The results page and the Russian console in Chromium: the protocol's team column
shows whole names (on screen and printed), and a question's number in the appeals and
the start button speak Russian on Russian pages."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.server.live_server import LiveServer
from tests.server.quiz.helpers import QuizApi, started
from tests.server.quiz.test_show_browser import pdf_pages

playwright_sync = pytest.importorskip("playwright.sync_api")
expect = playwright_sync.expect

TIMEOUT_MS = 15_000
TEAMS = ("Lions of Lyon", "Lynxes", "Медведь")


@pytest.fixture
def quiz(server: LiveServer) -> Iterator[QuizApi]:
    with httpx.Client(base_url=server.url) as client:
        yield QuizApi(client)


def page_in(browser: Any, server: LiveServer, lang: str, host: QuizApi | None = None) -> Any:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    ctx.add_cookies([{"name": "koth_lang", "value": lang, "url": server.url}])
    if host is not None:
        key = f"koth.quiz.host.{host.event_id}"
        ctx.add_init_script(f"localStorage.setItem('{key}', JSON.stringify('{host.host_token}'))")
    page = ctx.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    return page


def test_the_protocol_shows_whole_team_names_on_screen_and_printed(
    server: LiveServer, browser: Any, quiz: QuizApi
) -> None:
    started(quiz, teams=TEAMS, steps=20, questions=14)
    for number in range(1, 13):
        quiz.play(number, {"Lions of Lyon": "Paris", "Lynxes": "Rome"}, {"Paris"})
    page = page_in(browser, server, "en", quiz)
    page.goto(f"{server.url}/quiz/{quiz.event_id}/results")
    expect(page.locator("#results")).to_have_attribute("data-loaded", "true")
    for media in ("screen", "print"):
        page.emulate_media(media=media)
        names = page.locator(".matrix td.name")
        expect(names).to_have_count(3)
        for cell in names.all():
            assert cell.evaluate("c => c.scrollWidth <= c.clientWidth + 1"), cell.inner_text()
            assert cell.evaluate("c => c.clientWidth > 60"), media
        heads = page.locator(".matrix th")
        team, first = heads.nth(0).bounding_box(), heads.nth(1).bounding_box()
        assert team and first and team["x"] + team["width"] <= first["x"] + 1, media


def test_russian_pages_number_questions_and_start_the_game_in_russian(
    server: LiveServer, browser: Any, quiz: QuizApi
) -> None:
    quiz.create(steps=6, hold_moves=2, questions=10, spurs_per_slope=0)
    for team in TEAMS:
        quiz.join(team)
    judge = page_in(browser, server, "ru", quiz)
    judge.goto(f"{server.url}/quiz/{quiz.event_id}/judge")
    expect(judge.locator("#btn-start")).to_have_text("Начать игру")
    quiz.cmd("start")
    quiz.play(1, {"Lions of Lyon": "Paris", "Медведь": "Rome"}, {"Paris"})
    quiz.play(2, {"Lions of Lyon": "Paris", "Медведь": "Rome"}, {"Paris"})
    quiz.cmd("appeal", question=2, team="Медведь", correct=True, comment="")
    expect(judge.locator(".appeal-item")).to_have_text("В2 Медведь → верно")
    results = page_in(browser, server, "ru", quiz)
    results.goto(f"{server.url}/quiz/{quiz.event_id}/results")
    expect(results.locator("#results")).to_contain_text("В2 Медведь → верно")


def test_dates_follow_the_browsers_variant_of_the_pages_language(
    server: LiveServer, browser: Any
) -> None:
    """An en-GB browser writes 27/11/2026 on an English page, not the US 11/27/2026."""
    for locale, lang, expected in (
        ("en-GB", "en", "27/11/2026"),
        ("en-US", "en", "11/27/2026"),
        ("de-DE", "ru", "27.11.2026"),
    ):
        ctx = browser.new_context(locale=locale)
        ctx.add_cookies([{"name": "koth_lang", "value": lang, "url": server.url}])
        page = ctx.new_page()
        page.goto(f"{server.url}/quiz/join")
        assert page.evaluate("Q.dateText(new Date(2026, 10, 27))") == expected, locale
        ctx.close()


def test_the_host_form_checkbox_sits_beside_its_words_and_the_judge_reads_whole_names(
    server: LiveServer, browser: Any, quiz: QuizApi
) -> None:
    page = page_in(browser, server, "en")
    page.goto(f"{server.url}/quiz")
    box = page.locator("input[name=phones_show_question]").bounding_box()
    label = page.locator("label:has(input[name=phones_show_question])").bounding_box()
    assert box and label and label["height"] < 2.5 * box["height"] + 8  # one line, not two
    started(quiz, teams=("Очень длинное название команды", "B"))
    judge = page_in(browser, server, "en", quiz)
    judge.goto(f"{server.url}/quiz/{quiz.event_id}/judge")
    names = judge.locator("#judge-standings td.name")
    expect(names).to_have_count(2)
    for cell in names.all():
        assert cell.evaluate("c => c.scrollWidth <= c.clientWidth + 1"), cell.inner_text()


def test_an_appeal_prints_with_the_places_not_on_a_page_of_its_own(
    server: LiveServer, browser: Any, quiz: QuizApi
) -> None:
    started(quiz, teams=TEAMS, questions=2)
    quiz.play(1, {"Lions of Lyon": "Paris", "Lynxes": "Rome"}, {"Paris"})
    quiz.cmd("appeal", question=1, team="Lynxes", correct=True, comment="Rome counts")
    quiz.play(2, {"Lions of Lyon": "Paris"}, {"Paris"})
    page = page_in(browser, server, "en", quiz)
    page.goto(f"{server.url}/quiz/{quiz.event_id}/results")
    expect(page.locator("#results")).to_contain_text("Q1 Lynxes → right")
    pdf = page.pdf(format="A4", prefer_css_page_size=True)
    assert pdf_pages(pdf) == 2  # the places (with the appeal), then the protocol
