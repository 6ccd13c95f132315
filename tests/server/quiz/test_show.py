"""The show through the API: a question pack and its pictures, the screen command, what
the projector, phones and judge see of a question and when."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from koth.games.quiz.pack import PICTURE_MAX_BYTES
from koth.server.settings import Settings
from tests.server.quiz.helpers import QuizApi, bearer, started, values_of

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "quiz" / "pack"
PACK = (EXAMPLES / "pack.csv").read_text(encoding="utf-8")
PNG = (EXAMPLES / "mountain.png").read_bytes()


def evening(api: QuizApi, **settings: Any) -> None:
    api.create(title="Show", teams=["Owls", "Bears", "Cats"], spurs_per_slope=0, **settings)
    for team in ("Owls", "Bears", "Cats"):
        api.join(team)
    api.cmd("pack", form="csv", text=PACK)


def put_picture(api: QuizApi, name: str, data: bytes, token: str | None = None) -> Any:
    headers = bearer(token or api.host_token)
    return api.client.put(api.url(f"pictures/{name}"), content=data, headers=headers)


def test_a_pack_loads_and_names_its_missing_pictures(api: QuizApi) -> None:
    evening(api)
    pack = api.judge_view()["pack"]
    assert pack == {
        "title": "",
        "questions": 5,
        "backup_questions": 1,
        "lightning_questions": 0,
        "pictures": ["mountain.png"],
        "missing_pictures": ["mountain.png"],
        "media": [],
        "missing_media": [],
    }
    response = put_picture(api, "mountain.png", PNG)
    assert response.status_code == 200 and response.json()["mime"] == "image/png"
    assert api.judge_view()["pack"]["missing_pictures"] == []


def test_a_bad_pack_is_refused_naming_line_and_field_and_changes_nothing(api: QuizApi) -> None:
    evening(api)
    before = api.judge_view()
    body = api.cmd("pack", expect=422, form="csv", text="number,text,answer\nx,Q,A\n")
    message = body["error"]["message"]
    assert "line 2, field 'number'" in message and body["error"]["code"] == "invalid_request"
    after = api.judge_view()
    assert after["seq"] == before["seq"] and after["pack"] == before["pack"]


@pytest.mark.parametrize(
    ("name", "data", "expected"),
    [
        ("a.png", b"<svg/>", "not a PNG, JPEG, WebP or GIF file"),
        ("a.png", PNG + b"0" * 210_000, "bytes, more than the 204800 allowed"),
        ("%2E%2E", PNG, "a picture is a plain file name without folders (got '..')"),
        ("a%5Cb.png", PNG, "a picture is a plain file name without folders"),
    ],
)
def test_pictures_are_checked(api: QuizApi, name: str, data: bytes, expected: str) -> None:
    evening(api)
    before = api.judge_view()["seq"]
    response = put_picture(api, name, data)
    assert response.status_code == 422, response.text
    assert expected in response.json()["error"]["message"]
    assert api.judge_view()["seq"] == before  # nothing stored


def test_a_picture_over_the_body_limit_is_refused_before_it_is_read(api: QuizApi) -> None:
    evening(api)
    assert put_picture(api, "a.png", PNG + b"0" * 300_000).status_code == 413


def test_the_server_refuses_no_picture_the_pack_check_passes() -> None:
    """``koth quiz pack check`` and the server start from one limit (tests/games/quiz)."""
    assert Settings.model_fields["quiz_picture_bytes"].default == PICTURE_MAX_BYTES
    assert Settings.model_fields["quiz_picture_bytes"].default <= Settings().max_body_bytes


def test_only_the_host_stores_pictures(api: QuizApi) -> None:
    evening(api)
    assert put_picture(api, "mountain.png", PNG, token=api.tokens["Owls"]).status_code == 403


def test_the_screen_follows_the_question(api: QuizApi) -> None:
    evening(api, phones_show_question=True, steps=3)
    # question 4 has the picture: Owls climb to the Peak first, so Bears can challenge
    lines = PACK.splitlines()
    pack = [
        lines[0],
        lines[1],
        lines[3].replace("3,", "2,", 1),
        lines[5].replace("5,", "3,", 1),
        lines[2].replace("2,", "4,", 1),
    ]
    api.cmd("pack", form="csv", text="\n".join(pack) + "\n")
    put_picture(api, "mountain.png", PNG)
    picture = api.url("pictures/mountain.png")
    assert api.client.get(picture).status_code == 404  # not shown yet: it would give it away
    assert api.client.get(picture, headers=api.host).status_code == 200
    api.cmd("start")
    api.play(1, {"Owls": "right"}, {"right"})
    for number in (2, 3):  # Owls reach the Peak, Bears stand one step below it
        api.play(number, {"Owls": "right", "Bears": "right"}, {"right"})
    api.cmd("open_question")
    api.declare("Bears", 4, "revolution")
    assert api.projector()["revolutions"] == []  # declarations stay secret until locked
    assert api.judge_view()["expected"]["answer"] == "A mountain"
    assert api.projector()["screen"] is None
    api.cmd("lock")
    assert api.projector()["revolutions"] == ["Bears"]
    assert api.team_view("Owls")["question_text"] is None
    api.cmd("screen", show="question")
    screen = api.projector()["screen"]
    assert screen["text"] == "What is shown in the picture?" and screen["answer"] is None
    assert screen["picture"].endswith("/pictures/mountain.png")
    got = api.client.get(picture)
    assert (
        got.status_code == 200 and got.content == PNG and got.headers["content-type"] == "image/png"
    )
    assert api.team_view("Owls")["question_text"] == "What is shown in the picture?"
    api.cmd("open_answering", seconds=600)
    refused = api.cmd("screen", expect=409, show="answer")
    assert "once answering is over" in refused["error"]["message"]
    api.answer("Owls", 4, "Гора!")
    api.answer("Cats", 4, "a volcano")
    api.cmd("close_answering")
    groups = {g["text"]: g["matches"] for g in api.judge_view()["open"]["groups"]}
    assert groups == {"Гора!": True, "a volcano": False}
    api.cmd("screen", show="answer")
    screen = api.projector()["screen"]
    assert screen["answer"] == "A mountain" and "гора" in screen["accepted"]
    api.cmd("screen", show="standings")
    assert api.projector()["screen"] is None


def test_no_answer_reaches_a_screen_before_it_is_revealed(api: QuizApi) -> None:
    evening(api, phones_show_question=True)
    api.cmd("start")
    api.cmd("open_question")
    api.cmd("lock")
    api.cmd("screen", show="question")
    api.cmd("open_answering", seconds=600)
    api.answer("Owls", 1, "K2")
    for _audience, body in [("projector", api.projector()), ("Owls", api.team_view("Owls"))]:
        assert "Everest" not in str(body) and not values_of("answer", body.get("screen") or {})


def test_phones_see_no_question_text_unless_the_host_chose_it(api: QuizApi) -> None:
    evening(api)
    api.cmd("start")
    api.cmd("open_question")
    api.cmd("screen", show="question")
    assert api.team_view("Owls")["question_text"] is None


def test_an_evening_without_a_pack_shows_the_number_only(api: QuizApi) -> None:
    api.create(title="Paper", teams=["Owls", "Bears"], spurs_per_slope=0)
    api.cmd("start")
    api.cmd("open_question")
    api.cmd("screen", show="question")
    assert api.projector()["screen"] == {
        "question": 1,
        "show": "question",
        "text": None,
        "picture": None,
        "partner": None,
        "answer": None,
        "accepted": [],
        "comment": None,
        "lightning": False,
        "media": None,
    }
    assert api.judge_view()["expected"] is None


def test_the_log_replays_the_show(api: QuizApi, client: Any) -> None:
    evening(api)
    put_picture(api, "mountain.png", PNG)
    api.cmd("start")
    api.cmd("open_question")
    api.cmd("screen", show="question")
    from koth.server.quiz.live import load_model

    quiz = client.app.state.quiz
    model = load_model(quiz.repo, api.event_id)
    assert model.pack is not None and model.pictures == {"mountain.png": "image/png"}
    assert model.current_part().questions[0].screen == "question"


def test_the_packs_lightning_questions_are_shown_in_order_while_a_tie_is_played_off(
    api: QuizApi,
) -> None:
    started(api, questions=1, prize_places=1)
    text = "number,text,answer,lightning\n1,Q,Paris,\n1,Quick one,Q1,yes\n2,Quick two,Q2,yes\n"
    api.cmd("pack", form="csv", text=text)
    assert api.judge_view()["pack"]["lightning_questions"] == 2
    assert api.projector().get("screen") is None  # nothing before the tie
    api.play(1, {"A": "Paris", "B": "Paris"}, {"Paris"})
    for number in (1, 2):
        judge, screen = api.judge_view()["expected"], api.projector()["screen"]
        assert (judge["question"], judge["text"], judge["answer"]) == (
            number,
            f"Quick {'one' if number == 1 else 'two'}",
            f"Q{number}",
        )
        assert judge["lightning"] and screen["lightning"] and screen["question"] == number
        assert screen["text"] == judge["text"] and screen.get("answer") is None
        api.cmd("lightning", teams=["A", "B"], right=["A", "B"] if number == 1 else ["B"])
    assert api.judge_view()["phase"]["stage"] == "finished"
    assert api.judge_view().get("expected") is None and api.projector().get("screen") is None
