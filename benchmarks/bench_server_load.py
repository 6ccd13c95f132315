"""Load of the web app on PostgreSQL with 1 and 2 worker processes (everything on
127.0.0.1): N card games driven over HTTP with random legal moves, M spectators on
WebSockets spread over the tables that exist a second after the start (a table that
ends is followed by a new one that nobody watches).

A move is one seat's accepted POST of an action. A card game's node is simultaneous: the
first seat's POST stores its waiting choice (the game keeps its version; spectators are
sent that the seat has chosen), the second's plays both (a new version, sent to every
spectator of the game). With ``--reads each`` (the default) a seat reads its state (GET)
before each of its POSTs, and a seat with nothing to do reads too: about 2.2 requests a
move; with ``--reads needed`` it reads only when the answer to its last POST does not
hold its state now (the game has moved on since, or it has already chosen at this
node): about 1.7 requests a move. The line says how many reads a move made.

Prints, per number of workers: moves/s, the move POST's latency (p50/p99, answered once
committed), the time from the answer to the POST that made a version to each
spectator's first frame of that version (p50/p99; a spectator may be served by another
process than the player, and may receive its frame before the player its answer), the
server's CPU time per move (every server process together; on a machine shared with
other work this is the figure that the other work changes least), the time its threads
waited for a core, the load generator's own CPU time per move and the load average;
``--json FILE`` writes them too. The clock starts once every spectator is connected.

The load generator is kept cheap so that it measures the server, not itself: one
keep-alive connection per table (requests written directly, answers parsed by
httptools, Uvicorn's parser), uvloop when installed, a player's answer parsed only up
to its log, a spectator's frame read only for its version. ``--profile PREFIX`` writes
a cProfile of it during the measured seconds.

Usage: python benchmarks/bench_server_load.py [--games 20] [--spectators 200]
       [--seconds 20] [--workers 1 2] [--reads each|needed] [--json FILE]
       [--profile PREFIX] [--database postgresql+psycopg://...]
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import os
import random
import statistics
import subprocess
import time
import uuid
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httptools
import psycopg
import websockets

try:
    import uvloop
except ImportError:  # the standard event loop: the generator's figures are higher
    uvloop = None

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
        #: when the POST that made each version of a game was answered (the first answer
        #: carrying that version: a waiting choice keeps the game's version)
        self.answered: dict[tuple[str, int], float] = {}
        #: when each spectator first received each version of its game
        self.seen: dict[tuple[str, int], list[float]] = {}
        self.moves = 0
        self.moves_per_s = float("nan")
        self.reads = 0
        #: POSTs answered with an error (a stale version, a choice already made)
        self.refused = 0
        self.tables = 0
        self.stop = False
        self.connected = 0
        #: the server's CPU time per move (ms)
        self.cpu_ms = float("nan")
        #: the load generator's own CPU time per move (ms): near its whole core, the
        #: generator is what limits the figures, not the server
        self.own_ms = float("nan")
        #: the time the server's threads were ready but waited for a core, per move (ms)
        self.waited_ms = float("nan")
        #: the CPU time of the PostgreSQL processes per move (ms)
        self.database_ms = float("nan")
        #: the cores each server process used, busiest first
        self.cores: list[float] = []


class _Answer:
    """What httptools' callbacks gather of one answer."""

    def __init__(self) -> None:
        self.body: list[bytes] = []
        self.complete = False
        #: the server said it closes the connection after this answer
        self.closing = False

    def on_header(self, name: bytes, value: bytes) -> None:
        if name.lower() == b"connection" and b"close" in value.lower():
            self.closing = True

    def on_body(self, body: bytes) -> None:
        self.body.append(body)

    def on_message_complete(self) -> None:
        self.complete = True


class Http:
    """One keep-alive HTTP/1.1 connection, one request at a time (each table's driver
    has its own). httpx spent most of the generator's CPU: its pool scans every
    connection on each request and it looks up the running async library each time;
    this is a request line, up to four headers and a body read by its length."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(
        self, method: str, path: str, body: object = None, token: str | None = None
    ) -> tuple[int, bytes]:
        """The status and body of the answer; a connection the server closed while idle
        is opened again and the request sent once more."""
        payload = b"" if body is None else json.dumps(body).encode()
        head = f"{method} {path} HTTP/1.1\r\nHost: {self.host}\r\n"
        if token is not None:
            head += f"Authorization: Bearer {token}\r\n"
        if body is not None:
            head += "Content-Type: application/json\r\n"
        message = f"{head}Content-Length: {len(payload)}\r\n\r\n".encode() + payload
        for attempt in (0, 1):
            fresh = self.writer is None
            if self.reader is None or self.writer is None:
                self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
            self.writer.write(message)
            try:
                return await self._answer(self.reader)
            except (ConnectionError, asyncio.IncompleteReadError):
                self.close()
                if fresh or attempt:
                    raise
        raise AssertionError("unreachable")

    async def _answer(self, reader: asyncio.StreamReader) -> tuple[int, bytes]:
        """One answer, parsed by httptools (Uvicorn's HTTP parser): by its length or its
        chunks; a connection the server says it closes is closed here too."""
        answer = _Answer()
        parser = httptools.HttpResponseParser(answer)
        while not answer.complete:
            data = await reader.read(65536)
            if not data:  # closed before the answer was whole
                raise ConnectionError("the server closed the connection")
            parser.feed_data(data)
        if answer.closing:  # (httptools' should_keep_alive() is False once an answer is whole)
            self.close()
        return parser.get_status_code(), b"".join(answer.body)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


def frame_version(frame: bytes) -> int | None:
    """The version of a ``state`` frame, None for another frame. A frame is the server's
    compact JSON with ``type``, ``game_id``, ``game`` and ``params`` before ``version``:
    the number after the end of ``params`` is read without parsing the rest (a few kB
    with the new log entries); any other layout is parsed whole."""
    if not frame.startswith(b'{"type":"state"'):
        return None
    at = frame.find(b'},"version":')
    if at < 0:
        parsed = json.loads(frame)
        return int(parsed["version"]) if parsed.get("type") == "state" else None
    at += 12
    end = at
    while 48 <= frame[end] <= 57:  # the digits 0 to 9
        end += 1
    return int(frame[at:end])


def read_state(answer: bytes) -> Any:
    """A state message answered over HTTP, up to its log: the version, the submitted
    seats, the legal actions and the outcome come before it, and the whole log the
    answer carries (most of its size, growing with the game) is not parsed. The log
    starts at the first ``,"log_from":`` where the text before it is a whole object
    (the same key inside the view leaves an object open); another layout is parsed
    whole."""
    text = answer.decode()
    end = text.find(',"log_from":')
    while end > 0:
        try:
            state = json.loads(text[:end] + "}")
        except json.JSONDecodeError:
            end = text.find(',"log_from":', end + 1)
            continue
        if isinstance(state, dict) and {"version", "submitted", "legal", "outcome"} <= state.keys():
            return state
        break
    return json.loads(text)


def answer_version(answer: bytes) -> int:
    """The version of a state message answered over HTTP (laid out as a frame)."""
    version = frame_version(answer)
    return int(json.loads(answer)["version"]) if version is None else version


async def drive(http: Http, run: Run, rng: random.Random, read_each: bool) -> None:
    """One table after another: random legal moves by whichever seat may act. With
    ``read_each`` every move is a state read (GET) and the POST; else a seat's state is
    read only when the answer to its last POST does not hold it (the game has moved on
    since, or the seat has already chosen at this node)."""
    while not run.stop:
        created = json.loads((await http.request("POST", "/api/games", {"game": "cards"}))[1])
        run.tables += 1
        game = created["id"]
        tokens = {s["seat"]: s["token"] for s in created["seats"]}
        known: dict[int, Any] = {}  # each seat's last state, read or answered
        version = -1  # the newest version of the game answered
        finished = False
        while not finished and not run.stop:
            acted = False
            for seat in (0, 1):
                state = known.get(seat)
                if (
                    read_each
                    or state is None
                    or state["version"] != version
                    or seat in state["submitted"]
                    or not state["legal"]
                ):
                    state = read_state(
                        (await http.request("GET", f"/api/games/{game}", token=tokens[seat]))[1]
                    )
                    run.reads += 1
                    version = max(version, state["version"])
                if state["outcome"] is not None:
                    finished = True
                    break
                if not state["legal"]:
                    continue
                choice = rng.choice(state["legal"])
                body = {"action_id": choice["id"], "version": state["version"]}
                sent = time.perf_counter()
                status, answer = await http.request(
                    "POST", f"/api/games/{game}/actions", body, tokens[seat]
                )
                done = time.perf_counter()
                if status == 200:
                    run.post_ms.append((done - sent) * 1000)
                    if read_each:
                        moved = answer_version(answer)
                    else:
                        known[seat] = read_state(answer)
                        moved = known[seat]["version"]
                    run.answered.setdefault((game, moved), done)
                    version = max(version, moved)
                    run.moves += 1
                    acted = True
                else:
                    run.refused += 1
            if not acted and not finished:
                await asyncio.sleep(0.01)


async def spectate(url: str, game: str, run: Run) -> None:
    """A spectator of ``game``: the first time each version reaches it is kept (a
    waiting choice sends the same version again, with the seat marked as submitted)."""
    async with websockets.connect(f"{url}/api/games/{game}/ws", max_size=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": None}))
        last = frame_version(await ws.recv(decode=False))  # the first state: connected
        if last is None:
            raise SystemExit(f"spectator of {game}: no first state")
        run.connected += 1
        while True:  # until cancelled
            version = frame_version(await ws.recv(decode=False))
            if version is not None and version > last:
                last = version
                run.seen.setdefault((game, version), []).append(time.perf_counter())


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


def cpu_seconds(pid: int) -> tuple[float, float, dict[int, float]]:
    """The CPU time (user and system) of process ``pid`` and every process below it, the
    time their threads were ready to run but waited for a core (the machine's other
    work; from ``schedstat``), and each process's own CPU time."""
    ticks, waited = 0, 0
    each: dict[int, float] = {}
    for member in family(pid):
        try:
            fields = (Path("/proc") / str(member) / "stat").read_text().rsplit(")", 1)[1].split()
            tasks = list((Path("/proc") / str(member) / "task").iterdir())
        except OSError:
            continue
        own = int(fields[11]) + int(fields[12])  # utime, stime
        ticks += own
        each[member] = own / os.sysconf("SC_CLK_TCK")
        for task in tasks:
            try:
                waited += int((task / "schedstat").read_text().split()[1])
            except (OSError, IndexError):
                continue
    return ticks / os.sysconf("SC_CLK_TCK"), waited / 1e9, each


def database_cpu_seconds() -> float:
    """The CPU time (user and system) of every PostgreSQL process on this machine: the
    database's share of a move (run on an otherwise quiet database)."""
    ticks = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if (entry / "comm").read_text().strip() != "postgres":
                continue
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


async def measure(
    url: str, games: int, spectators: int, seconds: float, pid: int, read_each: bool, profile: str
) -> Run:
    run = Run()
    parts = urlsplit(url)
    host, port = parts.hostname or "127.0.0.1", parts.port or 80
    https = [Http(host, port) for _ in range(games)]
    drivers = [
        asyncio.create_task(drive(http, run, random.Random(i), read_each))
        for i, http in enumerate(https)
    ]
    await asyncio.sleep(1.0)  # the first tables exist: spread the spectators over them
    lister = Http(host, port)
    listed = json.loads((await lister.request("GET", "/api/games"))[1])
    lister.close()
    ws_url = url.replace("http://", "ws://")
    watchers = [
        asyncio.create_task(spectate(ws_url, listed[i % len(listed)]["id"], run))
        for i in range(spectators)
    ]
    try:
        while run.connected < spectators:
            if all(w.done() for w in watchers):
                raise SystemExit(f"only {run.connected} of {spectators} spectators connected")
            await asyncio.sleep(0.1)
        run.post_ms.clear()
        run.moves = run.reads = run.refused = run.tables = 0
        print(f"{spectators} spectators connected: measuring", flush=True)
        profiler = cProfile.Profile() if profile else None
        started, cpu, own = time.perf_counter(), cpu_seconds(pid), time.process_time()
        database = database_cpu_seconds()
        if profiler is not None:
            profiler.enable()
        await asyncio.sleep(seconds)
        if profiler is not None:
            profiler.disable()
            profiler.dump_stats(profile)
        elapsed = time.perf_counter() - started
        cpu_after = cpu_seconds(pid)
        run.cpu_ms = (cpu_after[0] - cpu[0]) * 1000 / max(run.moves, 1)
        run.waited_ms = (cpu_after[1] - cpu[1]) * 1000 / max(run.moves, 1)
        run.database_ms = (database_cpu_seconds() - database) * 1000 / max(run.moves, 1)
        # each server process's cores: with several workers, how evenly the kernel's
        # accepts spread the connections over them
        run.cores = sorted(
            ((after - cpu[2].get(member, 0.0)) / elapsed for member, after in cpu_after[2].items()),
            reverse=True,
        )
        run.own_ms = (time.process_time() - own) * 1000 / max(run.moves, 1)
        run.moves_per_s = run.moves / elapsed
    finally:
        run.stop = True
        for watcher in watchers:
            watcher.cancel()
        await asyncio.gather(*drivers, *watchers, return_exceptions=True)
        for http in https:
            http.close()
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
    parser.add_argument(
        "--reads",
        choices=["each", "needed"],
        default="each",
        help="each: a state read (GET) before every move; needed: only when the answer "
        "to the seat's last move does not hold its state",
    )
    parser.add_argument("--json", metavar="FILE", help="also write the figures to FILE")
    parser.add_argument(
        "--profile",
        metavar="PREFIX",
        help="cProfile of the load generator during the measured seconds, to PREFIX-<workers>.prof",
    )
    args = parser.parse_args()
    plain = args.database.replace("postgresql+psycopg://", "postgresql://")
    print(
        f"{args.games} games, {args.spectators} spectators, {args.seconds:g} s each, "
        f"state reads: {args.reads}, event loop: {'uvloop' if uvloop else 'asyncio'}"
    )
    rows = []
    for workers in args.workers:
        schema = f"koth_load_{uuid.uuid4().hex[:10]}"
        with psycopg.connect(plain, autocommit=True) as connection:
            connection.execute(f'CREATE SCHEMA "{schema}"')
        process = None
        profile = f"{args.profile}-{workers}.prof" if args.profile else ""
        try:  # the schema goes whatever fails, a start that never got ready too
            process, url = start(f"{args.database}?options=-csearch_path%3D{schema}", workers)
            coroutine = measure(
                url,
                args.games,
                args.spectators,
                args.seconds,
                process.pid,
                args.reads == "each",
                profile,
            )
            run = uvloop.run(coroutine) if uvloop else asyncio.run(coroutine)
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
        row = {
            "workers": workers,
            "moves_per_s": round(run.moves_per_s, 2),
            "reads_a_move": round(run.reads / max(run.moves, 1), 3),
            "posts_refused": run.refused,
            "tables_started": run.tables,
            "post_p50_ms": round(statistics.median(run.post_ms or [float("nan")]), 2),
            "post_p99_ms": round(percentile(run.post_ms, 99), 2),
            "spectator_p50_ms": round(percentile(delays, 50), 2),
            "spectator_p99_ms": round(percentile(delays, 99), 2),
            "deliveries": len(delays),
            "server_cpu_ms": round(run.cpu_ms, 3),
            "waiting_ms": round(run.waited_ms, 3),
            "database_cpu_ms": round(run.database_ms, 3),
            "process_cores": [round(c, 3) for c in run.cores],
            "generator_cpu_ms": round(run.own_ms, 3),
            "load_average": round(os.getloadavg()[0], 2),
        }
        rows.append(row)
        print(
            f"workers {workers}: {run.moves_per_s:.1f} moves/s "
            f"({row['reads_a_move']:.2f} state reads a move, {run.refused} POSTs refused, "
            f"{run.tables} tables started); "
            f"POST p50 {row['post_p50_ms']:.1f} ms, p99 {row['post_p99_ms']:.1f} ms; "
            f"move to spectator p50 {row['spectator_p50_ms']:.1f} ms, p99 "
            f"{row['spectator_p99_ms']:.1f} ms ({len(delays)} deliveries); server CPU "
            f"{run.cpu_ms:.2f} ms a move (and {run.waited_ms:.2f} ms waiting for a core), "
            f"PostgreSQL CPU {run.database_ms:.2f} ms a move, "
            f"cores of each server process {' '.join(f'{c:.2f}' for c in run.cores)}, "
            f"load generator CPU {run.own_ms:.2f} ms a move; "
            f"load average {row['load_average']:.1f}",
            flush=True,
        )
    if args.json:
        settings = {k: getattr(args, k) for k in ("games", "spectators", "seconds", "reads")}
        report = {**settings, "event_loop": "uvloop" if uvloop else "asyncio", "runs": rows}
        Path(args.json).write_text(json.dumps(report, indent=2) + "\n")


if __name__ == "__main__":
    main()
