"""The interactive tutorial: one short scripted position per kind of action, per game.

Each lesson's position is reached by a scripted game: the game with its default
options, chance drawn from a fixed seed and every seat played by the heuristic agent,
up to the first decision where a seat may play the lesson's kind of action. The
learner plays that seat. Every try is checked by the engine: an illegal move is
explained by the game's own ``explain_illegal`` (``games/<game>/explain.py``: the
reason and the rule it breaks), a legal move of another kind is named as such, and the
lesson's kind of move is accepted and applied, so the page can show what it did.
"""

from __future__ import annotations

import functools
import random
import re
from dataclasses import dataclass
from typing import Any, Final

from koth.agents.registry import make_policy
from koth.core.players import NodeKind
from koth.core.registry import load_game
from koth.core.state import GameState
from koth.i18n import DEFAULT, N_, Translator
from koth.server.errors import NotFoundError
from koth.server.games.messages import action_entry, to_move_info
from koth.server.games.schemas import (
    LessonEntry,
    LessonTry,
    LessonTryResponse,
    SeatKind,
    SeatSummary,
)

#: the seed of the scripted games (any fixed number: the positions are the same always)
SEED: Final = 1
#: decisions a scripted game may take to reach a lesson's position
MAX_STEPS: Final = 2000
#: wrong moves offered beside the right one
WRONG_CHOICES: Final = 2


@dataclass(frozen=True, slots=True)
class LessonSpec:
    key: str
    #: the kind of action the lesson teaches (`Game.action_kind`), and the game phase it
    #: must be played in
    kind: str
    phase: str | None
    title: str  # N_
    task: str  # N_
    rule: str
    #: where every move of the lesson's kind is allowed, the kind of the wrong moves offered
    wrong_kind: str | None = None


LESSONS: Final[dict[str, tuple[LessonSpec, ...]]] = {
    "cards": (
        LessonSpec(
            "reserve",
            "place",
            "RESERVE",
            N_("Hand or reserve"),
            N_(
                "Before play, each card you were dealt goes to your hand or, face down, to "
                "your reserve, one card at a time and in secret. Reserve cards break ties "
                "later. Decide on the card offered."
            ),
            "C4",
        ),
        LessonSpec(
            "choose",
            "choose",
            "CHOOSE",
            N_("Choose a stack"),
            N_(
                "The players take turns choosing the stack of the pyramid to fight for. "
                "Only a stack in the bottom row, or one with a stack below it gone, may be "
                "chosen. Choose a stack."
            ),
            "C3",
        ),
        LessonSpec(
            "single",
            "single",
            "ATTACK",
            N_("Attack with one card"),
            N_(
                "Both players attack the chosen stack at the same time, face down, with "
                "cards from their hand; the higher value wins it. Attack with a single card."
            ),
            "C6",
        ),
        LessonSpec(
            "run",
            "run",
            "ATTACK",
            N_("Attack with a sequence"),
            N_(
                "A sequence is two or more cards of one suit with consecutive ranks, none "
                "above the Eight, worth the sum of their ranks. Attack with a sequence."
            ),
            "C6",
        ),
        LessonSpec(
            "joker",
            "joker_play",
            "ATTACK",
            N_("Play your Joker"),
            N_(
                "Playing your Joker declines the stack: you give it up but keep the Joker. "
                "If both players play their Joker, the stack is discarded. Play your Joker."
            ),
            "C6",
            wrong_kind="single",
        ),
        LessonSpec(
            "assign",
            "place",
            "ASSIGN",
            N_("Keep the won cards"),
            N_(
                "The winner of a stack puts each of its cards into their hand or their "
                "reserve, one at a time. Place the won card."
            ),
            "C11",
        ),
    ),
    "board": (
        LessonSpec(
            "place",
            "place",
            None,
            N_("Place your starting area"),
            N_(
                "Each player attaches their starting area to a tile of the outer ring that "
                "no other area touches. Your units enter the board from there. Place your "
                "area."
            ),
            "B3",
        ),
        LessonSpec(
            "recruit",
            "recruit",
            None,
            N_("Recruit a unit"),
            N_(
                "Each round you roll four dice: 1-2 recruit, 3-4 move, 5-6 turn. A recruit "
                "die brings one unit from your hand into your starting area. Recruit a unit."
            ),
            "B8",
        ),
        LessonSpec(
            "move",
            "move",
            None,
            N_("Move a unit"),
            N_(
                "A move die moves one unit: a runner up to 3 tiles, a fighter or a blocker "
                "1, only onto terrain it may enter. Move a unit toward the center."
            ),
            "B9",
        ),
        LessonSpec(
            "turn",
            "turn_ring",
            None,
            N_("Turn a ring"),
            N_(
                "A turn die turns a whole ring one tile, with its terrain and units, "
                "clockwise or counter-clockwise. Turn a ring."
            ),
            "B14",
            wrong_kind="move",
        ),
        LessonSpec(
            "swap",
            "swap",
            None,
            N_("Swap two tiles"),
            N_(
                "A turn die may instead swap the terrain of two neighbouring tiles of a "
                "ring, if their terrain differs. Swap two tiles."
            ),
            "B14.2",
        ),
        LessonSpec(
            "end",
            "end",
            None,
            N_("End your turn"),
            N_(
                "A turn has two actions. You may end it early; dice left unused at the end "
                "of your first turn of a round cost you one die each. End the turn."
            ),
            "B7",
        ),
    ),
}

RIGHT = N_("Right: {move}.")
LEGAL_BUT_OTHER = N_("{move} is allowed here, but this lesson asks for another kind of move.")
ILLEGAL = N_("{move} is not allowed: {reason}")


@dataclass(frozen=True, slots=True)
class Lesson:
    spec: LessonSpec
    state: GameState[Any, Any]
    seat: int
    #: the moves offered as buttons: one right, the others breaking a rule (in text order)
    choices: tuple[str, ...]


def _kind_of(state: GameState[Any, Any], action: Any) -> tuple[str, str | None]:
    phase = getattr(state.data, "phase", None)
    return state.game.action_kind(action), (phase.name if phase is not None else None)


def _teaches(spec: LessonSpec, state: GameState[Any, Any], action: Any) -> bool:
    kind, phase = _kind_of(state, action)
    return kind == spec.kind and (spec.phase is None or phase == spec.phase)


def _wrong_choices(
    state: GameState[Any, Any], seat: int, spec: LessonSpec, right: str
) -> list[str]:
    """Moves of the lesson's kind (or its ``wrong_kind``) that the rules refuse here,
    spread over the action space."""
    game = state.game
    legal = {game.action_id(a) for a in state.legal_actions(seat)}
    kind = spec.wrong_kind or spec.kind
    wrong = []
    for action_id in range(game.num_distinct_actions()):
        if action_id in legal:
            continue
        action = game.action_from_id(action_id)
        if game.action_kind(action) == kind:
            wrong.append(game.action_to_str(action))
    # moves paid the usual way teach the lesson's rule; odd payments teach only dice; a
    # move that stays where it is teaches nothing
    plain = [t for t in wrong if " by " not in t and not re.search(r"(\S+)>\1\b", t)]
    wrong = plain or wrong
    # the same unit from the same place as the right move, where there is one, first
    if ">" in right:
        start = right.split(">")[0] + ">"
        same = [t for t in wrong if t.startswith(start)]
        wrong = same + [t for t in wrong if not t.startswith(start)] if same else wrong
    # spread over the action space, each refused by a named rule
    stride = max(1, len(wrong) // (WRONG_CHOICES + 1))
    order = [wrong[(k * stride + stride // 2) % len(wrong)] for k in range(len(wrong))]
    chosen: list[str] = []
    for text in dict.fromkeys(order):
        _, rule = game.explain_illegal(state.data, seat, game.parse_action(text))
        if rule is not None:
            chosen.append(text)
        if len(chosen) == WRONG_CHOICES:
            break
    return chosen


@functools.cache
def lessons(game_name: str) -> tuple[Lesson, ...]:
    """The lessons of ``game_name`` with their positions (built once, by scripted play)."""
    specs = LESSONS.get(game_name)
    if specs is None:
        raise NotFoundError(N_("there is no tutorial for the game {game!r}"), game=game_name)
    game = load_game(game_name)
    state = game.new_initial_state()
    rng = random.Random(SEED)
    policies = {p: make_policy("heuristic", game, p, SEED) for p in range(game.num_players)}
    found: dict[str, Lesson] = {}
    for _ in range(MAX_STEPS):
        if state.is_terminal() or len(found) == len(specs):
            break
        to_move = state.to_move()
        if to_move.kind is NodeKind.CHANCE:
            state.apply_action(state.sample_chance(rng))
            continue
        for seat in to_move.players:
            legal = state.legal_actions(seat)
            for spec in specs:
                if spec.key in found:
                    continue
                right = [a for a in legal if _teaches(spec, state, a)]
                if right:
                    text = game.action_to_str(right[0])
                    choices = [text, *_wrong_choices(state, seat, spec, text)]
                    found[spec.key] = Lesson(spec, state.clone(), seat, tuple(sorted(choices)))
        if to_move.kind is NodeKind.SIMULTANEOUS:
            state.apply_actions({p: policies[p](state, p, rng) for p in to_move.players})
        else:
            seat = to_move.players[0]
            state.apply_action(policies[seat](state, seat, rng), seat)
    return tuple(found[spec.key] for spec in specs if spec.key in found)


def lesson_entry(lesson: Lesson, lang: str = DEFAULT) -> LessonEntry:
    """A lesson as the page draws it: the seat's view, as a table message, and its task."""
    _ = Translator(lang)
    state, seat = lesson.state, lesson.seat
    game = state.game
    seats = [
        SeatSummary(
            seat=s,
            kind=SeatKind.HUMAN if s == seat else SeatKind.COMPUTER,
            agent=None if s == seat else "heuristic",
            claimed=True,
        )
        for s in range(game.num_players)
    ]
    message = {
        "game": game.name,
        "params": game.params.to_json(),
        "version": state.num_moves,
        "seat": seat,
        "seats": [s.model_dump(mode="json") for s in seats],
        "to_move": to_move_info(state).model_dump(mode="json"),
        "submitted": [],
        "view": state.view(seat),
        "legal": [action_entry(game, a).model_dump(mode="json") for a in state.legal_actions(seat)],
        "outcome": None,
        "notes": [],
    }
    return LessonEntry(
        key=lesson.spec.key,
        title=_(lesson.spec.title),
        task=_(lesson.spec.task),
        rule=lesson.spec.rule,
        choices=list(lesson.choices),
        message=message,
    )


def all_lessons(game_name: str, lang: str = DEFAULT) -> list[LessonEntry]:
    return [lesson_entry(lesson, lang) for lesson in lessons(game_name)]


def try_move(game_name: str, key: str, body: LessonTry, lang: str = DEFAULT) -> LessonTryResponse:
    """The engine's verdict on a move in lesson ``key`` (nothing is stored)."""
    _ = Translator(lang)
    lesson = next((x for x in lessons(game_name) if x.spec.key == key), None)
    if lesson is None:
        raise NotFoundError(
            N_("the {game} tutorial has no lesson {key!r}"), game=game_name, key=key
        )
    state, seat = lesson.state, lesson.seat
    game = state.game
    if body.action_id is not None:
        action = game.action_from_id(body.action_id)
    else:
        assert body.action is not None  # the model's validator: exactly one is given
        action = game.parse_action(body.action)
    text = game.action_to_str(action)
    if not any(game.action_id(a) == game.action_id(action) for a in state.legal_actions(seat)):
        reason, rule = game.explain_illegal(state.data, seat, action)
        return LessonTryResponse(
            correct=False, legal=False, text=_(ILLEGAL, move=text, reason=reason), rule=rule
        )
    if not _teaches(lesson.spec, state, action):
        return LessonTryResponse(
            correct=False, legal=True, text=_(LEGAL_BUT_OTHER, move=text), rule=lesson.spec.rule
        )
    after = None
    if state.to_move().kind is NodeKind.PLAYER:
        moved = state.clone()
        moved.apply_action(action, seat)
        after = moved.view(seat)
    return LessonTryResponse(
        correct=True, legal=True, text=_(RIGHT, move=text), rule=lesson.spec.rule, after=after
    )
