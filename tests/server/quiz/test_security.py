"""Secrets: a team token acts only for its team, never as the judge; teams and the
projector never receive spur cells or another team's answer before the end (every REST
response and every WebSocket frame they got is scanned)."""

from __future__ import annotations

import json
from typing import Any

from fastapi.testclient import TestClient

from tests.server.quiz.helpers import (
    SCENARIO_SETTINGS,
    QuizApi,
    bearer,
    scenario_questions,
    values_of,
)


def test_team_token_cannot_act_for_another_team_or_the_judge(
    api: QuizApi, client: TestClient
) -> None:
    api.create(steps=5)
    for team in ("A", "B"):
        api.join(team)
    api.cmd("start")
    api.cmd("open_question")
    a = bearer(api.tokens["A"])
    for command in ("start", "open_question", "lock", "judge", "resolve", "appeal"):
        response = client.post(api.url(f"judge/{command}"), json={}, headers=a)
        assert response.status_code == 403, command
    assert client.get(api.url("judge"), headers=a).status_code == 403
    assert client.get(api.url("judge")).status_code == 403
    assert client.get(api.url("protocol.json"), headers=a).status_code == 403
    # the body cannot name a team: the token decides who acts
    spoof = client.post(
        api.url("declaration"),
        json={"question": 1, "declaration": "ordinary", "team": "B"},
        headers=a,
    )
    assert spoof.status_code == 422
    api.cmd("lock")
    api.cmd("open_answering", seconds=60)
    ack = api.answer("A", 1, "from A")
    assert ack["accepted"]
    view = api.judge_view()["open"]["groups"]
    assert view == [
        {
            "key": "from a",
            "text": "from A",
            "teams": ["A"],
            "right": 0,
            "wrong": 0,
            "unjudged": 1,
            "matches": False,
        }
    ]
    # a host token is not a team token, a token of another event is nothing here
    assert client.get(api.url("team"), headers=api.host).status_code == 403
    other = QuizApi(client)
    other.create()
    other.join("A")
    assert client.get(api.url("team"), headers=bearer(other.tokens["A"])).status_code == 403
    assert client.get(other.url("judge"), headers=api.host).status_code == 403
    assert client.get(api.url("team"), headers=bearer("x" * 43)).status_code == 403


def test_websocket_hello_is_checked(api: QuizApi, client: TestClient) -> None:
    api.create()
    api.join("A")
    cases = [
        ({"type": "hello", "role": "judge", "token": api.tokens["A"]}, 4403),
        ({"type": "hello", "role": "team", "token": api.host_token}, 4403),
        ({"type": "hello", "role": "team", "token": None}, 4403),
        ({"type": "hello", "role": "king"}, 4400),
    ]
    for hello, code in cases:
        with client.websocket_connect(api.url("ws")) as ws:
            ws.send_json(hello)
            frame = ws.receive_json()
            assert frame["type"] == "error"
            closing = ws.receive()
            assert closing["code"] == code
    with client.websocket_connect(api.url("ws")) as ws:
        ws.send_json({"type": "hello", "role": "team", "token": api.tokens["A"]})
        assert ws.receive_json()["team"] == "A"
        ws.send_json({"type": "ping"})
        # a state update may come first: the broadcast of A's join can still be on its
        # way when this listener subscribes, and the server pushes state at any time
        frame = ws.receive_json()
        while frame["type"] == "state":
            frame = ws.receive_json()
        assert frame["type"] == "pong"


def _scan(audience: str, body: Any, over: bool, answers: dict[tuple[str, int], str]) -> None:
    text = json.dumps(body, ensure_ascii=False)
    for (team, _q), answer in answers.items():
        if team != audience:
            assert answer not in text, (audience, team)
    if not over:
        assert not values_of("spurs", body), audience
        assert "spur_seed" not in text


def test_teams_and_projector_never_see_spurs_or_other_answers(
    api: QuizApi, client: TestClient
) -> None:
    api.create(**{**SCENARIO_SETTINGS, "spurs_per_slope": 1, "spur_seed": 5})
    teams: list[str] = SCENARIO_SETTINGS["teams"]
    for team in teams:
        api.join(team)
    answers: dict[tuple[str, int], str] = {}
    frames: list[tuple[str, Any]] = []
    sockets = {}
    contexts = []
    for who in [*teams[:3], "projector"]:
        ctx = client.websocket_connect(api.url("ws"))
        ws = ctx.__enter__()
        contexts.append(ctx)
        token = api.tokens.get(who)
        ws.send_json({"type": "hello", "role": "team" if token else "projector", "token": token})
        frames.append((who, ws.receive_json()))
        sockets[who] = ws
    try:
        _play_and_drain(api, teams, answers, frames, sockets)
    finally:
        for ctx in contexts:
            ctx.__exit__(None, None, None)
    secret_answers = {k: v for k, v in answers.items() if v != "Paris"}
    assert len(frames) > 20
    for who, body in [*api.received, *frames]:
        # the game is over once its last question is resolved (a lightning round for a
        # tied prize place comes after the end, Q14)
        stage = body.get("phase", {}).get("stage") if isinstance(body, dict) else None
        over = stage in ("finished", "lightning", "part_over")
        _scan(who, body, over, secret_answers)
    assert any("spurs" in json.dumps(b) for _w, b in frames)  # revealed at the end


def _play_and_drain(
    api: QuizApi,
    teams: list[str],
    answers: dict[tuple[str, int], str],
    frames: list[tuple[str, Any]],
    sockets: dict[str, Any],
) -> None:
    api.cmd("start")
    for number, q in enumerate(scenario_questions(), start=1):
        if number == 7:
            api.cmd("appeal", question=6, team="Bears", correct=True)
        api.cmd("open_question")
        for team, declared in q.get("declarations", {}).items():
            api.declare(team, number, declared)
        api.cmd("lock")
        api.cmd("open_answering", seconds=600)
        for team, right in q["answers"].items():
            text = "Paris" if right == "Paris" else f"secret-{team}-{number}"
            answers[(team, number)] = text
            api.answer(team, number, text)
        for team in teams:
            api.team_view(team)
        api.projector()
        api.cmd("close_answering")
        api.judge_texts(number, {"Paris"})
        api.cmd("resolve")
        api.team_view("Owls")
        api.projector()
    while (view := api.judge_view())["phase"]["stage"] == "lightning":
        group = view["standings"]["lightning_required"][0]
        api.cmd("lightning", teams=group["teams"], right=group["teams"][:1])
    assert api.projector()["phase"]["stage"] == "finished"
    # drain what the listeners got (each frame is a full state; the last says finished)
    for who, ws in sockets.items():
        while True:
            frame = ws.receive_json()
            frames.append((who, frame))
            if frame.get("phase", {}).get("stage") == "finished":
                break
