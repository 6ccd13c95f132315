"""A turn's legal actions as an ``ActionList``: unit moves kept as masks of destinations.

About two thirds of a turn's actions are unit moves: a random playout reads one action
of some sixty. ``TurnActions`` keeps each moving unit's destinations as one mask and
builds a move only when it is read (the compiled build lists turns this way,
docs/performance.md); the recruits before the moves and the other actions after them
are plain lists, and the terrain swaps another mask.
"""

from __future__ import annotations

from typing import Any, Final

from koth.core.offered import ActionList
from koth.games.board.actions import (
    MAX_PLAYERS,
    MOVE_BASE,
    SWAP_BASE,
    Action,
    Move,
    Swap,
    action_id,
)
from koth.games.board.tables import EDGE_INDEX, EDGES, NUM_LOCS, has_bit, lowest_bit

#: every Move value, indexed like its action id, built once: construction is the hot path
MOVES: Final[tuple[Move, ...]] = tuple(
    Move(t, src, dst, payment)
    for t in range(3)
    for src in range(NUM_LOCS)
    for dst in range(NUM_LOCS)
    for payment in range(3)
)
#: ``MOVE_ROWS[(unit * NUM_LOCS + src) * 3 + pay][dst]``: the Move value
MOVE_ROWS: Final[tuple[tuple[Move, ...], ...]] = tuple(
    MOVES[(row // 3) * NUM_LOCS * 3 + row % 3 :: 3][:NUM_LOCS] for row in range(3 * NUM_LOCS * 3)
)
#: every Swap value, indexed like ``EDGES``
SWAPS: Final[tuple[Swap, ...]] = tuple(Swap(a, b) for a, b in EDGES)
#: the number of set bits of each 16-bit value (a ``bytes``: read by index, unboxed)
_BITS16: Final = bytes(value.bit_count() for value in range(1 << 16))


def popcount(mask: int) -> int:
    """The number of set bits of ``mask`` (below 2**64: locations, edges)."""
    return (
        _BITS16[mask & 0xFFFF]
        + _BITS16[mask >> 16 & 0xFFFF]
        + _BITS16[mask >> 32 & 0xFFFF]
        + _BITS16[mask >> 48 & 0xFFFF]
    )


def move_row(unit: int, src: int) -> int:
    """The first ``MOVE_ROWS`` index of a unit type's moves from ``src`` (add the pay)."""
    return (unit * NUM_LOCS + src) * 3


#: a segment of ``TurnActions``: ``destinations << SEGMENT_SHIFT | move_row``, one int
#: per moving unit (one boxed int and one list append where two cost twice as much)
SEGMENT_SHIFT: Final = 9
_ROW_MASK: Final = (1 << SEGMENT_SHIFT) - 1


def segment(row: int, destinations: int) -> int:
    """One moving unit's segment: its ``move_row`` and its destinations (a mask)."""
    return destinations << SEGMENT_SHIFT | row


class TurnActions(ActionList[Action]):
    """The actions of a turn in id order: ``head`` (recruits); the unit moves, kept in
    ``segments``, one int per moving unit (``segment``: its ``move_row``, type and
    origin, and its destinations, a mask), each destination with every payment of
    ``pays`` in turn; ``middle`` (assaults, alliance offers, ring turns, area moves);
    the terrain swaps, a mask of ``EDGES`` (``swaps``); ``tail`` (the ends of the
    turn). One list in all, ``segments``: made and freed at every decision of a
    playout. ``fixed_ids`` holds the ids of ``head``, of the turning at the end of
    ``middle`` and of ``tail`` (the rules' tables keep them beside the actions), for
    ``ids``."""

    def __init__(
        self,
        head: tuple[Action, ...],
        segments: list[int],
        pays: tuple[int, ...],
        middle: tuple[Action, ...],
        swaps: int,
        tail: tuple[Action, ...],
        fixed_ids: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]],
    ) -> None:
        super().__init__()
        self.head = head
        self.segments = segments
        self.pays = pays
        self.middle = middle
        self.swaps = swaps
        self.tail = tail
        self.fixed_ids = fixed_ids
        #: the move built by the last read (what a playout hands back to ``holds``)
        self.last_read: Action | None = None
        num_destinations = 0
        for packed in segments:
            num_destinations += popcount(packed >> SEGMENT_SHIFT)
        # where each part starts
        self.moves_at = moves_at = len(head)
        self.middle_at = middle_at = moves_at + num_destinations * len(pays)
        self.swaps_at = swaps_at = middle_at + len(middle)
        self.tail_at = tail_at = swaps_at + popcount(swaps)
        self.size = tail_at + len(tail)

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, index: int | slice) -> Any:
        # ActionList's, with the item built here: compiled, its call of ``item`` goes
        # through the glue that lets interpreted subclasses override it
        if isinstance(index, int):
            at = index + self.size if index < 0 else index
            if 0 <= at < self.size:
                return self.item(at)
        return super().__getitem__(index)  # a slice, or the error of an index out of range

    def item(self, index: int) -> Action:
        if index >= self.middle_at:
            if index >= self.tail_at:
                return self.tail[index - self.tail_at]
            if index < self.swaps_at:
                return self.middle[index - self.middle_at]
            return SWAPS[_nth_bit(self.swaps, index - self.swaps_at)]
        if index < self.moves_at:
            return self.head[index]
        index -= self.moves_at
        pays = self.pays
        per_dst = len(pays)
        for packed in self.segments:
            mask = packed >> SEGMENT_SHIFT
            count = popcount(mask) * per_dst
            if index < count:
                # (two int operations: compiled, divmod would build a tuple)
                pay = pays[index % per_dst]
                move = MOVE_ROWS[(packed & _ROW_MASK) + pay][_nth_bit(mask, index // per_dst)]
                self.last_read = move
                return move
            index -= count
        raise IndexError(index)  # unreachable: the segments' counts add up to the moves

    def build(self) -> list[Action]:
        actions = list(self.head)
        pays = self.pays
        for packed in self.segments:
            row = packed & _ROW_MASK
            mask = packed >> SEGMENT_SHIFT
            while mask:  # destinations, lowest first (as their ids go)
                dst = lowest_bit(mask)
                mask &= mask - 1
                for pay in pays:
                    actions.append(MOVE_ROWS[row + pay][dst])
        actions += self.middle
        mask = self.swaps
        while mask:
            actions.append(SWAPS[lowest_bit(mask)])
            mask &= mask - 1
        actions += self.tail
        return actions

    def ids(self) -> list[int]:
        """Every action's id (``actions.action_id``), in order, without building a
        move or a swap: a move's id is ``MOVE_BASE + move_row * NUM_LOCS + dst * 3 +
        pay`` (its segment's row, each destination bit, each payment), a swap's
        ``SWAP_BASE`` plus its edge (a bit of ``swaps``); the recruits', turning's and
        ends' ids come in ``fixed_ids``, and only the assaults and alliance offers
        (rare) are numbered one by one."""
        head_ids, turning_ids, tail_ids = self.fixed_ids
        ids = list(head_ids)
        pays = self.pays
        for packed in self.segments:
            first = MOVE_BASE + (packed & _ROW_MASK) * NUM_LOCS
            mask = packed >> SEGMENT_SHIFT
            while mask:  # destinations, lowest first (as their ids go)
                at = first + lowest_bit(mask) * 3
                mask &= mask - 1
                for pay in pays:
                    ids.append(at + pay)
        middle = self.middle
        for k in range(len(middle) - len(turning_ids)):  # the assaults and offers
            # (the player count numbers only the area draws, never a turn's action)
            ids.append(action_id(middle[k], MAX_PLAYERS))
        ids += turning_ids
        mask = self.swaps
        while mask:
            ids.append(SWAP_BASE + lowest_bit(mask))
            mask &= mask - 1
        ids += tail_ids
        return ids

    def holds(self, action: object) -> bool:
        if action is self.last_read:
            return action is not None  # the move the last read built
        if isinstance(action, Move):
            # a move is offered when its unit's origin, its destination and its payment
            # are; then MOVE_ROWS holds the very object offered
            row = move_row(action.unit, action.src)
            for packed in self.segments:
                if packed & _ROW_MASK == row:
                    return (
                        _has(self.pays, action.pay)
                        and 0 <= action.dst < NUM_LOCS
                        and has_bit(packed, SEGMENT_SHIFT + action.dst)
                        and MOVE_ROWS[row + action.pay][action.dst] is action
                    )
            return False
        if isinstance(action, Swap):
            edge = EDGE_INDEX.get((action.a, action.b), -1)
            return edge >= 0 and has_bit(self.swaps, edge) and SWAPS[edge] is action
        for candidate in self.head:
            if candidate is action:
                return True
        for candidate in self.middle:
            if candidate is action:
                return True
        for candidate in self.tail:  # noqa: SIM110  (as in GameState's scans)
            if candidate is action:
                return True
        return False


def _has(items: tuple[int, ...], item: int) -> bool:
    """``item in items``, compiled without the generic containment test."""
    for candidate in items:  # noqa: SIM110  (as in GameState's scans)
        if candidate == item:
            return True
    return False


def _nth_bit(mask: int, n: int) -> int:
    """The position of the set bit of ``mask`` that has ``n`` set bits below it."""
    while n:
        mask &= mask - 1
        n -= 1
    return lowest_bit(mask)
