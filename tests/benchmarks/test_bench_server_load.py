"""The server load benchmark's own client: its HTTP connection, the version read from a
frame without parsing it and the state read up to its log agree with a full parse; with
PostgreSQL reachable, a short run prints and writes its figures (no timing is asserted)."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import psycopg
import pytest

from koth.server.games.schemas import (
    GameStatus,
    LegalAction,
    LogEntry,
    SeatKind,
    SeatSummary,
    StateMessage,
    ToMoveInfo,
)

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_server_load import DEFAULT_DATABASE, Http, frame_version, read_state  # noqa: E402


def message(version: int, log: int) -> bytes:
    """A state message as the server writes it, with ``log`` entries and a view that
    holds keys named like the message's own."""
    legal = [LegalAction(id=i, text=f"c{i}", type="play", fields={"card": i}) for i in range(3)]
    entry = LogEntry(
        move=1, decision=0, seat=0, code="played", rule="C8", params={"card": "5H"}, text="x"
    )
    return (
        StateMessage(
            game_id="g1",
            game="cards",
            params={"jokers": 3, "nested": {"version": 999}},
            version=version,
            status=GameStatus.RUNNING,
            seat=1,
            seats=[SeatSummary(seat=s, kind=SeatKind.HUMAN, claimed=True) for s in (0, 1)],
            to_move=ToMoveInfo(kind="simultaneous", players=[0, 1]),
            submitted=[0],
            view={"hand": ["5H", "6H"], "legal": [], "version": -1, "log_from": 3},
            legal=legal,
            outcome=None,
            returns=None,
            log=[entry] * log,
        )
        .model_dump_json()
        .encode()
    )


@pytest.mark.parametrize("version", [0, 7, 1234])
def test_the_version_of_a_frame_is_read_as_a_full_parse_reads_it(version: int) -> None:
    frame = message(version, log=5)
    assert b'},"version":' in frame  # the layout the scan relies on
    assert frame_version(frame) == json.loads(frame)["version"] == version
    # another layout is parsed whole; another type of frame has no version
    reordered = json.dumps({"type": "state", "version": version, "params": {}}).encode()
    assert frame_version(reordered.replace(b" ", b"")) == version
    assert frame_version(b'{"type":"error","code":"x"}') is None


def test_a_state_read_up_to_its_log_holds_what_a_full_parse_holds() -> None:
    answer = message(42, log=50)
    full = json.loads(answer)
    head = read_state(answer)
    assert "log" not in head  # the log was not parsed
    for key in ("version", "submitted", "legal", "outcome", "view", "seats"):
        assert head[key] == full[key]
    reordered = json.dumps({"log_from": 0, **full}).encode()
    assert read_state(reordered) == full


async def serve_answers(
    answers: list[bytes], seen: list[bytes], silent: set[int]
) -> tuple[asyncio.Server, int]:
    """A server answering each request with the next of ``answers``; a connection is
    closed after each answer whose head asks for it, after the answers numbered in
    ``silent`` (as a server lets an idle connection go) and after the last one."""

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        while answers:
            head = await reader.readuntil(b"\r\n\r\n")
            length = int(head.lower().split(b"content-length:")[1].split(b"\r\n")[0])
            seen.append(head + await reader.readexactly(length))
            answer = answers.pop(0)
            writer.write(answer)
            await writer.drain()
            if b"connection: close" in answer.lower() or len(seen) in silent or not answers:
                break
        writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    return server, server.sockets[0].getsockname()[1]


def test_the_http_connection_reads_each_kind_of_answer_and_reconnects() -> None:
    answers = [
        b'HTTP/1.1 200 OK\r\ncontent-length: 9\r\ncontent-type: application/json\r\n\r\n{"a": 10}',
        b'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n4\r\n{"b"\r\n3\r\n: 2\r\n1\r\n}'
        b"\r\n0\r\n\r\n",
        b"HTTP/1.1 409 Conflict\r\ncontent-length: 2\r\nconnection: close\r\n\r\n{}",
        b"HTTP/1.1 200 OK\r\ncontent-length: 4\r\n\r\nnull",
    ]
    seen: list[bytes] = []

    async def run() -> list[tuple[int, Any]]:
        server, port = await serve_answers(answers, seen, silent={1})
        http = Http("127.0.0.1", port)
        got = []
        for body in ({"x": 1}, None, None, None):
            status, data = await http.request("POST", "/p", body, token="t0k")
            got.append((status, json.loads(data)))
        http.close()
        server.close()
        return got

    got = asyncio.run(asyncio.wait_for(run(), 60))
    assert got == [(200, {"a": 10}), (200, {"b": 2}), (409, {}), (200, None)]
    assert seen[0].startswith(b"POST /p HTTP/1.1\r\n")
    assert b"Authorization: Bearer t0k\r\n" in seen[0] and seen[0].endswith(b'{"x": 1}')
    assert b"Content-Length: 0\r\n" in seen[1]
    assert len(seen) == 4  # the request after the silent close was sent once more, anew


def test_a_short_run_prints_and_writes_every_figure(tmp_path: Path) -> None:
    plain = DEFAULT_DATABASE.replace("postgresql+psycopg://", "postgresql://")
    try:
        psycopg.connect(plain, connect_timeout=3).close()
    except psycopg.Error:
        pytest.skip("PostgreSQL is not reachable at the benchmark's default database")
    out = tmp_path / "load.json"
    command = [sys.executable, str(ROOT / "benchmarks" / "bench_server_load.py")]
    args = ["--games", "2", "--spectators", "4", "--seconds", "2", "--workers", "1"]
    result = subprocess.run(
        [*command, *args, "--reads", "needed", "--json", str(out)],
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    assert "load generator CPU" in result.stdout and "waiting for a core" in result.stdout
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["reads"] == "needed" and report["spectators"] == 4
    (row,) = report["runs"]
    assert row["workers"] == 1 and row["moves_per_s"] > 0 and row["posts_refused"] == 0
    for key in ("post_p99_ms", "spectator_p99_ms", "server_cpu_ms", "generator_cpu_ms"):
        assert key in row


def test_the_http_connection_is_kept_between_answers() -> None:
    """Answers without ``connection: close`` leave the connection open: every request of
    a table goes to the same server process, as a browser's would."""
    answer = b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}"
    connections: list[int] = []

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        connections.append(1)
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = int(head.lower().split(b"content-length: ")[1].split(b"\r\n")[0])
                await reader.readexactly(length)
                writer.write(answer)
                await writer.drain()
        except asyncio.IncompleteReadError:
            writer.close()

    async def run() -> list[int]:
        server = await asyncio.start_server(handle, "127.0.0.1", 0)
        http = Http("127.0.0.1", server.sockets[0].getsockname()[1])
        statuses = [(await http.request("GET", "/g"))[0] for _ in range(3)]
        http.close()
        server.close()
        return statuses

    assert asyncio.run(asyncio.wait_for(run(), 60)) == [200, 200, 200]
    assert len(connections) == 1
