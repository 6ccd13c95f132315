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
from tests.server.quiz.helpers import QuizApi, bearer, started


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
