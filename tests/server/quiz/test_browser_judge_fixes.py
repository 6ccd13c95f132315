"""The judge console in Chromium where an evening broke: a field typed over while a live
update arrives, the server's reason for a refused command, and the appeal form.

Each test drives the page as a judge would and changes the event from another client
in between, as a co-judge or a team does during an evening.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.live_server import LiveServer
from tests.server.quiz.helpers import QuizApi, answered, started
from tests.server.quiz.test_browser_control import judge_page, phone
from tests.server.quiz.test_browser_redraw import while_pressed as frame_arrives

playwright_sync = pytest.importorskip("playwright.sync_api")
expect = playwright_sync.expect


@pytest.fixture
def quiz(server: LiveServer) -> Iterator[QuizApi]:
    with httpx.Client(base_url=server.url) as client:
        yield QuizApi(client)


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


def test_the_ticks_of_a_lightning_question_do_not_carry_over_to_the_next(
    server: LiveServer, browser: Any, quiz: QuizApi
) -> None:
    started(quiz, questions=1, prize_places=1)
    quick = "number,text,answer,lightning\n1,Quick one?,Q1,yes\n2,Quick two?,Q2,yes\n"
    quiz.cmd("pack", form="csv", text=quick)
    quiz.play(1, {"A": "Paris", "B": "Paris"}, {"Paris"})
    judge = judge_page(browser, server, quiz)
    projector = browser.new_page(viewport={"width": 1920, "height": 1080})
    projector.goto(f"{server.url}/quiz/{quiz.event_id}/projector")
    expect(judge.locator("#judge")).to_have_attribute("data-stage", "lightning")
    # the pack's lightning questions, in order, on the console and the big screen
    expect(judge.locator("#lightning-question")).to_contain_text("Quick one?")
    expect(projector.locator("#proj-q-number")).to_have_text("Lightning question 1")
    expect(projector.locator("#proj-q-text")).to_have_text("Quick one?")
    for team in ("A", "B"):  # both right: still tied, a second lightning question
        judge.locator(f'.lightning-group input[data-team="{team}"]').check()
    judge.locator(".btn-lightning").click()
    expect(judge.locator('.lightning-group[data-asked="2"]')).to_have_count(1)
    expect(judge.locator("#lightning-question")).to_contain_text("Quick two?")
    expect(projector.locator("#proj-q-number")).to_have_text("Lightning question 2")
    expect(judge.locator(".lightning-group input:checked")).to_have_count(0)
    judge.locator('.lightning-group input[data-team="B"]').check()  # only the winner
    judge.locator(".btn-lightning").click()
    expect(judge.locator("#judge")).to_have_attribute("data-stage", "finished")
    rounds = quiz.judge_view()["lightning"]
    assert rounds == [
        {"teams": ["A", "B"], "right": ["A", "B"]},
        {"teams": ["A", "B"], "right": ["B"]},
    ]


def test_an_appeal_on_an_early_question_is_filed_from_the_console(
    server: LiveServer, browser: Any, quiz: QuizApi
) -> None:
    started(quiz, questions=12, steps=20)
    for number in range(1, 8):
        quiz.play(number, {"A": "Paris", "B": "Rome"}, {"Paris"})
    judge = judge_page(browser, server, quiz)
    options = judge.locator("#appeal-question option")
    expect(options).to_have_count(7)  # every closed question, not the last five
    expect(judge.locator("#appeal-question")).to_have_value("7")
    judge.select_option("#appeal-question", "1")
    expect(judge.locator("#appeal h3")).to_have_text("Question 1")
    # another question closes: the form moves to it, the newest
    frame_arrives(judge, lambda: quiz.play(8, {"A": "Paris", "B": "Rome"}, {"Paris"}))
    expect(judge.locator("#appeal-question")).to_have_value("8")
    judge.select_option("#appeal-question", "1")
    judge.select_option("#appeal-team", "B")
    judge.select_option("#appeal-correct", "true")
    judge.fill("#appeal-comment", "Rome was right on question 1")
    judge.locator("#btn-appeal").click()
    expect(judge.locator(".appeal-item")).to_have_count(1)
    appeals = quiz.judge_view()["appeals"]
    assert [(a["question"], a["team"], a["correct"]) for a in appeals] == [(1, "B", True)]


PACK = "number,text,answer,accepted\n1,Which city?,Lutetia,Paris\n2,Which river?,Sequana,Seine\n"


def test_the_expected_answer_stays_off_the_console_until_the_judge_shows_it(
    server: LiveServer, browser: Any, quiz: QuizApi
) -> None:
    started(quiz)
    quiz.cmd("pack", form="csv", text=PACK)
    quiz.cmd("open_question")
    quiz.cmd("lock")
    judge = judge_page(browser, server, quiz)
    expect(judge.locator("#btn-expected")).to_be_visible()
    quiz.cmd("open_answering", seconds=600)
    quiz.answer("A", 1, "Paris")
    expect(judge.locator(".group")).to_have_count(1)
    html = judge.content()
    assert "Lutetia" not in html and "match-badge" not in html  # read and answered: hidden
    judge.locator("#btn-expected").click()
    expect(judge.locator("#expected .expected-answer")).to_have_text("Lutetia")
    expect(judge.locator(".group.matches")).to_have_count(1)
    quiz.cmd("close_answering")
    quiz.judge_texts(1, {"Paris"})
    quiz.cmd("resolve")
    quiz.cmd("open_question")
    quiz.cmd("lock")  # the next question: hidden again
    expect(judge.locator("#btn-expected")).to_be_visible()
    assert "Sequana" not in judge.content()


def test_a_refused_picture_is_named_and_the_pack_it_came_with_is_loaded(
    server: LiveServer, browser: Any, quiz: QuizApi, tmp_path: Path
) -> None:
    started(quiz)
    judge = judge_page(browser, server, quiz)
    (tmp_path / "pack.csv").write_text(
        "number,text,answer,picture\n1,What is shown?,A cat,big.png\n", encoding="utf-8"
    )
    (tmp_path / "big.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(210_000))
    judge.set_input_files("#judge-pack-files", [tmp_path / "pack.csv", tmp_path / "big.png"])
    expect(judge.locator("#pack-summary")).to_contain_text("1 question, 0 backup questions")
    error = judge.locator(".pack-error")
    expect(error).to_have_count(1)
    expect(error).to_contain_text("The picture big.png was not stored")
    expect(error).to_contain_text("more than the 204800 allowed")
    expect(error).not_to_contain_text("pack was not loaded")


def test_a_withdrawal_is_confirmed_marked_on_the_projector_and_undone(
    server: LiveServer, browser: Any, quiz: QuizApi
) -> None:
    started(quiz)
    quiz.play(1, {"A": "Paris", "B": "Paris"}, {"Paris"})
    judge = judge_page(browser, server, quiz)
    projector = browser.new_page(viewport={"width": 1920, "height": 1080})
    projector.goto(f"{server.url}/quiz/{quiz.event_id}/projector")
    row = projector.locator('#proj-table tr[data-team="B"]')
    expect(row).to_be_visible()
    judge.select_option("#edit-team", "B")
    judge.locator("#btn-withdraw").click()  # asks first
    expect(judge.locator("#withdraw-confirm")).to_contain_text("Withdraw B?")
    judge.locator("#btn-withdraw-no").click()
    expect(judge.locator("#withdraw-confirm")).to_have_count(0)
    assert not any(t["withdrawn"] for t in quiz.judge_view()["teams"])
    judge.locator("#btn-withdraw").click()
    judge.locator("#btn-withdraw-yes").click()
    expect(row).to_have_class("withdrawn")
    expect(row.locator("td.name")).to_have_text("⊘ B")
    judge.locator('.btn-return[data-team="B"]').click()
    expect(row).not_to_have_class("withdrawn")
    assert not any(t["withdrawn"] for t in quiz.judge_view()["teams"])


def test_a_removed_teams_phone_says_so_and_joins_again_with_the_code(
    server: LiveServer, browser: Any, quiz: QuizApi
) -> None:
    quiz.create(steps=6, hold_moves=2, questions=10, spurs_per_slope=0)
    quiz.join("Owls")
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.goto(f"{server.url}/quiz/join?code={quiz.join_code}")
    page.fill("input[name=team]", "Cats")
    page.locator("#join-form button[type=submit]").click()
    expect(page.locator("#conn")).to_have_attribute("data-state", "live")
    expect(page.locator("#team-name")).to_have_text("Cats")
    quiz.cmd("remove_team", team="Cats")
    expect(page.locator("#removed")).to_contain_text("not in this event any more")
    for gone in ("#recovery-code", "#stage", "#error:not(.hidden)"):
        expect(page.locator(gone)).to_have_count(0)
    page.reload()  # the join page, the code filled in
    expect(page.locator("input[name=code]")).to_have_value(quiz.join_code)
    page.fill("input[name=team]", "Cats again")
    page.locator("#join-form button[type=submit]").click()
    expect(page.locator("#team-name")).to_have_text("Cats again")


def test_an_offline_phone_shows_the_answer_it_will_send(
    server: LiveServer, browser: Any, quiz: QuizApi
) -> None:
    answered(started(quiz), 1, {})
    page = phone(browser, server, quiz, "A", "en")
    page.context.set_offline(True)
    page.fill("#answer-text", "Lutetia")
    page.locator("#send-answer").click()
    expect(page.locator("#answer-status")).to_contain_text("Not sent yet")
    expect(page.locator("#answer-pending-text")).to_have_text("Lutetia")
    page.context.set_offline(False)
    expect(page.locator("#answer-status")).to_contain_text("Lutetia")  # accepted, with its text
    assert quiz.judge_view()["open"]["groups"][0]["text"] == "Lutetia"
