"""The compiler of the batched engines (numba) and the bit helpers its loops share.

Every kernel is compiled once per machine and kept in numba's cache beside the source
(``cache=True``), so a second process starts in well under a second.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, TypeVar, cast

import numba
import numpy as np
from llvmlite import ir
from numba.core import cgutils as _cgutils
from numba.core import types
from numba.extending import intrinsic
from numba.np import arrayobj as _arrayobj

#: numba's code-generation helpers (untyped: read as ``Any``)
cgutils: Any = _cgutils
#: numba's array helpers (untyped: read as ``Any``)
arrayobj: Any = _arrayobj

F = TypeVar("F", bound=Callable[..., Any])

#: numba's options for every compiled function of the batched engines: compiled once
#: per machine and kept on disk (``cache``), run without the GIL (``nogil``), and
#: without numba's reference counting (``_nrt=False``; not in numba's typed signature).
#: With the counting, every array a compiled function hands to another (a game's
#: arrays to each small rule, a view of one observation or legal list) counted its
#: owner up and down by two atomic instructions: half of all samples in a profile of
#: either engine's step. Without it nothing is counted, which holds because the
#: arrays a kernel sees are the batch's, kept alive by the Python call that hands them
#: in, and no kernel allocates, returns or keeps an array (numba refuses to compile a
#: function that allocates one without the counting: the lists and masks are written
#: into the batch's own rows and into bit masks).
_OPTIONS: Final[dict[str, Any]] = {"cache": True, "nogil": True, "_nrt": False}


def jit(fn: F) -> F:
    """``fn`` compiled by numba (``_OPTIONS``: no Python objects inside, cached on
    disk, no reference counting)."""
    return cast(F, numba.njit(**_OPTIONS)(fn))


def jit_inline(fn: F) -> F:
    """``jit``, compiled into the body of each compiled caller (numba's IR inlining),
    for the small functions a step calls once a game: a call that hands over the
    batch's arrays (one tuple) cost more than such a function's work."""
    return cast(F, numba.njit(inline="always", **_OPTIONS)(fn))


def jit_parallel(fn: F) -> F:
    """``jit`` with its ``numba.prange`` loops run by one worker per core."""
    return cast(F, numba.njit(parallel=True, **_OPTIONS)(fn))


prange = numba.prange


def _ctpop_typer(typingctx: Any, x: Any) -> Any:
    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.ctpop(args[0])

    return types.int64(types.int64), codegen


def _cttz_typer(typingctx: Any, x: Any) -> Any:
    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return types.int64(types.int64), codegen


def _put8_typer(typingctx: Any, array: Any, offset: Any, value: Any) -> Any:
    if not (isinstance(array, types.Array) and array.dtype == types.uint8 and array.layout == "C"):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        data = context.make_array(signature.args[0])(context, builder, value=args[0]).data
        target = builder.bitcast(builder.gep(data, [args[1]]), ir.IntType(64).as_pointer())
        builder.store(args[2], target, align=1)
        return context.get_dummy_value()

    return types.void(array, types.int64, types.int64), codegen


def _part_typer(typingctx: Any, buf: Any, offset: Any, shape: Any, dtype: Any) -> Any:
    if not (
        isinstance(buf, types.Array)
        and buf.dtype == types.uint8
        and buf.layout == "C"
        and isinstance(offset, types.Integer)
        and isinstance(shape, types.UniTuple)
        and isinstance(shape.dtype, types.Integer)
        and isinstance(dtype, types.NumberClass)
    ):
        return None
    result = types.Array(dtype.instance_type, shape.count, "C")

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        source = context.make_array(signature.args[0])(context, builder, value=args[0])
        view = context.make_array(result)(context, builder)
        intp = context.get_value_type(types.intp)
        itemsize = context.get_abi_sizeof(context.get_data_type(result.dtype))
        dims = [
            context.cast(builder, value, shape.dtype, types.intp)
            for value in cgutils.unpack_tuple(builder, args[2])
        ]
        strides = [ir.Constant(intp, itemsize)]
        for size in reversed(dims[1:]):
            strides.insert(0, builder.mul(strides[0], size))
        start = context.cast(builder, args[1], signature.args[1], types.intp)
        data = builder.bitcast(builder.gep(source.data, [start]), view.data.type)
        arrayobj.populate_array(
            view, data=data, shape=dims, strides=strides, itemsize=itemsize, meminfo=None
        )
        return view._getvalue()

    return result(buf, offset, shape, dtype), codegen


def _word_pointer(context: Any, builder: Any, signature: Any, args: Any) -> Any:
    """The address of ``array[row, field]`` as a pointer to 64 bits."""
    array_type = signature.args[0]
    view = context.make_array(array_type)(context, builder, value=args[0])
    indices = [
        context.cast(builder, value, kind, types.intp)
        for value, kind in zip(args[1:3], signature.args[1:3], strict=True)
    ]
    pointer = cgutils.get_item_pointer(
        context, builder, array_type, view, indices, wraparound=False
    )
    return builder.bitcast(pointer, ir.IntType(64).as_pointer())


def _is_row_array(array: Any, row: Any, field: Any) -> bool:
    return (
        isinstance(array, types.Array)
        and array.ndim == 2
        and array.layout == "C"
        and isinstance(row, types.Integer)
        and isinstance(field, types.Integer)
    )


def _word_typer(typingctx: Any, array: Any, row: Any, field: Any) -> Any:
    if not _is_row_array(array, row, field):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.load(_word_pointer(context, builder, signature, args), align=8)

    return types.int64(array, row, field), codegen


def _set_word_typer(typingctx: Any, array: Any, row: Any, field: Any, value: Any) -> Any:
    if not (_is_row_array(array, row, field) and isinstance(value, types.Integer)):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        word = context.cast(builder, args[3], signature.args[3], types.int64)
        builder.store(word, _word_pointer(context, builder, signature, args), align=8)
        return context.get_dummy_value()

    return types.void(array, row, field, value), codegen


# LLVM's own instructions, called from compiled code only
_ctpop: Any = intrinsic(_ctpop_typer)
_cttz: Any = intrinsic(_cttz_typer)
#: ``put8(a, offset, x)``: the eight bytes of ``x`` (little-endian) written at byte
#: ``offset`` of the C-contiguous uint8 array ``a`` (flat, not checked), in one store
#: where eight byte stores took eight shifts and stores
put8: Any = intrinsic(_put8_typer)
#: ``word(a, i, f)``: the 64-bit integer held by the eight bytes from ``a[i, f]`` on, in
#: a C-contiguous 2-D array of a narrower type (not checked: ``f`` and the next
#: fields up to eight bytes must lie in row ``i``, at an address that is a multiple
#: of 8); ``set_word(a, i, f, x)`` writes it. A row of int32 fields keeps its 64-bit
#: bit masks this way, two fields each.
word: Any = intrinsic(_word_typer)
set_word: Any = intrinsic(_set_word_typer)
#: ``part(buf, offset, shape, dtype)``: the C-contiguous array of ``dtype`` (a NumPy
#: scalar type) and ``shape`` whose data start at byte ``offset`` of the C-contiguous
#: uint8 array ``buf``, without an owner (nothing to count), its place not checked. It
#: builds the array's shape and strides and nothing else, where ``buf[a:b].view(t)
#: .reshape(shape)`` checked the sizes and called numba's reshape helper (out of line)
#: for each array: a batch's loops make a dozen at each call.
part: Any = intrinsic(_part_typer)


@jit
def popcount(x: int) -> int:
    """The number of set bits of a mask (one machine instruction)."""
    return int(_ctpop(x))


@jit
def lowest_bit(x: int) -> int:
    """The index of the lowest set bit of ``x`` (x > 0; one machine instruction)."""
    return int(_cttz(x))


@jit
def nth_bit(x: int, n: int) -> int:
    """The index of the ``n``-th lowest set bit of ``x`` (counted from 0)."""
    for _ in range(n):
        x &= x - 1
    return lowest_bit(x)


_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S32 = np.uint64(32)


@jit
def next_random(rng: Any, i: int) -> Any:
    """The next 64 random bits of game ``i``'s generator (splitmix64 over ``rng[i]``)."""
    z = rng[i] + _GOLDEN
    rng[i] = z
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@jit
def below(rng: Any, i: int, n: int) -> int:
    """A uniform draw from ``0..n-1`` by game ``i``'s generator (multiply-shift)."""
    return int(((next_random(rng, i) >> _S32) * np.uint64(n)) >> _S32)


def seed_streams(seed: int, count: int, purpose: int = 0) -> np.ndarray[Any, np.dtype[np.uint64]]:
    """The generator states of ``count`` games from one seed: game ``i``'s state is a
    hash of ``(seed, i)`` alone (splitmix64's output function), so a batch of any size
    replays game ``i``, and the streams start at unrelated places of the cycle.
    ``purpose`` tells apart the streams of one seed (chance, the random actions)."""
    base = np.random.SeedSequence([seed, purpose]).generate_state(1, dtype=np.uint64)[0]
    with np.errstate(over="ignore"):
        z = base + (np.arange(count, dtype=np.uint64) + np.uint64(1)) * _GOLDEN
        z = (z ^ (z >> _S30)) * _MIX1
        z = (z ^ (z >> _S27)) * _MIX2
        return np.asarray(z ^ (z >> _S31), dtype=np.uint64)
