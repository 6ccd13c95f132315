"""``koth play cards``: a whole game in the terminal, against the computer or hotseat."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Annotated, Any

import typer
from rich.console import Console

from koth.core.chance import sample_outcome
from koth.core.errors import IllegalActionError, InvalidActionError, InvalidParamsError
from koth.core.players import seat_name
from koth.core.record import GameRecord
from koth.core.state import GameState
from koth.games import terminal as term
from koth.games.cards.actions import GRAMMAR, PLACES, CardsAction, Place, attack_value
from koth.games.cards.game import CardsGame
from koth.games.cards.render import symbol, table_text
from koth.games.cards.rules import action_card
from koth.games.cards.state import Phase
from koth.games.cards.tables import bits, card_str

#: where a person learns the game (the help text's last line)
LEARN = "the rules in plain words and a tutorial: /learn/cards in the web app (koth serve)"


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
        console.print(f"{number:>3}. {_describe(action):<15}", end=end, highlight=False)
    while True:
        text = term.read_line(f"{seat_name(player)}> ").strip()
        if not text:
            continue
        if text.lower() in ("?", "help"):
            term.say(console, f"type a number from the list or an action: {GRAMMAR}")
            term.say(console, LEARN)
            continue
        if text.isdigit():
            if 1 <= int(text) <= len(options):
                return options[int(text) - 1]
            term.say(console, f"choose a number from 1 to {len(options)}", "red")
            continue
        try:
            action = game.parse_action(text)
        except InvalidActionError as exc:
            term.say(console, str(exc), "red")
            continue
        if action in options:
            return action
        term.say(console, why_not(action), "red")


def _why_not(
    state: GameState[Any, Any], player: int, debug: bool = False
) -> Callable[[CardsAction], str]:
    def explain(action: CardsAction) -> str:
        try:
            state.check_action(action, player)
        except IllegalActionError as exc:
            return term.refusal(str(action), exc, debug)
        return f"{action} is not possible now"

    return explain


class Table:
    """One terminal game: who sits where, and the screens shown to humans."""

    def __init__(
        self,
        console: Console,
        game: CardsGame,
        specs: list[str],
        agents: dict[int, term.Opponent],
        debug: bool = False,
    ) -> None:
        self.console, self.game, self.specs, self.agents = console, game, specs, agents
        self.debug = debug
        self.humans = {p for p, spec in enumerate(specs) if spec == term.HUMAN}
        self.handover = term.Handover(console, len(self.humans) > 1)
        self.reserve_plans: dict[int, list[CardsAction]] = {}

    def face(self, player: int) -> None:
        """In hotseat, hide the table until the next player sits down."""
        self.handover.face(player)

    def who(self, player: int) -> str:
        if player in self.humans:
            return "You" if len(self.humans) == 1 else seat_name(player)
        return f"{seat_name(player)} ({self.specs[player]})"

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
        return _ask(self.console, self.game, player, options, _why_not(state, player, self.debug))

    def reserve_plan(self, state: GameState[Any, Any], player: int) -> list[CardsAction]:
        """The whole reserve on one screen (C4): the player moves cards between hand and
        reserve by number, sees the split after each change, may undo, and confirms.
        Nothing is revealed during the reserve phase, so the twelve rounds of C4.1 are
        then played from this plan, and in hotseat each player sits down only once."""
        console = self.console
        console.print(table_text(state.view(player)))
        data = state.data
        cards = list(bits(data.hands[player] | data.reserves[player]))
        in_reserve = [False] * len(cards)
        undo: list[list[bool]] = []
        console.print(
            "Choose your reserve (C4): type the numbers of the cards to move between hand "
            "and reserve (several at once: 2 5 9), 'undo' to take back the last change, "
            "'done' (or an empty line) when ready."
        )
        while True:
            self.show_split(cards, in_reserve)
            text = term.read_line(f"{seat_name(player)} reserve> ").strip().lower()
            if text in ("", "done", "ok"):
                break
            if text in ("?", "help"):
                term.say(
                    console,
                    "type the numbers of the cards to move between hand and reserve (2 5 9) "
                    "or cards such as 7h; 'undo' takes back the last change; 'done' or an "
                    "empty line keeps this split (C4)",
                )
                continue
            if text == "undo":
                if undo:
                    in_reserve = undo.pop()
                else:
                    term.say(console, "nothing to undo", "red")
                continue
            picked = self.card_numbers(text, [card_str(c) for c in cards])
            if picked is None:
                continue
            undo.append(list(in_reserve))
            for k in picked:
                in_reserve[k] = not in_reserve[k]
        chosen = [c for c, r in zip(cards, in_reserve, strict=True) if r]
        term.say(console, f"Your reserve: {_cards(chosen) or 'empty'}; the rest stays in hand.")
        return [PLACES[r][action_card(c)] for c, r in zip(cards, in_reserve, strict=True)]

    def show_split(self, cards: list[int], in_reserve: list[bool]) -> None:
        numbered = "  ".join(
            f"{k}. {symbol(card_str(c))}{'*' if r else ''}"
            for k, (c, r) in enumerate(zip(cards, in_reserve, strict=True), 1)
        )
        term.say(self.console, numbered)
        hand = [c for c, r in zip(cards, in_reserve, strict=True) if not r]
        kept = [c for c, r in zip(cards, in_reserve, strict=True) if r]
        term.say(self.console, f"  hand ({len(hand)}): {_cards(hand) or '-'}")
        term.say(self.console, f"  reserve* ({len(kept)}): {_cards(kept) or '-'}")

    def card_numbers(self, text: str, names: list[str]) -> list[int] | None:
        """The card indexes named in ``text`` by number or notation (``3 7`` or
        ``JK 7h``); None, with the reason printed, when one is not a card of the list."""
        picked: list[int] = []
        lowered = [n.lower() for n in names]
        for word in text.replace(",", " ").split():
            if word.isdigit() and 1 <= int(word) <= len(names):
                picked.append(int(word) - 1)
            elif word.removeprefix("reserve").strip() in lowered:
                picked.append(lowered.index(word.removeprefix("reserve").strip()))
            else:
                term.say(
                    self.console,
                    f"{word!r} is none of your cards: type numbers from 1 to {len(names)} "
                    "(or a card such as 7h), 'undo', 'done' or '?'",
                    "red",
                )
                return None
        return picked

    def decide(self, state: GameState[Any, Any], player: int, rng: random.Random) -> Any:
        if player in self.humans:
            action = self.human_action(state, player)
            self.echo(player, _describe(action))
        else:
            action = self.agents[player](state, player, rng)
            # where the computer puts a won card is its secret (C11, C15); stacks are public
            secret = state.data.phase is Phase.ASSIGN
            self.echo(
                player, "places a won card (hand or reserve)" if secret else _describe(action)
            )
        return action

    def echo(self, player: int, what: str) -> None:
        """Say aloud what a seat decided: a person's own choice, the computer's stack."""
        term.say(self.console, f"{self.who(player)}: {what}", "bold")

    def announce(self, state: GameState[Any, Any], fights_seen: int) -> None:
        for fight in state.view(None)["log"][fights_seen:]:
            rounds = "; ".join(
                f"{symbol_attack(a)} vs {symbol_attack(b)}" for a, b in fight["rounds"]
            )
            result = (
                "both Jokers: the stack is discarded"
                if fight["discarded"]
                else f"{seat_name(fight['winner'])} wins {fight['size']} card(s)"
            )
            term.say(self.console, f"Stack {fight['stack']}: {rounds} - {result}", "bold")


def _cards(cards: list[int]) -> str:
    return " ".join(symbol(card_str(c)) for c in cards)


def symbol_attack(notation: str) -> str:
    return "".join(symbol(notation[i : i + 2]) for i in range(0, len(notation), 2))


def play_cards(
    ctx: typer.Context,
    seat: term.SeatOpt = None,
    vs: term.VsOpt = None,
    settings: term.SetOpt = None,
    seed: term.SeedOpt = None,
    record: term.RecordOpt = None,
    width: term.WidthOpt = None,
    debug: term.DebugOpt = False,
    hotseat: Annotated[bool, typer.Option(hidden=True)] = False,
    human: Annotated[int | None, typer.Option(min=0, max=1, hidden=True)] = None,
    jokers: Annotated[int | None, typer.Option(hidden=True)] = None,
    tens_equal: Annotated[bool | None, typer.Option(hidden=True)] = None,
    dealer: Annotated[int | None, typer.Option(hidden=True)] = None,
) -> None:
    """Play Larry Levy's King of the Hill card game in the terminal.

    Options (--set): jokers=3 (or 2: an empty apex), tens_equal=true (the Variant:
    ten-valued cards tie), dealer=0 or 1 (who chooses first; seats count from 0).
    Exit code 0 at the end of the game, 1 when the input ends first, 2 on bad input,
    130 when stopped with Ctrl-C.
    """
    console = term.console_for(width)
    term.check_record_path(record)
    if seed is None:
        seed = random.randrange(2**31)
    old = {"jokers": jokers, "tens_equal": tens_equal, "dealer": dealer}
    options = {k: v for k, v in old.items() if v is not None}
    options.update(term.parse_settings(settings or []))
    try:
        game = CardsGame(**options)
    except (InvalidParamsError, TypeError) as exc:
        raise term.fail(f"--set: {exc}") from None
    vs_specs = list(vs or [])
    if hotseat:
        seats = [term.HUMAN, term.HUMAN]
    elif human == 1:
        seats = [vs_specs.pop(0) if vs_specs else term.RANDOM, term.HUMAN]
    else:
        seats = list(seat or [])
    specs = term.seat_specs(2, seats, vs_specs)
    table = Table(console, game, specs, term.make_agents(ctx, game, specs, seed), debug)
    term.say(console, f"King of the Hill, card game - seed {seed}. Rules: docs/rules/cards.md")
    term.say(console, "  " + ", ".join(f"{table.who(p)} in {seat_name(p)}" for p in range(2)))
    state = game.new_initial_state()
    rng = random.Random(seed)
    finished = False
    try:
        _play(state, table, rng)
        finished = True
    except term.EndOfInput:
        term.say(console, "End of input: the game is abandoned.", "yellow")
    finally:
        if record is not None:
            meta = {"seed": seed, "seats": specs, "finished": finished}
            what = "record" if finished else "record so far"
            term.save_record(console, GameRecord.from_state(state, **meta), record, what)
    if not finished:
        raise typer.Exit(term.EXIT_ABANDONED)
    # everything is public at the end: every hand and reserve is shown
    term.say(console, state.render(None))
    term.say(console, _ending(state, table.humans), "bold")


def _ending(state: GameState[Any, Any], humans: set[int]) -> str:
    outcome = state.outcome()
    assert outcome is not None
    if not outcome.winners:
        return "Draw: both Jokers met on the apex, and it was discarded"
    return term.ending_line(outcome.winners, humans, "took the apex", "took the apex")


def _play(state: GameState[Any, Any], table: Table, rng: random.Random) -> None:
    fights_seen = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_outcome(state.chance_outcomes(), rng))
        elif state.is_simultaneous_node():
            players = state.acting_players()
            # the computer decides first; its choice is never shown before the reveal
            joint = {p: table.agents[p](state, p, rng) for p in players if p in table.agents}
            for p in players:
                if p in table.humans:
                    joint[p] = table.human_action(state, p)
                    if state.data.phase is not Phase.RESERVE:
                        term.say(table.console, f"{table.who(p)}: {_describe(joint[p])}, face down")
            state.apply_actions(joint)
        else:
            player = state.current_player()
            state.apply_action(table.decide(state, player, rng), player)
        fights = len(state.data.log)
        if fights > fights_seen:
            table.announce(state, fights_seen)
            fights_seen = fights
