"""NUL characters (U+0000) are refused with 422 before any work, on both databases
(PostgreSQL cannot store one); a database error never prints a statement's parameters."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from koth.server.database import make_engine
from tests.server.conftest import create_game
from tests.server.quiz.helpers import QuizApi, bearer


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/quiz/events", {"title": "Quiz\x00night"}),
        ("/api/quiz/events", {"teams": ["Owls", "Ow\x00ls"]}),
        ("/api/quiz/series", {"title": "Season\x00one"}),
        ("/api/games", {"game": "toy_duel", "params": {"x\x00": 1}}),
    ],
)
def test_a_nul_in_a_body_is_refused(client: TestClient, path: str, body: dict[str, Any]) -> None:
    response = client.post(path, json=body)
    assert response.status_code == 422, response.text
    assert "U+0000" in response.json()["error"]["message"]


def test_a_nul_in_answers_and_picture_names_is_refused(client: TestClient) -> None:
    api = QuizApi(client)
    api.create(title="Nul")
    token = api.join("Owls")
    api.join("Larks")
    for command in ("start", "open_question", "lock", "open_answering"):
        api.cmd(command)
    answer = {"question": 1, "text": "Par\x00is", "submission_id": "sub-00000001"}
    refused = client.post(api.url("answer"), json=answer, headers=bearer(token))
    assert refused.status_code == 422
    picture = client.put(
        api.url("pictures/a%00b.png"), content=b"\x89PNG\r\n\x1a\n" + b"0" * 64, headers=api.host
    )
    assert picture.status_code == 422
    assert client.get(api.url("pictures/a%00b.png"), headers=api.host).status_code == 404
    assert api.judge_view()["open"]["groups"] == []
    game = create_game(client)
    move = {"action": "stake\x001"}
    assert (
        client.post(f"/api/games/{game.id}/actions", json=move, headers=game.auth(0)).status_code
        == 422
    )


def test_database_errors_hide_their_parameters(database_url: str) -> None:
    engine = make_engine(database_url)
    secret = "join-code-K7Q2PX"
    try:
        with pytest.raises(DBAPIError) as failed, engine.connect() as connection:
            connection.execute(text("SELECT * FROM no_such_table WHERE x = :x"), {"x": secret})
        assert secret not in str(failed.value)
        assert "hidden" in str(failed.value)
    finally:
        engine.dispose()
