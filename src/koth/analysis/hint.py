"""A hint: the move an agent would play for a seat, from that seat's information only.

``suggest`` hands the agent ``InformationSet.of(state, seat)``, as in play and in the
analysis: the seat's view and a sampler that redraws what the seat cannot know. A
search agent also reports how it rates the move (its win chance, on the game's scale of
returns) and the runner-up, which the web app words as the hint's reason.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from koth.agents.base import is_offered
from koth.agents.mcts import SearchAgent
from koth.agents.registry import make_agent
from koth.analysis.engine import MIN_VISITS, Option, decide, root_options
from koth.core.errors import IllegalActionError
from koth.core.players import PlayerId
from koth.core.state import GameState


@dataclass(frozen=True, slots=True)
class Suggestion:
    """The move an agent suggests, with what its search saw (None for an agent that
    does not search, or a move it tried fewer than ``MIN_VISITS`` times)."""

    action: str
    win_chance: float | None = None
    visits: int = 0
    iterations: int = 0
    #: the next most visited move, if the search tried one enough to rate it
    runner_up: Option | None = None


def suggest(state: GameState[Any, Any], seat: PlayerId, spec: str, seed: int) -> Suggestion:
    """The move agent ``spec`` (seeded with ``seed``) plays for ``seat`` at ``state``.

    ``state`` is used only to build the seat's information set: two states that look
    the same to the seat give the same suggestion.
    """
    game = state.game
    agent = make_agent(spec)
    agent.reset(game, seat, seed)
    chosen, info = decide(agent, state, seat)
    if not is_offered(chosen, info.legal_actions):
        raise IllegalActionError(f"agent {spec} suggested {chosen!s}, which is not legal now")
    text = game.action_to_str(chosen)
    if not isinstance(agent, SearchAgent) or agent.last_root is None:
        return Suggestion(text)
    root = agent.last_root
    options = [option for _, option in root_options(game, root, chosen)]
    best = options[0] if options and options[0].action == text else None
    others = [o for o in options[1:] if o.visits >= MIN_VISITS]
    if best is None or best.visits < MIN_VISITS:
        return Suggestion(text, iterations=agent.last_iterations)
    return Suggestion(
        text,
        win_chance=best.win_chance,
        visits=best.visits,
        iterations=agent.last_iterations,
        runner_up=others[0] if others else None,
    )
