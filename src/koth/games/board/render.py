"""The board drawn for a terminal with Rich: one row per ring, then center, areas, dice."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from koth.core.players import PlayerId
from koth.games.board.observe import unit_code
from koth.games.board.state import BoardState, Phase
from koth.games.board.tables import CENTER, RING_SIZE, TERRAIN_LETTERS, die_category, tile_loc

if TYPE_CHECKING:
    from koth.games.board.game import BoardGame

PLAYER_STYLES = ("bold red", "bold blue", "bold green", "bold magenta")
TERRAIN_STYLES = ("white", "yellow", "dim")
DIE_MARKS = ("r", "m", "t")


def _units_text(state: BoardState, loc: int, n: int) -> Text:
    text = Text()
    for q in range(n):
        code = unit_code(state, q, loc)
        if code:
            if text:
                text.append(" ")
            text.append(f"P{q}:{code}", style=PLAYER_STYLES[q])
    return text


def board_renderable(game: BoardGame, state: BoardState, viewer: PlayerId | None) -> RenderableType:
    n = game.num_players
    table = Table(title="King of the Hill", show_lines=True, title_justify="left")
    table.add_column("ring", justify="center")
    for i in range(RING_SIZE):
        table.add_column(str(i), justify="left", min_width=9)
    area_row = [Text("areas")]
    for i in range(RING_SIZE):
        cell = Text()
        for a, pos in enumerate(state.area_pos):
            if pos == i:
                owner = state.area_of.index(a + 1)
                cell.append(f"A{a + 1} (P{owner})", style=PLAYER_STYLES[owner])
                units = _units_text(state, CENTER + a + 1, n)
                if units:
                    cell.append("\n")
                    cell.append(units)
        area_row.append(cell)
    table.add_row(*area_row)
    for ring in range(1, 5):
        row: list[RenderableType] = [Text(f"{ring}")]
        for i in range(RING_SIZE):
            loc = tile_loc(ring, i)
            terrain = state.terrain[loc]
            cell = Text(
                TERRAIN_LETTERS[terrain] if terrain >= 0 else "?",
                style=TERRAIN_STYLES[terrain] if terrain >= 0 else "",
            )
            units = _units_text(state, loc, n)
            if units:
                cell.append(" ")
                cell.append(units)
            row.append(cell)
        table.add_row(*row)
    center = Text("center C: ")
    center.append(_units_text(state, CENTER, n) or Text("empty"))
    lines: list[RenderableType] = [table, center]
    view = game.view(state, viewer)
    for q in range(n):
        line = Text(f"P{q}", style=PLAYER_STYLES[q])
        area = state.area_of[q]
        line.append(f" area A{area}" if area else " area ?")
        line.append(f"  points {state.points[q]}")
        r, f, b = state.hand[q * 3 : q * 3 + 3]
        line.append(f"  hand R{r} F{f} B{b}")
        dice = " ".join(f"{face}{DIE_MARKS[die_category(face)]}" for face in state.dice[q])
        line.append(f"  dice [{dice}]")
        excluded = view["excluded"][q]
        if excluded:
            line.append(f"  excluded {excluded}")
        lines.append(line)
    status = Text(f"round {state.round}, turn {state.turn + 1}")
    if state.phase is Phase.TURN:
        status.append(f", player {state.active()} to act, actions used {state.slots}/2")
    if game.params.teamplay:
        status.append(f", team points {view['team_points']}")
    if game.params.countdown:
        status.append(f", countdown {state.countdown}")
    if state.offer is not None:
        status.append(f", alliance offered: {state.offer}")
    outcome = game.outcome(state)
    if outcome is not None:
        status.append(f"\ngame over: {outcome}")
    lines.append(status)
    return Group(*lines)


def render_text(game: BoardGame, state: BoardState, viewer: PlayerId | None) -> str:
    buffer = io.StringIO()
    console = Console(file=buffer, width=140, color_system=None, highlight=False)
    console.print(board_renderable(game, state, viewer))
    return buffer.getvalue()
