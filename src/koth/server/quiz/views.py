"""Every message a quiz client receives is built here: one function per audience.

* :func:`team_message`: one team's own slope, answer and declarations, plus the public
  standings. Never another team's answer, never a spur cell before the part is over.
* :func:`projector_message`: the public picture (positions, points, previous moves, how
  many teams answered). Never an answer text, never a spur cell before the end.
* :func:`judge_message`: everything, for the holder of the host token only.
* :func:`results_document`: the full record, shown to everyone once the event is over.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from koth.games.quiz import legal_declarations, situation
from koth.server.quiz.model import EventModel, Part, Question, part_names

#: teams listed on a team's phone besides its own line
TEAM_TOP = 10


# ------------------------------------------------------------------- shared parts
def phase(model: EventModel, now: float) -> dict[str, Any]:
    """Where the evening stands: part, question, stage and timer (all public)."""
    part = model.part
    settings = model.config
    out: dict[str, Any] = {
        "part": None,
        "part_index": len(model.parts) - 1,
        "parts": part_names(settings),
        "question": None,
        "questions_played": 0,
        "total_questions": 0,
        "stage": "lobby",
        "timer": None,
        "event_finished": model.finished,
    }
    if part is None:
        return out
    out["part"] = part.name
    out["questions_played"] = part.state.questions_played
    out["total_questions"] = part.config.total_questions
    q = part.open_question
    if q is None:
        if model.finished:
            out["stage"] = "finished"
        elif part.state.finished:
            out["stage"] = "part_over" if part.settled else "lightning"
        else:
            out["stage"] = "between"
        return out
    out["question"] = q.number
    out["partner"] = q.partner_flag or q.number in part.config.partner_questions
    if q.locked_at is None:
        out["stage"] = "declaring"
    elif q.timer is None:
        out["stage"] = "read"
    else:
        t = q.timer
        running = t.is_open(now) and t.paused_at is None
        out["timer"] = {
            "seconds": t.seconds,
            "remaining": round(t.remaining(now), 2),
            "running": running,
            "paused": t.paused_at is not None and t.closed_at is None,
        }
        out["stage"] = "answering" if t.is_open(now) else "judging"
    return out


def _memo(part: Part, key: str, build: Any) -> Any:
    """Messages for 1,000 teams share one computation per resolved situation: the
    situation depends only on the snapshots, records, notes and lightning of the
    (immutable) state, not on the answers coming in for the open question."""
    state = part.state
    basis = (state.snapshots, state.records, state.notes, state.lightning)
    hit = part.memo.get(key)
    if hit is not None and all(a is b for a, b in zip(hit[0], basis, strict=True)):
        return hit[1]
    value = build()
    part.memo[key] = (basis, value)
    return value


def standings(part: Part) -> dict[str, Any]:
    """The public situation of a part (spur cells appear only once it is over, Q20)."""
    out: dict[str, Any] = _memo(part, "standings", lambda: _standings(part))
    return out


def _standings(part: Part) -> dict[str, Any]:
    s = situation(part.state)
    return {
        "finished": s.finished,
        "reason": s.reason,
        "king": s.king,
        "king_hold": s.king_hold,
        "hold_moves": s.hold_moves,
        "steps": s.steps,
        "kind": s.kind,
        "questions_played": s.questions_played,
        "teams": [
            {
                "name": t.name,
                "position": t.position,
                "points": t.points,
                "place": t.place,
                "king": t.king,
                "spur_used": t.spur_used,
                "revolution_right": t.revolution_right,
                **({"spurs": t.spurs} if s.finished else {}),
            }
            for t in s.teams
        ],
        "lightning_required": [g.model_dump() for g in s.lightning_required],
        "qualified": s.qualified,
        "downgraded": [d.model_dump() for d in s.downgraded],
    }


def question_moves(part: Part, number: int, *, answers: bool) -> list[dict[str, Any]]:
    """Per team, what happened on closed question ``number``: declaration, judgement and
    the move. Answer texts only with ``answers`` (the judge and the final results)."""
    state = part.state
    names = part.config.teams
    record = state.records[number - 1]
    q = part.questions[number - 1]
    void = number > state.questions_played
    if not void:
        before = state.snapshots[number - 1]
        after = state.snapshots[number]
        notes = state.notes[number - 1]
    rows = []
    for i, name in enumerate(names):
        judged = record.judged[i]
        row: dict[str, Any] = {
            "team": name,
            "declaration": record.declarations.get(i, "ordinary"),
            "late": [d for t, d in q.late if t == name],
            "correct": judged,
            "time": record.times[i],
            "void": void,
        }
        if answers:
            answer = q.answers.get(name)
            row["answer"] = answer.text if answer else None
        if not void:
            row.update(
                king=before.king == i,
                position=after.position[i],
                points=after.points[i],
                steps=after.position[i] - before.position[i],
                gained=after.points[i] - before.points[i],
                spur=before.position[i] in before.spurs_left[i],
                notes=[n.text for n in notes if n.team == name],
                downgraded=any(n.kind == "downgraded" and n.team == name for n in notes),
            )
        rows.append(row)
    return rows


def _last_moves(part: Part | None) -> tuple[int | None, dict[str, dict[str, Any]]]:
    if part is None or not part.state.questions_played:
        return None, {}
    k = part.state.questions_played
    moves: dict[str, dict[str, Any]] = _memo(
        part, "moves", lambda: {row["team"]: row for row in question_moves(part, k, answers=False)}
    )
    return k, moves


def _base(model: EventModel, audience: str, now: float) -> dict[str, Any]:
    settings = model.config
    return {
        "type": "state",
        "audience": audience,
        "seq": model.seq,
        "server_time": now,
        "event": {"id": model.event_id, "title": settings.title, "format": settings.format},
        "phase": phase(model, now),
    }


# ---------------------------------------------------------------------- audiences
def team_message(model: EventModel, team: str, now: float) -> dict[str, Any]:
    """What team ``team`` may see now."""
    out = _base(model, "team", now)
    part = model.part
    out["team"] = team
    me: dict[str, Any] = {"plays": False}
    out["me"] = me
    if part is None:
        out["teams_joined"] = len(model.teams)
        return out
    table = standings(part)
    lines: dict[str, dict[str, Any]] = _memo(
        part, "lines", lambda: {t["name"]: t for t in table["teams"]}
    )
    out["standings"] = {
        k: table[k] for k in ("finished", "king", "king_hold", "hold_moves", "steps", "qualified")
    }
    out["standings"]["top"] = table["teams"][:TEAM_TOP]
    out["standings"]["teams"] = len(table["teams"])
    if team not in part.state.index:
        return out
    me.update(lines[team])
    me["plays"] = True
    q = part.open_question
    if q is not None:
        me["declaration"] = q.declarations.get(team, "ordinary")
        me["legal"] = sorted(legal_declarations(part.state, team)) if q.locked_at is None else []
        answer = q.answers.get(team)
        me["answer"] = (
            None
            if answer is None
            else {
                "text": answer.text,
                "submission_id": answer.submission_id,
                "status": "accepted"
                if answer.judged is None
                else ("right" if answer.judged else "wrong"),
                "time": answer.time,
            }
        )
    number, moves = _last_moves(part)
    if number is not None:
        me["last_move"] = {"question": number, **moves[team]}
    return out


def projector_message(model: EventModel, now: float) -> dict[str, Any]:
    """The public picture for the big screen."""
    out = _base(model, "projector", now)
    settings = model.config
    part = model.part
    out["joined"] = sorted(model.teams) if part is None else []
    if part is None:
        return out
    out["standings"] = standings(part)
    number, moves = _last_moves(part)
    out["last_question"] = number
    out["moves"] = moves
    q = part.open_question
    out["answered"] = len(q.answers) if q is not None else None
    out["teams_total"] = len(part.config.teams)
    out["sectors"] = list(part.config.teams)
    out["format"] = settings.format
    return out


def judge_message(model: EventModel, now: float) -> dict[str, Any]:
    """Everything, for the host's console."""
    out = _base(model, "judge", now)
    settings = model.config
    out["settings"] = settings.model_dump(mode="json")
    out["teams"] = [{"name": t.name, "device": t.has_device} for t in model.teams.values()]
    nxt = model.next_part_teams()
    part = model.part
    can_start = nxt is not None and (part is None or part.settled)
    out["next_part"] = {"name": nxt[0], "teams": nxt[1]} if nxt and can_start else None
    if part is None:
        return out
    out["standings"] = standings(part)
    out["spurs"] = {t: list(c) for t, c in part.config.spurs.items()}
    q = part.open_question
    if q is not None:
        out["open"] = _open_question_detail(part, q)
    out["closed"] = _memo(part, "closed", lambda: _closed(part))
    out["appeals"] = [
        {
            "question": a.question,
            "team": a.team,
            "correct": a.correct,
            "comment": a.comment,
            "downgraded": a.downgraded,
        }
        for a in part.appeals
    ]
    out["lightning"] = [{"teams": lq.teams, "right": lq.right} for lq in part.lightning]
    return out


def _closed(part: Part) -> list[dict[str, Any]]:
    """The last five closed questions, newest first, with every answer (for appeals)."""
    closed = [k for k in range(len(part.questions), 0, -1) if part.questions[k - 1].resolved]
    return [
        {
            "question": k,
            "partner": part.state.records[k - 1].partner,
            "rows": question_moves(part, k, answers=True),
        }
        for k in closed[:5]
    ]


def _open_question_detail(part: Part, q: Question) -> dict[str, Any]:
    groups: dict[str, list[str]] = {}
    for team, answer in sorted(q.answers.items(), key=lambda kv: kv[1].seq):
        groups.setdefault(answer.key, []).append(team)
    detail: list[dict[str, Any]] = []
    for key, teams in groups.items():
        texts = Counter(q.answers[t].text for t in teams)
        verdicts = Counter(
            "unjudged"
            if q.answers[t].judged is None
            else ("right" if q.answers[t].judged else "wrong")
            for t in teams
        )
        detail.append(
            {
                "key": key,
                "text": texts.most_common(1)[0][0],
                "teams": teams,
                "right": verdicts["right"],
                "wrong": verdicts["wrong"],
                "unjudged": verdicts["unjudged"],
            }
        )
    detail.sort(key=lambda g: (-len(g["teams"]), g["key"]))
    oq = part.state.open
    declared: dict[str, str] = dict(q.declarations)
    return {
        "question": q.number,
        "locked": q.locked_at is not None,
        "partner_flag": q.partner_flag,
        "partner_listed": q.number in part.config.partner_questions,
        "declarations": declared,
        "late": [{"team": t, "declaration": d} for t, d in q.late],
        "answered": len(q.answers),
        "unjudged": oq.unjudged if oq is not None else 0,
        "groups": detail,
        "missing": [t for t in part.config.teams if t not in q.answers],
    }


def results_document(model: EventModel) -> dict[str, Any]:
    """The full record of the event: places, and per question every team's declaration,
    answer, judgement and move (for the results page and the JSON export)."""
    settings = model.config
    parts = []
    for part in model.parts:
        parts.append(
            {
                "name": part.name,
                "standings": standings(part),
                "spurs": {t: list(c) for t, c in part.config.spurs.items()},
                "questions": [
                    {
                        "question": k,
                        "partner": part.state.records[k - 1].partner,
                        "rows": question_moves(part, k, answers=True),
                    }
                    for k in range(1, len(part.questions) + 1)
                    if part.questions[k - 1].resolved
                ],
                "appeals": [
                    {
                        "question": a.question,
                        "team": a.team,
                        "correct": a.correct,
                        "comment": a.comment,
                        "after_question": a.after_question,
                        "downgraded": a.downgraded,
                    }
                    for a in part.appeals
                ],
                "lightning": [{"teams": lq.teams, "right": lq.right} for lq in part.lightning],
                "breaks": part.breaks,
            }
        )
    return {
        "event": {"id": model.event_id, "title": settings.title, "format": settings.format},
        "finished": model.finished,
        "settings": settings.model_dump(mode="json", exclude={"spur_seed"}),
        "parts": parts,
    }
