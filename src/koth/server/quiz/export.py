"""Exports of a hosted event: the engine's protocol JSON (``koth quiz score`` replays it to
the same result), the results JSON and a CSV of every team's move on every question."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from typing import Any

from pydantic import TypeAdapter

from koth.games.quiz.state import EndReason
from koth.games.quiz.wording import DECLARATION_TEXTS, end_text, note_params_text
from koth.i18n import DEFAULT, N_, Translator
from koth.server.quiz.i18n import PART_TEXTS
from koth.server.quiz.model import EventModel
from koth.server.quiz.parts import Part, Question
from koth.server.quiz.schemas import ProtocolDocument
from koth.server.quiz.stats import statistics_csv
from koth.server.quiz.views import results_document

_PROTOCOL: TypeAdapter[ProtocolDocument] = TypeAdapter(ProtocolDocument)

#: the CSV's columns (the order is the file's) and their headings in other languages
CSV_HEADINGS: dict[str, str] = {
    "part": N_("part"),
    "question": N_("question"),
    "team": N_("team"),
    "place": N_("place"),
    "declaration": N_("declaration"),
    "late_declaration": N_("late declaration"),
    "answer": N_("answer"),
    "time_s": N_("time (s)"),
    "correct": N_("right"),
    "steps": N_("steps"),
    "points_gained": N_("points gained"),
    "position": N_("position"),
    "points": N_("points"),
    "spur": N_("spur"),
    "partner": N_("partner question"),
    "king": N_("King"),
    "void": N_("void"),
    "notes": N_("notes"),
    "end_reason": N_("end reason"),
}
CSV_COLUMNS = list(CSV_HEADINGS)
#: a spreadsheet (Excel above all) reads a CSV file as UTF-8 only after this mark
BOM = "\ufeff"


def _question(part: Part, q: Question) -> dict[str, Any]:
    out: dict[str, Any] = {
        "declarations": dict(q.declarations),
        "answers": {
            team: {"correct": q.judged_at_close[team], "time": answer.time}
            for team, answer in q.answers.items()
            if team in q.judged_at_close  # not an answer admitted later on appeal
        },
    }
    late = {team: declared for team, declared in q.late}
    if late:
        out["late_declarations"] = late
    if q.partner_flag:
        out["partner"] = True
    # an appeal made after question k closed replays right after question k (Q26)
    corrections = [
        {"question": a.question, "team": a.team, "correct": a.correct}
        | ({"admitted": True} if a.admitted else {})
        for a in part.appeals
        if a.after_question == q.number
    ]
    if corrections:
        out["corrections"] = corrections
    return out


def _part_body(part: Part) -> dict[str, Any]:
    body: dict[str, Any] = {
        "questions": [_question(part, q) for q in part.questions if q.resolved],
        "lightning": [
            {"teams": lq.teams, "answers": {t: {"correct": t in lq.right} for t in lq.teams}}
            for lq in part.lightning
        ],
    }
    # a finished part says why it ended; scoring the protocol checks it (rules Q32)
    reason = part.state.standings.reason
    if part.state.finished and reason is not None:
        body["end_reason"] = reason.value
    return body


def _spurs(part: Part) -> dict[str, list[int]]:
    return {t: sorted(c) for t, c in part.config.spurs.items() if c}


def protocol_document(model: EventModel) -> ProtocolDocument:
    """The event as a protocol of the quiz engine (docs/rules/quiz.md, Q32); checked
    against the protocol's own schema, so an export always scores."""
    return _PROTOCOL.validate_python(_protocol(model))


def _protocol(model: EventModel) -> dict[str, Any]:
    settings = model.config
    common: dict[str, Any] = {
        "steps": settings.steps,
        "hold_moves": settings.hold_moves,
        "backup_questions": settings.backup_questions,
        "partner_questions": sorted(settings.partner_questions),
        "prize_places": settings.prize_places,
    }
    if settings.format == "single":
        part = model.part
        teams = list(part.config.teams) if part is not None else sorted(model.teams)
        doc: dict[str, Any] = {
            "config": {
                **common,
                "questions": settings.questions,
                "spurs": _spurs(part) if part is not None else {},
            },
            "teams": teams,
            **(_part_body(part) if part is not None else {"questions": [], "lightning": []}),
        }
        if part is not None and part.breaks:
            doc["breaks"] = list(part.breaks)
        return doc
    parts = []
    for part in model.parts:
        parts.append(
            {
                "name": part.name,
                "teams": list(part.config.teams),
                "config": {"questions": part.config.questions, "spurs": _spurs(part)},
                **_part_body(part),
                **({"breaks": list(part.breaks)} if part.breaks else {}),
            }
        )
    return {
        "format": {"kind": "semifinals", "qualifiers": settings.qualifiers},
        "config": common,
        "parts": parts,
    }


def results_csv(model: EventModel, lang: str = "en") -> str:
    """One row per part, question and team (the club's "figures"), then one per team of
    each lightning question, worded in ``lang`` (headings, parts, declarations, yes/no
    and notes; team names and answers as given); every row names its part and the
    reason the part ended. Starts with a byte-order mark so spreadsheets read the
    Cyrillic right."""
    doc = results_document(model)
    _ = Translator(lang)
    notes = control_notes(model, _)
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=CSV_COLUMNS, lineterminator="\n")
    # English keeps the column identifiers as headings, for the programs that read them
    writer.writerow(
        {key: key if _.lang == DEFAULT else _(text) for key, text in CSV_HEADINGS.items()}
    )

    def yes_no(value: bool | None) -> str:
        return "" if value is None else _(YES) if value else _(NO)

    def declaration(value: str) -> str:
        return _(DECLARATION_TEXTS[value])

    for part in doc.parts:
        places = {t.name: t.place for t in part.standings.teams}
        reason = end_text(EndReason(part.standings.reason), _) if part.standings.reason else ""
        part_name = _(PART_TEXTS.get(part.name, part.name))
        for q in part.questions:
            for row in q.rows:
                writer.writerow(
                    _safe_row(
                        {
                            "part": part_name,
                            "question": q.question,
                            "team": row.team,
                            "place": places.get(row.team, ""),
                            "declaration": declaration(row.declaration),
                            "late_declaration": " ".join(declaration(d) for d in row.late),
                            "answer": row.answer or "",
                            "time_s": _blank(row.time),
                            "correct": yes_no(row.correct),
                            "steps": _blank(row.steps),
                            "points_gained": _blank(row.gained),
                            "position": _blank(row.position),
                            "points": _blank(row.points),
                            "spur": yes_no(row.spur),
                            "partner": yes_no(q.partner),
                            "king": yes_no(row.king),
                            "void": yes_no(row.void),
                            "notes": "; ".join(
                                [
                                    *(note_params_text(n.kind, n.params, _) for n in row.notes),
                                    *notes(part.name, q.question, row.team),
                                ]
                            ),
                            "end_reason": reason,
                        }
                    )
                )
        for k, lq in enumerate(part.lightning, start=1):
            for team in lq.teams:
                writer.writerow(
                    _safe_row(
                        {
                            "part": part_name,
                            "question": _(N_("lightning {number}"), number=k),
                            "team": team,
                            "place": places.get(team, ""),
                            "correct": yes_no(team in lq.right),
                            "end_reason": reason,
                        }
                    )
                )
    return BOM + buffer.getvalue()


def stats_csv(model: EventModel, lang: str = "en") -> str:
    """Per part and question: teams, answers, right answers, by declared move, and the
    most common wrong answers (a byte-order mark first, as :func:`results_csv`)."""
    _ = Translator(lang)
    names = {key: _(text) for key, text in PART_TEXTS.items()}
    return BOM + statistics_csv(results_document(model), names, lang)


def _blank(value: object) -> object:
    return "" if value is None else value


#: what a spreadsheet reads as the start of a formula (or of a cell it may run)
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _safe_row(row: dict[str, Any]) -> dict[str, Any]:
    """Every text cell, whatever its column, neutralised: a team named
    ``=HYPERLINK(...)`` must not run as a formula when the file is opened (numbers the
    export writes itself stay numbers)."""
    return {k: _cell(v) if isinstance(v, str) else v for k, v in row.items()}


def _cell(text: str) -> str:
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def control_notes(model: EventModel, _: Translator) -> Callable[[str, int, str], list[str]]:
    """The host's changes as notes of the CSV rows: a renamed team's first row names its
    old name; every row after a team withdrew says so (rules Q36)."""
    renamed: dict[str, list[str]] = {}
    for change in model.changes:
        if change.kind == "renamed":
            renamed.setdefault(change.team, []).append(
                _(N_("renamed from {name}"), name=change.detail)
            )
        elif change.kind == "merged":
            renamed.setdefault(change.team, []).append(
                _(N_("absorbed team {name}"), name=change.detail)
            )
    withdrawn = {
        (t.withdrawn_in, t.name): t.withdrawn_after
        for t in model.teams.values()
        if t.withdrawn_after is not None
    }

    def notes(part: str, question: int, team: str) -> list[str]:
        out = list(renamed.get(team, [])) if question == 1 else []
        after = withdrawn.get((part, team))
        if after is not None and question > after:
            out.append(_(N_("withdrawn after question {question} (rules Q36)"), question=after))
        return out

    return notes


YES = N_("yes")
NO = N_("no")
