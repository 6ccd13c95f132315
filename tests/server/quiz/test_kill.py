"""SIGKILL the real server while teams are submitting; after a restart every answer that
was acknowledged is stored exactly once, and retries of the others are idempotent."""

from __future__ import annotations

import asyncio
import sqlite3
import uuid
from collections import Counter

import httpx
import pytest

from tests.server.live_server import LiveServer
from tests.server.quiz.helpers import QuizApi, bearer

TEAMS = 40


@pytest.fixture
def server(own_server: LiveServer) -> LiveServer:
    """The test kills the server and reads its database: one of its own."""
    return own_server


async def _submit_all(
    server: LiveServer, api: QuizApi, sids: dict[str, str], acked: dict[str, float]
) -> None:
    async with httpx.AsyncClient(base_url=server.url, timeout=10) as client:

        async def one(i: int, team: str) -> None:
            await asyncio.sleep(i * 0.015)  # a burst spread over 0.6 s, like real phones
            body = {"question": 1, "text": f"answer of {team}", "submission_id": sids[team]}
            try:
                response = await client.post(
                    api.url("answer"), json=body, headers=bearer(api.tokens[team])
                )
            except httpx.HTTPError:
                return  # the server died under this request: not acknowledged
            if response.status_code == 200:
                acked[team] = response.json()["received_at"]

        async def killer() -> None:
            while len(acked) < TEAMS // 4:
                await asyncio.sleep(0.002)
            server.kill()

        await asyncio.gather(killer(), *(one(i, t) for i, t in enumerate(sids)))


def test_sigkill_while_teams_submit(server: LiveServer) -> None:
    with httpx.Client(base_url=server.url, timeout=10) as client:
        api = QuizApi(client)
        api.create(steps=5, questions=5)
        for i in range(TEAMS):
            api.join(f"team {i:02d}")
        api.cmd("start")
        api.cmd("open_question")
        api.cmd("lock")
        api.cmd("open_answering", seconds=600)
    sids = {team: uuid.uuid4().hex for team in api.tokens}
    acked: dict[str, float] = {}
    asyncio.run(_submit_all(server, api, sids, acked))
    assert server.process is not None and server.process.returncode == -9
    assert TEAMS // 4 <= len(acked) < TEAMS, "the kill should land mid-burst"

    server.start()
    with httpx.Client(base_url=server.url, timeout=10) as client:
        api.client = client
        # every page reconnects and retries what was not acknowledged, with the same id
        for team, sid in sids.items():
            body = {"question": 1, "text": f"answer of {team}", "submission_id": sid}
            response = client.post(api.url("answer"), json=body, headers=bearer(api.tokens[team]))
            assert response.status_code == 200, response.text
            if team in acked:
                assert response.json()["duplicate"]
                assert response.json()["received_at"] == acked[team]
        judge = api.judge_view()
    assert judge["open"]["answered"] == TEAMS
    assert sorted(t for g in judge["open"]["groups"] for t in g["teams"]) == sorted(sids)

    path = server.database.removeprefix("sqlite:///")
    with sqlite3.connect(path) as db:
        rows = db.execute(
            "SELECT submission_id FROM quiz_log WHERE kind = 'answered' AND event_id = ?",
            (api.event_id,),
        ).fetchall()
        seqs = [
            s for (s,) in db.execute("SELECT seq FROM quiz_log WHERE event_id = ?", (api.event_id,))
        ]
    counts = Counter(sid for (sid,) in rows)
    assert all(counts[sids[team]] == 1 for team in acked)
    assert sorted(counts) == sorted(sids.values()) and max(counts.values()) == 1
    assert seqs == list(range(1, len(seqs) + 1))
