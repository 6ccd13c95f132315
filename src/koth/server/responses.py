"""Response helpers shared by the features."""

from __future__ import annotations


def attachment(filename: str) -> dict[str, str]:
    """Headers that make a browser save the body as ``filename``."""
    return {"Content-Disposition": f'attachment; filename="{filename}"'}
