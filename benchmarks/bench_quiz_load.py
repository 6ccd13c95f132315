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
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import httpx
import websockets


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start_server(database: str) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    koth = Path(sys.executable).with_name("koth")
    prefix = os.environ.get("BENCH_SERVER_PREFIX", "").split() or [str(koth)]
    process = subprocess.Popen(
        [*prefix, "serve", "--port", str(port), "--database", database],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "KOTH_COMPUTER_DELAY": "0"},
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{url}/quiz", timeout=1).status_code == 200:
                return process, url
        except httpx.HTTPError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit("koth serve did not start")


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))
    return ordered[k]


class Projector:
    """The projector's WebSocket: remembers when each situation arrived."""

    def __init__(self, url: str, event_id: str) -> None:
        self.ws_url = url.replace("http://", "ws://") + f"/api/quiz/events/{event_id}/ws"
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
                standings = msg.get("standings") or {}
                if standings.get("questions_played") == 1 and self.resolved_at is None:
                    self.resolved_at = time.perf_counter()
                    return


async def team_socket(url: str, event_id: str, token: str, stop: asyncio.Event) -> int:
    frames = 0
    ws_url = url.replace("http://", "ws://") + f"/api/quiz/events/{event_id}/ws"
    async with websockets.connect(ws_url, max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "role": "team", "token": token}))
        while not stop.is_set():
            try:
                await asyncio.wait_for(ws.recv(), 0.5)
                frames += 1
            except TimeoutError:
                continue
    return frames


async def run(args: argparse.Namespace, url: str) -> None:
    limits = httpx.Limits(
        max_connections=args.concurrency, max_keepalive_connections=args.concurrency
    )
    async with httpx.AsyncClient(base_url=url, timeout=60, limits=limits) as client:
        created = (
            await client.post("/api/quiz/events", json={"title": "load", "questions": 5})
        ).json()
        event_id, code = created["id"], created["join_code"]
        host = {"Authorization": f"Bearer {created['host_token']}"}
        gate = asyncio.Semaphore(args.concurrency)

        async def join(i: int) -> str:
            async with gate:
                r = await client.post(
                    "/api/quiz/join", json={"code": code, "team": f"Team {i:04d}"}
                )
                r.raise_for_status()
                token: str = r.json()["token"]
                return token

        t0 = time.perf_counter()
        tokens = await asyncio.gather(*(join(i) for i in range(args.teams)))
        print(f"{args.teams} teams joined in {time.perf_counter() - t0:.1f} s")

        async def judge(command: str, **body: Any) -> dict[str, Any]:
            r = await client.post(
                f"/api/quiz/events/{event_id}/judge/{command}", json=body, headers=host
            )
            r.raise_for_status()
            out: dict[str, Any] = r.json()
            return out

        await judge("start")
        await judge("open_question")
        await judge("lock")
        await judge("open_answering", seconds=120)

        projector = Projector(url, event_id)
        ready = asyncio.Event()
        projector_task = asyncio.create_task(projector.run(ready))
        await ready.wait()
        stop = asyncio.Event()
        socket_tasks = [
            asyncio.create_task(team_socket(url, event_id, t, stop))
            for t in tokens[: args.team_sockets]
        ]
        await asyncio.sleep(1.0 + args.team_sockets / 500)  # let the sockets say hello

        rng = random.Random(7)
        latencies: list[float] = []
        errors = 0

        async def answer(i: int, token: str) -> None:
            nonlocal errors
            await asyncio.sleep(args.window * i / args.teams)
            text = rng.choice(["Paris", "paris", "Rome", "London"])
            body = {"question": 1, "text": text, "submission_id": uuid.uuid4().hex}
            async with gate:
                start = time.perf_counter()
                r = await client.post(
                    f"/api/quiz/events/{event_id}/answer",
                    json=body,
                    headers={"Authorization": f"Bearer {token}"},
                )
                latencies.append(time.perf_counter() - start)
            if r.status_code != 200:
                errors += 1

        t0 = time.perf_counter()
        await asyncio.gather(*(answer(i, t) for i, t in enumerate(tokens)))
        burst = time.perf_counter() - t0
        await judge("close_answering")
        view = await client.get(f"/api/quiz/events/{event_id}/judge", headers=host)
        groups = view.json()["open"]["groups"]
        for g in groups:
            await judge("judge", key=g["key"], correct=g["key"] == "paris")
        resolve_start = time.perf_counter()
        await judge("resolve")
        resolve_acked = time.perf_counter()
        await asyncio.wait_for(projector_task, 60)
        stop.set()
        team_frames = await asyncio.gather(*socket_tasks)
        assert projector.resolved_at is not None

    print(f"answers: {len(latencies)} sent over {burst:.1f} s, {errors} refused")
    print(
        f"answer latency: p50 {statistics.median(latencies) * 1000:.1f} ms, "
        f"p99 {percentile(latencies, 99) * 1000:.1f} ms, max {max(latencies) * 1000:.1f} ms"
    )
    print(f"projector saw up to {projector.answered_seen} answered while open")
    print(f"resolve acknowledged after {(resolve_acked - resolve_start) * 1000:.0f} ms")
    print(
        "projector shows the resolved situation "
        f"{(projector.resolved_at - resolve_start) * 1000:.0f} ms after the judge pressed resolve"
    )
    print(
        f"team sockets: {len(team_frames)} connected, "
        f"{sum(1 for f in team_frames if f)} got the resolved state"
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
            asyncio.run(run(args, url))
        finally:
            process.terminate()
            process.wait(10)


if __name__ == "__main__":
    main()
