"""Why an action is illegal: a readable reason and the rule it breaks."""

from __future__ import annotations

from typing import TYPE_CHECKING

from koth.core.players import PlayerId, seat_name
from koth.games.board.actions import (
    PAY_MOVE,
    PAY_NAMES,
    PAY_PAIR,
    PAY_RECRUIT,
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
from koth.games.board.legal import die_counts
from koth.games.board.state import BoardState, Phase
from koth.games.board.tables import (
    ALLOWED_TERRAIN,
    CENTER,
    LOC_NAMES,
    NUM_TILES,
    STACK_LIMIT,
    STRIDE,
    TERRAIN_NAMES,
    UNIT_NAMES,
)

if TYPE_CHECKING:
    from koth.games.board.rules import Rules

Reason = tuple[str, str | None]

_PHASE_OF: dict[type, tuple[str, str]] = {
    Roll: ("dice are rolled by chance", "B6"),
    TerrainDraw: ("terrain is drawn by chance at setup", "B2"),
    AreaDraw: ("starting areas are drawn by chance at setup", "B3"),
    Place: ("areas are placed at setup only, highest number first", "B3"),
    Exclude: ("unit types are excluded at setup only", "B16.2"),
    Answer: ("only an asked helper answers an alliance offer", "B13"),
}


def explain(rules: Rules, s: BoardState, player: PlayerId, action: Action) -> Reason:
    expected = {
        Phase.TERRAIN: TerrainDraw,
        Phase.DRAW: AreaDraw,
        Phase.PLACE: Place,
        Phase.EXCLUDE: Exclude,
        Phase.ROLL: Roll,
        Phase.ANSWER: Answer,
        Phase.ALLY_DIE: Roll,
    }.get(s.phase)
    if s.phase is Phase.TURN and type(action) in _PHASE_OF:
        return _PHASE_OF[type(action)]
    if s.phase is not Phase.TURN:
        if expected is not None and not isinstance(action, expected):
            return (f"the game waits for a {s.phase.name.lower()} decision", None)
        if isinstance(action, Place):
            return ("another area already touches that outer tile", "B3")
        if isinstance(action, TerrainDraw):
            return ("terrain is drawn ring by ring, from ring 1 inward", "B2")
        return ("it is not among the legal actions now", None)
    return _explain_turn(rules, s, player, action)


def _payment_problem(rules: Rules, s: BoardState, p: int, payment: int) -> str | None:
    recruit, move, turn = die_counts(s.dice[p])
    if payment == PAY_MOVE and not move:
        return "you have no move die (3-4) left"
    if payment == PAY_RECRUIT:
        if not recruit:
            return "you have no recruit die (1-2) left"
        if not rules.all_recruited(s, p):
            return "a recruit die moves only once all your units are recruited"
    if payment == PAY_PAIR and turn < 2:
        return "paying with a pair needs two turning dice (5-6)"
    return None


def _explain_turn(rules: Rules, s: BoardState, p: int, action: Action) -> Reason:
    recruit, move, turn = die_counts(s.dice[p])
    if isinstance(action, Recruit):
        if action.by_move:
            if not move:
                return ("you have no move die (3-4) left", "B7")
            if sum(s.hand[p * 3 : p * 3 + 3]) != 9:
                return ("a move die recruits only when you have no unit in play", "B7")
        elif not recruit:
            return ("you have no recruit die (1-2) left", "B7")
        if action.unit == s.excluded[p]:
            return (f"you excluded the {UNIT_NAMES[action.unit]}", "B16.2")
        if not s.hand[p * 3 + action.unit]:
            return (f"no {UNIT_NAMES[action.unit]} is left in your hand", "B4")
        first = rules.params.runner_first_round
        if action.unit == 0 and s.round < first:
            return (f"runners are recruited only from round {first} on", "B8")
    elif isinstance(action, Move | Attack | Ally):
        payments = action.pays if isinstance(action, Attack) else (action.pay,)
        for payment in payments:
            problem = _payment_problem(rules, s, p, payment)
            if problem:
                return (f"{problem} (paying by {PAY_NAMES[payment]})", "B7")
        if isinstance(action, Move):
            return _explain_move(rules, s, p, action)
        if isinstance(action, Attack):
            if s.slots:
                return ("an assault needs both move actions of a fresh turn", "B11")
            return ("an assault needs an enemy blocker and two of your fighters next to it", "B11")
        if (s.declined >> action.helper) & 1:
            return (f"{seat_name(action.helper)} already declined this turn", "B13")
        return (
            "an alliance needs your fighter and the helper's fighter next to a third "
            "player's blocker",
            "B13",
        )
    elif isinstance(action, TurnRing | MoveArea | Swap):
        if not turn:
            return ("you have no turning die (5-6) left", "B7")
        if isinstance(action, MoveArea):
            return ("an area already touches that outer tile", "B14")
        if isinstance(action, Swap):
            a, b = action.a, action.b
            if s.terrain[a] == s.terrain[b]:
                return ("both tiles have the same terrain", "B14")
            return ("a unit would stand on terrain it may not enter", "B14")
    elif isinstance(action, End):
        return ("drop only dice you hold, as many as your unused actions", "B7")
    return ("it is not among the legal actions now", None)


def _explain_move(rules: Rules, s: BoardState, p: int, action: Move) -> Reason:
    t, src, dst = action.unit, action.src, action.dst
    units = s.units
    if not units[p * STRIDE + src * 3 + t]:
        return (f"you have no {UNIT_NAMES[t]} on {LOC_NAMES[src]}", "B9")
    if dst > CENTER and dst != CENTER + s.area_of[p]:
        return ("units never enter another player's starting area", "B3")
    if dst < NUM_TILES and not (ALLOWED_TERRAIN[t] >> s.terrain[dst]) & 1:
        return (f"a {UNIT_NAMES[t]} may not enter {TERRAIN_NAMES[s.terrain[dst]]} terrain", "B9")
    own = sum(units[p * STRIDE + dst * 3 : p * STRIDE + dst * 3 + 3])
    if own >= STACK_LIMIT[dst]:
        return (f"{LOC_NAMES[dst]} already holds {own} of your units", "B5")
    enemy_fighter = any(units[q * STRIDE + dst * 3 + 1] for q in range(rules.n) if q != p)
    enemy_blocker = any(units[q * STRIDE + dst * 3 + 2] for q in range(rules.n) if q != p)
    if t == 0 and (enemy_fighter or enemy_blocker):
        return ("runners never enter a tile with an enemy fighter or blocker", "B10")
    if (
        t == 0
        and rules.runners_blocked_by_own
        and (units[p * STRIDE + dst * 3 + 1] or units[p * STRIDE + dst * 3 + 2])
    ):
        return ("runners never enter a tile with a fighter or blocker, your own included", "B10")
    if t == 1 and enemy_blocker:
        return ("a single fighter cannot enter a blocker's tile: use an assault", "B11")
    if t == 2 and enemy_fighter:
        return ("blockers never enter a tile with an enemy fighter", "B12")
    if t == 2 and enemy_blocker and rules.blockers_avoid_blockers:
        return ("blockers never join an enemy blocker (option blockers_avoid_blockers)", "B12.3")
    return (f"{LOC_NAMES[dst]} is out of the {UNIT_NAMES[t]}'s reach", "B9")
