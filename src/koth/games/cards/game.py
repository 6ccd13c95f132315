"""Larry Levy's King of the Hill card game as a ``koth.core`` Game."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from koth.core.errors import InvalidActionError
from koth.core.facts import GameFacts
from koth.core.game import Game
from koth.core.outcome import Outcome
from koth.core.players import TO_MOVE_CHANCE, TO_MOVE_TERMINAL, PlayerId, ToMove
from koth.core.registry import register_game
from koth.games.cards import actions as act
from koth.games.cards import legal, observe, rules
from koth.games.cards.actions import (
    DEALS,
    CardsAction,
    Choose,
    Deal,
    JokerPlay,
    Place,
    Run,
    Single,
)
from koth.games.cards.facts import CARDS_FACTS
from koth.games.cards.invariants import violations
from koth.games.cards.params import CardsParams
from koth.games.cards.serialize import state_from_json, state_to_json
from koth.games.cards.state import DISCARDED, CardsState, CardTermination, Phase
from koth.games.cards.tables import (
    NORMAL_CARDS,
)

_BOTH = ToMove.simultaneous((0, 1))


def _deal_pairs(left: int) -> tuple[tuple[tuple[tuple[CardsAction, float], ...], ...], ...]:
    """The deal outcomes when ``left`` cards are undealt, by nibble of the undealt mask:
    ``[k][b]`` holds (deal card, 1 / left) for each card of 4-bit value ``b`` at nibble
    ``k`` (cards 4k..4k+3), in increasing card order."""
    probability = 1.0 / left if left else 0.0
    pairs = [(DEALS[c], probability) for c in range(NORMAL_CARDS)]
    return tuple(
        tuple(tuple(pairs[4 * k + i] for i in range(4) if b >> i & 1) for b in range(16))
        for k in range(NORMAL_CARDS // 4)
    )


class _DealPairs(dict[int, Any]):
    """``_deal_pairs`` for each count of undealt cards, built on first use."""

    def __missing__(self, left: int) -> Any:
        self[left] = table = _deal_pairs(left)
        return table


_DEAL_PAIRS = _DealPairs()
_PLAYER = (ToMove.player(0), ToMove.player(1))
_ATTACK_TYPES = (Single, Run, JokerPlay)


@register_game
class CardsGame(Game[CardsState, CardsAction, CardsParams]):
    """Two players fight for the stacks of a pyramid; whoever wins the apex wins."""

    name = "cards"
    params_type = CardsParams

    @property
    def num_players(self) -> int:
        return 2

    def num_distinct_actions(self) -> int:
        return act.NUM_ACTIONS

    # ----------------------------------------------------------------- rules
    def initial(self) -> CardsState:
        return rules.initial_state(self.params)

    def to_move(self, state: CardsState) -> ToMove:
        phase = state.phase
        if phase is Phase.DEAL:
            return TO_MOVE_CHANCE
        if phase is Phase.RESERVE or phase is Phase.ATTACK or phase is Phase.TIEBREAK:
            return _BOTH
        if phase is Phase.CHOOSE:
            return _PLAYER[rules.chooser(state, self.params)]
        if phase is Phase.ASSIGN:
            return _PLAYER[rules.assignee(state)]
        return TO_MOVE_TERMINAL

    def __init__(self, params: Any = None, **overrides: Any) -> None:
        super().__init__(params, **overrides)
        # GameState asks for a chance node's outcomes twice (to sample, to check);
        # one remembered (state, outcomes) pair halves that work. Read and written as
        # one tuple, so sharing a game between threads stays safe.
        self._last_outcomes: tuple[CardsState | None, tuple[tuple[CardsAction, float], ...]] = (
            None,
            (),
        )

    def chance_outcomes(self, state: CardsState) -> Sequence[tuple[CardsAction, float]]:
        cached_state, cached = self._last_outcomes
        if cached_state is state:
            return cached
        if state.phase is not Phase.DEAL:
            return ()
        # the same outcomes as [(DEALS[c], 1 / left) for each undealt card c], in order,
        # assembled from precomputed runs of four cards
        undealt = state.undealt
        collected: list[tuple[CardsAction, float]] = []
        for table in _DEAL_PAIRS[undealt.bit_count()]:
            collected += table[undealt & 15]
            undealt >>= 4
        outcomes = tuple(collected)
        self._last_outcomes = (state, outcomes)
        return outcomes

    def legal_actions(self, state: CardsState, player: PlayerId) -> Sequence[CardsAction]:
        phase = state.phase
        # each phase's movers as in to_move (the deal and the end have none)
        if phase is Phase.ATTACK or phase is Phase.TIEBREAK:
            return legal.legal_attacks(state, player) if player in (0, 1) else []
        if phase is Phase.RESERVE:
            return legal.reserve_choices(state, player) if player in (0, 1) else []
        if phase is Phase.CHOOSE:
            if player != rules.chooser(state, self.params):
                return []
            return legal.choose_actions(state)
        if phase is Phase.ASSIGN:
            return legal.assign_choices(state) if player == rules.assignee(state) else []
        return []

    def apply(self, state: CardsState, player: PlayerId, action: CardsAction) -> CardsState:
        if type(action) is Deal:
            return rules.apply_deal(state, action.card)
        if type(action) is Choose:
            return rules.apply_choose(state, action.stack)
        if type(action) is Place and state.phase is Phase.ASSIGN:
            return rules.apply_assign(state, action.to_reserve)
        raise ValueError(f"{action} cannot be applied alone in phase {state.phase.name}")

    def apply_joint(self, state: CardsState, actions: Mapping[PlayerId, CardsAction]) -> CardsState:
        first, second = actions[0], actions[1]
        if state.phase is Phase.RESERVE:
            assert type(first) is Place and type(second) is Place
            return rules.apply_reserve_round(state, (first.to_reserve, second.to_reserve))
        assert isinstance(first, _ATTACK_TYPES)
        assert isinstance(second, _ATTACK_TYPES)
        return rules.resolve_attacks(state, (first, second), self.params)

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
