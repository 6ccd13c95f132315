"""Any koth ``Game`` as a PettingZoo AEC environment with action masks.

``raw_env(game)`` (a registry name or a ``Game``) is the environment itself, ``env(game)``
the same wrapped in PettingZoo's order-enforcing wrapper. Agents are ``player_0`` ..
``player_{n-1}``; each observation is ``{"observation": float32 vector,
"action_mask": int8 vector}`` where the vector encodes the agent's ``view`` only (the
game's encoder, see `koth.interop.encoding`) and the mask marks its legal action ids
(all zeros when it is not the agent's turn).

* Chance nodes never reach the agents: the environment resolves them with a
  ``random.Random`` seeded by ``reset(seed=...)``, so a seed replays a whole game.
* A simultaneous node is played in turn: its acting players are selected one after
  another (by player id) and the joint action applies when the last one has
  submitted. A submission changes nobody's observation before that, so the players
  after the first choose without seeing the earlier choices.
* Rewards come at the end: every agent gets its koth return when the game ends.
* The agent to act also finds its action mask in ``infos[agent]["action_mask"]``
  (PettingZoo's other place for masks), so a loop that reads only masks calls
  ``last(observe=False)`` and never pays for encoding a view. An observation is encoded
  when asked for, once per agent and move: asking again before the next move copies it.
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from koth.core.chance import resolve_chance
from koth.core.errors import IllegalActionError, InvalidActionError, InvalidParamsError
from koth.core.players import PlayerId
from koth.core.registry import load_game
from koth.core.state import GameState
from koth.interop.encoding import FloatArray, HashedViewEncoder, ViewEncoder
from koth.interop.ids import ActionIds
from koth.interop.spec import AnyGame, find_spec

Observation = dict[str, npt.NDArray[Any]]

#: how many bytes of action masks an environment keeps to copy from
MASK_MEMO_BYTES = 4 << 20
#: the fewest masks worth keeping: with fewer (a large action space: 175 of the board's
#: 23,845 ids), a kept mask is rarely met again (7% of the board's decisions in random
#: play) and making its key costs more than the copies save, so none is kept
MASK_MEMO_MIN = 1024


def _default_encoder(game: AnyGame) -> ViewEncoder:
    spec = find_spec(game)
    return HashedViewEncoder() if spec is None else spec.encoder(game)


class KothAECEnv(AECEnv):  # type: ignore[misc]  # PettingZoo ships no type information
    """A koth game as an agent-environment-cycle environment."""

    #: render modes this environment supports
    render_modes = ("ansi", "human")

    def __init__(
        self,
        game: AnyGame,
        *,
        encoder: ViewEncoder | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.render_modes:
            raise InvalidParamsError(f"render_mode must be one of {self.render_modes}")
        self.game = game
        self.encoder = encoder or _default_encoder(game)
        self.render_mode = render_mode
        self.metadata: dict[str, Any] = {
            "render_modes": list(self.render_modes),
            "name": f"koth_{game.name}_v0",
            "is_parallelizable": False,
        }
        self.possible_agents = [f"player_{p}" for p in range(game.num_players)]
        self._players = {agent: p for p, agent in enumerate(self.possible_agents)}
        num_actions = game.num_distinct_actions()
        self._action_spaces = {
            agent: gymnasium.spaces.Discrete(num_actions) for agent in self.possible_agents
        }
        self._observation_spaces = {
            agent: gymnasium.spaces.Dict(
                {
                    "observation": gymnasium.spaces.Box(
                        -np.inf, np.inf, (self.encoder.size,), np.float32
                    ),
                    "action_mask": gymnasium.spaces.Box(0, 1, (num_actions,), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self._num_actions = num_actions
        self._ids = ActionIds(game)
        self._rng = random.Random()
        self._state: GameState[Any, Any] = game.new_initial_state()
        self._pending: dict[PlayerId, Any] = {}
        # what the current position answers, kept until the next move (``_moved``):
        # each player's legal actions (the very values the rules offered) and their ids,
        # and the observations encoded so far
        self._legal: dict[PlayerId, tuple[Any, list[int]]] = {}
        self._observed: dict[PlayerId, FloatArray] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        #: the agent whose info holds an action mask (the one to act), if any
        self._masked: str | None = None
        #: masks made so far by legal ids, up to about 4 MB of them
        self._masks: dict[tuple[int, ...], npt.NDArray[np.int8]] = {}
        kept = MASK_MEMO_BYTES // max(1, num_actions)
        self._masks_kept = kept if kept >= MASK_MEMO_MIN else 0

    # ------------------------------------------------------------ spaces
    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self._action_spaces[agent]

    @property
    def koth_state(self) -> GameState[Any, Any]:
        """The game in progress (secrets included: never show it to an agent)."""
        return self._state

    # ------------------------------------------------------------ cycle
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        self._state = self.game.new_initial_state()
        self._pending = {}
        self._masked = None
        self._moved()
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self._select_next()

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise InvalidActionError(f"{agent} must act: None is only for finished agents")
        player = self._players[agent]
        action_id = int(action)
        legal, ids = self._legal.get(player) or self._legal_of(player)
        try:
            # the very value offered: GameState's fast check
            chosen = legal[ids.index(action_id)]
        except ValueError:
            raise IllegalActionError(
                f"{agent} tried action id {action_id}, which is not legal now "
                f"(legal: {sorted(ids)})"
            ) from None
        self._cumulative_rewards[agent] = 0.0
        state = self._state
        if state.is_simultaneous_node():
            self._pending[player] = chosen
            if len(self._pending) == len(state.acting_players()):
                joint, self._pending = self._pending, {}
                state.apply_actions(joint)
                self._moved()
            else:
                self._unmask()  # submitted: no longer to act
        else:
            state.apply_action(chosen, player)
            self._moved()
        self._select_next()
        if self.render_mode == "human":
            self.render()

    def _moved(self) -> None:
        """After a move: resolve chance, and forget what the position before answered."""
        resolve_chance(self._state, self._rng)
        self._legal.clear()
        if self._observed:
            self._observed.clear()
        if self._masked is not None:
            self._unmask()

    def _unmask(self) -> None:
        """Take the action mask out of the info of the agent that held it."""
        masked = self._masked
        if masked is not None:
            self._masked = None
            info = self.infos.get(masked)
            if info is not None:
                info.pop("action_mask", None)

    def _legal_of(self, player: PlayerId) -> tuple[Any, list[int]]:
        """``player``'s legal actions now and their ids (kept until the next move)."""
        known = self._legal.get(player)
        if known is None:
            legal = self._state.legal_actions(player)
            known = self._legal[player] = (legal, self._ids.ids_of(legal))
        return known

    def _mask(self, player: PlayerId) -> npt.NDArray[np.int8]:
        """A new mask of ``player``'s legal ids (a copy of the one made for the same ids
        before, while the memo has room: copying costs less than filling)."""
        ids = (self._legal.get(player) or self._legal_of(player))[1]
        key = tuple(ids) if self._masks_kept else None
        kept = None if key is None else self._masks.get(key)
        if kept is not None:
            return kept.copy()
        mask = np.zeros(self._num_actions, np.int8)
        mask[ids] = 1
        if key is not None and len(self._masks) < self._masks_kept:
            self._masks[key] = mask
            return mask.copy()
        return mask

    def _select_next(self) -> None:
        """Point ``agent_selection`` at the next player to act, or end the game; the
        player to act finds its action mask in its info."""
        state = self._state
        if state.is_terminal():
            for agent, value in zip(self.possible_agents, state.returns(), strict=True):
                if agent in self.rewards:
                    self.rewards[agent] = float(value)
            self.terminations = dict.fromkeys(self.agents, True)
            self.agent_selection = self.agents[0]
            self._accumulate_rewards()
            return
        acting = state.acting_players()
        player = acting[len(self._pending)]  # the acting players submit in id order
        self.agent_selection = agent = self.possible_agents[player]
        self.infos[agent]["action_mask"] = self._mask(player)
        self._masked = agent

    # ------------------------------------------------------------ observing
    def observe(self, agent: str) -> Observation:
        player = self._players[agent]
        observation = self._observed.get(player)
        if observation is None:
            observation = np.zeros(self.encoder.size, np.float32)
            self.encoder.encode(self._state.view(player), observation)
            self._observed[player] = observation
        if (
            agent == self.agent_selection
            and not self._state.is_terminal()
            and player not in self._pending
        ):
            mask = self._mask(player)
        else:
            mask = np.zeros(self._num_actions, np.int8)
        return {"observation": observation.copy(), "action_mask": mask}

    def render(self) -> str | None:
        """The spectator's view (never a player's secrets)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode")
            return None
        text = self.game.render(self._state.data, None)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release (no window, no files)."""


def raw_env(
    game: str | AnyGame,
    *,
    encoder: ViewEncoder | None = None,
    render_mode: str | None = None,
    **params: Any,
) -> KothAECEnv:
    """The environment of ``game`` (a koth game, or a registry name with ``params``)."""
    if params and not isinstance(game, str):
        raise InvalidParamsError("params are for a game given by name, not a Game instance")
    koth_game = load_game(game, params) if isinstance(game, str) else game
    return KothAECEnv(koth_game, encoder=encoder, render_mode=render_mode)


def env(
    game: str | AnyGame,
    *,
    encoder: ViewEncoder | None = None,
    render_mode: str | None = None,
    **params: Any,
) -> Any:
    """``raw_env`` in PettingZoo's order-enforcing wrapper (errors for calls out of
    order, such as ``step`` before ``reset``)."""
    return wrappers.OrderEnforcingWrapper(
        raw_env(game, encoder=encoder, render_mode=render_mode, **params)
    )
