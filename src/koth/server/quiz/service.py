"""The quiz hosting service: events, secrets, and every change a request can make.

Tokens: the host token and each team token are ``secrets.token_urlsafe(32)``; only
their sha256 is stored (in the event row and in the log) and a presented token is
checked with ``hmac.compare_digest``. A team's recovery code moves it to another phone.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import random
import re
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine

from koth.games.quiz import draw_spurs
from koth.server.quiz import ops
from koth.server.quiz.errors import (
    AlreadyAnsweredError,
    ForbiddenError,
    InvalidQuizRequestError,
    NameTakenError,
    NotFoundError,
    QuizConflictError,
)
from koth.server.quiz.live import LiveEvent, load_model
from koth.server.quiz.model import EventModel, check_settings
from koth.server.quiz.store import LogEntry, QuizRepository

#: join codes avoid letters and digits that are easy to confuse (0/O, 1/I/L)
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
SUBMISSION_ID = re.compile(r"^[A-Za-z0-9_.:-]{8,64}$")


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def same_secret(token: str | None, stored_hash: str | None) -> bool:
    if not token or not stored_hash:
        return False
    return hmac.compare_digest(token_hash(token), stored_hash)


def new_code(length: int = CODE_LENGTH) -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(length))


def normal_code(code: str) -> str:
    return "".join(code.split()).replace("-", "").upper()


@dataclass(frozen=True, slots=True)
class CreatedEvent:
    event_id: str
    join_code: str
    host_token: str


@dataclass(frozen=True, slots=True)
class TeamCredentials:
    event_id: str
    team: str
    token: str
    recovery_code: str


@dataclass(frozen=True, slots=True)
class AnswerAck:
    question: int
    text: str
    received_at: float
    seq: int
    duplicate: bool


class QuizService:
    def __init__(self, engine: Engine) -> None:
        self.repo = QuizRepository(engine)
        self._live: dict[str, LiveEvent] = {}
        self._loading = asyncio.Lock()

    async def close(self) -> None:
        for live in list(self._live.values()):
            await live.close()
        self._live.clear()

    # ------------------------------------------------------------------ events
    async def create(self, settings: ops.EventSettings) -> CreatedEvent:
        check_settings(settings)
        seed = settings.spur_seed if settings.spur_seed is not None else secrets.randbits(62)
        first = ops.Created(settings=settings, spur_seed=seed)
        EventModel("check").apply(first, 1)  # refuse now what the fold would refuse later
        host_token = secrets.token_urlsafe(32)
        for _attempt in range(5):
            event_id = secrets.token_urlsafe(12)
            code = new_code()
            try:
                await asyncio.to_thread(
                    self.repo.create_event,
                    event_id=event_id,
                    join_code=code,
                    host_token_hash=token_hash(host_token),
                    title=settings.title,
                    first=LogEntry(1, ops.op_to_json(first)),
                )
            except NameTakenError:
                continue  # a join code collision: draw another
            return CreatedEvent(event_id, code, host_token)
        raise QuizConflictError("could not find a free join code; try again")

    async def live(self, event_id: str) -> LiveEvent:
        live = self._live.get(event_id)
        if live is not None:
            return live
        async with self._loading:
            live = self._live.get(event_id)
            if live is None:
                stored = await asyncio.to_thread(self.repo.get_event, event_id)
                if stored is None:
                    raise NotFoundError(f"no quiz event {event_id!r}")
                model = await asyncio.to_thread(load_model, self.repo, event_id)
                live = LiveEvent(stored, self.repo, model)
                self._live[event_id] = live
        return live

    async def by_code(self, code: str) -> LiveEvent:
        stored = await asyncio.to_thread(self.repo.event_by_code, normal_code(code))
        if stored is None:
            raise NotFoundError(f"no quiz event has the join code {code!r}")
        return await self.live(stored.id)

    # ---------------------------------------------------------------- identity
    @staticmethod
    def check_host(live: LiveEvent, token: str | None) -> None:
        if not same_secret(token, live.stored.host_token_hash):
            raise ForbiddenError("this needs the host link of the event (its secret token)")

    @staticmethod
    def team_of(live: LiveEvent, token: str | None) -> str:
        if token:
            hashed = token_hash(token)
            team = live.model.team_by_token_hash(hashed)
            if team is not None and any(
                hmac.compare_digest(hashed, h) for h in live.model.teams[team].token_hashes
            ):
                return team
        raise ForbiddenError("unknown team token: join the event with its code first")

    async def join(self, code: str, team: str) -> TeamCredentials:
        live = await self.by_code(code)
        name = ops.clean_name(team)
        token = secrets.token_urlsafe(32)
        recovery = "-".join(new_code(4) for _ in range(3))
        await live.submit(
            ops.TeamJoined(
                team=name, token_hash=token_hash(token), recovery_hash=token_hash(recovery)
            )
        )
        return TeamCredentials(live.event_id, name, token, recovery)

    async def recover(self, code: str, team: str, recovery_code: str) -> TeamCredentials:
        live = await self.by_code(code)
        name = ops.clean_name(team)
        known = live.model.teams.get(name)
        wanted = "-".join(normal_code(recovery_code)[i : i + 4] for i in range(0, 12, 4))
        if known is None or not same_secret(wanted, known.recovery_hash):
            raise ForbiddenError("that team name and recovery code do not match")
        token = secrets.token_urlsafe(32)
        await live.submit(ops.TeamDevice(team=name, token_hash=token_hash(token)))
        return TeamCredentials(live.event_id, name, token, wanted)

    # ------------------------------------------------------------------- teams
    async def declare(self, live: LiveEvent, team: str, question: int, declaration: str) -> int:
        op = ops.Declared(question=question, team=team, declaration=declaration)  # type: ignore[arg-type]
        return await live.submit(op)

    async def answer(
        self,
        live: LiveEvent,
        team: str,
        question: int,
        text: str,
        submission_id: str,
        *,
        by: str = "team",
        received_at: float | None = None,
    ) -> AnswerAck:
        """Store an answer with the server receive time; a retry with the same
        ``submission_id`` gets the first acknowledgement again."""
        at = time.time() if received_at is None else received_at
        if not SUBMISSION_ID.match(submission_id):
            raise InvalidQuizRequestError("a submission id has 8 to 64 letters, digits or -_.:")
        previous = self._previous(live, team, submission_id)
        if previous is not None:
            return previous
        op = ops.Answered(
            question=question,
            team=team,
            text=text,
            at=at,
            submission_id=submission_id,
            by=by,  # type: ignore[arg-type]
        )
        try:
            seq = await live.submit(op)
        except AlreadyAnsweredError:
            previous = self._previous(live, team, submission_id)
            if previous is not None:  # the same retry was in the same batch
                return previous
            raise
        stored = live.model.submissions.get(submission_id)
        text_stored = stored.text if stored is not None else text.strip()
        return AnswerAck(question, text_stored, at, seq, duplicate=False)

    @staticmethod
    def _previous(live: LiveEvent, team: str, submission_id: str) -> AnswerAck | None:
        answer = live.model.submissions.get(submission_id)
        if answer is None:
            return None
        if answer.team != team:
            # never say anything about another team's submission
            raise AlreadyAnsweredError("this submission id is already used; send a new one")
        return AnswerAck(answer.question, answer.text, answer.at, answer.seq, duplicate=True)

    # -------------------------------------------------------------------- host
    async def host(self, live: LiveEvent, op: ops.Op) -> int:
        return await live.submit(op)

    async def start_next_part(self, live: LiveEvent) -> int:
        async with live.lock:
            op = next_part_op(live.model)
        return await live.submit(op)

    async def judge_group(
        self,
        live: LiveEvent,
        question: int,
        correct: bool,
        *,
        key: str | None,
        teams: Sequence[str],
    ) -> int:
        """Judge every answer whose normalised text is ``key`` (and/or the listed teams)."""
        async with live.lock:
            part = live.model.current_part()
            q = part.open_question
            if q is None or q.number != question:
                raise QuizConflictError(f"question {question} is not open")
            chosen = [t for t, a in q.answers.items() if key is not None and a.key == key]
            chosen += [t for t in teams if t not in chosen]
        if not chosen:
            raise NotFoundError("no answer matches")
        return await live.submit(ops.Judged(question=question, teams=chosen, correct=correct))


def next_part_op(model: EventModel) -> ops.PartStarted:
    """The op that starts the next part: its teams and their spur cells (set by the host,
    or drawn with the event's secret seed, one stream per part)."""
    wanted = model.next_part_teams()
    if wanted is None:
        raise QuizConflictError("every part of the event has been played")
    name, teams = wanted
    settings = model.config
    if len(teams) < 2:
        raise QuizConflictError(f"{name} needs at least 2 teams (it has {len(teams)})")
    manual = {
        ops.clean_name(t): list(c) for t, c in settings.spurs.items() if ops.clean_name(t) in teams
    }
    rng = random.Random(f"{model.spur_seed}:{len(model.parts)}")
    missing = [t for t in teams if t not in manual]
    drawn: dict[str, Any] = {}
    if settings.spurs_per_slope and missing:
        try:
            drawn = draw_spurs(missing, settings.steps, rng, settings.spurs_per_slope)
        except Exception as exc:
            raise InvalidQuizRequestError(str(exc)) from None
    spurs = {**manual, **{t: list(c) for t, c in drawn.items()}}
    return ops.PartStarted(name=name, teams=teams, spurs=spurs)
