"""Which build of koth is running: pure Python, or with the games' hot modules compiled.

The compiled build (mypyc, see docs/performance.md) runs the same source, compiled to C
extension modules: a compiled module's ``__file__`` is a shared library, not a ``.py``.
"""

from __future__ import annotations

import importlib

#: the modules the compiled build compiles (pyproject.toml lists the same files)
COMPILED_MODULES: tuple[str, ...] = (
    "koth.agents.heuristics.board",
    "koth.agents.heuristics.cards",
    "koth.agents.search",
    "koth.core.chance",
    "koth.core.frozen",
    "koth.core.offered",
    "koth.core.players",
    "koth.core.state",
    "koth.games.board.actions",
    "koth.games.board.tables",
    "koth.games.board.legal",
    "koth.games.board.offers",
    "koth.games.board.rules",
    "koth.games.board.state",
    "koth.games.cards.actions",
    "koth.games.cards.tables",
    "koth.games.cards.legal",
    "koth.games.cards.rules",
    "koth.games.cards.state",
    "koth.games.cards.engine",
)


def is_compiled(module_name: str) -> bool:
    """Whether ``module_name`` was imported from a compiled extension module."""
    module = importlib.import_module(module_name)
    return not str(getattr(module, "__file__", "") or "").endswith(".py")


def compiled_modules() -> list[str]:
    """The modules of ``COMPILED_MODULES`` that run compiled in this process."""
    return [name for name in COMPILED_MODULES if is_compiled(name)]


def build_kind() -> str:
    """``"compiled"``, ``"pure Python"`` or, for a broken mix, which modules are which."""
    compiled = compiled_modules()
    if not compiled:
        return "pure Python"
    if len(compiled) == len(COMPILED_MODULES):
        return "compiled with mypyc"
    return f"partly compiled with mypyc: {', '.join(compiled)}"
