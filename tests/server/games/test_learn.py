"""The learn pages: the rules in brief and in full (from docs/rules), in both languages,
and the tutorial, whose every try the engine checks."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from koth.server.games.rulebook import RULEBOOKS, rules_html, rules_path
from koth.server.games.tutorial import LESSONS

RU = {"Accept-Language": "ru"}


@pytest.mark.parametrize("game", RULEBOOKS)
def test_a_learn_page_shows_the_rules_in_brief_and_in_full_in_both_languages(
    client: TestClient, game: str
) -> None:
    page = client.get(f"/learn/{game}")
    assert page.status_code == 200
    first_rule = "C1 — Deck." if game == "cards" else "B1</strong> — The board"
    assert first_rule in page.text  # the rules document itself, rendered
    assert "<table>" in page.text and 'id="tutorial"' in page.text
    assert "How to play:" in page.text and "The full rules below are in English" not in page.text
    russian = client.get(f"/learn/{game}", headers=RU)
    assert russian.status_code == 200 and "Как играть:" in russian.text
    assert "Полные правила ниже — на английском." in russian.text and first_rule in russian.text
    brief = "Два игрока сражаются" if game == "cards" else "От двух до четырёх игроков"
    assert brief in russian.text
    assert client.get("/learn/quiz").status_code == 404
    assert client.get("/api/learn/quiz").status_code == 404


def test_every_page_links_to_the_learn_pages(client: TestClient) -> None:
    assert 'href="/learn/board"' in client.get("/").text
    created = client.post("/api/games", json={"game": "cards"}).json()
    for path in (f"/games/{created['id']}", f"/games/{created['id']}/replay"):
        assert 'href="/learn/cards"' in client.get(path).text


def test_the_rules_are_rendered_from_the_documents_with_their_html_escaped() -> None:
    for game in RULEBOOKS:
        assert rules_path(game).name == f"{game}.md"
        assert "<h1>" in rules_html(game) and "<script" not in rules_html(game)
    with pytest.raises(FileNotFoundError, match="no rules document"):
        rules_path("quiz")


@pytest.mark.parametrize("game", sorted(LESSONS))
def test_each_lesson_accepts_its_move_and_explains_the_rule_a_wrong_one_breaks(
    client: TestClient, game: str
) -> None:
    lessons = client.get(f"/api/learn/{game}").json()
    assert [lesson["key"] for lesson in lessons] == [spec.key for spec in LESSONS[game]]
    wrong_ones = 0
    for lesson in lessons:
        message = lesson["message"]
        legal = {entry["text"] for entry in message["legal"]}
        assert message["seat"] in message["to_move"]["players"] and legal
        url = f"/api/learn/{game}/lessons/{lesson['key']}"
        verdicts = [client.post(url, json={"action": move}).json() for move in lesson["choices"]]
        assert [v["correct"] for v in verdicts].count(True) == 1, verdicts
        for move, verdict in zip(lesson["choices"], verdicts, strict=True):
            assert verdict["legal"] == (move in legal)
            if not verdict["legal"]:
                wrong_ones += 1
                assert verdict["text"].startswith(f"{move} is not allowed: ") and verdict["rule"]
        # any legal move of another kind is named as such, by id as well
        other = next((e for e in message["legal"] if e["text"] not in lesson["choices"]), None)
        if other is not None:
            verdict = client.post(url, json={"action_id": other["id"]}).json()
            assert verdict["legal"] and (verdict["correct"] or "another kind" in verdict["text"])
    assert wrong_ones >= 6  # most lessons offer moves the rules refuse
    russian = client.post(
        f"/api/learn/{game}/lessons/{lessons[0]['key']}",
        json={"action": next(m for m in lessons[0]["choices"])},
        headers=RU,
    ).json()
    assert russian["text"].startswith(("Верно", next(iter(lessons[0]["choices"]))))


def test_bad_tries_are_refused_with_a_clear_error(client: TestClient) -> None:
    assert client.post("/api/learn/cards/lessons/nope", json={"action": "JK"}).status_code == 404
    bad = client.post("/api/learn/cards/lessons/choose", json={"action": "fly"})
    assert bad.status_code == 400 and "is not a card game action" in bad.text
    both = client.post("/api/learn/cards/lessons/choose", json={"action": "JK", "action_id": 1})
    assert both.status_code == 422
