"""A whole 6-team evening in Chromium: host, projector and six phones in separate browser
contexts. A jump, a spur, a partner question, a King, a successful Revolution, an appeal
that changes the result, and the King holding the Peak to the end; the exported protocol
scored by ``koth quiz score`` matches the final page. Every WebSocket frame a team or the
projector received is scanned for spur cells and other teams' answers.

Screenshots go to docs/screenshots/ when KOTH_SCREENSHOTS=1 (else to a temp folder).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.live_server import LiveServer
from tests.server.quiz.helpers import SCENARIO_SETTINGS, scenario_questions, shots_dir, values_of

playwright_sync = pytest.importorskip("playwright.sync_api")

TEAMS: list[str] = SCENARIO_SETTINGS["teams"]
TIMEOUT_MS = 15_000
#: unique answer texts per team, so a leak of another team's answer is detectable
RIGHT = "Paris"


def answer_text(team: str, right: bool, question: int) -> str:
    return RIGHT if right else f"wrong-{team}-{question}"


class Frames:
    """Every WebSocket frame a page received, with a flag: was the game over then."""

    def __init__(self) -> None:
        self.frames: list[tuple[str, str]] = []

    def attach(self, who: str, page: Any) -> None:
        def on_socket(ws: Any) -> None:
            ws.on("framereceived", lambda payload: self.frames.append((who, str(payload))))

        page.on("websocket", on_socket)


def judge_click(judge: Any, selector: str) -> None:
    button = judge.locator(selector)
    button.wait_for(state="visible", timeout=TIMEOUT_MS)
    playwright_sync.expect(button).to_be_enabled(timeout=TIMEOUT_MS)
    seq = judge.locator("#judge").get_attribute("data-seq")
    button.click()
    playwright_sync.expect(judge.locator("#judge")).not_to_have_attribute(
        "data-seq", seq or "", timeout=TIMEOUT_MS
    )


def test_a_whole_evening_in_the_browser(server: LiveServer, browser: Any, tmp_path: Path) -> None:
    shots = shots_dir(tmp_path)
    frames = Frames()
    host_ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
    judge = host_ctx.new_page()
    judge.set_default_timeout(TIMEOUT_MS)
    judge.goto(f"{server.url}/quiz")
    form = judge.locator("#create-form")
    form.locator("[name=title]").fill("Club evening")
    form.locator("[name=steps]").fill("5")
    form.locator("[name=hold_moves]").fill("2")
    form.locator("[name=questions]").fill("12")
    form.locator("[name=spurs_per_slope]").fill("0")
    form.locator("[name=spurs]").fill("Owls: 3")
    form.locator("button[type=submit]").click()
    judge.wait_for_url(lambda url: "/judge" in url)
    event_id = judge.url.split("/quiz/")[1].split("/")[0]
    code = judge.locator("#join-code").inner_text().strip()
    host_token = judge.evaluate(f"JSON.parse(localStorage.getItem('koth.quiz.host.{event_id}'))")
    assert host_token and "token=" not in judge.url  # the secret left the address bar

    proj_ctx = browser.new_context(viewport={"width": 1600, "height": 900}, locale="ru-RU")
    projector = proj_ctx.new_page()
    projector.set_default_timeout(TIMEOUT_MS)
    frames.attach("projector", projector)
    projector.goto(f"{server.url}/quiz/{event_id}/projector")

    phones: dict[str, Any] = {}
    for team in TEAMS:
        ctx = browser.new_context(
            viewport={"width": 390, "height": 844}, is_mobile=True, locale="en-GB"
        )
        page = ctx.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        frames.attach(team, page)
        page.goto(f"{server.url}/quiz/join?code={code}")
        page.locator("[name=team]").fill(team)
        page.locator("#join-form button[type=submit]").click()
        page.wait_for_url(lambda url: url.endswith("/team"))
        playwright_sync.expect(page.locator("#team-name")).to_have_text(team)
        phones[team] = page
    playwright_sync.expect(projector.locator("#proj-joined .chip")).to_have_count(6)

    judge_click(judge, "#btn-start")
    for number, q in enumerate(scenario_questions(), start=1):
        if number == 7:
            # the appeal: Bears' answer to question 6 was right after all
            judge.select_option("#appeal-question", "6")
            judge.select_option("#appeal-team", "Bears")
            judge.select_option("#appeal-correct", "true")
            judge.fill("#appeal-comment", "synonym accepted")
            judge_click(judge, "#btn-appeal")
            # the form empties once applied: a second click cannot file it again
            playwright_sync.expect(judge.locator("#appeal-comment")).to_have_value("")
            playwright_sync.expect(judge.locator("#appeal-team")).to_have_value("")
            playwright_sync.expect(judge.locator("#btn-appeal")).to_be_disabled()
            # a team that gave no answer: the form asks for the answer it gave first
            judge.select_option("#appeal-team", "Dogs")
            playwright_sync.expect(judge.locator("#appeal-answer")).to_be_visible()
            playwright_sync.expect(judge.locator("#btn-appeal")).to_be_disabled()
            judge.select_option("#appeal-team", "")
            playwright_sync.expect(
                projector.locator("#proj-table tr.king-row td.name")
            ).to_contain_text("Bears")
        play_question(judge, phones, number, q, shots)
        if number == 4:
            playwright_sync.expect(projector.locator("#proj-king-hold")).to_contain_text("0/2")
            assert "♛" in projector.locator("#proj-table tr.king-row").inner_text()
        if number == 5:
            projector.wait_for_timeout(1800)  # let the markers finish moving
            projector.screenshot(path=str(shots / "quiz_projector.png"))
        if number == 6:
            # before the appeal the Revolution of the Owls succeeded
            playwright_sync.expect(
                projector.locator("#proj-table tr.king-row td.name")
            ).to_contain_text("Owls")

    playwright_sync.expect(judge.locator("#judge")).to_have_attribute("data-stage", "finished")
    playwright_sync.expect(projector.locator("#projector")).to_have_attribute(
        "data-stage", "finished"
    )
    assert projector.locator("#spur-layer rect").count() == 1  # Owls' spur, revealed
    playwright_sync.expect(phones["Bears"].locator("#my-place")).to_have_text("1")

    results = host_ctx.new_page()
    results.goto(f"{server.url}/quiz/{event_id}/results")
    playwright_sync.expect(results.locator("#results")).to_have_attribute("data-loaded", "true")
    # the appeal is listed as text (it once read "[object HTMLDivElement]")
    playwright_sync.expect(results.locator("#results")).to_contain_text("Q6 Bears")
    playwright_sync.expect(results.locator("#results")).not_to_contain_text("[object")
    shown = [
        (row.get_attribute("data-team"), int(row.get_attribute("data-place") or 0))
        for row in results.locator("table.places tr[data-team]").all()
    ]
    points = [int(x) for x in results.locator("table.places td.points").all_inner_texts()]

    protocol = httpx.get(
        f"{server.url}/api/quiz/events/{event_id}/protocol.json",
        headers={"Authorization": f"Bearer {host_token}"},
    ).json()
    path = tmp_path / "protocol.json"
    path.write_text(json.dumps(protocol), encoding="utf-8")
    koth = Path(sys.executable).with_name("koth")
    run = subprocess.run(
        [str(koth), "quiz", "score", "--json", str(path)], capture_output=True, text=True
    )
    assert run.returncode == 0, run.stderr
    scored = json.loads(run.stdout)
    assert [(t["name"], t["place"]) for t in scored["teams"]] == shown
    assert [t["points"] for t in scored["teams"]] == points
    assert scored["king"] == "Bears" and scored["reason"] == "king_held"
    assert shown[0] == ("Bears", 1)
    # each question's statistics on the page, as every team's row of the record has it
    record = httpx.get(
        f"{server.url}/api/quiz/events/{event_id}/results",
        headers={"Authorization": f"Bearer {host_token}"},
    ).json()["parts"][0]["questions"]
    lines = results.locator("table.stats td.stats-line").all_inner_texts()
    assert len(lines) == len(record)
    for q, line in zip(record, lines, strict=True):
        right = sum(1 for r in q["rows"] if r["correct"])
        assert line.startswith(f"{right} of {len(q['rows'])} teams right"), line

    scan_frames(frames)


#: clicks each (group text, mark button) pair's button in the same tick of the page
CLICK_MARKS_AT_ONCE = """(marks) => {
  for (const [text, mark] of marks) {
    const groups = [...document.querySelectorAll(".group")];
    const group = groups.find((g) => g.textContent.includes(text));
    group.querySelector(mark).click();
  }
}"""


def play_question(
    judge: Any, phones: dict[str, Any], number: int, q: dict[str, Any], shots: Path
) -> None:
    judge_click(judge, "#btn-open-question")
    for team, declared in q.get("declarations", {}).items():
        button = phones[team].locator(f"button[data-declaration={declared}]")
        button.click()
        playwright_sync.expect(button).to_have_class("declare " + declared + " chosen")
    if q.get("partner"):
        judge.locator("#btn-partner").check()
        playwright_sync.expect(judge.locator("#btn-partner")).to_be_checked()
    if number == 5:
        phones["Bears"].screenshot(path=str(shots / "quiz_team.png"))
    judge_click(judge, "#btn-lock")
    for team, declared in q.get("declarations", {}).items():  # still shown once read
        mine = phones[team].locator("#my-declaration")
        playwright_sync.expect(mine).to_have_attribute("data-declaration", declared)
    judge_click(judge, "#btn-open-answering")
    for team, text in q["answers"].items():
        page = phones[team]
        page.locator("#answer-text").fill(answer_text(team, text == RIGHT, number))
        page.locator("#send-answer").click()
    for team in q["answers"]:
        playwright_sync.expect(phones[team].locator("#answer-status")).to_contain_text("accepted")
    groups = judge.locator(".group")
    distinct = {answer_text(t, a == RIGHT, number) for t, a in q["answers"].items()}
    playwright_sync.expect(groups).to_have_count(len(distinct))
    judge_click(judge, "#btn-close-answering")
    # the marks are clicked one after another without waiting for the server, at the
    # first question all in one tick of the page (a judge faster than the network): the
    # console must send every one of them, none dropped while another is on its way
    marks = {text: ".mark-right" if text == RIGHT else ".mark-wrong" for text in distinct}
    if number == 1:
        judge.evaluate(CLICK_MARKS_AT_ONCE, sorted(marks.items()))
    else:
        # as a judge clicks: each mark once the console shows the one before
        for text, mark in sorted(marks.items()):
            judge.locator(".group", has_text=text).locator(mark).click()
            chosen = judge.locator(".group", has_text=text).locator(f"{mark}.chosen")
            playwright_sync.expect(chosen).to_have_count(1)
    for text, mark in marks.items():
        chosen = judge.locator(".group", has_text=text).locator(f"{mark}.chosen")
        playwright_sync.expect(chosen).to_have_count(1)
    if number == 7:
        judge.screenshot(path=str(shots / "quiz_judge.png"), full_page=True)
    judge_click(judge, "#btn-resolve")
    for team in q["answers"]:
        playwright_sync.expect(phones[team].locator("#my-points")).not_to_have_text("")


def scan_frames(frames: Frames) -> None:
    """Before the game was over, no team or projector frame named a spur cell, and no
    frame of a team held another team's wrong (unique) answer text."""
    assert len(frames.frames) > 50
    over = False
    for who, raw in frames.frames:
        data = json.loads(raw)
        if data.get("type") != "state":
            continue
        text = raw
        for team in TEAMS:
            if team != who:
                assert f"wrong-{team}-" not in text, (who, team)
        if data.get("phase", {}).get("stage") == "finished":
            over = True
        if not over:
            assert not values_of("spurs", data), who
