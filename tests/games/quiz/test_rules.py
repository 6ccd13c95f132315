"""One or more tests per numbered rule Q1..Q16 of docs/rules/quiz.md."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from koth.core.errors import IllegalActionError, InvalidParamsError
from koth.games.quiz import (
    AnswerReceived,
    BreakTaken,
    DeclarationMade,
    DeclarationsLocked,
    LightningQuestion,
    PartnerFlagged,
    QuestionClosed,
    QuestionOpened,
    QuizGame,
    QuizRuleError,
    apply_event,
    draw_spurs,
    fold,
    initial_state,
    situation,
)
from koth.games.quiz.events import LightningAnswer
from koth.games.quiz.reachability import questions_to_reach
from koth.games.quiz.state import EndReason, NoteKind
from koth.games.quiz.wording import end_text

from .helpers import cfg, climb, play, pos, pts, question

# Four teams on a 5-step slope: after question 4, A is King (position 5, 5 points),
# B and C stand one step below (4 points each), D is still at the start.
KING_OPENING: list[dict[str, Any]] = [
    {"right": "A B C"},
    {"right": "A B C", "jump": "A B C"},
    {"right": "A B C"},
    {"right": "A", "wrong": "B C"},
]


def king_game(**options: Any) -> Any:
    config = cfg(["A", "B", "C", "D"], steps=5, **options)
    return config, play(config, *KING_OPENING)


def test_q1_each_team_starts_at_zero_on_its_own_slope() -> None:
    config = cfg(steps=7)
    state = initial_state(config)
    assert state.standings.position == (0, 0, 0)
    assert state.standings.points == (0, 0, 0)
    state = play(config, *climb("A", 3))
    assert (pos(state, "A"), pos(state, "B"), pos(state, "C")) == (3, 0, 0)


@pytest.mark.parametrize("teams", [["A"], ["A", "A"], []])
def test_q1_at_least_two_distinct_teams(teams: list[str]) -> None:
    with pytest.raises(InvalidParamsError):
        cfg(teams)


def test_q1_unknown_team_is_rejected_naming_question_and_team() -> None:
    state = apply_event(initial_state(cfg()), QuestionOpened(1))
    state = apply_event(state, DeclarationsLocked(1))
    with pytest.raises(QuizRuleError) as err:
        apply_event(state, AnswerReceived(1, "Zebras", 3.0, True))
    assert err.value.rule == "Q1"
    assert "question 1" in str(err.value) and "Zebras" in str(err.value)


def test_q1_ten_thousand_teams_fold() -> None:
    teams = [f"T{i}" for i in range(10_000)]
    config = cfg(teams)
    state = fold(config, question(1, right=teams[::2], wrong=teams[1::2]))
    assert sum(state.standings.position) == 5_000


@pytest.mark.parametrize(
    ("answer", "steps", "points"),
    [("right", 1, 1), ("wrong", 0, 0), ("none", 0, 0)],
)
def test_q2_ordinary_move(answer: str, steps: int, points: int) -> None:
    spec = {"right": "A"} if answer == "right" else {"wrong": "A"} if answer == "wrong" else {}
    state = play(cfg(), spec)
    assert (pos(state, "A"), pts(state, "A")) == (steps, points)


def test_q2_all_teams_move_at_once() -> None:
    state = play(cfg(), {"right": "A B", "wrong": "C"})
    assert state.standings.position == (1, 1, 0)


@pytest.mark.parametrize(("correct", "position", "points"), [(True, 3, 3), (False, 0, 1)])
def test_q3_jump_right_two_steps_wrong_one_down(correct: bool, position: int, points: int) -> None:
    spec: dict[str, Any] = {"jump": "A"}
    spec["right" if correct else "wrong"] = "A"
    state = play(cfg(), {"right": "A"}, spec)
    assert (pos(state, "A"), pts(state, "A")) == (position, points)


@pytest.mark.parametrize(
    ("opening", "why"),
    [
        ([], "start"),
        ([{"right": "A"}, {"wrong": "A"}], "wrong answer"),
        ([*climb("A", 8)], "2 steps left"),
        ([*climb("A", 9)], "1 step left"),
        ([*climb("A", 9, "B"), {"right": "A", "wrong": "B"}], "on the Peak"),
    ],
)
def test_q3_illegal_jump_is_rejected_with_reason(opening: list[dict[str, Any]], why: str) -> None:
    game = QuizGame(cfg())
    for spec in opening:
        for event in question(game.state.questions_played + 1, **spec):
            game.apply(event)
    k = game.state.questions_played + 1
    game.apply(QuestionOpened(k))
    before = game.state
    with pytest.raises(QuizRuleError) as err:
        game.apply(DeclarationMade(k, "A", "jump"))
    assert err.value.rule == "Q3" and why in str(err.value)
    assert f"question {k}" in str(err.value) and "team A" in str(err.value)
    assert game.state is before
    assert "jump" not in game.legal_declarations("A")


def test_q3_declaration_after_the_question_was_read_is_an_ordinary_move() -> None:
    state = play(cfg(), {"right": "A"})
    for event in [
        QuestionOpened(2),
        DeclarationsLocked(2),
        DeclarationMade(2, "A", "jump"),
        AnswerReceived(2, "A", 4.0, True),
        QuestionClosed(2),
    ]:
        state = apply_event(state, event)
    assert (pos(state, "A"), pts(state, "A")) == (2, 2)
    assert [n.kind for n in state.notes[1]] == ["late_declaration"]


def test_q4_spur_move_right_gives_one_extra_point() -> None:
    config = cfg(spurs={"A": (1,)})
    state = play(config, {"right": "A"}, {"right": "A"})
    assert (pos(state, "A"), pts(state, "A")) == (2, 3)
    assert situation(state).teams[0].spur_used


def test_q4_spur_answered_wrong_is_used_up() -> None:
    config = cfg(spurs={"A": (2,)}, steps=10)
    # A reaches 2, answers wrong there (spur lost), jumps wrong back to... stays >= 2
    state = play(config, {"right": "A"}, {"right": "A"}, {"wrong": "A"}, {"right": "A"})
    assert pts(state, "A") == 3
    assert state.standings.spurs_used[0] == frozenset({2})


def test_q4_jumping_over_the_spur_misses_it() -> None:
    config = cfg(spurs={"A": (2,)})
    state = play(config, {"right": "A"}, {"right": "A", "jump": "A"}, {"right": "A"})
    assert (pos(state, "A"), pts(state, "A")) == (4, 4)
    assert not situation(state).teams[0].spur_used


@pytest.mark.parametrize("seed", range(5))
def test_q4_drawn_spurs_lie_in_2_to_n_minus_3(seed: int) -> None:
    spurs = draw_spurs(["A", "B", "C"], 10, random.Random(seed))
    assert all(len(cells) == 1 and 2 <= cells[0] <= 7 for cells in spurs.values())
    assert spurs == draw_spurs(["A", "B", "C"], 10, random.Random(seed))


def test_q5_partner_question_from_config_gives_one_extra_point() -> None:
    state = play(cfg(partner_questions={1}), {"right": "A", "wrong": "B"})
    assert (pos(state, "A"), pts(state, "A"), pts(state, "B")) == (1, 2, 0)


def test_q5_host_flags_partner_after_the_answers_until_closed() -> None:
    events = question(1, right="A")
    events.insert(-1, PartnerFlagged(1))
    state = fold(cfg(), events)
    assert pts(state, "A") == 2
    with pytest.raises(QuizRuleError) as err:
        apply_event(state, PartnerFlagged(1))
    assert err.value.rule == "Q5"


@pytest.mark.parametrize(("correct", "position", "points"), [(True, 5, 7), (False, 2, 3)])
def test_q6_jump_spur_and_partner_add_up(correct: bool, position: int, points: int) -> None:
    """The text's own example: jump + spur + partner: right +2 steps +4 points (2+1+1);
    wrong: one step down, no points."""
    config = cfg(spurs={"A": (3,)}, partner_questions={3})
    last: dict[str, Any] = {"jump": "A", ("right" if correct else "wrong"): "A"}
    state = play(config, {"right": "A"}, {"right": "A", "jump": "A"}, last)
    assert (pos(state, "A"), pts(state, "A")) == (position, points)


def test_q7_first_team_on_the_peak_becomes_king() -> None:
    _, state = king_game()
    s = situation(state)
    assert s.king == "A" and s.king_hold == 0 and pos(state, "A") == 5


def test_q7_two_teams_reach_peak_most_points_wins() -> None:
    config = cfg(["A", "B", "C", "D"], steps=5, spurs={"B": (4,)})
    state = play(config, *KING_OPENING[:3], {"right": "B C", "wrong": "A", "times": {"C": 1}})
    assert situation(state).king == "B"
    assert (pos(state, "B"), pos(state, "C"), pts(state, "B"), pts(state, "C")) == (5, 4, 6, 5)


@pytest.mark.parametrize(
    ("times", "points_spec", "king"),
    [
        ({"B": 20.0, "C": 5.0}, {"spurs": {"B": (4,)}}, "B"),  # B has more points
        ({"B": 20.0, "C": 5.0}, {}, "C"),  # equal points: C answered first
        ({"B": 3.0, "C": 5.0}, {}, "B"),
    ],
)
def test_q7_peak_contest_points_then_earliest_time(
    times: dict[str, float], points_spec: dict[str, Any], king: str
) -> None:
    config = cfg(["A", "B", "C", "D"], steps=5, **points_spec)
    state = play(config, *KING_OPENING[:3], {"right": "B C", "wrong": "A", "times": times})
    s = situation(state)
    assert s.king == king
    loser = "C" if king == "B" else "B"
    assert pos(state, loser) == 4 and pos(state, "A") == 4


def test_q8_one_step_below_without_revolution_scores_but_does_not_move() -> None:
    _, state = king_game()
    state = play(state.config, {"right": "A B"}, state=state)
    assert (pos(state, "B"), pts(state, "B")) == (4, 5)


@pytest.mark.parametrize(
    ("opening", "team"),
    [(KING_OPENING[:3], "B"), (KING_OPENING, "D"), (KING_OPENING, "A")],
)
def test_q8_revolution_only_one_step_below_while_a_king_reigns(
    opening: list[dict[str, Any]], team: str
) -> None:
    config = cfg(["A", "B", "C", "D"], steps=5)
    state = play(config, *opening)
    state = apply_event(state, QuestionOpened(state.questions_played + 1))
    with pytest.raises(QuizRuleError) as err:
        apply_event(state, DeclarationMade(state.open.number, team, "revolution"))  # type: ignore[union-attr]
    assert err.value.rule in {"Q8", "Q21"}


def test_q8_revolution_right_once_per_reign_and_restored_on_overthrow() -> None:
    config, state = king_game()
    state = play(config, {"right": "A B", "rev": "B"}, state=state)  # failed: King right
    assert not situation(state).teams[1].revolution_right
    state = apply_event(state, QuestionOpened(6))
    with pytest.raises(QuizRuleError, match="already used"):
        apply_event(state, DeclarationMade(6, "B", "revolution"))
    state = apply_event(state, DeclarationMade(6, "C", "revolution"))
    for e in [DeclarationsLocked(6), AnswerReceived(6, "C", 1.0, True), QuestionClosed(6)]:
        state = apply_event(state, e)
    assert situation(state).king == "C"
    assert all(t.revolution_right for t in situation(state).teams)


@pytest.mark.parametrize(("correct", "points"), [(True, 6), (False, 5)])
def test_q9_king_scores_and_never_moves_down(correct: bool, points: int) -> None:
    config, state = king_game()
    state = play(config, {"right" if correct else "wrong": "A"}, state=state)
    assert (pos(state, "A"), pts(state, "A"), situation(state).king) == (5, points, "A")


@pytest.mark.parametrize(
    ("case", "spec", "king"),
    [
        # 2.4.6 (1): the King answers right: stays whatever the revolutionaries do
        ("king right", {"right": "A B", "rev": "B"}, "A"),
        # 2.4.6 (2): King wrong, every revolutionary wrong: stays
        ("revolutionaries wrong", {"wrong": "A B", "rev": "B"}, "A"),
        # 2.4.6 (3): King wrong, nobody declared a Revolution: stays
        ("no revolution", {"wrong": "A", "right": "B C"}, "A"),
        # 2.4.6 (4): King wrong, one revolutionary right: overthrown
        ("revolution succeeds", {"wrong": "A C", "right": "B", "rev": "B C"}, "B"),
    ],
)
def test_q10_the_four_revolution_cases(case: str, spec: dict[str, Any], king: str) -> None:
    config, state = king_game()
    state = play(config, spec, state=state)
    s = situation(state)
    assert s.king == king, case
    if king == "B":
        assert (pos(state, "A"), pos(state, "B"), s.king_hold) == (4, 5, 0)
    else:
        assert pos(state, "B") == 4


@pytest.mark.parametrize(
    ("spur", "times", "king"),
    [
        ({"C": (3,)}, {"B": 1.0, "C": 9.0}, "C"),
        ({}, {"B": 9.0, "C": 1.0}, "C"),
        ({}, {"B": 1.0, "C": 9.0}, "B"),
    ],
)
def test_q10_several_successful_revolutionaries_most_points_then_time(
    spur: dict[str, tuple[int, ...]], times: dict[str, float], king: str
) -> None:
    config = cfg(["A", "B", "C", "D"], steps=5, spurs=spur)
    state = play(
        config, *KING_OPENING, {"wrong": "A", "right": "B C", "rev": "B C", "times": times}
    )
    assert situation(state).king == king


def test_q11_king_wins_after_holding_three_questions() -> None:
    config, state = king_game()
    state = play(config, {"right": "A"}, {"right": "A"}, state=state)
    assert not state.finished and situation(state).king_hold == 2
    state = play(config, {"right": "A"}, state=state)
    s = situation(state)
    assert (s.finished, s.reason, s.king_hold, s.questions_played) == (True, "king_held", 3, 7)
    with pytest.raises(IllegalActionError):
        apply_event(state, QuestionOpened(8))


def test_q11_hold_moves_option() -> None:
    config, state = king_game(hold_moves=1)
    state = play(config, {"right": "A"}, state=state)
    assert situation(state).reason == "king_held"


@pytest.mark.parametrize(
    ("b_answers", "finished"),
    [(["right", "right", "wrong", "wrong"], True), (["wrong", "wrong", "right", "right"], False)],
)
def test_q12_no_challenger_ends_the_game(b_answers: list[str], finished: bool) -> None:
    """B stands on 2 when A is crowned (hold 2): right after a wrong answer B needs 2
    questions to stand one step below plus 1 to revolt (3 > 2); otherwise 1 + 1."""
    config = cfg(["A", "B"], steps=5, hold_moves=2)
    specs = [
        {
            "right": "A" + (" B" if b_answers[k] == "right" else ""),
            **({"jump": "A"} if k == 1 else {}),
            **({"wrong": "B"} if b_answers[k] == "wrong" else {}),
        }
        for k in range(4)
    ]
    state = play(config, *specs)
    s = situation(state)
    assert (s.king, pos(state, "B"), s.finished) == ("A", 2, finished)
    if finished:
        assert s.reason == "no_challenger" and s.king_hold == 0


@pytest.mark.parametrize(
    ("position", "last_wrong", "steps", "needed"),
    [
        (9, False, 10, 0),
        (8, True, 10, 1),
        (7, False, 10, 1),
        (7, True, 10, 2),
        (1, False, 10, 4),
        (0, False, 10, 5),
        (0, False, 5, 3),
        (2, True, 5, 2),
        (2, False, 5, 1),
    ],
)
def test_q12_fewest_questions_to_stand_one_step_below(
    position: int, last_wrong: bool, steps: int, needed: int
) -> None:
    assert questions_to_reach(position, last_wrong, steps) == needed


def test_q13_questions_run_out_places_by_position_then_points() -> None:
    config = cfg(["A", "B", "C", "D"], steps=5, questions=3, partner_questions={3})
    state = play(config, {"right": "A B"}, {"right": "A B C", "jump": "A"}, {"right": "C"})
    s = situation(state)
    assert (s.finished, s.reason, s.king) == (True, "questions_exhausted", None)
    assert [(t.name, t.position, t.points, t.place) for t in s.teams] == [
        ("A", 3, 3, 1),
        ("C", 2, 3, 2),
        ("B", 2, 2, 3),
        ("D", 0, 0, 4),
    ]


def test_q13_backup_questions_extend_the_game() -> None:
    config = cfg(questions=2, backup_questions=1)
    state = play(config, {}, {})
    assert not state.finished
    assert play(config, {}, state=state).finished


def _tied_game(prize_places: int = 3) -> Any:
    config = cfg(["A", "B", "C", "D"], questions=1, prize_places=prize_places)
    return play(config, {"right": "A"})


def test_q14_ties_for_prize_places_need_a_lightning_round() -> None:
    state = _tied_game()
    s = situation(state)
    assert [g.model_dump() for g in s.lightning_required] == [
        {"place": 2, "teams": ["B", "C", "D"]}
    ]
    state = apply_event(
        state, LightningQuestion(("B", "C", "D"), {"C": LightningAnswer(True, 2.0)})
    )
    s = situation(state)
    assert [(t.name, t.place) for t in s.teams] == [("A", 1), ("C", 2), ("B", 3), ("D", 3)]
    assert s.lightning_required[0].teams == ["B", "D"]
    state = apply_event(state, LightningQuestion(("B", "D"), {"D": LightningAnswer(True)}))
    s = situation(state)
    assert [(t.name, t.place) for t in s.teams] == [("A", 1), ("C", 2), ("D", 3), ("B", 4)]
    assert s.lightning_required == []
    assert [(t.position, t.points) for t in s.teams] == [(1, 1), (0, 0), (0, 0), (0, 0)]


def test_q14_lightning_must_match_an_open_tie() -> None:
    state = _tied_game()
    with pytest.raises(QuizRuleError) as err:
        apply_event(state, LightningQuestion(("B", "C")))
    assert err.value.rule == "Q14"


def test_q14_other_ties_share_the_place() -> None:
    s = situation(_tied_game(prize_places=1))
    assert [t.place for t in s.teams] == [1, 2, 2, 2] and s.lightning_required == []


def test_q15_break_has_no_effect() -> None:
    config = cfg()
    state = play(config, {"right": "A"})
    with_break = apply_event(state, BreakTaken(1))
    assert with_break.snapshots == state.snapshots and with_break.breaks == (1,)
    state = play(config, {"right": "B"}, state=with_break)
    assert state.questions_played == 2


def test_q15_semifinal_teams_share_the_peak_and_no_revolution() -> None:
    config = cfg(["A", "B", "C"], steps=3, kind="semifinal", questions=5, qualifiers=2)
    state = play(config, {"right": "A B"}, {"right": "A B"}, {"right": "A B"}, {"right": "A B"})
    s = situation(state)
    assert s.king is None and pos(state, "A") == pos(state, "B") == 3
    assert pts(state, "A") == 4
    assert "revolution" not in legal_after(state, "A")


def legal_after(state: Any, team: str) -> frozenset[str]:
    from koth.games.quiz import legal_declarations

    return legal_declarations(state, team)


def test_q16_times_break_no_place_ties() -> None:
    state = play(cfg(questions=1, prize_places=1), {"right": "A B", "times": {"A": 1, "B": 9}})
    assert [t.place for t in situation(state).teams[:2]] == [1, 1]


@pytest.mark.parametrize("bad", [-1.0, float("nan"), float("inf")])
def test_q16_answer_time_must_be_seconds_since_reading(bad: float) -> None:
    state = fold(cfg(), [QuestionOpened(1), DeclarationsLocked(1)])
    with pytest.raises(QuizRuleError) as err:
        apply_event(state, AnswerReceived(1, "A", bad, True))
    assert err.value.rule == "Q16"


@pytest.mark.parametrize(
    ("reason", "text", "rule"),
    [
        (EndReason.KING_HELD, "king_held", "Q11"),
        (EndReason.NO_CHALLENGER, "no_challenger", "Q12"),
        (EndReason.QUESTIONS_EXHAUSTED, "questions_exhausted", "Q13"),
    ],
)
def test_q25_end_reasons_keep_their_json_text_and_cite_their_rule(
    reason: EndReason, text: str, rule: str
) -> None:
    assert reason == text and json.dumps(reason) == f'"{text}"'
    assert reason.rule == rule and end_text(reason)


def test_q25_every_note_kind_cites_a_rule() -> None:
    assert {kind.value for kind in NoteKind} == {
        "downgraded",
        "late_declaration",
        "crowned",
        "overthrown",
        "kept_peak",
        "stayed_below",
        "revolution_failed",
    }
    assert all(kind.rule.startswith("Q") for kind in NoteKind)
