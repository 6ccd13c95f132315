"""Who moves: player ids and the kinds of node a game can be in.

The negative ids are OpenSpiel's, so the interop layer passes them through unchanged.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Final

PlayerId = int

CHANCE: Final[PlayerId] = -1
SIMULTANEOUS: Final[PlayerId] = -2
TERMINAL: Final[PlayerId] = -4


def seat_name(player: PlayerId) -> str:
    """``0`` -> ``Seat 1``: people count seats from 1, on the web and in the terminal;
    ids (records, the API, agents) count from 0."""
    return f"Seat {player + 1}"


class NodeKind(enum.Enum):
    """What kind of decision the state is waiting for."""

    PLAYER = "player"
    SIMULTANEOUS = "simultaneous"
    CHANCE = "chance"
    TERMINAL = "terminal"


@dataclass(frozen=True, slots=True)
class ToMove:
    """The decision a state waits for: its kind and the players who must act.

    For a PLAYER node ``players`` holds exactly one id; for a SIMULTANEOUS node every
    player who must submit an action (possibly a subset of the table); for CHANCE and
    TERMINAL nodes it is empty.
    """

    kind: NodeKind
    players: tuple[PlayerId, ...] = ()

    def __reduce__(self) -> tuple[type[ToMove], tuple[NodeKind, tuple[PlayerId, ...]]]:
        # pickled by its fields: the compiled build's frozen class refuses the
        # slot-by-slot restore that pickle would otherwise use
        return (ToMove, (self.kind, self.players))

    @staticmethod
    def player(player: PlayerId) -> ToMove:
        return ToMove(NodeKind.PLAYER, (player,))

    @staticmethod
    def simultaneous(players: tuple[PlayerId, ...]) -> ToMove:
        return ToMove(NodeKind.SIMULTANEOUS, players)

    @property
    def current_player(self) -> PlayerId:
        """OpenSpiel's single-number summary of this node."""
        if self.kind is NodeKind.PLAYER:
            return self.players[0]
        return {
            NodeKind.SIMULTANEOUS: SIMULTANEOUS,
            NodeKind.CHANCE: CHANCE,
            NodeKind.TERMINAL: TERMINAL,
        }[self.kind]


TO_MOVE_CHANCE: Final = ToMove(NodeKind.CHANCE)
TO_MOVE_TERMINAL: Final = ToMove(NodeKind.TERMINAL)
