"""The web app against a hostile visitor on one address (everything on 127.0.0.1).

Starts ``koth serve`` with its default limits on a temporary SQLite file and runs the
scenarios that used to hurt it, printing for each what the server answered and its
memory (resident set of the server process; its high-water mark for the big body):

* a 500 MB POST, announced by Content-Length, and one streamed without it;
* 1,000 game creations;
* 100,000 requests for unknown game ids (with the lookup limit raised, so every one
  reaches the app: what it keeps of them is what is measured);
* 15,000 spectator WebSocket attempts on one game;
* two games whose computer seats ask for the largest budget, and the time a third
  game's quick computer seat takes to move.

Usage: python benchmarks/bench_hostile.py [--unknown 100000] [--sockets 15000]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import websockets

from serving import start_koth

MB = 1024 * 1024


class Server:
    def __init__(self, database: str, **env: str) -> None:
        self.process, self.url = start_koth(database, env, ready_path="/api/catalog")
        self.port = int(self.url.rsplit(":", 1)[1])

    def memory(self, field: str = "VmRSS") -> float:
        """MB of the server process's memory (VmRSS now, VmHWM its peak)."""
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
        return float("nan")

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(10)


def big_body(server: Server) -> None:
    before = server.memory()
    with socket.create_connection(("127.0.0.1", server.port)) as s:
        head = (
            "POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            f"Content-Length: {500 * MB}\r\n\r\n"
        )
        s.sendall(head.encode())
        announced = s.recv(4096).split(b"\r\n", 1)[0].decode()

    def chunks() -> Any:
        block = b"x" * MB
        for _ in range(500):
            yield block

    started = time.monotonic()
    try:
        streamed = httpx.post(f"{server.url}/api/games", content=chunks(), timeout=60)
        answer = f"{streamed.status_code} {streamed.json()['error']['code']}"
    except httpx.HTTPError as exc:  # the server may close before the client stops sending
        answer = f"connection closed by the server ({type(exc).__name__})"
    print(
        f"500 MB body: announced -> {announced!r}; streamed -> {answer} after "
        f"{time.monotonic() - started:.2f} s; memory {before:.0f} MB before, peak "
        f"{server.memory('VmHWM'):.0f} MB, {server.memory():.0f} MB after"
    )


def creations(server: Server, count: int) -> None:
    before = server.memory()
    statuses: Counter[int] = Counter()
    started = time.monotonic()
    with httpx.Client(base_url=server.url) as client:
        for _ in range(count):
            statuses[client.post("/api/games", json={"game": "cards"}).status_code] += 1
    print(
        f"{count} game creations in {time.monotonic() - started:.1f} s: {dict(statuses)}; "
        f"memory +{server.memory() - before:.1f} MB"
    )


async def unknown_ids(server: Server, count: int) -> None:
    before = server.memory()
    statuses: Counter[int] = Counter()
    started = time.monotonic()
    limits = httpx.Limits(max_connections=20, max_keepalive_connections=20)
    async with httpx.AsyncClient(base_url=server.url, limits=limits) as client:
        gate = asyncio.Semaphore(20)

        async def one(i: int) -> None:
            async with gate:
                response = await client.get(f"/api/games/unknown{i:07d}")
                statuses[response.status_code] += 1

        await asyncio.gather(*(one(i) for i in range(count)))
    print(
        f"{count} unknown game ids in {time.monotonic() - started:.1f} s: {dict(statuses)}; "
        f"memory +{server.memory() - before:.1f} MB"
    )


async def spectators(server: Server, count: int) -> None:
    game = httpx.post(f"{server.url}/api/games", json={"game": "cards"}).json()["id"]
    before = server.memory()
    url = f"ws://127.0.0.1:{server.port}/api/games/{game}/ws"
    held: list[Any] = []
    outcomes: Counter[str] = Counter()
    gate = asyncio.Semaphore(100)

    async def attempt() -> None:
        async with gate:
            try:
                ws = await websockets.connect(url, open_timeout=10)
                await ws.send(json.dumps({"type": "hello", "token": None}))
                frame = json.loads(await asyncio.wait_for(ws.recv(), 10))
            except Exception:  # closed by the server before or after the hello
                outcomes["closed by the server"] += 1
                return
            if frame.get("type") == "state":
                outcomes["accepted"] += 1
                held.append(ws)
            else:
                outcomes[frame.get("error", {}).get("code", "error")] += 1
                await ws.close()

    started = time.monotonic()
    await asyncio.gather(*(attempt() for _ in range(count)))
    print(
        f"{count} spectator WebSocket attempts in {time.monotonic() - started:.1f} s: "
        f"{dict(outcomes)}; memory +{server.memory() - before:.1f} MB while held"
    )
    for ws in held:
        await ws.close()


def starvation(server: Server) -> None:
    with httpx.Client(base_url=server.url) as client:
        budget = client.get("/").text.split('class="seat-budget" min="1" max="', 1)[1]
        largest = int(budget.split('"', 1)[0])
        thinker = {"kind": "computer", "agent": "mcts", "budget": largest}
        for _ in range(2):
            client.post("/api/games", json={"game": "board", "seats": [thinker, thinker]})
        time.sleep(1.0)
        quick = [{"kind": "computer", "agent": "random"}] * 2
        started = time.monotonic()
        game = client.post("/api/games", json={"game": "board", "seats": quick}).json()["id"]
        first = client.get(f"/api/games/{game}").json()["version"]
        while client.get(f"/api/games/{game}").json()["version"] == first:
            time.sleep(0.05)
            if time.monotonic() - started > 60:
                print("third game's computer seat: no move within 60 s")
                return
    print(
        f"third game's random computer seat moved {time.monotonic() - started:.2f} s after "
        f"creation, beside two games searching {largest} iterations per move"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--creations", type=int, default=1000)
    parser.add_argument("--unknown", type=int, default=100_000)
    parser.add_argument("--sockets", type=int, default=15_000)
    args = parser.parse_args()
    scenarios: list[tuple[Any, dict[str, str]]] = [
        (big_body, {}),
        (lambda server: creations(server, args.creations), {}),
        (lambda server: asyncio.run(spectators(server, args.sockets)), {}),
        (starvation, {}),
        # every lookup reaches the app, to measure what unknown ids leave behind
        (
            lambda server: asyncio.run(unknown_ids(server, args.unknown)),
            {"KOTH_RATE_LOOKUP": "100000000/minute"},
        ),
    ]
    print("each scenario against a fresh koth serve with its default limits")
    with tempfile.TemporaryDirectory() as folder:
        for index, (scenario, env) in enumerate(scenarios):
            server = Server(f"sqlite:///{folder}/hostile{index}.sqlite3", **env)
            try:
                scenario(server)
            finally:
                server.stop()


if __name__ == "__main__":
    main()
