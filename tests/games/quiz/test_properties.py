"""Hypothesis properties of the quiz engine (issue 5, "Done when")."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from koth.games.quiz import (
    AnswerReceived,
    DeclarationMade,
    DeclarationsLocked,
    JudgementCorrected,
    QuestionClosed,
    QuestionOpened,
    QuizConfig,
    QuizEvent,
    QuizState,
    apply_event,
    events_from_json,
    events_to_json,
    fold,
    initial_state,
    legal_declarations,
    make_config,
    situation,
)

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def games(draw: Any) -> tuple[QuizConfig, list[QuizEvent], QuizState]:
    n = draw(st.integers(2, 6))
    teams = [f"T{i}" for i in range(n)]
    steps = draw(st.integers(3, 8))
    spurs = {t: tuple(sorted(draw(st.sets(st.integers(1, steps - 1), max_size=2)))) for t in teams}
    config = make_config(
        teams,
        steps=steps,
        hold_moves=draw(st.integers(1, 4)),
        questions=draw(st.integers(3, 25)),
        spurs=spurs,
        partner_questions=draw(st.sets(st.integers(1, 3))),
        prize_places=draw(st.integers(1, 3)),
    )
    p_right = draw(st.sampled_from([0.3, 0.6, 0.9]))
    state = initial_state(config)
    events: list[QuizEvent] = []

    def push(event: QuizEvent) -> None:
        nonlocal state
        state = apply_event(state, event)
        events.append(event)

    k = 0
    while not state.finished:
        k += 1
        push(QuestionOpened(k))
        for t in teams:
            options = sorted(legal_declarations(state, t))
            choice = draw(st.sampled_from(options))
            if choice != "ordinary":
                push(DeclarationMade(k, t, choice))
        push(DeclarationsLocked(k))
        for t in teams:
            roll = draw(st.floats(0, 1))
            if roll < 0.9:
                correct = roll < 0.9 * p_right
                push(AnswerReceived(k, t, draw(st.sampled_from([1.0, 2.5, 7.0])), correct))
        push(QuestionClosed(k))
    return config, events, state


@given(games())
@SETTINGS
def test_property_positions_within_slope_and_one_king(game: Any) -> None:
    config, _, state = game
    for snap in state.snapshots:
        assert all(0 <= p <= config.steps for p in snap.position)
        on_peak = [i for i, p in enumerate(snap.position) if p == config.steps]
        assert len(on_peak) <= 1
        assert on_peak == ([] if snap.king is None else [snap.king])


@given(games())
@SETTINGS
def test_property_points_never_decrease(game: Any) -> None:
    _, _, state = game
    for before, after in zip(state.snapshots, state.snapshots[1:], strict=False):
        assert all(b <= a for b, a in zip(before.points, after.points, strict=True))


@given(games())
@SETTINGS
def test_property_replay_gives_the_same_state(game: Any) -> None:
    config, events, state = game
    assert fold(config, events) == state
    assert fold(config, events_from_json(events_to_json(events))) == state


@given(games(), st.data())
@SETTINGS
def test_property_correct_and_correct_back_is_identity(game: Any, data: Any) -> None:
    _, _, state = game
    answered = [
        (r.number, state.config.teams[i], bool(j))
        for r in state.records
        for i, j in enumerate(r.judged)
        if j is not None
    ]
    if not answered:
        return
    q, team, correct = data.draw(st.sampled_from(answered))
    changed = apply_event(state, JudgementCorrected(q, team, not correct))
    back = apply_event(changed, JudgementCorrected(q, team, correct))
    assert back.snapshots == state.snapshots
    assert back.records == state.records
    assert back.notes == state.notes
    assert situation(back) == situation(state)
