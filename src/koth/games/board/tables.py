"""Board geometry, terrain and unit constants, precomputed as tables for speed.

Locations are small integers: the 28 ring tiles ``(ring - 1) * 7 + index`` (ring 1 is
the outermost), then the center (28), then the four starting areas (29..32 for areas
1..4). Indices are positions in a fixed frame: rotating a ring moves tile contents
between positions, never the positions themselves, so the neighbour tables never change.
"""

from __future__ import annotations

from functools import reduce
from itertools import combinations_with_replacement, permutations
from operator import or_
from typing import Final

RING_SIZE: Final = 7
NUM_RINGS: Final = 4
NUM_TILES: Final = 28
CENTER: Final = 28
NUM_AREAS: Final = 4
NUM_LOCS: Final = 33
#: entries of ``BoardState.units`` per player: a count per location and unit type
STRIDE: Final = NUM_LOCS * 3
UNLIMITED: Final = 1_000_000

RUNNER: Final = 0
FIGHTER: Final = 1
BLOCKER: Final = 2
UNIT_TYPES: Final = (RUNNER, FIGHTER, BLOCKER)
UNIT_NAMES: Final = ("runner", "fighter", "blocker")
UNIT_LETTERS: Final = ("R", "F", "B")
UNITS_PER_PLAYER: Final = (2, 5, 2)
TOTAL_UNITS: Final = sum(UNITS_PER_PLAYER)

LIGHT: Final = 0
NORMAL: Final = 1
DIFFICULT: Final = 2
TERRAIN_LETTERS: Final = ("L", "N", "D")
TERRAIN_NAMES: Final = ("light", "normal", "difficult")
RING_TERRAIN: Final = (LIGHT, LIGHT, LIGHT, NORMAL, NORMAL, DIFFICULT, DIFFICULT)
#: bit t of ALLOWED_TERRAIN[unit] is set when the unit may stand on terrain t
ALLOWED_TERRAIN: Final = (0b111, 0b011, 0b001)

#: dice categories: faces 1-2 recruit, 3-4 move and fight, 5-6 turn
RECRUIT_DIE: Final = 0
MOVE_DIE: Final = 1
TURN_DIE: Final = 2
DIE_NAMES: Final = ("recruit", "move", "turn")


def die_category(face: int) -> int:
    return (face - 1) // 2


def tile_loc(ring: int, index: int) -> int:
    return (ring - 1) * RING_SIZE + index


def area_loc(area: int) -> int:
    return CENTER + area


def is_area(loc: int) -> bool:
    return loc > CENTER


def ring_of(loc: int) -> int:
    """1..4 for ring tiles, 5 for the center, 0 for starting areas."""
    if loc < NUM_TILES:
        return loc // RING_SIZE + 1
    return 5 if loc == CENTER else 0


def index_of(loc: int) -> int:
    return loc % RING_SIZE


def _static_neighbours(loc: int) -> tuple[int, ...]:
    if loc == CENTER:
        return tuple(tile_loc(4, i) for i in range(RING_SIZE))
    if loc > CENTER:
        return ()  # an area's neighbour depends on where it is attached
    ring, index = ring_of(loc), index_of(loc)
    result = [tile_loc(ring, (index - 1) % RING_SIZE), tile_loc(ring, (index + 1) % RING_SIZE)]
    if ring > 1:
        result.append(tile_loc(ring - 1, index))
    result.append(tile_loc(ring + 1, index) if ring < NUM_RINGS else CENTER)
    return tuple(sorted(result))


NEIGHBOURS: Final[tuple[tuple[int, ...], ...]] = tuple(
    _static_neighbours(loc) for loc in range(NUM_LOCS)
)

STACK_LIMIT: Final[tuple[int, ...]] = tuple(
    (5, 4, 3, 2)[loc // RING_SIZE] if loc < NUM_TILES else (1 if loc == CENTER else UNLIMITED)
    for loc in range(NUM_LOCS)
)

#: the tile a runner is pushed to from ring 2..4 (one ring outward, same index); -1 where
#: the push goes back to the blocker's origin instead (ring 1 and the center)
OUTWARD: Final[tuple[int, ...]] = tuple(
    loc - RING_SIZE if RING_SIZE <= loc < NUM_TILES else -1 for loc in range(NUM_LOCS)
)

#: locations from which a fighter can join an assault on target tile d (tiles and center):
#: its static neighbours, then for ring-1 tiles the four areas that might be attached
ORIGIN_SLOTS: Final[tuple[tuple[int, ...], ...]] = tuple(
    NEIGHBOURS[d] + (tuple(area_loc(a) for a in range(1, 5)) if d < RING_SIZE else ())
    for d in range(CENTER + 1)
)
ORIGIN_SLOT_INDEX: Final[tuple[dict[int, int], ...]] = tuple(
    {loc: k for k, loc in enumerate(slots)} for slots in ORIGIN_SLOTS
)
MAX_SLOTS: Final = max(len(s) for s in ORIGIN_SLOTS)

#: neighbouring ring-tile pairs (a < b) whose terrain may be swapped
EDGES: Final[tuple[tuple[int, int], ...]] = tuple(
    sorted(
        {(min(a, b), max(a, b)) for a in range(NUM_TILES) for b in NEIGHBOURS[a] if b < NUM_TILES}
    )
)
EDGE_INDEX: Final[dict[tuple[int, int], int]] = {edge: k for k, edge in enumerate(EDGES)}

#: every distinct terrain order of one ring (3 light, 2 normal, 2 difficult): 210
ARRANGEMENTS: Final[tuple[tuple[int, ...], ...]] = tuple(sorted(set(permutations(RING_TERRAIN))))
ARRANGEMENT_INDEX: Final[dict[tuple[int, ...], int]] = {a: k for k, a in enumerate(ARRANGEMENTS)}

LOC_NAMES: Final[tuple[str, ...]] = (
    *tuple(f"{loc // RING_SIZE + 1}.{loc % RING_SIZE}" for loc in range(NUM_TILES)),
    "C",
    *tuple(f"A{a}" for a in range(1, NUM_AREAS + 1)),
)
LOC_BY_NAME: Final[dict[str, int]] = {name.lower(): loc for loc, name in enumerate(LOC_NAMES)}


def loc_name(loc: int) -> str:
    return LOC_NAMES[loc]


# ---- the bit idioms: a set of locations (or edges, tiles, players) is an int whose bit
# ``i`` is set when ``i`` is in the set. Each idiom has one named helper here, used
# wherever the rules need it (docs/board_engine.md); compiled, a call of one is a
# native call.


def has_bit(mask: int, i: int) -> bool:
    """Whether ``i`` is in the set ``mask``."""
    return mask >> i & 1 == 1


def lowest_bit(mask: int) -> int:
    """The smallest member of the non-empty set ``mask``. The loop over a set, lowest
    first, that builds no list: ``while mask: i = lowest_bit(mask); mask &= mask - 1``."""
    return (mask & -mask).bit_length() - 1


def without_bit(mask: int, i: int) -> int:
    """The set ``mask`` without ``i``."""
    return mask & ~(1 << i)


# ---- location sets as bit masks (bit ``loc`` set), for the movement search
#: ring tiles and the center: the locations a search passes through
PLAYFIELD: Final = (1 << (CENTER + 1)) - 1
#: per tile (and the center): the mask of its static neighbours (B1)
NEIGHBOUR_MASKS: Final = tuple(sum(1 << nb for nb in NEIGHBOURS[loc]) for loc in range(CENTER + 1))


def _by_byte(masks: tuple[int, ...]) -> tuple[int, ...]:
    """A table that ORs ``masks[i]`` over the set bits ``i`` of a 29-bit mask with four
    lookups: entry ``256 * k + b`` is the union for the bits ``b`` of byte ``k``."""
    return tuple(
        reduce(
            or_, (masks[8 * k + i] for i in range(8) if has_bit(b, i) and 8 * k + i < len(masks)), 0
        )
        for k in range(4)
        for b in range(256)
    )


#: NEIGHBOURS_BY_BYTE[256 * k + b]: the neighbours of the locations of bits b of byte k
NEIGHBOURS_BY_BYTE: Final = _by_byte(NEIGHBOUR_MASKS)
#: LOCS_BY_BYTE[k][b]: the locations of the set bits b of byte k, in increasing order
LOCS_BY_BYTE: Final[tuple[tuple[tuple[int, ...], ...], ...]] = tuple(
    tuple(tuple(8 * k + i for i in range(8) if has_bit(b, i)) for b in range(256)) for k in range(7)
)
ALL_EDGES: Final = (1 << len(EDGES)) - 1
#: EDGES_FROM_BYTE / EDGES_TO_BYTE[256 * k + b]: the edges (bit = index in EDGES) whose
#: first (a) / second (b) tile is among the tiles of bits b of byte k
#: EDGES_FROM_TILE / EDGES_TO_TILE[t]: the edges whose first (a) / second (b) tile is t
EDGES_FROM_TILE: Final = tuple(
    reduce(or_, (1 << e for e, (a, _) in enumerate(EDGES) if a == t), 0) for t in range(NUM_TILES)
)
EDGES_TO_TILE: Final = tuple(
    reduce(or_, (1 << e for e, (_, z) in enumerate(EDGES) if z == t), 0) for t in range(NUM_TILES)
)
#: EDGES_AT_TILE[t]: the indices of the edges with an end at t
EDGES_AT_TILE: Final = tuple(
    tuple(e for e, edge in enumerate(EDGES) if t in edge) for t in range(NUM_TILES)
)
EDGES_FROM_BYTE: Final = _by_byte(EDGES_FROM_TILE)
EDGES_TO_BYTE: Final = _by_byte(EDGES_TO_TILE)


def union_by_byte(table: tuple[int, ...], mask: int) -> int:
    """The union of a ``_by_byte`` table's entries over the set bits of ``mask``: the
    by-byte union, four lookups instead of a loop over the members (the idiom behind
    ``neighbours_of``, ``edges_from`` and ``edges_to``)."""
    return (
        table[mask & 255]
        | table[256 + (mask >> 8 & 255)]
        | table[512 + (mask >> 16 & 255)]
        | table[768 + (mask >> 24 & 255)]
    )


def neighbours_of(locs: int) -> int:
    """The locations next to any of ``locs`` (tiles and the center; B1)."""
    return union_by_byte(NEIGHBOURS_BY_BYTE, locs)


def edges_from(tiles: int) -> int:
    """The edges whose first tile is in ``tiles``."""
    return union_by_byte(EDGES_FROM_BYTE, tiles)


def edges_to(tiles: int) -> int:
    """The edges whose second tile is in ``tiles``."""
    return union_by_byte(EDGES_TO_BYTE, tiles)


def _balls() -> tuple[tuple[int, ...], ...]:
    """``[r][loc]``: the tiles and center within r steps of ``loc`` (itself excluded)."""
    result = []
    for radius in range(4):
        row = []
        for loc in range(CENTER + 1):
            ball = frontier = 1 << loc
            for _ in range(radius):
                frontier = neighbours_of(frontier)
                ball |= frontier
            row.append(without_bit(ball, loc))
        result.append(tuple(row))
    return tuple(result)


BALLS: Final = _balls()
#: _search results by its arguments (a search depends on nothing else), packed into one
#: int key (``reach_key``): an int hashes and compares faster than a tuple
REACH: Final[dict[int, tuple[int, int]]] = {}
REACH_LIMIT: Final = 100_000


def reach_key(reach: int, src: int, stop: int) -> int:
    """The ``REACH`` key of a search (reach < 8, src < 64). Runner ranges go up to 4
    (B9), so the reach takes three bits: with two, a reach of 4 ran into the source's
    lowest bit and a runner on an even tile was given the moves of the next tile's."""
    return (stop << 6 | src) << 3 | reach


def search_reach(reach: int, src: int, stop: int) -> tuple[int, int]:
    """Breadth-first from the tile (or center) ``src``, ``reach`` steps over tiles and
    the center, never through those in ``stop``: (the locations seen, src excluded;
    those passed, from which the search went on). Remembered in ``REACH``."""
    visited = frontier = 1 << src
    passed = 0
    for _ in range(reach):
        if not frontier:
            break
        passed |= frontier
        new = neighbours_of(frontier) & ~visited
        visited |= new
        frontier = new & ~stop
    if len(REACH) >= REACH_LIMIT:
        REACH.clear()
    found = REACH[reach_key(reach, src, stop)] = (without_bit(visited, src), passed)
    return found


def locs_of(mask: int) -> list[int]:
    """The set bits of a mask (below 56: locations, edges), in increasing order."""
    out: list[int] = []
    k = 0
    while mask:
        out += LOCS_BY_BYTE[k][mask & 255]
        mask >>= 8
        k += 1
    return out


# ---------------------------------------------------------------- dice pools
# A pool is a seat's unused dice this round: a sorted tuple of at most four faces (1-6).
# Adding a rolled face and paying a die are table lookups by ``pool_code``: every roll and
# every paid action does one, and slicing and concatenating tuples cost three objects.


def pool_code(pool: tuple[int, ...]) -> int:
    """A sorted pool as one int: its faces as base-7 digits (all pools below 7**4)."""
    code = 0
    for face in pool:
        code = code * 7 + face
    return code


def _inserted(pool: tuple[int, ...], face: int) -> tuple[int, ...]:
    return tuple(sorted((*pool, face)))


def _removed(pool: tuple[int, ...], category: int) -> tuple[int, ...] | None:
    """``pool`` less its lowest face of ``category`` (faces 1-2: recruit, 3-4: move,
    5-6: turn; the two faces of a category are alike), or None without one."""
    for k, face in enumerate(pool):
        if (face - 1) // 2 == category:
            return pool[:k] + pool[k + 1 :]
    return None


#: every pool: sorted faces, at most four
POOLS: Final = tuple(
    pool for size in range(5) for pool in combinations_with_replacement(range(1, 7), size)
)
_POOL_CODES: Final = 7**4


def _with_face_table() -> tuple[tuple[int, ...], ...]:
    table: list[tuple[int, ...]] = [()] * (_POOL_CODES * 7)
    for pool in POOLS:
        if len(pool) < 4:
            for face in range(1, 7):
                table[pool_code(pool) * 7 + face] = _inserted(pool, face)
    return tuple(table)


def _without_table() -> tuple[tuple[int, ...] | None, ...]:
    table: list[tuple[int, ...] | None] = [None] * (_POOL_CODES * 3)
    for pool in POOLS:
        for category in range(3):
            table[pool_code(pool) * 3 + category] = _removed(pool, category)
    return tuple(table)


#: ``[pool_code(pool) * 7 + face]``: the pool (of at most three faces) with ``face`` added
POOL_WITH_FACE: Final = _with_face_table()
#: ``[pool_code(pool) * 3 + category]``: the pool less its lowest die of the category
POOL_WITHOUT: Final = _without_table()


def with_face(pool: tuple[int, ...], face: int) -> tuple[int, ...]:
    """The sorted ``pool`` (at most three faces) with the rolled ``face`` added."""
    return POOL_WITH_FACE[pool_code(pool) * 7 + face]


def without_die(pool: tuple[int, ...], category: int) -> tuple[int, ...]:
    """``pool`` less its lowest face of ``category`` (faces of one category are alike)."""
    rest = POOL_WITHOUT[pool_code(pool) * 3 + category]
    if rest is None:
        raise ValueError(f"no die of category {category} in {pool}")
    return rest
