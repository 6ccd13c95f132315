"""Every message a quiz client receives is built here: one function per audience, each
returning its response model (:mod:`koth.server.quiz.schemas`).

* :func:`team_message`: one team's own slope, answer and declarations, plus the public
  standings. Never another team's answer, never a spur cell before the part is over.
* :func:`projector_message`: the public picture (positions, points, previous moves, how
  many teams answered). Never an answer text, never a spur cell before the end.
* :func:`judge_message`: everything, for the holder of the host token only.
* :func:`results_document`: the full record, shown to everyone once the event is over.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any, TypeVar

from koth.games.quiz import legal_declarations, situation
from koth.server.quiz import screen
from koth.server.quiz.model import EventModel
from koth.server.quiz.parts import Part, Question, part_names
from koth.server.quiz.schemas import (
    AnswerGroup,
    AnswerStatus,
    AppealInfo,
    ChangeInfo,
    ClosedQuestion,
    EventInfo,
    HostControlInfo,
    JudgeMessage,
    JudgeTeam,
    LastMove,
    LateDeclaration,
    LightningInfo,
    MoveRow,
    NextPart,
    NoteInfo,
    OpenQuestionDetail,
    PartResults,
    Phase,
    ProjectorMessage,
    ResultsDocument,
    Standings,
    TeamAnswer,
    TeamMessage,
    TeamSelf,
    TeamStandings,
    TimerInfo,
)
from koth.server.quiz.stats import question_stats

#: teams listed on a team's phone besides its own line
TEAM_TOP = 10

_V = TypeVar("_V")


# ------------------------------------------------------------------- shared parts
def phase(model: EventModel, now: float) -> Phase:
    """Where the evening stands: part, question, stage and timer (all public)."""
    part = model.part
    out = Phase(
        part_index=len(model.parts) - 1,
        parts=part_names(model.config),
        event_finished=model.finished,
    )
    if part is None:
        return out
    out.part = part.name
    out.questions_played = part.state.questions_played
    out.total_questions = part.config.total_questions
    q = part.open_question
    if q is None:
        if model.finished:
            out.stage = "finished"
        elif part.state.finished:
            out.stage = "part_over" if part.settled else "lightning"
        else:
            out.stage = "between"
        return out
    out.question = q.number
    out.partner = q.partner_flag or q.number in part.config.partner_questions
    if q.locked_at is None:
        out.stage = "declaring"
    elif q.timer is None:
        out.stage = "read"
    else:
        t = q.timer
        closed = t.closed_at is not None
        out.timer = TimerInfo(
            seconds=t.seconds,
            # closed by the host with time left: no time is left to show
            remaining=0.0 if closed else round(t.remaining(now), 2),
            running=t.is_open(now) and t.paused_at is None,
            paused=t.paused_at is not None and not closed,
        )
        out.stage = "answering" if t.is_open(now) else "judging"
    return out


def _memo(part: Part, key: str, build: Callable[[], _V]) -> _V:
    """Messages for 1,000 teams share one computation per resolved situation: the
    situation depends only on the snapshots, records, notes and lightning of the
    (immutable) state, not on the answers coming in for the open question. Memoised
    values are shared between messages, so nothing may change them."""
    state = part.state
    basis = (state.snapshots, state.records, state.notes, state.lightning)
    hit = part.memo.get(key)
    if hit is not None and all(a is b for a, b in zip(hit[0], basis, strict=True)):
        value: _V = hit[1]
        return value
    value = build()
    part.memo[key] = (basis, value)
    return value


def standings(part: Part) -> Standings:
    """The public situation of a part (spur cells appear only once it is over, Q20)."""
    return _memo(part, "standings", lambda: _standings(part))


def _standings(part: Part) -> Standings:
    s = situation(part.state)
    return Standings(
        finished=s.finished,
        reason=s.reason,
        king=s.king,
        king_hold=s.king_hold,
        hold_moves=s.hold_moves,
        steps=s.steps,
        kind=s.kind,
        questions_played=s.questions_played,
        teams=list(s.teams),
        lightning_required=list(s.lightning_required),
        qualified=s.qualified,
        downgraded=list(s.downgraded),
    )


def question_moves(part: Part, number: int, *, answers: bool) -> list[MoveRow]:
    """Per team, what happened on closed question ``number``: declaration, judgement and
    the move. Answer texts only with ``answers`` (the judge and the final results)."""
    state = part.state
    record = state.records[number - 1]
    q = part.questions[number - 1]
    void = number > state.questions_played
    rows = []
    for i, name in enumerate(part.config.teams):
        answer = q.answers.get(name) if answers else None
        row = MoveRow(
            team=name,
            declaration=record.declarations.get(i, "ordinary"),
            late=[d for t, d in q.late if t == name],
            correct=record.judged[i],
            time=record.times[i],
            void=void,
            answer=answer.text if answer else None,
        )
        if not void:
            before = state.snapshots[number - 1]
            after = state.snapshots[number]
            notes = [n for n in state.notes[number - 1] if n.team == name]
            row.king = before.king == i
            row.position = after.position[i]
            row.points = after.points[i]
            row.steps = after.position[i] - before.position[i]
            row.gained = after.points[i] - before.points[i]
            row.spur = before.position[i] in before.spurs_left[i]
            row.notes = [NoteInfo(kind=n.kind, params=n.details) for n in notes]
            row.downgraded = any(n.kind == "downgraded" for n in notes)
        rows.append(row)
    return rows


def _last_moves(part: Part | None) -> tuple[int | None, dict[str, MoveRow]]:
    if part is None or not part.state.questions_played:
        return None, {}
    k = part.state.questions_played
    moves = _memo(
        part, "moves", lambda: {row.team: row for row in question_moves(part, k, answers=False)}
    )
    return k, moves


#: the last header built: a broadcast builds one message per team at the same moment
_last_base: list[tuple[tuple[int, int, float], dict[str, Any]]] = []


def _base(model: EventModel, now: float) -> dict[str, Any]:
    """What every audience's message starts with (shared, so never changed)."""
    key = (id(model), model.seq, now)
    if _last_base and _last_base[0][0] == key:
        return _last_base[0][1]
    settings = model.config
    base = {
        "seq": model.seq,
        "server_time": now,
        "event": EventInfo(id=model.event_id, title=settings.title, format=settings.format),
        "phase": phase(model, now),
    }
    _last_base[:] = [(key, base)]
    return base


# ---------------------------------------------------------------------- audiences
def team_message(model: EventModel, team: str, now: float) -> TeamMessage:
    """What team ``team`` may see now.

    Built for every team after each change (1,000 of them at a big evening), so the
    parts every team shares are built once and shared."""
    part = model.part
    out = TeamMessage(
        team=team, me=TeamSelf(), withdrawn=model.withdrawn(team), **_base(model, now)
    )
    if part is None:
        out.teams_joined = len(model.teams)
        return out
    out.standings = _memo(part, "team_standings", lambda: _team_standings(part))
    if team not in part.state.index:
        return out
    lines = _memo(part, "lines", lambda: {t.name: dict(t) for t in standings(part).teams})
    me = out.me = TeamSelf(plays=True, **lines[team])
    q = part.open_question
    if q is not None:
        me.declaration = q.declarations.get(team, "ordinary")
        me.legal = sorted(legal_declarations(part.state, team)) if q.locked_at is None else []
        answer = q.answers.get(team)
        if answer is not None:
            status: AnswerStatus = (
                "accepted" if answer.judged is None else "right" if answer.judged else "wrong"
            )
            me.answer = TeamAnswer(
                text=answer.text,
                submission_id=answer.submission_id,
                status=status,
                time=answer.time,
            )
    number, moves = _last_moves(part)
    if number is not None:
        me.last_move = LastMove(question=number, **dict(moves[team]))
    screen.fill_team(out, model)
    return out


def _team_standings(part: Part) -> TeamStandings:
    table = standings(part)
    return TeamStandings(
        finished=table.finished,
        king=table.king,
        king_hold=table.king_hold,
        hold_moves=table.hold_moves,
        steps=table.steps,
        qualified=table.qualified,
        top=table.teams[:TEAM_TOP],
        teams=len(table.teams),
    )


def projector_message(model: EventModel, now: float) -> ProjectorMessage:
    """The public picture for the big screen."""
    part = model.part
    out = ProjectorMessage(joined=sorted(model.teams) if part is None else [], **_base(model, now))
    if part is None:
        return out
    out.standings = standings(part)
    out.last_question, out.moves = _last_moves(part)
    q = part.open_question
    out.answered = len(q.answers) if q is not None else None
    out.teams_total = len(part.config.teams)
    out.sectors = list(part.config.teams)
    out.withdrawn = [t for t in part.config.teams if model.withdrawn(t)]
    out.format = model.config.format
    screen.fill_projector(out, model, part)
    return out


def judge_message(model: EventModel, now: float, join_code: str | None = None) -> JudgeMessage:
    """Everything, for the host's console."""
    nxt = model.next_part_teams()
    part = model.part
    can_start = nxt is not None and (part is None or part.settled)
    out = JudgeMessage(
        settings=model.config,
        teams=[
            JudgeTeam(name=t.name, device=t.has_device, withdrawn=t.withdrawn_after is not None)
            for t in model.teams.values()
        ],
        next_part=NextPart(name=nxt[0], teams=nxt[1]) if nxt and can_start else None,
        join_code=join_code,
        control=control_info(model),
        **_base(model, now),
    )
    if part is None:
        screen.fill_judge(out, model)
        return out
    out.standings = standings(part)
    out.spurs = {t: list(c) for t, c in part.config.spurs.items()}
    q = part.open_question
    if q is not None:
        out.open = _open_question_detail(part, q)
        # a withdrawn team answers nothing: nobody waits for it (rules Q36)
        out.open.missing = [t for t in out.open.missing if not model.withdrawn(t)]
    out.closed = _memo(part, "closed", lambda: _closed(part))
    out.appeals = _appeals(part, placed=False)
    out.lightning = _lightning(part)
    screen.fill_judge(out, model)
    return out


def _appeals(part: Part, *, placed: bool) -> list[AppealInfo]:
    """The part's appeals; ``placed``: with the question each was made after."""
    return [
        AppealInfo(
            question=a.question,
            team=a.team,
            correct=a.correct,
            comment=a.comment,
            after_question=a.after_question if placed else None,
            downgraded=a.downgraded,
            admitted=a.admitted,
        )
        for a in part.appeals
    ]


def _lightning(part: Part) -> list[LightningInfo]:
    return [LightningInfo(teams=lq.teams, right=lq.right) for lq in part.lightning]


def _closed_question(part: Part, number: int) -> ClosedQuestion:
    rows = question_moves(part, number, answers=True)
    return ClosedQuestion(
        question=number,
        partner=part.state.records[number - 1].partner,
        rows=rows,
        stats=question_stats(rows),
    )


def _closed(part: Part) -> list[ClosedQuestion]:
    """Every closed question, newest first, with every answer: an appeal may concern any
    of them (rules Q26), not only the last few."""
    closed = [k for k in range(len(part.questions), 0, -1) if part.questions[k - 1].resolved]
    return [_closed_question(part, k) for k in closed]


def _open_question_detail(part: Part, q: Question) -> OpenQuestionDetail:
    groups: dict[str, list[str]] = {}
    for team, answer in sorted(q.answers.items(), key=lambda kv: kv[1].seq):
        groups.setdefault(answer.key, []).append(team)
    detail: list[AnswerGroup] = []
    for key, teams in groups.items():
        texts = Counter(q.answers[t].text for t in teams)
        verdicts = Counter(q.answers[t].judged for t in teams)
        detail.append(
            AnswerGroup(
                key=key,
                text=texts.most_common(1)[0][0],
                teams=teams,
                right=verdicts[True],
                wrong=verdicts[False],
                unjudged=verdicts[None],
            )
        )
    detail.sort(key=lambda g: (-len(g.teams), g.key))
    oq = part.state.open
    return OpenQuestionDetail(
        question=q.number,
        locked=q.locked_at is not None,
        partner_flag=q.partner_flag,
        partner_listed=q.number in part.config.partner_questions,
        declarations=dict(q.declarations),
        late=[LateDeclaration(team=t, declaration=d) for t, d in q.late],
        answered=len(q.answers),
        unjudged=oq.unjudged if oq is not None else 0,
        groups=detail,
        missing=[t for t in part.config.teams if t not in q.answers],
    )


def results_document(model: EventModel, lang: str = "en") -> ResultsDocument:
    """The full record of the event: places, and per question every team's declaration,
    answer, judgement and move (for the results page and the JSON export); the reason a
    part ended is worded in ``lang``."""
    settings = model.config
    parts = [
        PartResults(
            name=part.name,
            end_reason=screen.end_reason_text(part, lang),
            standings=standings(part),
            spurs={t: list(c) for t, c in part.config.spurs.items()},
            questions=[
                _closed_question(part, k)
                for k in range(1, len(part.questions) + 1)
                if part.questions[k - 1].resolved
            ],
            appeals=_appeals(part, placed=True),
            lightning=_lightning(part),
            breaks=part.breaks,
        )
        for part in model.parts
    ]
    return ResultsDocument(
        event=EventInfo(id=model.event_id, title=settings.title, format=settings.format),
        finished=model.finished,
        # the seed would let anyone recompute drawn spur cells: it never leaves the host
        settings=settings.model_copy(update={"spur_seed": None}),
        parts=parts,
        changes=change_infos(model),
    )


# ------------------------------------------------------- the host's control
def control_info(model: EventModel) -> HostControlInfo:
    return HostControlInfo(
        joining_locked=model.join_locked,
        reopenable=model.reopenable(),
        changes=change_infos(model),
    )


def change_infos(model: EventModel) -> list[ChangeInfo]:
    return [
        ChangeInfo(
            seq=c.seq, kind=c.kind, team=c.team, detail=c.detail, part=c.part, question=c.question
        )
        for c in model.changes
    ]
