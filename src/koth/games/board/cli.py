"""``koth play board``: a whole game in the terminal; each seat human or computer."""

from __future__ import annotations

import random
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.text import Text

from koth.core.chance import sample_outcome
from koth.core.errors import (
    IllegalActionError,
    InvalidActionError,
    InvalidParamsError,
    KothError,
)
from koth.core.players import seat_name
from koth.core.record import GameRecord
from koth.core.state import GameState
from koth.games import terminal as term
from koth.games.board.actions import GRAMMAR, Action, End, Swap
from koth.games.board.game import BoardGame
from koth.games.board.notes import BoardNote, DiceForfeited, turn_end_notes
from koth.games.board.render import LEGEND, PLAYER_STYLES, board_renderable, ending_text
from koth.games.board.state import BoardState

VARIANTS = {"countdown": "countdown", "one-excluded": "one_excluded", "teamplay": "teamplay"}


#: where a person learns the game (the help text's last line)
LEARN = "the rules in plain words and a tutorial: /learn/board in the web app (koth serve)"


def build_params(players: int, variant: list[str], settings: list[str]) -> dict[str, Any]:
    params: dict[str, Any] = {"num_players": players}
    for name in variant:
        key = VARIANTS.get(name.lower().replace("_", "-"))
        if key is None:
            raise term.fail(f"unknown variant {name!r}; known: {', '.join(VARIANTS)}")
        params[key] = True
    params.update(term.parse_settings(settings))
    return params


def option_groups(options: list[Action]) -> dict[str, list[tuple[int, str]]]:
    """The numbered options, grouped as a player looks for them: recruits, each unit's
    moves (by where it stands), attacks, alliances, ring turns, area moves, swaps, the
    end of the turn. Each entry: its number and the rest of its notation."""
    groups: dict[str, list[tuple[int, str]]] = {}
    for number, option in enumerate(options, 1):
        words = str(option).split(" ")
        if words[0] == "move" and len(words) >= 3:
            origin, _, target = words[2].partition(">")
            key, rest = f"move {words[1]} from {origin}", " ".join([">" + target, *words[3:]])
        elif words[0] in ("attack", "ally") and len(words) >= 2:
            key, rest = f"{words[0]} {words[1]}", " ".join(words[2:])
        elif words[0] == "turn" and len(words) >= 3:
            key, rest = "turn", f"{words[1].removeprefix('ring')} {words[2]}"
        else:
            key, rest = words[0], " ".join(words[1:])
        groups.setdefault(key, []).append((number, rest or words[0]))
    return groups


def show_options(console: Console, options: list[Action], swaps: int = 0) -> None:
    """Every numbered option, grouped, one group a line; a long group wraps between
    entries, so a number never parts from its action. ``swaps`` terrain swaps are one
    entry, ``s``, which asks for the two tiles."""
    groups = option_groups(options)
    if swaps:  # where the swaps stand among the actions: just before the end of the turn
        end = groups.pop("end", None)
        groups["swap"] = []
        if end is not None:
            groups["end"] = end
    for key, entries in groups.items():
        line = Text(f"{key}:", style="bold")
        if key == "swap" and swaps:
            line.append(f"  s) two tiles ({swaps} swaps possible)")
        for number, rest in entries:
            entry = f"  {number}) {rest}"
            if len(line.plain) + len(entry) > console.width:
                console.print(line)
                line = Text(" " * len(key))
            line.append(entry)
        console.print(line)


def split_swaps(options: list[Action]) -> tuple[list[Action], list[Action]]:
    """The options numbered on screen, and the terrain swaps folded behind ``s`` (often
    some forty of them: listed, they would push the board off a 24-row screen)."""
    return (
        [o for o in options if not isinstance(o, Swap)],
        [o for o in options if isinstance(o, Swap)],
    )


def note_text(note: BoardNote) -> str:
    """A note as the terminal words it."""
    if isinstance(note, DiceForfeited):
        dice = "die" if note.count == 1 else "dice"
        return f"{seat_name(note.seat)} forfeits {note.count} unused {dice} ({note.rule})"
    return f"{seat_name(note.seat)} has no dice left: its second turn is skipped ({note.rule})"


class Table:
    """One terminal game: seats, the console, and the way each seat decides."""

    def __init__(
        self,
        console: Console,
        game: BoardGame,
        seats: list[str],
        seed: int | None,
        agents: dict[int, term.Opponent],
        debug: bool = False,
    ):
        self.console, self.game, self.seats = console, game, seats
        self.debug = debug
        self.rng = random.Random(seed)
        self.agents = agents
        self.humans = {p for p, spec in enumerate(seats) if spec == term.HUMAN}
        self.several_humans = len(self.humans) > 1
        # only the one-excluded variant has secrets (each seat's excluded type, until
        # the end): then a shared terminal hides each human's screen from the others
        self.handover = term.Handover(console, self.several_humans and game.params.one_excluded)

    def who(self, player: int) -> str:
        if player in self.humans:
            return "You" if len(self.humans) == 1 else seat_name(player)
        return f"{seat_name(player)} ({self.seats[player]})"

    def decide(self, state: GameState[Any, Any], player: int) -> Action:
        if player in self.agents:
            action: Action = self.agents[player](state, player, self.rng)
        else:
            action = self.ask(state, player)
        term.say(self.console, f"{self.who(player)}: {action}", PLAYER_STYLES[player])
        return action

    def ask(self, state: GameState[Any, Any], player: int) -> Action:
        console = self.console
        self.handover.face(player)
        if self.several_humans:
            console.rule(f"{seat_name(player)}'s decision", style=PLAYER_STYLES[player])
        board = board_renderable(self.game, state.data, player, console.width, compact=True)
        console.print(board)
        options, swaps = split_swaps(list(state.legal_actions(player)))
        show_options(console, options, len(swaps))
        while True:
            text = term.read_line(f"{seat_name(player)}> ").strip()
            if not text:
                continue
            if text.lower() in ("?", "help"):
                for line in LEGEND:
                    term.say(console, line, "dim")
                term.say(console, f"type a number from the list or an action: {GRAMMAR}")
                if swaps:
                    term.say(console, "s swaps two tiles: it asks which, such as 1.3 1.4")
                term.say(console, LEARN)
                continue
            if swaps and text.lower() in ("s", "swap"):
                tiles = term.read_line("swap which two tiles (such as 1.3 1.4)> ").strip()
                if not tiles:
                    continue
                text = f"swap {tiles}"
            if text.isdigit():
                if 1 <= int(text) <= len(options):
                    chosen: Action = options[int(text) - 1]
                    return chosen
                term.say(console, f"choose a number from 1 to {len(options)}", "red")
                continue
            try:
                action: Action = state.check_action(text, player)
                return action
            except (InvalidActionError, IllegalActionError) as exc:
                term.say(console, self.refusal(text, exc, options), "red")

    def refusal(self, text: str, exc: KothError, options: list[Action]) -> str:
        """Why ``text`` is refused, with the form that would be accepted for ``end``."""
        said = term.refusal(text, exc, self.debug)
        ends = [str(o) for o in options if isinstance(o, End)]
        if text.split()[0].lower() == "end" and ends and text not in ends:
            said += f"; type {' or '.join(repr(e) for e in ends)}"
        return said

    def play(self) -> GameState[Any, Any]:
        state = self.game.new_initial_state()
        self.state = state
        while not state.is_terminal():
            if state.is_chance_node():
                outcome = sample_outcome(state.chance_outcomes(), self.rng)
                if not str(outcome).startswith("roll"):
                    term.say(self.console, f"chance: {outcome}", "dim")
                before = state.data
                state.apply_action(outcome)
                # the die of an alliance's fight may end the turn
                self.announce_losses(before, state.data, outcome)
            elif state.is_simultaneous_node():
                choices = {p: self.decide_secret(state, p) for p in state.acting_players()}
                state.apply_actions(choices)
            else:
                player = state.current_player()
                before = state.data
                action = self.decide(state, player)
                state.apply_action(action, player)
                self.announce_losses(before, state.data, action)
        self.console.print(board_renderable(self.game, state.data, None, self.console.width))
        return state

    def announce_losses(self, before: BoardState, after: BoardState, action: Action | None) -> None:
        """Dice forfeited at the end of a turn (B7.1) and turns skipped for want of dice
        (B7.2), which the board alone would not show."""
        for note in turn_end_notes(self.game.params, before, after, action):
            term.say(self.console, note_text(note), "yellow")

    def decide_secret(self, state: GameState[Any, Any], player: int) -> Action:
        if player in self.agents:
            action: Action = self.agents[player](state, player, self.rng)
            return action  # a secret choice: not printed
        return self.ask(state, player)


def play_board(
    ctx: typer.Context,
    players: Annotated[int, typer.Option("--players", min=2, max=4, help="2 to 4 players.")] = 2,
    seat: term.SeatOpt = None,
    vs: term.VsOpt = None,
    settings: term.SetOpt = None,
    seed: term.SeedOpt = None,
    record: term.RecordOpt = None,
    width: term.WidthOpt = None,
    debug: term.DebugOpt = False,
    variant: Annotated[list[str] | None, typer.Option("--variant", hidden=True)] = None,
) -> None:
    """Play Florian Jehn's King of the Hill board game in the terminal.

    Options (--set): countdown=true, one_excluded=true, teamplay=true, round_limit=20,
    target_points=30 and the others of docs/rules/board.md. Exit code 0 at the end of
    the game, 1 when the input ends first, 2 on bad input, 130 when stopped with Ctrl-C.
    """
    console = term.console_for(width)
    term.check_record_path(record)
    seats = term.seat_specs(players, seat or [], vs or [])
    try:
        game = BoardGame(build_params(players, list(variant or []), list(settings or [])))
    except InvalidParamsError as exc:
        raise term.fail(f"--set: {exc}") from None
    agents = term.make_agents(ctx, game, seats, seed)
    table = Table(console, game, seats, seed, agents, debug)
    term.say(console, "  " + ", ".join(f"{table.who(p)} in {seat_name(p)}" for p in range(players)))
    try:
        state = table.play()
    except term.EndOfInput:
        term.say(console, "End of input: the game is abandoned.", "yellow")
        if record is not None:
            so_far = GameRecord.from_state(table.state, seed=seed, seats=seats, finished=False)
            term.save_record(console, so_far, record, "record so far")
        raise typer.Exit(term.EXIT_ABANDONED) from None
    outcome = state.outcome()
    assert outcome is not None
    if outcome.is_draw:
        term.say(console, f"Draw: {ending_text(game, state.data)}", "bold")
    else:
        how = ending_text(game, state.data).split(" won ", 1)[1]
        term.say(
            console, term.ending_line(outcome.winners, table.humans, f"finished {how}", how), "bold"
        )
    if record is not None:
        final = GameRecord.from_state(state, seed=seed, seats=seats, finished=True)
        term.save_record(console, final, record, "record")
