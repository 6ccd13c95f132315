"""A whole evening in Russian (semifinals and a final, Cyrillic team names, a jump that is
downgraded, a late declaration, a King, a Revolution, an appeal): every quiz page in
every state, every refusal and every export is read for Latin-letter words. Only team
names and answers (Cyrillic here), codes (join code, ids, tokens, URLs, rule numbers)
and the short allow-list below may be Latin (docs/translating.md, *Names*).

Phone screenshots of the team page in both languages go to docs/screenshots/ when
KOTH_SCREENSHOTS=1 (else to a temp folder).
"""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.live_server import LiveServer
from tests.server.quiz.helpers import QuizApi, bearer
from tests.server.quiz.test_browser import TIMEOUT_MS, shots_dir

playwright_sync = pytest.importorskip("playwright.sync_api")

#: join order; semifinal 1 gets the 1st, 3rd... (the model deals them alternately)
TEAMS = ["Совы", "Медведи", "Кошки", "Собаки", "Лисы", "Ежи", "Волки", "Рыси"]
RIGHT, WRONG = "Париж", "Рим"
#: Latin words a Russian reader may see: file kinds and the command that re-scores a
#: protocol (a program's name); the language switch names English in English
ALLOWED = {"CSV", "JSON", "YAML", "QR", "K"}
ALLOWED_PHRASES = ("koth quiz score", "Language: English")
#: the judge console's keyboard shortcuts name the keys as a keyboard labels them (Latin
#: letters, the same keys whatever the layout): allowed only inside that list
SHORTCUT_KEYS = re.compile(r"(?<![\w])(?:[ACEJKLMOPQRSVWX]|Esc)(?![\w])")
LATIN = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
#: codes: URLs and paths on this site, rule and question numbers (Q10)
CODES = (
    re.compile(r"https?://\S+"),
    re.compile(r"(?<![\w/])/[A-Za-z0-9_/.?=-]+"),
    re.compile(r"\bQ\d+\b"),
)


def latin_words(text: str, codes: set[str]) -> set[str]:
    for phrase in ALLOWED_PHRASES:
        text = text.replace(phrase, " ")
    if "Клавиши:" in text:
        start = text.index("Клавиши:")
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        text = text[:start] + SHORTCUT_KEYS.sub(" ", text[start:end]) + text[end:]
    for pattern in CODES:
        text = pattern.sub(" ", text)
    for code in codes:
        text = text.replace(code, " ")
    return {w for w in LATIN.findall(text) if w not in ALLOWED}


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("Вопрос 3 · Отвечайте", set()),
        ("Удержал вершину (Q10); файл CSV", set()),
        ("Начать: semifinal 1", {"semifinal"}),
        ("Собаки (late)", {"late"}),
        ("ссылка http://127.0.0.1:8000/quiz/x#token=abc", set()),
        ("Протокол (koth quiz score)", set()),
        ("войти: /quiz/join", set()),
    ],
)
def test_the_latin_finder_finds_what_it_should(text: str, found: set[str]) -> None:
    assert latin_words(text, set()) == found


class Reader:
    """Opens quiz pages in Russian in Chromium and collects every Latin word seen."""

    def __init__(self, browser: Any, base: str, codes: set[str]) -> None:
        self.base = base
        self.codes = codes
        self.found: dict[str, set[str]] = {}
        self.ctx = browser.new_context(
            viewport={"width": 390, "height": 844}, is_mobile=True, locale="ru-RU"
        )
        self.ctx.add_cookies([{"name": "koth_lang", "value": "ru", "url": base}])
        self.page = self.ctx.new_page()
        self.page.set_default_timeout(TIMEOUT_MS)

    def read(
        self, where: str, path: str, ready: str, credentials: tuple[str, Any] | None = None
    ) -> str:
        page = self.page
        if credentials is not None:
            key, value = credentials
            page.goto(f"{self.base}/quiz")
            page.evaluate("([k, v]) => localStorage.setItem(k, JSON.stringify(v))", [key, value])
        response = page.goto(self.base + path)
        assert response is not None
        page.wait_for_selector(ready, state="attached")
        page.wait_for_load_state("networkidle")
        assert page.evaluate("document.documentElement.lang") == "ru", where
        text = page.evaluate(
            """() => [document.title, document.body.innerText,
                ...[...document.querySelectorAll(
                    '[placeholder],[title],[aria-label],option,input,textarea')]
                    .map((e) => [e.placeholder, e.title, e.getAttribute('aria-label'),
                                 e.tagName === 'OPTION' ? e.textContent : '',
                                 ['text', 'search', 'textarea'].includes(e.type) ? e.value : '',
                                ].join(' '))
            ].join('\\n')"""
        )
        words = latin_words(text, self.codes)
        if words:
            self.found[where] = words
        return str(text)


def ru(client: httpx.Client, method: str, url: str, **kwargs: Any) -> httpx.Response:
    headers = {"Accept-Language": "ru-RU,ru;q=0.9", **kwargs.pop("headers", {})}
    return client.request(method, url, headers=headers, **kwargs)


def test_a_russian_evening_has_no_english_word(
    server: LiveServer, browser: Any, tmp_path: Path
) -> None:
    client = httpx.Client(base_url=server.url, timeout=30)
    api = QuizApi(client)
    api.create(
        title="Вечер клуба",
        format="semifinals",
        qualifiers=2,
        questions=3,
        final_questions=10,
        steps=5,
        hold_moves=2,
        spurs_per_slope=0,
    )
    # the ids and codes of this event, and the wrong ones the refusals below echo
    codes = {api.event_id, api.join_code, api.host_token, "ZZZZZZ", "nope"}
    reader = Reader(browser, server.url, codes)
    errors: dict[str, str] = {}

    def refused(where: str, response: httpx.Response) -> None:
        body = response.json()
        assert response.status_code >= 400 and body["error"]["code"], where
        errors[where] = body["error"]["message"]

    def team_refused(where: str, team: str, tail: str, body: dict[str, Any]) -> None:
        headers = bearer(api.tokens[team])
        refused(where, ru(client, "POST", api.url(tail), headers=headers, json=body))

    def pages(state: str, team: str | None = None) -> None:
        reader.read(
            f"judge {state}", f"/quiz/{api.event_id}/judge#token={api.host_token}", "#judge"
        )
        reader.read(f"projector {state}", f"/quiz/{api.event_id}/projector", "#proj-stage")
        if team is not None:
            creds = {"team": team, "token": api.tokens[team], "recovery_code": api.recovery[team]}
            reader.read(
                f"team {team} {state}",
                f"/quiz/{api.event_id}/team",
                "#stage",
                (f"koth.quiz.team.{api.event_id}", creds),
            )

    reader.read("host form", "/quiz", "#create-form")
    reader.read("join", f"/quiz/join?code={api.join_code}", "#join-form")
    reader.read("404", "/quiz/nope/team", "main")
    refused("no page", ru(client, "GET", "/no/such/page"))
    for team in TEAMS:
        api.join(team)
        codes |= {api.tokens[team], api.recovery[team]}
    refused(
        "name taken",
        ru(client, "POST", "/api/quiz/join", json={"code": api.join_code, "team": "Совы"}),
    )
    refused("no code", ru(client, "POST", "/api/quiz/join", json={"code": "ZZZZZZ", "team": "Х"}))
    refused("bad token", ru(client, "GET", api.url("team"), headers=bearer("x" * 20)))
    refused("no event", ru(client, "GET", "/api/quiz/events/nope/projector"))
    refused("results early", ru(client, "GET", api.url("results")))
    pages("lobby", "Совы")

    # semifinal 1: Совы, Кошки, Лисы, Волки; three questions put them on 3, 2, 1, 0
    api.cmd("start")
    late = ru(client, "POST", "/api/quiz/join", json={"code": api.join_code, "team": "Опоздавшие"})
    refused("join after the start", late)
    assert late.json()["error"]["code"] == "join_closed"
    reader.read("join form", f"/quiz/join?code={api.join_code}", "#join-form")
    reader.page.locator("[name=team]").fill("Опоздавшие")
    reader.page.locator("#join-form button[type=submit]").click()
    playwright_sync.expect(reader.page.locator("#error")).to_have_text(
        "Игра началась: новые команды не принимаются."
    )
    team_refused(
        "not open", "Совы", "answer", {"question": 1, "text": RIGHT, "submission_id": "a" * 12}
    )
    api.cmd("open_question")
    team_refused(
        "jump from the start", "Кошки", "declaration", {"question": 1, "declaration": "jump"}
    )
    pages("declaring", "Кошки")
    api.cmd("lock")
    api.declare("Лисы", 1, "jump")  # after the reading: late, an ordinary move (Q3)
    pages("read", "Лисы")
    api.cmd("open_answering", seconds=600)
    for team in ("Совы", "Кошки", "Лисы"):
        api.answer(team, 1, RIGHT)
    team_refused(
        "second answer", "Совы", "answer", {"question": 1, "text": WRONG, "submission_id": "b" * 12}
    )
    pages("answering", "Совы")
    api.cmd("close_answering")
    pages("judging", "Волки")
    refused("resolve unjudged", ru(client, "POST", api.url("judge/resolve"), headers=api.host))
    api.judge_texts(1, {RIGHT})
    api.cmd("resolve")
    pages("between", "Кошки")
    api.play(
        2, {"Совы": RIGHT, "Кошки": RIGHT, "Лисы": WRONG}, {RIGHT}, declarations={"Кошки": "jump"}
    )
    # the appeal makes Кошки's jump follow their own wrong answer: downgraded (Q3)
    appeal = api.cmd("appeal", question=1, team="Кошки", correct=False, comment="не засчитано")
    assert appeal["standings"]["downgraded"][0]["team"] == "Кошки"
    pages("downgraded", "Кошки")
    api.play(3, {"Совы": RIGHT, "Кошки": RIGHT}, {RIGHT})
    pages("semifinal over", "Совы")
    # semifinal 2: Медведи, Собаки, Ежи, Рыси
    api.cmd("start")
    pages("semifinal 2, not playing", "Совы")
    api.play(1, {"Медведи": RIGHT, "Собаки": RIGHT, "Ежи": RIGHT}, {RIGHT})
    api.play(2, {"Медведи": RIGHT, "Собаки": RIGHT}, {RIGHT})
    api.play(3, {"Медведи": RIGHT}, {RIGHT})
    assert api.judge_view()["next_part"]["teams"] == ["Совы", "Кошки", "Медведи", "Собаки"]
    # the final: Совы jump and take the Peak, Медведи stay below and revolt
    api.cmd("start")
    pages("final start", "Лисы")
    finalists = ("Совы", "Кошки", "Медведи", "Собаки")
    api.play(1, dict.fromkeys(finalists, RIGHT), {RIGHT})
    api.play(2, dict.fromkeys(finalists, RIGHT), {RIGHT}, declarations={"Совы": "jump"})
    api.play(3, dict.fromkeys(finalists[:3], RIGHT), {RIGHT})
    king = api.play(4, dict.fromkeys(finalists[:3], RIGHT), {RIGHT})
    assert king["standings"]["king"] == "Совы"
    pages("King", "Медведи")
    api.cmd("open_question")
    phone_screenshots(browser, server.url, api, tmp_path)  # Медведи may revolt
    revolution = api.play(
        5,
        {"Совы": WRONG, "Медведи": RIGHT},
        {RIGHT},
        declarations={"Медведи": "revolution"},
        opened=True,
    )
    assert revolution["standings"]["king"] == "Медведи"
    pages("revolution", "Совы")
    api.cmd("appeal", question=4, team="Кошки", correct=False, comment="спорный ответ")
    pages("appeal", "Кошки")
    api.play(6, {"Медведи": RIGHT}, {RIGHT})
    api.play(7, {"Медведи": RIGHT}, {RIGHT})
    assert api.judge_view()["phase"]["event_finished"]
    pages("finished", "Медведи")
    reader.read("results", f"/quiz/{api.event_id}/results", "#results h2")

    exports = {
        "csv": ru(client, "GET", api.url("export.csv"), headers=api.host).text,
        "json": ru(client, "GET", api.url("export.json"), headers=api.host).text,
        "protocol": ru(client, "GET", api.url("protocol.json"), headers=api.host).text,
    }
    cells = [cell for row in csv.reader(io.StringIO(exports["csv"])) for cell in row]
    csv_words = latin_words("\n".join(cells), codes)
    data_words = {
        # a protocol's end reasons are codes for `koth quiz score` (rules Q32)
        name: latin_words(
            "\n".join(
                human_values(
                    json.loads(text), codes=PROTOCOL_CODES if name == "protocol" else CODE_FIELDS
                )
            ),
            codes,
        )
        for name, text in exports.items()
        if name != "csv"
    }
    error_words = {where: latin_words(text, codes) for where, text in errors.items()}

    assert not reader.found, "\n".join(f"{k}: {sorted(v)}" for k, v in reader.found.items())
    assert not csv_words, csv_words
    assert not any(data_words.values()), data_words
    assert not any(error_words.values()), errors
    assert "полуфинал 1" in cells and "финал" in cells


#: JSON fields whose values are codes for programs (enumerations, identifiers), not words
CODE_FIELDS = {
    "id",
    "format",
    "kind",
    "reason",
    "declaration",
    "late",
    "stage",
    "name",
    "part",
    "rule",
    "params",
    "status",
    "type",
    "key",
    "declarations",
    "late_declarations",
    "withdrawn_king",
}


PROTOCOL_CODES = CODE_FIELDS | {"end_reason"}


def human_values(
    value: Any, field: str = "", codes: frozenset[str] | set[str] = CODE_FIELDS
) -> list[str]:
    """The string values of a JSON document a person might read (codes left out)."""
    if field in codes:
        return []
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in human_values(v, k, codes)]
    if isinstance(value, list):
        return [s for v in value for s in human_values(v, field, codes)]
    return [value] if isinstance(value, str) else []


def phone_screenshots(browser: Any, base: str, api: QuizApi, tmp_path: Path) -> None:
    """The team page on a 390x844 phone in Russian and in English."""
    out = shots_dir(tmp_path)
    team = "Медведи"
    creds = {"team": team, "token": api.tokens[team], "recovery_code": api.recovery[team]}
    for lang in ("ru", "en"):
        ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
        ctx.add_cookies([{"name": "koth_lang", "value": lang, "url": base}])
        page = ctx.new_page()
        page.goto(f"{base}/quiz")
        page.evaluate(
            "([k, v]) => localStorage.setItem(k, JSON.stringify(v))",
            [f"koth.quiz.team.{api.event_id}", creds],
        )
        page.goto(f"{base}/quiz/{api.event_id}/team")
        page.wait_for_selector("#stage")
        page.wait_for_load_state("networkidle")
        page.screenshot(path=str(out / f"quiz_team_{lang}.png"), full_page=True)
        ctx.close()
