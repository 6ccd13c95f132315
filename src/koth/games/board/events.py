"""The public events of a board game, as one reader saw them (``koth.core.log``).

Every action of the board game is public but the excluded type (B16.2), and so is every
die: the events are derived from the action as the reader may know it and the reader's
two views around it. The action says what was done (a recruit, a move, an assault, an
alliance offer and its answer, a ring turn, a swap, an area move, the end of a turn);
the views say what it led to (who fought and who died, which runners were pushed, the
points scored, the end). The dice forfeited and the turns skipped at a turn's end are
the game's transition notes (``koth.games.board.notes``), logged beside these.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Mapping
from typing import Any, Final

from koth.core.log import LogEvent, LogValue
from koth.core.players import CHANCE, SIMULTANEOUS, PlayerId
from koth.games.board.actions import (
    Action,
    Ally,
    Answer,
    AreaDraw,
    Attack,
    End,
    Exclude,
    Move,
    MoveArea,
    Place,
    Recruit,
    Roll,
    Swap,
    TerrainDraw,
    TurnRing,
)
from koth.games.board.notes import DiceForfeited, TurnSkipped
from koth.games.board.tables import LOC_NAMES, TERRAIN_LETTERS, UNIT_NAMES


class BoardEvent(enum.StrEnum):
    """The kinds of event a board game's log holds."""

    TERRAIN = "terrain_drawn"
    AREA_DRAWN = "area_drawn"
    AREA_PLACED = "area_placed"
    EXCLUDED = "type_excluded"
    ROLL = "die_rolled"
    RECRUIT = "recruited"
    MOVE = "moved"
    FIGHT = "fighter_attacks"
    ASSAULT = "assault"
    DIED = "died"
    PUSHED = "pushed"
    ALLY_OFFER = "ally_offered"
    ALLY_ACCEPTED = "ally_accepted"
    ALLY_DECLINED = "ally_declined"
    ALLY_DIE = "ally_die"
    RING_CLOCKWISE = "ring_turned_clockwise"
    RING_COUNTER = "ring_turned_counterclockwise"
    AREA_MOVED = "area_moved"
    SWAP = "swapped"
    TURN_ENDED = "turn_ended"
    DICE_FORFEITED = DiceForfeited.code
    TURN_SKIPPED = TurnSkipped.code
    POINT = "scored"
    GAME_WON = "game_won"
    GAME_DRAWN = "game_drawn"


#: a die's face -> its kind (B7): 1-2 recruit, 3-4 move, 5-6 turn
DIE_KINDS = ("recruit", "recruit", "move", "move", "turn", "turn")
#: the words an event or a shown action may name that are no secret of anybody's: the
#: names of the board's places, the unit types, the kinds of dice and the keywords of
#: the notation (B18) (``koth.core.conformance.check_log``)
PUBLIC_WORDS: Final = frozenset(
    (
        *LOC_NAMES,
        *UNIT_NAMES,
        *DIE_KINDS,
        *("accept", "ally", "area", "areas", "attack", "by", "decline", "drop", "end"),
        *("exclude", "from", "keep", "left", "lose", "pair", "place", "right", "roll"),
        *("swap", "terrain", "with", "ring1", "ring2", "ring3", "ring4"),
    )
)

_UNIT = re.compile(r"([RFB])(\d+)")
_LETTERS = {"R": 0, "F": 1, "B": 2}


def _counts(view: Mapping[str, Any]) -> dict[tuple[str, str, int], int]:
    """(seat, location, unit type) -> how many units stand there."""
    found: dict[tuple[str, str, int], int] = {}
    for loc, seats in view["units"].items():
        for seat, code in seats.items():
            for letter, count in _UNIT.findall(code):
                found[(seat, loc, _LETTERS[letter])] = int(count)
    return found


def board_events(
    before: Mapping[str, Any],
    after: Mapping[str, Any],
    player: PlayerId,
    action: Action | None,
    reader: PlayerId | None,
) -> list[LogEvent]:
    """What ``reader`` saw happen between its views ``before`` and ``after``, made by
    ``player``'s ``action`` (None: not shown to ``reader``)."""
    events: list[LogEvent] = []
    if player == SIMULTANEOUS:
        events.extend(_exclusions(after, action, reader))
    elif player == CHANCE:
        events.extend(_chance(before, after, action))
    elif action is not None:
        events.extend(_action(before, after, player, action))
    if player != SIMULTANEOUS:
        events.extend(_results(before, after, player, action))
    for seat, (was, now) in enumerate(zip(before["points"], after["points"], strict=True)):
        if now > was:
            events.append(LogEvent(BoardEvent.POINT, "B15", seat, {"n": now - was, "total": now}))
    outcome = after.get("outcome")
    if outcome and not before.get("outcome"):
        winners = outcome["winners"]
        if outcome["termination"] == "round_limit_draw" or not winners:
            events.append(LogEvent(BoardEvent.GAME_DRAWN, "B17", None, {}))
        else:
            rule = "B16.1" if outcome["termination"] == "countdown" else "B15"
            for seat in winners:
                events.append(LogEvent(BoardEvent.GAME_WON, rule, seat, {}))
    return events


def _exclusions(
    after: Mapping[str, Any], action: Action | None, reader: PlayerId | None
) -> list[LogEvent]:
    events = []
    for seat in range(len(after["order"])):
        if seat == reader and isinstance(action, Exclude):
            params: dict[str, Any] = {"unit": UNIT_NAMES[action.unit]}
        else:
            params = {}  # secret to the others until the end (B16.2)
        events.append(LogEvent(BoardEvent.EXCLUDED, "B16.2", seat, params))
    return events


def _chance(
    before: Mapping[str, Any], after: Mapping[str, Any], action: Action | None
) -> list[LogEvent]:
    if isinstance(action, TerrainDraw):
        terrain = "".join(TERRAIN_LETTERS[t] for t in action.arrangement)
        return [LogEvent(BoardEvent.TERRAIN, "B2", None, {"ring": action.ring, "terrain": terrain})]
    if isinstance(action, AreaDraw):
        return [
            LogEvent(BoardEvent.AREA_DRAWN, "B3", seat, {"area": f"A{area}"})
            for seat, area in enumerate(action.areas)
        ]
    if not isinstance(action, Roll):
        return []
    if before["phase"] == "ally_die":
        helper = _offer_helper(before["offer"])
        active = _active(before)
        loser = active if action.face <= 3 else helper
        return [LogEvent(BoardEvent.ALLY_DIE, "B13", active, {"face": action.face, "loser": loser})]
    for seat, (was, now) in enumerate(zip(before["dice"], after["dice"], strict=True)):
        if len(now) > len(was):
            kind = DIE_KINDS[action.face - 1]
            return [LogEvent(BoardEvent.ROLL, "B6", seat, {"face": action.face, "kind": kind})]
    return []


def _active(view: Mapping[str, Any]) -> int:
    order = view["order"]
    active: int = order[view["turn"] % len(order)]
    return active


def _offer_helper(offer: str) -> int:
    """The helper's seat of an offer's notation (``ally 3.4 from 2.4 with 1 from 3.5``)."""
    return int(offer.split(" with ", 1)[1].split()[0])


def _action(
    before: Mapping[str, Any], after: Mapping[str, Any], seat: int, action: Action
) -> list[LogEvent]:
    loc = LOC_NAMES
    if isinstance(action, Place):
        area = next(name for name, a in after["areas"].items() if a["player"] == seat)
        return [
            LogEvent(BoardEvent.AREA_PLACED, "B3", seat, {"area": area, "at": f"1.{action.index}"})
        ]
    if isinstance(action, Recruit):
        return [LogEvent(BoardEvent.RECRUIT, "B8", seat, {"unit": UNIT_NAMES[action.unit]})]
    if isinstance(action, Move):
        params = {"unit": UNIT_NAMES[action.unit], "from": loc[action.src], "to": loc[action.dst]}
        events = [LogEvent(BoardEvent.MOVE, "B9", seat, params)]
        enemies = sorted(int(s) for s in before["units"].get(loc[action.dst], {}) if int(s) != seat)
        if action.unit == 1 and enemies:
            events.append(
                LogEvent(
                    BoardEvent.FIGHT,
                    "B11",
                    seat,
                    {"at": loc[action.dst], "against": tuple(str(e) for e in enemies)},
                )
            )
        return events
    if isinstance(action, Attack):
        params = {"at": loc[action.target], "lose": loc[action.lose], "keep": loc[action.keep]}
        return [LogEvent(BoardEvent.ASSAULT, "B11.2", seat, params)]
    if isinstance(action, Ally):
        params2: dict[str, Any] = {
            "at": loc[action.target],
            "own": loc[action.own],
            "helper": action.helper,
            "helper_from": loc[action.helper_from],
        }
        return [LogEvent(BoardEvent.ALLY_OFFER, "B13", seat, params2)]
    if isinstance(action, Answer):
        code = BoardEvent.ALLY_ACCEPTED if action.accept else BoardEvent.ALLY_DECLINED
        offerer = _active(before)
        return [LogEvent(code, "B13", seat, {"offerer": offerer})]
    if isinstance(action, TurnRing):
        # the index grows clockwise on the drawn board: right is clockwise (B14.1)
        code = BoardEvent.RING_CLOCKWISE if action.right else BoardEvent.RING_COUNTER
        return [LogEvent(code, "B14.1", seat, {"ring": action.ring})]
    if isinstance(action, MoveArea):
        return [LogEvent(BoardEvent.AREA_MOVED, "B14.3", seat, {"to": f"1.{action.index}"})]
    if isinstance(action, Swap):
        return [LogEvent(BoardEvent.SWAP, "B14.2", seat, {"a": loc[action.a], "b": loc[action.b]})]
    if isinstance(action, End):
        return [LogEvent(BoardEvent.TURN_ENDED, "B7", seat, {})]
    return []


def _results(
    before: Mapping[str, Any], after: Mapping[str, Any], player: int, action: Action | None
) -> list[LogEvent]:
    """Units that died (back to the hand, B4) and runners pushed (B12) by a move."""
    events: list[LogEvent] = []
    if isinstance(action, TurnRing | MoveArea | Swap | Recruit | Place):
        return events  # these move or add units without a fight
    old, new = _counts(before), _counts(after)
    for seat, (was, now) in enumerate(zip(before["hand"], after["hand"], strict=True)):
        for unit in range(3):
            dead = now[unit] - was[unit]
            if dead <= 0:
                continue
            lost = sorted(
                key[1]
                for key in old
                if key[0] == str(seat) and key[2] == unit and new.get(key, 0) < old[key]
            )
            at = lost[0] if lost else "-"
            if isinstance(action, Move) and seat == player and action.unit == unit:
                at = LOC_NAMES[action.dst]  # the mover died where it went
            rule = _death_rule(before, action, unit)
            params = {"unit": UNIT_NAMES[unit], "n": dead, "at": at}
            events.append(LogEvent(BoardEvent.DIED, rule, seat, params))
    if isinstance(action, Move) and action.unit == 2:
        dst = LOC_NAMES[action.dst]
        for (owner, loc, unit), count in new.items():
            if unit != 0 or owner == str(player) or loc == dst:
                continue
            gained = count - old.get((owner, loc, unit), 0)
            if gained > 0:
                pushed: dict[str, LogValue] = {"n": gained, "from": dst, "to": loc}
                events.append(LogEvent(BoardEvent.PUSHED, "B12", int(owner), pushed))
    return events


def _death_rule(before: Mapping[str, Any], action: Action | None, unit: int) -> str:
    """The rule that killed a unit: a fight (B11), an assault (B11.2), an alliance's
    fight (B13) or a push (B12)."""
    if isinstance(action, Attack):
        return "B11.2"
    if before["phase"] == "ally_die":
        return "B13"
    if isinstance(action, Move) and action.unit == 2 and unit == 0:
        return "B12"
    return "B11"
