"""A minimal game that exercises every kind of node of the koth.core contract.

"Secret duel": chance deals each of two players one hidden card from 1..4 (no
repeats); player 0 sets a public stake of 1 or 2; then both players simultaneously
either stay or fold. Both stay: the higher card wins the stake. One folds: the other
wins the stake. Both fold: a draw. Cards are revealed at the end only if both stayed.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from pydantic import Field

from koth.core.errors import InvalidActionError
from koth.core.game import Game
from koth.core.outcome import Outcome
from koth.core.params import GameParams
from koth.core.players import TO_MOVE_CHANCE, TO_MOVE_TERMINAL, PlayerId, ToMove
from koth.core.registry import register_game


@dataclass(frozen=True, slots=True)
class Deal:
    card: int

    def __str__(self) -> str:
        return f"deal {self.card}"


@dataclass(frozen=True, slots=True)
class Stake:
    amount: int

    def __str__(self) -> str:
        return f"stake {self.amount}"


@dataclass(frozen=True, slots=True)
class Choice:
    stay: bool

    def __str__(self) -> str:
        return "stay" if self.stay else "fold"


Action = Deal | Stake | Choice


@dataclass(frozen=True, slots=True)
class DuelState:
    cards: tuple[int, ...] = ()
    stake: int | None = None
    choices: tuple[bool, bool] | None = None


class DuelParams(GameParams):
    max_card: int = Field(4, ge=2, le=9, description="cards are 1..max_card")


class DuelTermination(enum.Enum):
    SHOWDOWN = "showdown"
    FOLD = "fold"
    BOTH_FOLDED = "both_folded"


@register_game
class SecretDuel(Game[DuelState, Action, DuelParams]):
    name = "toy_duel"
    params_type = DuelParams
    action_kinds = ("deal", "stake", "choice")

    @property
    def num_players(self) -> int:
        return 2

    def num_distinct_actions(self) -> int:
        return self.params.max_card + 4

    def initial(self) -> DuelState:
        return DuelState()

    def to_move(self, state: DuelState) -> ToMove:
        if len(state.cards) < 2:
            return TO_MOVE_CHANCE
        if state.stake is None:
            return ToMove.player(0)
        if state.choices is None:
            return ToMove.simultaneous((0, 1))
        return TO_MOVE_TERMINAL

    def chance_outcomes(self, state: DuelState) -> Sequence[tuple[Action, float]]:
        left = [c for c in range(1, self.params.max_card + 1) if c not in state.cards]
        return [(Deal(c), 1 / len(left)) for c in left]

    def legal_actions(self, state: DuelState, player: PlayerId) -> Sequence[Action]:
        to_move = self.to_move(state)
        if player not in to_move.players:
            return []
        if state.stake is None:
            return [Stake(1), Stake(2)]
        return [Choice(True), Choice(False)]

    def apply(self, state: DuelState, player: PlayerId, action: Action) -> DuelState:
        if isinstance(action, Deal):
            return replace(state, cards=(*state.cards, action.card))
        assert isinstance(action, Stake)
        return replace(state, stake=action.amount)

    def apply_joint(self, state: DuelState, actions: Mapping[PlayerId, Action]) -> DuelState:
        first, second = actions[0], actions[1]
        assert isinstance(first, Choice) and isinstance(second, Choice)
        return replace(state, choices=(first.stay, second.stay))

    def outcome(self, state: DuelState) -> Outcome | None:
        if state.choices is None:
            return None
        match state.choices:
            case (True, True):
                winner = 0 if state.cards[0] > state.cards[1] else 1
                return Outcome(DuelTermination.SHOWDOWN, frozenset({winner}))
            case (False, False):
                return Outcome(DuelTermination.BOTH_FOLDED, frozenset())
            case (stays0, _):
                return Outcome(DuelTermination.FOLD, frozenset({0 if stays0 else 1}))
        raise AssertionError("unreachable")

    def returns(self, state: DuelState) -> tuple[float, ...]:
        outcome = self.outcome(state)
        if outcome is None or outcome.winner is None:
            return (0.0, 0.0)
        stake = float(state.stake or 0)
        return (stake, -stake) if outcome.winner == 0 else (-stake, stake)

    def view(self, state: DuelState, player: PlayerId | None) -> dict[str, Any]:
        showdown = state.choices == (True, True)
        cards: list[int | None] = [
            c if (showdown or i == player) else None for i, c in enumerate(state.cards)
        ]
        return {
            "cards": cards,
            "dealt": len(state.cards),
            "stake": state.stake,
            "choices": list(state.choices) if state.choices else None,
        }

    def resample_hidden(
        self, state: DuelState, player: PlayerId | None, rng: random.Random
    ) -> DuelState:
        if state.choices == (True, True):
            return state
        known = {i: c for i, c in enumerate(state.cards) if i == player}
        pool = [c for c in range(1, self.params.max_card + 1) if c not in known.values()]
        rng.shuffle(pool)
        cards = tuple(known[i] if i in known else pool.pop() for i in range(len(state.cards)))
        return replace(state, cards=cards)

    def parse_action(self, text: str) -> Action:
        words = text.strip().lower().split()
        try:
            match words:
                case ["deal", n] if 1 <= int(n) <= self.params.max_card:
                    return Deal(int(n))
                case ["stake", n] if int(n) in (1, 2):
                    return Stake(int(n))
                case ["stay"] | ["fold"]:
                    return Choice(words[0] == "stay")
        except ValueError:
            pass
        raise InvalidActionError(f"{text!r} is not a toy_duel action (deal N, stake N, stay, fold)")

    def action_id(self, action: Action) -> int:
        match action:
            case Deal(card):
                return card - 1
            case Stake(amount):
                return self.params.max_card + amount - 1
            case Choice(stay):
                return self.params.max_card + (2 if stay else 3)
        raise InvalidActionError(f"{action!r} is not a toy_duel action")

    def action_from_id(self, action_id: int) -> Action:
        self._check_action_id(action_id)
        m = self.params.max_card
        if action_id < m:
            return Deal(action_id + 1)
        if action_id < m + 2:
            return Stake(action_id - m + 1)
        return Choice(action_id == m + 2)

    def state_to_json(self, state: DuelState) -> dict[str, Any]:
        return {
            "cards": list(state.cards),
            "stake": state.stake,
            "choices": list(state.choices) if state.choices else None,
        }

    def state_from_json(self, data: Any) -> DuelState:
        choices = data["choices"]
        return DuelState(
            cards=tuple(int(c) for c in data["cards"]),
            stake=data["stake"],
            choices=(bool(choices[0]), bool(choices[1])) if choices else None,
        )

    def invariant_violations(self, state: DuelState) -> list[str]:
        if len(set(state.cards)) != len(state.cards):
            return ["a card was dealt twice"]
        return []
