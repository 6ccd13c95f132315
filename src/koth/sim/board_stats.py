"""Board-game statistics for tournament reports: what each seat did, grouped by kind and
unit type, and the facts of each game a designer asks about (rounds to win, how often
the center was held, kills by unit type, forfeited dice, points over time).

They run on the driver's side, after the game, by replaying its record: what an action
did (a fight, a push, a kill) is read from the states before and after it.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from koth.core.game import Game
from koth.core.players import CHANCE
from koth.core.state import GameState
from koth.games.board import BoardState, Phase
from koth.games.board.actions import (
    Ally,
    Answer,
    Attack,
    End,
    Move,
    MoveArea,
    Place,
    Recruit,
    Swap,
    TurnRing,
)
from koth.games.board.notes import DiceForfeited, turn_end_notes
from koth.games.board.tables import (
    BLOCKER,
    CENTER,
    FIGHTER,
    RUNNER,
    STRIDE,
    UNIT_NAMES,
    UNIT_TYPES,
)
from koth.sim.collect import in_order, register_collector, replay

UNIT_WORDS = UNIT_NAMES


def unit_of(notation: str) -> str | None:
    """The unit type an action recruits or moves (``recruit fighter``, ``move runner
    1.2>2.2``); an assault is made by fighters; other actions use none."""
    words = notation.split()
    if len(words) >= 2 and words[0] in ("recruit", "move") and words[1] in UNIT_WORDS:
        return words[1]
    if words and words[0] in ("attack", "ally"):
        return "fighter"
    return None


def _count(s: BoardState, player: int, loc: int, unit: int) -> int:
    return s.units[player * STRIDE + loc * 3 + unit]


def _enemies_at(s: BoardState, player: int, loc: int, units: tuple[int, ...]) -> bool:
    return any(_count(s, q, loc, u) for q in range(len(s.order)) if q != player for u in units)


#: the order kinds are listed in: setup, recruiting, moving and
#: fighting by unit type, alliances, turning, the turn's end
KIND_ORDER: tuple[str, ...] = (
    "place the area",
    *(f"recruit {unit}" for unit in UNIT_NAMES),
    *(f"move {unit}" for unit in UNIT_NAMES),
    "fight (fighter)",
    "push (blocker)",
    "assault on a blocker",
    "alliance offer",
    "alliance accepted",
    "alliance declined",
    "turn a ring",
    "move the area",
    "swap terrain",
    "end turn",
)
KILL_ORDER: tuple[str, ...] = tuple(
    f"{killer} kills {victim}" for killer in UNIT_NAMES for victim in UNIT_NAMES
)


def action_group(before: BoardState, player: int, action: Any) -> str:
    """The kind of one decision, naming the unit type where there is one."""
    if isinstance(action, Recruit):
        return f"recruit {UNIT_NAMES[action.unit]}"
    if isinstance(action, Move):
        # B11: a fighter entering enemy units fights; B12: a blocker entering enemy
        # runners pushes them; runners share tiles with enemy runners peacefully
        if action.unit == FIGHTER and _enemies_at(before, player, action.dst, UNIT_TYPES):
            return "fight (fighter)"
        if action.unit == BLOCKER and _enemies_at(before, player, action.dst, (RUNNER,)):
            return "push (blocker)"
        return f"move {UNIT_NAMES[action.unit]}"
    if isinstance(action, Attack):
        return "assault on a blocker"
    if isinstance(action, Ally):
        return "alliance offer"
    if isinstance(action, Answer):
        return "alliance accepted" if action.accept else "alliance declined"
    if isinstance(action, TurnRing):
        return "turn a ring"
    if isinstance(action, MoveArea):
        return "move the area"
    if isinstance(action, Swap):
        return "swap terrain"
    if isinstance(action, End):
        return "end turn"
    if isinstance(action, Place):
        return "place the area"
    return type(action).__name__.lower()


def _turn_index(s: BoardState) -> int:
    """Turns begun so far; a turn end moves it on by one (a skipped turn too, B7.2)."""
    return max(0, s.round - 1) * 2 * len(s.order) + s.turn


def _on_center(s: BoardState) -> list[int]:
    return [q for q in range(len(s.order)) if any(_count(s, q, CENTER, u) for u in range(3))]


def board_stats(game: Game[Any, Any, Any], state: GameState[Any, Any]) -> dict[str, Any]:
    """Per seat: ``action_kinds`` (``action_group``), ``unit_types`` recruited or moved,
    ``kills`` (``"fighter kills runner"``: enemy units of one type killed by one's own of
    another), ``units_lost``, ``forfeited_dice`` and ``center_turns`` (turn ends with a
    unit on the center); per game: ``turn_order``, ``first_mover`` (the seat of the
    game's first decision), ``rounds``, ``turn_ends``,
    ``center_held_turns`` (turn ends with anybody on the center) and
    ``points_over_time`` (everybody's points at the start of each round and at the end).
    """
    n = game.num_players
    kinds: list[Counter[str]] = [Counter() for _ in range(n)]
    units: list[Counter[str]] = [Counter() for _ in range(n)]
    kills: list[Counter[str]] = [Counter() for _ in range(n)]
    lost: list[Counter[str]] = [Counter() for _ in range(n)]
    forfeited = [0] * n
    center_turns = [0] * n
    turn_ends = center_held = 0
    timeline: list[list[int]] = []
    last_round = None
    first_mover: int | None = None
    for before, actions, after in replay(game, state):
        # a unit that dies goes back to its owner's hand (B4): a hand that grows is a death
        deaths = [
            (q, u, after.hand[q * 3 + u] - before.hand[q * 3 + u])
            for q in range(n)
            for u in range(3)
            if after.hand[q * 3 + u] > before.hand[q * 3 + u]
        ]
        for q, u, count in deaths:
            lost[q][UNIT_NAMES[u]] += count
        for player, action in actions:
            if player == CHANCE:
                if before.phase == Phase.ALLY_DIE and before.offer is not None:
                    _credit_kills(kills, before.active(), "fighter", deaths, before.offer.helper)
                continue
            if first_mover is None:
                first_mover = player
            kinds[player][action_group(before, player, action)] += 1
            unit = unit_of(game.action_to_str(action))
            if unit is not None and not isinstance(action, Ally):
                units[player][unit] += 1
            if isinstance(action, Move):
                _credit_kills(kills, player, UNIT_NAMES[action.unit], deaths)
            elif isinstance(action, Attack):
                _credit_kills(kills, player, "fighter", deaths)
            elif isinstance(action, Answer) and before.offer is not None:
                _credit_kills(kills, before.active(), "fighter", deaths, player)
        if len(actions) == 1:  # the dice given up when a turn ends (B7.1), as the rules say
            for note in turn_end_notes(game.params, before, after, actions[0][1]):
                if isinstance(note, DiceForfeited):
                    forfeited[note.seat] += note.count
        if before.phase in (Phase.TURN, Phase.ANSWER, Phase.ALLY_DIE):
            ends = _turn_index(after) - _turn_index(before)
            if after.phase == Phase.OVER:
                ends += 1  # the game ends on a turn end without moving the turn on
            if ends > 0:
                holders = _on_center(after)
                turn_ends += ends
                center_held += ends if holders else 0
                for q in holders:
                    center_turns[q] += ends
        if after.round != last_round:
            timeline.append(list(after.points))
            last_round = after.round
    final: BoardState = state.data
    if not timeline or timeline[-1] != list(final.points):
        timeline.append(list(final.points))
    return {
        "action_kinds": [in_order(c, KIND_ORDER) for c in kinds],
        "unit_types": [in_order(c, UNIT_NAMES) for c in units],
        "turn_order": list(final.order),
        "first_mover": first_mover,
        "rounds": final.round,
        "turn_ends": turn_ends,
        "center_held_turns": center_held,
        "center_turns": center_turns,
        "kills": [in_order(c, KILL_ORDER) for c in kills],
        "units_lost": [in_order(c, UNIT_NAMES) for c in lost],
        "forfeited_dice": forfeited,
        "points_over_time": timeline,
    }


def _credit_kills(
    kills: list[Counter[str]],
    killer: int,
    unit: str,
    deaths: list[tuple[int, int, int]],
    ally: int | None = None,
) -> None:
    """Count the deaths of ``killer``'s enemies (not its own, nor its ally's) as kills."""
    for q, victim, count in deaths:
        if q not in (killer, ally):
            kills[killer][f"{unit} kills {UNIT_NAMES[victim]}"] += count


register_collector(
    "board",
    board_stats,
    {
        "action_kinds": KIND_ORDER,
        "unit_types": UNIT_NAMES,
        "kills": KILL_ORDER,
        "units_lost": UNIT_NAMES,
    },
)
