"""The board drawn for a terminal with Rich: one row per ring, then center, areas, dice."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

from rich import box
from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from koth.core.players import PlayerId, seat_name
from koth.games.board.observe import unit_code
from koth.games.board.state import BoardState, BoardTermination, Phase
from koth.games.board.tables import CENTER, RING_SIZE, TERRAIN_LETTERS, die_category, tile_loc

if TYPE_CHECKING:
    from koth.games.board.game import BoardGame

PLAYER_STYLES = ("bold red", "bold blue", "bold green", "bold magenta")
TERRAIN_STYLES = ("white", "yellow", "dim")
DIE_MARKS = ("r", "m", "t")


#: what the letters and marks on the board mean, below the board
LEGEND = (
    "L light: every unit; N normal: runners, fighters; D difficult: runners only (B2)",
    "units R runner, F fighter, B blocker: 1:F2 = two fighters of Seat 1",
    "dice 1-2 r recruit, 3-4 m move, 5-6 t turn; tile 6 touches tile 0 of its ring;",
    "ring 1 is the outer ring, where areas attach; every ring-4 tile touches center C",
)

#: the one legend line of the compact screen (the whole legend is a ``?`` away)
LEGEND_HINT = "L/N/D terrain, 1:F2 = two fighters of Seat 1, dice r/m/t; ? the legend"

#: below this width the board drops its grid lines (it fits 80 columns)
WIDE = 100


def _units_text(state: BoardState, loc: int, n: int) -> Text:
    text = Text()
    for q in range(n):
        code = unit_code(state, q, loc)
        if code:
            if text:
                text.append(" ")
            text.append(f"{q + 1}:{code}", style=PLAYER_STYLES[q])
    return text


def board_renderable(
    game: BoardGame,
    state: BoardState,
    viewer: PlayerId | None,
    width: int = 80,
    *,
    compact: bool = False,
) -> RenderableType:
    """The board for a console ``width`` columns wide: a grid below ``WIDE`` columns
    without lines, so that all seven tiles of a ring and their units fit 80 columns.
    ``compact`` (a terminal of 24 rows): no title, no blank rows, the legend one line."""
    n = game.num_players
    wide = width >= WIDE and not compact
    table = Table(
        title=None if compact else "King of the Hill (board)",
        title_justify="left",
        show_lines=wide,
        box=box.HEAVY_HEAD if wide else (None if compact else box.SIMPLE_HEAD),
        padding=(0, 1),
        pad_edge=wide,
        show_edge=not compact,
    )
    table.add_column("ring", justify="center", no_wrap=True)
    for i in range(RING_SIZE):
        table.add_column(f"{i}" + ("↔0" if i == RING_SIZE - 1 else ""), justify="left")
    area_row = [Text("areas")]
    for i in range(RING_SIZE):
        cell = Text()
        for a, pos in enumerate(state.area_pos):
            if pos == i:
                owner = state.area_of.index(a + 1)
                cell.append(f"A{a + 1} S{owner + 1}", style=PLAYER_STYLES[owner])
                units = _units_text(state, CENTER + a + 1, n)
                if units:
                    cell.append("\n")
                    cell.append(units)
        area_row.append(cell)
    table.add_row(*area_row, end_section=not wide and not compact)
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
        line = Text(seat_name(q), style=PLAYER_STYLES[q])
        area = state.area_of[q]
        line.append(f"  area A{area}" if area else "  area ?")
        line.append(f"  points {state.points[q]}")
        r, f, b = state.hand[q * 3 : q * 3 + 3]
        line.append(f"  hand R{r} F{f} B{b}")
        dice = " ".join(f"{face}{DIE_MARKS[die_category(face)]}" for face in state.dice[q])
        line.append(f"  dice {dice or '-'}")
        excluded = view["excluded"][q]
        if excluded:
            line.append(f"  excluded {excluded}")
        lines.append(line)
    lines.append(status_text(game, state))
    legend = [LEGEND_HINT] if compact else LEGEND
    lines.extend(Text(line, style="dim") for line in legend)
    return Group(*lines)


def status_text(game: BoardGame, state: BoardState) -> Text:
    """Where the game stands, in words: the area to place, or the round and turn."""
    view = game.view(state, None)
    if state.phase is Phase.PLACE:
        (player,) = game.to_move(state).players
        status = Text(f"{seat_name(player)}: place area A{state.area_of[player]} (B3)")
    else:
        status = Text(f"round {state.round}, turn {state.turn + 1}")
    if state.phase is Phase.TURN:
        status.append(f": {seat_name(state.active())} to act, {state.slots} of 2 actions used")
    if game.params.teamplay:
        status.append(f", team points {view['team_points']}")
    if game.params.countdown:
        status.append(f", countdown {state.countdown}")
    if state.offer is not None:
        status.append(f", alliance offered: {state.offer}")
    if state.phase is Phase.OVER:
        status.append(": the game is over")  # who won is said once, below the board
    return status


def ending_text(game: BoardGame, state: BoardState) -> str:
    """How the game ended, in words: ``Seat 2 won with 30 points``."""
    outcome = game.outcome(state)
    if outcome is None:
        return "the game is not finished"
    names = " and ".join(seat_name(q) for q in sorted(outcome.winners))
    points = ", ".join(f"{seat_name(q)} {state.points[q]}" for q in range(game.num_players))
    if outcome.is_draw:
        lead = f": {names} share the lead" if names else ""
        return f"the round limit is reached ({points} points){lead}"
    if outcome.termination is BoardTermination.COUNTDOWN:
        how = "when the countdown ran out"
    else:
        how = f"with {max(state.points[q] for q in outcome.winners)} points"
    return f"{names} won {how} ({points})"


def render_text(game: BoardGame, state: BoardState, viewer: PlayerId | None) -> str:
    """The board as plain text for 80 columns (records replayed, logs, pipes)."""
    buffer = io.StringIO()
    console = Console(file=buffer, width=80, color_system=None, highlight=False)
    console.print(board_renderable(game, state, viewer, 80))
    return buffer.getvalue()
