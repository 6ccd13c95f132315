"""``koth play board``: a whole game in the terminal; each seat human or computer."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from koth.core.chance import sample_outcome
from koth.core.errors import IllegalActionError, InvalidActionError, InvalidParamsError
from koth.core.record import GameRecord
from koth.core.state import GameState
from koth.games.board.actions import GRAMMAR, Action
from koth.games.board.game import BoardGame
from koth.games.board.render import PLAYER_STYLES, board_renderable
from koth.games.terminal import EndOfInput, Handover, OpponentFactory, play_services, read_line

HUMAN = "human"
VARIANTS = {"countdown": "countdown", "one-excluded": "one_excluded", "teamplay": "teamplay"}


def build_params(players: int, variant: list[str], settings: list[str]) -> dict[str, Any]:
    params: dict[str, Any] = {"num_players": players}
    for name in variant:
        key = VARIANTS.get(name.lower().replace("_", "-"))
        if key is None:
            raise InvalidParamsError(f"unknown variant {name!r}; known: {', '.join(VARIANTS)}")
        params[key] = True
    for item in settings:
        key, sep, value = item.partition("=")
        if not sep:
            raise InvalidParamsError(f"--set {item!r}: write key=value")
        try:
            params[key.strip()] = json.loads(value)
        except json.JSONDecodeError:
            params[key.strip()] = value
    return params


class Table:
    """One terminal game: seats, the console, and the way each seat decides."""

    def __init__(
        self,
        console: Console,
        game: BoardGame,
        seats: list[str],
        seed: int | None,
        make_opponent: OpponentFactory,
    ):
        self.console, self.game, self.seats = console, game, seats
        self.rng = random.Random(seed)
        self.agents = {
            seat: make_opponent(spec, game, seat, seed)
            for seat, spec in enumerate(seats)
            if spec != HUMAN
        }
        self.several_humans = seats.count(HUMAN) > 1
        # only the one-excluded variant has secrets (each seat's excluded type, until
        # the end): then a shared terminal hides each human's screen from the others
        self.handover = Handover(console, self.several_humans and game.params.one_excluded)

    def decide(self, state: GameState[Any, Any], player: int) -> Action:
        if player in self.agents:
            action: Action = self.agents[player](state, player, self.rng)
            self.console.print(
                f"P{player} ({self.seats[player]}): {action}",
                style=PLAYER_STYLES[player],
                highlight=False,
            )
            return action
        return self.ask(state, player)

    def ask(self, state: GameState[Any, Any], player: int) -> Action:
        console = self.console
        self.handover.face(player)
        if self.several_humans:
            console.rule(f"player {player}'s decision", style=PLAYER_STYLES[player])
        console.print(board_renderable(self.game, state.data, player))
        options: list[Action] = list(state.legal_actions(player))
        for number, option in enumerate(options, 1):
            end = "\n" if number % 3 == 0 or number == len(options) else ""
            console.print(f"{number:>4}. {option!s:<36}", end=end, highlight=False)
        while True:
            text = read_line(f"player {player}> ").strip()
            if not text:
                continue
            if text.lower() in ("?", "help"):
                console.print(
                    f"type a number from the list or an action: {GRAMMAR}", highlight=False
                )
                continue
            if text.isdigit():
                if 1 <= int(text) <= len(options):
                    chosen: Action = options[int(text) - 1]
                    return chosen
                console.print(f"[red]choose a number from 1 to {len(options)}[/red]")
                continue
            try:
                action: Action = state.check_action(text, player)
                return action
            except (InvalidActionError, IllegalActionError) as exc:
                console.print(f"[red]{exc}[/red]", highlight=False)

    def play(self) -> GameState[Any, Any]:
        state = self.game.new_initial_state()
        self.state = state
        while not state.is_terminal():
            if state.is_chance_node():
                outcome = sample_outcome(state.chance_outcomes(), self.rng)
                if not str(outcome).startswith("roll"):
                    self.console.print(f"chance: {outcome}", style="dim", highlight=False)
                state.apply_action(outcome)
            elif state.is_simultaneous_node():
                choices = {p: self.decide_secret(state, p) for p in state.acting_players()}
                state.apply_actions(choices)
            else:
                player = state.current_player()
                state.apply_action(self.decide(state, player), player)
        self.console.print(board_renderable(self.game, state.data, None))
        return state

    def decide_secret(self, state: GameState[Any, Any], player: int) -> Action:
        if player in self.agents:
            action: Action = self.agents[player](state, player, self.rng)
            return action  # a secret choice: not printed
        return self.ask(state, player)


def play_board(
    ctx: typer.Context,
    players: Annotated[int, typer.Option("--players", min=2, max=4, help="2 to 4 players.")] = 2,
    vs: Annotated[
        list[str] | None,
        typer.Option("--vs", help="Seats 1, 2, ... in order: an agent name or 'human'."),
    ] = None,
    variant: Annotated[
        list[str] | None,
        typer.Option("--variant", help="countdown, one-excluded, teamplay (repeatable)."),
    ] = None,
    seed: Annotated[int | None, typer.Option("--seed", help="Reproducible chance.")] = None,
    record: Annotated[Path | None, typer.Option("--record", help="Save the game record.")] = None,
    settings: Annotated[
        list[str] | None,
        typer.Option("--set", help="A game parameter, e.g. round_limit=20 (repeatable)."),
    ] = None,
) -> None:
    """Play Florian Jehn's King of the Hill board game. Seat 0 is you; --vs fills the
    other seats (default: random computer players; 'human' for hotseat)."""
    console = Console(highlight=False)
    opponents = list(vs or [])
    if len(opponents) > players - 1:
        console.print(f"[red]--vs names {len(opponents)} seats; only {players - 1} are free[/red]")
        raise typer.Exit(2)
    seats = [HUMAN, *opponents, *["random"] * (players - 1 - len(opponents))]
    try:
        game = BoardGame(build_params(players, list(variant or []), list(settings or [])))
        table = Table(console, game, seats, seed, play_services(ctx).make_opponent)
    except InvalidParamsError as exc:
        console.print(f"[red]{exc}[/red]")
        raise typer.Exit(2) from None
    try:
        state = table.play()
    except EndOfInput:
        console.print("\ninput ended: the game is abandoned")
        if record is not None:
            GameRecord.from_state(table.state, seed=seed, seats=seats).save(record)
            console.print(f"record so far saved to {record}")
        return
    console.print(f"[bold]{state.outcome()}[/bold]  returns {list(state.returns())}")
    if record is not None:
        GameRecord.from_state(state, seed=seed, seats=seats).save(record)
        console.print(f"record saved to {record}")
