"""The host's control of a quiz evening through the API: idempotent commands, team list
edits, withdrawals and the judging safety nets. Every new op is checked to replay (a
fresh fold of the stored log gives the same picture) and bad input to change nothing."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from koth.server.app import create_app
from tests.server.conftest import make_settings
from tests.server.quiz.helpers import QuizApi, answered, bearer, started


def keyed(api: QuizApi, name: str, key: str, **body: Any) -> Any:
    return api.client.post(
        api.url(f"judge/{name}"), json=body, headers={**api.host, "Idempotency-Key": key}
    )


class Restartable:
    """The app on one SQLite file; ``restart`` stops it and folds the log afresh."""

    def __init__(self, sqlite_url: str) -> None:
        self.url = sqlite_url
        self.client = TestClient(create_app(make_settings(sqlite_url)))
        self.client.__enter__()

    def restart(self, api: QuizApi) -> None:
        self.client.__exit__(None, None, None)
        self.client = TestClient(create_app(make_settings(self.url)))
        self.client.__enter__()
        api.client = self.client


@pytest.fixture
def app(sqlite_url: str) -> Iterator[Restartable]:
    app = Restartable(sqlite_url)
    try:
        yield app
    finally:
        app.client.__exit__(None, None, None)


@pytest.fixture
def api(app: Restartable) -> QuizApi:
    return QuizApi(app.client)


def replays(api: QuizApi, app: Restartable) -> dict[str, Any]:
    """The judge's picture is the same after a restart (the log folded afresh)."""
    before = api.judge_view()
    app.restart(api)
    after = api.judge_view()
    for key in ("teams", "standings", "open", "closed", "appeals", "seq", "next_part"):
        assert after[key] == before[key], key
    return after


# --------------------------------------------------------------- idempotency
@pytest.mark.parametrize(
    ("name", "body"),
    [
        ("open_question", {}),
        ("add_team", {"team": "Late"}),
        ("break", {}),
    ],
)
def test_a_command_resent_with_its_key_is_applied_once(
    api: QuizApi, name: str, body: dict[str, Any]
) -> None:
    if name == "add_team":
        api.create(steps=6, questions=10, spurs_per_slope=0)
    else:
        started(api)
    first = keyed(api, name, "key-00000001", **body)
    assert first.status_code == 200, first.text
    again = keyed(api, name, "key-00000001", **body)
    assert again.status_code == 200, again.text
    assert again.json()["duplicate"] is True and first.json()["duplicate"] is False
    assert again.json()["applied_seq"] == first.json()["applied_seq"]
    assert again.json()["seq"] == first.json()["seq"]


def test_a_key_survives_a_restart(api: QuizApi, app: Restartable) -> None:
    started(api)
    first = keyed(api, "open_question", "restart-key-1")
    replays(api, app)
    response = keyed(api, "open_question", "restart-key-1")
    assert response.status_code == 200, response.text
    assert response.json()["duplicate"] is True
    assert response.json()["seq"] == first.json()["seq"]


@pytest.mark.parametrize("key", ["short", "x" * 65, "has space!", "key/with/slashes"])
def test_a_malformed_key_is_refused_and_changes_nothing(api: QuizApi, key: str) -> None:
    started(api)
    seq = api.judge_view()["seq"]
    response = api.client.post(
        api.url("judge/open_question"),
        json={},
        headers={**api.host, "Idempotency-Key": key},
    )
    assert response.status_code == 422, response.text
    assert "Idempotency-Key" in response.json()["error"]["message"]
    assert api.judge_view()["seq"] == seq


def test_a_declaration_resent_with_its_key_is_applied_once(api: QuizApi) -> None:
    started(api)
    api.cmd("open_question")
    headers = {**bearer(api.tokens["A"]), "Idempotency-Key": "decl-key-1"}
    body = {"question": 1, "declaration": "ordinary"}
    seq = api.judge_view()["seq"]
    for _ in range(2):
        response = api.client.post(api.url("declaration"), json=body, headers=headers)
        assert response.status_code == 200, response.text
    assert api.judge_view()["seq"] == seq + 1


def test_an_answer_typed_by_the_judge_takes_the_key_as_submission_id(api: QuizApi) -> None:
    started(api)
    api.cmd("open_question")
    api.cmd("lock")
    for _ in range(2):
        response = keyed(api, "answer_for_team", "typed-key-1", team="B", text="Paris")
        assert response.status_code == 200, response.text
    assert api.judge_view()["open"]["answered"] == 1


# ------------------------------------------------------------------ team list
def rename(api: QuizApi, team: str, name: str) -> dict[str, Any]:
    response = api.client.post(
        api.url("judge/rename_team"), json={"team": team, "name": name}, headers=api.host
    )
    assert response.status_code == 200, response.text
    out: dict[str, Any] = response.json()
    return out


def test_before_the_start_the_host_renames_removes_merges_and_locks(
    api: QuizApi, app: Restartable
) -> None:
    api.create(steps=6, hold_moves=2, questions=10, spurs_per_slope=0, teams=["Listed"])
    for team in ("Owls", "Bears", "Cats", "Dogs"):
        api.join(team)
    rename(api, "Owls", "  Night   Owls ")
    api.cmd("remove_team", team="Listed")
    api.cmd("merge_teams", team="Dogs", into="Cats")
    view = api.cmd("lock_joining", locked=True)
    assert [t["name"] for t in view["teams"]] == ["Night Owls", "Bears", "Cats"]
    assert view["control"]["joining_locked"] is True
    assert [c["kind"] for c in view["control"]["changes"]] == [
        "renamed",
        "removed",
        "merged",
        "joining_locked",
    ]
    # the renamed team's phone acts as its new name; the absorbed team's phone as Cats
    assert api.team_view("Owls")["team"] == "Night Owls"
    assert api.team_view("Dogs")["team"] == "Cats"
    refused = api.client.post("/api/quiz/join", json={"code": api.join_code, "team": "Late"})
    assert refused.status_code == 409 and "locked" in refused.json()["error"]["message"]
    api.cmd("add_team", team="Paper")  # the host still adds teams
    api.cmd("lock_joining", locked=False)
    api.join("Late")
    after = replays(api, app)
    assert after["control"]["joining_locked"] is False
    api.cmd("start")
    assert api.judge_view()["standings"]["teams"][0]["name"] in {
        "Night Owls",
        "Bears",
        "Cats",
        "Paper",
        "Late",
    }


def test_a_removed_team_that_joins_again_is_logged_as_back(api: QuizApi, app: Restartable) -> None:
    api.create(steps=6, hold_moves=2, questions=10, spurs_per_slope=0)
    api.join("Owls")
    api.cmd("remove_team", team="Owls")
    api.join("Owls")
    changes = replays(api, app)["control"]["changes"]
    assert [(c["kind"], c["team"]) for c in changes] == [("removed", "Owls"), ("rejoined", "Owls")]


@pytest.mark.parametrize(
    ("name", "body", "status", "words"),
    [
        ("rename_team", {"team": "Nobody", "name": "X"}, 404, "no team"),
        ("rename_team", {"team": "Owls", "name": "BEARS"}, 409, "too like"),
        ("rename_team", {"team": "Owls", "name": "Owls"}, 422, "already has"),
        ("rename_team", {"team": "Owls", "name": "a\u202eb"}, 422, "direction"),
        ("rename_team", {"team": "Owls"}, 422, "name"),
        ("remove_team", {"team": "Nobody"}, 404, "no team"),
        ("merge_teams", {"team": "Owls", "into": "Owls"}, 422, "itself"),
        ("merge_teams", {"team": "Owls", "into": "Nobody"}, 404, "no team"),
        ("lock_joining", {"locked": False}, 422, "already open"),
    ],
)
def test_bad_team_edits_are_refused_and_change_nothing(
    api: QuizApi, name: str, body: dict[str, Any], status: int, words: str
) -> None:
    api.create(steps=6, questions=10, spurs_per_slope=0)
    api.join("Owls")
    api.join("Bears")
    before = api.judge_view()
    response = api.client.post(api.url(f"judge/{name}"), json=body, headers=api.host)
    assert response.status_code == status, response.text
    assert words in response.json()["error"]["message"]
    after = api.judge_view()
    assert (after["seq"], after["teams"]) == (before["seq"], before["teams"])


@pytest.mark.parametrize(
    ("name", "body"),
    [
        ("remove_team", {"team": "A"}),
        ("merge_teams", {"team": "A", "into": "B"}),
        ("lock_joining", {"locked": True}),
    ],
)
def test_after_the_start_only_rename_and_withdraw(
    api: QuizApi, name: str, body: dict[str, Any]
) -> None:
    started(api)
    assert api.cmd(name, expect=409, **body)["error"]["code"] == "wrong_phase"


def test_a_rename_after_the_start_is_folded_into_every_question(
    api: QuizApi, app: Restartable
) -> None:
    started(api)
    api.play(1, {"A": "Paris", "B": "Rome"}, {"Paris"})
    api.cmd("open_question")
    api.declare("A", 2, "jump")
    view = rename(api, "A", "Aces")
    names = [t["name"] for t in view["standings"]["teams"]]
    assert "Aces" in names and "A" not in names
    assert view["open"]["declarations"] == {"Aces": "jump"}
    assert view["closed"][0]["rows"][0]["team"] in {"Aces", "B", "C"}
    assert api.team_view("A")["me"]["declaration"] == "jump"  # the phone kept its token
    replays(api, app)
    csv = api.client.get(api.url("export.csv"), headers=api.host).text
    assert ",Aces," in csv and ",A," not in csv and "renamed from A" in csv
    doc = api.client.get(api.url("export.json"), headers=api.host).json()
    assert doc["changes"][0] == {
        "seq": doc["changes"][0]["seq"],
        "kind": "renamed",
        "team": "Aces",
        "detail": "A",
        "part": "",
        "question": None,
    }
    protocol = api.client.get(api.url("protocol.json"), headers=api.host).json()
    assert "Aces" in protocol["teams"]


def test_a_withdrawn_team_answers_nothing_and_stays_in_the_results(
    api: QuizApi, app: Restartable
) -> None:
    started(api)
    api.play(1, {"A": "Paris", "B": "Paris", "C": "Rome"}, {"Paris"})
    view = api.cmd("withdraw_team", team="B")
    assert [t["withdrawn"] for t in view["teams"]] == [False, True, False]
    assert api.team_view("B")["withdrawn"] is True
    api.cmd("open_question")
    assert api.declare("B", 2, "jump", expect=409)["error"]["code"] == "wrong_phase"
    api.cmd("lock")
    api.cmd("open_answering", seconds=600)
    refused = api.answer("B", 2, "Paris", sid="withdrawn-sid-1", expect=409)
    assert "withdrawn" in refused["error"]["message"]
    assert "B" not in api.judge_view()["open"]["missing"]
    api.cmd("close_answering")
    api.cmd("resolve")
    after = replays(api, app)
    rows = {r["team"]: r for r in after["closed"][0]["rows"]}
    assert rows["B"]["correct"] is None  # no answer: counts as wrong (Q2, Q36)
    assert any(t["name"] == "B" for t in after["standings"]["teams"])
    csv = api.client.get(api.url("export.csv"), headers=api.host).text
    b_rows = [line for line in csv.splitlines() if line.startswith("game,") and ",B," in line]
    assert "withdrawn after question 1" in b_rows[1] and "withdrawn" not in b_rows[0]
    changes = api.client.get(api.url("export.json"), headers=api.host).json()["changes"]
    assert changes[0]["kind"] == "withdrawn" and changes[0]["team"] == "B"
    assert api.cmd("withdraw_team", team="B", expect=409)["error"]["message"].endswith(
        "has already withdrawn"
    )


# ------------------------------------------------------------ judging safety nets
def test_q36_a_withdrawal_is_undone_and_the_team_plays_again(
    api: QuizApi, app: Restartable
) -> None:
    started(api)
    api.play(1, {"A": "Paris", "B": "Paris", "C": "Rome"}, {"Paris"})
    assert api.cmd("return_team", team="B", expect=409)["error"]["message"].endswith(
        "has not withdrawn"
    )
    api.cmd("withdraw_team", team="B")
    assert api.projector()["withdrawn"] == ["B"]
    api.play(2, {"A": "Paris", "C": "Paris"}, {"Paris"})
    view = api.cmd("return_team", team="B")
    assert [t["withdrawn"] for t in view["teams"]] == [False, False, False]
    assert api.team_view("B")["withdrawn"] is False and api.projector()["withdrawn"] == []
    assert [(c["kind"], c["team"], c["question"]) for c in view["control"]["changes"]] == [
        ("withdrawn", "B", 1),
        ("returned", "B", 2),
    ]
    api.play(3, {"A": "Rome", "B": "Paris", "C": "Rome"}, {"Paris"})  # B answers again
    after = replays(api, app)
    moves = {r["team"]: r["correct"] for r in after["closed"][0]["rows"]}
    assert moves == {"A": False, "B": True, "C": False}
    missed = {r["team"]: r["correct"] for r in after["closed"][1]["rows"]}
    assert missed["B"] is None  # the question it missed while withdrawn: not answered (Q2)


def test_reopen_undoes_the_resolution_by_folding_the_log_again(
    api: QuizApi, app: Restartable
) -> None:
    started(api)
    api.play(1, {"A": "Paris", "B": "Rome"}, {"Paris"})
    before_q2 = api.judge_view()
    api.play(2, {"A": "Oslo", "B": "Oslo", "C": "Bern"}, {"Oslo"})
    assert api.judge_view()["control"]["reopenable"] == 2
    view = api.cmd("reopen")
    assert view["phase"]["stage"] == "judging" and view["open"]["question"] == 2
    assert view["standings"] == before_q2["standings"]  # question 2's moves are undone
    # judged again: Bern was right too
    api.cmd("judge", key="bern", correct=True)
    api.cmd("resolve")
    after = replays(api, app)
    rows = {r["team"]: r["correct"] for r in after["closed"][0]["rows"]}
    assert rows == {"A": True, "B": True, "C": True}
    assert [c["kind"] for c in after["control"]["changes"]] == ["reopened"]


@pytest.mark.parametrize("then", ["open_question", "appeal", "break"])
def test_reopen_is_refused_once_something_depends_on_the_resolution(
    api: QuizApi, then: str
) -> None:
    started(api)
    api.play(1, {"A": "Paris", "B": "Rome"}, {"Paris"})
    if then in ("open_question", "break"):
        api.cmd(then)
    else:
        api.cmd("appeal", question=1, team="B", correct=True)
    seq = api.judge_view()["seq"]
    refused = api.cmd("reopen", expect=409)
    assert refused["error"]["code"] == "wrong_phase"
    assert api.judge_view()["seq"] == seq


def test_mark_rest_wrong_judges_only_the_unjudged_answers(api: QuizApi) -> None:
    answered(started(api), 1, {"A": "Paris", "B": "Rome", "C": "Lyon"})
    api.cmd("judge", key="paris", correct=True)
    view = api.cmd("mark_rest_wrong")
    groups = {g["key"]: (g["right"], g["wrong"], g["unjudged"]) for g in view["open"]["groups"]}
    assert groups == {"paris": (1, 0, 0), "rome": (0, 1, 0), "lyon": (0, 1, 0)}
    assert "judged already" in api.cmd("mark_rest_wrong", expect=422)["error"]["message"]


def test_one_appeal_covers_a_whole_answer_group(api: QuizApi, app: Restartable) -> None:
    teams = tuple(f"T{i:02d}" for i in range(20))
    started(api, teams)
    api.play(1, {t: ("Peking" if i < 18 else "Paris") for i, t in enumerate(teams)}, {"Paris"})
    view = api.cmd("appeal_group", question=1, key="peking", correct=True, comment="old name")
    assert len(view["appeals"]) == 18
    rows = {r["team"]: r["correct"] for r in view["closed"][0]["rows"]}
    assert all(rows.values())
    replays(api, app)
    refused = api.cmd("appeal_group", question=1, key="nothing", correct=True, expect=404)
    assert "no answer" in refused["error"]["message"]
    mixed = api.cmd("appeal_group", question=1, teams=["T00", "T00"], correct=False, expect=422)
    assert "once" in mixed["error"]["message"]
