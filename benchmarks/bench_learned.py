"""The learned search's leaf cost and its iterations a move, against another search.

Prints, for GAME, either:

1. the CPU milliseconds to build every seat's network input of one state, from each
   seat's view hashed (``ValueReader.write``) and at once from the state
   (``ValueReader.state_rows``), over the states of seeded random games (the cards'
   redrawn for seat 0, as a search samples them), and of the network on those rows;
2. or, with ``--games N``, the mean and median iterations a searched decision of the two
   agents of ``--agents`` (seats alternating) in N seeded games: with a time budget,
   how many leaves each search gets through in the same time (this part runs on
   checkouts without ``state_rows`` too: the same file compares before and after).

Usage: python benchmarks/bench_learned.py GAME [--games 4]
           [--agents learned:seconds=0.1,ismcts:seconds=0.1]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from koth.agents.learned import ValueReader, load_model
from koth.agents.mcts import SearchAgent
from koth.agents.play import play_match
from koth.agents.registry import make_agent
from koth.core.chance import sample_outcome
from koth.core.game import Game
from koth.core.registry import load_game


def sampled_states(game: Game[Any, Any, Any], games: int) -> list[Any]:
    states = []
    for seed in range(games):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_outcome(state.chance_outcomes(), rng))
                continue
            states.append(game.resample_hidden(state.data, 0, rng))
            chosen = {p: rng.choice(list(state.legal_actions(p))) for p in state.acting_players()}
            if state.is_simultaneous_node():
                state.apply_actions(chosen)
            else:
                ((player, action),) = chosen.items()
                state.apply_action(action, player)
    return states


def leaf_costs(game: Game[Any, Any, Any]) -> None:
    reader = ValueReader(game, load_model(game))
    states = sampled_states(game, 6)
    n = game.num_players

    def by_views(data: Any) -> Any:
        x = reader.rows(n)
        for seat in range(n):
            reader.write(game.view(data, seat), seat, x[seat])
        return x

    rows = [reader.state_rows(d) for d in states]
    for label, build in (("views hashed", by_views), ("from the state", reader.state_rows)):
        for _ in range(2):  # the second round: memos warm, as in a search
            started = time.process_time()
            for data in states:
                build(data)
            spent = time.process_time() - started
        print(f"{label}: {spent / len(states) * 1e3:.3f} ms a state ({n} seats)")
    started = time.process_time()
    for x in rows:
        reader.net(x)
    print(f"the network: {(time.process_time() - started) / len(rows) * 1e3:.3f} ms a state")
    print(f"({len(states)} states of 6 random games)")


def counting(agent: SearchAgent, found: list[int]) -> None:
    """Make ``agent`` append the iterations of each searched decision to ``found``."""
    act = agent.act

    def counted(view: Any, legal: Any, context: Any) -> Any:
        agent.last_iterations = 0
        chosen = act(view, legal, context)
        if len(legal) > 1:
            found.append(agent.last_iterations)
        return chosen

    agent.act = counted  # type: ignore[method-assign]


def iterations(game: Game[Any, Any, Any], specs: list[str], games: int) -> None:
    counts: dict[str, list[int]] = {spec: [] for spec in specs}
    for seed in range(games):
        agents = []
        for spec in specs:
            agent = make_agent(spec)
            if not isinstance(agent, SearchAgent):
                raise SystemExit(f"{spec} is not a search agent")
            counting(agent, counts[spec])
            agents.append(agent)
        if seed % 2:
            agents.reverse()
        play_match(game, agents, seed=100 + seed)
    for spec, found in counts.items():
        print(
            f"{spec}: {len(found)} searched decisions, iterations mean "
            f"{statistics.mean(found):.1f}, median {statistics.median(found):g}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", help="cards or board")
    parser.add_argument("--games", type=int, default=0, help="games for the iteration count")
    parser.add_argument("--agents", default="", help="two search specs (default: learned, ...)")
    args = parser.parse_args()
    game = load_game(args.game)
    if args.games:
        search = "ismcts" if args.game == "cards" else "mcts"
        specs = (args.agents or f"learned:seconds=0.1,{search}:seconds=0.1").split(",")
        iterations(game, specs, args.games)
    else:
        leaf_costs(game)


if __name__ == "__main__":
    main()
