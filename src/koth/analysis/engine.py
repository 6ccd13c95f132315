"""Analyse a game record decision by decision, from each player's own information.

At every decision of the analysed seat a search agent (``ismcts`` or ``mcts``) searches
the seat's information set: ``InformationSet.of(state, seat)`` hands the agent the
seat's view and a sampler that redraws everything the seat could not know
(``resample_hidden``), exactly as in play. So an estimate never uses a card or a
choice that the seat could not have known at that moment, even though the record holds
every secret.

The search's root statistics give, per action, the mean return, turned into a win
chance on the game's scale of returns (``facts.min_utility`` to ``max_utility``: a loss
0, a win 1, a draw of a two-player zero-sum game 0.5). The win chance of a decision is
that of the move the agent prefers (its most visited); the move played keeps its own
estimate when the search tried it at least ``MIN_VISITS`` times, and otherwise takes
the estimate of the seat's next decision (or the final result): a move the search
hardly tried is judged by where it led. The drop between the two marks the move.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Collection, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from koth.agents.base import Agent, DecisionContext, InformationSet, derive_seed
from koth.agents.mcts import SearchAgent
from koth.agents.registry import make_agent, parse_spec
from koth.agents.search import Arms
from koth.core.errors import InvalidParamsError, RecordError
from koth.core.game import Game
from koth.core.players import CHANCE, PlayerId, seat_name
from koth.core.record import GameRecord, moves_from_record, replay
from koth.core.state import GameState

#: the games a search agent can analyse (the quiz has no agents)
ANALYSABLE_GAMES: Final = ("cards", "board")
#: the default agent: information-set search, reproducible with its iteration budget
DEFAULT_AGENT: Final = "ismcts:iters=1000"
#: visits below which the search's estimate of the played move is not trusted
MIN_VISITS: Final = 10


class Mark(enum.Enum):
    """How much win chance a move gave away (thresholds in ``THRESHOLDS``)."""

    BLUNDER = "??"
    MISTAKE = "?"
    INACCURACY = "?!"
    NONE = ""

    @property
    def label(self) -> str:
        return {"??": "blunder", "?": "mistake", "?!": "inaccuracy", "": ""}[self.value]


#: the least drop in win chance (0-1) for each mark, worst first
THRESHOLDS: Final[tuple[tuple[Mark, float], ...]] = (
    (Mark.BLUNDER, 0.20),
    (Mark.MISTAKE, 0.10),
    (Mark.INACCURACY, 0.05),
)


def mark_for(drop: float) -> Mark:
    """The mark a move earns by losing ``drop`` win chance."""
    for mark, least in THRESHOLDS:
        if drop >= least:
            return mark
    return Mark.NONE


@dataclass(frozen=True, slots=True)
class Option:
    """One root action as the search saw it."""

    action: str
    visits: int
    win_chance: float


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of the analysed seat."""

    #: index of the record's move that holds the decision (0: the first move)
    move: int
    seat: PlayerId
    played: str
    preferred: str
    #: the seat's win chance (0-1) with the preferred move, as the search estimates it
    win_chance: float
    #: the win chance after the move played (see the module docstring)
    played_chance: float
    #: whether ``played_chance`` is the search's own estimate of the move played
    played_searched: bool
    iterations: int
    #: the root actions the search tried, most visited first
    options: tuple[Option, ...]

    @property
    def drop(self) -> float:
        return max(0.0, self.win_chance - self.played_chance)

    @property
    def mark(self) -> Mark:
        return mark_for(self.drop)


@dataclass(frozen=True, slots=True)
class SeatAnalysis:
    seat: PlayerId
    decisions: tuple[Decision, ...]
    #: the seat's final result on the same 0-1 scale (1 a win, 0 a loss)
    result: float


@dataclass(frozen=True, slots=True)
class GameAnalysis:
    game: str
    agent: str
    moves: int
    seats: tuple[SeatAnalysis, ...]


Progress = Callable[[int, int], None]
"""``(decisions done, decisions in all)``, called after each decision."""


def analysis_spec(spec: str) -> str:
    """``spec`` checked to be a search agent, with early stopping off unless asked for:
    an analysis wants estimates of the moves not chosen too, which early stopping
    starves of visits."""
    name, options = parse_spec(spec)
    if name not in ("mcts", "ismcts", "learned") or options.get("search") == "0":
        raise InvalidParamsError(
            f"analysis needs a search agent (ismcts, mcts or learned), not {name!r} (in {spec!r})"
        )
    if "early" not in options:
        spec = f"{spec}:early=0"
    make_agent(spec)  # raises on a bad option
    return spec


def load_analysable(path: str) -> GameRecord:
    """The record at ``path``, refused with a RecordError unless it is a card or board
    game record (a quiz protocol is named as such)."""
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except OSError as exc:
        raise RecordError(f"cannot read record {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise RecordError(f"{path} is not a text file, so not a koth record") from None
    stripped = text.lstrip()
    if stripped.startswith("{") and '"config"' in text and '"format"' not in text:
        raise RecordError(
            f"{path} looks like a quiz protocol; only card and board game records can be "
            "analysed (a protocol is scored with `koth quiz score`)"
        )
    record = GameRecord.from_json_text(text)
    check_analysable(record)
    return record


def check_analysable(record: GameRecord) -> None:
    if record.game not in ANALYSABLE_GAMES:
        raise RecordError(
            f"a {record.game!r} record cannot be analysed: only {' and '.join(ANALYSABLE_GAMES)} "
            "have search agents"
        )


def win_chance(game: Game[Any, Any, Any], value: float) -> float:
    """A return (or mean return) on the 0-1 scale of the game's returns."""
    facts = game.facts()
    if facts is None:  # a game that states no range: returns taken as -1..1
        low, high = -1.0, 1.0
    else:
        low, high = facts.min_utility, facts.max_utility
    if high <= low:
        return 0.5
    return min(1.0, max(0.0, (value - low) / (high - low)))


def root_options(
    game: Game[Any, Any, Any], root: Arms, preferred: Hashable
) -> list[tuple[Hashable, Option]]:
    """The root actions tried, the preferred first (it wins ties of visits), then by
    visits and win chance."""
    found = [
        (action, Option(game.action_to_str(action), n, win_chance(game, root.totals[action] / n)))
        for action, n in root.visits.items()
        if n > 0
    ]
    found.sort(key=lambda pair: (pair[0] != preferred, -pair[1].visits, -pair[1].win_chance))
    return found


@dataclass(frozen=True, slots=True)
class _Searched:
    preferred: str
    win_chance: float
    played_chance: float | None
    iterations: int
    options: tuple[Option, ...]


def decide(
    agent: Agent[Any], state: GameState[Any, Any], seat: PlayerId
) -> tuple[Any, InformationSet[Any, Any]]:
    """``agent``'s move for ``seat`` at ``state``, decided from the seat's information set
    (returned too) as in play: the state itself only builds that set."""
    info = InformationSet.of(state, seat)
    movers = state.movers
    context = DecisionContext(
        info, len(movers) - movers.count(CHANCE), state.is_simultaneous_node()
    )
    return agent.act(info.view, info.legal_actions, context), info


def analyse_position(
    state: GameState[Any, Any],
    seat: PlayerId,
    played: Any,
    spec: str,
    seed: int,
) -> _Searched:
    """Search ``seat``'s information set at ``state`` (the state itself is only used to
    build that set: the agent sees the view and sampled states)."""
    agent = make_agent(spec)
    if not isinstance(agent, SearchAgent):
        raise InvalidParamsError(f"analysis needs a search agent, not {spec!r}")
    game = state.game
    agent.reset(game, seat, seed)
    preferred, _ = decide(agent, state, seat)
    root = agent.last_root
    options = root_options(game, root, preferred) if root is not None else []
    by_action = dict(options)
    best = by_action.get(preferred)
    chance = best.win_chance if best is not None else 0.5
    mine = by_action.get(played)
    played_chance = mine.win_chance if mine is not None and mine.visits >= MIN_VISITS else None
    return _Searched(
        game.action_to_str(preferred),
        chance,
        played_chance,
        agent.last_iterations,
        tuple(option for _, option in options),
    )


def _decision_points(
    game: Game[Any, Any, Any],
    record: GameRecord,
    seats: Sequence[PlayerId],
    moves: Collection[int] | None,
) -> list[tuple[int, PlayerId, GameState[Any, Any], Any]]:
    """(move index, seat, state before the move, action the seat played) for every real
    choice (more than one legal action) of ``seats`` (at ``moves`` only, if given)."""
    state = game.new_initial_state()
    points = []
    for index, move in enumerate(moves_from_record(game, record)):
        if moves is not None and index not in moves:
            state.apply_move(move)
            continue
        for player, action in move.actions:
            if player in seats and len(state.legal_actions(player)) > 1:
                points.append((index, player, state.clone(), action))
        state.apply_move(move)
    return points


def analyse_record(
    record: GameRecord,
    *,
    seats: Sequence[PlayerId] | None = None,
    agent: str = DEFAULT_AGENT,
    seed: int = 0,
    moves: Collection[int] | None = None,
    progress: Progress | None = None,
) -> GameAnalysis:
    """Analyse every decision of ``seats`` (default: every seat) in ``record``, or only
    those at the record's ``moves`` (indices); a move played without a search estimate
    is then judged by the next analysed decision of its seat.

    Raises RecordError for a record that does not replay or is not of an analysable
    game, and InvalidParamsError for a bad agent spec or seat.
    """
    check_analysable(record)
    spec = analysis_spec(agent)
    final = replay(record)  # checks every move, naming the first bad one
    game = final.game
    chosen = list(range(game.num_players)) if seats is None else list(seats)
    for seat in chosen:
        if not 0 <= seat < game.num_players:
            raise InvalidParamsError(
                f"{seat_name(seat)} is not at this {game.name} table (seats 1-{game.num_players})"
            )
    if not final.is_terminal():
        raise RecordError("the record's game is not finished: only finished games are analysed")
    points = _decision_points(game, record, chosen, moves)
    results = final.returns()
    searched: dict[PlayerId, list[tuple[int, str, _Searched]]] = {s: [] for s in chosen}
    for done, (index, seat, state, played) in enumerate(points, start=1):
        found = analyse_position(state, seat, played, spec, derive_seed(seed, "analysis", index))
        searched[seat].append((index, game.action_to_str(played), found))
        if progress is not None:
            progress(done, len(points))
    analyses = []
    for seat in chosen:
        result = win_chance(game, results[seat])
        rows = searched[seat]
        decisions = []
        for position, (index, played, found) in enumerate(rows):
            following = rows[position + 1][2].win_chance if position + 1 < len(rows) else result
            own = found.played_chance
            decisions.append(
                Decision(
                    move=index,
                    seat=seat,
                    played=played,
                    preferred=found.preferred,
                    win_chance=found.win_chance,
                    played_chance=following if own is None else own,
                    played_searched=own is not None,
                    iterations=found.iterations,
                    options=found.options,
                )
            )
        analyses.append(SeatAnalysis(seat, tuple(decisions), result))
    return GameAnalysis(game.name, spec, final.num_moves, tuple(analyses))
