"""Random-playout steps per second: koth engines next to OpenSpiel games, one core.

Every engine plays seeded uniformly random games (chance sampled from its explicit
outcomes) for a fixed CPU-time budget:

* ``pyspiel`` rows: one loop over the pyspiel API (``legal_actions``,
  ``chance_outcomes``, ``apply_action``/``apply_actions``), the same code for
  OpenSpiel's C++ ``goofspiel``, its Python ``python_liars_poker`` and the koth games
  through `koth.interop.openspiel` (``koth_toy_duel``, ``koth_cards``, ``koth_board``);
* ``pyspiel floor`` rows: the same loop over a trivial Python game (two players, two
  legal actions, no chance, no rules to speak of): what pyspiel itself costs a step of
  a Python game, once with pyspiel's own ``is_chance_node`` and ``legal_actions`` (in
  C++, calling back into Python, as ``python_liars_poker`` has them) and once answered
  in Python (as the koth adapter answers them);
* ``GameState`` rows: the same loop over koth's checked ``GameState`` API, no adapter;
* ``PettingZoo AEC`` rows: the koth games through `koth.interop.pettingzoo`, each turn
  an ``env.last(observe=False)`` and an ``env.step`` of a random action allowed by the
  mask in the acting agent's info (read as booleans, ``mask.view(bool)``); chance is
  resolved inside, and counted. The ``observations read`` rows call ``env.last()``,
  which also encodes the acting agent's view (the game's encoder), as a learner does;
* ``rules replayed`` rows: that loop and ``GameState`` again, over recorded games of a
  koth engine whose rules answer from the recording (each state's node, legal actions
  and chance outcomes, and the state that followed it): the cost of everything but the
  rules at that game's sequence of steps. The difference to the game's ``GameState``
  row is what its rules cost a step, and the difference between the reference and this
  row is what they may cost at the reference's speed (printed under the table).

A step is one applied move: a chance outcome, one player's action or one joint action.
The process is pinned to one core and CPU time (not wall time) is measured, so other
work on a shared machine slows the run but not the figures much. The rows are measured
in ``--rounds`` interleaved rounds (every row once per round, ``seconds / rounds`` each)
and each row reports its median round, so a slow spell of the machine falls on every
row alike instead of on whichever row ran then; the spread column shows the slowest and
fastest round. The last column compares each row with ``python_liars_poker`` (the
pure-Python reference: >= 1 is at least its speed) round by round: the median over the
rounds of the row's speed divided by the reference's speed in the same round, which
cancels the machine's slow and fast spells better than a ratio of the two medians.

The title names the koth build measured: pure Python, or compiled with mypyc when the
compiled build is on the path (``make compiled``, then ``PYTHONPATH=.build/compiled``).

Usage: python benchmarks/bench_interop_speed.py [--seconds S] [--rounds R] [--cpu N]
       [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # for tests.core.toy_game, the contract's worked example

import numpy as np  # noqa: E402
import pyspiel  # noqa: E402
from open_spiel.python import games as _python_games  # noqa: E402, F401  (registers them)
from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402
from tests.core.toy_game import SecretDuel  # noqa: E402

from koth.build import build_kind, notice_pure_build  # noqa: E402
from koth.core.chance import sample_outcome  # noqa: E402
from koth.core.game import Game  # noqa: E402
from koth.core.players import PlayerId, ToMove  # noqa: E402
from koth.core.registry import load_game  # noqa: E402
from koth.core.state import GameState  # noqa: E402
from koth.interop.openspiel import openspiel_game, register_openspiel_game  # noqa: E402
from koth.interop.pettingzoo import raw_env as pettingzoo_env  # noqa: E402
from koth.interop.spec import InteropSpec  # noqa: E402

REFERENCE = "python_liars_poker"
FLOOR_API = "pyspiel floor"
#: steps of a trivial game
TRIVIAL_LENGTH = 40
GAMESTATE_API = "GameState (koth)"
REPLAYED_API = "GameState, rules replayed"
AEC_API = "PettingZoo AEC (koth adapter)"
AEC_OBSERVED_API = "PettingZoo AEC, observations read"
#: recorded games per replayed engine (a few thousand steps each)
REPLAYED_GAMES = 40


def pyspiel_playout(game: Any, rng: random.Random) -> int:
    """One random game over the pyspiel API; returns its number of steps."""
    state = game.new_initial_state()
    num_players = game.num_players()
    steps = 0
    while not state.is_terminal():
        if state.is_chance_node():
            threshold = rng.random()
            cumulative = 0.0
            outcomes = state.chance_outcomes()
            chosen = outcomes[-1][0]
            for action, probability in outcomes:
                cumulative += probability
                if threshold < cumulative:
                    chosen = action
                    break
            state.apply_action(chosen)
        elif state.is_simultaneous_node():
            state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(num_players)])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        steps += 1
    return steps


_TRIVIAL_TYPE = pyspiel.GameType(
    short_name="bench_trivial",
    long_name="a trivial Python game (the benchmark's pyspiel floor)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=False,
    provides_information_state_tensor=False,
    provides_observation_string=False,
    provides_observation_tensor=False,
    parameter_specification={},
)


class TrivialGame(pyspiel.Game):  # type: ignore[misc]
    """Two players alternate TRIVIAL_LENGTH times between two actions; a draw."""

    def __init__(self, params: Any = None, *, python_answers: bool = False) -> None:
        info = pyspiel.GameInfo(
            num_distinct_actions=2,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=TRIVIAL_LENGTH,
        )
        super().__init__(_TRIVIAL_TYPE, info, params or {})
        self.state_class = PythonAnswersState if python_answers else TrivialState

    def new_initial_state(self) -> TrivialState:
        return self.state_class(self)


class TrivialState(pyspiel.State):  # type: ignore[misc]
    def __init__(self, game: TrivialGame) -> None:
        super().__init__(game)
        self.moves = 0

    def current_player(self) -> int:
        if self.moves >= TRIVIAL_LENGTH:
            return int(pyspiel.PlayerId.TERMINAL)
        return self.moves & 1

    def _legal_actions(self, player: int) -> list[int]:
        return [0, 1]

    def _apply_action(self, action: int) -> None:
        self.moves += 1

    def is_terminal(self) -> bool:
        return self.moves >= TRIVIAL_LENGTH

    def returns(self) -> list[float]:
        return [0.0, 0.0]

    def __str__(self) -> str:
        return str(self.moves)


class PythonAnswersState(TrivialState):
    """Answers the node kind and the legal actions in Python, as the koth adapter does."""

    def is_chance_node(self) -> bool:
        return False

    def is_simultaneous_node(self) -> bool:
        return False

    def legal_actions(self, player: int | None = None) -> list[int]:
        return [0, 1]


def aec_playout(env: Any, rng: random.Random, observe: bool = False) -> int:
    """The same game over PettingZoo's AEC API (koth's adapter): at every turn
    ``last()`` and a random action allowed by the mask the acting agent finds in its
    info; with ``observe`` ``last()`` also encodes the agent's observation (what a
    learner reads), else it is ``last(observe=False)``. Returns the koth steps made
    (chance resolved inside the environment included)."""
    env.reset(seed=rng.randrange(2**31))
    infos = env.infos
    for agent in env.agent_iter():
        _, _, terminated, truncated, _ = env.last(observe)
        if terminated or truncated:
            env.step(None)
            continue
        # the int8 mask read as booleans: numpy finds the nonzero entries of a boolean
        # array about ten times faster (the board's mask has 23,845 entries)
        env.step(int(rng.choice(infos[agent]["action_mask"].view(np.bool_).nonzero()[0])))
    steps: int = env.koth_state.num_moves
    return steps


def gamestate_playout(
    game: Game[Any, Any, Any], rng: random.Random, state_class: type[Any] = GameState
) -> int:
    """The same loop over koth's checked GameState API (``state_class``: another
    version of GameState, for benchmarks/compare_gamestate.py)."""
    state: GameState[Any, Any] = state_class(game, game.initial())
    steps = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_outcome(state.chance_outcomes(), rng))
        elif state.is_simultaneous_node():
            state.apply_actions(
                {p: rng.choice(state.legal_actions(p)) for p in state.acting_players()}
            )
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        steps += 1
    return steps


@dataclass(eq=False)
class ReplayedStep:
    """One state of a recorded game: what its rules answered there, and what followed."""

    to_move: ToMove
    legal: Any = ()  # the single mover's legal actions, the very object the rules made
    legal_by_player: dict[PlayerId, Any] | None = None  # at a simultaneous node
    outcomes: Any = ()
    following: ReplayedStep | None = None


def record_playout(game: Game[Any, Any, Any], rng: random.Random) -> ReplayedStep:
    """One random game of ``gamestate_playout``, kept as a chain of ReplayedSteps."""
    state: GameState[Any, Any] = GameState(game, game.initial())
    first = step = ReplayedStep(state.to_move())
    while not state.is_terminal():
        if state.is_chance_node():
            step.outcomes = state.chance_outcomes()
            state.apply_action(sample_outcome(step.outcomes, rng))
        elif state.is_simultaneous_node():
            step.legal_by_player = {p: state.legal_actions(p) for p in state.acting_players()}
            state.apply_actions({p: rng.choice(a) for p, a in step.legal_by_player.items()})
        else:
            step.legal = state.legal_actions()
            state.apply_action(rng.choice(step.legal))
        step.following = step = ReplayedStep(state.to_move())
    return first


class ReplayedRules:
    """A game whose rules answer from recorded games (``record_playout``), in turn: the
    driver loop and ``GameState`` run as over the real rules, whose own work is gone.
    Whatever action is chosen, a state is followed by the one recorded after it."""

    def __init__(self, game: Game[Any, Any, Any], games: int, seed: int = 7) -> None:
        rng = random.Random(seed)
        self.name = game.name
        self.records = [record_playout(game, rng) for _ in range(games)]
        self.played = 0

    def initial(self) -> ReplayedStep:
        record = self.records[self.played % len(self.records)]
        self.played += 1
        return record

    def to_move(self, step: ReplayedStep) -> ToMove:
        return step.to_move

    def legal_actions(self, step: ReplayedStep, player: PlayerId) -> Any:
        by_player = step.legal_by_player
        return step.legal if by_player is None else by_player.get(player, ())

    def chance_outcomes(self, step: ReplayedStep) -> Any:
        return step.outcomes

    def apply(self, step: ReplayedStep, player: PlayerId, action: object) -> ReplayedStep:
        assert step.following is not None
        return step.following

    def apply_joint(self, step: ReplayedStep, actions: object) -> ReplayedStep:
        assert step.following is not None
        return step.following


@dataclass
class Row:
    engine: str
    api: str
    games: int = 0
    steps: int = 0
    cpu_seconds: float = 0.0
    #: steps/s of each round
    rounds: list[float] = field(default_factory=list)

    @property
    def steps_per_second(self) -> float:
        """The median round's speed."""
        return statistics.median(self.rounds) if self.rounds else 0.0

    def relative_to(self, reference: Row) -> float:
        """The median over the rounds of this row's speed over ``reference``'s."""
        return statistics.median(
            mine / theirs for mine, theirs in zip(self.rounds, reference.rounds, strict=True)
        )


def measure_round(row: Row, playout: Callable[[random.Random], int], seconds: float) -> None:
    """Play whole games for at least ``seconds`` of CPU time; add them to ``row``."""
    rng = random.Random(20240601 + len(row.rounds))
    games = steps = 0
    start = time.process_time()
    while True:
        steps += playout(rng)
        games += 1
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            break
    row.games += games
    row.steps += steps
    row.cpu_seconds += elapsed
    row.rounds.append(steps / elapsed)


def engines() -> list[tuple[str, str, Callable[[random.Random], int]]]:
    register_openspiel_game(
        SecretDuel,
        InteropSpec(max_decisions=2, max_chance_nodes=2, min_utility=-2.0, max_utility=2.0),
    )
    rows: list[tuple[str, str, Callable[[random.Random], int]]] = []
    for name in ("goofspiel", REFERENCE):
        os_game = pyspiel.load_game(name)
        rows.append((name, "pyspiel (OpenSpiel)", lambda rng, g=os_game: pyspiel_playout(g, rng)))
    for python_answers, label in ((False, "pyspiel's answers"), (True, "Python answers")):
        trivial = TrivialGame(python_answers=python_answers)
        rows.append(
            (
                f"trivial Python game, {label}",
                FLOOR_API,
                lambda rng, g=trivial: pyspiel_playout(g, rng),
            )
        )
    koth_games: list[Game[Any, Any, Any]] = [SecretDuel(), load_game("cards"), load_game("board")]
    for koth_game in koth_games:
        adapted = openspiel_game(koth_game)
        label = f"koth {koth_game.name}"
        rows.append(
            (label, "pyspiel (koth adapter)", lambda rng, g=adapted: pyspiel_playout(g, rng))
        )
        rows.append((label, GAMESTATE_API, lambda rng, g=koth_game: gamestate_playout(g, rng)))
        if koth_game.name != SecretDuel.name:
            env = pettingzoo_env(koth_game)
            rows.append((label, AEC_API, lambda rng, e=env: aec_playout(e, rng)))
            rows.append(
                (label, AEC_OBSERVED_API, lambda rng, e=env: aec_playout(e, rng, observe=True))
            )
        if koth_game.name != SecretDuel.name:
            replayed: Any = ReplayedRules(koth_game, games=REPLAYED_GAMES)
            rows.append((label, REPLAYED_API, lambda rng, g=replayed: gamestate_playout(g, rng)))
    return rows


def rules_budget(rows: list[Row], reference: Row) -> list[str]:
    """Per engine with a replayed row: what its rules cost a step now, and what they
    may cost for its GameState row to equal the reference (medians, microseconds)."""
    lines = []
    for replayed in rows:
        if replayed.api != REPLAYED_API:
            continue
        real = next(r for r in rows if r.engine == replayed.engine and r.api == GAMESTATE_API)
        floor = 1e6 / replayed.steps_per_second
        spent = 1e6 / real.steps_per_second - floor
        allowed = 1e6 / reference.steps_per_second - floor
        lines.append(
            f"{replayed.engine}: the rules cost {spent:.2f} us a step beside {floor:.2f} us "
            f"of loop and GameState; at {REFERENCE}'s speed they may cost {allowed:.2f} us"
        )
    return lines


def adapter_budget(rows: list[Row], reference: Row) -> list[str]:
    """Per koth engine through pyspiel: its step beside the reference's, pyspiel's floor
    for a Python game answered as the adapter answers, and its GameState step (medians,
    microseconds)."""
    floor = next((r for r in rows if r.api == FLOOR_API and "Python answers" in r.engine), None)
    if floor is None:
        return []
    lines = [
        f"pyspiel's floor (a trivial Python game answered in Python): "
        f"{1e6 / floor.steps_per_second:.2f} us a step; {REFERENCE}: "
        f"{1e6 / reference.steps_per_second:.2f} us"
    ]
    for adapted in rows:
        if adapted.api != "pyspiel (koth adapter)":
            continue
        direct = next(r for r in rows if r.engine == adapted.engine and r.api == GAMESTATE_API)
        lines.append(
            f"{adapted.engine} through pyspiel: {1e6 / adapted.steps_per_second:.2f} us a "
            f"step; its GameState loop {1e6 / direct.steps_per_second:.2f} us"
        )
    return lines


def pin_to_one_core(cpu: int | None) -> int | None:
    if not hasattr(os, "sched_setaffinity"):
        return None
    allowed = sorted(os.sched_getaffinity(0))
    chosen = cpu if cpu is not None else allowed[0]
    os.sched_setaffinity(0, {chosen})
    return chosen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=6.0, help="CPU seconds per row")
    parser.add_argument("--rounds", type=int, default=20, help="interleaved rounds per row")
    parser.add_argument("--cpu", type=int, default=None, help="core to pin to")
    parser.add_argument("--json", type=Path, default=None, help="also write the rows here")
    args = parser.parse_args()
    notice_pure_build()
    console = Console(width=130)
    cpu = pin_to_one_core(args.cpu)
    if args.rounds < 1 or args.seconds <= 0:
        parser.error("--rounds must be at least 1 and --seconds positive")
    measured = [(Row(engine, api), playout) for engine, api, playout in engines()]
    for _, playout in measured:
        playout(random.Random(0))  # warm caches and lazy imports outside the measurement
    per_round = args.seconds / args.rounds
    with console.status("measuring...") as status:
        for number in range(1, args.rounds + 1):
            for row, playout in measured:
                status.update(f"round {number}/{args.rounds}: {row.engine} via {row.api}")
                measure_round(row, playout, per_round)
    rows = [row for row, _ in measured]
    reference = next(r for r in rows if r.engine == REFERENCE)

    table = Table(
        title=f"Random-playout speed, one core (cpu {cpu}), {args.seconds:g} s CPU per row "
        f"in {args.rounds} interleaved rounds; koth {build_kind()}"
    )
    columns = ("engine", "API", "games", "steps", "steps/s", "spread", f"vs {REFERENCE}")
    for column in columns:
        table.add_column(column, justify="left" if column in ("engine", "API") else "right")
    for row in rows:
        table.add_row(
            row.engine,
            row.api,
            f"{row.games:,}",
            f"{row.steps:,}",
            f"{row.steps_per_second:,.0f}",
            f"{min(row.rounds) / 1000:,.0f}k-{max(row.rounds) / 1000:,.0f}k",
            f"{row.relative_to(reference):.2f}x",
        )
    console.print(table)
    for line in rules_budget(rows, reference) + adapter_budget(rows, reference):
        console.print(line)
    if args.json:
        payload = [
            {
                **asdict(r),
                "steps_per_second": r.steps_per_second,
                "vs_reference": r.relative_to(reference),
                "build": build_kind(),
            }
            for r in rows
        ]
        args.json.write_text(json.dumps(payload, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
