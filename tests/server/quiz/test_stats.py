"""Per-question statistics: the results JSON, the console and the statistics CSV agree
with the log (every team's row), and the figures add up for any rows."""

from __future__ import annotations

import csv
import io
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from koth.server.quiz.ops import normalise_answer
from koth.server.quiz.schemas import MoveRow
from koth.server.quiz.stats import question_stats
from tests.server.quiz.helpers import QuizApi, started


def test_statistics_follow_each_question_in_results_console_and_csv(api: QuizApi) -> None:
    started(api, teams=("A", "B", "C", "D"))
    api.play(1, {"A": "Paris", "B": "Rome", "C": "rome!", "D": "Oslo"}, {"Paris"})
    api.play(2, {"A": "Seine", "B": "Seine"}, {"Seine"})
    first = api.judge_view()["closed"][1]  # newest first
    assert first["question"] == 1
    assert first["stats"] == {
        "teams": 4,
        "answered": 4,
        "right": 1,
        "by_declaration": [{"declaration": "ordinary", "teams": 4, "right": 1}],
        "wrong_answers": [{"text": "Rome", "teams": 2}, {"text": "Oslo", "teams": 1}],
    }
    results = api.client.get(api.url("results"), headers=api.host).json()
    for q in results["parts"][0]["questions"]:  # recounted from every team's row
        rows = q["rows"]
        assert q["stats"]["right"] == sum(1 for r in rows if r["correct"])
        assert q["stats"]["answered"] == sum(1 for r in rows if r["correct"] is not None)
    text = api.client.get(api.url("statistics.csv"), headers=api.host).text
    table = list(csv.DictReader(io.StringIO(text.lstrip("\ufeff"))))
    assert [(r["question"], r["right"], r["answered"]) for r in table] == [
        ("1", "1", "4"),
        ("2", "2", "2"),
    ]
    assert table[0]["wrong_answers"] == "Rome ×2; Oslo ×1"
    assert table[0]["by_declaration"] == "ordinary move 1/4"


ROWS = st.lists(
    st.builds(
        lambda team, declaration, correct, answer: MoveRow(
            team=str(team),
            declaration=declaration,
            late=[],
            correct=correct,
            time=None,
            void=False,
            answer=answer if correct is not None else None,
        ),
        st.integers(0, 99),
        st.sampled_from(["ordinary", "jump", "revolution"]),
        st.sampled_from([True, False, None]),
        st.sampled_from(["Rome", "rome!", "Oslo", " OSLO ", "Paris"]),
    ),
    max_size=30,
)


@given(ROWS)
def test_the_figures_add_up_for_any_rows(rows: list[Any]) -> None:
    s = question_stats(rows)
    assert s.teams == len(rows) == sum(d.teams for d in s.by_declaration)
    assert s.right == sum(d.right for d in s.by_declaration) <= s.answered <= s.teams
    wrong = [r for r in rows if r.correct is False]
    assert sum(w.teams for w in s.wrong_answers) <= len(wrong)
    keys = [normalise_answer(w.text) for w in s.wrong_answers]
    assert len(keys) == len(set(keys))  # one line per group, as marked
    assert [w.teams for w in s.wrong_answers] == sorted(
        (w.teams for w in s.wrong_answers), reverse=True
    )
