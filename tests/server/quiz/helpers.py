"""Drive a hosted quiz event through the JSON API (TestClient or httpx.Client)."""

from __future__ import annotations

import os
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@dataclass
class QuizApi:
    client: Any
    """a TestClient or an httpx.Client"""
    event_id: str = ""
    join_code: str = ""
    host_token: str = ""
    tokens: dict[str, str] = field(default_factory=dict)
    recovery: dict[str, str] = field(default_factory=dict)
    received: list[tuple[str, Any]] = field(default_factory=list)
    """every (audience, body) a team or the projector received over REST"""

    @property
    def host(self) -> dict[str, str]:
        return bearer(self.host_token)

    def create(self, **settings: Any) -> dict[str, Any]:
        response = self.client.post("/api/quiz/events", json=settings)
        assert response.status_code == 201, response.text
        data: dict[str, Any] = response.json()
        self.event_id, self.join_code, self.host_token = (
            data["id"],
            data["join_code"],
            data["host_token"],
        )
        return data

    def join(self, team: str) -> str:
        response = self.client.post("/api/quiz/join", json={"code": self.join_code, "team": team})
        assert response.status_code == 201, response.text
        self.tokens[team] = response.json()["token"]
        self.recovery[team] = response.json()["recovery_code"]
        return self.tokens[team]

    def url(self, tail: str) -> str:
        return f"/api/quiz/events/{self.event_id}/{tail}"

    def cmd(self, name: str, expect: int = 200, **body: Any) -> dict[str, Any]:
        response = self.client.post(self.url(f"judge/{name}"), json=body, headers=self.host)
        assert response.status_code == expect, f"{name}: {response.status_code} {response.text}"
        out: dict[str, Any] = response.json()
        return out

    def judge_view(self) -> dict[str, Any]:
        response = self.client.get(self.url("judge"), headers=self.host)
        assert response.status_code == 200, response.text
        out: dict[str, Any] = response.json()
        return out

    def team_view(self, team: str) -> dict[str, Any]:
        response = self.client.get(self.url("team"), headers=bearer(self.tokens[team]))
        assert response.status_code == 200, response.text
        self.received.append((team, response.json()))
        out: dict[str, Any] = response.json()
        return out

    def projector(self) -> dict[str, Any]:
        response = self.client.get(self.url("projector"))
        assert response.status_code == 200, response.text
        self.received.append(("projector", response.json()))
        out: dict[str, Any] = response.json()
        return out

    def declare(self, team: str, question: int, declaration: str, expect: int = 200) -> Any:
        response = self.client.post(
            self.url("declaration"),
            json={"question": question, "declaration": declaration},
            headers=bearer(self.tokens[team]),
        )
        assert response.status_code == expect, response.text
        self.received.append((team, response.json()))
        return response.json()

    def answer(
        self, team: str, question: int, text: str, sid: str | None = None, expect: int = 200
    ) -> Any:
        body = {"question": question, "text": text, "submission_id": sid or uuid.uuid4().hex}
        response = self.client.post(
            self.url("answer"), json=body, headers=bearer(self.tokens[team])
        )
        assert response.status_code == expect, response.text
        self.received.append((team, response.json()))
        return response.json()

    def judge_texts(self, question: int, right: set[str]) -> None:
        """Mark every answer group right when its text is in ``right``, else wrong."""
        for group in self.judge_view()["open"]["groups"]:
            if group["unjudged"]:
                self.cmd(
                    "judge", question=question, key=group["key"], correct=group["text"] in right
                )

    def play(
        self,
        question: int,
        answers: dict[str, str],
        right: set[str],
        declarations: dict[str, str] | None = None,
        partner: bool = False,
        opened: bool = False,
    ) -> dict[str, Any]:
        """One whole question: open (unless ``opened`` already), declarations, read,
        answers, judgement, resolve."""
        if not opened:
            self.cmd("open_question")
        for team, declared in (declarations or {}).items():
            self.declare(team, question, declared)
        if partner:
            self.cmd("partner", partner=True)
        self.cmd("lock")
        self.cmd("open_answering", seconds=600)
        for team, text in answers.items():
            self.answer(team, question, text)
        self.cmd("close_answering")
        self.judge_texts(question, right)
        return self.cmd("resolve")


#: six teams: a jump, a spur, a partner question, a King, a successful Revolution, an
#: appeal that changes the result, and the King holding the Peak to the end
SCENARIO_SETTINGS: dict[str, Any] = {
    "title": "Scenario",
    "teams": ["Owls", "Bears", "Cats", "Dogs", "Eels", "Foxes"],
    "steps": 5,
    "hold_moves": 2,
    "questions": 12,
    "spurs": {"Owls": [3]},
    "spurs_per_slope": 0,
}

RIGHT = "Paris"
WRONG = "Rome"


def scenario_questions() -> list[dict[str, Any]]:
    """Question by question: declarations, who answers right/wrong, partner flag."""
    r, w = RIGHT, WRONG
    return [
        {"answers": {"Owls": r, "Bears": r, "Cats": r, "Dogs": w, "Foxes": w}},
        {
            "answers": {"Owls": r, "Bears": r, "Cats": r, "Dogs": w},
            "declarations": {"Owls": "jump"},
            "partner": True,
        },
        {"answers": {"Owls": r, "Bears": r, "Cats": r, "Eels": w}},
        {"answers": {"Owls": r, "Bears": r, "Cats": r}},
        {"answers": {"Owls": w, "Bears": r, "Cats": r}, "declarations": {"Bears": "revolution"}},
        {"answers": {"Owls": r, "Bears": w, "Cats": w}, "declarations": {"Owls": "revolution"}},
        {"answers": {"Owls": w, "Bears": r, "Cats": r}, "declarations": {"Cats": "revolution"}},
    ]


def run_scenario(api: QuizApi) -> None:
    """Create, join, play questions 1-6, appeal Bears' answer to question 6, play 7."""
    api.create(**SCENARIO_SETTINGS)
    for team in SCENARIO_SETTINGS["teams"]:
        api.join(team)
    api.cmd("start")
    for number, q in enumerate(scenario_questions(), start=1):
        if number == 7:
            after = api.cmd("appeal", question=6, team="Bears", correct=True, comment="accepted")
            assert after["standings"]["king"] == "Bears"
        result = api.play(
            number, q["answers"], {RIGHT}, q.get("declarations"), q.get("partner", False)
        )
        if number == 4:
            assert result["standings"]["king"] == "Owls"
        if number == 5:
            assert result["standings"]["king"] == "Bears"
        if number == 6:
            assert result["standings"]["king"] == "Owls"  # before the appeal


def values_of(key: str, body: Any) -> list[Any]:
    """Every value set for ``key`` anywhere in ``body`` (null counts as not set)."""
    if isinstance(body, dict):
        found = [v for k, v in body.items() if k == key and v is not None]
        return found + [x for v in body.values() for x in values_of(key, v)]
    if isinstance(body, list):
        return [x for v in body for x in values_of(key, v)]
    return []


def started(api: QuizApi, teams: tuple[str, ...] = ("A", "B", "C"), **settings: Any) -> QuizApi:
    """A created event with ``teams`` joined by phone and the game started."""
    api.create(**{"steps": 6, "hold_moves": 2, "questions": 10, "spurs_per_slope": 0, **settings})
    for team in teams:
        api.join(team)
    api.cmd("start")
    return api


def answered(api: QuizApi, question: int, answers: dict[str, str]) -> None:
    """Open question ``question`` with no declarations, read it and collect ``answers``
    (team -> text); answering stays open."""
    api.cmd("open_question")
    api.cmd("lock")
    api.cmd("open_answering", seconds=600)
    for team, text in answers.items():
        api.answer(team, question, text)


def shots_dir(tmp_path: Path) -> Path:
    """Where browser tests save screenshots: docs/screenshots/ when KOTH_SCREENSHOTS=1
    (to refresh the docs' pictures), else a temporary folder."""
    if os.environ.get("KOTH_SCREENSHOTS") == "1":
        out = Path(__file__).resolve().parents[3] / "docs" / "screenshots"
    else:
        out = tmp_path / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    return out
