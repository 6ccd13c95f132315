"""The table as terminal text: the pyramid shaped as a pyramid, suits as symbols."""

from __future__ import annotations

import io
from typing import Any

from rich.console import Console
from rich.text import Text

from koth.core.players import seat_name
from koth.games.cards.tables import ROWS, SUIT_SYMBOLS, SUITS

_CELL = 11
_RED_SUITS = "hd"


def symbol(card: str) -> str:
    """``7h`` -> ``7♥`` (``JK`` stays)."""
    if len(card) == 2 and card[1] in SUITS:
        return card[0] + SUIT_SYMBOLS[SUITS.index(card[1])]
    return card


def _card_text(card: str) -> Text:
    style = "red" if card[-1:] in _RED_SUITS else ("magenta" if card == "JK" else "")
    return Text(symbol(card), style=style)


def _cards_text(cards: list[str]) -> Text:
    out = Text()
    for i, card in enumerate(cards):
        if i:
            out.append(" ")
        out.append_text(_card_text(card))
    return out if cards else Text("-", style="dim")


def _attack_text(notation: str) -> Text:
    if notation == "JK":
        return _card_text("JK")
    return _cards_text([notation[i : i + 2] for i in range(0, len(notation), 2)])


def _stack_cell(stack: dict[str, Any], choosing: bool) -> Text:
    """``[K 8♣ x1]`` for a stack that may be chosen now, `` K 8♣ x1 `` otherwise."""
    if stack["gone"]:
        return Text(f" {stack['name']}  --".ljust(_CELL), style="dim")
    available = choosing and stack["available"]
    cell = Text("[" if available else " ", style="bold cyan" if available else "")
    cell.append(stack["name"] + " ", style="bold cyan" if available else "bold")
    if stack["top"]:
        cell.append_text(_card_text(stack["top"]))
    else:
        cell.append("??" if stack["size"] else "()", style="dim")
    cell.append(f" x{stack['size']}", style="dim")
    cell.append("]" if available else " ", style="bold cyan")
    cell.pad_right(_CELL - len(cell.plain))
    return cell


def table_text(view: dict[str, Any]) -> Text:
    """Everything the viewer may see, as styled text."""
    out = Text()
    out.append(f"King of the Hill (cards) - phase: {view['phase']}", style="bold")
    viewer = view["viewer"]
    if viewer is not None:
        out.append(f"   you: {seat_name(viewer)}\n")
    elif view["phase"] == "over":  # the game is over: nothing is secret any more
        out.append("   every hand shown\n")
    else:
        out.append("   you: spectator\n")
    # only while a stack is being chosen do the brackets mean anything
    choosing = view["phase"] == "choose"
    width = len(ROWS[-1]) * _CELL
    for row in ROWS:
        line = Text(" " * ((width - len(row) * _CELL) // 2))
        for stack in row:
            line.append_text(_stack_cell(view["pyramid"][stack], choosing))
            line.append(" ")
        out.append_text(line)
        out.append("\n")
    out.append("[X] = may be chosen\n" if choosing else "\n", style="dim")
    for player, info in enumerate(view["players"]):
        hand = "?" if info["hand_count"] is None else info["hand_count"]
        reserve = "?" if info["reserve_count"] is None else info["reserve_count"]
        joker = f", Joker in {info['joker']}" if info["joker"] else ""
        out.append(f"{seat_name(player)}: {hand} in hand, {reserve} in reserve{joker}")
        if info["known_cards"] and player != viewer:
            out.append(" (known: ")
            out.append_text(_cards_text(info["known_cards"]))
            out.append(")")
        out.append("\n")
        if "hand" in info:
            whose = "your" if player == viewer else "its"
            out.append(f"  {whose} hand:    ")
            out.append_text(_cards_text(info["hand"]))
            out.append(f"\n  {whose} reserve: ")
            out.append_text(_cards_text(info["reserve"]))
            out.append("\n")
    out.append("discards: ")
    out.append_text(_cards_text(view["discards"]))
    out.append("\n")
    if view["stack"]:
        out.append(f"fighting for stack {view['stack']}", style="bold")
        for number, (first, second) in enumerate(view["rounds"], 1):
            out.append(f"\n  attack {number}: {seat_name(0)} ")
            out.append_text(_attack_text(first))
            out.append(f" vs {seat_name(1)} ")
            out.append_text(_attack_text(second))
            out.append("  - tie, break it from the reserves")
        out.append("\n")
    if view["log"]:
        out.append_text(_fight_text(view["log"][-1]))
    if view["assignment"]:
        a = view["assignment"]
        out.append(f"{seat_name(a['winner'])} assigns won cards: {a['remaining']} left")
        if "pending" in a:
            out.append("  (")
            out.append_text(_cards_text(a["pending"]))
            out.append(")")
        out.append("\n")
    return out


def _fight_text(fight: dict[str, Any]) -> Text:
    out = Text(f"last fight, stack {fight['stack']} (chosen by {seat_name(fight['chooser'])}):")
    for first, second in fight["rounds"]:
        out.append(" ")
        out.append_text(_attack_text(first))
        out.append(" vs ")
        out.append_text(_attack_text(second))
        out.append(";")
    if fight["discarded"]:
        out.append(" both Jokers: stack discarded\n")
    else:
        out.append(f" {seat_name(fight['winner'])} won {fight['size']} card(s)\n")
    return out


def render_text(view: dict[str, Any]) -> str:
    """Plain text (no colours) of ``table_text``."""
    console = Console(file=io.StringIO(), width=100, color_system=None, highlight=False)
    with console.capture() as capture:
        console.print(table_text(view))
    return capture.get()
