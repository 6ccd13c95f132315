"""The compiled helpers that read a batch's memory their own way, against NumPy: a
64-bit word kept in two int32 fields (``_jit.word``, ``set_word``, the board's location
masks), a typed part of a byte buffer (``_jit.part``), and the board batch's buffer as
the compiled loops see it (``board_buffer.batch_views``) and as Python does
(``BoardBatch``'s attributes); the terrain swaps listed through edge masks against the
rule tested edge by edge."""

from __future__ import annotations

from typing import Any

import numpy as np

from koth.games.board.params import BoardParams
from koth.games.board.tables import DIFFICULT, EDGES, LIGHT, NORMAL, NUM_LOCS, NUM_TILES
from koth.vector._jit import jit, part, set_word, word
from koth.vector.board import BoardBatch, params_row
from koth.vector.board_buffer import PARTS, batch_views
from koth.vector.board_layout import F_LIGHT, F_NORMAL, F_OCC, F_TERRAIN, NUM_FIELDS, SWAP_BASE
from koth.vector.board_legal import swaps


@jit
def _read_word(a: Any, i: int, f: int) -> int:
    return int(word(a, i, f))


@jit
def _write_word(a: Any, i: int, f: int, x: int) -> None:
    set_word(a, i, f, x)


@jit
def _fill_part(buf: Any, offset: int, rows: int, cols: int) -> None:
    view = part(buf, offset, (rows, cols), np.int32)
    for r in range(rows):
        for c in range(cols):
            view[r, c] = r * 1000 + c


@jit
def _stamp_views(buf: Any, dims: Any) -> None:
    """The value 7 at the first entry of every part but the parameters and draws."""
    g, _, _, rng, action_rng, obs, final, mask, ids, count, movers, rewards, ended, taken = (
        batch_views(buf, dims)
    )
    g[0, 0] = 7
    rng[0] = 7
    action_rng[0] = 7
    obs[0, 0, 0] = 7
    final[0, 0, 0] = 7
    mask[0, 0] = True
    ids[0, 0] = 7
    count[0] = 7
    movers[0] = 7
    rewards[0, 0] = 7.0
    ended[0] = True
    taken[0] = 7


def test_a_word_is_the_int64_of_two_int32_fields() -> None:
    rows = np.zeros((3, 10), dtype=np.int32)
    values = [0, 1, (1 << 33) - 1, 1 << 32, -1, (1 << 62) + 12345]
    for x in values:
        _write_word(rows, 1, 4, x)
        assert rows[1].view(np.int64)[2] == x
        assert _read_word(rows, 1, 4) == x
    rows[2].view(np.int64)[4] = 0x1_2345_6789
    assert _read_word(rows, 2, 8) == 0x1_2345_6789
    assert rows[0].tolist() == [0] * 10 and rows[1, :4].tolist() == [0] * 4


def test_a_part_is_the_typed_view_of_the_buffer_at_its_offset() -> None:
    buf = np.zeros(4096, dtype=np.uint8)
    _fill_part(buf, 128, 5, 7)
    expected = np.arange(7)[None, :] + 1000 * np.arange(5)[:, None]
    assert (buf[128 : 128 + 5 * 7 * 4].view(np.int32).reshape(5, 7) == expected).all()
    assert not buf[:128].any() and not buf[128 + 5 * 7 * 4 :].any()


def test_the_batch_and_its_compiled_loops_see_the_same_parts() -> None:
    batch = BoardBatch(3, {"num_players": 3})
    # the parameters and draws as the compiled loops read them
    assert batch._params[0] == 3 and batch._draws.shape == (6, 3)
    _stamp_views(batch._buf, batch._dims)
    for name, dtype in PARTS:
        array = getattr(batch, name)
        assert array.dtype == dtype and array.base is not None, name
        if name not in ("_params", "_draws"):
            assert array.reshape(-1)[0] == np.array(7).astype(dtype), name
    assert batch.memory_bytes() == batch._buf.nbytes + 3 * 8 + 3


def _swaps_by_edge(terrain: list[int], fighters: int, blockers: int) -> list[int]:
    """B14, one edge at a time: a tile takes difficult terrain only where no fighter or
    blocker stands, anything but light terrain only where no blocker does."""
    standing = fighters | blockers
    found = []
    for e, (a, b) in enumerate(EDGES):
        ta, tb = terrain[a], terrain[b]
        if ta == tb:
            continue
        if (tb == DIFFICULT and standing >> a & 1) or (ta == DIFFICULT and standing >> b & 1):
            continue
        if (tb != LIGHT and blockers >> a & 1) or (ta != LIGHT and blockers >> b & 1):
            continue
        found.append(SWAP_BASE + e)
    return found


def test_the_swaps_edge_masks_agree_with_the_rule_edge_by_edge() -> None:
    """``board_legal.swaps`` tests the 49 edges at once through by-byte edge tables;
    on random terrains and placements (fighters and blockers on tiles, the center and
    the areas) it lists what the rule tested edge by edge lists."""
    rng = np.random.default_rng(5)
    g = np.zeros((1, NUM_FIELDS), dtype=np.int32)
    prm = params_row(BoardParams.parse({"num_players": 3}))
    out = np.zeros(64, dtype=np.int16)
    for _ in range(300):
        terrain = [int(x) for x in rng.integers(0, 3, NUM_TILES)]
        g[0, F_TERRAIN : F_TERRAIN + NUM_TILES] = terrain
        g[0, F_LIGHT] = sum(1 << x for x in range(NUM_TILES) if terrain[x] == LIGHT)
        g[0, F_NORMAL] = sum(1 << x for x in range(NUM_TILES) if terrain[x] == NORMAL)
        fighters = blockers = 0
        for q in range(3):
            f, b = (int(x) & ((1 << NUM_LOCS) - 1) for x in rng.integers(0, 1 << 62, 2))
            f &= int(rng.integers(0, 1 << 62))  # sparser sets too
            b &= int(rng.integers(0, 1 << 62)) & int(rng.integers(0, 1 << 62))
            _write_word(g, 0, F_OCC + 2 * (q * 3 + 1), f)
            _write_word(g, 0, F_OCC + 2 * (q * 3 + 2), b)
            fighters |= f
            blockers |= b
        count = swaps(g, prm, 0, out, 0)
        assert [int(x) for x in out[:count]] == _swaps_by_edge(terrain, fighters, blockers)
