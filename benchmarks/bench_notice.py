"""What a game's change notice costs the process that receives it (PostgreSQL): one
process (the writer) plays card games; another, in the same Python process but with its
own services, holds the games with spectators listening and takes in each notice the
writer sends, as ``koth serve`` does with another process's notices.

Prints the receiver's CPU time per notice (the whole Python process, database threads
included, measured while only the receiver runs), for each way of taking a change in:

- ``read``: the notice without its change: the receiver reads the change back from the
  database (the game's row, the moves after its version, the waiting choices) and reads
  the game's people's facts (ratings, score, rematch) again;
- ``facts``: the change taken from the notice, the people's facts read again;
- ``carried``: the change taken from the notice, nothing read.

Each also builds and sends the spectators' message. Modes run in turns, ``--rounds``
times each.

Usage: python benchmarks/bench_notice.py [--games 20] [--spectators 5] [--moves 12]
       [--rounds 3] [--database postgresql+psycopg://...]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
import uuid
from collections.abc import Awaitable, Callable

import psycopg

from koth.server.database import make_engine, migrate
from koth.server.games.friends import FriendsService
from koth.server.games.friends_store import FriendsRepository
from koth.server.games.presence import PresenceService
from koth.server.games.service import GameService
from koth.server.games.store import Repository
from koth.server.games.worker import ComputerWorker

DEFAULT_DATABASE = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
MODES = ("read", "facts", "carried")


class Captured:
    """The writer's broker: keeps its notices for the benchmark to hand over."""

    def __init__(self) -> None:
        self.notices: list[str] = []

    async def start(self, handler: Callable[[str], Awaitable[None]]) -> None:
        pass

    async def publish(self, notice: str) -> None:
        self.notices.append(notice)

    async def close(self) -> None:
        pass


class Quiet:
    """A spectator's connection that sends nowhere."""

    async def send_text(self, data: str) -> None:
        pass


async def settle() -> None:
    for _ in range(3):
        await asyncio.sleep(0)


async def measure(url: str, mode: str, games: int, spectators: int, moves: int) -> float:
    """The receiver's CPU ms per notice over ``games`` games of ``moves`` choices."""
    engine = make_engine(url)
    try:
        broker = Captured()
        writer = GameService(Repository(engine))
        writer.broker = broker
        reader = GameService(Repository(engine))
        FriendsService(reader, FriendsRepository(engine))
        PresenceService(reader)
        ComputerWorker(reader, threads=1)
        ids = []
        for _ in range(games):
            created = await writer.create("cards", {}, None, "http://bench")
            ids.append(created.id)
            for _ in range(spectators):
                await reader.subscribe(created.id, Quiet(), None)
        await settle()
        broker.notices.clear()
        cpu, count = 0.0, 0
        for _ in range(moves):
            for game_id in ids:
                live = await writer.live(game_id)
                if live.state.is_terminal():
                    continue
                seat = next(p for p in live.state.acting_players() if p not in live.submitted)
                action = live.game.action_to_str(live.state.legal_actions(seat)[0])
                await writer.submit(game_id, seat, action, live.version)
                await settle()
                notices, broker.notices = broker.notices, []
                for notice in notices:
                    _, key, number, origin, *carried = notice.split(" ", 4)
                    if mode == "read":
                        carried = []
                    elif mode == "facts":
                        (await reader.live(game_id)).friends = None
                    start = time.process_time()
                    await reader.on_notice(key, int(number), origin, (carried or [None])[0])
                    await settle()
                    cpu += time.process_time() - start
                    count += 1
        return cpu / count * 1000
    finally:
        engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--spectators", type=int, default=5)
    parser.add_argument("--moves", type=int, default=12, help="choices per game")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--database", default=DEFAULT_DATABASE)
    args = parser.parse_args()
    plain = "postgresql://" + args.database.split("://", 1)[1]
    schema = f"bench_notice_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(plain, autocommit=True) as connection:
        connection.execute(f'CREATE SCHEMA "{schema}"')
    url = f"{args.database}?options=-csearch_path%3D{schema}"
    try:
        engine = make_engine(url)
        migrate(engine)
        engine.dispose()
        figures: dict[str, list[float]] = {mode: [] for mode in MODES}
        for _ in range(args.rounds):
            for mode in MODES:
                figures[mode].append(
                    asyncio.run(measure(url, mode, args.games, args.spectators, args.moves))
                )
        print(
            f"{args.games} card games, {args.spectators} spectators each on the receiver, "
            f"{args.moves} choices a game"
        )
        for mode, values in figures.items():
            shown = ", ".join(f"{v:.2f}" for v in values)
            print(
                f"{mode}: receiver CPU {statistics.median(values):.2f} ms a notice "
                f"(median of {shown})"
            )
    finally:
        with psycopg.connect(plain, autocommit=True) as connection:
            connection.execute(f'DROP SCHEMA "{schema}" CASCADE')


if __name__ == "__main__":
    main()
