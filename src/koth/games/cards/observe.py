"""What each player may know: the view, and redrawing everything else.

A player sees the public table (face-up cards, stack sizes, discards, both players'
card counts once the reserve phase is over, every revealed attack) and its own cards.
``resample_hidden`` redraws the rest (the opponent's cards, face-down pyramid cards,
cards not dealt yet, another player's won cards, the face-down cards of discarded
stacks) consistently with what was seen (C15).
"""

from __future__ import annotations

import random
from typing import Any

from koth.games.cards.actions import JokerPlay
from koth.games.cards.params import CardsParams
from koth.games.cards.rules import START_CARDS, assignee, chooser, stack_available
from koth.games.cards.state import DISCARDED, CardsState, FightLog, Phase, new_state
from koth.games.cards.tables import (
    ALL_NORMAL,
    APEX,
    NUM_STACKS,
    PLAYER_JOKERS,
    STACK_NAMES,
    STACK_SIZES,
    bits,
    card_str,
    cards_str,
    mask_of,
)


def top_visible(state: CardsState, stack: int) -> bool:
    """A stack shows its top card once all its cards are dealt (C2)."""
    cards = state.stacks[stack]
    return bool(cards) and (stack == APEX or len(cards) == STACK_SIZES[stack])


def joker_revealed(state: CardsState, player: int) -> bool:
    """Whether everybody knows where ``player``'s Joker is (C6.1, C8.1): once it was
    played or went through a tie-break it is public (in the hand, or in the reserve
    during a tie-break)."""
    if state.rounds:  # a tie-break is under way
        return True
    for fight in state.log:
        if len(fight.rounds) > 1 or any(type(r[player]) is JokerPlay for r in fight.rounds):
            return True
    return False


def known_possessions(state: CardsState, player: int) -> int:
    """Cards everybody knows ``player`` holds: face-up cards of stacks it won and put
    in hand or reserve, not played since."""
    fights = state.log[:-1] if state.phase is Phase.ASSIGN else state.log
    known = 0
    for fight in fights:
        if fight.winner == player and fight.top is not None:
            known |= 1 << fight.top
    return known & ~state.discards & (state.hands[player] | state.reserves[player])


def hidden_discards(state: CardsState) -> int:
    """C9.1: the discarded cards nobody sees: the face-down cards of discarded stacks,
    until the game is over."""
    return state.buried if state.phase is not Phase.OVER else 0


def _fight_json(fight: FightLog) -> dict[str, Any]:
    return {
        "chooser": fight.chooser,
        "stack": STACK_NAMES[fight.stack],
        "rounds": [[str(a) for a in r] for r in fight.rounds],
        "winner": None if fight.winner == DISCARDED else fight.winner,
        "discarded": fight.winner == DISCARDED,
        "top": None if fight.top is None else card_str(fight.top),
        "size": fight.size,
    }


def _player_json(state: CardsState, viewer: int | None, player: int) -> dict[str, Any]:
    hand, reserve = state.hands[player], state.reserves[player]
    secret_split = state.phase is Phase.RESERVE and viewer != player
    joker = 1 << PLAYER_JOKERS[player]
    joker_known = viewer == player or joker_revealed(state, player)
    entry: dict[str, Any] = {
        "cards": (hand | reserve).bit_count(),
        "hand_count": None if secret_split else hand.bit_count(),
        "reserve_count": None if secret_split else reserve.bit_count(),
        "joker": ("reserve" if reserve & joker else "hand") if joker_known else None,
        "known_cards": cards_str(known_possessions(state, player)),
    }
    if viewer == player:
        entry["hand"] = cards_str(hand)
        entry["reserve"] = cards_str(reserve)
    return entry


def view(state: CardsState, viewer: int | None, params: CardsParams) -> dict[str, Any]:
    phase = state.phase
    pyramid = []
    for stack in range(NUM_STACKS):
        cards = state.stacks[stack]
        gone = bool(state.gone >> stack & 1)
        pyramid.append(
            {
                "name": STACK_NAMES[stack],
                "size": len(cards),
                "top": card_str(cards[-1]) if top_visible(state, stack) else None,
                "gone": gone,
                "available": phase >= Phase.CHOOSE and stack_available(state.gone, stack),
            }
        )
    result: dict[str, Any] = {
        "phase": phase.name.lower(),
        "viewer": viewer,
        "dealer": params.dealer,
        "dealt": state.dealt,
        "reserve_round": state.reserve_round,
        "turn": state.turn,
        "chooser": chooser(state, params) if phase is not Phase.OVER else None,
        "stack": STACK_NAMES[state.stack] if state.stack >= 0 else None,
        "rounds": [[str(a) for a in r] for r in state.rounds],
        "pyramid": pyramid,
        "discards": cards_str(state.discards & ~hidden_discards(state)),
        "discards_face_down": hidden_discards(state).bit_count(),
        "players": [_player_json(state, viewer, p) for p in (0, 1)],
        "log": [_fight_json(f) for f in state.log],
        "assignment": None,
    }
    if phase is Phase.ASSIGN:
        winner = assignee(state)
        assignment: dict[str, Any] = {
            "winner": winner,
            "remaining": state.pending.bit_count(),
            "assigned": (state.to_hand | state.to_reserve).bit_count(),
        }
        if viewer == winner:
            assignment["pending"] = cards_str(state.pending)
            assignment["to_hand"] = cards_str(state.to_hand)
            assignment["to_reserve"] = cards_str(state.to_reserve)
        result["assignment"] = assignment
    return result


def resample_hidden(state: CardsState, viewer: int | None, rng: random.Random) -> CardsState:
    """A state ``viewer`` cannot tell from ``state``: every card it cannot see redrawn.

    Kept: the viewer's cards, the visible discards, face-up cards, every count, the known
    possessions of the other players and a Joker whose place is public. The other
    players' remaining cards, face-down pyramid cards, undealt cards and another
    player's won cards are drawn from one shuffled pool. Known possessions go back to
    their owner, at a random place (hand or reserve) within the public counts.
    """
    hidden_players = [p for p in (0, 1) if p != viewer]
    won_hidden = state.phase is Phase.ASSIGN and assignee(state) != viewer
    won = state.pending | state.to_hand | state.to_reserve
    won_top = 0
    if won_hidden:
        top = state.log[-1].top
        won_top = 0 if top is None else 1 << top
    known = [known_possessions(state, p) if state.phase >= Phase.CHOOSE else 0 for p in (0, 1)]

    buried = hidden_discards(state)
    pool = state.undealt | buried | (won & ~won_top if won_hidden else 0)
    for stack in range(1, NUM_STACKS):
        cards = state.stacks[stack]
        pool |= mask_of(cards[:-1] if top_visible(state, stack) else cards)
    for p in hidden_players:
        pool |= (state.hands[p] | state.reserves[p]) & ALL_NORMAL & ~known[p]
    deck = list(bits(pool))
    rng.shuffle(deck)

    def draw(count: int) -> list[int]:
        drawn = deck[len(deck) - count :] if count else []
        del deck[len(deck) - count :]
        return drawn

    stacks = list(state.stacks)
    for stack in range(1, NUM_STACKS):
        cards = stacks[stack]
        if top_visible(state, stack):
            stacks[stack] = (*draw(len(cards) - 1), cards[-1])
        elif cards:
            stacks[stack] = tuple(draw(len(cards)))
    undealt = mask_of(draw(state.undealt.bit_count()))
    new_buried = mask_of(draw(buried.bit_count()))
    pending, to_hand, to_reserve = state.pending, state.to_hand, state.to_reserve
    if won_hidden:
        won_cards = [*bits(won_top), *draw(won.bit_count() - won_top.bit_count())]
        rng.shuffle(won_cards)
        n_hand, n_reserve = to_hand.bit_count(), to_reserve.bit_count()
        to_hand = mask_of(won_cards[:n_hand])
        to_reserve = mask_of(won_cards[n_hand : n_hand + n_reserve])
        pending = mask_of(won_cards[n_hand + n_reserve :])
    hands, reserves = list(state.hands), list(state.reserves)
    for p in hidden_players:
        hands[p], reserves[p] = _redraw_player(state, p, known[p], draw, rng)
    assert not deck, "the hidden pool must refill exactly the hidden places"
    return new_state(
        phase=state.phase,
        hands=(hands[0], hands[1]),
        reserves=(reserves[0], reserves[1]),
        stacks=tuple(stacks),
        gone=state.gone,
        discards=state.discards & ~buried | new_buried,
        undealt=undealt,
        dealt=state.dealt,
        reserve_round=state.reserve_round,
        turn=state.turn,
        stack=state.stack,
        rounds=state.rounds,
        pending=pending,
        to_hand=to_hand,
        to_reserve=to_reserve,
        log=state.log,
        buried=state.buried & ~buried | new_buried,
    )


def _redraw_player(
    state: CardsState, player: int, known: int, draw: Any, rng: random.Random
) -> tuple[int, int]:
    joker = 1 << PLAYER_JOKERS[player]
    hand, reserve = state.hands[player], state.reserves[player]
    if state.phase is Phase.DEAL:
        return joker | mask_of(draw(hand.bit_count() - 1)), 0
    if state.phase is Phase.RESERVE:
        # the split so far is secret (C4.2): redraw the choices already made, too
        cards = sorted(draw(START_CARDS - 1))
        new_hand, new_reserve = joker, 0
        for index, card in enumerate(cards):
            if index < state.reserve_round and rng.random() < 0.5:
                new_reserve |= 1 << card
            else:
                new_hand |= 1 << card
        return new_hand, new_reserve
    n_hand, n_reserve = hand.bit_count(), reserve.bit_count()
    loose = [*bits(known), *draw(n_hand + n_reserve - known.bit_count() - 1)]
    new_hand = new_reserve = 0
    if joker_revealed(state, player):
        if hand & joker:
            new_hand, n_hand = joker, n_hand - 1
        else:
            new_reserve, n_reserve = joker, n_reserve - 1
    else:
        loose.append(PLAYER_JOKERS[player])
    rng.shuffle(loose)
    return new_hand | mask_of(loose[:n_hand]), new_reserve | mask_of(loose[n_hand:])
