"""A rule-based player of the card game (docs/rules/cards.md), from its view only.

* Reserve: keep sequences and Aces in hand; put up to three high cards (Ten to King)
  that belong to no sequence in the reserve, to win tie-breaks.
* Choosing a stack: take the most valuable available stack (size and face-up card),
  but do not open the apex to the opponent unless the hand is strong; fight for the
  apex when holding an attack worth 15 or more.
* Attacking: bid just enough: the cheapest single card (sequences are saved) that
  reaches a target growing with the stack's worth; decline worthless stacks with the
  Joker; throw everything at the apex.
* Tie-breaks: the best reserve attack for a valuable stack, else the cheapest one.
* Won cards: high cards outside sequences top the reserve up to two cards; the rest
  go to the hand.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from typing import Any, Final

from koth.agents.heuristics import register_heuristic, register_rollout
from koth.core.game import Game
from koth.games.cards.actions import (
    Choose,
    JokerPlay,
    Place,
    Run,
    Single,
    attack_mask,
    attack_value,
)
from koth.games.cards.rules import stack_available
from koth.games.cards.state import Phase
from koth.games.cards.tables import (
    ALL_NORMAL as ALL_NORMAL_MASK,
)
from koth.games.cards.tables import (
    APEX,
    CARD_VALUES,
    MAX_RUN_RANK,
    STACK_NAMES,
    is_joker,
    make_card,
    parse_card,
    rank_of,
    suit_of,
)
from koth.games.cards.tables import bits as bits_of

#: ranks (indices into "23456789TJQKA") worth keeping in the reserve: Ten to King
RESERVE_RANKS: Final = range(8, 12)
RESERVE_TARGET: Final = 3
ASSIGN_RESERVE_TARGET: Final = 2


def _cards(texts: Sequence[str] | None) -> list[int]:
    return [parse_card(t) for t in texts or ()]


def in_sequence(card: int, cards: Sequence[int]) -> bool:
    """Whether ``card`` can be part of a sequence (same suit, adjacent rank, up to 8)."""
    if is_joker(card) or rank_of(card) > MAX_RUN_RANK:
        return False
    mine = set(cards)
    for step in (-1, 1):
        rank = rank_of(card) + step
        if 0 <= rank <= MAX_RUN_RANK and make_card(rank, suit_of(card)) in mine:
            return True
    return False


def _reserve_order(card: int) -> tuple[int, int]:
    """Highest rank first, then card order."""
    return (-rank_of(card), card)


def _strength(attack: Any) -> tuple[int, int]:
    """An attack's value, then the fewer cards it spends."""
    return (attack_value(attack), -attack_mask(attack).bit_count())


def _reserve_wish(cards: Sequence[int]) -> set[int]:
    """The cards a fresh deal should reserve: the highest Ten-to-King cards outside
    sequences, at most RESERVE_TARGET."""
    candidates = [
        c
        for c in cards
        if not is_joker(c) and rank_of(c) in RESERVE_RANKS and not in_sequence(c, cards)
    ]
    candidates.sort(key=_reserve_order)
    return set(candidates[:RESERVE_TARGET])


def _stack_worth(stack: Mapping[str, Any]) -> float:
    top = stack.get("top")
    value = CARD_VALUES[parse_card(top)] if top and top != "JK" else 0
    return 3 * int(stack["size"]) + value


def _best_attack_value(hand: Sequence[int], legal: Sequence[Any]) -> int:
    attacks = [attack_value(a) for a in legal if isinstance(a, Single | Run)]
    if attacks:
        return max(attacks)
    return max((CARD_VALUES[c] for c in hand if not is_joker(c)), default=0)


def _gone_mask(pyramid: Sequence[Mapping[str, Any]]) -> int:
    return sum(1 << i for i, stack in enumerate(pyramid) if stack["gone"])


def _cost(attack: Any) -> tuple[int, int, int]:
    """How much an attack spends: cards used, then their value (sequences cost more)."""
    return (attack_mask(attack).bit_count(), attack_value(attack), 0)


def choose_stack(view: Mapping[str, Any], legal: Sequence[Choose], strength: int) -> Choose:
    pyramid = view["pyramid"]
    gone = _gone_mask(pyramid)
    strong = strength >= 15
    best, best_score = legal[0], -1e9
    for action in legal:
        stack = pyramid[action.stack]
        if action.stack == APEX:
            score = 1000.0 if strong else -50.0
        else:
            score = _stack_worth(stack)
            opens_apex = not stack_available(gone, APEX) and stack_available(
                gone | 1 << action.stack, APEX
            )
            if opens_apex and not strong:
                score -= 40
        if score > best_score:
            best, best_score = action, score
    return best


def choose_attack(
    view: Mapping[str, Any], legal: Sequence[Any], rng: random.Random, tiebreak: bool
) -> Any:
    stack_name = view["stack"]
    stack = view["pyramid"][STACK_NAMES.index(stack_name)] if stack_name else None
    attacks = [a for a in legal if isinstance(a, Single | Run)]
    joker = next((a for a in legal if isinstance(a, JokerPlay)), None)
    if not attacks:
        return legal[0]
    if stack is None or STACK_NAMES.index(stack_name) == APEX:
        return max(attacks, key=_strength)
    worth = _stack_worth(stack)
    if tiebreak:
        if worth >= 12:
            return max(attacks, key=_strength)
        return min(attacks, key=_cost)
    if worth < 8 and joker is not None:
        cheap = min(attacks, key=_cost)
        return cheap if attack_value(cheap) <= 3 else joker
    # bid just enough: the target grows with the stack's worth, a little noise hides it
    target = min(15, 4 + worth * 0.45 + rng.uniform(-1.5, 1.5))
    singles = sorted((a for a in attacks if isinstance(a, Single)), key=_cost)
    for attack in singles:
        if attack_value(attack) >= target:
            return attack
    runs = sorted((a for a in attacks if isinstance(a, Run)), key=_cost)
    for run in runs:
        if attack_value(run) >= target and worth >= 18:
            return run  # a sequence is spent only on a rich stack
    if joker is not None:
        return joker
    return min(attacks, key=_cost)


def place_card(view: Mapping[str, Any], player: int, legal: Sequence[Place]) -> Place:
    me = view["players"][player]
    hand, reserve = _cards(me.get("hand")), _cards(me.get("reserve"))
    card = legal[0].card
    if is_joker(card):
        return next(a for a in legal if not a.to_reserve)
    if view["phase"] == "reserve":
        wish = _reserve_wish(hand + reserve)
        to_reserve = card in wish
    else:
        assignment = view.get("assignment") or {}
        going = _cards(assignment.get("to_reserve"))
        normal_reserve = [c for c in reserve + going if not is_joker(c)]
        kept = hand + _cards(assignment.get("to_hand")) + _cards(assignment.get("pending"))
        to_reserve = (
            len(normal_reserve) < ASSIGN_RESERVE_TARGET
            and rank_of(card) in RESERVE_RANKS
            and not in_sequence(card, kept)
        )
    return next((a for a in legal if a.to_reserve == to_reserve), legal[0])


def cards_policy(
    game: Game[Any, Any, Any],
    player: int,
    view: Mapping[str, Any],
    legal: Sequence[Any],
    rng: random.Random,
) -> Any:
    first = legal[0]
    if isinstance(first, Place):
        return place_card(view, player, legal)
    if isinstance(first, Choose):
        hand = _cards(view["players"][player].get("hand"))
        strength = max((CARD_VALUES[c] for c in hand if not is_joker(c)), default=0)
        return choose_stack(view, legal, strength)
    return choose_attack(view, legal, rng, tiebreak=view["phase"] == "tiebreak")


register_heuristic("cards", cards_policy)


# --------------------------------------------------------------- search support
# Search agents call these on *sampled* states (never the true one), thousands of times
# a move, so they read the rules state directly instead of building a view.


def _state_stack_worth(stacks: Sequence[Sequence[int]], stack: int) -> float:
    cards = stacks[stack]
    return 3 * len(cards) + (CARD_VALUES[cards[-1]] if cards else 0)


def _rollout_choose(state: Any, player: int, legal: Sequence[Choose]) -> Choose:
    hand = state.hands[player]
    strength = max((CARD_VALUES[c] for c in bits_of(hand & ALL_NORMAL_MASK)), default=0)
    strong = strength >= 15
    gone = state.gone
    best, best_score = legal[0], -1e9
    for action in legal:
        stack = action.stack
        if stack == APEX:
            score = 1000.0 if strong else -50.0
        else:
            score = _state_stack_worth(state.stacks, stack)
            if (
                not stack_available(gone, APEX)
                and stack_available(gone | 1 << stack, APEX)
                and not strong
            ):
                score -= 40
        if score > best_score:
            best, best_score = action, score
    return best


def _rollout_attack(state: Any, legal: Sequence[Any], rng: random.Random, tiebreak: bool) -> Any:
    attacks = [a for a in legal if type(a) is not JokerPlay]
    if not attacks:
        return legal[0]
    joker = legal[-1] if type(legal[-1]) is JokerPlay else None
    stack = state.stack
    if stack == APEX or stack < 0:
        return max(attacks, key=_strength)
    worth = _state_stack_worth(state.stacks, stack)
    if tiebreak:
        if worth >= 12:
            return max(attacks, key=_strength)
        return min(attacks, key=_cost)
    if worth < 8 and joker is not None:
        cheap = min(attacks, key=_cost)
        return cheap if attack_value(cheap) <= 3 else joker
    target = min(15, 4 + worth * 0.45 + rng.uniform(-1.5, 1.5))
    best_single = None
    for attack in attacks:
        if (
            type(attack) is Single
            and attack_value(attack) >= target
            and (best_single is None or attack.card < best_single.card)
        ):
            best_single = attack
    if best_single is not None:
        return best_single
    if worth >= 18:
        runs = [a for a in attacks if type(a) is Run and attack_value(a) >= target]
        if runs:
            return min(runs, key=_cost)
    if joker is not None:
        return joker
    return min(attacks, key=_cost)


def _rollout_place(state: Any, player: int, legal: Sequence[Place]) -> Place:
    card = legal[0].card
    if is_joker(card):
        to_reserve = False
    elif state.phase is Phase.RESERVE:
        own = list(bits_of((state.hands[player] | state.reserves[player]) & ALL_NORMAL_MASK))
        to_reserve = card in _reserve_wish(own)
    else:
        reserve = (state.reserves[player] | state.to_reserve) & ALL_NORMAL_MASK
        kept = list(bits_of(state.hands[player] | state.to_hand | state.pending))
        to_reserve = (
            reserve.bit_count() < ASSIGN_RESERVE_TARGET
            and rank_of(card) in RESERVE_RANKS
            and not in_sequence(card, kept)
        )
    return legal[1] if legal[1].to_reserve == to_reserve else legal[0]


def cards_rollout_policy(
    game: Game[Any, Any, Any], state: Any, player: int, rng: random.Random
) -> Any:
    """The heuristic above, read from a (sampled) rules state: for search rollouts."""
    legal = game.legal_actions(state, player)
    first = legal[0]
    kind = type(first)
    if kind is Place:
        return _rollout_place(state, player, legal)
    if kind is Choose:
        return _rollout_choose(state, player, legal)
    return _rollout_attack(state, legal, rng, state.phase is Phase.TIEBREAK)


def cards_observer_key(game: Game[Any, Any, Any], state: Any, observer: int) -> Hashable:
    """A cheap stand-in for ``information_state_string(state, observer)`` inside one
    search: built only from what ``observer``'s view shows (public fields, its own
    cards, the counts), so two states with the same view get the same key."""
    other = 1 - observer
    phase = state.phase
    pending, to_hand, to_reserve = state.pending, state.to_hand, state.to_reserve
    if phase is Phase.ASSIGN and state.log and state.log[-1].winner != observer:
        pending, to_hand, to_reserve = (
            pending.bit_count(),
            (to_hand | to_reserve).bit_count(),
            -1,
        )
    counts: tuple[int, ...]
    if phase is Phase.RESERVE:
        counts = ((state.hands[other] | state.reserves[other]).bit_count(),)
    else:
        counts = (state.hands[other].bit_count(), state.reserves[other].bit_count())
    return (
        phase,
        state.turn,
        state.reserve_round,
        state.stack,
        state.rounds,
        state.gone,
        state.discards & ~state.buried,  # C9.1: a discarded stack's hidden cards
        state.buried.bit_count(),
        state.hands[observer],
        state.reserves[observer],
        counts,
        pending,
        to_hand,
        to_reserve,
        state.log,
    )


register_rollout("cards", cards_rollout_policy, cards_observer_key)
