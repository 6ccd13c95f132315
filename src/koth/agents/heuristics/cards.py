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

import math
import random
from collections.abc import Hashable, Mapping, Sequence
from typing import Any, Final

from koth.agents.heuristics import register_heuristic, register_rollout
from koth.core.game import Game
from koth.games.cards.actions import (
    JOKER_PLAY,
    SINGLES,
    Choose,
    JokerPlay,
    Place,
    Run,
    Single,
    attack_mask,
    attack_value,
)
from koth.games.cards.legal import attacks_from, choices_for
from koth.games.cards.rules import compare_attacks, stack_available
from koth.games.cards.state import DISCARDED, Phase
from koth.games.cards.tables import (
    ALL_NORMAL as ALL_NORMAL_MASK,
)
from koth.games.cards.tables import (
    APEX,
    CARD_VALUES,
    MAX_RUN_RANK,
    PLAYER_JOKERS,
    STACK_NAMES,
    is_joker,
    make_card,
    mask_of,
    parse_card,
    rank_of,
    suit_of,
)
from koth.games.cards.tables import bits as bits_of

#: ranks (indices into "23456789TJQKA") worth keeping in the reserve: Ten to King
RESERVE_RANKS: Final = range(8, 12)
RESERVE_TARGET: Final = 3
PLAYER_JOKER_BITS: Final = (1 << PLAYER_JOKERS[0], 1 << PLAYER_JOKERS[1])
#: the four Aces (rank 12), the only cards worth 15 (C7)
ACES: Final = 0xF << 48
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
    return _choose(state.hands[player], state.gone, state.stacks, legal)


def _choose(
    hand: int, gone: int, stacks: Sequence[Sequence[int]], legal: Sequence[Choose]
) -> Choose:
    strength = max((CARD_VALUES[c] for c in bits_of(hand & ALL_NORMAL_MASK)), default=0)
    strong = strength >= 15
    best, best_score = legal[0], -1e9
    for action in legal:
        stack = action.stack
        if stack == APEX:
            score = 1000.0 if strong else -50.0
        else:
            score = _state_stack_worth(stacks, stack)
            if (
                not stack_available(gone, APEX)
                and stack_available(gone | 1 << stack, APEX)
                and not strong
            ):
                score -= 40
        if score > best_score:
            best, best_score = action, score
    return best


def _choose_fast(
    hand: int, gone: int, stacks: Sequence[Sequence[int]], legal: Sequence[Choose]
) -> Choose:
    """``_choose`` with its constant parts taken out of the loop (an Ace is the only card
    worth 15)."""
    strong = bool(hand & ACES)
    apex_closed = not stack_available(gone, APEX)
    best, best_score = legal[0], -1e9
    for action in legal:
        stack = action.stack
        score: float
        if stack == APEX:
            score = 1000.0 if strong else -50.0
        else:
            cards = stacks[stack]
            score = float(3 * len(cards) + (CARD_VALUES[cards[-1]] if cards else 0))
            if apex_closed and not strong and stack_available(gone | 1 << stack, APEX):
                score -= 40
        if score > best_score:
            best, best_score = action, score
    return best


def _rollout_attack(state: Any, legal: Sequence[Any], rng: random.Random, tiebreak: bool) -> Any:
    return _attack(state.stack, state.stacks, legal, rng, tiebreak)


def _attack(
    stack: int,
    stacks: Sequence[Sequence[int]],
    legal: Sequence[Any],
    rng: random.Random,
    tiebreak: bool,
) -> Any:
    attacks = [a for a in legal if type(a) is not JokerPlay]
    if not attacks:
        return legal[0]
    joker = legal[-1] if type(legal[-1]) is JokerPlay else None
    if stack == APEX or stack < 0:
        return max(attacks, key=_strength)
    worth = _state_stack_worth(stacks, stack)
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
        to_reserve = _won_to_reserve(
            card,
            state.reserves[player] | state.to_reserve,
            state.hands[player] | state.to_hand | state.pending,
        )
    return legal[1] if legal[1].to_reserve == to_reserve else legal[0]


def _won_to_reserve(card: int, reserve: int, kept: int) -> bool:
    """Whether a won ``card`` goes to the reserve: it tops up a reserve (``reserve``:
    the cards there and already sent there) of fewer than two high cards, and belongs
    to no sequence with the cards ``kept`` in hand (or going there, or still to place)."""
    return (
        (reserve & ALL_NORMAL_MASK).bit_count() < ASSIGN_RESERVE_TARGET
        and rank_of(card) in RESERVE_RANKS
        and not in_sequence(card, list(bits_of(kept)))
    )


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


#: an upper bound on the steps of a whole game from the stack choices on: 15 fights,
#: each a choice, a last attack round and at most four placements, and at most 26
#: tie-break rounds in all (each discards two normal cards, C8) = 116; and the 12
#: reserve rounds before
FULL_GAME_STEPS: Final = 130


def cards_playout(
    game: Game[Any, Any, Any], state: Any, rng: random.Random, epsilon: float, max_steps: int
) -> tuple[float, ...] | None:
    """``search.rollout`` with ``cards_rollout_policy`` (a random legal action instead
    with probability ``epsilon``) from a state after the reserve phase, played on plain
    ints instead of a state per step: the same actions, the same random draws, the same
    returns. None where it does not apply (the deal or the reserve phase still to come,
    or a step limit that could cut the game short)."""
    phase = state.phase
    if phase < Phase.CHOOSE or max_steps < FULL_GAME_STEPS:
        return None
    params = game.params
    dealer: int = params.dealer
    tens_equal: bool = params.tens_equal
    hands = [state.hands[0], state.hands[1]]
    reserves = [state.reserves[0], state.reserves[1]]
    stacks = list(state.stacks)
    gone: int = state.gone
    turn: int = state.turn
    stack: int = state.stack
    rounds = len(state.rounds)
    pending: int = state.pending
    to_hand: int = state.to_hand
    to_res: int = state.to_reserve
    winner: int = state.log[-1].winner if state.log else DISCARDED
    noisy = epsilon > 0
    while phase is not Phase.OVER:
        if phase is Phase.CHOOSE:
            player = (dealer + turn) % 2
            choices = choices_for(gone)
            if noisy and rng.random() < epsilon:
                choice = choices[rng.randrange(len(choices))]
            else:
                choice = _choose_fast(hands[player], gone, stacks, choices)
            stack = choice.stack
            rounds = 0
            phase = Phase.ATTACK
        elif phase is Phase.ASSIGN:
            card = (pending & -pending).bit_length() - 1
            if noisy and rng.random() < epsilon:
                to_reserve = rng.randrange(2) == 1
            else:
                to_reserve = not is_joker(card) and _won_to_reserve(
                    card, reserves[winner] | to_res, hands[winner] | to_hand | pending
                )
            bit = 1 << card
            pending ^= bit
            if to_reserve:
                to_res |= bit
            else:
                to_hand |= bit
            if not pending:
                hands[winner] |= to_hand
                reserves[winner] |= to_res
                to_hand = to_res = 0
                stack = -1
                turn += 1
                phase = Phase.CHOOSE
        else:
            tiebreak = phase is Phase.TIEBREAK
            first = _playout_attack(
                reserves[0] if tiebreak else hands[0], stack, stacks, rng, epsilon, tiebreak
            )
            second = _playout_attack(
                reserves[1] if tiebreak else hands[1], stack, stacks, rng, epsilon, tiebreak
            )
            for player, attack in ((0, first), (1, second)):
                if type(attack) is JokerPlay:
                    joker = PLAYER_JOKER_BITS[player]
                    if not tiebreak and reserves[player] & joker:  # C6.1
                        reserves[player] ^= joker
                        hands[player] |= joker
                elif tiebreak:
                    reserves[player] &= ~attack_mask(attack)
                else:
                    hands[player] &= ~attack_mask(attack)
            rounds += 1
            if type(first) is JokerPlay and type(second) is JokerPlay:
                winner = DISCARDED  # C9
            else:
                diff = compare_attacks(first, second, tens_equal)
                if diff == 0:  # C8
                    for player in (0, 1):
                        joker = PLAYER_JOKER_BITS[player]
                        if hands[player] & joker:
                            hands[player] ^= joker
                            reserves[player] |= joker
                    phase = Phase.TIEBREAK
                    continue
                winner = 0 if diff > 0 else 1
            if rounds > 1:  # C8.2
                for player in (0, 1):
                    joker = PLAYER_JOKER_BITS[player]
                    if reserves[player] & joker:
                        reserves[player] ^= joker
                        hands[player] |= joker
            won = mask_of(stacks[stack])
            stacks[stack] = ()
            gone |= 1 << stack
            if winner == DISCARDED:
                phase = Phase.OVER if stack == APEX else Phase.CHOOSE
                if phase is Phase.CHOOSE:
                    turn += 1
            elif stack == APEX:
                phase = Phase.OVER
            else:
                pending = won
                phase = Phase.ASSIGN
    if winner == DISCARDED:
        return (0.0, 0.0)
    return (1.0, -1.0) if winner == 0 else (-1.0, 1.0)


#: the cards worth at least ``v`` (C7), for ``v`` in 0..15: a card's value never falls
#: as its id grows, so the lowest such card is the cheapest single reaching ``v``
VALUE_AT_LEAST: Final = tuple(
    sum(1 << c for c in range(52) if CARD_VALUES[c] >= v) for v in range(16)
)
#: ``max(attacks, key=_strength)`` by set of cards: a search's rollouts meet the same
#: hands again and again (the searching player's own, in every determinization)
_STRONGEST: Final[dict[int, Any]] = {}
_STRONGEST_LIMIT: Final = 100_000


def _playout_attack(
    source: int,
    stack: int,
    stacks: Sequence[Sequence[int]],
    rng: random.Random,
    epsilon: float,
    tiebreak: bool,
) -> Any:
    """``_attack`` on ``attacks_from(source)`` after the noise of ``_NoisyRollout``,
    without listing the attacks where the choice does not need them. The cheapest
    attack is the lowest card (a single costs one card, the least, and the lowest card
    has the lowest value), as ``min`` by ``_cost`` in id order finds it."""
    normal = source & ALL_NORMAL_MASK
    if epsilon > 0 and rng.random() < epsilon:
        legal = attacks_from(normal)
        return legal[rng.randrange(len(legal))]
    if not normal:
        return JOKER_PLAY
    if stack == APEX or stack < 0:
        return _strongest(normal)
    worth = _state_stack_worth(stacks, stack)
    if tiebreak:
        return _strongest(normal) if worth >= 12 else SINGLES[(normal & -normal).bit_length() - 1]
    if worth < 8:
        low = (normal & -normal).bit_length() - 1
        return SINGLES[low] if CARD_VALUES[low] <= 3 else JOKER_PLAY
    target = min(15, 4 + worth * 0.45 + rng.uniform(-1.5, 1.5))
    reaching = normal & VALUE_AT_LEAST[math.ceil(target)]
    if reaching:
        return SINGLES[(reaching & -reaching).bit_length() - 1]
    if worth >= 18:
        runs = [a for a in attacks_from(normal) if type(a) is Run and attack_value(a) >= target]
        if runs:
            return min(runs, key=_cost)
    return JOKER_PLAY


def _strongest(normal: int) -> Any:
    found = _STRONGEST.get(normal)
    if found is None:
        if len(_STRONGEST) >= _STRONGEST_LIMIT:
            _STRONGEST.clear()
        found = _STRONGEST[normal] = max(attacks_from(normal)[:-1], key=_strength)
    return found


register_rollout("cards", cards_rollout_policy, cards_observer_key, playout=cards_playout)
