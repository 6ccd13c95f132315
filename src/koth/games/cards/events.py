"""The public events of a card game, as one reader saw them (``koth.core.log``).

Derived from two consecutive views of the reader alone: the deal finished (C2), each
seat's reserve split once public (C4), a stack chosen (C5), every attack round once both
attacks are revealed (C6, C8), the cards it discarded (C10), a tie (C8) and the Jokers
that go back (C8.2, C10), a stack won (C11) or discarded (C9), the won cards placed
(C11.1) and the end (C12). The winner of a stack reads which cards it won; everybody
else reads how many.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from typing import Any

from koth.core.log import LogEvent
from koth.core.players import PlayerId
from koth.games.cards.actions import JokerPlay, attack_value, parse_attack


class CardsEvent(enum.StrEnum):
    """The kinds of event a card game's log holds."""

    DEALT = "cards_dealt"
    RESERVE_CHOSEN = "reserve_chosen"
    STACK_CHOSEN = "stack_chosen"
    FIGHT = "fight"
    TIE = "tie"
    DISCARDED = "cards_discarded"
    JOKER_BACK = "joker_back"
    JOKERS_BACK = "jokers_back"
    STACK_WON = "stack_won"
    STACK_DISCARDED = "stack_discarded"
    CARDS_PLACED = "cards_placed"
    APEX_WON = "apex_won"
    APEX_DISCARDED = "apex_discarded"


JOKER = str(JokerPlay())

#: one revealed attack round: (fight index, round index, the two attacks, the fight's
#: stack, whether it is the fight's last round)
_Round = tuple[int, int, tuple[str, str], str, bool]


def _rounds(view: Mapping[str, Any]) -> list[_Round]:
    """Every attack round the view shows: those of finished fights, then the current."""
    found: list[_Round] = []
    log: Sequence[Mapping[str, Any]] = view["log"]
    for i, fight in enumerate(log):
        rounds = fight["rounds"]
        for j, pair in enumerate(rounds):
            found.append((i, j, (pair[0], pair[1]), fight["stack"], j == len(rounds) - 1))
    for j, pair in enumerate(view["rounds"]):
        found.append((len(log), j, (pair[0], pair[1]), view["stack"], False))
    return found


def cards_events(
    before: Mapping[str, Any], after: Mapping[str, Any], reader: PlayerId | None
) -> list[LogEvent]:
    """What ``reader`` saw happen between its views ``before`` and ``after``."""
    events: list[LogEvent] = []
    old, new = before["phase"], after["phase"]
    if old == "deal" and new != "deal":
        events.append(LogEvent(CardsEvent.DEALT, "C2"))
    if old == "reserve" and new != "reserve":
        for seat, player in enumerate(after["players"]):
            params: dict[str, Any] = {
                "hand": player["hand_count"],
                "reserve": player["reserve_count"],
            }
            if seat == reader:
                params["cards"] = tuple(player["reserve"])
            events.append(LogEvent(CardsEvent.RESERVE_CHOSEN, "C4", seat, params))
    if old == "assign" and before["assignment"] is not None:
        events.extend(_placed(before, after, reader))
    if new == "attack" and old != "attack":
        top = next(p["top"] for p in after["pyramid"] if p["name"] == after["stack"])
        chosen = {"stack": after["stack"], **({"top": top} if top else {})}
        events.append(LogEvent(CardsEvent.STACK_CHOSEN, "C5", before["chooser"], chosen))
    seen = len(_rounds(before))
    for fight, index, pair, stack, last in _rounds(after)[seen:]:
        events.extend(_round_events(after, reader, fight, index, pair, stack, last))
    if new == "over" and old != "over":
        final = after["log"][-1]
        if final["discarded"]:
            events.append(LogEvent(CardsEvent.APEX_DISCARDED, "C12"))
        else:
            events.append(LogEvent(CardsEvent.APEX_WON, "C12", final["winner"]))
    return events


def _round_events(
    after: Mapping[str, Any],
    reader: PlayerId | None,
    fight: int,
    index: int,
    pair: tuple[str, str],
    stack: str,
    last: bool,
) -> list[LogEvent]:
    attacks = [parse_attack(text) for text in pair]
    values = [attack_value(a) for a in attacks]
    events = [
        LogEvent(
            CardsEvent.FIGHT,
            "C6" if index == 0 else "C8",
            None,
            {
                "stack": stack,
                "round": index + 1,
                "attack1": pair[0],
                "attack2": pair[1],
                "value1": values[0],
                "value2": values[1],
            },
        )
    ]
    played = tuple(card for text in pair if text != JOKER for card in _cards(text))
    if played:
        events.append(LogEvent(CardsEvent.DISCARDED, "C10", None, {"cards": played}))
    if not last:  # a round that did not end its fight was a tie
        events.append(LogEvent(CardsEvent.TIE, "C8", None, {"stack": stack}))
        return events
    result = after["log"][fight]
    params: dict[str, Any] = {"stack": stack, "size": result["size"]}
    if result["top"]:
        params["top"] = result["top"]
    if result["discarded"]:
        events.append(LogEvent(CardsEvent.STACK_DISCARDED, "C9", None, params))
    else:
        winner = result["winner"]
        assignment = after["assignment"]
        if reader == winner and assignment is not None and fight == len(after["log"]) - 1:
            params["cards"] = tuple(
                assignment["pending"] + assignment["to_hand"] + assignment["to_reserve"]
            )
        events.append(LogEvent(CardsEvent.STACK_WON, "C11", winner, params))
    if index > 0:
        events.append(LogEvent(CardsEvent.JOKERS_BACK, "C8.2"))
    else:
        events.extend(
            LogEvent(CardsEvent.JOKER_BACK, "C10", seat)
            for seat, text in enumerate(pair)
            if text == JOKER
        )
    return events


def _cards(text: str) -> tuple[str, ...]:
    """The cards of an attack's notation (``4c5c6c``: three cards)."""
    return tuple(text[i : i + 2] for i in range(0, len(text), 2))


def _placed(
    before: Mapping[str, Any], after: Mapping[str, Any], reader: PlayerId | None
) -> list[LogEvent]:
    """The won cards placed (C11.1), once the last one is: the counts for all, the
    cards for the winner."""
    if after["phase"] == "assign" and after["assignment"] is not None:
        return []  # still placing
    winner = before["assignment"]["winner"]
    was, now = before["players"][winner], after["players"][winner]
    params: dict[str, Any] = {
        "hand": now["hand_count"] - was["hand_count"],
        "reserve": now["reserve_count"] - was["reserve_count"],
    }
    if reader == winner:
        params["to_hand"] = tuple(c for c in now["hand"] if c not in was["hand"])
        params["to_reserve"] = tuple(c for c in now["reserve"] if c not in was["reserve"])
    return [LogEvent(CardsEvent.CARDS_PLACED, "C11.1", winner, params)]
