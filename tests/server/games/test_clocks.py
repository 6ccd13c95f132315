"""The rules of clocks, resigning and absence (koth.server.games.clocks), on exact times."""

from __future__ import annotations

import pytest

from koth.server.games import clocks
from koth.server.games.clock_schemas import ClockMode, ClockOptions, OnTimeout
from koth.server.games.rows import StoredSeat
from koth.server.games.schemas import SeatKind

T0 = 1_000_000.0


def chess(seconds: int = 300, increment: int = 5) -> clocks.Clock:
    made = clocks.new_clock(
        ClockOptions(mode=ClockMode.CHESS, seconds=seconds, increment=increment), 2
    )
    assert made is not None
    return clocks.start(made, T0)


def test_a_friendly_game_keeps_no_clock() -> None:
    assert clocks.new_clock(None, 2) is None
    assert clocks.new_clock(ClockOptions(), 2) is None
    assert not clocks.timed(clocks.friendly())


def test_an_increment_goes_with_the_chess_clock_only() -> None:
    with pytest.raises(ValueError, match="increment"):
        ClockOptions(mode=ClockMode.MOVE, seconds=60, increment=5)


def test_the_chess_clock_takes_the_time_spent_and_adds_the_increment() -> None:
    clock = chess(300, 5)
    assert clocks.deadline(clock, [0]) == T0 + 300
    after = clocks.after_decisions(clock, {0: T0 + 20}, T0 + 20)
    assert after["left"] == {"0": 285_000, "1": 300_000}  # 300 - 20 + 5
    assert after["since"] == T0 + 20
    assert clocks.deadline(after, [1]) == T0 + 20 + 300
    again = clocks.after_decisions(after, {1: T0 + 120}, T0 + 120)
    assert again["left"] == {"0": 285_000, "1": 205_000}  # 300 - 100 + 5


def test_at_a_secret_choice_each_seat_pays_until_it_chose() -> None:
    clock = chess(60, 0)
    after = clocks.after_decisions(clock, {0: T0 + 10, 1: T0 + 40}, T0 + 40)
    assert after["left"] == {"0": 50_000, "1": 20_000}
    assert clocks.deadline(clock, [0, 1]) == T0 + 60


def test_a_clock_that_ran_out_never_goes_below_nothing() -> None:
    clock = chess(60, 2)
    assert clocks.out_of_time(clock, [0], T0 + 59.9) == []
    assert clocks.out_of_time(clock, [0], T0 + 60) == [0]
    assert clocks.after_decisions(clock, {0: T0 + 90}, T0 + 90)["left"]["0"] == 2_000


def test_per_decision_time_starts_again_at_every_decision() -> None:
    made = clocks.new_clock(ClockOptions(mode=ClockMode.MOVE, seconds=60), 2)
    assert made is not None and "left" not in made
    clock = clocks.start(made, T0)
    assert clocks.deadline(clock, [0, 1]) == T0 + 60
    after = clocks.after_decisions(clock, {0: T0 + 59}, T0 + 59)
    assert clocks.deadline(after, [1]) == T0 + 119
    assert clocks.left_ms(after, 1, T0 + 89, running=True) == 30_000


def test_a_seat_run_out_is_played_by_the_computer_until_its_person_is_back() -> None:
    clock = chess(60, 0)
    seats = [StoredSeat(s, SeatKind.HUMAN, None, None, f"h{s}", True) for s in (0, 1)]
    stood = clocks.hand_to_computer(clock, [0], T0 + 61)
    assert clocks.computer_plays(stood, 0) and not clocks.computer_plays(stood, 1)
    assert stood["left"]["0"] == 0
    acting = clocks.acting_seats(seats, stood)
    assert acting[0].kind is SeatKind.COMPUTER and acting[0].agent == "casual"
    assert acting[1].kind is SeatKind.HUMAN
    back = clocks.back(stood, 0, T0 + 100, others_running=[1])
    assert not clocks.computer_plays(back, 0)
    assert back["left"]["0"] == clocks.BACK_ALLOWANCE_MS  # a run-out clock gets the allowance
    assert back["left"]["1"] == 0  # charged up to now: it ran out too, and goes next
    assert back["since"] == T0 + 100


def test_resigning_in_a_game_of_two_ends_it() -> None:
    clock, winners = clocks.resign(None, 1, 2)
    assert winners == [0] and clock["resigned"] == [1]


def test_resigning_with_more_seats_leaves_the_seat_to_the_computer_until_one_is_left() -> None:
    clock, winners = clocks.resign(None, 1, 3)
    assert winners is None and clocks.computer_plays(clock, 1)
    clock, winners = clocks.resign(clock, 0, 3)
    assert winners == [2] and clock["resigned"] == [0, 1]


def test_the_ending_is_worded_with_the_seat_and_its_name() -> None:
    seats = [
        StoredSeat(0, SeatKind.HUMAN, None, None, "a", True, name="Boris"),
        StoredSeat(1, SeatKind.HUMAN, None, None, "b", True, name="Anna"),
    ]
    outcome = clocks.ending_outcome(clocks.EndReason.RESIGNED, 1, [0])
    ending = clocks.ending_of(outcome, seats, "en")
    assert ending is not None and ending.text == "Seat 2 (Anna) resigned" and ending.winners == [0]
    late = clocks.ending_of(
        clocks.ending_outcome(clocks.EndReason.OUT_OF_TIME, 0, [1]), seats, "en"
    )
    assert late is not None and late.text == "Seat 1 (Boris) ran out of time"
    assert clocks.ending_of({"termination": "fold", "winners": [1]}, seats, "en") is None
    assert OnTimeout.LOSE.value == "lose"
