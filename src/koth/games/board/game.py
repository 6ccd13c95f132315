"""``BoardGame``: Florian Jehn's King of the Hill on the koth.core contract."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from koth.core.game import JSON, Game
from koth.core.outcome import Outcome
from koth.core.players import PlayerId, ToMove
from koth.core.registry import register_game
from koth.games.board import actions as act
from koth.games.board.actions import Action, Ally
from koth.games.board.board import (
    LOC_NAMES,
    NUM_LOCS,
    NUM_TILES,
    RING_SIZE,
    STRIDE,
    TERRAIN_LETTERS,
    UNIT_LETTERS,
    UNIT_NAMES,
)
from koth.games.board.explain import explain
from koth.games.board.invariants import violations
from koth.games.board.params import BoardParams
from koth.games.board.rules import Rules
from koth.games.board.state import BoardState, BoardTermination, Phase, evolve

#: the methods whose calls BoardGame hands straight to its rules
_FORWARDED = ("to_move", "chance_outcomes", "legal_actions", "apply")


@register_game
class BoardGame(Game[BoardState, Action, BoardParams]):
    """King of the Hill, the tactical board game for 2-4 players."""

    name = "board"
    params_type = BoardParams

    def __init__(self, params: Mapping[str, Any] | BoardParams | None = None, **overrides: Any):
        super().__init__(params, **overrides)
        self.rules = rules = Rules(self.params)
        self._num_actions = act.num_actions(self.params.num_players)
        # Every step of a playout or search calls these; the rules' own bound methods
        # answer them without the forwarding frames of the methods below (which stay
        # as the documented, typed interface), unless a subclass overrides one.
        for name in _FORWARDED:
            if getattr(type(self), name) is getattr(BoardGame, name):
                setattr(self, name, getattr(rules, name))

    @property
    def num_players(self) -> int:
        return self.params.num_players

    def num_distinct_actions(self) -> int:
        return self._num_actions

    # ----------------------------------------------------------------- rules
    def initial(self) -> BoardState:
        return self.rules.initial()

    def to_move(self, state: BoardState) -> ToMove:
        return self.rules.to_move(state)

    def chance_outcomes(self, state: BoardState) -> Sequence[tuple[Action, float]]:
        return self.rules.chance_outcomes(state)

    def legal_actions(self, state: BoardState, player: PlayerId) -> Sequence[Action]:
        return self.rules.legal_actions(state, player)

    def apply(self, state: BoardState, player: PlayerId, action: Action) -> BoardState:
        return self.rules.apply(state, player, action)

    def apply_joint(self, state: BoardState, actions: Mapping[PlayerId, Action]) -> BoardState:
        return self.rules.apply_joint(state, dict(actions))

    def outcome(self, state: BoardState) -> Outcome | None:
        if state.termination is None:
            return None
        return Outcome(state.termination, frozenset(state.winners))

    def returns(self, state: BoardState) -> tuple[float, ...]:
        """Zero-sum: losers get -1/(n-1) each, the winners share the rest (B17.1)."""
        n = self.num_players
        winners = set(state.winners)
        if state.termination is None or not winners or len(winners) == n:
            return (0.0,) * n
        loss = -1 / (n - 1)
        win = (n - len(winners)) / (len(winners) * (n - 1))
        return tuple(win if p in winners else loss for p in range(n))

    # ----------------------------------------------------------- information
    def excluded_visible(self, state: BoardState, viewer: PlayerId | None, player: int) -> bool:
        """B16.2: an excluded type is secret to the others until the game ends."""
        return viewer == player or state.phase is Phase.OVER

    def view(self, state: BoardState, player: PlayerId | None) -> dict[str, JSON]:
        n = self.num_players
        units = units_view(state.units, n)
        excluded: list[str | None] = []
        for q in range(n):
            if state.excluded[q] < 0:
                excluded.append(None)
            elif self.excluded_visible(state, player, q):
                excluded.append(UNIT_NAMES[state.excluded[q]])
            else:
                excluded.append("hidden")
        outcome = self.outcome(state)
        to_move = self.to_move(state)
        data: dict[str, JSON] = {
            "phase": state.phase.name.lower(),
            "round": state.round,
            "turn": state.turn,
            "to_move": list(to_move.players) if to_move.players else to_move.kind.value,
            "order": list(state.order),
            "terrain": terrain_rows(state),
            "areas": {
                f"A{a + 1}": {
                    "player": state.area_of.index(a + 1) if a + 1 in state.area_of else None,
                    "touches": f"1.{pos}" if pos >= 0 else None,
                }
                for a, pos in enumerate(state.area_pos)
            },
            "units": units,
            "hand": [list(state.hand[q * 3 : q * 3 + 3]) for q in range(n)],
            "dice": [list(d) for d in state.dice],
            "slots_used": state.slots,
            "declined": [q for q in range(n) if state.declined >> q & 1],
            "offer": str(state.offer) if state.offer else None,
            "points": list(state.points),
            "excluded": excluded,
            "used_types": [
                [UNIT_NAMES[t] for t in range(3) if state.used_types[q] >> t & 1] for q in range(n)
            ],
            "outcome": outcome.to_json() if outcome else None,
        }
        if self.params.teamplay:
            data["team_points"] = [sum(state.points[q] for q in side) for side in self.rules.sides]
        if self.params.countdown:
            data["countdown"] = state.countdown
        return data

    def resample_hidden(
        self, state: BoardState, player: PlayerId | None, rng: random.Random
    ) -> BoardState:
        if not self.params.one_excluded or state.phase is Phase.OVER:
            return state
        excluded = list(state.excluded)
        for q in range(self.num_players):
            if q != player and excluded[q] >= 0:
                # any type this player has never recruited is consistent with the record
                excluded[q] = rng.choice([t for t in range(3) if not state.used_types[q] >> t & 1])
        return evolve(state, excluded=tuple(excluded))

    # -------------------------------------------------------------- notation
    def parse_action(self, text: str) -> Action:
        return act.parse_action(text, self.num_players)

    def action_id(self, action: Action) -> int:
        return act.action_id(action, self.num_players)

    def action_from_id(self, action_id: int) -> Action:
        self._check_action_id(action_id)
        return act.action_from_id(action_id, self.num_players)

    def explain_illegal(
        self, state: BoardState, player: PlayerId, action: Action
    ) -> tuple[str, str | None]:
        return explain(self.rules, state, player, action)

    # --------------------------------------------------------- serialization
    def state_to_json(self, state: BoardState) -> JSON:
        return {
            "phase": state.phase.name,
            "terrain": list(state.terrain),
            "area_of": list(state.area_of),
            "area_pos": list(state.area_pos),
            "order": list(state.order),
            "units": list(state.units),
            "hand": list(state.hand),
            "excluded": list(state.excluded),
            "used_types": list(state.used_types),
            "round": state.round,
            "turn": state.turn,
            "dice": [list(d) for d in state.dice],
            "slots": state.slots,
            "declined": state.declined,
            "offer": str(state.offer) if state.offer else None,
            "points": list(state.points),
            "countdown": state.countdown,
            "termination": state.termination.value if state.termination else None,
            "winners": list(state.winners),
        }

    def state_from_json(self, data: JSON) -> BoardState:
        try:
            offer = self.parse_action(data["offer"]) if data["offer"] else None
            if offer is not None and not isinstance(offer, Ally):
                raise ValueError("offer is not an alliance")

            def ints(key: str) -> tuple[int, ...]:
                return tuple(int(x) for x in data[key])

            state = BoardState(
                phase=Phase[data["phase"]],
                terrain=ints("terrain"),
                area_of=ints("area_of"),
                area_pos=ints("area_pos"),
                order=ints("order"),
                units=ints("units"),
                hand=ints("hand"),
                excluded=ints("excluded"),
                used_types=ints("used_types"),
                round=int(data["round"]),
                turn=int(data["turn"]),
                dice=tuple(tuple(int(f) for f in d) for d in data["dice"]),
                slots=int(data["slots"]),
                declined=int(data["declined"]),
                offer=offer,
                points=ints("points"),
                countdown=int(data["countdown"]),
                termination=BoardTermination(data["termination"]) if data["termination"] else None,
                winners=ints("winners"),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"malformed board state: {exc}") from None
        n = self.num_players
        if (
            len(state.units) != n * STRIDE
            or len(state.hand) != 3 * n
            or len(state.terrain) != NUM_TILES
        ):
            raise ValueError("board state does not fit the number of players")
        return state

    # -------------------------------------------------------------- checking
    def invariant_violations(self, state: BoardState) -> list[str]:
        return violations(self.rules, state)

    def render(self, state: BoardState, player: PlayerId | None) -> str:
        from koth.games.board.render import render_text

        return render_text(self, state, player)


def unit_code(state: BoardState, player: int, loc: int) -> str:
    """e.g. ``R1F2``: one player's units on one location."""
    k = player * STRIDE + loc * 3
    return _code_of(state.units[k : k + 3])


#: the code of each (runners, fighters, blockers) count met so far (a few dozen)
_CODES: dict[tuple[int, ...], str] = {}
_NO_UNITS = (0, 0, 0)


def _code_of(counts: tuple[int, ...]) -> str:
    code = _CODES.get(counts)
    if code is None:
        code = _CODES[counts] = "".join(
            f"{UNIT_LETTERS[t]}{count}" for t, count in enumerate(counts) if count
        )
    return code


def units_view(units: tuple[int, ...], n: int) -> dict[str, dict[str, str]]:
    """The ``units`` part of a view: per occupied location, each player's unit code.

    Every view of every decision builds this, so each player's counts are read as
    (runners, fighters, blockers) triples in one pass instead of location by location.
    """
    triples = []
    for q in range(n):
        own = units[q * STRIDE : (q + 1) * STRIDE]
        triples.append(list(zip(own[0::3], own[1::3], own[2::3], strict=True)))
    result: dict[str, dict[str, str]] = {}
    for loc in range(NUM_LOCS):
        here: dict[str, str] = {}
        for q in range(n):
            counts = triples[q][loc]
            if counts != _NO_UNITS:
                here[str(q)] = _code_of(counts)
        if here:
            result[LOC_NAMES[loc]] = here
    return result


def terrain_rows(state: BoardState) -> list[str]:
    return [
        "".join(
            TERRAIN_LETTERS[t] if t >= 0 else "?"
            for t in state.terrain[r * RING_SIZE : (r + 1) * RING_SIZE]
        )
        for r in range(4)
    ]
