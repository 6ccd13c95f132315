"""A hosted quiz event as a fold of its log: teams, parts, questions, answers, timers.

:meth:`EventModel.apply` validates an op completely before it changes anything (the
quiz engine's ``apply_event`` is pure), so a refused op leaves the model as it was.
The engine state of each part is derived from the ops; the model adds what the engine
does not keep: answer texts, receive times, timers, appeals and their comments.

The records it keeps are in ``parts``; the handlers of the host's control ops are in
``control``, those of answers, verdicts and appeals in ``judging``, the show's checks in
``show``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any, assert_never

from koth.core.errors import InvalidParamsError
from koth.games.quiz import BreakTaken as EngineBreak
from koth.games.quiz import (
    DeclarationMade,
    DeclarationsLocked,
    QuizConfig,
    draw_spurs,
    initial_state,
    make_config,
    situation,
)
from koth.games.quiz import LightningQuestion as EngineLightning
from koth.games.quiz import QuestionOpened as EngineOpened
from koth.games.quiz.errors import QuizRuleError
from koth.games.quiz.events import LightningAnswer
from koth.games.quiz.pack import Pack
from koth.games.quiz.wording import DECLARATION_TEXTS, problem_template
from koth.i18n import N_, Term, Text
from koth.server.errors import (
    AlreadyAnsweredError,
    IllegalDeclarationError,
    InvalidRequestError,
    JoinClosedError,
    NameTakenError,
    NotFoundError,
    WrongPhaseError,
)
from koth.server.quiz import ops
from koth.server.quiz.control import Change, HostControl
from koth.server.quiz.judging import Judging
from koth.server.quiz.names import check_team_name, name_key
from koth.server.quiz.parts import Answer, Part, Question, Team, Timer, advanced, part_names
from koth.server.quiz.show import check_screen, load_pack, play_media


class EventModel(HostControl, Judging):
    """The whole event; ``seq`` is the number of log rows folded so far."""

    def __init__(self, event_id: str) -> None:
        self.event_id = event_id
        self.seq = 0
        self.settings: ops.EventSettings | None = None
        self.spur_seed = 0
        self.teams: dict[str, Team] = {}
        self.by_token: dict[str, str] = {}
        self.submissions: dict[str, Answer] = {}
        self.parts: list[Part] = []
        #: name_key -> team name: names that differ only by case or look-alike letters
        #: are one team
        self.by_key: dict[str, str] = {}
        #: the question pack the host loaded (None: the host reads from paper)
        self.pack: Pack | None = None
        #: pictures stored with the event: file name -> MIME type
        self.pictures: dict[str, str] = {}
        #: sounds and videos stored with the event: file name -> MIME type
        self.media: dict[str, str] = {}
        #: the op being folded is new (not a stored row replayed): input checks that
        #: were added over time apply to new ops only, so an old log still replays
        self._new = True
        #: idempotency key of a command -> the log row it made
        self.commands: dict[str, int] = {}
        self._init_control()

    # ------------------------------------------------------------------ queries
    @property
    def config(self) -> ops.EventSettings:
        if self.settings is None:
            raise WrongPhaseError(N_("the event has not been created"))
        return self.settings

    @property
    def part(self) -> Part | None:
        return self.parts[-1] if self.parts else None

    @property
    def started(self) -> bool:
        return bool(self.parts)

    @property
    def finished(self) -> bool:
        """The whole event is over: its last part ended with every prize tie settled."""
        part = self.part
        if part is None or not part.settled:
            return False
        return len(self.parts) == len(part_names(self.config))

    def team_by_token_hash(self, token_hash: str) -> str | None:
        return self.by_token.get(token_hash)

    def current_part(self) -> Part:
        part = self.part
        if part is None:
            raise WrongPhaseError(N_("the game has not started yet"))
        return part

    def open_question(self) -> tuple[Part, Question]:
        part = self.current_part()
        q = part.open_question
        if q is None:
            raise WrongPhaseError(N_("no question is open"))
        return part, q

    def next_part_teams(self) -> tuple[str, list[str]] | None:
        """The name and teams of the next part to start (None: no part is left)."""
        names = part_names(self.config)
        k = len(self.parts)
        if k >= len(names):
            return None
        teams = list(self.teams)
        if self.config.format == "single":
            return names[0], teams
        if k < 2:
            # semifinal groups: teams in join order, dealt alternately
            return names[k], teams[k::2]
        qualified: list[str] = []
        for part in self.parts:
            qualified.extend(situation(part.state).qualified or [])
        return names[2], qualified

    # -------------------------------------------------------------------- apply
    def apply(self, op: ops.Op, seq: int, *, new: bool = True) -> None:
        """Validate ``op`` and fold it in as log row ``seq``; raises and changes nothing
        when the op is not allowed now. ``new=False``: a stored row being replayed."""
        if seq != self.seq + 1:
            raise WrongPhaseError(N_("log row {seq} follows row {last}"), seq=seq, last=self.seq)
        if self.settings is None and not isinstance(op, ops.Created):
            raise WrongPhaseError(N_("the first log row must create the event"))
        if op.command_id is not None and op.command_id in self.commands:
            raise AlreadyAnsweredError(
                N_("command {command} was already applied (log row {row})"),
                command=op.command_id,
                row=self.commands[op.command_id],
            )
        self._new = new
        try:
            self._dispatch(op, seq)
        finally:
            self._new = True
        if op.command_id is not None:
            self.commands[op.command_id] = seq
        self._remember(op, seq)
        self.seq = seq

    def _dispatch(self, op: ops.Op, seq: int) -> None:
        """The handler of each op kind: one place per op, and the type checker proves
        that every op of :data:`ops.Op` has one (``assert_never``)."""
        match op:
            case ops.Created():
                self._on_created(op, seq)
            case ops.TeamJoined():
                self._on_team_joined(op, seq)
            case ops.TeamDevice():
                self._on_team_device(op, seq)
            case ops.PartStarted():
                self._on_part_started(op, seq)
            case ops.QuestionOpened():
                self._on_question_opened(op, seq)
            case ops.Declared():
                self._on_declared(op, seq)
            case ops.Locked():
                self._on_locked(op, seq)
            case ops.AnsweringOpened():
                self._on_answering_opened(op, seq)
            case ops.TimerPaused():
                self._on_timer_paused(op, seq)
            case ops.TimerResumed():
                self._on_timer_resumed(op, seq)
            case ops.TimerExtended():
                self._on_timer_extended(op, seq)
            case ops.AnsweringClosed():
                self._on_answering_closed(op, seq)
            case ops.Answered():
                self._on_answered(op, seq)
            case ops.Judged():
                self._on_judged(op, seq)
            case ops.PartnerSet():
                self._on_partner_set(op, seq)
            case ops.Resolved():
                self._on_resolved(op, seq)
            case ops.Corrected():
                self._on_corrected(op, seq)
            case ops.BreakTaken():
                self._on_break(op, seq)
            case ops.Lightning():
                self._on_lightning(op, seq)
            case ops.PackLoaded():
                self._on_pack_loaded(op, seq)
            case ops.PictureStored():
                self._on_picture_stored(op, seq)
            case ops.MediaStored():
                self.media[op.name] = op.mime
            case ops.MediaPlayed():
                self._on_media_played(op, seq)
            case ops.ScreenShown():
                self._on_screen_shown(op, seq)
            case ops.TeamRenamed():
                self._on_team_renamed(op, seq)
            case ops.TeamRemoved():
                self._on_team_removed(op, seq)
            case ops.TeamsMerged():
                self._on_teams_merged(op, seq)
            case ops.JoiningLocked():
                self._on_joining_locked(op, seq)
            case ops.TeamWithdrawn():
                self._on_team_withdrawn(op, seq)
            case ops.TeamReturned():
                self._on_team_returned(op, seq)
            case ops.QuestionReopened():
                self._on_question_reopened(op, seq)
            case ops.GroupCorrected():
                self._on_group_corrected(op, seq)
            case _:
                assert_never(op)

    def fold(self, rows: Iterable[ops.Op]) -> None:
        for op in rows:
            self.apply(op, self.seq + 1)

    # ------------------------------------------------------------------ handlers
    def _on_created(self, op: ops.Created, _seq: int) -> None:
        if self.settings is not None:
            raise WrongPhaseError(N_("the event already exists"))
        check_settings(op.settings, new=self._new)
        self.settings = op.settings
        self.spur_seed = op.spur_seed
        for name in op.settings.teams:
            self._add_team(Team(ops.clean_name(name)))

    def _add_team(self, team: Team) -> None:
        self.teams[team.name] = team
        self.by_key.setdefault(name_key(team.name), team.name)

    def _on_team_joined(self, op: ops.TeamJoined, seq: int) -> None:
        name = op.team
        check_team_name(name, new=self._new)
        existing = self.teams.get(name)
        same = self.by_key.get(name_key(name))
        if self._new and existing is None and same is not None:
            raise NameTakenError(
                N_(
                    "{name!r} is too like the name of team {same!r}: choose another name, or "
                    "use that team's recovery code to move it to this phone"
                ),
                name=name,
                same=same,
            )
        if existing is not None and (existing.has_device or op.token_hash is None):
            raise NameTakenError(
                N_(
                    "a team called {name!r} has already joined; use your recovery code to "
                    "move it to this phone"
                ),
                name=name,
            )
        if existing is None and self.started:
            raise JoinClosedError(N_("the game has started: new teams can no longer join"))
        if self.join_locked and op.token_hash is not None:
            raise JoinClosedError(N_("the host has locked joining: ask the host to add your team"))
        if op.token_hash is not None and op.token_hash in self.by_token:
            raise InvalidRequestError(N_("token already in use"))
        team = existing or Team(name)
        if op.token_hash is not None:
            team.token_hashes.add(op.token_hash)
            self.by_token[op.token_hash] = name
        team.recovery_hash = op.recovery_hash or team.recovery_hash
        self._add_team(team)
        # a team the host removed that joins again: the change log says so, or its last
        # word on the team would be "removed" while the team plays
        last = next((c for c in reversed(self.changes) if c.team == name), None)
        if existing is None and last is not None and last.kind == "removed":
            self.changes.append(Change(seq, "rejoined", name))

    def _on_team_device(self, op: ops.TeamDevice, _seq: int) -> None:
        team = self.teams.get(op.team)
        if team is None:
            raise NotFoundError(N_("no team {team!r}"), team=op.team)
        if op.token_hash in self.by_token:
            raise InvalidRequestError(N_("token already in use"))
        team.token_hashes.add(op.token_hash)
        self.by_token[op.token_hash] = op.team

    def _on_part_started(self, op: ops.PartStarted, _seq: int) -> None:
        wanted = self.next_part_teams()
        if wanted is None:
            raise WrongPhaseError(N_("every part of the event has been played"))
        part = self.part
        if part is not None and not part.settled:
            if not part.state.finished:
                raise WrongPhaseError(N_("{part} is still running"), part=Term(part.name))
            raise WrongPhaseError(
                N_("{part} has an unsettled tie: play the lightning round first"),
                part=Term(part.name),
            )
        name, teams = wanted
        if op.name != name or list(op.teams) != teams:
            raise WrongPhaseError(
                N_("the next part is {part} with teams {teams}"),
                part=Term(name),
                teams=", ".join(teams),
            )
        config = part_config(self.config, len(self.parts), op.teams, op.spurs)
        self.parts.append(Part(name, config, initial_state(config)))

    def _on_question_opened(self, op: ops.QuestionOpened, _seq: int) -> None:
        part = self.current_part()
        state = advanced(part.state, [EngineOpened(op.question)])
        part.state = state
        part.questions.append(Question(op.question))

    def _on_declared(self, op: ops.Declared, _seq: int) -> None:
        part, q = self._question(op.question)
        self._plays(part, op.team)
        try:
            part.state = advanced(
                part.state, [DeclarationMade(op.question, op.team, op.declaration)]
            )
        except QuizRuleError as exc:
            if exc.problem is None or exc.rule is None:
                raise
            details = dict(exc.params)
            raise IllegalDeclarationError(
                N_("question {question}, team {team}: {declaration} refused: {reason}"),
                rule=exc.rule,
                question=op.question,
                team=op.team,
                declaration=Term(DECLARATION_TEXTS[op.declaration]),
                reason=Text(problem_template(exc.problem, details), **details),
            ) from None
        if q.locked_at is None:
            if op.declaration == "ordinary":
                q.declarations.pop(op.team, None)
            else:
                q.declarations[op.team] = op.declaration
        elif op.declaration != "ordinary":
            q.late.append((op.team, op.declaration))

    def _on_locked(self, op: ops.Locked, _seq: int) -> None:
        part, q = self._question(op.question)
        part.state = advanced(part.state, [DeclarationsLocked(op.question)])
        q.locked_at = op.at

    def _on_answering_opened(self, op: ops.AnsweringOpened, _seq: int) -> None:
        _part, q = self._question(op.question)
        if q.locked_at is None:
            raise WrongPhaseError(
                N_("read the question (lock declarations) before answering opens")
            )
        if op.seconds <= 0:
            raise InvalidRequestError(N_("the answering time must be positive"))
        q.timer = Timer(op.seconds, op.at)

    def _timer(self, question: int) -> Timer:
        _part, q = self._question(question)
        if q.timer is None:
            raise WrongPhaseError(N_("answering has not been opened"))
        return q.timer

    def _on_timer_paused(self, op: ops.TimerPaused, _seq: int) -> None:
        timer = self._timer(op.question)
        if not timer.is_open(op.at) or timer.paused_at is not None:
            raise WrongPhaseError(N_("the timer is not running"))
        timer.paused_at = op.at

    def _on_timer_resumed(self, op: ops.TimerResumed, _seq: int) -> None:
        timer = self._timer(op.question)
        if timer.paused_at is None or timer.closed_at is not None:
            raise WrongPhaseError(N_("the timer is not paused"))
        timer.paused_total += max(0.0, op.at - timer.paused_at)
        timer.paused_at = None

    def _on_timer_extended(self, op: ops.TimerExtended, _seq: int) -> None:
        timer = self._timer(op.question)
        if timer.closed_at is not None:
            raise WrongPhaseError(N_("answering was closed; open it again instead"))
        if op.seconds <= 0:
            raise InvalidRequestError(N_("an extension must be positive"))
        # after the time ran out, the extension counts from now, not from the old end
        timer.seconds = max(timer.seconds, timer.elapsed(op.at)) + op.seconds

    def _on_answering_closed(self, op: ops.AnsweringClosed, _seq: int) -> None:
        timer = self._timer(op.question)
        if timer.closed_at is not None:
            raise WrongPhaseError(N_("answering is already closed"))
        timer.closed_at = op.at

    def _on_break(self, _op: ops.BreakTaken, _seq: int) -> None:
        part = self.current_part()
        after = len(part.questions)
        part.state = advanced(part.state, [EngineBreak(after)])
        part.breaks.append(after)

    def _on_lightning(self, op: ops.Lightning, _seq: int) -> None:
        part = self.current_part()
        unknown = [t for t in op.right if t not in op.teams]
        if unknown:
            raise InvalidRequestError(
                N_("team {team} is not in this lightning question"), team=unknown[0]
            )
        answers = {t: LightningAnswer(t in op.right) for t in op.teams}
        part.state = advanced(part.state, [EngineLightning(tuple(op.teams), answers)])
        part.lightning.append(op)

    # ------------------------------------------------------------------ the show
    def _on_pack_loaded(self, op: ops.PackLoaded, _seq: int) -> None:
        self.pack = load_pack(op.pack)

    def _on_picture_stored(self, op: ops.PictureStored, _seq: int) -> None:
        self.pictures[op.name] = op.mime

    def _on_screen_shown(self, op: ops.ScreenShown, _seq: int) -> None:
        _part, q = self._question(op.question)
        check_screen(q.timer, op)
        q.screen = op.show
        q.shown = q.shown or op.show != "standings"

    def _on_media_played(self, op: ops.MediaPlayed, _seq: int) -> None:
        part, q = self._question(op.question)
        play_media(self.pack, part, q, op)

    # ------------------------------------------------------------------ helpers
    def _question(self, number: int) -> tuple[Part, Question]:
        part, q = self.open_question()
        if q.number != number:
            raise WrongPhaseError(
                N_("the open question is question {open}, not {question}"),
                open=q.number,
                question=number,
            )
        return part, q

    def _plays(self, part: Part, team: str) -> None:
        if team not in part.state.index:
            raise WrongPhaseError(
                N_("team {team} does not play in {part}"), team=team, part=Term(part.name)
            )
        if self.withdrawn(team):
            raise WrongPhaseError(
                N_("team {team} has withdrawn: it declares and answers nothing"), team=team
            )


def part_config(
    settings: ops.EventSettings, index: int, teams: list[str], spurs: dict[str, list[int]]
) -> QuizConfig:
    """The engine configuration of part ``index`` (raises InvalidRequestError)."""
    final = settings.format == "semifinals" and index == 2
    semifinal = settings.format == "semifinals" and index < 2
    questions = settings.final_questions if final and settings.final_questions else None
    options: dict[str, Any] = {
        "steps": settings.steps,
        "hold_moves": settings.hold_moves,
        "questions": questions or settings.questions,
        "backup_questions": settings.backup_questions,
        "partner_questions": frozenset(settings.partner_questions),
        "prize_places": settings.prize_places,
        "kind": "semifinal" if semifinal else "game",
        "qualifiers": settings.qualifiers,
    }
    try:
        return make_config(teams, spurs={t: tuple(c) for t, c in spurs.items()}, **options)
    except InvalidParamsError as exc:
        raise InvalidRequestError(str(exc)) from None


def check_settings(settings: ops.EventSettings, *, new: bool = True) -> None:
    """Refuse settings no part could be played with (checked with placeholder teams);
    the message names the field."""
    names = [ops.clean_name(t) for t in settings.teams]
    for name in names:
        check_team_name(name, new=new)
    keys = [name_key(n) for n in names] if new else names
    if len(set(keys)) != len(keys):
        raise InvalidRequestError(
            N_("teams: a team is listed twice (names differing only by case count as one)")
        )
    # spurs may name teams that will join later by phone: checked against the steps now
    names += [ops.clean_name(t) for t in settings.spurs if ops.clean_name(t) not in names]
    teams = names if len(names) >= 2 else [*names, "\u2460", "\u2461"]
    for index in range(len(part_names(settings))):
        qualifiers = max(settings.qualifiers, 1)
        padded = teams + [f"#{i}" for i in range(max(0, qualifiers - len(teams)))]
        part_config(settings, index, padded, {t: c for t, c in settings.spurs.items()})
    if new and settings.spurs_per_slope:
        try:
            draw_spurs(teams[:2], settings.steps, random.Random(0), settings.spurs_per_slope)
        except Exception as exc:
            raise InvalidRequestError(
                N_(
                    "spurs_per_slope: {spurs} spur cells cannot be drawn on a slope of "
                    "{steps} steps ({why})"
                ),
                spurs=settings.spurs_per_slope,
                steps=settings.steps,
                why=exc,
            ) from None
