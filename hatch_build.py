"""The wheel's build hook: the games' hot modules compiled with mypyc where that works.

A wheel (``pip install koth-games``, ``pip install .``) is built compiled when a C
compiler and the Python headers are there, and pure Python otherwise, with a message
instead of a failed install; an editable install (``pip install -e .``, ``make
install``) always runs the sources being edited. ``KOTH_BUILD=pure`` asks for a pure
Python wheel. mypyc compiles in place, so the compiled modules it leaves next to the
sources are removed once the wheel holds them (they would shadow the sources).
docs/performance.md describes both builds.
"""

from __future__ import annotations

import os
import shutil
import sysconfig
from pathlib import Path
from typing import Any

from hatch_mypyc.plugin import MypycBuildHook


def missing_toolchain() -> str | None:
    """Why nothing can be compiled here (no C compiler, no Python headers), or None."""
    compiler = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler})"
    headers = Path(sysconfig.get_paths()["include"]) / "Python.h"
    if not headers.exists():
        return f"no Python headers ({headers})"
    return None


class KothBuildHook(MypycBuildHook):
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if version == "editable":
            return  # an editable checkout runs its sources
        if os.environ.get("KOTH_BUILD", "").lower() == "pure":
            self.app.display_info("koth: pure Python build (KOTH_BUILD=pure)")
            return
        reason = missing_toolchain()
        if reason is not None:
            self.app.display_warning(f"koth: pure Python build: {reason}")
            return
        try:
            super().initialize(version, build_data)
        except Exception as exc:  # a failed compilation leaves the pure Python build
            self.clean([version])
            first_line = str(exc).strip().splitlines()[:2]
            self.app.display_warning(f"koth: pure Python build: mypyc failed: {first_line}")

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        if version != "editable":
            self.clean([version])


def get_build_hook() -> type[KothBuildHook]:
    """The hook hatchling loads (the module imports mypyc's too)."""
    return KothBuildHook
