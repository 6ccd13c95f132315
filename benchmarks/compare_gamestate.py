"""GameState of this checkout against GameState of an earlier commit, in one process.

The framework's cost per step is small next to the machine's swings (up to 40% within
seconds on a shared VM), so two separate benchmark runs cannot tell a 5% change in
``koth.core.state`` from noise. This loads ``src/koth/core/state.py`` as it was at
``--against`` (a git revision) beside the current one and plays the same seeded random
games through both, interleaved round by round, next to OpenSpiel's
``python_liars_poker``. Only ``GameState`` differs between the two rows of a game: the
rules are the checkout's.

Usage: python benchmarks/compare_gamestate.py [--against REV] [--seconds S] [--rounds R]
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # for tests.core.toy_game
sys.path.insert(0, str(ROOT / "benchmarks"))

import pyspiel  # noqa: E402
from open_spiel.python import games as _python_games  # noqa: E402, F401  (registers them)
from tests.core.toy_game import SecretDuel  # noqa: E402

from bench_interop_speed import (  # noqa: E402
    REFERENCE,
    gamestate_playout,
    pin_to_one_core,
    pyspiel_playout,
)
from koth.core import state as current_state  # noqa: E402
from koth.core.registry import load_game  # noqa: E402


def state_module_at(revision: str) -> ModuleType:
    """``koth/core/state.py`` as it was at ``revision``, imported under another name."""
    try:
        source = subprocess.run(
            ["git", "show", f"{revision}:src/koth/core/state.py"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    except subprocess.CalledProcessError as exc:
        raise SystemExit(f"cannot read state.py at {revision!r}: {exc.stderr.strip()}") from None
    path = Path(tempfile.mkdtemp()) / "koth_state_before.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location("koth_state_before", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while decorating
    spec.loader.exec_module(module)
    return module


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--against", default="HEAD", help="git revision to compare with")
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per slice")
    parser.add_argument("--rounds", type=int, default=12)
    args = parser.parse_args()
    if args.rounds < 1 or args.seconds <= 0:
        parser.error("--rounds must be at least 1 and --seconds positive")
    pin_to_one_core(None)
    before = state_module_at(args.against)
    reference = pyspiel.load_game(REFERENCE)
    rows: dict[str, Callable[[random.Random], int]] = {
        REFERENCE: lambda rng: pyspiel_playout(reference, rng)
    }
    for game in (SecretDuel(), load_game("cards"), load_game("board")):
        for label, module in ((args.against, before), ("this checkout", current_state)):
            rows[f"{game.name}, {label}"] = lambda rng, g=game, m=module: gamestate_playout(
                g, rng, m.GameState
            )
    speeds: dict[str, list[float]] = {name: [] for name in rows}
    for number in range(args.rounds):
        for name, run in rows.items():
            rng = random.Random(number)
            steps = 0
            start = time.process_time()
            while (elapsed := time.process_time() - start) < args.seconds:
                steps += run(rng)
            speeds[name].append(steps / elapsed)
    print(f"GameState at {args.against} against this checkout, {args.rounds} rounds")
    for name, per_round in speeds.items():
        ratio = statistics.median(
            mine / theirs for mine, theirs in zip(per_round, speeds[REFERENCE], strict=True)
        )
        print(f"{name:32} {statistics.median(per_round):10,.0f} steps/s  {ratio:.2f}x")


if __name__ == "__main__":
    main()
