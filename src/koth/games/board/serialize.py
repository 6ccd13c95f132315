"""The board state as JSON-compatible data, and back."""

from __future__ import annotations

from koth.core.game import JSON
from koth.games.board.actions import Ally, parse_action
from koth.games.board.state import BoardState, BoardTermination, Phase
from koth.games.board.tables import NUM_TILES, STRIDE


def state_to_json(state: BoardState) -> JSON:
    """The whole state (secrets included) as JSON-compatible data."""
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


def state_from_json(data: JSON, num_players: int) -> BoardState:
    """The inverse of ``state_to_json``; ValueError on malformed data."""
    try:
        offer = parse_action(data["offer"], num_players) if data["offer"] else None
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
            units=bytes(ints("units")),  # ValueError for a count outside 0..255
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
    for pool in state.dice:
        if len(pool) > 4 or list(pool) != sorted(pool) or any(not 1 <= f <= 6 for f in pool):
            raise ValueError(
                f"malformed board state: dice {list(pool)} are not at most four sorted faces 1-6"
            )
    n = num_players
    if (
        len(state.units) != n * STRIDE
        or len(state.hand) != 3 * n
        or len(state.terrain) != NUM_TILES
    ):
        raise ValueError("board state does not fit the number of players")
    return state
