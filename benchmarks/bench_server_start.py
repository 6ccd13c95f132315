"""Start-up of ``koth serve`` with many stored unfinished games: the time until it is
ready (``/readyz`` answers) and its memory then.

Each stored game is a copy of one fresh card game (every seat human, its opening deal
stored), inserted straight into the database; then the server is started again and
timed. A server that loads only the games owing a computer move is ready as fast with
30,000 games as with none.

Usage: python benchmarks/bench_server_start.py [--games 3000 30000]
       [--database postgresql+psycopg://...]
"""

from __future__ import annotations

import argparse
import subprocess
import time
import uuid
from pathlib import Path
from typing import Any

import httpx
import psycopg
from sqlalchemy import MetaData, Table, create_engine, insert, select

from serving import start_koth

DEFAULT_DATABASE = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


def rss_mib(pid: int) -> float:
    """The resident memory of ``pid`` and its children (the server's processes)."""
    total = 0
    pids = [pid]
    for child in Path(f"/proc/{pid}/task").glob("*/children"):
        pids += [int(p) for p in child.read_text().split()]
    for each in pids:
        for line in Path(f"/proc/{each}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1])
    return total / 1024


def stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    process.wait(60)


def store_copies(url: str, game_id: str, count: int) -> None:
    """``count`` copies of stored game ``game_id`` (new ids, new seat hashes)."""
    engine = create_engine(url)
    meta = MetaData()
    tables = {name: Table(name, meta, autoload_with=engine) for name in ("games", "seats", "moves")}
    with engine.begin() as connection:
        rows: dict[str, list[dict[str, Any]]] = {
            name: [
                dict(r._mapping)
                for r in connection.execute(
                    select(table).where(
                        (table.c.id if name == "games" else table.c.game_id) == game_id
                    )
                )
            ]
            for name, table in tables.items()
        }
        for start in range(0, count, 1000):
            batch = range(start, min(count, start + 1000))
            ids = [f"b{n:08d}" for n in batch]
            connection.execute(
                insert(tables["games"]), [{**rows["games"][0], "id": i} for i in ids]
            )
            connection.execute(
                insert(tables["seats"]),
                [
                    {**s, "game_id": i, "token_hash": uuid.uuid4().hex}
                    for i in ids
                    for s in rows["seats"]
                ],
            )
            connection.execute(
                insert(tables["moves"]),
                [
                    {k: v for k, v in {**m, "game_id": i}.items() if k != "id"}
                    for i in ids
                    for m in rows["moves"]
                ],
            )
    engine.dispose()


def measure(database: str, count: int) -> tuple[float, float]:
    plain = database.replace("postgresql+psycopg://", "postgresql://")
    schema = f"koth_start_{uuid.uuid4().hex[:10]}"
    url = database
    if database.startswith("postgresql"):
        with psycopg.connect(plain, autocommit=True) as connection:
            connection.execute(f'CREATE SCHEMA "{schema}"')
        url = f"{database}?options=-csearch_path%3D{schema}"
    try:
        process, base = start_koth(url)  # migrates the schema
        try:
            game = httpx.post(f"{base}/api/games", json={"game": "cards"}, timeout=30).json()
        finally:
            stop(process)
        store_copies(url, game["id"], count)
        started = time.perf_counter()
        process, base = start_koth(url, timeout=600)
        ready = time.perf_counter() - started
        memory = rss_mib(process.pid)
        stop(process)
        return ready, memory
    finally:
        if database.startswith("postgresql"):
            with psycopg.connect(plain, autocommit=True) as connection:
                connection.execute(f'DROP SCHEMA "{schema}" CASCADE')


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[0, 3000, 30000])
    parser.add_argument("--database", default=DEFAULT_DATABASE)
    args = parser.parse_args()
    for count in args.games:
        ready, memory = measure(args.database, count)
        print(
            f"{count:>6} stored unfinished games: ready after {ready:.2f} s, RSS {memory:.0f} MiB"
        )


if __name__ == "__main__":
    main()
