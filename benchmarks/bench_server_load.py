"""Load of the web app on PostgreSQL with 1 and 2 worker processes (everything on
127.0.0.1): N card games driven over HTTP with random legal moves, M spectators on
WebSockets spread over them.

Prints, per number of workers: moves/s, the move POST's latency (p50/p99, answered once
committed), the time from a POST's answer to a spectator receiving that version
(p50/p99; a spectator may be served by another process than the player) and the
server's CPU time per move (every server process together; on a machine shared with
other work this is the figure that the other work changes least). The clock starts once
every spectator is connected.

Usage: python benchmarks/bench_server_load.py [--games 20] [--spectators 200]
       [--seconds 20] [--workers 1 2] [--database postgresql+psycopg://...]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import time
import uuid
from pathlib import Path

import httpx
import psycopg
import websockets

from serving import start_koth

DEFAULT_DATABASE = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


class Run:
    def __init__(self) -> None:
        self.post_ms: list[float] = []
        self.answered: dict[tuple[str, int], float] = {}
        self.seen: dict[tuple[str, int], list[float]] = {}
        self.moves = 0
        self.stop = False
        self.connected = 0
        #: the server's CPU time per move (ms)
        self.cpu_ms = float("nan")
        #: the load generator's own CPU time per move (ms): near its whole core, the
        #: generator is what limits the figures, not the server
        self.own_ms = float("nan")
        #: the time the server's threads were ready but waited for a core, per move (ms)
        self.waited_ms = float("nan")


async def drive(client: httpx.AsyncClient, run: Run, rng: random.Random) -> None:
    """One table after another: random legal moves by whichever seat may act."""
    while not run.stop:
        created = (await client.post("/api/games", json={"game": "cards"})).json()
        game = created["id"]
        auth = {s["seat"]: {"Authorization": f"Bearer {s['token']}"} for s in created["seats"]}
        finished = False
        while not finished and not run.stop:
            acted = False
            for seat in (0, 1):
                state = (await client.get(f"/api/games/{game}", headers=auth[seat])).json()
                if state["outcome"] is not None:
                    finished = True
                    break
                if not state["legal"]:
                    continue
                choice = rng.choice(state["legal"])
                body = {"action_id": choice["id"], "version": state["version"]}
                sent = time.perf_counter()
                reply = await client.post(
                    f"/api/games/{game}/actions", json=body, headers=auth[seat]
                )
                done = time.perf_counter()
                if reply.status_code == 200:
                    run.post_ms.append((done - sent) * 1000)
                    run.answered[(game, reply.json()["version"])] = done
                    run.moves += 1
                    acted = True
            if not acted and not finished:
                await asyncio.sleep(0.01)


async def spectate(url: str, game: str, run: Run) -> None:
    async with websockets.connect(f"{url}/api/games/{game}/ws", max_size=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": None}))
        json.loads(await ws.recv())  # the first state: connected
        run.connected += 1
        while not run.stop:
            try:
                raw = await asyncio.wait_for(ws.recv(), 1.0)
            except TimeoutError:
                continue
            frame = json.loads(raw)
            if frame.get("type") == "state":
                run.seen.setdefault((game, frame["version"]), []).append(time.perf_counter())


def family(pid: int) -> set[int]:
    """Process ``pid`` and every process below it."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            parents[int(entry.name)] = int(fields[1])
    members, grown = {pid}, True
    while grown:
        more = {child for child, parent in parents.items() if parent in members} - members
        grown = bool(more)
        members |= more
    return members


def cpu_seconds(pid: int) -> tuple[float, float]:
    """The CPU time (user and system) of process ``pid`` and every process below it, and
    the time their threads were ready to run but waited for a core (the machine's other
    work; from ``schedstat``)."""
    ticks, waited = 0, 0
    for member in family(pid):
        try:
            fields = (Path("/proc") / str(member) / "stat").read_text().rsplit(")", 1)[1].split()
            tasks = list((Path("/proc") / str(member) / "task").iterdir())
        except OSError:
            continue
        ticks += int(fields[11]) + int(fields[12])  # utime, stime
        for task in tasks:
            try:
                waited += int((task / "schedstat").read_text().split()[1])
            except (OSError, IndexError):
                continue
    return ticks / os.sysconf("SC_CLK_TCK"), waited / 1e9


async def measure(url: str, games: int, spectators: int, seconds: float, pid: int) -> Run:
    run = Run()
    limits = httpx.Limits(max_connections=games * 2)
    async with httpx.AsyncClient(base_url=url, limits=limits, timeout=30) as client:
        drivers = [asyncio.create_task(drive(client, run, random.Random(i))) for i in range(games)]
        await asyncio.sleep(1.0)  # the first tables exist: spread the spectators over them
        listed = (await client.get("/api/games")).json()
        ws_url = url.replace("http://", "ws://")
        watchers = [
            asyncio.create_task(spectate(ws_url, listed[i % len(listed)]["id"], run))
            for i in range(spectators)
        ]
        while run.connected < spectators:
            if all(w.done() for w in watchers):
                raise SystemExit(f"only {run.connected} of {spectators} spectators connected")
            await asyncio.sleep(0.1)
        run.post_ms.clear()
        run.moves = 0
        print(f"{spectators} spectators connected: measuring", flush=True)
        started, cpu, own = time.perf_counter(), cpu_seconds(pid), time.process_time()
        await asyncio.sleep(seconds)
        elapsed = time.perf_counter() - started
        cpu_after = cpu_seconds(pid)
        run.cpu_ms = (cpu_after[0] - cpu[0]) * 1000 / max(run.moves, 1)
        run.waited_ms = (cpu_after[1] - cpu[1]) * 1000 / max(run.moves, 1)
        run.own_ms = (time.process_time() - own) * 1000 / max(run.moves, 1)
        run.stop = True
        await asyncio.gather(*drivers, *watchers, return_exceptions=True)
    run.moves = int(run.moves / elapsed * 1000) / 1000  # per second, kept in moves
    return run


def start(database: str, workers: int) -> tuple[subprocess.Popen[bytes], str]:
    env = {
        "KOTH_SOCKETS_PER_CLIENT": "100000",
        "KOTH_SOCKETS_PER_GAME": "100000",
        **{f"KOTH_RATE_{k}": "100000000/minute" for k in ("CREATE", "ACT", "LOOKUP")},
    }
    # a generous wait: workers starting on a busy machine take their time
    return start_koth(database, env, ["--workers", str(workers)], timeout=240)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--spectators", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--database", default=DEFAULT_DATABASE)
    args = parser.parse_args()
    plain = args.database.replace("postgresql+psycopg://", "postgresql://")
    print(f"{args.games} games, {args.spectators} spectators, {args.seconds:g} s each")
    for workers in args.workers:
        schema = f"koth_load_{uuid.uuid4().hex[:10]}"
        with psycopg.connect(plain, autocommit=True) as connection:
            connection.execute(f'CREATE SCHEMA "{schema}"')
        process = None
        try:  # the schema goes whatever fails, a start that never got ready too
            process, url = start(f"{args.database}?options=-csearch_path%3D{schema}", workers)
            run = asyncio.run(measure(url, args.games, args.spectators, args.seconds, process.pid))
        finally:
            if process is not None:
                process.terminate()
                process.wait(30)
            with psycopg.connect(plain, autocommit=True) as connection:
                connection.execute(f'DROP SCHEMA "{schema}" CASCADE')
        delays = [
            (seen - run.answered[key]) * 1000
            for key, times in run.seen.items()
            if key in run.answered
            for seen in times
        ]
        print(
            f"workers {workers}: {run.moves:.1f} moves/s; POST p50 "
            f"{statistics.median(run.post_ms):.1f} ms, p99 {percentile(run.post_ms, 99):.1f} ms; "
            f"move to spectator p50 {percentile(delays, 50):.1f} ms, p99 "
            f"{percentile(delays, 99):.1f} ms ({len(delays)} deliveries); server CPU "
            f"{run.cpu_ms:.2f} ms a move (and {run.waited_ms:.2f} ms waiting for a core), "
            f"load generator CPU {run.own_ms:.2f} ms a move; "
            f"load average {os.getloadavg()[0]:.1f}"
        )


if __name__ == "__main__":
    main()
