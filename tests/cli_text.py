"""Reading what a command printed as a person reads it: error boxes and lines wrapped at
the terminal's width joined back into plain words."""

from __future__ import annotations

BOX = "│╭╮╰╯─"


def plain(output: str) -> str:
    """``output`` without box borders, every run of whitespace one space."""
    for char in BOX:
        output = output.replace(char, " ")
    return " ".join(output.split())
