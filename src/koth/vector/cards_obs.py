"""The batched card game's observation, computed from ``view(state, player)`` alone.

This is the readable definition of the observation layout (``cards_layout``): the
compiled engine must give the same numbers (tests/vector/test_cards_batch.py checks it
at every step of many games), and since this encoder reads nothing but the player's
view, the observation can hold nothing the player may not see (C15).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from koth.games.cards.actions import (
    Attack,
    JokerPlay,
    Run,
    Single,
    action_id,
    attack_mask,
    parse_action,
)
from koth.games.cards.tables import NUM_STACKS, STACK_NAMES, parse_card
from koth.vector import cards_layout as L

PHASES = ("deal", "reserve", "choose", "attack", "tiebreak", "assign", "over")


def _attack(text: str) -> Attack:
    action = parse_action(text)
    assert isinstance(action, Single | Run | JokerPlay)
    return action


def encode(view: dict[str, Any], me: int) -> npt.NDArray[np.uint8]:
    """Player ``me``'s observation from its view (``CardsGame.view(state, me)``)."""
    row = np.zeros(L.OBS_SIZE, dtype=np.uint8)
    opp = 1 - me
    phase = PHASES.index(view["phase"])
    mine, theirs = view["players"][me], view["players"][opp]

    # my own Joker comes first among my cards (card order); another JK is the apex's
    for place, code in (("hand", L.C_MY_HAND), ("reserve", L.C_MY_RESERVE)):
        joker_here = mine["joker"] == place
        for text in mine[place]:
            card = parse_card(text)
            if card >= 52:
                card = 52 if joker_here else 54
                joker_here = False
            row[L.O_CARDS + card] = code
    for text in theirs["known_cards"]:
        card = parse_card(text)
        row[L.O_CARDS + (card if card < 52 else 54)] = L.C_OPP_HOLDS
    joker = theirs["joker"]
    row[L.O_CARDS + 53] = {"hand": L.C_OPP_HAND, "reserve": L.C_OPP_RESERVE}.get(
        joker, L.C_OPP_HOLDS
    )

    # who attacked with which card: every round of the log and of the fight in progress
    played = [0, 0]
    joker_public = [view["phase"] == "tiebreak", view["phase"] == "tiebreak"]
    rounds = [r for fight in view["log"] for r in fight["rounds"]] + view["rounds"]
    for fight in view["log"]:
        if len(fight["rounds"]) > 1:
            joker_public = [True, True]
    for attacks in rounds:
        for player, text in enumerate(attacks):
            attack = _attack(text)
            played[player] |= attack_mask(attack)
            if text == "JK":
                joker_public[player] = True
    for text in view["discards"]:
        card = parse_card(text)
        if played[me] >> card & 1:
            code = L.C_PLAYED_ME
        elif played[opp] >> card & 1:
            code = L.C_PLAYED_OPP
        else:
            code = L.C_DISCARDED
        row[L.O_CARDS + (card if card < 52 else 54)] = code

    assignment = view["assignment"]
    if assignment is not None:
        if assignment["winner"] == me:
            for key, code in (
                ("pending", L.C_MY_PENDING),
                ("to_hand", L.C_MY_TO_HAND),
                ("to_reserve", L.C_MY_TO_RESERVE),
            ):
                for text in assignment[key]:
                    row[L.O_CARDS + parse_card(text)] = code
        elif view["log"][-1]["top"] is not None:
            row[L.O_CARDS + parse_card(view["log"][-1]["top"])] = L.C_OPP_WON
        row[L.O_ASSIGNING] = 1 if assignment["winner"] == me else 2
        row[L.O_REMAINING] = assignment["remaining"]
        row[L.O_ASSIGNED] = assignment["assigned"]

    owners = {}
    for fight in view["log"]:
        if fight["discarded"]:
            owners[fight["stack"]] = L.S_DISCARDED
        else:
            owners[fight["stack"]] = L.S_WON_ME if fight["winner"] == me else L.S_WON_OPP
    for s, stack in enumerate(view["pyramid"]):
        row[L.O_SIZE + s] = stack["size"]
        if stack["top"] is not None:
            card = parse_card(stack["top"])
            slot = 54 if card >= 52 else card
            row[L.O_CARDS + slot] = L.C_FACE_UP
            row[L.O_TOP + s] = slot + 1
        if stack["name"] in owners:
            row[L.O_STATUS + s] = owners[stack["name"]]
        elif stack["available"]:
            row[L.O_STATUS + s] = L.S_AVAILABLE
    assert len(view["pyramid"]) == NUM_STACKS

    row[L.O_PHASE] = phase
    row[L.O_DEALER] = view["dealer"] == me
    row[L.O_DEALT] = view["dealt"]
    row[L.O_RROUND] = view["reserve_round"]
    row[L.O_TURN] = view["turn"]
    if view["chooser"] is not None:
        row[L.O_CHOOSER] = 1 if view["chooser"] == me else 2
    if view["stack"] is not None:
        row[L.O_STACK] = STACK_NAMES.index(view["stack"]) + 1
    row[L.O_NROUNDS] = len(view["rounds"])
    if view["rounds"]:
        last = view["rounds"][-1]
        row[L.O_MY_LAST] = _attack_index(last[me])
        row[L.O_OPP_LAST] = _attack_index(last[opp])
    row[L.O_MY_CARDS] = mine["cards"]
    row[L.O_MY_HAND] = mine["hand_count"]
    row[L.O_MY_RESERVE] = mine["reserve_count"]
    row[L.O_OPP_CARDS] = theirs["cards"]
    if theirs["hand_count"] is None:
        row[L.O_OPP_SPLIT_SECRET] = 1
    else:
        row[L.O_OPP_HAND] = theirs["hand_count"]
        row[L.O_OPP_RESERVE] = theirs["reserve_count"]
    row[L.O_MY_JOKER_PUBLIC] = joker_public[me]
    row[L.O_OPP_JOKER_PUBLIC] = joker is not None
    row[L.O_FACE_DOWN_DISCARDS] = view["discards_face_down"]
    return row


def _attack_index(text: str) -> int:
    return action_id(_attack(text)) - L.SINGLE_BASE + 1
