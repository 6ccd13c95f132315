"""The quiz API: every path, every error, and the protocol export."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from koth.games.quiz.protocol import result_json, score_protocol
from koth.server.app import create_app
from tests.server.conftest import make_settings
from tests.server.quiz.helpers import RIGHT, WRONG, QuizApi, bearer, run_scenario, started


def error_code(response: Any) -> str:
    code: str = response.json()["error"]["code"]
    return code


# ------------------------------------------------------------------ creating
def test_create_returns_secret_links_and_a_join_qr(api: QuizApi, client: TestClient) -> None:
    data = api.create(title="Friday")
    assert len(api.host_token) >= 40 and len(api.join_code) == 6
    assert data["links"]["host"].endswith(f"#token={api.host_token}")
    assert data["links"]["join"].endswith(f"/quiz/join?code={api.join_code}")
    qr = client.get(api.url("qr.svg"))
    assert qr.status_code == 200 and qr.headers["content-type"] == "image/svg+xml"
    assert qr.text.startswith("<svg")


@pytest.mark.parametrize(
    "settings",
    [
        {"steps": 2},
        {"partner_questions": [99], "questions": 10},
        {"teams": ["A", "A"]},
        {"spurs": {"Z": [2, 2]}},
        {"teams": ["A", "B"], "spurs": {"A": [9]}, "steps": 5},
        {"unknown": 1},
        {"format": "knockout"},
    ],
)
def test_create_refuses_bad_settings(client: TestClient, settings: dict[str, Any]) -> None:
    response = client.post("/api/quiz/events", json=settings)
    assert response.status_code == 422, response.text


def test_unknown_event_is_404(client: TestClient) -> None:
    assert client.get("/api/quiz/events/nope/projector").status_code == 404
    assert error_code(client.get("/api/quiz/events/nope/projector")) == "not_found"


# -------------------------------------------------------------------- joining
def test_join_errors(api: QuizApi, client: TestClient) -> None:
    api.create(teams=["Listed"])
    api.join("Listed")  # a team listed upfront claims its name
    bad_code = client.post("/api/quiz/join", json={"code": "ZZZZZZ", "team": "X"})
    assert bad_code.status_code == 404
    taken = client.post("/api/quiz/join", json={"code": api.join_code, "team": "Listed"})
    assert taken.status_code == 409 and error_code(taken) == "name_taken"
    long_name = client.post("/api/quiz/join", json={"code": api.join_code, "team": "x" * 45})
    assert long_name.status_code == 422
    api.join("Other")
    api.cmd("start")
    late = client.post("/api/quiz/join", json={"code": api.join_code.lower(), "team": "Late"})
    assert late.status_code == 409 and "started" in late.json()["error"]["message"]
    # its own code, so the join page says it in the page's language
    assert late.json()["error"]["code"] == "join_closed"


def test_recovery_moves_a_team_to_a_second_phone(api: QuizApi, client: TestClient) -> None:
    started(api)
    first = api.tokens["A"]
    bad = client.post(
        "/api/quiz/recover",
        json={"code": api.join_code, "team": "A", "recovery_code": "AAAA-BBBB-CCCC"},
    )
    assert bad.status_code == 403
    other_team = client.post(
        "/api/quiz/recover",
        json={"code": api.join_code, "team": "B", "recovery_code": api.recovery["A"]},
    )
    assert other_team.status_code == 403
    moved = client.post(
        "/api/quiz/recover",
        json={"code": api.join_code, "team": "A", "recovery_code": api.recovery["A"].lower()},
    )
    assert moved.status_code == 200, moved.text
    second = moved.json()["token"]
    assert second != first
    for token in (first, second):
        assert client.get(api.url("team"), headers=bearer(token)).json()["team"] == "A"


def test_host_can_add_teams_before_the_start(api: QuizApi) -> None:
    api.create()
    api.cmd("add_team", team="Paper")
    api.join("Phone")
    assert api.cmd("add_team", expect=409, team="Paper")["error"]["code"] == "name_taken"
    view = api.judge_view()
    assert {t["name"]: t["device"] for t in view["teams"]} == {"Paper": False, "Phone": True}
    api.cmd("start")
    api.cmd("open_question")
    api.cmd("lock")
    api.cmd("answer_for_team", team="Paper", text="on paper")
    assert api.judge_view()["open"]["answered"] == 1
    assert api.cmd("add_team", expect=409, team="Later")["error"]["code"] == "join_closed"


def test_start_needs_two_teams(api: QuizApi) -> None:
    api.create()
    api.join("Alone")
    assert api.cmd("start", expect=409)["error"]["code"] == "wrong_phase"


# --------------------------------------------------------------- declarations
def test_declarations_only_when_legal(api: QuizApi) -> None:
    started(api)
    api.cmd("open_question")
    jump = api.declare("A", 1, "jump", expect=400)
    assert jump["error"]["rule"] == "Q3"
    assert api.team_view("A")["me"]["legal"] == ["ordinary"]
    assert api.declare("A", 2, "ordinary", expect=409)["error"]["code"] == "wrong_phase"
    api.cmd("lock")
    api.cmd("open_answering", seconds=60)
    api.answer("A", 1, RIGHT)
    api.cmd("close_answering")
    api.judge_texts(1, {RIGHT})
    api.cmd("resolve")
    api.cmd("open_question")
    assert api.team_view("A")["me"]["legal"] == ["jump", "ordinary"]
    view = api.declare("A", 2, "jump")
    assert view["me"]["declaration"] == "jump"
    api.cmd("lock")
    assert api.team_view("A")["me"]["legal"] == []
    api.declare("B", 2, "jump")  # after reading: accepted, counts as ordinary (Q3)
    assert api.judge_view()["open"]["late"] == [{"team": "B", "declaration": "jump"}]


def test_declaration_needs_an_open_question(api: QuizApi) -> None:
    started(api)
    assert api.declare("A", 1, "ordinary", expect=409)["error"]["code"] == "wrong_phase"
    body = api.client.post(
        api.url("declaration"),
        json={"question": 1, "declaration": "leap"},
        headers=bearer(api.tokens["A"]),
    )
    assert body.status_code == 422


# -------------------------------------------------------------------- answers
def test_answers_are_idempotent_and_refused_when_closed(api: QuizApi) -> None:
    started(api)
    api.cmd("open_question")
    early = api.answer("A", 1, "x", expect=409)
    assert early["error"]["code"] == "answering_closed"  # not read yet
    api.cmd("lock")
    assert api.answer("A", 1, "x", expect=409)["error"]["code"] == "answering_closed"
    api.cmd("open_answering", seconds=60)
    first = api.answer("A", 1, "  Paris ", sid="sid-0001-a")
    again = api.answer("A", 1, "Paris", sid="sid-0001-a")
    assert first["accepted"] and not first["duplicate"] and first["text"] == "Paris"
    assert again["duplicate"] and again["seq"] == first["seq"]
    assert again["received_at"] == first["received_at"]
    second = api.answer("A", 1, "London", expect=409)
    assert second["error"]["code"] == "already_answered"
    stolen = api.answer("B", 1, "Paris", sid="sid-0001-a", expect=409)
    assert "Paris" not in json.dumps(stolen)
    assert api.answer("B", 1, "", expect=422)
    assert api.answer("B", 1, "x", sid="short", expect=422)
    api.cmd("close_answering")
    closed = api.answer("B", 1, "Rome", expect=409)
    assert closed["error"]["code"] == "answering_closed"
    assert "closed" in closed["error"]["message"]
    assert api.judge_view()["open"]["answered"] == 1
    api.judge_texts(1, {"Paris"})
    api.cmd("resolve")
    after = api.answer("B", 1, "Rome", expect=409)
    assert after["error"]["code"] == "answering_closed"


def test_timer_pause_extend_and_expiry(api: QuizApi, client: TestClient) -> None:
    started(api)
    api.cmd("open_question")
    api.cmd("lock")
    assert api.cmd("pause", expect=409)["error"]["code"] == "wrong_phase"
    # 1 s, not less: the pause must land before the time is up on a loaded CI machine
    api.cmd("open_answering", seconds=1.0)
    view = api.cmd("pause")
    assert view["phase"]["timer"]["paused"]
    assert api.cmd("pause", expect=409)["error"]["code"] == "wrong_phase"
    time.sleep(1.1)  # paused: the clock stands still
    api.answer("A", 1, RIGHT)
    assert api.cmd("resume")["phase"]["stage"] == "answering"
    assert api.cmd("resume", expect=409)["error"]["code"] == "wrong_phase"
    time.sleep(1.15)
    assert api.projector()["phase"]["stage"] == "judging"
    assert api.answer("B", 1, RIGHT, expect=409)["error"]["code"] == "answering_closed"
    extended = api.cmd("extend", seconds=30)
    assert extended["phase"]["stage"] == "answering"
    assert 29 < extended["phase"]["timer"]["remaining"] <= 30
    api.answer("B", 1, RIGHT)
    assert api.cmd("extend", expect=422)["error"]["code"] == "malformed_request"
    closed = api.cmd("close_answering")  # with about 30 s left: none is shown any more
    assert closed["phase"]["stage"] == "judging" and closed["phase"]["timer"]["remaining"] == 0
    assert api.projector()["phase"]["timer"]["remaining"] == 0
    assert api.cmd("close_answering", expect=409)["error"]["code"] == "wrong_phase"
    assert api.cmd("extend", expect=409, seconds=5)["error"]["code"] == "wrong_phase"
    reopened = api.cmd("open_answering", seconds=20)  # a judge may open answering again
    assert reopened["phase"]["stage"] == "answering"


# ------------------------------------------------------------------- judging
def test_judging_groups_resolve_and_appeal(api: QuizApi) -> None:
    started(api, teams=("A", "B", "C", "D"))
    api.cmd("open_question")
    api.cmd("lock")
    api.cmd("open_answering", seconds=60)
    for team, text in {"A": "Paris", "B": "paris!", "C": " PARIS", "D": "Rome"}.items():
        api.answer(team, 1, text)
    groups = {g["key"]: g for g in api.judge_view()["open"]["groups"]}
    assert set(groups) == {"paris", "rome"} and len(groups["paris"]["teams"]) == 3
    assert api.cmd("resolve", expect=409)["error"]["code"] == "wrong_phase"
    assert api.cmd("judge", expect=404, key="london", correct=True)["error"]["code"] == "not_found"
    assert api.cmd("judge", expect=422, key="paris")["error"]["code"] == "malformed_request"
    api.cmd("judge", key="paris", correct=True)
    assert api.team_view("A")["me"]["answer"]["status"] == "right"
    assert api.team_view("D")["me"]["answer"]["status"] == "accepted"
    api.cmd("judge", key="rome", correct=True)
    api.cmd("judge", key="rome", correct=False)  # re-judging while open corrects it
    assert api.cmd("appeal", expect=409, question=1, team="D", correct=True)
    done = api.cmd("resolve")
    assert done["phase"]["stage"] == "between"
    lines = {t["name"]: t for t in done["standings"]["teams"]}
    assert lines["A"]["points"] == 1 and lines["D"]["points"] == 0
    assert api.cmd("resolve", expect=409)["error"]["code"] == "wrong_phase"
    assert api.cmd("appeal", expect=404, question=1, team="Z", correct=True)
    assert api.cmd("appeal", expect=409, question=2, team="A", correct=True)
    assert (
        api.cmd("appeal", expect=422, question=1, team="A")["error"]["code"] == "malformed_request"
    )
    appealed = api.cmd("appeal", question=1, team="D", correct=True, comment="synonym")
    lines = {t["name"]: t for t in appealed["standings"]["teams"]}
    assert lines["D"]["points"] == 1 and lines["D"]["position"] == 1
    assert appealed["appeals"][0]["comment"] == "synonym"
    assert api.team_view("D")["me"]["points"] == 1


def test_an_appeal_admits_the_answer_of_a_team_that_gave_none(
    api: QuizApi, client: TestClient
) -> None:
    started(api, teams=("A", "B", "C"))
    api.play(1, {"A": RIGHT, "B": WRONG}, {RIGHT})  # C's answer never arrived
    before = {t["name"]: t for t in api.judge_view()["standings"]["teams"]}
    refused = [
        ({"team": "A", "answer": RIGHT}, 409),  # A answered: its judgement is appealed
        ({"team": "C", "answer": "   "}, 422),  # no letter or digit is no answer
        ({"team": "C", "answer": ""}, 422),
        ({"team": "Z", "answer": RIGHT}, 404),
    ]
    for body, status in refused:
        api.cmd("appeal", expect=status, question=1, correct=True, **body)
    # without the answer it gave, a team that gave none is refused in the server's words
    missing = api.cmd("appeal", expect=404, question=1, team="C", correct=True)["error"]
    assert (missing["code"], missing["message"]) == (
        "not_found",
        "team C gave no answer to question 1",
    )
    assert {t["name"]: t for t in api.judge_view()["standings"]["teams"]} == before
    admitted = api.cmd("appeal", question=1, team="C", correct=True, answer=RIGHT, comment="paper")
    lines = {t["name"]: t for t in admitted["standings"]["teams"]}
    assert (lines["C"]["position"], lines["C"]["points"]) == (1, 1)
    assert admitted["appeals"][-1] | {"downgraded": []} == {
        "question": 1,
        "team": "C",
        "correct": True,
        "comment": "paper",
        "after_question": None,  # placed in the results only
        "downgraded": [],
        "admitted": True,
    }
    row = next(r for r in admitted["closed"][0]["rows"] if r["team"] == "C")
    assert row["answer"] == RIGHT
    # the protocol replays it (as an admitted answer after question 1) to the same places
    protocol = client.get(api.url("protocol.json"), headers=api.host).json()
    corrections = protocol["questions"][0]["corrections"]
    assert corrections == [{"question": 1, "team": "C", "correct": True, "admitted": True}]
    scored = result_json(score_protocol(protocol))
    assert [(t["name"], t["points"]) for t in scored["teams"]] == [
        (t["name"], t["points"]) for t in admitted["standings"]["teams"]
    ]
    # a second admission is refused: the answer is there now; its judgement can be appealed
    api.cmd("appeal", expect=409, question=1, team="C", correct=True, answer=RIGHT)
    again = api.cmd("appeal", question=1, team="C", correct=False)
    assert {t["name"]: t for t in again["standings"]["teams"]}["C"]["points"] == 0


def test_appeal_reports_downgraded_declarations(api: QuizApi) -> None:
    started(api)
    api.play(1, {"A": RIGHT, "B": RIGHT}, {RIGHT})
    api.play(2, {"A": RIGHT}, {RIGHT}, declarations={"A": "jump"})
    view = api.cmd("appeal", question=1, team="A", correct=False, comment="misheard")
    assert view["standings"]["downgraded"][0]["team"] == "A"
    assert view["appeals"][0]["downgraded"][0]["params"]["declaration"] == "jump"


def test_partner_flag_break_and_wrong_phase_commands(api: QuizApi) -> None:
    started(api)
    assert api.cmd("partner", expect=409)["error"]["code"] == "wrong_phase"
    assert api.cmd("lock", expect=409)["error"]["code"] == "wrong_phase"
    api.cmd("open_question")
    assert api.cmd("open_question", expect=400)["error"]["rule"] == "Q2"
    assert api.cmd("open_answering", expect=409)["error"]["code"] == "wrong_phase"
    assert api.cmd("partner", partner=True)["open"]["partner_flag"]
    api.cmd("lock")
    assert api.cmd("lock", expect=400)["error"]["rule"] == "Q3"
    api.cmd("open_answering", seconds=30)
    api.answer("A", 1, RIGHT)
    api.cmd("close_answering")
    api.judge_texts(1, {RIGHT})
    resolved = api.cmd("resolve")
    assert {t["name"]: t["points"] for t in resolved["standings"]["teams"]}["A"] == 2
    assert api.cmd("break")["phase"]["stage"] == "between"
    assert api.cmd("lightning", expect=400, teams=["A", "B"])["error"]["rule"] == "Q29"
    assert api.cmd("start", expect=409)["error"]["code"] == "wrong_phase"
    assert api.client.post(api.url("judge/explode"), json={}, headers=api.host).status_code == 404


def test_lightning_round_settles_a_prize_tie(api: QuizApi) -> None:
    started(api, teams=("A", "B", "C"), questions=1, prize_places=1)
    done = api.play(1, {"A": RIGHT, "B": RIGHT}, {RIGHT})
    assert done["phase"]["stage"] == "lightning"
    assert done["standings"]["lightning_required"] == [{"place": 1, "teams": ["A", "B"]}]
    wrong = api.cmd("lightning", expect=422, teams=["A", "B"], right=["C"])
    assert wrong["error"]["code"] == "invalid_request"
    settled = api.cmd("lightning", teams=["A", "B"], right=["B"])
    assert settled["phase"]["stage"] == "finished"
    assert [t["name"] for t in settled["standings"]["teams"]][:2] == ["B", "A"]
    assert api.cmd("open_question", expect=409)["error"]["code"] == "game_over"


# ------------------------------------------------------------ results/exports
def test_results_are_private_until_the_end(api: QuizApi, client: TestClient) -> None:
    started(api, questions=1, prize_places=1)
    for path in ("results", "export.csv", "export.json", "protocol.json"):
        assert client.get(api.url(path)).status_code == 403
        assert client.get(api.url(path), headers=bearer(api.tokens["A"])).status_code == 403
        assert client.get(api.url(path), headers=api.host).status_code == 200
        # a token in the URL would reach access logs: only the header counts
        assert client.get(api.url(path), params={"host": api.host_token}).status_code == 403
    api.play(1, {"A": RIGHT, "B": WRONG}, {RIGHT})
    for path in ("results", "export.csv", "export.json", "protocol.json"):
        assert client.get(api.url(path)).status_code == 200
    csv_text = client.get(api.url("export.csv")).text.removeprefix("\ufeff")
    header, *rows = csv_text.strip().splitlines()
    assert header.startswith("part,question,team,place,declaration")
    assert len(rows) == 3 and any(",Rome," in r for r in rows)


def test_scenario_protocol_export_scores_to_the_live_result(
    api: QuizApi, client: TestClient, tmp_path: Path
) -> None:
    run_scenario(api)
    final = api.projector()
    assert final["phase"]["stage"] == "finished"
    standings = final["standings"]
    assert standings["king"] == "Bears" and standings["reason"] == "king_held"
    assert {t["name"]: t.get("spurs") for t in standings["teams"]}["Owls"] == [3]
    protocol = client.get(api.url("protocol.json")).json()
    scored = result_json(score_protocol(protocol))
    assert [(t["name"], t["place"], t["points"], t["position"]) for t in scored["teams"]] == [
        (t["name"], t["place"], t["points"], t["position"]) for t in standings["teams"]
    ]
    assert scored["king"] == "Bears" and scored["reason"] == "king_held"
    results = client.get(api.url("results")).json()
    q2 = results["parts"][0]["questions"][1]
    assert q2["partner"] and q2["rows"][0]["declaration"] == "jump"
    assert results["parts"][0]["questions"][2]["rows"][0]["spur"]
    assert results["parts"][0]["appeals"][0]["comment"] == "accepted"


def test_semifinals_and_final(api: QuizApi, client: TestClient) -> None:
    api.create(format="semifinals", qualifiers=1, questions=1, final_questions=3, steps=5)
    for team in ("A", "B", "C", "D"):
        api.join(team)
    assert api.judge_view()["next_part"] == {"name": "semifinal 1", "teams": ["A", "C"]}
    api.cmd("start")
    api.cmd("break")  # before the first question (Q31)
    assert api.answer("B", 1, "x", expect=409)["error"]["code"] == "wrong_phase"
    api.play(1, {"A": RIGHT, "C": WRONG}, {RIGHT})
    assert api.team_view("B")["me"]["plays"] is False
    # the evening so far exports as a protocol that scores: semifinal 1 alone, with why it ended
    so_far = client.get(api.url("protocol.json"), headers=api.host).json()
    assert [p["name"] for p in so_far["parts"]] == ["semifinal 1"]
    assert so_far["parts"][0]["end_reason"] == "questions_exhausted"
    assert result_json(score_protocol(so_far))["stage"] == "semifinal 1"
    api.cmd("start")
    api.play(1, {"B": RIGHT, "D": RIGHT}, {RIGHT})
    view = api.judge_view()
    assert view["phase"]["stage"] == "lightning" and view["next_part"] is None
    assert api.cmd("start", expect=409)["error"]["code"] == "wrong_phase"
    api.cmd("lightning", teams=["B", "D"], right=["D"])
    assert api.judge_view()["next_part"] == {"name": "final", "teams": ["A", "D"]}
    api.cmd("start")
    for q in (1, 2, 3):
        api.play(q, {"A": RIGHT, "D": WRONG if q < 3 else RIGHT}, {RIGHT})
    final = api.projector()
    assert final["phase"]["event_finished"]
    protocol = client.get(api.url("protocol.json")).json()
    assert protocol["parts"][0]["breaks"] == [0]
    assert all(p["end_reason"] for p in protocol["parts"])
    scored = result_json(score_protocol(protocol))
    assert scored["format"] == "semifinals" and scored["stage"] == "final"
    assert [t["name"] for t in scored["teams"]] == [t["name"] for t in final["standings"]["teams"]]
    assert api.cmd("start", expect=409)["error"]["code"] == "wrong_phase"


def test_restart_folds_the_log_back(sqlite_url: str) -> None:
    with TestClient(create_app(make_settings(sqlite_url))) as first:
        api = QuizApi(first)
        started(api)
        api.play(1, {"A": RIGHT, "B": WRONG}, {RIGHT})
        api.cmd("open_question")
        api.cmd("lock")
        api.cmd("open_answering", seconds=600)
        api.answer("A", 2, "kept", sid="restart-sid-1")
        before = api.judge_view()
    with TestClient(create_app(make_settings(sqlite_url))) as second:
        api.client = second
        after = api.judge_view()
        for key in ("seq", "standings", "open", "closed", "teams"):
            assert after[key] == before[key]
        assert api.answer("A", 2, "kept", sid="restart-sid-1")["duplicate"]


def test_postgresql_roundtrip(database_url: str) -> None:
    with TestClient(create_app(make_settings(database_url))) as client:
        api = QuizApi(client)
        started(api)
        api.play(1, {"A": RIGHT, "B": WRONG}, {RIGHT})
        api.cmd("open_question")
        api.cmd("lock")
        api.cmd("open_answering", seconds=600)
        sid = "pg-sid-0001"
        assert not api.answer("A", 2, "x", sid=sid)["duplicate"]
        assert api.answer("A", 2, "x", sid=sid)["duplicate"]
    with TestClient(create_app(make_settings(database_url))) as client:
        api.client = client
        assert api.judge_view()["open"]["answered"] == 1


# --------------------------------------------------------------- small parts
def test_answer_grouping_key() -> None:
    from koth.server.quiz.ops import normalise_answer

    assert normalise_answer("  Ёлка!! ") == normalise_answer("елка") == "елка"
    assert normalise_answer("Jean-Paul  SARTRE") == "jean paul sartre"
    assert normalise_answer("Paris") != normalise_answer("Parish")


def test_language_choice(client: TestClient) -> None:
    from koth.server.quiz.i18n import pick_language, strings

    RU, EN = strings("ru"), strings("en")
    assert set(EN) == set(RU)
    assert pick_language(None, "ru-RU,ru;q=0.9,en;q=0.8") == "ru"
    assert pick_language(None, "de-DE,en;q=0.5,ru;q=0.7") == "ru"
    assert pick_language(None, "de") == "en"
    assert pick_language("en", "ru") == "en"
    page = client.get("/quiz", headers={"Accept-Language": "ru"})
    assert RU["host_title"] == "Провести игру" and RU["host_title"] in page.text
    assert '<html lang="ru">' in page.text
    switched = client.get("/quiz/lang/en", params={"next": "/quiz"}, follow_redirects=False)
    assert switched.status_code == 303 and switched.cookies.get("koth_lang") == "en"
    client.cookies.set("koth_lang", "en")
    page = client.get("/quiz", headers={"Accept-Language": "ru"})
    assert EN["host_title"] in page.text
    evil = client.get("/quiz/lang/ru", params={"next": "//evil.example"}, follow_redirects=False)
    assert evil.headers["location"] == "/quiz"


def test_pages_render(api: QuizApi, client: TestClient) -> None:
    api.create()
    for page in ("team", "judge", "projector", "results"):
        assert client.get(f"/quiz/{api.event_id}/{page}").status_code == 200
    assert client.get("/quiz/join", params={"code": api.join_code}).status_code == 200
    assert client.get("/quiz/nope/judge").status_code == 404
    assert "/quiz" in client.get("/").text


def test_csv_cells_never_start_a_formula(api: QuizApi, client: TestClient) -> None:
    started(api, questions=1, prize_places=1)
    api.play(1, {"A": "=HYPERLINK(1)", "B": RIGHT}, {RIGHT})
    english = client.get(api.url("export.csv")).text
    assert ",'=HYPERLINK(1)," in english
    assert english.startswith("\ufeffpart,question,team,place,declaration,late_declaration,")
    russian = client.get(api.url("export.csv"), headers={"Accept-Language": "ru"}).text
    assert russian.startswith("\ufeffэтап,вопрос,команда,место,заявка,поздняя заявка,")


@pytest.mark.timeout(30)
def test_every_phone_learns_of_each_join_before_the_start(api: QuizApi, client: TestClient) -> None:
    api.create()
    token = api.join("A")
    with client.websocket_connect(api.url("ws")) as phone:
        phone.send_json({"type": "hello", "role": "team", "token": token})
        assert phone.receive_json()["teams_joined"] == 1
        time.sleep(0.3)  # the broadcast of A's own join has gone out by now
        phone.send_json({"type": "ping"})
        while phone.receive_json()["type"] != "pong":  # drained up to here
            pass
        api.join("B")
        frame = phone.receive_json()  # only B's join can send one now
        assert frame["teams_joined"] == 2
