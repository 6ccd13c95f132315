"""Larry Levy's King of the Hill card game as a ``koth.core`` Game."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from koth.core.errors import InvalidActionError
from koth.core.facts import GameFacts
from koth.core.game import Game
from koth.core.log import LogEvent
from koth.core.outcome import Outcome
from koth.core.players import PlayerId, ToMove
from koth.core.registry import register_game
from koth.games.cards import actions as act
from koth.games.cards import observe, rules
from koth.games.cards.actions import CardsAction
from koth.games.cards.engine import CardsRules
from koth.games.cards.events import cards_events
from koth.games.cards.facts import CARDS_FACTS
from koth.games.cards.invariants import violations
from koth.games.cards.params import CardsParams
from koth.games.cards.serialize import state_from_json, state_to_json
from koth.games.cards.state import DISCARDED, CardsState, CardTermination, Phase


@register_game
class CardsGame(Game[CardsState, CardsAction, CardsParams]):
    """Two players fight for the stacks of a pyramid; whoever wins the apex wins."""

    name = "cards"
    params_type = CardsParams
    action_kinds = ("deal", "place", "choose", "single", "run", "joker_play")

    @property
    def num_players(self) -> int:
        return 2

    def num_distinct_actions(self) -> int:
        return act.NUM_ACTIONS

    # ----------------------------------------------------------------- rules
    def initial(self) -> CardsState:
        return rules.initial_state(self.params)

    def __init__(self, params: Any = None, **overrides: Any) -> None:
        super().__init__(params, **overrides)
        self.rules = CardsRules(self.params)
        self.bind_steps(
            self.rules,
            CardsGame,
            "to_move",
            "chance_outcomes",
            "legal_actions",
            "apply",
            "apply_joint",
        )

    def to_move(self, state: CardsState) -> ToMove:
        return self.rules.to_move(state)

    def chance_outcomes(self, state: CardsState) -> Sequence[tuple[CardsAction, float]]:
        return self.rules.chance_outcomes(state)

    def legal_actions(self, state: CardsState, player: PlayerId) -> Sequence[CardsAction]:
        return self.rules.legal_actions(state, player)

    def apply(self, state: CardsState, player: PlayerId, action: CardsAction) -> CardsState:
        return self.rules.apply(state, player, action)

    def apply_joint(self, state: CardsState, actions: Mapping[PlayerId, CardsAction]) -> CardsState:
        return self.rules.apply_joint(state, actions)

    def outcome(self, state: CardsState) -> Outcome | None:
        if state.phase is not Phase.OVER:
            return None
        winner = state.log[-1].winner
        if winner == DISCARDED:
            return Outcome(CardTermination.APEX_DISCARDED, frozenset())
        return Outcome(CardTermination.APEX_WON, frozenset({winner}))

    def returns(self, state: CardsState) -> tuple[float, ...]:
        if state.phase is not Phase.OVER or state.log[-1].winner == DISCARDED:
            return (0.0, 0.0)
        return (1.0, -1.0) if state.log[-1].winner == 0 else (-1.0, 1.0)

    # ----------------------------------------------------------- information
    def view(self, state: CardsState, player: PlayerId | None) -> dict[str, Any]:
        return observe.view(state, player, self.params)

    def log_events(
        self,
        before: Mapping[str, Any],
        after: Mapping[str, Any],
        player: PlayerId,
        action: CardsAction | None,
        reader: PlayerId | None,
    ) -> list[LogEvent]:
        # every public event of the card game shows in the views (C15)
        return cards_events(before, after, reader)

    def resample_hidden(
        self, state: CardsState, player: PlayerId | None, rng: random.Random
    ) -> CardsState:
        return observe.resample_hidden(state, player, rng)

    # -------------------------------------------------------------- notation
    def parse_action(self, text: str) -> CardsAction:
        return act.parse_action(text)

    def action_id(self, action: CardsAction) -> int:
        return act.action_id(action)

    def action_from_id(self, action_id: int) -> CardsAction:
        return act.action_from_id(action_id)

    def explain_illegal(
        self, state: CardsState, player: PlayerId, action: CardsAction
    ) -> tuple[str, str | None]:
        from koth.games.cards.explain import explain_illegal

        return explain_illegal(state, player, action, self.params)

    # --------------------------------------------------------- serialization
    def state_to_json(self, state: CardsState) -> dict[str, Any]:
        return state_to_json(state)

    def state_from_json(self, data: Any) -> CardsState:
        try:
            return state_from_json(data)
        except (KeyError, TypeError, IndexError, InvalidActionError) as exc:
            raise ValueError(f"malformed card game state: {exc}") from None

    # -------------------------------------------------------------- checking
    def facts(self) -> GameFacts:
        return CARDS_FACTS

    def invariant_violations(self, state: CardsState) -> list[str]:
        return violations(state, self.params)

    # ------------------------------------------------------------- rendering
    def simultaneous_rule(self, state: CardsState) -> str | None:
        # the reserve is chosen card by card in secret (C4.1); attacks are made so (C6)
        return "C4.1" if state.phase is Phase.RESERVE else "C6"

    def render(self, state: CardsState, player: PlayerId | None) -> str:
        from koth.games.cards.render import render_text

        view = self.view(state, player)
        if player is None and self.outcome(state) is not None:
            # everything is public once the game is over: each seat's hand and reserve
            for seat, info in enumerate(view["players"]):
                own = self.view(state, seat)["players"][seat]
                info.update(hand=own["hand"], reserve=own["reserve"])
                info.update(hand_count=len(own["hand"]), reserve_count=len(own["reserve"]))
        return render_text(view)
