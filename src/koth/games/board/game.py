"""``BoardGame``: Florian Jehn's King of the Hill on the koth.core contract."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from koth.core.facts import GameFacts
from koth.core.game import JSON, Game
from koth.core.log import LogEvent
from koth.core.notes import TransitionNote
from koth.core.outcome import Outcome
from koth.core.players import PlayerId, ToMove
from koth.core.registry import register_game
from koth.games.board import actions as act
from koth.games.board import observe, serialize
from koth.games.board.actions import Action
from koth.games.board.events import board_events
from koth.games.board.explain import explain
from koth.games.board.facts import board_facts
from koth.games.board.invariants import violations
from koth.games.board.notes import turn_end_notes
from koth.games.board.params import BoardParams
from koth.games.board.render import render_text
from koth.games.board.rules import Rules
from koth.games.board.state import BoardState, position_text


@register_game
class BoardGame(Game[BoardState, Action, BoardParams]):
    """King of the Hill, the tactical board game for 2-4 players."""

    name = "board"
    params_type = BoardParams
    action_kinds = (
        "roll",
        "terrain_draw",
        "area_draw",
        "place",
        "exclude",
        "recruit",
        "move",
        "attack",
        "ally",
        "answer",
        "turn_ring",
        "move_area",
        "swap",
        "end",
    )

    def __init__(self, params: Mapping[str, Any] | BoardParams | None = None, **overrides: Any):
        super().__init__(params, **overrides)
        self.rules = Rules(self.params)
        self._num_actions = act.num_actions(self.params.num_players)
        self.bind_steps(
            self.rules, BoardGame, "to_move", "chance_outcomes", "legal_actions", "apply"
        )

    @property
    def num_players(self) -> int:
        return self.params.num_players

    def num_distinct_actions(self) -> int:
        return self._num_actions

    # ----------------------------------------------------------------- rules
    def initial(self) -> BoardState:
        return self.rules.initial()

    def to_move(self, state: BoardState) -> ToMove:
        return self.rules.to_move(state)

    def chance_outcomes(self, state: BoardState) -> Sequence[tuple[Action, float]]:
        return self.rules.chance_outcomes(state)

    def legal_actions(self, state: BoardState, player: PlayerId) -> Sequence[Action]:
        return self.rules.legal_actions(state, player)

    def apply(self, state: BoardState, player: PlayerId, action: Action) -> BoardState:
        return self.rules.apply(state, player, action)

    def apply_joint(self, state: BoardState, actions: Mapping[PlayerId, Action]) -> BoardState:
        return self.rules.apply_joint(state, dict(actions))

    def outcome(self, state: BoardState) -> Outcome | None:
        return observe.outcome_of(state)

    def returns(self, state: BoardState) -> tuple[float, ...]:
        """Zero-sum: losers get -1/(n-1) each, the winners share the rest (B17.1)."""
        n = self.num_players
        winners = set(state.winners)
        if state.termination is None or not winners or len(winners) == n:
            return (0.0,) * n
        loss = -1 / (n - 1)
        win = (n - len(winners)) / (len(winners) * (n - 1))
        return tuple(win if p in winners else loss for p in range(n))

    def transition_notes(
        self, before: BoardState, after: BoardState, player: PlayerId, action: Action | None
    ) -> list[TransitionNote]:
        """Dice forfeited (B7.1) and turns skipped (B7.2) when a turn ended."""
        return [note.note() for note in turn_end_notes(self.params, before, after, action)]

    def shown_action(
        self, player: PlayerId, action: Action, reader: PlayerId | None
    ) -> Action | None:
        # every single action and die is public; the excluded type is a joint move's part
        return action

    def log_events(
        self,
        before: Mapping[str, Any],
        after: Mapping[str, Any],
        player: PlayerId,
        action: Action | None,
        reader: PlayerId | None,
    ) -> list[LogEvent]:
        return board_events(before, after, player, action, reader)

    # ----------------------------------------------------------- information
    def excluded_visible(self, state: BoardState, viewer: PlayerId | None, player: int) -> bool:
        """B16.2: an excluded type is secret to the others until the game ends."""
        return observe.excluded_visible(state, viewer, player)

    def view(self, state: BoardState, player: PlayerId | None) -> dict[str, JSON]:
        return observe.view(self.rules, state, player)

    def resample_hidden(
        self, state: BoardState, player: PlayerId | None, rng: random.Random
    ) -> BoardState:
        return observe.resample_hidden(self.rules, state, player, rng)

    # -------------------------------------------------------------- notation
    def parse_action(self, text: str) -> Action:
        return act.parse_action(text, self.num_players)

    def action_id(self, action: Action) -> int:
        return act.action_id(action, self.num_players)

    def action_from_id(self, action_id: int) -> Action:
        self._check_action_id(action_id)
        return act.action_from_id(action_id, self.num_players)

    def describe_position(self, state: BoardState) -> str:
        """The position text of ``state`` without the secret excluded types (B16.2)."""
        return position_text(state, secrets=False)

    def explain_illegal(
        self, state: BoardState, player: PlayerId, action: Action
    ) -> tuple[str, str | None]:
        return explain(self.rules, state, player, action)

    # --------------------------------------------------------- serialization
    def state_to_json(self, state: BoardState) -> JSON:
        return serialize.state_to_json(state)

    def state_from_json(self, data: JSON) -> BoardState:
        return serialize.state_from_json(data, self.num_players)

    # -------------------------------------------------------------- checking
    def facts(self) -> GameFacts:
        return board_facts(self.params)

    def invariant_violations(self, state: BoardState) -> list[str]:
        return violations(self.rules, state)

    def simultaneous_rule(self, state: BoardState) -> str | None:
        # the one simultaneous choice: the one-excluded variant's secret exclusion
        return "B16.2"

    def render(self, state: BoardState, player: PlayerId | None) -> str:
        return render_text(self, state, player)
