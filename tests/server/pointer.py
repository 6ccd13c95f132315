"""Holding a button down in a browser test: the press without its release, so a test can
make something happen in between (a live state arriving mid-tap)."""

from __future__ import annotations

from typing import Any


def press(page: Any, selector: str) -> None:
    """Move the mouse to the middle of ``selector`` and press its button, not releasing it."""
    target = page.locator(selector)
    target.scroll_into_view_if_needed()
    box = target.bounding_box()
    assert box, selector
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
