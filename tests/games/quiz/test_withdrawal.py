"""Rule Q36 (hosted evenings): a team that withdraws answers nothing from then on, stays
in the standings, and what becomes of a withdrawn King. Played on the hosted event's
fold (:class:`koth.server.quiz.model.EventModel`), whose engine state is the quiz
engine's own."""

from __future__ import annotations

from typing import Any

import pytest

from koth.games.quiz import situation
from koth.server.errors import WrongPhaseError
from koth.server.quiz import ops
from koth.server.quiz.model import EventModel

TEAMS = ["A", "B", "C"]


def event(**settings: Any) -> EventModel:
    model = EventModel("q36")
    options = {"steps": 3, "hold_moves": 5, "questions": 20, "spurs_per_slope": 0}
    model.fold(
        [
            ops.Created(
                settings=ops.EventSettings(teams=TEAMS, **{**options, **settings}), spur_seed=0
            ),
            ops.PartStarted(name="game", teams=TEAMS, spurs={}),
        ]
    )
    return model


def play(
    model: EventModel,
    right: set[str],
    wrong: set[str] = frozenset(),  # type: ignore[assignment]
    revolution: str | None = None,
) -> None:
    part = model.current_part()
    n = len(part.questions) + 1
    rows: list[ops.Op] = [ops.QuestionOpened(question=n)]
    if revolution:
        rows.append(ops.Declared(question=n, team=revolution, declaration="revolution"))
    rows.append(ops.Locked(question=n, at=float(n)))
    for team in sorted(right | wrong):
        rows.append(
            ops.Answered(
                question=n,
                team=team,
                text=team,
                at=n + 1.0,
                submission_id=f"sid-{n}-{team}",
                by="judge",
            )
        )
    if right:
        rows.append(ops.Judged(question=n, teams=sorted(right), correct=True))
    if wrong:
        rows.append(ops.Judged(question=n, teams=sorted(wrong), correct=False))
    rows.append(ops.Resolved(question=n))
    model.fold(rows)


def crowned_a(model: EventModel) -> None:
    """A reaches the Peak on question 3, B stands one step below."""
    play(model, {"A", "B"})
    play(model, {"A", "B"})
    play(model, {"A"}, {"B"})
    assert situation(model.current_part().state).king == "A"


def withdraw(model: EventModel, team: str) -> None:
    model.apply(ops.TeamWithdrawn(team=team, at=99.0), model.seq + 1)


def test_q36_a_withdrawn_team_declares_and_answers_nothing_and_keeps_its_place() -> None:
    model = event()
    play(model, {"A", "C"})
    withdraw(model, "C")
    before = situation(model.current_part().state)
    model.apply(ops.QuestionOpened(question=2), model.seq + 1)
    with pytest.raises(WrongPhaseError, match="withdrawn"):
        model.apply(ops.Declared(question=2, team="C", declaration="jump"), model.seq + 1)
    model.apply(ops.Locked(question=2, at=2.0), model.seq + 1)
    with pytest.raises(WrongPhaseError, match="withdrawn"):
        model.apply(
            ops.Answered(
                question=2, team="C", text="x", at=3.0, submission_id="sid-c-2", by="judge"
            ),
            model.seq + 1,
        )
    model.apply(ops.Resolved(question=2), model.seq + 1)
    after = situation(model.current_part().state)
    row = {t.name: t for t in after.teams}["C"]
    assert (row.position, row.points) == ({t.name: t for t in before.teams}["C"].position, 1)


def test_q36_a_withdrawn_king_stays_until_a_revolutionary_answers_right() -> None:
    model = event()
    crowned_a(model)
    withdraw(model, "A")
    play(model, set(), {"B"}, revolution="B")  # the Revolution fails: A keeps the Peak
    kept = situation(model.current_part().state)
    assert (kept.king, kept.king_hold) == ("A", 1)
    overthrown = event()
    crowned_a(overthrown)
    withdraw(overthrown, "A")
    play(overthrown, {"B"}, revolution="B")  # A gives no answer (wrong, Q2): B takes it
    assert situation(overthrown.current_part().state).king == "B"


def test_q36_the_kings_withdrawal_can_be_refused_by_the_events_settings() -> None:
    model = event(withdrawn_king="refused")
    crowned_a(model)
    seq = model.seq
    with pytest.raises(WrongPhaseError, match="King cannot withdraw"):
        withdraw(model, "A")
    assert model.seq == seq and not model.withdrawn("A")
    withdraw(model, "C")  # any other team may
    assert model.withdrawn("C")
