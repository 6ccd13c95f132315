"""Agent strength: win rates with 95% Wilson intervals for the standard match-ups.

    .venv/bin/python benchmarks/bench_agents.py --seconds 1 --games 200 --openspiel  # targets
    .venv/bin/python benchmarks/bench_agents.py --games 20 --seconds 0.2 --only cards
    .venv/bin/python benchmarks/bench_agents.py --games 10 --iters 100 --workers 2

Each match-up plays ``--games`` games, seats alternating (game i seats the agent in
seat i mod 2), seeds derived from ``--seed``; a Rich progress bar shows the score so far.
A budget in seconds is per move; ``--iters`` gives a reproducible budget instead.

The strength targets (2 players): cards ``ismcts`` at 1 s/move wins >= 95% against
random, >= 65% against the heuristic and >= 60% against OpenSpiel's ISMCTSBot given the
same time per move; board ``mcts`` at 1 s/move >= 95% against random and >= 65% against
the heuristic.

``--learned`` adds the learned agent (``koth.agents.learned``, the shipped networks):
``learned`` against each game's search at the same budget per move (cards ``ismcts``,
board ``mcts``), and the network alone (``learned:search=0``) against that search and
against the heuristic (``--learned-only``: those match-ups alone).

``--openspiel`` adds OpenSpiel's bots at the same time per move: ISMCTSBot against the
card game's ``ismcts`` and MCTSBot (random rollouts) against the board game's ``mcts``.
They budget by simulations, so each is calibrated first: timed at a fixed number of
simulations on the positions of seeded heuristic games (every decision of both players,
at most 40 per game, 3 games) on this machine, it gets ``seconds x measured simulations
per second`` (``--os-sims N`` overrides). ``--internal`` adds each game's other search
agent at the same budget (cards: ``mcts`` on determinizations; board: ``ismcts``). The
table also reports each agent's measured thinking time per searched decision.

A win is being the only winner; draws count as non-wins.

``--journal FILE`` appends every finished game to FILE (JSON lines) and, on a later run
with the same game, agent, opponent kind and ``--seed``, skips the games it holds and
counts them in: a target run can be spread over several sessions (and machines; each
line records the host, the commit and the time budget it ran under). With
``--journal-only`` nothing is played: the table reports what the journal holds.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import platform
import random
import subprocess
import time
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from koth.agents import DecisionContext, InformationSet, make_agent
from koth.agents.base import derive_seed
from koth.agents.play import play_match
from koth.core.game import Game
from koth.core.registry import load_game
from koth.sim.stats import wilson_interval

#: OpenSpiel's bots, by spec prefix: ISMCTSBot (the card game) and MCTSBot (the board)
OS_BOTS = ("os-ismcts", "os-mcts")


class Timed:
    """Wraps an agent to measure its thinking time on decisions with a real choice."""

    def __init__(self, agent: Any) -> None:
        self.agent = agent
        self.name = agent.name
        self.seconds = 0.0
        self.decisions = 0

    def reset(self, game: Game[Any, Any, Any], player: int, seed: int) -> None:
        self.agent.reset(game, player, seed)

    def act(self, view: Mapping[str, Any], legal: Sequence[Any], context: Any) -> Any:
        started = time.perf_counter()
        action = self.agent.act(view, legal, context)
        if len(legal) > 1:
            self.seconds += time.perf_counter() - started
            self.decisions += 1
        return action


def build(spec: str) -> Any:
    """A koth agent from its spec, or OpenSpiel's ISMCTSBot (``os-ismcts:sims=N``) or
    MCTSBot (``os-mcts:sims=N``)."""
    kind = spec.split(":")[0]
    if kind in OS_BOTS:
        from koth.interop.openspiel_agents import OpenSpielBotAgent, ismcts, mcts

        options = dict(part.split("=", 1) for part in spec.split(":")[1:])
        sims = int(options.get("sims", 200))
        factory = ismcts if kind == "os-ismcts" else mcts
        return OpenSpielBotAgent(spec, factory(simulations=sims, uct_c=float(options.get("c", 2))))
    return make_agent(spec)


@dataclass(frozen=True)
class Task:
    game: str
    specs: tuple[str, str]
    index: int
    seed: int
    max_decisions: int


def play(task: Task) -> dict[str, Any]:
    """One game, the agent under test in seat ``index mod 2`` (a top-level function for
    worker processes)."""
    game = load_game(task.game)
    seat = task.index % 2
    agents = [Timed(build(task.specs[1])), Timed(build(task.specs[1]))]
    agents[seat] = Timed(build(task.specs[0]))
    result = play_match(game, agents, task.seed, max_decisions=task.max_decisions)
    opponent = agents[1 - seat]
    return {
        "win": result.winners == (seat,),
        "loss": result.winners == (1 - seat,),
        "think": (agents[seat].seconds, agents[seat].decisions),
        "opponent_think": (opponent.seconds, opponent.decisions),
    }


def calibrate_openspiel(game_name: str, bot: str, seconds: float, console: Console) -> int:
    """Simulations OpenSpiel's ``bot`` (os-ismcts or os-mcts) runs in ``seconds`` per
    decision of ``game_name`` here, timed on every decision of 3 seeded heuristic games
    (at most 40 per game: a board game has hundreds)."""
    probe = 100 if bot == "os-ismcts" else 20
    game = load_game(game_name)
    timed = build(f"{bot}:sims={probe}")
    heuristic = make_agent("heuristic")
    spent, decisions = 0.0, 0
    for seed in range(3):
        state = game.new_initial_state()
        rng = random.Random(seed)
        heuristic.reset(game, 0, seed)
        timed_here = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.sample_chance(rng))
                continue
            chosen = {}
            for player in state.acting_players():
                info = InformationSet.of(state, player)
                context = DecisionContext(info, 0, state.is_simultaneous_node())
                if len(info.legal_actions) > 1 and timed_here < 40:
                    timed.reset(game, player, seed)
                    started = time.perf_counter()
                    timed.act(info.view, info.legal_actions, context)
                    spent += time.perf_counter() - started
                    decisions += 1
                    timed_here += 1
                chosen[player] = heuristic.act(info.view, info.legal_actions, context)
            if state.is_simultaneous_node():
                state.apply_actions(chosen)
            else:
                ((player, action),) = chosen.items()
                state.apply_action(action, player)
    rate = probe * decisions / spent
    sims = max(2, round(rate * seconds))  # MCTSBot expands its root on the 2nd simulation
    console.print(
        f"OpenSpiel {bot}: {rate:.0f} simulations/s over {decisions} {game_name} decisions "
        f"-> {sims} simulations for {seconds:g} s/move",
        highlight=False,
    )
    return sims


def matchups(args: argparse.Namespace, console: Console) -> list[tuple[str, str, str]]:
    b = f"seconds={args.seconds:g}" if args.iters is None else f"iters={args.iters}"
    cards = f"ismcts:{b}{args.cards_options}"
    board = f"mcts:{b}{args.board_options}"
    pairs = [
        ("cards", cards, "random"),
        ("cards", cards, "heuristic"),
        ("board", board, "random"),
        ("board", board, "heuristic"),
    ]
    if args.baselines:
        pairs += [("cards", "heuristic", "random"), ("board", "heuristic", "random")]
    if args.learned:
        # the learned agent at the same budget as each game's search, then its network
        # alone against that search and against the heuristic
        pairs += [
            ("cards", f"learned:{b}", cards),
            ("board", f"learned:{b}", board),
            ("cards", "learned:search=0", cards),
            ("board", "learned:search=0", board),
            ("cards", "learned:search=0", "heuristic"),
            ("board", "learned:search=0", "heuristic"),
        ]
        if args.learned_only:
            pairs = pairs[-6:]
    if args.internal:
        # each game's other search agent, at the same budget
        pairs += [("cards", cards, f"mcts:{b}"), ("board", board, f"ismcts:{b}")]
    if args.openspiel:
        bots = (("cards", cards, "os-ismcts", 2), ("board", board, "os-mcts", 4))
        for game, agent, bot, at in bots:
            if args.only in (None, game) and (not args.opponent or bot in args.opponent):
                # a journal report needs no calibration: its key holds the bot's kind only
                if args.os_sims:
                    pairs.insert(at, (game, agent, f"{bot}:sims={args.os_sims}"))
                elif args.journal_only:
                    pairs.insert(at, (game, agent, bot))
                else:
                    sims = calibrate_openspiel(game, bot, args.seconds, console)
                    pairs.insert(at, (game, agent, f"{bot}:sims={sims}"))
    selected = [p for p in pairs if args.only is None or p[0] == args.only]
    if args.opponent:
        selected = [p for p in selected if p[2].split(":")[0] in args.opponent]
    return selected


def code_version() -> str:
    """The checkout's commit (with ``+dirty`` for uncommitted changes), or ``unknown``."""
    root = Path(__file__).resolve().parents[1]
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True, text=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=root,
            capture_output=True,
            text=True,
        ).stdout.strip()
    except OSError:
        return "unknown"
    return (commit or "unknown") + ("+dirty" if dirty else "")


class Journal:
    """Finished games, one JSON line each, so that a long run can be resumed."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.lines: list[dict[str, Any]] = []
        #: recorded with each game, so results of different code can be told apart
        #: (asked of git here, in the main process only, not at every worker's import)
        self.commit = code_version() if path is not None else "unknown"
        if path is not None and path.exists():
            for number, text in enumerate(path.read_text().splitlines(), 1):
                if not text.strip():
                    continue
                try:
                    self.lines.append(json.loads(text))
                except json.JSONDecodeError as exc:
                    raise SystemExit(f"{path}:{number}: not a JSON line ({exc})") from None

    @staticmethod
    def key(game: str, agent: str, opponent: str, seed: int) -> list[Any]:
        # the opponent's kind, not its spec: a calibrated os-ismcts:sims=N differs per run
        return [game, agent, opponent.split(":")[0], seed]

    def finished(self, key: list[Any]) -> dict[int, dict[str, Any]]:
        return {line["index"]: line for line in self.lines if line["key"] == key}

    def append(self, key: list[Any], opponent: str, index: int, result: dict[str, Any]) -> None:
        if self.path is None:
            return
        line = {"key": key, "opponent": opponent, "index": index, **result}
        line["host"] = platform.node()
        line["commit"] = self.commit
        line["finished"] = time.strftime("%Y-%m-%dT%H:%M:%S")
        with self.path.open("a") as out:
            out.write(json.dumps(line) + "\n")
        self.lines.append(line)


def run_matchup(
    game: str, agent: str, opponent: str, args: argparse.Namespace, console: Console
) -> tuple[int, int, int, list[float], list[float], float]:
    journal: Journal = args.journal_data
    key = Journal.key(game, agent, opponent, args.seed)
    finished = journal.finished(key)
    tasks = [
        Task(
            game, (agent, opponent), i, derive_seed(args.seed, game, "game", i), args.max_decisions
        )
        for i in range(args.games)
        if i not in finished and not args.journal_only
    ]
    wins = losses = done = 0
    think = [0.0, 0.0]
    other = [0.0, 0.0]
    started = time.perf_counter()
    earlier = [finished[i] for i in range(args.games) if i in finished]
    if earlier:
        console.print(f"{game} {agent} vs {opponent}: {len(earlier)} games from the journal")
    progress = Progress(
        TextColumn(f"[bold]{game} {agent.split(':')[0]} vs {opponent.split(':')[0]}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        TextColumn("{task.fields[score]}"),
        console=console,
        transient=True,
    )

    def keep(result: dict[str, Any], task: Task | None = None) -> None:
        nonlocal wins, losses, done
        if task is not None:
            journal.append(key, opponent, task.index, result)
        wins += result["win"]
        losses += result["loss"]
        done += 1
        for total, pair in ((think, result["think"]), (other, result["opponent_think"])):
            total[0] += pair[0]
            total[1] += pair[1]
        low, high = wilson_interval(wins, done)
        progress.update(
            bar,
            advance=1,
            score=f"won {wins} lost {losses} ({wins / done:.0%}, CI {low:.0%}-{high:.0%})",
        )

    with progress:
        bar = progress.add_task("", total=args.games, score="")
        for line in earlier:
            keep(line)
        try:
            if args.workers <= 1:
                for task in tasks:
                    keep(play(task), task)
            else:
                context = multiprocessing.get_context("spawn")
                with ProcessPoolExecutor(args.workers, mp_context=context) as pool:
                    futures = {pool.submit(play, t): t for t in tasks}
                    for future in as_completed(futures):
                        keep(future.result(), futures[future])
        except KeyboardInterrupt:
            console.print("[yellow]interrupted:[/] keeping the games finished so far")
    return wins, losses, done, think, other, time.perf_counter() - started


def by_opponent(lines: Iterable[dict[str, Any]]) -> list[tuple[str, list[dict[str, Any]]]]:
    """Journal lines grouped by the opponent as played (``os-ismcts:sims=214``...), in
    the order each first appears: a calibrated bot may differ from one run to the next."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for line in lines:
        groups.setdefault(line["opponent"], []).append(line)
    return list(groups.items())


def mixed_label(segments: Sequence[tuple[str, list[dict[str, Any]]]]) -> str:
    """``os-ismcts:sims=214/675`` for games against one bot at several calibrations."""
    kind = segments[0][0].split(":")[0]
    prefix = f"{kind}:sims="
    if all(spec.startswith(prefix) for spec, _ in segments):
        return prefix + "/".join(spec.removeprefix(prefix) for spec, _ in segments)
    return f"{kind} (mixed)"


def format_row(
    game: str,
    agent: str,
    opponent: str,
    wins: int,
    losses: int,
    games: int,
    think: Sequence[float],
    other: Sequence[float],
) -> str:
    """One table row: games, win rate and its 95% interval, draws, seconds per move of
    each side (``think`` and ``other``: total seconds and decisions)."""
    low, high = wilson_interval(wins, games)
    per_move = think[0] / max(1, int(think[1]))
    other_move = other[0] / max(1, int(other[1]))
    return (
        f"{game:6} {agent:36} {opponent:22} {games:5d} {wins / games:6.1%}  "
        f"{low:5.1%}-{high:5.1%}  draws {games - wins - losses:3d}  "
        f"s/move {per_move:.2f} vs {other_move:.2f}"
    )


def segment_row(opponent: str, lines: list[dict[str, Any]]) -> str:
    """One indented row of the games played against one ``opponent`` spec."""
    totals = [[0.0, 0.0], [0.0, 0.0]]
    for line in lines:
        for total, pair in zip(totals, (line["think"], line["opponent_think"]), strict=True):
            total[0] += pair[0]
            total[1] += pair[1]
    wins = sum(bool(line["win"]) for line in lines)
    losses = sum(bool(line["loss"]) for line in lines)
    return format_row("", "  of which", opponent, wins, losses, len(lines), *totals)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=1.0, help="search time per move")
    parser.add_argument("--iters", type=int, default=None, help="iterations per move instead")
    parser.add_argument(
        "--cards-options", default="", help="extra ismcts options, e.g. ':c=0.7:eps=0.1'"
    )
    parser.add_argument("--board-options", default="", help="extra mcts options")
    parser.add_argument(
        "--openspiel", action="store_true", help="add OpenSpiel's ISMCTSBot and MCTSBot"
    )
    parser.add_argument(
        "--internal", action="store_true", help="add cards ismcts vs mcts, board mcts vs ismcts"
    )
    parser.add_argument(
        "--learned",
        action="store_true",
        help="add the learned agent against the search agents and the heuristic",
    )
    parser.add_argument(
        "--learned-only", action="store_true", help="with --learned: only its match-ups"
    )
    parser.add_argument("--os-sims", type=int, default=None, help="OpenSpiel simulations/move")
    parser.add_argument("--baselines", action="store_true", help="add heuristic vs random")
    parser.add_argument("--opponent", nargs="*", help="only these opponents (random, ...)")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-decisions", type=int, default=20_000)
    parser.add_argument("--only", choices=["cards", "board"], default=None)
    parser.add_argument("--journal", type=Path, default=None, help="JSON lines to resume from")
    parser.add_argument(
        "--journal-only",
        action="store_true",
        help="play nothing: report the games the journal holds for these match-ups",
    )
    args = parser.parse_args()
    if args.journal_only and args.journal is None:
        parser.error("--journal-only needs --journal FILE")
    args.journal_data = Journal(args.journal)
    console = Console()

    header = f"{'game':6} {'agent':36} {'opponent':22} {'games':>5} {'win':>6}  95% CI"
    rows = []
    for game, agent, opponent in matchups(args, console):
        wins, losses, games, think, other, seconds = run_matchup(
            game, agent, opponent, args, console
        )
        if not games:
            if args.journal_only:
                continue
            break
        parts: list[str] = []
        if args.journal_only:
            # the opponent as it was played (a calibrated bot's simulations included)
            held = args.journal_data.finished(Journal.key(game, agent, opponent, args.seed))
            segments = by_opponent(held[i] for i in range(args.games) if i in held)
            opponent = segments[0][0] if len(segments) == 1 else mixed_label(segments)
            if len(segments) > 1:  # runs calibrated apart: each one's share, told apart
                parts = [segment_row(*segment) for segment in segments]
        row = format_row(game, agent, opponent, wins, losses, games, think, other)
        row += f"  {seconds:5.0f}s"
        for line in (row, *parts):
            rows.append(line)
            print(line, flush=True)
        if games < args.games and not args.journal_only:
            break  # interrupted
    print("\n" + header)
    for row in rows:
        print(row, flush=True)


if __name__ == "__main__":
    main()
