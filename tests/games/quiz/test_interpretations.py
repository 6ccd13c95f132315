"""Tests of the interpretations Q17..Q35 of docs/rules/quiz.md (Q32/Q33: see
test_protocol_cli.py)."""

from __future__ import annotations

from typing import Any

import pytest

from koth.core.errors import InvalidParamsError
from koth.games.quiz import (
    AnswerAdmitted,
    AnswerJudged,
    AnswerReceived,
    BreakTaken,
    DeclarationMade,
    DeclarationsLocked,
    JudgementCorrected,
    LightningQuestion,
    PartnerFlagged,
    QuestionClosed,
    QuestionOpened,
    QuizRuleError,
    apply_event,
    fold,
    legal_declarations,
    situation,
)
from koth.games.quiz.events import LightningAnswer

from .helpers import cfg, climb, play, pos, pts, question
from .test_rules import KING_OPENING, king_game


def test_q17_declaration_can_be_changed_or_withdrawn_before_reading() -> None:
    state = play(cfg(), {"right": "A"})
    events = [
        QuestionOpened(2),
        DeclarationMade(2, "A", "jump"),
        DeclarationMade(2, "A", "ordinary"),
        DeclarationsLocked(2),
        AnswerReceived(2, "A", 1.0, True),
        QuestionClosed(2),
    ]
    for e in events:
        state = apply_event(state, e)
    assert pos(state, "A") == 2
    assert legal_declarations(state, "A") == {"ordinary", "jump"}


def test_q18_only_the_previous_answer_blocks_a_jump() -> None:
    state = play(cfg(), {"right": "A"}, {"wrong": "A"}, {"right": "A"})
    assert "jump" in legal_declarations(state, "A")


def test_q18_fall_back_to_zero_forbids_jump_and_jump_never_reaches_peak() -> None:
    state = play(cfg(), {"right": "A"}, {"right": "A B"}, {"wrong": "A", "jump": "A"})
    assert pos(state, "A") == 1
    state = play(cfg(steps=5), {"right": "A"}, {"right": "A"}, {"right": "A", "jump": "A"})
    assert pos(state, "A") == 4  # jump from N-3 lands one step below


@pytest.mark.parametrize("cell", [0, 10, 11])
def test_q19_host_spur_cells_lie_below_the_peak(cell: int) -> None:
    with pytest.raises(InvalidParamsError, match="Q19"):
        cfg(spurs={"A": (cell,)})


@pytest.mark.parametrize(
    ("moves", "spur_points"),
    [
        # no answer on the spur cell uses it up
        ([{"right": "A"}, {"right": "A"}, {"right": "A"}, {}, {"right": "A"}], 0),
        # jumped over (2 -> 4), fell back onto 3 with a wrong jump, then hits it
        (
            [
                {"right": "A"},
                {"right": "A"},
                {"right": "A", "jump": "A"},
                {"wrong": "A", "jump": "A"},
                {"right": "A"},
            ],
            1,
        ),
    ],
)
def test_q19_spur_triggers_on_moves_begun_on_the_cell(
    moves: list[dict[str, Any]], spur_points: int
) -> None:
    state = play(cfg(spurs={"A": (3,)}), *moves)
    plain = play(cfg(), *moves)
    assert pts(state, "A") - pts(plain, "A") == spur_points
    assert situation(state).teams[0].spur_used


def test_q19_revolution_from_a_spur_cell_is_a_spur_move() -> None:
    config = cfg(["A", "B", "C", "D"], steps=5, spurs={"B": (4,)})
    state = play(config, *KING_OPENING)  # B stood on 4 on question 4: spur used there
    assert state.standings.spurs_used[1] == frozenset({4})


def test_q20_spurs_hidden_until_the_game_ends() -> None:
    config = cfg(spurs={"A": (3,)}, questions=2)
    state = play(config, {"right": "A"})
    assert all(t.spurs is None for t in situation(state).teams)
    state = play(config, {"right": "A"}, state=state)
    assert [t.spurs for t in situation(state).teams if t.name == "A"] == [[3]]


def test_q21_the_king_cannot_revolt_or_jump() -> None:
    _, state = king_game()
    assert legal_declarations(state, "A") == {"ordinary"}


def test_q22_king_right_revolutionaries_right_score_but_stay() -> None:
    _, state = king_game()
    state = play(state.config, {"right": "A B C", "rev": "B C"}, state=state)
    assert (pos(state, "B"), pts(state, "B"), pos(state, "C")) == (4, 5, 4)
    assert situation(state).king == "A"


def test_q22_wrong_revolutionary_does_not_step_down() -> None:
    _, state = king_game()
    state = play(state.config, {"right": "A", "wrong": "B", "rev": "B"}, state=state)
    assert (pos(state, "B"), pts(state, "B")) == (4, 4)


def test_q23_old_king_may_revolt_at_once() -> None:
    _, state = king_game()
    state = play(state.config, {"wrong": "A", "right": "B", "rev": "B"}, state=state)
    assert "revolution" in legal_declarations(state, "A")
    state = play(state.config, {"wrong": "B", "right": "A", "rev": "A C"}, state=state)
    assert situation(state).king == "A"


@pytest.mark.parametrize(
    ("times", "king"),
    [({"B": 5.0}, "B"), ({"C": 5.0}, "C"), ({}, "B")],
)
def test_q24_missing_time_last_then_config_order(times: dict[str, float], king: str) -> None:
    config = cfg(["A", "B", "C", "D"], steps=5)
    events = []
    for k, spec in enumerate(KING_OPENING[:3], start=1):
        events += question(k, **spec)
    events += [QuestionOpened(4), DeclarationsLocked(4)]
    for team in ("B", "C"):
        events.append(AnswerReceived(4, team, times.get(team), True))
    events.append(QuestionClosed(4))
    assert situation(fold(config, events)).king == king


def test_q25_hold_checked_before_exhaustion_and_window_capped() -> None:
    config, state = king_game(questions=7)
    state = play(config, {"right": "A"}, {"right": "A"}, {"right": "A"}, state=state)
    assert situation(state).reason == "king_held"
    # B needs 1 question to revolt, but only 0 are left -> exhausted, not held
    config, state = king_game(questions=5)
    state = play(config, {"right": "A"}, state=state)
    assert situation(state).reason == "questions_exhausted"


def test_q26_correction_recomputes_and_downgrades() -> None:
    config = cfg()
    state = play(config, {"right": "A"}, {"right": "A"}, {"right": "A", "jump": "A"})
    assert pos(state, "A") == 4
    corrected = apply_event(state, JudgementCorrected(2, "A", False))
    assert pos(corrected, "A") == 2  # 1, wrong (1), jump downgraded -> ordinary +1
    s = situation(corrected)
    assert [(d.question, d.team) for d in s.downgraded] == [(3, "A")]
    back = apply_event(corrected, JudgementCorrected(2, "A", True))
    assert back.snapshots == state.snapshots and back.records == state.records


def test_q26_an_answer_that_never_arrived_is_admitted_on_appeal() -> None:
    config = cfg()
    # B gave no answer to question 1 (it counts as wrong); on appeal its answer is admitted
    state = play(config, {"right": "A"}, {"right": "A B"})
    assert (pos(state, "B"), pts(state, "B")) == (1, 1)
    admitted = apply_event(state, AnswerAdmitted(1, "B", True))
    assert (pos(admitted, "B"), pts(admitted, "B")) == (2, 2)
    assert admitted.records[0].judged[admitted.index["B"]] is True
    # from then on it is an answer like any other: its judgement can be corrected back
    back = apply_event(admitted, JudgementCorrected(1, "B", False))
    assert (pos(back, "B"), pts(back, "B")) == (1, 1)


@pytest.mark.parametrize(
    ("events", "message"),
    [
        ([AnswerAdmitted(1, "A", True)], "answer was received: correct its judgement"),
        ([AnswerAdmitted(3, "B", True)], "no such question"),
        ([QuestionOpened(3), AnswerAdmitted(3, "B", True)], "still open"),
        ([QuestionOpened(3), AnswerAdmitted(1, "B", True)], "close question 3"),
    ],
    ids=["answered", "unplayed", "open", "another-open"],
)
def test_q26_an_admission_is_refused_where_a_correction_would_be(
    events: list[Any], message: str
) -> None:
    state = play(cfg(), {"right": "A"}, {"right": "A B"})
    with pytest.raises(QuizRuleError, match=message) as refused:
        for event in events:
            state = apply_event(state, event)
    assert refused.value.rule == "Q26"


def test_q26_correction_that_ends_the_game_earlier_voids_later_questions() -> None:
    config, state = king_game(hold_moves=1)
    # A wrong on q5 and B revolts right: B King, holds q6. Correct B to wrong: A holds
    # the Peak on q5 and wins there, so question 6 becomes void.
    state = play(config, {"wrong": "A", "right": "B", "rev": "B"}, {"right": "B"}, state=state)
    assert situation(state).king == "B" and situation(state).reason == "king_held"
    corrected = apply_event(state, JudgementCorrected(5, "B", False))
    s = situation(corrected)
    assert (s.finished, s.reason, s.questions_played, s.voided_questions) == (
        True,
        "king_held",
        5,
        [6],
    )
    back = apply_event(corrected, JudgementCorrected(5, "B", True))
    assert back.snapshots == state.snapshots


@pytest.mark.parametrize(
    ("events", "message"),
    [
        ([QuestionOpened(1), AnswerReceived(1, "A", 1.0, True)], "before the question"),
        (
            [
                QuestionOpened(1),
                DeclarationsLocked(1),
                AnswerReceived(1, "A", 1.0, True),
                AnswerReceived(1, "A", 2.0, True),
            ],
            "already answered",
        ),
        (
            [
                QuestionOpened(1),
                DeclarationsLocked(1),
                AnswerReceived(1, "A", 1.0),
                QuestionClosed(1),
            ],
            "must be judged",
        ),
        ([QuestionOpened(1), DeclarationsLocked(1), AnswerJudged(1, "A", True)], "no answer"),
    ],
)
def test_q27_answer_discipline(events: list[Any], message: str) -> None:
    with pytest.raises(QuizRuleError, match=message) as err:
        fold(cfg(), events)
    assert err.value.rule == "Q27"


def test_q27_answer_judged_later() -> None:
    events = [
        QuestionOpened(1),
        DeclarationsLocked(1),
        AnswerReceived(1, "A", 1.0),
        AnswerJudged(1, "A", True),
        QuestionClosed(1),
    ]
    assert pos(fold(cfg(), events), "A") == 1


def test_q28_partner_flag_can_be_cleared_while_open() -> None:
    events = question(1, right="A", partner=True)
    events.insert(-1, PartnerFlagged(1, partner=False))
    assert pts(fold(cfg(), events), "A") == 1
    events = question(1, right="A")
    events.insert(-1, PartnerFlagged(1, partner=False))
    assert pts(fold(cfg(partner_questions={1}), events), "A") == 2


def test_q29_lightning_only_after_the_end_and_equal_answers_keep_the_tie() -> None:
    config = cfg(["A", "B", "C"], questions=2)
    state = play(config, {})
    with pytest.raises(QuizRuleError, match="after the game"):
        apply_event(state, LightningQuestion(("A", "B", "C")))
    state = play(config, {}, state=state)
    all_right = {t: LightningAnswer(True) for t in "ABC"}
    state = apply_event(state, LightningQuestion(("A", "B", "C"), all_right))
    assert [t.place for t in situation(state).teams] == [1, 1, 1]
    with pytest.raises(QuizRuleError, match="lightning round has started"):
        apply_event(state, JudgementCorrected(1, "A", True))


def test_q30_semifinal_right_on_the_peak_scores_and_stays() -> None:
    config = cfg(["A", "B"], steps=3, kind="semifinal", questions=5, qualifiers=1)
    state = play(config, *climb("A", 5))
    assert (pos(state, "A"), pts(state, "A")) == (3, 5)
    s = situation(state)
    assert s.finished and s.qualified == ["A"]


def test_q30_semifinal_tie_at_the_cut_needs_lightning() -> None:
    config = cfg(["A", "B", "C"], kind="semifinal", questions=1, qualifiers=1)
    state = play(config, {"right": "A B"})
    s = situation(state)
    assert [g.teams for g in s.lightning_required] == [["A", "B"]] and s.qualified is None
    state = apply_event(state, LightningQuestion(("A", "B"), {"B": LightningAnswer(True)}))
    assert situation(state).qualified == ["B"]


def test_q31_break_only_between_questions() -> None:
    state = fold(cfg(), [QuestionOpened(1)])
    with pytest.raises(QuizRuleError) as err:
        apply_event(state, BreakTaken(0))
    assert err.value.rule == "Q31"


def test_q34_one_step_below_without_king_climbs_and_cannot_revolt() -> None:
    state = play(cfg(["A", "B"], steps=5), *climb("A", 4, "B"))
    assert pos(state, "A") == 4
    assert "revolution" not in legal_declarations(state, "A")
    state = play(state.config, {"right": "A", "wrong": "B"}, state=state)
    assert situation(state).king == "A"


@pytest.mark.parametrize("number", [2, 0, 1])
def test_q35_questions_open_in_order_one_at_a_time(number: int) -> None:
    state = fold(cfg(), [QuestionOpened(1)]) if number == 1 else fold(cfg(), [])
    with pytest.raises(QuizRuleError) as err:
        apply_event(state, QuestionOpened(number))
    assert err.value.rule in {"Q35", "Q2"}
