"""Time controls, resigning and absence: the rules, as pure functions over a game's
stored ``clock`` (JSON) and its replayed state. Nothing here touches the database or
the event loop; :mod:`koth.server.games.timekeeping` stores what these functions decide.

The stored clock (``games.clock``, null for a game created before clocks existed or
without one, read as "none")::

    {"mode": "none" | "move" | "chess", "seconds": 60, "increment": 0,
     "on_timeout": "computer" | "lose", "level": "casual",
     "since": 1764331200.5 | null,    # when the seats now owing a decision began to owe
                                       # it (null: the clocks have not started)
     "left": {"0": 300000, ...},       # chess: each seat's time left at ``since`` (ms)
     "computer": [1],                  # seats the computer plays until their person returns
     "resigned": [2]}                  # seats whose person resigned (3-4 seat games)

The rules (docs/server.md, "Clocks, resigning and absence"):

- The clocks start when every seat has been taken; a computer seat has no clock, nor
  a seat the computer plays for its absent person.
- A seat owes a decision when it is to act and (at a secret choice) has not chosen yet;
  every seat that owes one has its clock running.
- ``move``: a decision has ``seconds``; the time starts again at every decision.
- ``chess``: the time a decision took comes off the seat's total, and ``increment`` is
  added after it; at a secret choice each seat pays until it chose.
- A clock that runs out: the computer plays the seat at ``level`` until its person makes
  a move or presses "I'm back" (``computer``), or the game ends and the seat loses
  (``lose``). A person back on a chess clock that had run out gets the back allowance.
- Resigning: in a game of two the other seat wins. With three or four seats the seat is
  out: the computer plays it on (at ``level``) so the others' game goes on, and it can
  win nothing; once one seat is left that has not resigned, the game ends and it wins.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from typing import Any

from pydantic import ValidationError

from koth.core.errors import InvalidParamsError
from koth.core.state import GameState
from koth.i18n import N_, Translator
from koth.server.games.clock_schemas import (
    ClockInfo,
    ClockMode,
    ClockOptions,
    Ending,
    EndReason,
    OnTimeout,
    SeatClock,
)
from koth.server.games.rows import StoredSeat
from koth.server.games.schemas import SeatKind

#: a person back on a chess clock that had run out has at least this much (ms)
BACK_ALLOWANCE_MS = 30_000

ENDING_TEXTS = {
    EndReason.RESIGNED: N_("Seat {n} resigned"),
    EndReason.OUT_OF_TIME: N_("Seat {n} ran out of time"),
}
ENDING_TEXTS_NAMED = {
    EndReason.RESIGNED: N_("Seat {n} ({name}) resigned"),
    EndReason.OUT_OF_TIME: N_("Seat {n} ({name}) ran out of time"),
}

Clock = dict[str, Any]


def new_clock(options: ClockOptions | None, num_players: int) -> Clock | None:
    """The stored clock of a new game (None: friendly, nothing to keep yet)."""
    if options is None or options.mode is ClockMode.NONE:
        return None
    clock: Clock = {
        "mode": options.mode.value,
        "seconds": options.seconds,
        "increment": options.increment,
        "on_timeout": options.on_timeout.value,
        "level": options.level,
        "since": None,
        "computer": [],
        "resigned": [],
    }
    if options.mode is ClockMode.CHESS:
        clock["left"] = {str(s): options.seconds * 1000 for s in range(num_players)}
    return clock


def clock_from_form(form: dict[str, str]) -> ClockOptions | None:
    """The time control of the lobby's form (``clock.*`` fields); None: none."""
    mode = form.get("clock.mode", "none") or "none"
    if mode == ClockMode.NONE.value:
        return None
    fields = {
        key: form[f"clock.{key}"]
        for key in ("seconds", "increment", "on_timeout", "level")
        if form.get(f"clock.{key}", "").strip()
    }
    if mode != ClockMode.CHESS.value and fields.get("increment", "0").strip() == "0":
        fields.pop("increment", None)
    try:
        return ClockOptions.model_validate({"mode": mode, **fields})
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(map(str, e['loc'])) or 'clock'}: {e['msg']}" for e in exc.errors()
        )
        raise InvalidParamsError(f"time control: {problems}") from None


def friendly(level: str = "casual") -> Clock:
    """The clock of a game without time control (what a resignation or a stand-in is
    stored in when the game had none)."""
    return {
        "mode": ClockMode.NONE.value,
        "seconds": 0,
        "increment": 0,
        "on_timeout": OnTimeout.COMPUTER.value,
        "level": level,
        "since": None,
        "computer": [],
        "resigned": [],
    }


def owes_computer(
    seats: Sequence[StoredSeat], state: GameState[Any, Any], submitted: Iterable[int] = ()
) -> bool:
    """Whether a computer seat (``acting_seats``: one the computer plays for its person
    too) is to act in ``state`` and has not submitted yet."""
    if state.is_terminal():
        return False
    done = set(submitted)
    return any(
        seats[seat].kind is SeatKind.COMPUTER and seat not in done
        for seat in state.acting_players()
    )


def timed(clock: Clock | None) -> bool:
    return clock is not None and clock.get("mode", "none") != ClockMode.NONE.value


def computer_plays(clock: Clock | None, seat: int) -> bool:
    """The computer plays ``seat`` for its absent (or resigned) person now."""
    return clock is not None and (seat in clock["computer"] or seat in clock["resigned"])


def acting_seats(seats: Sequence[StoredSeat], clock: Clock | None) -> list[StoredSeat]:
    """The seats as the computer worker sees them: a seat the computer plays for its
    person is a computer seat at the clock's level."""
    if clock is None:
        return list(seats)
    return [
        StoredSeat(s.seat, SeatKind.COMPUTER, clock["level"], None, s.token_hash, s.claimed)
        if s.kind is SeatKind.HUMAN and computer_plays(clock, s.seat)
        else s
        for s in seats
    ]


def owing(
    state: GameState[Any, Any],
    seats: Sequence[StoredSeat],
    clock: Clock | None,
    submitted: Collection[int] = (),
) -> list[int]:
    """The people's seats whose clock runs now: to act, not chosen yet, not played by
    the computer."""
    if not timed(clock) or state.is_terminal():
        return []
    return [
        seat
        for seat in state.acting_players()
        if seats[seat].kind is SeatKind.HUMAN
        and seat not in submitted
        and not computer_plays(clock, seat)
    ]


def left_ms(clock: Clock, seat: int, now: float, running: bool) -> int:
    """``seat``'s time left at ``now`` (its clock counted down while ``running``)."""
    since = clock["since"]
    spent = int((now - since) * 1000) if running and since is not None else 0
    if clock["mode"] == ClockMode.CHESS.value:
        return int(clock["left"][str(seat)]) - spent
    return int(clock["seconds"]) * 1000 - spent


def deadline(clock: Clock | None, running: Iterable[int]) -> float | None:
    """When the first of the ``running`` clocks runs out (epoch seconds), or None."""
    if not timed(clock) or clock is None or clock["since"] is None:
        return None
    since = float(clock["since"])
    ends = [since + left_ms(clock, seat, since, running=False) / 1000 for seat in running]
    return min(ends) if ends else None


def start(clock: Clock, now: float) -> Clock:
    """The clocks start (every seat is taken)."""
    return {**clock, "since": now} if clock["since"] is None else clock


def after_decisions(clock: Clock, paid: dict[int, float], now: float) -> Clock:
    """The seats of ``paid`` made their decisions (each at the time given: a secret
    choice is paid until it was made); the next decisions begin ``now``."""
    if clock["since"] is None:
        return clock
    since = float(clock["since"])
    new = {**clock, "since": now}
    if clock["mode"] == ClockMode.CHESS.value:
        left = dict(clock["left"])
        for seat, at in paid.items():
            spent = int((max(at, since) - since) * 1000)
            left[str(seat)] = max(0, int(left[str(seat)]) - spent) + clock["increment"] * 1000
        new["left"] = left
    return new


def out_of_time(clock: Clock, running: Iterable[int], now: float) -> list[int]:
    """The ``running`` seats whose time is up at ``now``."""
    return [seat for seat in running if left_ms(clock, seat, now, running=True) <= 0]


def hand_to_computer(clock: Clock, seats: Iterable[int], now: float) -> Clock:
    """The computer plays ``seats`` from now on (their clocks stop where they are)."""
    new = {**clock, "computer": sorted({*clock["computer"], *seats})}
    if clock["mode"] == ClockMode.CHESS.value and clock["since"] is not None:
        left = dict(clock["left"])
        for seat in seats:
            left[str(seat)] = max(0, left_ms(clock, seat, now, running=True))
        new["left"] = left
    return new


def back(clock: Clock, seat: int, now: float, others_running: Iterable[int]) -> Clock:
    """``seat``'s person is back: the computer stops playing it, and its clock starts
    again from ``now`` (the others' go on)."""
    new = {**clock, "computer": [s for s in clock["computer"] if s != seat]}
    if clock["since"] is None:
        return new
    if clock["mode"] == ClockMode.CHESS.value:
        # the others are charged up to now, so that ``since`` can move to now for all
        left = dict(clock["left"])
        for other in others_running:
            left[str(other)] = max(0, left_ms(clock, other, now, running=True))
        left[str(seat)] = max(int(left[str(seat)]), BACK_ALLOWANCE_MS)
        new["left"] = left
        new["since"] = now
    else:
        new["since"] = now  # a new decision period for the seats owing one
    return new


def resign(clock: Clock | None, seat: int, num_players: int) -> tuple[Clock, list[int] | None]:
    """``seat`` resigns: the new clock, and the winners when that ends the game (None:
    the computer plays the seat on)."""
    base = clock if clock is not None else friendly()
    new = {**base, "resigned": sorted({*base["resigned"], seat})}
    remaining = [s for s in range(num_players) if s not in new["resigned"]]
    if len(remaining) <= 1:
        return new, remaining
    return new, None


def ending_outcome(reason: EndReason, seat: int, winners: Sequence[int]) -> dict[str, Any]:
    """The stored outcome of a game ended by a resignation or a clock."""
    return {"termination": reason.value, "winners": sorted(winners), "seat": seat}


def ending_of(
    outcome: dict[str, Any] | None, seats: Sequence[StoredSeat], lang: str
) -> Ending | None:
    """How the game ended outside its rules, worded in ``lang``; None otherwise."""
    if outcome is None or outcome.get("termination") not in set(EndReason):
        return None
    reason = EndReason(outcome["termination"])
    seat = int(outcome["seat"])
    name = seats[seat].name
    _ = Translator(lang)
    text = (
        _(ENDING_TEXTS_NAMED[reason], n=seat + 1, name=name)
        if name
        else _(ENDING_TEXTS[reason], n=seat + 1)
    )
    return Ending(reason=reason, seat=seat, winners=list(outcome["winners"]), text=text)


def clock_info(
    clock: Clock | None, seats: Sequence[StoredSeat], running: Collection[int], now: float
) -> ClockInfo | None:
    """The table's clocks for a message (None: no clock and nobody resigned or away)."""
    if clock is None:
        return None
    timing = timed(clock)
    return ClockInfo(
        mode=ClockMode(clock["mode"]),
        seconds=int(clock["seconds"]),
        increment=int(clock["increment"]),
        on_timeout=OnTimeout(clock["on_timeout"]),
        level=str(clock["level"]),
        started=clock["since"] is not None,
        seats=[
            SeatClock(
                seat=s.seat,
                left_ms=(
                    max(0, left_ms(clock, s.seat, now, s.seat in running))
                    if timing and s.kind is SeatKind.HUMAN and s.seat not in clock["resigned"]
                    else None
                ),
                running=s.seat in running,
                computer=s.kind is SeatKind.HUMAN and computer_plays(clock, s.seat),
                resigned=s.seat in clock["resigned"],
            )
            for s in seats
        ],
    )
