"""The batched board game's observation, computed from ``view(state, player)`` alone.

This is the readable definition of the observation layout (``board_layout``): the
compiled engine must give the same numbers (tests/vector/test_board_batch.py checks
it at every step of games of every variant), and since this encoder reads nothing but
the player's view, the observation holds nothing the player may not see (B16.2: the
others' excluded types stay hidden until the end).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from koth.games.board.actions import Ally, parse_action
from koth.games.board.state import Phase
from koth.games.board.tables import (
    LOC_BY_NAME,
    TERRAIN_LETTERS,
    UNIT_LETTERS,
    UNIT_NAMES,
)
from koth.vector import board_layout as L


def unit_counts(code: str) -> list[int]:
    """``R1F2`` as counts of (runners, fighters, blockers)."""
    counts = [0, 0, 0]
    k = 0
    while k < len(code):
        letter = code[k]
        k += 1
        digits = ""
        while k < len(code) and code[k].isdigit():
            digits += code[k]
            k += 1
        counts[UNIT_LETTERS.index(letter)] = int(digits)
    return counts


def encode(view: dict[str, Any], me: int, num_players: int) -> npt.NDArray[np.int32]:
    """Player ``me``'s observation from its view (``BoardGame.view(state, me)``)."""
    n = num_players
    row = np.zeros(L.OBS_SIZE, dtype=np.int32)

    def seat(q: int) -> int:
        return (q - me) % n

    row[L.O_PHASE] = Phase[view["phase"].upper()]
    row[L.O_ROUND] = view["round"]
    row[L.O_TURN] = view["turn"]
    row[L.O_SLOTS] = view["slots_used"]
    to_move = view["to_move"]
    if to_move == "chance":
        row[L.O_MOVER] = L.MOVER_CHANCE
    elif to_move == "terminal":
        row[L.O_MOVER] = L.MOVER_OVER
    elif len(to_move) > 1:
        row[L.O_MOVER] = L.MOVER_ALL
    else:
        row[L.O_MOVER] = seat(to_move[0])
    row[L.O_COUNTDOWN] = view.get("countdown", 0)
    outcome = view["outcome"]
    if outcome is not None:
        row[L.O_TERMINATION] = 1 + L.TERMINATION_NAMES.index(outcome["termination"])
        for q in outcome["winners"]:
            row[L.O_WINNER + seat(q)] = 1
    if view["offer"] is not None:
        offer = parse_action(view["offer"], n)
        assert isinstance(offer, Ally)
        row[L.O_OFFER : L.O_OFFER + 5] = (
            offer.target + 1,
            offer.own + 1,
            seat(offer.helper) + 1,
            offer.helper_from + 1,
            offer.pay + 1,
        )
    for r, letters in enumerate(view["terrain"]):
        for x, letter in enumerate(letters):
            if letter != "?":
                row[L.O_TERRAIN + r * 7 + x] = 1 + TERRAIN_LETTERS.index(letter)
    for a, (name, area) in enumerate(sorted(view["areas"].items())):
        assert name == f"A{a + 1}"
        if area["player"] is not None:
            row[L.O_AREA_OWNER + a] = seat(area["player"]) + 1
        if area["touches"] is not None:
            row[L.O_AREA_TOUCH + a] = int(area["touches"].split(".")[1]) + 1
    for position, q in enumerate(view["order"]):
        row[L.O_TURN_POS + seat(q)] = position
    for q in range(n):
        r = seat(q)
        row[L.O_HAND + r * 3 : L.O_HAND + r * 3 + 3] = view["hand"][q]
        dice = view["dice"][q]
        row[L.O_DICE + r * 4 : L.O_DICE + r * 4 + len(dice)] = dice
        row[L.O_POINTS + r] = view["points"][q]
        row[L.O_DECLINED + r] = int(q in view["declined"])
        excluded = view["excluded"][q]
        if excluded == "hidden":
            row[L.O_EXCLUDED + r] = 1
        elif excluded is not None:
            row[L.O_EXCLUDED + r] = 2 + UNIT_NAMES.index(excluded)
        row[L.O_USED + r] = sum(1 << UNIT_NAMES.index(t) for t in view["used_types"][q])
    for loc_name, here in view["units"].items():
        loc = LOC_BY_NAME[loc_name.lower()]
        for q_text, code in here.items():
            at = L.O_UNITS + seat(int(q_text)) * L.STRIDE + loc * 3
            row[at : at + 3] = unit_counts(code)
    return row
