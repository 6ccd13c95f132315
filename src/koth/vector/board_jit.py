"""How the batched board game is compiled (numba): the decorators of its loops, a
prefetch hint for the batch's loops and the access to the location masks of a state
row.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, TypeVar, cast

import numba
from llvmlite import ir
from numba.core import cgutils as _cgutils
from numba.core import types
from numba.extending import intrinsic

from koth.vector._jit import set_word, word
from koth.vector.board_layout import F_CHANGED, F_OCC

#: numba's code-generation helpers (untyped: read as ``Any``)
cgutils: Any = _cgutils

F = TypeVar("F", bound=Callable[..., Any])
#: numba's options for every board kernel (``_nrt`` is not in numba's typed signature)
_KERNEL: Final[dict[str, Any]] = {"cache": True, "nogil": True, "_nrt": False}


def kernel(fn: F) -> F:
    """``fn`` compiled by numba (cached on disk) without numba's reference counting
    (``_nrt=False``). With it, every array a compiled function hands to another (the
    game rows to each small rule, a view of one observation) was counted up and down
    by two atomic instructions, and those took half of a step's time. The board's
    loops allocate no array (the lists and masks are built in the batch's own rows
    and in bit masks), which is what a function compiled without it may not do:
    numba refuses to compile one that does."""
    return cast(F, numba.njit(**_KERNEL)(fn))


def kernel_parallel(fn: F) -> F:
    """``kernel`` with its ``numba.prange`` loops run by one worker per core."""
    return cast(F, numba.njit(parallel=True, **_KERNEL)(fn))


def kernel_inline(fn: F) -> F:
    """``kernel`` compiled into its callers (numba's IR inlining): the batch's loops
    call it once a game, and a call that hands over the batch's arrays as one tuple
    cost about 2.5 us a game, more than half of a step."""
    return cast(F, numba.njit(inline="always", **_KERNEL)(fn))


def _prefetch_typer(typingctx: Any, array: Any, index: Any) -> Any:
    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        array_type = signature.args[0]
        view = context.make_array(array_type)(context, builder, args[0])
        indices = [
            context.cast(builder, value, kind, types.intp)
            for value, kind in zip(
                cgutils.unpack_tuple(builder, args[1]), signature.args[1].types, strict=True
            )
        ]
        pointer = cgutils.get_item_pointer(
            context, builder, array_type, view, indices, wraparound=False
        )
        byte = ir.IntType(8).as_pointer()
        word = ir.IntType(32)
        hint = ir.FunctionType(ir.VoidType(), [byte, word, word, word])
        fetch = cgutils.get_or_insert_function(builder.module, hint, "llvm.prefetch.p0")
        # a write (1), kept in every cache level (3), of data (1)
        flags = [ir.Constant(word, 1), ir.Constant(word, 3), ir.Constant(word, 1)]
        builder.call(fetch, [builder.bitcast(pointer, byte), *flags])
        return context.get_dummy_value()

    return types.none(array, index), codegen


#: ``prefetch(array, (i, j, ...))``: ask the processor to bring the cache line holding
#: ``array[i, j, ...]`` (LLVM's ``llvm.prefetch``, one instruction, never a fault; from
#: compiled code only). The batch's loops ask for the next games' rows while they step
#: one: a batch of thousands of games leaves the caches, and a game waited for each of
#: its rows' lines in turn.
prefetch: Any = intrinsic(_prefetch_typer)


@kernel_inline
def occupied(g: Any, i: int, q: int, t: int) -> int:
    """Player ``q``'s locations holding units of type ``t`` in game ``i``: a mask over
    the 33 locations (``BoardState.occupied``), the word ``q * 3 + t`` from
    ``F_OCC``."""
    return int(word(g, i, F_OCC + 2 * (q * 3 + t)))


@kernel_inline
def set_occupied(g: Any, i: int, q: int, t: int, mask: int) -> None:
    """``occupied(g, i, q, t)`` set to ``mask``."""
    set_word(g, i, F_OCC + 2 * (q * 3 + t), mask)


@kernel_inline
def mark_changed(g: Any, i: int, locs: int) -> None:
    """The locations of mask ``locs`` added to game ``i``'s ``F_CHANGED`` (their unit
    counts changed)."""
    set_word(g, i, F_CHANGED, word(g, i, F_CHANGED) | locs)
