"""The full state (secrets included) as JSON-compatible data, and back."""

from __future__ import annotations

from typing import Any

from koth.games.cards.actions import Attack, parse_attack
from koth.games.cards.state import CardsState, FightLog, Phase
from koth.games.cards.tables import NUM_STACKS, bits, mask_of


def _cards(mask: int) -> list[int]:
    return list(bits(mask))


def _mask(data: Any) -> int:
    cards = [int(c) for c in data]
    if any(not 0 <= c < 55 for c in cards):
        raise ValueError(f"card ids are 0..54, got {cards}")
    return mask_of(cards)


def _rounds_json(rounds: tuple[tuple[Attack, Attack], ...]) -> list[list[str]]:
    return [[str(a) for a in r] for r in rounds]


def _rounds(data: Any) -> tuple[tuple[Attack, Attack], ...]:
    return tuple((parse_attack(r[0]), parse_attack(r[1])) for r in data)


def state_to_json(state: CardsState) -> dict[str, Any]:
    return {
        "phase": state.phase.name.lower(),
        "hands": [_cards(h) for h in state.hands],
        "reserves": [_cards(r) for r in state.reserves],
        "stacks": [list(s) for s in state.stacks],
        "gone": _cards(state.gone),
        "discards": _cards(state.discards),
        "buried": _cards(state.buried),
        "undealt": _cards(state.undealt),
        "dealt": state.dealt,
        "reserve_round": state.reserve_round,
        "turn": state.turn,
        "stack": state.stack,
        "rounds": _rounds_json(state.rounds),
        "pending": _cards(state.pending),
        "to_hand": _cards(state.to_hand),
        "to_reserve": _cards(state.to_reserve),
        "log": [
            {
                "chooser": f.chooser,
                "stack": f.stack,
                "rounds": _rounds_json(f.rounds),
                "winner": f.winner,
                "top": f.top,
                "size": f.size,
            }
            for f in state.log
        ],
    }


def state_from_json(data: Any) -> CardsState:
    stacks = tuple(tuple(int(c) for c in s) for s in data["stacks"])
    if len(stacks) != NUM_STACKS:
        raise ValueError(f"a pyramid has {NUM_STACKS} stacks, got {len(stacks)}")
    return CardsState(
        phase=Phase[str(data["phase"]).upper()],
        hands=(_mask(data["hands"][0]), _mask(data["hands"][1])),
        reserves=(_mask(data["reserves"][0]), _mask(data["reserves"][1])),
        stacks=stacks,
        gone=mask_of([int(s) for s in data["gone"]]),
        discards=_mask(data["discards"]),
        buried=_mask(data.get("buried", [])),
        undealt=_mask(data["undealt"]),
        dealt=int(data["dealt"]),
        reserve_round=int(data["reserve_round"]),
        turn=int(data["turn"]),
        stack=int(data["stack"]),
        rounds=_rounds(data["rounds"]),
        pending=_mask(data["pending"]),
        to_hand=_mask(data["to_hand"]),
        to_reserve=_mask(data["to_reserve"]),
        log=tuple(
            FightLog(
                chooser=int(f["chooser"]),
                stack=int(f["stack"]),
                rounds=_rounds(f["rounds"]),
                winner=int(f["winner"]),
                top=None if f["top"] is None else int(f["top"]),
                size=int(f["size"]),
            )
            for f in data["log"]
        ),
    )
