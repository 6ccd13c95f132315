"""The match driver: the one place in ``koth.agents`` that holds the true state.

``play_match`` samples chance with its own seeded generator, shows each agent only its
information set, applies simultaneous choices together once all are in, and checks
every chosen action against the legal ones.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from koth.agents.base import Agent, DecisionContext, InformationSet, derive_seed, is_offered
from koth.core.chance import sample_outcome
from koth.core.errors import IllegalActionError, InvalidParamsError
from koth.core.game import Game
from koth.core.outcome import Outcome
from koth.core.players import PlayerId
from koth.core.record import GameRecord
from koth.core.state import GameState

StepHook = Callable[[GameState[Any, Any]], None]


@dataclass
class MatchResult:
    """How one match went, seat by seat (seat = player id)."""

    seed: int
    agents: list[str]
    returns: tuple[float, ...]
    outcome: Outcome | None
    #: every history entry, chance included
    moves: int
    #: player decisions (a simultaneous node counts once)
    decisions: int
    #: stopped by ``max_decisions`` before the end
    truncated: bool
    final_state: GameState[Any, Any]
    #: thinking time per seat, seconds
    think_seconds: list[float] = field(default_factory=list)

    @property
    def winners(self) -> tuple[PlayerId, ...]:
        return tuple(sorted(self.outcome.winners)) if self.outcome else ()

    def record(self) -> GameRecord:
        return GameRecord.from_state(self.final_state, seed=self.seed, agents=self.agents)


def play_match(
    game: Game[Any, Any, Any],
    agents: Sequence[Agent[Any]],
    seed: int,
    *,
    max_decisions: int | None = None,
    on_step: StepHook | None = None,
) -> MatchResult:
    """Play one game, ``agents[i]`` in seat ``i``; reproducible from ``seed``.

    Chance draws and each agent's seed derive from ``seed``. ``on_step`` sees the state
    after every move (for statistics; it belongs to the driver's side of the boundary).
    """
    if len(agents) != game.num_players:
        raise InvalidParamsError(
            f"{game.name} ({game.describe_params()}) seats {game.num_players} players, "
            f"got {len(agents)} agents"
        )
    chance_rng = random.Random(derive_seed(seed, "chance"))
    for seat, agent in enumerate(agents):
        agent.reset(game, seat, derive_seed(seed, "seat", seat))
    think = [0.0] * len(agents)
    state = game.new_initial_state()
    decisions = 0
    truncated = False
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_outcome(state.chance_outcomes(), chance_rng))
        else:
            if max_decisions is not None and decisions >= max_decisions:
                truncated = True
                break
            simultaneous = state.is_simultaneous_node()
            chosen: dict[PlayerId, Any] = {}
            # every acting player decides from the state before anyone's choice applies
            for player in state.acting_players():
                info = InformationSet.of(state, player)
                context = DecisionContext(info, decisions, simultaneous)
                started = time.perf_counter()
                action = agents[player].act(info.view, info.legal_actions, context)
                think[player] += time.perf_counter() - started
                if not is_offered(action, info.legal_actions):
                    raise IllegalActionError(
                        f"agent {agents[player].name} in seat {player} chose "
                        f"{action!r}, which is not legal now"
                    )
                chosen[player] = action
            if simultaneous:
                state.apply_actions(chosen)
            else:
                ((player, action),) = chosen.items()
                state.apply_action(action, player)
            decisions += 1
        if on_step is not None:
            on_step(state)
    return MatchResult(
        seed=seed,
        agents=[agent.name for agent in agents],
        returns=state.returns(),
        outcome=state.outcome(),
        moves=state.num_moves,
        decisions=decisions,
        truncated=truncated,
        final_state=state,
        think_seconds=think,
    )
