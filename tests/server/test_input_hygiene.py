"""Bad input anywhere gets a clear refusal that names what is wrong and changes
nothing: odd ids, names and answers, unreadable bodies, settings that cannot start; and
the headers and the schema say what the app does."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.server.conftest import create_game
from tests.server.quiz.helpers import QuizApi, bearer

NUL_PATHS = [
    "/api/games/a%00b",
    "/api/games/a%00b/replay",
    "/api/games/a%00b/record",
    "/games/a%00b",
    "/games/a%01b/replay",
    "/api/quiz/events/a%00b/projector",
    "/api/quiz/events/a%00b/results",
    "/api/quiz/events/a%00b/qr.svg",
    "/quiz/a%00b/projector",
]


@pytest.mark.parametrize("path", NUL_PATHS)
def test_ids_with_control_characters_are_unknown(client: TestClient, path: str) -> None:
    assert client.get(path).status_code == 404


def test_control_characters_in_actions_codes_and_queries(client: TestClient) -> None:
    action = client.post("/api/games/a%00b/actions", json={"action": "x"})
    assert action.status_code == 404
    join = client.post("/api/quiz/join", json={"code": "AB\u0000CD", "team": "x"})
    assert join.status_code == 422 and "U+0000" in join.json()["error"]["message"]
    status = client.get("/api/games", params={"status": "a\u0000"})
    assert status.status_code == 422 and status.json()["error"]["code"] == "malformed_request"
    assert client.get("/api/games", params={"status": "garbage"}).status_code == 422


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("A\u0000B", "NUL"),
        ("\u200b", "zero-width"),
        ("\u202eOwls", "direction"),
        ("   ", "visible"),
        ("x" * 41, "visible"),
        # look-alikes of "Alpha" with a character that shows as nothing
        *((f"Alpha{c}", "invisible") for c in "\ufe0f\ufe00\u034f\u180b\u115f"),
        # blank-looking names, and combining marks with nothing to sit on
        *((c, "character") for c in ("\u3164", "\u2800", "\u17b4", "\u0301\u0308")),
    ],
)
def test_team_names_that_do_not_show_as_typed_are_refused(
    client: TestClient, name: str, why: str
) -> None:
    api = QuizApi(client)
    api.create()
    response = client.post("/api/quiz/join", json={"code": api.join_code, "team": name})
    assert response.status_code == 422, response.text
    message = response.json()["error"]["message"]
    assert "character" in message and why in message, message
    assert api.judge_view()["teams"] == []


@pytest.mark.parametrize("twin", ["owls", "OWLS", "\u041ewls", "  Owls ", "\uff2fwls"])
def test_a_name_that_reads_as_a_joined_team_is_taken(client: TestClient, twin: str) -> None:
    api = QuizApi(client)
    api.create()
    api.join("Owls")
    response = client.post("/api/quiz/join", json={"code": api.join_code, "team": twin})
    assert response.status_code == 409 and response.json()["error"]["code"] == "name_taken"
    assert [t["name"] for t in api.judge_view()["teams"]] == ["Owls"]


def test_names_are_stored_normalised(client: TestClient) -> None:
    api = QuizApi(client)
    api.create(teams=["\uff21lpha"])  # a full-width A
    assert [t["name"] for t in api.judge_view()["teams"]] == ["Alpha"]
    duplicate = client.post("/api/quiz/events", json={"teams": ["Owls", "OWLS"]})
    assert duplicate.status_code == 422 and "teams" in duplicate.json()["error"]["message"]


@pytest.mark.parametrize("text", ["\u0000", " \u200b ", "?!", "..."])
def test_an_answer_with_nothing_to_read_is_no_answer(client: TestClient, text: str) -> None:
    api = QuizApi(client)
    api.create(teams=["A", "B"])
    token = api.join("C")
    for command in ("start", "open_question", "lock", "open_answering"):
        api.cmd(command)
    body = {"question": 1, "text": text, "submission_id": "sub-000001"}
    response = client.post(api.url("answer"), json=body, headers=bearer(token))
    assert response.status_code == 422, response.text
    assert api.judge_view()["open"]["answered"] == 0


@pytest.mark.parametrize(
    ("settings", "field"),
    [
        ({"steps": 5, "spurs_per_slope": 2}, "spurs_per_slope"),
        ({"spur_seed": False}, "spur_seed"),
        ({"steps": "many"}, "steps"),
    ],
)
def test_settings_that_can_never_start_are_refused_at_creation(
    client: TestClient, settings: dict[str, Any], field: str
) -> None:
    response = client.post("/api/quiz/events", json=settings)
    assert response.status_code == 422, response.text
    assert field in response.json()["error"]["message"]


@pytest.mark.parametrize(
    "body",
    [b'{"game": "\xff\xfe"}', b"[" * 1000 + b"]" * 1000, b'{"game": '],
)
def test_unreadable_bodies_are_malformed_requests(client: TestClient, body: bytes) -> None:
    response = client.post("/api/games", content=body, headers={"Content-Type": "application/json"})
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "malformed_request"


def test_a_wrong_method_names_the_allowed_ones(client: TestClient) -> None:
    response = client.delete("/api/games")
    assert response.status_code == 405 and response.json()["error"]["code"] == "method_not_allowed"
    assert set(response.headers["Allow"].replace(" ", "").split(",")) >= {"GET", "POST"}
    assert "DELETE" not in response.headers["Allow"]


def test_every_text_cell_of_the_csv_is_neutralised(client: TestClient) -> None:
    api = QuizApi(client)
    api.create(teams=['=HYPERLINK("http://x.y","c")', "@SUM(A1)", "+1"], questions=1)
    api.cmd("start")
    rows = list(
        csv.DictReader(io.StringIO(client.get(api.url("export.csv"), headers=api.host).text))
    )
    assert rows == []  # no question closed yet: nothing to list
    for command in ("open_question", "lock", "open_answering"):
        api.cmd(command)
    api.cmd("answer_for_team", team="@SUM(A1)", text="-2+3")
    api.cmd("judge", teams=["@SUM(A1)"], correct=True)
    api.cmd("resolve")
    text = client.get(api.url("export.csv"), headers=api.host).text
    rows = list(csv.DictReader(io.StringIO(text)))
    teams = {row["team"] for row in rows}
    assert teams == {'\'=HYPERLINK("http://x.y","c")', "'@SUM(A1)", "'+1"}
    assert {row["answer"] for row in rows} == {"", "'-2+3"}
    assert all(not cell.startswith(("=", "+", "-", "@")) for row in rows for cell in row.values())


def test_pages_send_the_security_headers(client: TestClient) -> None:
    for path in ("/", "/quiz", f"/games/{create_game(client).id}"):
        headers = client.get(path).headers
        policy = headers["Content-Security-Policy"]
        assert "script-src 'self'" in policy and "unsafe-inline" not in policy
        assert headers["X-Content-Type-Options"] == "nosniff"
        assert headers["X-Frame-Options"] == "DENY" and headers["Referrer-Policy"] == "no-referrer"


def test_optional_tokens_are_optional_in_the_schema(client: TestClient) -> None:
    document = client.get("/openapi.json").json()
    spectate = document["paths"]["/api/games/{game_id}"]["get"]
    assert {} in spectate["security"] and {"SeatToken": []} in spectate["security"]
