"""Which build of koth is running: pure Python, or with the games' hot modules compiled.

The compiled build (mypyc, see docs/performance.md) runs the same source, compiled to C
extension modules: a compiled module's ``__file__`` is a shared library, not a ``.py``.
"""

from __future__ import annotations

import importlib
import os
import sys
from typing import TextIO

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


#: how a checkout gets the compiled build in one command (docs/performance.md)
COMPILED_BUILD_COMMAND = "pip install '.[sim]'"

_noticed: list[bool] = []


def pure_build_notice() -> str | None:
    """What to tell someone who simulates with the pure build (None in the compiled
    build)."""
    if compiled_modules():
        return None
    return (
        "koth runs its pure Python build here (an editable checkout): simulations and "
        f"benchmarks run 2 to 4 times faster compiled. Run `{COMPILED_BUILD_COMMAND}` in "
        "the checkout to install the compiled build (docs/performance.md)."
    )


def notice_pure_build(stream: TextIO | None = None) -> bool:
    """Tell the user once per process, on ``stream`` (standard error), that the pure
    build runs and how to get the compiled one; only where ``stream`` is a terminal,
    unless ``KOTH_BUILD_NOTICE=1`` (``0`` silences it). Whether it was told now."""
    out = sys.stderr if stream is None else stream
    wanted = os.environ.get("KOTH_BUILD_NOTICE", "")
    if _noticed or wanted == "0" or (wanted != "1" and not out.isatty()):
        return False
    message = pure_build_notice()
    if message is None:
        return False
    _noticed.append(True)
    print(message, file=out)
    return True
