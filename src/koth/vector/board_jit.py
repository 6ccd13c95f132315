"""Compiled helpers of the batched board game alone (numba; its loops are compiled by
``_jit.jit`` and its kin, as the card game's): a prefetch hint for the batch's loops
and the access to the location masks of a state row.
"""

from __future__ import annotations

from typing import Any

from llvmlite import ir
from numba.core import cgutils as _cgutils
from numba.core import types
from numba.extending import intrinsic

from koth.vector._jit import jit_inline, set_word, word
from koth.vector.board_layout import F_CHANGED, F_OCC

#: numba's code-generation helpers (untyped: read as ``Any``)
cgutils: Any = _cgutils


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


@jit_inline
def occupied(g: Any, i: int, q: int, t: int) -> int:
    """Player ``q``'s locations holding units of type ``t`` in game ``i``: a mask over
    the 33 locations (``BoardState.occupied``), the word ``q * 3 + t`` from
    ``F_OCC``."""
    return int(word(g, i, F_OCC + 2 * (q * 3 + t)))


@jit_inline
def set_occupied(g: Any, i: int, q: int, t: int, mask: int) -> None:
    """``occupied(g, i, q, t)`` set to ``mask``."""
    set_word(g, i, F_OCC + 2 * (q * 3 + t), mask)


@jit_inline
def mark_changed(g: Any, i: int, locs: int) -> None:
    """The locations of mask ``locs`` added to game ``i``'s ``F_CHANGED`` (their unit
    counts changed)."""
    set_word(g, i, F_CHANGED, word(g, i, F_CHANGED) | locs)
