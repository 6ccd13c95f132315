"""How long a computer seat waits when the process computing its move is killed: two
``koth serve`` processes on one PostgreSQL database; process A claims a searching
computer seat's move and thinks (for an hour: it never finishes on its own); A is killed
with SIGKILL; process B, where the game is watched, claims the move and makes it.

Prints, per run: the seconds from the kill to B holding the game's claim (the takeover,
bounded by ``KOTH_TAKEOVER_SECONDS``, 5 by default) and to B's move being stored (the
takeover plus the seat's own delay and think, up to ``KOTH_MAX_AGENT_SECONDS``).

``--held S``: B holds the game S seconds before A is killed (a process serving the game's
spectators has held it a while: its search process has started by then).

Usage: python benchmarks/bench_takeover.py [--runs 3] [--held 0]
       [--database postgresql+psycopg://...]
"""

from __future__ import annotations

import argparse
import statistics
import time
import uuid

import httpx
import psycopg

from serving import start_koth

DEFAULT_DATABASE = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


def claimants(plain: str, game: str) -> set[int]:
    """The database backends holding ``game``'s claim (its advisory lock)."""
    with psycopg.connect(plain, autocommit=True) as connection:
        rows = connection.execute(
            "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted "
            "AND objid::bigint = (hashtext(%s)::bigint & 4294967295)",
            (f"koth-turn:{game}",),
        ).fetchall()
    return {row[0] for row in rows}


def one_run(database: str, plain: str, schema: str, held: float) -> tuple[float, float]:
    url = f"{database}?options=-csearch_path%3D{schema}"
    limits = {f"KOTH_RATE_{k}": "100000/minute" for k in ("CREATE", "ACT", "LOOKUP")}
    slow, slow_url = start_koth(
        url,
        {**limits, "KOTH_MAX_AGENT_SECONDS": "3600", "KOTH_MAX_AGENT_ITERATIONS": "10000000"},
        timeout=240,
    )
    quick = None
    try:
        seats = [{"kind": "computer", "agent": "mcts", "budget": 10_000_000}, {"kind": "human"}]
        created = httpx.post(f"{slow_url}/api/games", json={"game": "cards", "seats": seats})
        game = created.json()["id"]
        version = httpx.get(f"{slow_url}/api/games/{game}").json()["version"]
        before = claimants(plain, game)
        while not before:  # A has claimed the move and thinks
            time.sleep(0.05)
            before = claimants(plain, game)
        quick, quick_url = start_koth(url, limits, timeout=240)
        httpx.get(f"{quick_url}/api/games/{game}")  # watched on B: B holds the game
        time.sleep(held)
        slow.kill()
        killed = time.monotonic()
        slow.wait()
        claimed = moved = None
        while moved is None and time.monotonic() - killed < 120:
            if claimed is None and claimants(plain, game) - before:
                claimed = time.monotonic() - killed
            state = httpx.get(f"{quick_url}/api/games/{game}").json()
            # the computer's choice is stored: played, or waiting for the person's
            if state["version"] > version or 0 in state["submitted"]:
                moved = time.monotonic() - killed
            time.sleep(0.05)
        if claimed is None or moved is None:
            raise SystemExit("no process made the move the killed one had claimed")
        return claimed, moved
    finally:
        slow.kill()
        if quick is not None:
            quick.terminate()
            quick.wait(30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--held", type=float, default=0.0)
    parser.add_argument("--database", default=DEFAULT_DATABASE)
    args = parser.parse_args()
    plain = args.database.replace("postgresql+psycopg://", "postgresql://")
    claims, moves = [], []
    for run in range(args.runs):
        schema = f"koth_takeover_{uuid.uuid4().hex[:10]}"
        with psycopg.connect(plain, autocommit=True) as connection:
            connection.execute(f'CREATE SCHEMA "{schema}"')
        try:
            claimed, moved = one_run(args.database, plain, schema, args.held)
        finally:
            with psycopg.connect(plain, autocommit=True) as connection:
                connection.execute(f'DROP SCHEMA "{schema}" CASCADE')
        claims.append(claimed)
        moves.append(moved)
        print(
            f"run {run + 1}: claimed by the other process {claimed:.1f} s after the kill, "
            f"its move stored {moved:.1f} s after"
        )
    print(
        f"claim: max {max(claims):.1f} s, median {statistics.median(claims):.1f} s; "
        f"move: max {max(moves):.1f} s, median {statistics.median(moves):.1f} s"
    )


if __name__ == "__main__":
    main()
