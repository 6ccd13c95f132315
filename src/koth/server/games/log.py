"""The log of a live game, worded in the reader's language.

``koth.core.log.LogBook`` keeps every reader's events as moves are applied (from that
reader's views only); here each event is worded: a text per event code (the English,
marked for the catalogs), seats counted from 1, cards written with their suit symbols,
unit types and dice kinds translated.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Final

from koth.core.log import LoggedEvent, LogValue
from koth.games.board.events import BoardEvent
from koth.games.cards.events import CardsEvent
from koth.i18n import N_, N_plural, Translator
from koth.server.games.schemas import LogEntry

_Plural = tuple[tuple[str, str], str]

#: the text of each code: a text, or a text with a count (the param named second)
TEXTS: Final[dict[str, str | _Plural]] = {
    # the card game
    CardsEvent.DEALT: N_("The cards are dealt: 12 to each seat, the rest to the pyramid"),
    CardsEvent.RESERVE_CHOSEN: N_(
        "Seat {seat} keeps {hand} cards in hand and {reserve} in the reserve"
    ),
    CardsEvent.STACK_CHOSEN: N_("Seat {seat} chooses stack {stack} ({top} on top)"),
    CardsEvent.FIGHT: N_(
        "Fight for {stack}: Seat 1 plays {attack1} ({value1}), Seat 2 plays {attack2} ({value2})"
    ),
    CardsEvent.TIE: N_("A tie: the Jokers go to the reserves and {stack} is fought for again"),
    CardsEvent.DISCARDED: N_("Discarded: {cards}"),
    CardsEvent.JOKER_BACK: N_("The Joker of Seat {seat} goes back to its hand"),
    CardsEvent.JOKERS_BACK: N_("Both Jokers go back to their owners' hands"),
    CardsEvent.STACK_WON: (
        N_plural(
            "Seat {seat} wins stack {stack} ({n} card)",
            "Seat {seat} wins stack {stack} ({n} cards)",
        ),
        "size",
    ),
    CardsEvent.STACK_DISCARDED: N_("Both played the Joker: stack {stack} is discarded"),
    CardsEvent.CARDS_PLACED: N_(
        "Seat {seat} places the won cards: {hand} in hand, {reserve} in the reserve"
    ),
    CardsEvent.APEX_WON: N_("Seat {seat} wins the apex and the game"),
    CardsEvent.APEX_DISCARDED: N_("The apex is discarded: the game is a draw"),
    # the board game
    BoardEvent.TERRAIN: N_("Ring {ring} gets its terrain: {terrain}"),
    BoardEvent.AREA_DRAWN: N_("Seat {seat} draws starting area {area}"),
    BoardEvent.AREA_PLACED: N_("Seat {seat} attaches area {area} to {at}"),
    BoardEvent.EXCLUDED: N_("Seat {seat} excludes a unit type (secret until the end)"),
    BoardEvent.ROLL: N_("Seat {seat} rolls {face}: a {kind} die"),
    BoardEvent.RECRUIT: N_("Seat {seat} recruits a {unit}"),
    BoardEvent.MOVE: N_("Seat {seat} moves a {unit} from {from} to {to}"),
    BoardEvent.FIGHT: N_("Seat {seat} attacks {against} on {at}"),
    BoardEvent.ASSAULT: N_(
        "Seat {seat} assaults the blocker on {at}: the fighter from {lose} is lost, "
        "the one from {keep} moves in if it can"
    ),
    BoardEvent.DIED: (
        N_plural("Seat {seat} loses {n} {unit} on {at}", "Seat {seat} loses {n} {unit} on {at}"),
        "n",
    ),
    BoardEvent.PUSHED: (
        N_plural(
            "{n} runner of Seat {seat} is pushed from {from} to {to}",
            "{n} runners of Seat {seat} are pushed from {from} to {to}",
        ),
        "n",
    ),
    BoardEvent.ALLY_OFFER: N_(
        "Seat {seat} asks Seat {helper} to attack the blocker on {at} together "
        "(fighters from {own} and {helper_from})"
    ),
    BoardEvent.ALLY_ACCEPTED: N_("Seat {seat} accepts the alliance of Seat {offerer}"),
    BoardEvent.ALLY_DECLINED: N_("Seat {seat} declines the alliance of Seat {offerer}"),
    BoardEvent.ALLY_DIE: N_(
        "The alliance's die shows {face}: the fighter of Seat {loser} dies "
        "(1-3 the asker's, 4-6 the helper's)"
    ),
    BoardEvent.RING_CLOCKWISE: N_("Seat {seat} turns ring {ring} clockwise"),
    BoardEvent.RING_COUNTER: N_("Seat {seat} turns ring {ring} counter-clockwise"),
    BoardEvent.AREA_MOVED: N_("Seat {seat} moves its starting area to {to}"),
    BoardEvent.SWAP: N_("Seat {seat} swaps the terrain of {a} and {b}"),
    BoardEvent.TURN_ENDED: N_("Seat {seat} ends its turn"),
    BoardEvent.DICE_FORFEITED: (
        N_plural("Seat {seat} forfeits {n} unused die", "Seat {seat} forfeits {n} unused dice"),
        "count",
    ),
    BoardEvent.TURN_SKIPPED: N_("Seat {seat} has no dice left: its second turn is skipped"),
    BoardEvent.POINT: (
        N_plural(
            "Seat {seat} scores {n} point on the center ({total} in all)",
            "Seat {seat} scores {n} points on the center ({total} in all)",
        ),
        "n",
    ),
    BoardEvent.GAME_WON: N_("Seat {seat} wins the game"),
    BoardEvent.GAME_DRAWN: N_("The round limit is reached: the game is a draw"),
}

#: the texts a log entry's parameters may hold
TERMS: Final[dict[str, str]] = {
    "recruit": N_("recruit"),
    "move": N_("move"),
    "turn": N_("turn"),
}
UNITS: Final[dict[str, tuple[str, str]]] = {
    "runner": N_plural("runner", "runners"),
    "fighter": N_plural("fighter", "fighters"),
    "blocker": N_plural("blocker", "blockers"),
}
#: extra words of an entry that names what only its reader saw (its own cards)
OWN: Final[dict[str, str]] = {
    "cards": N_("reserve: {cards}"),
    "won": N_("won: {cards}"),
    "to_hand": N_("to the hand: {to_hand}; to the reserve: {to_reserve}"),
    "excluded": N_("excluded: {unit}"),
}
#: parameters that hold a seat (an id from 0), shown as people count seats
SEAT_PARAMS: Final = ("seat", "helper", "offerer", "loser")
#: parameters that hold cards in notation
CARD_PARAMS: Final = ("cards", "to_hand", "to_reserve", "attack1", "attack2", "top")
SUITS: Final = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}


def card_text(card: str, _: Translator) -> str:
    """``Th`` -> ``10♥``; ``JK`` -> Joker; ``-`` (none) stays."""
    if card == "JK":
        return _(N_("Joker"))
    if len(card) != 2:
        return card
    rank = "10" if card[0] == "T" else card[0]
    return rank + SUITS.get(card[1], card[1])


def _cards(value: LogValue, _: Translator) -> str:
    if isinstance(value, tuple):
        return " ".join(card_text(c, _) for c in value) or "—"
    if isinstance(value, str) and len(value) > 2 and value != "JK":  # a sequence
        return "".join(card_text(value[i : i + 2], _) for i in range(0, len(value), 2))
    return card_text(str(value), _)


def _shown(params: Mapping[str, LogValue], _: Translator) -> dict[str, object]:
    shown: dict[str, object] = {}
    for key, value in params.items():
        if key in SEAT_PARAMS and isinstance(value, int):
            shown[key] = value + 1
        elif key == "against" and isinstance(value, tuple):
            shown[key] = ", ".join(_(N_("Seat {n}"), n=int(s) + 1) for s in value)
        elif key in CARD_PARAMS:
            shown[key] = _cards(value, _)
        elif key == "unit" and isinstance(value, str) and value in UNITS:
            n = params.get("n", 1)
            shown[key] = _.plural(*UNITS[value], n if isinstance(n, int) else 1)
        elif isinstance(value, str) and value in TERMS:
            shown[key] = _(TERMS[value])
        else:
            shown[key] = value
    return shown


def entry_text(code: str, seat: int | None, params: Mapping[str, LogValue], lang: str) -> str:
    """An event about ``seat`` worded in ``lang``."""
    return _worded(code, seat, tuple(params.items()), lang)


@functools.lru_cache(maxsize=50_000)
def _worded(code: str, seat: int | None, items: tuple[tuple[str, LogValue], ...], lang: str) -> str:
    """``entry_text``, kept: every message of a game words its whole log again."""
    params: dict[str, LogValue] = dict(items)
    if seat is not None:
        params.setdefault("seat", seat)
    params.setdefault("top", "—")  # the empty apex of the two-Joker game (C1.1)
    _ = Translator(lang)
    shown = _shown(params, _)
    text = TEXTS.get(code)
    if text is None:  # a code the web does not word yet: the code and its values
        values = ", ".join(f"{k}={v}" for k, v in shown.items())
        return f"{code} ({values})" if values else code
    if isinstance(text, str):
        worded = _(text, **shown)
    else:
        (singular, plural), count = text
        n = params.get(count)
        shown.pop("n", None)
        worded = _.plural(singular, plural, n if isinstance(n, int) else 0, **shown)
    extra = _own_words(code, params, shown, _)
    return f"{worded} ({extra})" if extra else worded


def _own_words(
    code: str, params: Mapping[str, LogValue], shown: Mapping[str, object], _: Translator
) -> str:
    """What the entry adds for the one reader who saw the cards (or type) it names."""
    if code == CardsEvent.RESERVE_CHOSEN and "cards" in params:
        return _(OWN["cards"], cards=shown["cards"])
    if code == CardsEvent.STACK_WON and "cards" in params:
        return _(OWN["won"], cards=shown["cards"])
    if code == CardsEvent.CARDS_PLACED and "to_hand" in params:
        return _(OWN["to_hand"], to_hand=shown["to_hand"], to_reserve=shown["to_reserve"])
    if code == BoardEvent.EXCLUDED and "unit" in params:
        unit = params["unit"]
        return _(OWN["excluded"], unit=_.plural(*UNITS[unit], 2) if unit in UNITS else unit)
    return ""


def log_entries(events: list[LoggedEvent], lang: str) -> list[LogEntry]:
    """A reader's log as a message carries it, oldest first."""
    return [
        LogEntry(
            move=e.move,
            decision=e.decision,
            seat=e.event.seat,
            code=e.event.code,
            rule=e.event.rule,
            params={k: list(v) if isinstance(v, tuple) else v for k, v in e.event.params.items()},
            text=entry_text(e.event.code, e.event.seat, e.event.params, lang),
        )
        for e in events
    ]
