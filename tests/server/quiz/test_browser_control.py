"""The host's control in Chromium: team list edits before and after the start, re-open,
one appeal for a whole answer group, "the rest wrong", the keyboard shortcuts, spur
cells hidden until shown; and the team phone at 390x844 in English and Russian as the
King, as an ordinary team and withdrawn, with long names, never wider than the screen.

Screenshots go to docs/screenshots/ when KOTH_SCREENSHOTS=1 (else to a temp folder).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.live_server import LiveServer
from tests.server.quiz.helpers import QuizApi, shots_dir

playwright_sync = pytest.importorskip("playwright.sync_api")
expect = playwright_sync.expect

TIMEOUT_MS = 15_000
LONG = "Очень длинное название команды знатоков"
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def quiz(server: LiveServer) -> Iterator[QuizApi]:
    with httpx.Client(base_url=server.url) as client:
        yield QuizApi(client)


def judge_page(browser: Any, server: LiveServer, api: QuizApi) -> Any:
    page = browser.new_context(viewport={"width": 1280, "height": 1000}).new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(f"{server.url}/quiz/{api.event_id}/judge#token={api.host_token}")
    expect(page.locator("#conn")).to_have_attribute("data-state", "live", timeout=TIMEOUT_MS)
    return page


def click(page: Any, selector: str) -> None:
    """Click and wait until the console shows a new log row."""
    seq = page.locator("#judge").get_attribute("data-seq")
    page.locator(selector).click()
    expect(page.locator("#judge")).not_to_have_attribute("data-seq", seq or "", timeout=TIMEOUT_MS)


def phone(browser: Any, server: LiveServer, api: QuizApi, team: str, lang: str) -> Any:
    ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    ctx.add_cookies([{"name": "koth_lang", "value": lang, "url": server.url}])
    creds = {"token": api.tokens[team], "team": team, "recovery_code": api.recovery[team]}
    ctx.add_init_script(
        f"localStorage.setItem('koth.quiz.team.{api.event_id}', {json.dumps(json.dumps(creds))})"
    )
    page = ctx.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(f"{server.url}/quiz/{api.event_id}/team")
    expect(page.locator("#conn")).to_have_attribute("data-state", "live", timeout=TIMEOUT_MS)
    return page


def fits(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width} px wide on a 390 px phone"


def test_team_list_edits_before_and_after_the_start(
    server: LiveServer, browser: Any, quiz: QuizApi
) -> None:
    quiz.create(steps=6, hold_moves=2, questions=10, spurs_per_slope=0)
    for team in ("Owls", "Bears", "Cats", "Dogs", "Eels"):
        quiz.join(team)
    judge = judge_page(browser, server, quiz)
    judge.select_option("#edit-team", "Owls")
    judge.fill("#edit-name", "Night Owls")
    click(judge, "#btn-rename")
    judge.select_option("#edit-team", "Eels")
    click(judge, "#btn-remove")
    judge.select_option("#edit-team", "Dogs")
    judge.select_option("#merge-into", "Cats")
    click(judge, "#btn-merge")
    click(judge, "#btn-lock-joining")
    expect(judge.locator("#joining-state")).to_contain_text("locked")
    refused = quiz.client.post("/api/quiz/join", json={"code": quiz.join_code, "team": "Late"})
    assert refused.status_code == 409
    expect(judge.locator("#side .team-list li")).to_have_text(
        ["Night Owls 📱", "Bears 📱", "Cats 📱"]
    )
    # a bad name is refused in clear words, and changes nothing
    judge.select_option("#edit-team", "Bears")
    judge.fill("#edit-name", "CATS")
    judge.locator("#btn-rename").click()
    expect(judge.locator("#error")).to_contain_text("too like")
    click(judge, "#btn-start")
    judge.select_option("#edit-team", "Bears")
    judge.fill("#edit-name", "Brown Bears")
    click(judge, "#btn-rename")
    expect(judge.locator("#error")).to_be_hidden()
    judge.select_option("#edit-team", "Cats")
    judge.locator("#btn-withdraw").click()  # asks first
    click(judge, "#btn-withdraw-yes")
    expect(judge.locator("#judge-standings tr.withdrawn")).to_contain_text("Cats")
    changes = quiz.judge_view()["control"]["changes"]
    assert [c["kind"] for c in changes] == [
        "renamed",
        "removed",
        "merged",
        "joining_locked",
        "renamed",
        "withdrawn",
    ]


def test_reopen_group_appeal_rest_wrong_shortcuts_and_hidden_spurs(
    server: LiveServer, browser: Any, quiz: QuizApi, tmp_path: Path
) -> None:
    teams = [f"T{i:02d}" for i in range(20)]
    quiz.create(steps=6, hold_moves=2, questions=10, spurs_per_slope=1, teams=[])
    for team in teams:
        quiz.join(team)
    quiz.cmd("start")
    judge = judge_page(browser, server, quiz)
    # spur cells are hidden after every load until the host shows them
    expect(judge.locator("#judge-standings .spur-cell").first).to_have_text("•")
    judge.locator("#btn-spurs").click()
    expect(judge.locator("#judge-standings .spur-cell").first).not_to_have_text("•")
    judge.reload()
    expect(judge.locator("#judge-standings .spur-cell").first).to_have_text("•")

    # question 1 by keyboard: O opens it, L locks, O opens answering
    for key, stage in (("o", "declaring"), ("l", "read"), ("o", "answering")):
        judge.keyboard.press(key)
        expect(judge.locator("#judge")).to_have_attribute("data-stage", stage)
    for i, team in enumerate(teams):
        quiz.answer(team, 1, "Peking" if i < 18 else ("Paris" if i == 18 else "Rome"))
    judge.keyboard.press("c")
    expect(judge.locator("#judge")).to_have_attribute("data-stage", "judging")
    expect(judge.locator(".group")).to_have_count(3)
    expect(judge.locator(".group.focused")).to_have_count(1)
    judge.keyboard.press("r")  # the focused (largest) group right
    expect(judge.locator(".group.right")).to_have_count(1)
    judge.keyboard.press("x")  # the rest wrong
    expect(judge.locator(".group.wrong")).to_have_count(2)
    judge.keyboard.press("s")
    expect(judge.locator("#judge")).to_have_attribute("data-stage", "between")

    # re-open: the judgement is changed, the question resolved again
    click(judge, "#btn-reopen")
    expect(judge.locator("#judge")).to_have_attribute("data-stage", "judging")
    judge.locator('.group[data-key="paris"] .mark-right').click()
    expect(judge.locator('.group[data-key="paris"]')).to_have_class(re.compile(r"\bright\b"))
    click(judge, "#btn-resolve")
    rows = {r["team"]: r["correct"] for r in quiz.judge_view()["closed"][0]["rows"]}
    assert rows["T18"] is True and rows["T19"] is False and rows["T00"] is True

    # one appeal for all 18 "Peking" teams
    judge.fill("#appeal-comment", "the old name")
    click(judge, '.btn-group-appeal[data-answer="Peking"]')
    view = quiz.judge_view()
    assert len(view["appeals"]) == 18 and all(
        a["comment"] == "the old name" for a in view["appeals"]
    )
    assert not any(r["correct"] for r in view["closed"][0]["rows"] if r["answer"] == "Peking")
    expect(judge.locator("#shortcuts")).to_contain_text("R right")
    judge.screenshot(path=str(shots_dir(tmp_path) / "quiz_judge_control.png"), full_page=True)


def test_team_phone_king_ordinary_and_withdrawn_fit_a_390px_phone(
    server: LiveServer, browser: Any, quiz: QuizApi, tmp_path: Path
) -> None:
    shots = shots_dir(tmp_path)
    long_en = "The Extraordinarily Long Named Quiz Team"
    quiz.create(steps=3, hold_moves=3, questions=10, spurs_per_slope=0)
    for team in ("Owls", LONG, long_en, "Cats"):
        quiz.join(team)
    quiz.cmd("start")
    for n in (1, 2, 3):
        quiz.play(n, {"Owls": "yes", LONG: "yes" if n < 3 else "no", long_en: "no"}, {"yes"})
    quiz.cmd("withdraw_team", team="Cats")
    pages = {}
    for lang in ("en", "ru"):
        pages[("king", lang)] = phone(browser, server, quiz, "Owls", lang)
        pages[("ordinary", lang)] = phone(browser, server, quiz, LONG, lang)
        pages[("withdrawn", lang)] = phone(browser, server, quiz, "Cats", lang)
    for (state, lang), page in pages.items():
        expect(page.locator("#stage")).not_to_be_empty()
        if state == "king":
            expect(page.locator(".king-fig")).to_be_visible()
        if state == "withdrawn":
            expect(page.locator("#team")).to_have_attribute("data-withdrawn", "true")
            expect(page.locator("#answer")).to_be_empty()
        page.wait_for_timeout(1100)  # the marker's move
        fits(page)
        name = page.locator("#top td.name").nth(1)
        assert name.get_attribute("title")  # a cut name is whole in its title
        page.screenshot(path=str(shots / f"quiz_team_{state}_{lang}.png"), full_page=True)


def test_an_appeal_types_in_the_answer_of_a_team_that_gave_none(
    server: LiveServer, browser: Any, quiz: QuizApi, tmp_path: Path
) -> None:
    quiz.create(steps=6, hold_moves=2, questions=5, teams=[])
    for team in ("Owls", "Bears", "Cats"):
        quiz.join(team)
    quiz.cmd("start")
    quiz.play(1, {"Owls": "Paris", "Bears": "Rome"}, {"paris"})  # Cats' answer never arrived
    judge = judge_page(browser, server, quiz)
    answer = judge.locator("#appeal-answer")
    judge.select_option("#appeal-team", "Bears")
    expect(answer).to_be_hidden()  # Bears answered: its judgement is what an appeal changes
    judge.select_option("#appeal-team", "Cats")
    expect(answer).to_be_visible()
    expect(judge.locator("#btn-appeal")).to_be_disabled()  # not without the answer
    answer.fill("Paris")
    judge.select_option("#appeal-correct", "true")
    judge.locator("#appeal").screenshot(path=str(shots_dir(tmp_path) / "quiz_judge_appeal.png"))
    click(judge, "#btn-appeal")
    view = quiz.judge_view()
    cats = next(r for r in view["closed"][0]["rows"] if r["team"] == "Cats")
    assert cats["answer"] == "Paris" and cats["correct"] is True
    assert view["appeals"][-1]["admitted"] is True
    expect(judge.locator(".appeal-item").last).to_contain_text("answer typed in by the judge")
    expect(answer).to_have_value("")
