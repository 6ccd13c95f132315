"""Every page speaks the reader's language: ``<html lang>``, the header and the
templates' own texts come from the catalogs (the cookie wins over Accept-Language)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from koth.server.app import create_app
from tests.server.conftest import make_settings

PAGES = ["/", "/games/nope", "/games/nope/replay", "/quiz", "/quiz/join", "/quiz/nope/team"]


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db: Path = tmp_path_factory.mktemp("pages") / "pages.sqlite3"
    with TestClient(create_app(make_settings(f"sqlite:///{db}"))) as c:
        yield c


@pytest.mark.parametrize("path", PAGES)
@pytest.mark.parametrize(
    ("headers", "cookie", "lang", "header", "absent"),
    [
        ({"Accept-Language": "ru-RU,ru;q=0.9"}, None, "ru", "Царь горы", "King of the Hill"),
        ({"Accept-Language": "ru"}, "en", "en", "King of the Hill", "Царь горы"),
        ({}, "ru", "ru", "Царь горы", "King of the Hill"),
        ({}, None, "en", "King of the Hill", "Царь горы"),
    ],
)
def test_a_page_in_the_readers_language(
    client: TestClient,
    path: str,
    headers: dict[str, str],
    cookie: str | None,
    lang: str,
    header: str,
    absent: str,
) -> None:
    client.cookies.clear()
    if cookie is not None:
        client.cookies.set("koth_lang", cookie)
    page = client.get(path, headers=headers)
    assert page.headers["content-type"].startswith("text/html")
    assert f'<html lang="{lang}">' in page.text
    assert header in page.text and absent not in page.text


@pytest.mark.parametrize(
    ("path", "russian", "english"),
    [
        ("/", ["Новая партия", "Открытые и идущие партии", "Места"], ["New game", "Seats"]),
        ("/games/nope", ["Нет такой партии", "Назад в лобби"], ["No such game", "Back to"]),
        ("/quiz/nope/team", ["Нет такой игры или кода.", "Назад в лобби"], ["No such", "Back"]),
    ],
)
def test_page_texts_in_russian(
    client: TestClient, path: str, russian: list[str], english: list[str]
) -> None:
    client.cookies.clear()
    page = client.get(path, headers={"Accept-Language": "ru"})
    assert all(text in page.text for text in russian)
    assert not any(text in page.text for text in english)


def test_json_errors_keep_their_code_and_speak_russian(client: TestClient) -> None:
    client.cookies.clear()
    english = client.get("/api/quiz/events/nope/projector").json()["error"]
    russian = client.get(
        "/api/quiz/events/nope/projector", headers={"Accept-Language": "ru"}
    ).json()["error"]
    assert english == {"code": "not_found", "message": "no quiz event 'nope'"}
    assert russian == {"code": "not_found", "message": "нет игры «nope»"}
    missing = client.get("/no/such/page", headers={"Accept-Language": "ru"}).json()["error"]
    assert missing == {"code": "not_found", "message": "такой страницы нет"}
    malformed = client.post(
        "/api/quiz/events", json={"steps": "x"}, headers={"Accept-Language": "ru"}
    ).json()["error"]
    assert malformed["code"] == "malformed_request"
    assert malformed["message"] == "запрос составлен неверно (поля: body.steps)"


def test_game_page_scripts_get_their_texts_in_the_readers_language(client: TestClient) -> None:
    from koth.server.games.i18n import EN, PLURALS, UNIT_WORDS

    client.cookies.clear()
    for lang, seat in (("ru", "Место {n}"), ("en", "Seat {n}")):
        page = client.get("/", headers={"Accept-Language": lang}).text
        found = re.search(r'<script type="application/json" id="koth-texts">(.*?)</script>', page)
        assert found is not None
        texts = json.loads(found.group(1))
        units = {f"unit_{unit}" for unit in UNIT_WORDS}
        assert set(texts) == set(EN) | set(PLURALS) | units and texts["seat"] == seat
    # a text with a count has one form per plural category of the language
    assert texts["cards_count"] == {"one": "{n} card", "other": "{n} cards"}
    page = client.get("/", headers={"Accept-Language": "ru"}).text
    found = re.search(r'<script type="application/json" id="koth-texts">(.*?)</script>', page)
    assert found is not None
    assert set(json.loads(found.group(1))["cards_count"]) == {"one", "few", "many"}


def test_a_refused_declaration_says_why_in_russian(client: TestClient) -> None:
    from tests.server.quiz.helpers import QuizApi, bearer

    client.cookies.clear()
    api = QuizApi(client)
    api.create(teams=[], spurs_per_slope=0)
    api.join("Совы")
    api.join("Ежи")
    api.cmd("start")
    api.cmd("open_question")
    body = {"question": 1, "declaration": "jump"}
    english, russian = (
        client.post(
            api.url("declaration"),
            json=body,
            headers={**bearer(api.tokens["Совы"]), "Accept-Language": lang},
        ).json()["error"]
        for lang in ("en", "ru")
    )
    assert english == {
        "code": "illegal_action",
        "rule": "Q3",
        "message": "question 1, team Совы: jump refused: a jump is not allowed from the start "
        "(position 0)",
    }
    assert russian == {
        "code": "illegal_action",
        "rule": "Q3",
        "message": "вопрос 1, команда «Совы»: заявка «прыжок» отклонена: прыжок со старта "
        "(позиция 0) запрещён",
    }
