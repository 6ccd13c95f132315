"""Response helpers shared by the features."""

from __future__ import annotations

import re

#: what a download's file name keeps (a header must stay plain ASCII)
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]")


def attachment(filename: str) -> dict[str, str]:
    """Headers that make a browser save the body as ``filename`` (made safe)."""
    return {"Content-Disposition": f'attachment; filename="{_UNSAFE.sub("_", filename)}"'}
