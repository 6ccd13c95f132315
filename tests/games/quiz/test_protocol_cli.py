"""The protocol format (Q32), the CLI (Q33) and the shipped examples (Q11-Q15)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from koth.core.errors import RecordError
from koth.games.quiz.cli import quiz_app
from koth.games.quiz.protocol import result_json, score_protocol
from tests.cli_text import plain

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "quiz"
runner = CliRunner()


def score(args: list[str]) -> Any:
    return runner.invoke(quiz_app, ["score", *args])


def score_json(path: Path, *extra: str) -> dict[str, Any]:
    result = score([str(path), "--json", *extra])
    assert result.exit_code == 0, result.output
    out: dict[str, Any] = json.loads(result.stdout)
    return out


RULES_EXAMPLE: dict[str, Any] = {
    "config": {"steps": 10, "hold_moves": 3, "questions": 40, "spurs": {"Owls": [4], "Bears": [6]},
               "partner_questions": [5, 12], "prize_places": 3},
    "teams": ["Owls", "Bears", "Cats"],
    "questions": [
        {"declarations": {},
         "answers": {"Owls": {"correct": True, "time": 12.4},
                     "Bears": {"correct": False, "time": 30.0}},
         "partner": False},
        {"declarations": {"Owls": "jump"},
         "answers": {"Owls": {"correct": True, "time": 9.0}}, "partner": True},
    ],
}  # fmt: skip


def write(tmp_path: Path, doc: Any, name: str = "p.json") -> Path:
    path = tmp_path / name
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc))
    return path


def test_q32_protocol_output_has_the_required_keys(tmp_path: Path) -> None:
    out = score_json(write(tmp_path, RULES_EXAMPLE))
    for key in ("finished", "reason", "king", "king_hold", "questions_played", "teams",
                "lightning_required"):  # fmt: skip
        assert key in out
    assert out["questions_played"] == 2 and out["finished"] is False
    owls = out["teams"][0]
    assert (owls["name"], owls["position"], owls["points"], owls["place"]) == ("Owls", 3, 4, 1)
    for key in ("spur_used", "revolution_right"):
        assert key in owls


@pytest.mark.parametrize(
    ("patch", "rule", "team", "question"),
    [
        ({"declarations": {"Cats": "jump"}}, "Q3", "Cats", 3),
        ({"declarations": {"Cats": "revolution"}}, "Q8", "Cats", 3),
        ({"answers": {"Lions": {"correct": True, "time": 1.0}}}, "Q1", "Lions", 3),
    ],
)
def test_q32_rule_breaking_protocol_is_rejected_with_question_team_and_rule(
    tmp_path: Path, patch: dict[str, Any], rule: str, team: str, question: int
) -> None:
    doc = json.loads(json.dumps(RULES_EXAMPLE))
    doc["questions"].append(patch)
    with pytest.raises(RecordError) as err:
        score_protocol(doc)
    assert err.value.rule == rule
    result = score([str(write(tmp_path, doc))])
    assert result.exit_code == 2
    assert f"question {question}" in result.output and team in result.output
    assert f"rule {rule}" in result.output and "Traceback" not in result.output


def test_q32_answers_after_the_game_ended_are_rejected(tmp_path: Path) -> None:
    doc = json.loads((EXAMPLES / "king_held.json").read_text())
    played = len(doc["questions"])
    doc["questions"].append({"answers": {"Owls": {"correct": True, "time": 3.0}}})
    result = score([str(write(tmp_path, doc))])
    assert result.exit_code == 2
    assert f"question {played + 1}" in result.output and "Owls" in result.output
    assert "rule Q11" in result.output


@pytest.mark.parametrize(
    ("content", "message"),
    [("{not json", "not valid JSON"), ('{"teams": ["A"]}', "at least 2 teams"),
     ('{"teams": ["A", "B"], "questions": [{"answers": {"A": true}}]}', "malformed"),
     ("[1, 2]", "JSON object")],
)  # fmt: skip
def test_q33_malformed_input_exits_2_without_traceback(
    tmp_path: Path, content: str, message: str
) -> None:
    result = score([str(write(tmp_path, content))])
    assert result.exit_code == 2 and message in plain(result.output)
    assert "Traceback" not in result.output


def test_q33_missing_file_exits_2(tmp_path: Path) -> None:
    result = score([str(tmp_path / "missing.json")])
    assert result.exit_code == 2 and "cannot read protocol" in result.output


def test_q33_after_and_explain(tmp_path: Path) -> None:
    path = write(tmp_path, RULES_EXAMPLE)
    out = score_json(path, "--after", "1")
    assert out["questions_played"] == 1 and out["teams"][0]["points"] == 1
    result = score([str(path), "--explain"])
    assert result.exit_code == 0
    assert "Owls: jump, right, partner: +2 steps, +3 points" in result.output
    assert score([str(path), "--after", "5"]).exit_code == 2


def test_q33_human_table(tmp_path: Path) -> None:
    result = score([str(EXAMPLES / "king_held.json")])
    assert result.exit_code == 0 and "King" in result.output and "Place" in result.output


def test_q33_explain_names_the_spur(tmp_path: Path) -> None:
    doc = {"config": {"spurs": {"A": [1]}}, "teams": ["A", "B"],
           "questions": [{"answers": {"A": {"correct": True}}},
                         {"answers": {"A": {"correct": True}}}]}  # fmt: skip
    result = score([str(write(tmp_path, doc)), "--explain"])
    assert "A: ordinary, right, spur: +1 step, +2 points" in result.output


def test_q11_example_twelve_teams_king_held() -> None:
    out = score_json(EXAMPLES / "king_held.json")
    assert len(out["teams"]) == 12
    assert (out["finished"], out["reason"], out["king_hold"]) == (True, "king_held", 3)
    assert out["teams"][0]["name"] == out["king"] and out["teams"][0]["place"] == 1


def test_q12_example_no_challenger() -> None:
    out = score_json(EXAMPLES / "no_challenger.json")
    assert (out["finished"], out["reason"]) == (True, "no_challenger")
    assert out["king"] is not None and out["king_hold"] < 3


def test_q13_q14_example_questions_exhausted_with_lightning() -> None:
    doc = json.loads((EXAMPLES / "questions_exhausted.json").read_text())
    assert doc["lightning"]
    out = score_json(EXAMPLES / "questions_exhausted.json")
    assert (out["finished"], out["reason"]) == (True, "questions_exhausted")
    assert out["lightning_required"] == [] and out["lightning_played"] == len(doc["lightning"])
    places = [t["place"] for t in out["teams"][:3]]
    assert places == [1, 2, 3]
    doc["lightning"] = []
    unsettled = result_json(score_protocol(doc))
    assert unsettled["lightning_required"]


def test_q15_example_semifinals_and_final() -> None:
    out = score_json(EXAMPLES / "semifinals.json")
    assert out["format"] == "semifinals" and out["stage"] == "final"
    semis = out["parts"][:2]
    assert all(p["reason"] == "questions_exhausted" and p["king"] is None for p in semis)
    finalists = semis[0]["qualified"] + semis[1]["qualified"]
    assert sorted(t["name"] for t in out["teams"]) == sorted(finalists)
    assert out["finished"] and out["reason"] in {"king_held", "no_challenger"}


def test_q15_final_needs_settled_semifinals() -> None:
    doc = json.loads((EXAMPLES / "semifinals.json").read_text())
    doc["parts"][0]["questions"] = doc["parts"][0]["questions"][:5]
    doc["parts"][0]["lightning"] = []
    with pytest.raises(RecordError, match="semifinal 1 is not finished"):
        score_protocol(doc)


def test_q33_wired_into_the_koth_command() -> None:
    from koth.cli import app

    result = runner.invoke(app, ["quiz", "score", str(EXAMPLES / "no_challenger.json"), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["reason"] == "no_challenger"


def test_q31_protocol_breaks_before_the_first_question_and_in_every_part() -> None:
    single = {**RULES_EXAMPLE, "breaks": [0, 2]}
    result = score_protocol(single)
    assert result.main.state.breaks == (0, 2)
    assert result_json(result) == result_json(score_protocol(RULES_EXAMPLE))  # no effect
    doc = json.loads((EXAMPLES / "semifinals.json").read_text())
    doc["parts"][0]["breaks"] = [0, 7]
    doc["parts"][2]["breaks"] = [5]
    with_breaks = score_protocol(doc)
    assert [p.state.breaks for p in with_breaks.parts] == [(0, 7), (), (5,)]


@pytest.mark.parametrize("after", [-1, 3])
def test_q31_a_break_beyond_the_protocols_questions_is_rejected(after: int) -> None:
    with pytest.raises(RecordError, match=f"a break after question {after}") as err:
        score_protocol({**RULES_EXAMPLE, "breaks": [after]})
    assert err.value.rule == "Q31"


NAMES = {"semifinal 1", "semifinal 2", "final"}


def test_q33_part_picks_the_semifinal_that_after_refers_to() -> None:
    path = EXAMPLES / "semifinals.json"
    whole = score_json(path)
    out = score_json(path, "--part", "semifinal 1", "--after", "5")
    assert out["stage"] == "semifinal 1" and out["questions_played"] == 5
    assert out["parts"] == whole["parts"]  # every part's final situation, unchanged
    semi = score([str(path), "--part", "semifinal 2"])
    assert semi.exit_code == 0 and "semifinal 2" in semi.output
    titles = [line.strip() for line in semi.output.splitlines() if line.strip() in NAMES]
    assert titles == ["semifinal 2"]  # that part's table alone
    unknown = score([str(path), "--part", "semifinal 3"])
    assert unknown.exit_code == 2
    assert "no part 'semifinal 3'" in unknown.output and "'semifinal 1'" in unknown.output


@pytest.mark.parametrize("example", sorted(p.name for p in EXAMPLES.glob("*.json")))
def test_q33_explain_gives_every_result_its_reason(example: str) -> None:
    result = score([str(EXAMPLES / example), "--explain", "--width", "300"])
    assert result.exit_code == 0, result.output
    kinds = ("King", "ordinary", "jump", "revolution")
    teams = [
        line
        for line in result.output.splitlines()
        if line.startswith("  ") and line.split(": ", 1)[-1].startswith(kinds)
    ]
    # each line names its rule; a reason is added only where the figures do not say it
    assert teams and all(re.search(r"\(Q\d+(\.\d+)?[,)]", line) for line in teams)
    assert not [line for line in teams if re.search(r"right: .* — right", line)]
    for line in teams:
        if ", no answer" in line:  # a missing answer is never told as a wrong one
            assert "answered wrong" not in line and "wrong:" not in line
    assert "Spur: 'used' = the team has used a spur (Q4)" in plain(result.output)


def test_q33_explain_king_held_question_17() -> None:
    result = score([str(EXAMPLES / "king_held.json"), "--explain", "--width", "300"])
    ravens = next(
        line for line in result.output.splitlines() if "Ravens: ordinary, right: 0" in line
    )
    assert "one step below the King's Peak without a Revolution: points, no step (Q8)" in ravens


@pytest.mark.parametrize(
    ("example", "claimed", "accepted"),
    [
        ("king_held.json", "king_held", True),
        ("king_held.json", "questions_exhausted", False),
        ("questions_exhausted.json", "questions_exhausted", True),
        ("no_challenger.json", "king_held", False),
    ],
)
def test_q32_a_stated_end_reason_is_checked_against_the_questions(
    tmp_path: Path, example: str, claimed: str, accepted: bool
) -> None:
    doc = json.loads((EXAMPLES / example).read_text())
    doc["end_reason"] = claimed
    result = score([str(write(tmp_path, doc))])
    if accepted:
        assert result.exit_code == 0, result.output
    else:
        assert result.exit_code == 2
        assert f"ended because '{claimed}'" in plain(result.output) and "Q32" in result.output


def test_q32_a_running_game_cannot_claim_an_end(tmp_path: Path) -> None:
    result = score([str(write(tmp_path, {**RULES_EXAMPLE, "end_reason": "king_held"}))])
    assert result.exit_code == 2 and "a game still running" in plain(result.output)


def test_q32_an_evening_in_progress_lists_the_parts_played_so_far(tmp_path: Path) -> None:
    doc = json.loads((EXAMPLES / "semifinals.json").read_text())
    whole = score_json(write(tmp_path, doc, "whole.json"), "--part", "semifinal 1")
    first = score_json(write(tmp_path, {**doc, "parts": doc["parts"][:1]}, "first.json"))
    assert first["stage"] == "semifinal 1" and first["teams"] == whole["teams"]
