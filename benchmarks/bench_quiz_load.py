"""Load test of live quiz hosting against the real server (no external service).

Starts ``koth serve`` on a free port with a temporary SQLite file, creates an event
with 1,000 teams (each joins with the code, as phones do), connects the projector and
(by default) one WebSocket per team, then has every team send its answer to one question
within 10 s (spread evenly, at most ``--concurrency`` requests in flight). Prints the
answer latency (p50/p99/max, from sending the request to the acknowledgement, which
comes after the commit), and the time from the judge's "resolve" until the projector
shows the resolved situation. Everything runs on 127.0.0.1.

Usage: python benchmarks/bench_quiz_load.py [--teams 1000] [--window 10]
       [--team-sockets 1000] [--concurrency 200] [--database sqlite:///path]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import websockets

from serving import start_koth


def start_server(database: str) -> tuple[subprocess.Popen[bytes], str]:
    # a thousand phones on one machine: one address, so its limits are raised
    env = {
        "KOTH_SOCKETS_PER_CLIENT": "100000",
        **{f"KOTH_RATE_{k}": "1000000/minute" for k in ("JOIN", "ACT", "LOOKUP")},
    }
    return start_koth(database, env)


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))
    return ordered[k]


class Http:
    """A minimal HTTP/1.1 keep-alive JSON client on asyncio streams.

    The load generator shares the machine with the server, so it must cost far less per
    request than the server does (httpx costs about as much as the server itself)."""

    def __init__(self, url: str, connections: int) -> None:
        host, port = url.removeprefix("http://").split(":")
        self.host, self.port = host, int(port)
        self.idle: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []
        self.gate = asyncio.Semaphore(connections)

    async def request(
        self, method: str, path: str, body: Any = None, token: str | None = None
    ) -> tuple[int, Any]:
        data = b"" if body is None else json.dumps(body).encode()
        auth = f"Authorization: Bearer {token}\r\n" if token else ""
        head = (
            f"{method} {path} HTTP/1.1\r\nHost: {self.host}\r\n{auth}"
            f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n\r\n"
        )
        async with self.gate:
            while True:
                reused = bool(self.idle)
                if reused:
                    reader, writer = self.idle.pop()
                else:
                    reader, writer = await asyncio.open_connection(self.host, self.port)
                writer.write(head.encode() + data)
                line = await reader.readline()
                if line or not reused:
                    break
                writer.close()  # the server closed an idle keep-alive connection: retry
            status = int(line.split()[1])
            length, close = 0, False
            while (line := await reader.readline()) not in (b"\r\n", b""):
                name, _, value = line.decode("latin-1").partition(":")
                if name.lower() == "content-length":
                    length = int(value)
                elif name.lower() == "connection" and value.strip().lower() == "close":
                    close = True
            payload = await reader.readexactly(length)
            if close:
                writer.close()
            else:
                self.idle.append((reader, writer))
            return status, json.loads(payload) if payload else None

    async def close(self) -> None:
        for _reader, writer in self.idle:
            writer.close()


def resolved(msg: dict[str, Any]) -> bool:
    phase = msg.get("phase") or {}
    return bool(phase.get("questions_played") == 1)


class Projector:
    """The projector's WebSocket: remembers when each situation arrived."""

    def __init__(self, ws_url: str) -> None:
        self.ws_url = ws_url
        self.resolved_at: float | None = None
        self.answered_seen = 0
        self.frames = 0

    async def run(self, ready: asyncio.Event) -> None:
        async with websockets.connect(self.ws_url, max_size=2**24) as ws:
            await ws.send(json.dumps({"type": "hello", "role": "projector", "token": None}))
            async for raw in ws:
                msg = json.loads(raw)
                self.frames += 1
                ready.set()
                if msg.get("answered"):
                    self.answered_seen = max(self.answered_seen, msg["answered"])
                if resolved(msg):
                    self.resolved_at = time.perf_counter()
                    return


async def team_socket(ws_url: str, token: str, connected: list[int]) -> bool:
    """One team's phone: True once it has been shown the resolved situation."""
    async with websockets.connect(ws_url, max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "role": "team", "token": token}))
        first = True
        async for raw in ws:
            if first:
                connected[0] += 1
                first = False
            if resolved(json.loads(raw)):
                return True
    return False


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of process ``pid`` (Linux /proc)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def run(args: argparse.Namespace, url: str, server_pid: int | None) -> None:
    http = Http(url, args.concurrency)
    ws_url = url.replace("http://", "ws://")
    status, created = await http.request(
        "POST", "/api/quiz/events", {"title": "load", "questions": 5}
    )
    assert status == 201, created
    event_id, code, host = created["id"], created["join_code"], created["host_token"]
    ws_url += f"/api/quiz/events/{event_id}/ws"

    async def join(i: int) -> str:
        status, out = await http.request(
            "POST", "/api/quiz/join", {"code": code, "team": f"Team {i:04d}"}
        )
        assert status == 201, out
        token: str = out["token"]
        return token

    t0 = time.perf_counter()
    tokens = await asyncio.gather(*(join(i) for i in range(args.teams)))
    print(f"{args.teams} teams joined in {time.perf_counter() - t0:.1f} s")

    async def judge(command: str, **body: Any) -> dict[str, Any]:
        status, out = await http.request(
            "POST", f"/api/quiz/events/{event_id}/judge/{command}", body, host
        )
        assert status == 200, out
        result: dict[str, Any] = out
        return result

    await judge("start")
    await judge("open_question")
    await judge("lock")
    await judge("open_answering", seconds=120)

    projector = Projector(ws_url)
    ready = asyncio.Event()
    projector_task = asyncio.create_task(projector.run(ready))
    await ready.wait()
    connected = [0]
    socket_tasks = [
        asyncio.create_task(team_socket(ws_url, t, connected)) for t in tokens[: args.team_sockets]
    ]
    deadline = time.perf_counter() + 60
    while connected[0] < len(socket_tasks) and time.perf_counter() < deadline:
        await asyncio.sleep(0.05)
    print(f"{connected[0]} team sockets connected")

    rng = random.Random(7)
    texts = [rng.choice(["Paris", "paris", "Rome", "London"]) for _ in tokens]
    sent: list[float] = []  # seconds after the window opened
    latencies: list[float] = []
    refused = 0
    path = f"/api/quiz/events/{event_id}/answer"
    server_cpu = cpu_seconds(server_pid) if server_pid else float("nan")
    client_cpu = time.process_time()
    t0 = time.perf_counter()

    async def answer(i: int, token: str) -> None:
        nonlocal refused
        # team i answers at its own moment: the n answers are spread evenly over the window
        await asyncio.sleep(max(0.0, t0 + args.window * i / args.teams - time.perf_counter()))
        body = {"question": 1, "text": texts[i], "submission_id": uuid.uuid4().hex}
        start = time.perf_counter()
        sent.append(start - t0)
        status, _out = await http.request("POST", path, body, token)
        latencies.append(time.perf_counter() - start)
        if status != 200:
            refused += 1

    await asyncio.gather(*(answer(i, t) for i, t in enumerate(tokens)))
    all_acked = time.perf_counter() - t0
    server_cpu = cpu_seconds(server_pid) - server_cpu if server_pid else float("nan")
    client_cpu = time.process_time() - client_cpu
    await judge("close_answering")
    _status, view = await http.request("GET", f"/api/quiz/events/{event_id}/judge", None, host)
    for g in view["open"]["groups"]:
        await judge("judge", key=g["key"], correct=g["key"] == "paris")
    resolve_start = time.perf_counter()
    await judge("resolve")
    resolve_acked = time.perf_counter()
    await asyncio.wait_for(projector_task, 60)
    team_done = await asyncio.wait_for(asyncio.gather(*socket_tasks), 60)
    teams_resolved = time.perf_counter()
    await http.close()
    assert projector.resolved_at is not None

    within = sum(1 for s in sent if s <= args.window)
    print(
        f"answers: {within} of {len(sent)} sent within the {args.window:.0f} s window "
        f"(last sent at {max(sent):.2f} s), all acknowledged {all_acked:.2f} s after "
        f"the window opened, {refused} refused"
    )
    print(
        f"answer latency: p50 {statistics.median(latencies) * 1000:.1f} ms, "
        f"p99 {percentile(latencies, 99) * 1000:.1f} ms, max {max(latencies) * 1000:.1f} ms"
    )
    print(f"CPU while answering: server {server_cpu:.1f} s, load generator {client_cpu:.1f} s")
    print(f"projector saw up to {projector.answered_seen} answered while open")
    print(f"resolve acknowledged after {(resolve_acked - resolve_start) * 1000:.0f} ms")
    print(
        "projector shows the resolved situation "
        f"{(projector.resolved_at - resolve_start) * 1000:.0f} ms after the judge pressed resolve"
    )
    print(
        f"team sockets: {sum(team_done)} of {len(team_done)} got the resolved state, "
        f"the last {(teams_resolved - resolve_start) * 1000:.0f} ms after resolve"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--teams", type=int, default=1000)
    parser.add_argument("--window", type=float, default=10.0, help="seconds the answers span")
    parser.add_argument("--team-sockets", type=int, default=1000)
    parser.add_argument("--concurrency", type=int, default=200)
    parser.add_argument("--database", default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        database = args.database or f"sqlite:///{tmp}/bench.sqlite3"
        process, url = start_server(database)
        try:
            asyncio.run(run(args, url, process.pid))
        finally:
            process.terminate()
            process.wait(10)


if __name__ == "__main__":
    main()
