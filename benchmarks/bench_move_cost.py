"""What ``POST /api/games/{id}/actions`` costs the server: CPU and database transactions a
POST, the app called in this process (httpx's ASGI transport, the app's own lifespan).

Card games, both seats people: each round reads a seat's state (not measured) and POSTs
its first legal action (measured). A card game's node is simultaneous, so a POST either
stores a waiting choice (another seat has still to choose) or completes the node and
appends the joint move; turn-based nodes (if any) are counted apart. Printed for each
kind: POSTs, CPU a POST (``time.process_time`` of the whole Python process, database
threads and the client included, nothing else running meanwhile) and transactions a
POST (SQLAlchemy's ``begin`` events on the app's engine).

With ``--store N`` it measures the storage alone instead, in one thread, N times each
way in turns: the database work of the choice that completes a simultaneous node as one
transaction (``add_pending`` appending the joint move) and as two (``add_pending``
reading the other seats' choices, then ``append_moves``), the thread's CPU
(``time.thread_time``) of that work alone (the joint move is a fixed one: no rules run).

Usage: python benchmarks/bench_move_cost.py [--games 20] [--posts 600] [--store N]
       [--database postgresql+psycopg://...]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
import uuid
from collections import defaultdict
from typing import Any

import httpx
import psycopg
from sqlalchemy import event
from sqlalchemy.engine import Connection

from koth.server.app import create_app
from koth.server.settings import Settings

DEFAULT_DATABASE = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
LIMITS: dict[str, Any] = {
    f"rate_{kind}": "1000000/minute" for kind in ("create", "join", "recover", "act", "lookup")
}


class Table:
    """One card game the benchmark plays: its id, seat tokens and version."""

    def __init__(self, created: dict[str, Any]) -> None:
        self.id: str = created["id"]
        self.tokens = {s["seat"]: s["token"] for s in created["seats"] if s["token"]}
        self.version = -1


async def new_table(http: httpx.AsyncClient) -> Table:
    answer = await http.post("/api/games", json={"game": "cards"})
    answer.raise_for_status()
    return Table(answer.json())


async def run(database: str, games: int, posts: int) -> dict[str, list[tuple[float, int]]]:
    settings = Settings(database=database, computer_delay=0.0, **LIMITS)
    app = create_app(settings)
    costs: dict[str, list[tuple[float, int]]] = defaultdict(list)
    async with app.router.lifespan_context(app):
        begun = [0]

        def count(_connection: Connection) -> None:
            begun[0] += 1

        event.listen(app.state.engine, "begin", count)
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://bench") as http:
            tables = [await new_table(http) for _ in range(games)]
            done = 0
            while done < posts:
                for index, table in enumerate(tables):
                    for token in table.tokens.values():
                        auth = {"Authorization": f"Bearer {token}"}
                        state = (await http.get(f"/api/games/{table.id}", headers=auth)).json()
                        if state["status"] == "finished":
                            tables[index] = await new_table(http)
                            break
                        if not state["legal"]:
                            continue
                        kind = state["to_move"]["kind"]
                        body = {"action": state["legal"][0]["text"], "version": state["version"]}
                        begun[0] = 0
                        start = time.process_time()
                        answer = await http.post(
                            f"/api/games/{table.id}/actions", json=body, headers=auth
                        )
                        cpu = time.process_time() - start
                        answer.raise_for_status()
                        moved = answer.json()["version"] > state["version"]
                        if kind == "simultaneous":
                            kind = "completing" if moved else "waiting"
                        costs[kind].append((cpu, begun[0]))
                        done += 1
        event.remove(app.state.engine, "begin", count)
    return costs


def store_costs(database: str, rounds: int) -> dict[str, list[float]]:
    """The thread's CPU of a completing choice's database work, one and two
    transactions in turns (``rounds`` each), on one stored two-seat game."""
    from koth.server.database import make_engine, migrate
    from koth.server.games.rows import StoredSeat
    from koth.server.games.schemas import GameStatus, SeatKind
    from koth.server.games.store import Append, Repository

    engine = make_engine(database)
    migrate(engine)
    repository = Repository(engine)
    seats = [StoredSeat(s, SeatKind.HUMAN, None, None, f"h{s}", True) for s in (0, 1)]
    repository.create_game(
        game_id="bench",
        game_name="cards",
        params={},
        chance_seed=1,
        seats=seats,
        status=GameStatus.RUNNING,
        initial_moves=[],
    )
    joint = {"joint": {"0": "play 3", "1": "play 5"}}
    chance = {"player": -1, "action": "deal 7"}
    appended = Append([joint, chance], clock=(None, None))
    both = frozenset({0, 1})
    costs: dict[str, list[float]] = {"one": [], "two": []}
    version = 0
    for _ in range(rounds):
        for way in ("one", "two"):
            repository.add_pending("bench", version, 0, "play 3", both)
            start = time.thread_time()
            if way == "one":
                repository.add_pending(
                    "bench", version, 1, "play 5", both, complete=lambda _j, _m: appended
                )
            else:
                repository.add_pending("bench", version, 1, "play 5", both)
                repository.append_moves(
                    "bench", version, appended.moves, pending=(1, "play 5"), clock=(None, None)
                )
            costs[way].append(time.thread_time() - start)
            version += 2
    engine.dispose()
    return costs


def fresh_schema(database: str) -> tuple[str, str]:
    """A new schema of ``database`` for one run (dropped afterwards) and its URL."""
    schema = f"bench_move_{uuid.uuid4().hex[:10]}"
    plain = database.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(plain, autocommit=True) as connection:
        connection.execute(f'CREATE SCHEMA "{schema}"')
    return schema, f"{database}?options=-csearch_path%3D{schema}"


def drop_schema(database: str, schema: str) -> None:
    plain = database.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(plain, autocommit=True) as connection:
        connection.execute(f'DROP SCHEMA "{schema}" CASCADE')


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--posts", type=int, default=600)
    parser.add_argument("--store", type=int, default=0, metavar="N")
    parser.add_argument("--database", default=DEFAULT_DATABASE)
    args = parser.parse_args()
    schema = None
    url = args.database
    if url.startswith("postgresql"):
        schema, url = fresh_schema(args.database)
    try:
        if args.store:
            ways = store_costs(url, args.store)
        else:
            costs = asyncio.run(run(url, args.games, args.posts))
    finally:
        if schema is not None:
            drop_schema(args.database, schema)
    if args.store:
        print("| completing choice's storage | rounds | CPU (mean) | CPU (median) |")
        print("| --- | --- | --- | --- |")
        for way, found in ways.items():
            print(
                f"| {way} transaction{'s' if way == 'two' else ''} | {len(found)} "
                f"| {1000 * statistics.mean(found):.2f} ms "
                f"| {1000 * statistics.median(found):.2f} ms |"
            )
        return
    everything = [c for kind in costs.values() for c in kind]
    print("| POST | count | CPU a POST (mean) | CPU a POST (median) | transactions a POST |")
    print("| --- | --- | --- | --- | --- |")
    for kind, found in [*sorted(costs.items()), ("all", everything)]:
        cpus = [cpu for cpu, _ in found]
        txns = statistics.mean(t for _, t in found)
        print(
            f"| {kind} | {len(found)} | {1000 * statistics.mean(cpus):.2f} ms "
            f"| {1000 * statistics.median(cpus):.2f} ms | {txns:.2f} |"
        )


if __name__ == "__main__":
    main()
