"""Per-question statistics: how many teams answered right, by declared move, and the
most common wrong answers, grouped as the judge marks them (``normalise_answer``).

Pure functions of a closed question's rows, so the console, the results page and the
exports all show the same figures, and a test can recount them from the log.
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from collections.abc import Iterable
from typing import Final

from koth.games.quiz.wording import DECLARATION_TEXTS
from koth.i18n import DEFAULT, N_, Translator
from koth.server.quiz.ops import normalise_answer
from koth.server.quiz.schemas import (
    DeclarationStats,
    MoveRow,
    QuestionStats,
    ResultsDocument,
    WrongAnswer,
)

#: how many of the most common wrong answers a question's statistics name
WRONG_SHOWN: Final = 5
#: the declarations in the order the statistics list them
ORDER: Final = ("ordinary", "jump", "revolution")


def question_stats(rows: Iterable[MoveRow]) -> QuestionStats:
    """The figures of one closed question from its rows (one per team of the part)."""
    rows = list(rows)
    by: list[DeclarationStats] = []
    for declaration in ORDER:
        mine = [r for r in rows if r.declaration == declaration]
        if mine:
            right = sum(1 for r in mine if r.correct)
            by.append(DeclarationStats(declaration=declaration, teams=len(mine), right=right))
    wrong: Counter[str] = Counter()
    spelling: dict[str, str] = {}
    for r in rows:
        if r.correct is False and r.answer:
            key = normalise_answer(r.answer)
            wrong[key] += 1
            spelling.setdefault(key, r.answer.strip())
    common = sorted(wrong.items(), key=lambda kv: (-kv[1], spelling[kv[0]]))[:WRONG_SHOWN]
    return QuestionStats(
        teams=len(rows),
        answered=sum(1 for r in rows if r.correct is not None),
        right=sum(1 for r in rows if r.correct),
        by_declaration=by,
        wrong_answers=[WrongAnswer(text=spelling[k], teams=n) for k, n in common],
    )


STATS_COLUMNS: Final = {
    "part": N_("part"),
    "question": N_("question"),
    "teams": N_("teams"),
    "answered": N_("answered"),
    "right": N_("right"),
    "by_declaration": N_("by declaration (right of teams)"),
    "wrong_answers": N_("most common wrong answers"),
}


def statistics_csv(doc: ResultsDocument, part_names: dict[str, str], lang: str) -> str:
    """One row per part and question: the figures of :func:`question_stats`, worded in
    ``lang`` (``part_names``: the parts' names in that language)."""
    _ = Translator(lang)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow([key if _.lang == DEFAULT else _(text) for key, text in STATS_COLUMNS.items()])
    for part in doc.parts:
        for q in part.questions:
            s = q.stats
            by = "; ".join(
                f"{_(DECLARATION_TEXTS[d.declaration])} {d.right}/{d.teams}"
                for d in s.by_declaration
            )
            wrong = "; ".join(f"{w.text} ×{w.teams}" for w in s.wrong_answers)
            row = [part_names.get(part.name, part.name), q.question, s.teams, s.answered]
            writer.writerow([*row, s.right, by, wrong])
    return buffer.getvalue()
