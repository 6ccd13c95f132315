"""The card game's per-step calls (whose turn, the deal's outcomes, the legal actions,
applying actions) as one object, compiled in the compiled build.

``CardsGame`` binds these methods on itself (docs/performance.md): every step of a
playout or a search calls them, and here they run as C without an interpreted frame.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from koth.core.chance import UniformOutcomes
from koth.core.offered import as_sequence
from koth.core.players import TO_MOVE_CHANCE, TO_MOVE_TERMINAL, PlayerId, ToMove
from koth.games.cards.actions import (
    DEAL_BASE,
    DEALS,
    CardsAction,
    Choose,
    Deal,
    JokerPlay,
    Place,
    Run,
    Single,
)
from koth.games.cards.legal import (
    assign_choices,
    choose_actions,
    legal_attacks,
    reserve_choices,
)
from koth.games.cards.params import CardsParams
from koth.games.cards.rules import (
    apply_assign,
    apply_choose,
    apply_deal,
    apply_reserve_round,
    assignee,
    resolve_attacks,
)
from koth.games.cards.state import CardsState, Phase
from koth.games.cards.tables import NORMAL_CARDS

# The phases as constants: compiled, reading one is a C static, where ``Phase.DEAL``
# would look the member up on the enum class at each use.
_DEAL: Final = Phase.DEAL
_RESERVE: Final = Phase.RESERVE
_CHOOSE: Final = Phase.CHOOSE
_ATTACK: Final = Phase.ATTACK
_TIEBREAK: Final = Phase.TIEBREAK
_ASSIGN: Final = Phase.ASSIGN

_BOTH: Final = ToMove.simultaneous((0, 1))
_PLAYER: Final = (ToMove.player(0), ToMove.player(1))
_NO_ACTIONS: Final[tuple[CardsAction, ...]] = ()

Outcomes = tuple[tuple[CardsAction, float], ...]


def _deal_pairs(left: int) -> tuple[tuple[Outcomes, ...], ...]:
    """The deal outcomes when ``left`` cards are undealt, by nibble of the undealt mask:
    ``[k][b]`` holds (deal card, 1 / left) for each card of 4-bit value ``b`` at nibble
    ``k`` (cards 4k..4k+3), in increasing card order."""
    probability = 1.0 / left if left else 0.0
    pairs = [(DEALS[c], probability) for c in range(NORMAL_CARDS)]
    return tuple(
        tuple(tuple(pairs[4 * k + i] for i in range(4) if b >> i & 1) for b in range(16))
        for k in range(NORMAL_CARDS // 4)
    )


#: ``_deal_pairs(left)`` for each count of undealt cards, built on first use
_DEAL_PAIRS: Final[list[tuple[tuple[Outcomes, ...], ...] | None]] = [None] * (NORMAL_CARDS + 1)


def deal_outcomes(undealt: int) -> Outcomes:
    """The deal's outcomes when the cards ``undealt`` are left: (Deal of each undealt
    card, 1 / their number), in card order, assembled from precomputed runs of four."""
    left = undealt.bit_count()
    tables = _DEAL_PAIRS[left]
    if tables is None:
        tables = _DEAL_PAIRS[left] = _deal_pairs(left)
    collected: list[tuple[CardsAction, float]] = []
    for table in tables:
        nibble = undealt & 15
        if nibble:  # most are empty late in the deal: no list extension for them
            collected += table[nibble]
        undealt >>= 4
    return tuple(collected)


#: whether this module runs compiled: there the deal's outcomes are built when read
#: (``DealOutcomes``); interpreted, each read would be a Python call, and the whole tuple
#: from precomputed runs (``deal_outcomes``) costs less
COMPILED: Final = not __file__.endswith(".py")

#: per 4-bit value: how many bits it has, and the position of each, lowest first
_NIBBLE_BITS: Final = tuple(tuple(i for i in range(4) if b >> i & 1) for b in range(16))


#: the deal's ids by nibble of the undealt mask: ``[k][b]`` holds ``action_id(Deal(c))``
#: for each card c of 4-bit value ``b`` at nibble ``k`` (cards 4k..4k+3), lowest first
_DEAL_IDS: Final = tuple(
    tuple(tuple(DEAL_BASE + 4 * k + i for i in range(4) if b >> i & 1) for b in range(16))
    for k in range(NORMAL_CARDS // 4)
)


class DealOutcomes(UniformOutcomes[CardsAction]):
    """The deal's outcomes when the cards ``undealt`` are left (``deal_outcomes``),
    built when read: a playout samples one of them, and the deal is about half of a
    game's steps; their ids (``ids``) come without a Deal. The compiled build's
    ``chance_outcomes`` of a deal."""

    def __init__(self, undealt: int) -> None:
        super().__init__(undealt.bit_count())
        self.undealt = undealt

    def outcome(self, index: int) -> CardsAction:
        """The Deal of the undealt card at ``index`` in card order."""
        rest = self.undealt
        base = 0
        while rest:
            bits = _NIBBLE_BITS[rest & 15]
            if index < len(bits):
                return DEALS[base + bits[index]]
            index -= len(bits)
            rest >>= 4
            base += 4
        raise IndexError(f"outcome index {index} past the {self.size} undealt cards")

    def offers(self, action: object) -> bool:
        if not isinstance(action, Deal):
            return False
        card = action.card
        return 0 <= card < NORMAL_CARDS and DEALS[card] is action and bool(self.undealt >> card & 1)

    def build(self) -> list[tuple[CardsAction, float]]:
        return list(deal_outcomes(self.undealt))

    def ids(self) -> list[int]:
        """The outcomes' action ids in card order, without a Deal: for each nibble of
        the undealt mask, its cards' ids from ``_DEAL_IDS``."""
        ids: list[int] = []
        rest = self.undealt
        for table in _DEAL_IDS:
            nibble = rest & 15
            if nibble:  # most are empty late in the deal: no list extension for them
                ids += table[nibble]
            rest >>= 4
        return ids


class CardsRules:
    """``to_move``, ``chance_outcomes``, ``legal_actions``, ``apply`` and
    ``apply_joint`` of ``CardsGame`` for one set of parameters."""

    def __init__(self, params: CardsParams) -> None:
        self.params = params
        # plain copies of what the steps read (a pydantic attribute costs several reads)
        self.dealer: int = params.dealer
        # GameState asks for a chance node's outcomes once, but other drivers (the
        # pyspiel adapter) may ask twice; one remembered (state, outcomes) pair halves
        # that work. Read and written as one tuple, so sharing a game between threads
        # stays safe.
        self._last_outcomes: tuple[CardsState | None, Sequence[tuple[CardsAction, float]]] = (
            None,
            (),
        )

    def chooser(self, state: CardsState) -> int:
        """C5: the dealer chooses the first stack, then the choice alternates."""
        return (self.dealer + state.turn) % 2

    def to_move(self, state: CardsState) -> ToMove:
        phase = state.phase
        if phase is _DEAL:
            return TO_MOVE_CHANCE
        if phase is _RESERVE or phase is _ATTACK or phase is _TIEBREAK:
            return _BOTH
        if phase is _CHOOSE:
            return _PLAYER[self.chooser(state)]
        if phase is _ASSIGN:
            return _PLAYER[assignee(state)]
        return TO_MOVE_TERMINAL

    def chance_outcomes(self, state: CardsState) -> Sequence[tuple[CardsAction, float]]:
        cached_state, cached = self._last_outcomes
        if cached_state is state:
            return cached
        if state.phase is not _DEAL:
            return ()
        outcomes: Sequence[tuple[CardsAction, float]]
        if COMPILED:
            outcomes = as_sequence(DealOutcomes(state.undealt))
        else:
            outcomes = deal_outcomes(state.undealt)
        self._last_outcomes = (state, outcomes)
        return outcomes

    def legal_actions(self, state: CardsState, player: PlayerId) -> Sequence[CardsAction]:
        phase = state.phase
        # each phase's movers as in to_move (the deal and the end have none)
        if phase is _ATTACK or phase is _TIEBREAK:
            return legal_attacks(state, player) if player == 0 or player == 1 else []
        if phase is _RESERVE:
            return reserve_choices(state, player) if player == 0 or player == 1 else []
        if phase is _CHOOSE:
            if player != self.chooser(state):
                return []
            return choose_actions(state)
        if phase is _ASSIGN:
            return assign_choices(state) if player == assignee(state) else []
        return []

    def apply(self, state: CardsState, player: PlayerId, action: CardsAction) -> CardsState:
        if type(action) is Deal:
            return apply_deal(state, action.card)
        if type(action) is Choose:
            return apply_choose(state, action.stack)
        if type(action) is Place and state.phase is _ASSIGN:
            return apply_assign(state, action.to_reserve)
        raise ValueError(f"{action} cannot be applied alone in phase {state.phase.name}")

    def apply_joint(self, state: CardsState, actions: Mapping[PlayerId, CardsAction]) -> CardsState:
        first, second = actions[0], actions[1]
        if state.phase is _RESERVE:
            assert type(first) is Place and type(second) is Place
            return apply_reserve_round(state, (first.to_reserve, second.to_reserve))
        assert isinstance(first, (Single, Run, JokerPlay))
        assert isinstance(second, (Single, Run, JokerPlay))
        return resolve_attacks(state, (first, second), self.params)
