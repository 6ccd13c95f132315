"""Rich tables of the game situation and of a question pack."""

from __future__ import annotations

from rich.table import Table

from koth.games.quiz.pack import Pack
from koth.games.quiz.situation import Situation
from koth.games.quiz.state import NoteKind
from koth.games.quiz.wording import end_text, note_params_text


def situation_table(s: Situation, title: str | None = None) -> Table:
    """The standings as a table, best place first."""
    if s.finished:
        reason = end_text(s.reason) if s.reason else ""
        status = f"finished after question {s.questions_played}: {reason}"
    else:
        status = f"after question {s.questions_played} of {s.total_questions}"
    if s.king is not None:
        status += f"; King: {s.king} (held {s.king_hold} of {s.hold_moves})"
    table = Table(title=title or "King of the Hill: quiz", caption=status)
    table.add_column("Place", justify="right")
    table.add_column("Team")
    table.add_column("Position", justify="right")
    table.add_column("Points", justify="right")
    table.add_column("Spur")
    if s.kind == "game":
        table.add_column("Revolution")
    for line in s.teams:
        name = f"{line.name} (King)" if line.king else line.name
        spur = "used" if line.spur_used else ""
        if line.spurs is not None:
            spur = f"{spur} {line.spurs}".strip()
        row = [str(line.place), name, f"{line.position}/{s.steps}", str(line.points), spur]
        if s.kind == "game":
            row.append("yes" if line.revolution_right else "used")
        table.add_row(*row)
    return table


def tie_lines(s: Situation) -> list[str]:
    out = [
        f"Lightning round needed for place {g.place}: {', '.join(g.teams)}"
        for g in s.lightning_required
    ]
    if s.qualified is not None:
        out.append("Qualified for the final: " + ", ".join(s.qualified))
    out.extend(
        f"Downgraded: question {d.question}, {d.team}: "
        + note_params_text(NoteKind.DOWNGRADED, d.params)
        for d in s.downgraded
    )
    if s.voided_questions:
        out.append("Void questions (after the end): " + ", ".join(map(str, s.voided_questions)))
    return out


def _count(n: int, noun: str) -> str:
    """``1 question``, ``2 questions``."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def pack_table(pack: Pack) -> Table:
    """A pack's questions, main before backup before lightning, each with its answer and
    variants (backups numbered B1, B2, …, lightning questions L1, L2, …)."""
    table = Table(
        title=pack.title or "Question pack",
        caption=f"{_count(pack.count('main'), 'question')}, "
        f"{_count(pack.count('backup'), 'backup question')}, "
        f"{_count(pack.count('lightning'), 'lightning question')}",
    )
    rows = []
    order = {"main": 0, "backup": 1, "lightning": 2}
    for q in sorted(pack.questions, key=lambda q: (q.part or "", order[q.kind], q.number)):
        number = {"backup": "B", "lightning": "L"}.get(q.kind, "") + str(q.number)
        text = q.text if len(q.text) <= 60 else q.text[:59] + "…"
        accepted = " | ".join(q.accepted)
        media = q.media[1] if q.media is not None else ""
        rows.append(
            [
                number,
                q.part or "",
                text,
                q.answer,
                accepted,
                q.picture or "",
                media,
                q.partner or "",
            ]
        )
    # a column no question fills is left out; the texts share what width is left, folding
    # only a word longer than their column
    columns = ("No.", "Part", "Question", "Answer", "Accepted", "Picture", "Media", "Partner")
    keep = [i for i, name in enumerate(columns) if name in ("No.", "Question", "Answer")
            or any(row[i] for row in rows)]  # fmt: skip
    for i in keep:
        table.add_column(columns[i], overflow="fold")
    for row in rows:
        table.add_row(*(row[i] for i in keep))
    return table
