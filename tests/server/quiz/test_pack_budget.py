"""A question pack is read in a thread with a budget: YAML aliases are refused, and so
is a pack whose stored form would pass the server's quiz_pack_bytes."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from koth.server.app import create_app
from tests.games.quiz.test_pack_aliases import alias_bomb
from tests.server.conftest import make_settings
from tests.server.quiz.helpers import QuizApi


def pack_of(questions: int, text: str = "question") -> str:
    rows = [f"  - {{number: {n}, text: {text} {n}, answer: a}}" for n in range(1, questions + 1)]
    return "\n".join(["questions:", *rows])


def test_an_alias_bomb_is_refused_and_nothing_is_stored(api: QuizApi) -> None:
    api.create(title="Bomb")
    refused = api.cmd("pack", expect=422, form="yaml", text=alias_bomb())
    assert "aliases" in refused["error"]["message"]
    assert api.judge_view()["pack"] is None


def test_a_pack_over_the_stored_size_setting_is_refused(tmp_path: Path) -> None:
    settings = make_settings(f"sqlite:///{tmp_path / 'packs.sqlite3'}", quiz_pack_bytes=4096)
    with TestClient(create_app(settings)) as client:
        api = QuizApi(client)
        api.create(title="Sizes")
        assert api.cmd("pack", form="yaml", text=pack_of(5))["pack"]["questions"] == 5
        refused = api.cmd("pack", expect=422, form="yaml", text=pack_of(200))
        assert "4096" in refused["error"]["message"]
        assert api.judge_view()["pack"]["questions"] == 5
