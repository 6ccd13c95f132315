"""The batched board game's arrays as one buffer: every array a step reads or writes
(apart from the step's own actions, chance outcomes and active flags) is a typed part
of one byte array, so a step hands numba one array from Python where it handed
fourteen (numba converts each array argument of a compiled call, a fraction of a
microsecond each, before any game moves).

``sections`` places the parts (each at a multiple of 64 bytes, a cache line);
``BoardBatch`` builds its NumPy views on them (``views_of``) and the compiled loops
theirs (``batch_views``), in the order of ``PARTS``.
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np

from koth.vector._jit import jit, jit_inline, part
from koth.vector.board_layout import MAX_LEGAL, NUM_FIELDS, NUM_PARAMS, OBS_SIZE

Array = Any

#: the parts of the buffer, in order: (name, dtype); their shapes are ``shapes``
PARTS: Final = (
    ("_g", np.int32),  # the state rows (``board_layout.F_*``)
    ("_params", np.int64),  # the parameters (``P_*``)
    ("_draws", np.int64),  # ``board_layout.area_draws``
    ("_rng", np.uint64),  # chance's generators
    ("_action_rng", np.uint64),  # ``random_actions``'s generators
    ("observations", np.int32),
    ("final_observations", np.int32),
    ("legal_mask", np.bool_),
    ("_ids", np.int16),  # the legal lists
    ("_count", np.int64),  # their lengths
    ("to_move", np.int64),
    ("rewards", np.float32),
    ("terminated", np.bool_),
    ("chance_taken", np.int64),
)


def shapes(dims: tuple[int, int, int, int]) -> tuple[tuple[int, ...], ...]:
    """The shapes of ``PARTS`` for ``dims``: (games, players, action ids, area draws)."""
    n, players, actions, draws = dims
    obs = (n, players, OBS_SIZE)
    single = (n,)
    return (
        (n, NUM_FIELDS), (NUM_PARAMS,), (draws, players), single, single, obs, obs,
        (n, actions), (n, MAX_LEGAL), single, single, (n, players), single, single,
    )  # fmt: skip


@jit_inline
def _up(size: int) -> int:
    """``size`` (not negative) rounded up to a cache line."""
    return (size + 63) & -64


@jit
def sections(dims: Array) -> Any:
    """The byte offset of each part of ``PARTS`` in the buffer, then its size: the
    parts' sizes follow ``shapes``, each rounded up to 64 bytes."""
    n, players, actions, draws = dims
    o_prm = _up(n * NUM_FIELDS * 4)
    o_draws = o_prm + _up(NUM_PARAMS * 8)
    o_rng = o_draws + _up(draws * players * 8)
    o_action_rng = o_rng + _up(n * 8)
    o_obs = o_action_rng + _up(n * 8)
    o_final = o_obs + _up(n * players * OBS_SIZE * 4)
    o_mask = o_final + _up(n * players * OBS_SIZE * 4)
    o_ids = o_mask + _up(n * actions)
    o_count = o_ids + _up(n * MAX_LEGAL * 2)
    o_movers = o_count + _up(n * 8)
    o_rewards = o_movers + _up(n * 8)
    o_terminated = o_rewards + _up(n * players * 4)
    o_taken = o_terminated + _up(n)
    end = o_taken + _up(n * 8)
    return (
        0, o_prm, o_draws, o_rng, o_action_rng, o_obs, o_final, o_mask, o_ids, o_count,
        o_movers, o_rewards, o_terminated, o_taken, end,
    )  # fmt: skip


def views_of(buf: np.ndarray[Any, Any], dims: tuple[int, int, int, int]) -> dict[str, Any]:
    """``PARTS`` as NumPy views of ``buf`` (by name)."""
    at = sections(dims)
    assert buf.nbytes == at[-1]
    out: dict[str, Any] = {}
    for k, ((name, dtype), shape) in enumerate(zip(PARTS, shapes(dims), strict=True)):
        size = int(np.prod(shape)) * np.dtype(dtype).itemsize
        assert at[k] + size <= at[k + 1]
        out[name] = buf[at[k] : at[k] + size].view(dtype).reshape(shape)
    return out


@jit_inline
def batch_views(buf: Array, dims: Array) -> Any:
    """``PARTS`` as the compiled loops' views of ``buf``, in order (no copy)."""
    n, players, actions, draws = dims
    at = sections(dims)
    obs = (n, players, OBS_SIZE)
    return (
        part(buf, at[0], (n, NUM_FIELDS), np.int32),
        part(buf, at[1], (NUM_PARAMS,), np.int64),
        part(buf, at[2], (draws, players), np.int64),
        part(buf, at[3], (n,), np.uint64),
        part(buf, at[4], (n,), np.uint64),
        part(buf, at[5], obs, np.int32),
        part(buf, at[6], obs, np.int32),
        part(buf, at[7], (n, actions), np.bool_),
        part(buf, at[8], (n, MAX_LEGAL), np.int16),
        part(buf, at[9], (n,), np.int64),
        part(buf, at[10], (n,), np.int64),
        part(buf, at[11], (n, players), np.float32),
        part(buf, at[12], (n,), np.bool_),
        part(buf, at[13], (n,), np.int64),
    )


@jit_inline
def step_arrays(buf: Array, dims: Array, actions: Array, chance: Array, active: Array) -> Any:
    """A step's arrays in the order the step loops read them (``board_kernels``)."""
    g, prm, draws, rng, _, obs, final_obs, mask, ids, count, movers, rewards, terminated, taken = (
        batch_views(buf, dims)
    )
    return (
        g, prm, draws, rng, actions, chance, obs, mask, ids, count, movers, rewards,
        terminated, taken, final_obs, active,
    )  # fmt: skip
