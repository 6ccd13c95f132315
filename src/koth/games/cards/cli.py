"""``koth play cards``: a whole game in the terminal, against the computer or hotseat."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from koth.core.chance import sample_outcome
from koth.core.errors import IllegalActionError, InvalidActionError, InvalidParamsError
from koth.core.record import GameRecord
from koth.core.state import GameState
from koth.games.cards.actions import GRAMMAR, PLACES, CardsAction, Place, attack_value
from koth.games.cards.game import CardsGame
from koth.games.cards.render import symbol, table_text
from koth.games.cards.rules import action_card
from koth.games.cards.state import Phase
from koth.games.cards.tables import bits, card_str
from koth.games.terminal import EndOfInput, Handover, Opponent, play_services, read_line


def _describe(action: CardsAction) -> str:
    text = str(action)
    if isinstance(action, Place):
        return text
    if text.startswith(("stack", "deal")):
        return text
    shown = " ".join(symbol(text[i : i + 2]) for i in range(0, len(text), 2))
    return f"{shown} ({attack_value(action)})"  # type: ignore[arg-type]


def _ask(
    console: Console,
    game: CardsGame,
    player: int,
    options: Sequence[CardsAction],
    why_not: Callable[[CardsAction], str],
) -> CardsAction:
    """The action the human picks from ``options``, by number or by notation."""
    for number, action in enumerate(options, 1):
        end = "\n" if number % 4 == 0 or number == len(options) else ""
        console.print(f"{number:>3}. {_describe(action):<18}", end=end, highlight=False)
    while True:
        text = read_line(f"player {player}> ").strip()
        if not text:
            continue
        if text.lower() in ("?", "help"):
            console.print(f"type a number from the list or an action: {GRAMMAR}")
            continue
        if text.isdigit():
            if 1 <= int(text) <= len(options):
                return options[int(text) - 1]
            console.print(f"[red]choose a number from 1 to {len(options)}[/red]")
            continue
        try:
            action = game.parse_action(text)
        except InvalidActionError as exc:
            console.print(f"[red]{exc}[/red]")
            continue
        if action in options:
            return action
        console.print(f"[red]{why_not(action)}[/red]")


def _why_not(state: GameState[Any, Any], player: int) -> Callable[[CardsAction], str]:
    def explain(action: CardsAction) -> str:
        try:
            state.check_action(action, player)
        except IllegalActionError as exc:
            return str(exc)
        return f"{action} is not possible now"

    return explain


def _decide_on(card: str) -> Callable[[CardsAction], str]:
    def explain(_action: CardsAction) -> str:
        return f"decide on {card} now: 1 (hand {card}) or 2 (reserve {card})"

    return explain


class Table:
    """One terminal game: who sits where, and the screens shown to humans."""

    def __init__(
        self, console: Console, game: CardsGame, humans: set[int], agent: Opponent, hotseat: bool
    ) -> None:
        self.console, self.game, self.humans, self.agent = console, game, humans, agent
        self.handover = Handover(console, hotseat)
        self.reserve_plans: dict[int, list[CardsAction]] = {}

    def face(self, player: int) -> None:
        """In hotseat, hide the table until the next player sits down."""
        self.handover.face(player)

    def human_action(self, state: GameState[Any, Any], player: int) -> CardsAction:
        if state.data.phase is Phase.RESERVE:
            if player not in self.reserve_plans:
                self.face(player)
                self.reserve_plans[player] = self.reserve_plan(state, player)
            round_: int = state.data.reserve_round
            return self.reserve_plans[player][round_]
        self.face(player)
        self.console.print(table_text(state.view(player)))
        options = list(state.legal_actions(player))
        return _ask(self.console, self.game, player, options, _why_not(state, player))

    def reserve_plan(self, state: GameState[Any, Any], player: int) -> list[CardsAction]:
        """The reserve is asked card by card in one sitting (C4.1): nothing is revealed
        during the reserve phase, so in hotseat each player sits down only once."""
        self.console.print(table_text(state.view(player)))
        self.console.print("Choose your reserve (C4): keep each card in hand or put it in reserve.")
        data = state.data
        plan: list[CardsAction] = []
        for card in bits(data.hands[player] | data.reserves[player]):
            text = card_str(card)
            options: list[CardsAction] = [
                PLACES[0][action_card(card)],
                PLACES[1][action_card(card)],
            ]
            plan.append(
                _ask(
                    self.console,
                    self.game,
                    player,
                    options,
                    _decide_on(text),
                )
            )
        return plan

    def decide(self, state: GameState[Any, Any], player: int, rng: random.Random) -> Any:
        if player in self.humans:
            return self.human_action(state, player)
        return self.agent(state, player, rng)

    def announce(self, state: GameState[Any, Any], fights_seen: int) -> None:
        for fight in state.view(None)["log"][fights_seen:]:
            rounds = "; ".join(
                f"{symbol_attack(a)} vs {symbol_attack(b)}" for a, b in fight["rounds"]
            )
            result = (
                "both Jokers: the stack is discarded"
                if fight["discarded"]
                else f"player {fight['winner']} wins {fight['size']} card(s)"
            )
            self.console.print(f"[bold]Stack {fight['stack']}[/bold]: {rounds} - {result}")


def symbol_attack(notation: str) -> str:
    return "".join(symbol(notation[i : i + 2]) for i in range(0, len(notation), 2))


def play_cards(
    ctx: typer.Context,
    vs: Annotated[
        str,
        typer.Option(
            help="computer opponent: an agent spec such as random, heuristic, "
            "ismcts:seconds=1 or ismcts:iters=500 (see docs/agents.md)"
        ),
    ] = "random",
    seed: Annotated[int | None, typer.Option(help="seed of the deal and the computer")] = None,
    hotseat: Annotated[bool, typer.Option(help="two people at one terminal")] = False,
    record: Annotated[Path | None, typer.Option(help="save the game record here")] = None,
    human: Annotated[int, typer.Option(min=0, max=1, help="your seat against the computer")] = 0,
    jokers: Annotated[int, typer.Option(min=2, max=3, help="3, or 2: empty apex")] = 3,
    tens_equal: Annotated[bool, typer.Option(help="the Variant: ten-valued cards tie")] = False,
    dealer: Annotated[int, typer.Option(min=0, max=1, help="who chooses first")] = 0,
) -> None:
    """Play Larry Levy's King of the Hill card game in the terminal."""
    console = Console(highlight=False, soft_wrap=True)
    if seed is None:
        seed = random.randrange(2**31)
    game = CardsGame(jokers=jokers, tens_equal=tens_equal, dealer=dealer)
    try:
        opponent = play_services(ctx).make_opponent(vs, game, 1 - human, seed)
    except InvalidParamsError as exc:
        raise typer.BadParameter(str(exc), param_hint="--vs") from None
    table = Table(console, game, {0, 1} if hotseat else {human}, opponent, hotseat)
    console.print(f"King of the Hill, card game - seed {seed}. Rules: docs/rules/cards.md")
    state = game.new_initial_state()
    rng = random.Random(seed)
    finished = False
    try:
        _play(state, table, rng)
        finished = True
    except EndOfInput:
        console.print("[yellow]End of input: the game is abandoned.[/yellow]")
    finally:
        if record is not None:
            GameRecord.from_state(
                state, seed=seed, vs=None if hotseat else vs, finished=finished
            ).save(record)
            console.print(f"record saved to {record}")
    if not finished:
        raise typer.Exit(1)
    viewer = None if hotseat else human
    console.print(table_text(state.view(viewer)))
    console.print(f"[bold]Game over: {state.outcome()}[/bold]")


def _play(state: GameState[Any, Any], table: Table, rng: random.Random) -> None:
    fights_seen = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_outcome(state.chance_outcomes(), rng))
        elif state.is_simultaneous_node():
            players = state.acting_players()
            # the computer decides first; its choice is never shown before the reveal
            joint = {p: table.agent(state, p, rng) for p in players if p not in table.humans}
            for p in players:
                if p in table.humans:
                    joint[p] = table.human_action(state, p)
            state.apply_actions(joint)
        else:
            player = state.current_player()
            state.apply_action(table.decide(state, player, rng), player)
        fights = len(state.data.log)
        if fights > fights_seen:
            table.announce(state, fights_seen)
            fights_seen = fights
