"""Two app instances on one PostgreSQL database serve every game and event alike: what
one commits, the other's clients see and build on."""

from __future__ import annotations

import socket
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from koth.server.app import create_app
from koth.server.database import make_engine
from koth.server.games.store import Repository
from tests.server.conftest import (
    create_game,
    make_settings,
    postgres_schema,
)
from tests.server.live_server import LiveServer
from tests.server.quiz.helpers import QuizApi, bearer


@pytest.fixture
def postgres_url() -> Iterator[str]:
    with postgres_schema("koth_two") as url:
        yield url


@pytest.fixture
def pair(postgres_url: str) -> Iterator[tuple[TestClient, TestClient]]:
    with (
        TestClient(create_app(make_settings(postgres_url))) as a,
        TestClient(create_app(make_settings(postgres_url))) as b,
    ):
        yield a, b


def eventually(check: Callable[[], Any], within: float = 60.0) -> Any:
    deadline = time.monotonic() + within
    while True:
        value = check()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(0.02)


def test_a_spectator_on_one_process_sees_a_move_made_on_the_other(
    pair: tuple[TestClient, TestClient],
) -> None:
    a, b = pair
    game = create_game(a)
    with a.websocket_connect(f"/api/games/{game.id}/ws") as spectator:
        spectator.send_json({"type": "hello", "token": None})
        first = spectator.receive_json()
        start = b.get(f"/api/games/{game.id}", headers=game.auth(0)).json()
        moved = b.post(
            f"/api/games/{game.id}/actions",
            json={"action": "stake 1", "version": start["version"]},
            headers=game.auth(0),
        )
        assert moved.status_code == 200
        frame = spectator.receive_json()
        while frame["version"] <= first["version"]:
            frame = spectator.receive_json()
        assert frame["version"] == moved.json()["version"]
    assert a.get(f"/api/games/{game.id}").json()["version"] == moved.json()["version"]


def test_the_current_version_is_accepted_on_either_process(
    pair: tuple[TestClient, TestClient],
) -> None:
    a, b = pair
    game = create_game(a)
    version = a.get(f"/api/games/{game.id}", headers=game.auth(0)).json()["version"]
    moved = b.post(
        f"/api/games/{game.id}/actions",
        json={"action": "stake 2", "version": version},
        headers=game.auth(0),
    ).json()["version"]
    # A last saw the game before B's move; the seat acts at the database's version
    reply = a.post(
        f"/api/games/{game.id}/actions",
        json={"action": "stay", "version": moved},
        headers=game.auth(1),
    )
    assert reply.status_code == 200, reply.text
    assert reply.json()["version"] >= moved


def test_a_quiz_spread_over_two_processes_plays_to_the_end(
    pair: tuple[TestClient, TestClient],
) -> None:
    a, b = pair
    host, teams = QuizApi(a), QuizApi(b)
    host.create(questions=2, prize_places=1)
    teams.event_id, teams.join_code, teams.host_token = (
        host.event_id,
        host.join_code,
        host.host_token,
    )
    for name in ("A", "B", "C", "D"):  # joins alternate between the processes
        (host if name in "AC" else teams).join(name)
    assert eventually(lambda: len(host.judge_view()["teams"]) == 4)
    host.cmd("start")
    for question in (1, 2):
        host.cmd("open_question")
        host.cmd("lock")
        host.cmd("open_answering", seconds=60)
        for name in ("A", "B", "C", "D"):
            client = a if name in "AC" else b
            token = (host if name in "AC" else teams).tokens[name]
            body = {
                "question": question,
                "text": f"t{name}",
                "submission_id": f"answer-{question}-{name}",
            }
            answered = client.post(
                f"/api/quiz/events/{host.event_id}/answer", json=body, headers=bearer(token)
            )
            assert answered.status_code == 200, answered.text
        # the answers sent through B reach A's judge console through the notices
        assert eventually(lambda: host.judge_view()["open"]["answered"] == 4)
        host.cmd("judge", teams=["A", "B", "C", "D"], correct=True)
        host.cmd("resolve")
    final = eventually(
        lambda: teams.projector()["phase"]["stage"] in ("finished", "lightning", "part_over")
    )
    assert final
    seq = host.judge_view()["seq"]
    assert eventually(lambda: teams.projector()["seq"] == seq)


def test_one_process_at_a_time_holds_a_games_computer_moves(postgres_url: str) -> None:
    engine = make_engine(postgres_url)
    try:
        first, second = Repository(engine), Repository(engine)
        claim = first.claim_turn("g1")
        assert claim is not None
        assert second.claim_turn("g1") is None
        other = second.claim_turn("g2")  # another game is free
        assert other is not None
        claim.release()
        again = second.claim_turn("g1")
        assert again is not None
        again.release()
        other.release()
    finally:
        engine.dispose()


def _claimed(postgres_url: str, game_id: str) -> bool:
    """Whether some process holds the claim on ``game_id``'s computer moves (the
    advisory lock that ``Repository.claim_turn`` takes, seen in ``pg_locks``)."""
    engine = make_engine(postgres_url)
    try:
        with engine.connect() as connection:
            held = connection.execute(
                text(
                    "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' "
                    "AND objsubid = 1 AND granted "
                    "AND objid = (hashtext(:key)::bigint & 4294967295)::oid"
                ),
                {"key": f"koth-turn:{game_id}"},
            ).scalar()
    finally:
        engine.dispose()
    return bool(held)


def test_a_computer_move_claimed_by_a_killed_process_is_made_by_another(
    postgres_url: str,
) -> None:
    """Process A claims a computer seat's move and thinks without end; it is killed;
    process B, where the game is watched, takes the move over. Every wait is for an
    event (A's claim, B's start, B's move), so a busy machine only makes it slower."""
    slow = LiveServer(
        postgres_url,
        extra_games=("tests.core.toy_game",),
        # A never finishes the think on its own, however long B takes to start
        env={"KOTH_MAX_AGENT_SECONDS": "3600", "KOTH_MAX_AGENT_ITERATIONS": str(10**9)},
    ).start(timeout=120)
    quick = LiveServer(
        postgres_url,
        extra_games=("tests.core.toy_game",),
        env={"KOTH_MAX_AGENT_SECONDS": "1", "KOTH_TAKEOVER_SECONDS": "1"},
    )
    try:
        seats = [{"kind": "computer", "agent": "mcts", "budget": 10**9}, {"kind": "human"}]
        game = httpx.post(f"{slow.url}/api/games", json={"game": "toy_duel", "seats": seats})
        game_id = game.json()["id"]
        version = httpx.get(f"{slow.url}/api/games/{game_id}").json()["version"]
        assert eventually(lambda: _claimed(postgres_url, game_id), within=120.0)
        quick.start(timeout=120)
        assert httpx.get(f"{quick.url}/api/games/{game_id}").json()["version"] == version
        slow.kill()
        moved = eventually(
            lambda: httpx.get(f"{quick.url}/api/games/{game_id}").json()["version"] > version,
            within=120.0,
        )
        assert moved, "no process made the move that the killed one had claimed"
    finally:
        slow.stop()
        quick.stop()


def redis_url() -> str | None:
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=1):
            return "redis://127.0.0.1:6379"
    except OSError:
        return None


def test_notices_through_redis(postgres_url: str) -> None:
    url = redis_url()
    if url is None:
        pytest.skip("Redis is not reachable at 127.0.0.1:6379")
    settings = make_settings(postgres_url, broker=url)
    with (
        TestClient(create_app(settings)) as a,
        TestClient(create_app(make_settings(postgres_url, broker=url))) as b,
    ):
        game = create_game(a)
        assert b.get(f"/api/games/{game.id}").status_code == 200  # B holds it too
        moved = a.post(
            f"/api/games/{game.id}/actions", json={"action": "stake 1"}, headers=game.auth(0)
        ).json()["version"]
        assert eventually(lambda: b.get(f"/api/games/{game.id}").json()["version"] == moved)


def test_a_killed_process_loses_nothing_its_clients_were_told(postgres_url: str) -> None:
    """Moves acknowledged by process A are all there when its clients turn to B after
    A was killed, and they play on there."""
    a = LiveServer(postgres_url, extra_games=("tests.core.toy_game",)).start()
    b = LiveServer(postgres_url, extra_games=("tests.core.toy_game",)).start()
    try:
        created = httpx.post(f"{a.url}/api/games", json={"game": "toy_duel"}).json()
        game_id = created["id"]
        tokens = {s["seat"]: s["token"] for s in created["seats"]}
        auth = {seat: {"Authorization": f"Bearer {t}"} for seat, t in tokens.items()}
        acknowledged = httpx.post(
            f"{a.url}/api/games/{game_id}/actions", json={"action": "stake 2"}, headers=auth[0]
        ).json()["version"]
        a.kill()
        state = httpx.get(f"{b.url}/api/games/{game_id}", headers=auth[1]).json()
        assert state["version"] == acknowledged
        assert state["legal"] and 1 in state["to_move"]["players"]
        body = {"action": state["legal"][0]["text"], "version": acknowledged}
        assert (
            httpx.post(
                f"{b.url}/api/games/{game_id}/actions", json=body, headers=auth[1]
            ).status_code
            == 200
        )
    finally:
        a.stop()
        b.stop()
