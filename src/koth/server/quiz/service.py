"""The quiz hosting service: events, secrets, and every change a request can make; the
one entry point of the quiz's routes, pages and WebSocket.

Tokens: the host token and each team token are random (:mod:`koth.server.security`); only
their sha256 is stored (in the event row and in the log) and a presented token is
compared in constant time. A team's recovery code moves it to another phone.
"""

from __future__ import annotations

import asyncio
import io
import re
import secrets
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Literal

import segno
from sqlalchemy import Engine

from koth.games.quiz.pack import FileLimits, check_media, check_picture, plain_file_name
from koth.i18n import N_
from koth.server import security
from koth.server.broker import Broker
from koth.server.errors import (
    AlreadyAnsweredError,
    ForbiddenError,
    InvalidRequestError,
    NameTakenError,
    NotFoundError,
    TooManyConnectionsError,
    WrongPhaseError,
)
from koth.server.listeners import Listener, Sink
from koth.server.memory import LiveCache
from koth.server.quiz import commands, ops, views
from koth.server.quiz.command_schemas import PackUpload
from koth.server.quiz.commands import B, Command
from koth.server.quiz.export import protocol_document, results_csv, stats_csv
from koth.server.quiz.live import JUDGE, PROJECTOR, LiveEvent, QuizMessage, load_model, team_key
from koth.server.quiz.model import EventModel, check_settings
from koth.server.quiz.names import normal_name
from koth.server.quiz.schemas import (
    AnswerAck,
    CreatedEventResponse,
    CredentialsResponse,
    EventLinks,
    JudgeMessage,
    PictureStoredResponse,
    ProjectorMessage,
    ProtocolDocument,
    ResultsDocument,
    TeamMessage,
)
from koth.server.quiz.show import shown_files
from koth.server.quiz.store import LogEntry, QuizRepository, StoredEvent

#: join codes avoid letters and digits that are easy to confuse (0/O, 1/I/L)
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
#: what join codes look like: anything else is unknown at once, without a
#: database round trip (a NUL byte, say, never reaches the database)
JOIN_CODE = re.compile(r"[A-Z0-9]{4,16}")
SUBMISSION_ID = re.compile(r"^[A-Za-z0-9_.:-]{8,64}$")
#: live connections the judge console, or one team, may hold at once (its devices)
SOCKETS_PER_AUDIENCE = 32


def new_code(length: int = CODE_LENGTH) -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(length))


def normal_code(code: str) -> str:
    return "".join(code.split()).replace("-", "").upper()


#: who a WebSocket listens as
Role = Literal["judge", "projector", "team"]


def event_links(base: str, event_id: str, code: str) -> dict[str, str]:
    return {
        "judge": f"{base}/quiz/{event_id}/judge",
        "projector": f"{base}/quiz/{event_id}/projector",
        "results": f"{base}/quiz/{event_id}/results",
        "join": f"{base}/quiz/join?code={code}",
        "qr": f"{base}/api/quiz/events/{event_id}/qr.svg",
    }


class QuizService:
    def __init__(
        self,
        engine: Engine,
        *,
        max_listeners: int = 3000,
        max_live: int = 200,
        idle_seconds: float = 3600.0,
        file_limits: FileLimits | None = None,
        max_pack_bytes: int = 1024 * 1024,
    ) -> None:
        self.max_listeners = max_listeners
        self.file_limits = file_limits or FileLimits()
        self.max_pack_bytes = max_pack_bytes
        #: one pack is read at a time, in a thread of its own: the database calls' threads
        #: stay free for everyone else
        self._packs = ThreadPoolExecutor(1, thread_name_prefix="koth-pack")
        self.repo = QuizRepository(engine)
        self._live: LiveCache[LiveEvent] = LiveCache(
            max_live, idle_seconds, lambda _id, live: live.busy()
        )
        self._loading = asyncio.Lock()
        #: events that left memory, closed in the background
        self._closing: set[asyncio.Task[None]] = set()
        #: where committed changes are announced to every process (None: this one only)
        self.broker: Broker | None = None
        #: names this process in its notices, so it skips its own
        self.origin = secrets.token_hex(6)

    async def close(self) -> None:
        for live in list(self._live.values()):
            await live.close()
        self._packs.shutdown(wait=False, cancel_futures=True)
        await asyncio.gather(*self._closing, return_exceptions=True)

    def sweep(self) -> int:
        """Let go of the events nobody used for a while; returns how many went."""
        gone = self._live.sweep()
        self._close(gone)
        return len(gone)

    def _close(self, gone: list[tuple[str, LiveEvent]]) -> None:
        for _id, live in gone:
            task = asyncio.get_running_loop().create_task(live.close())
            self._closing.add(task)
            task.add_done_callback(self._closing.discard)

    def in_memory(self) -> int:
        return len(self._live)

    def _announce(self, event_id: str, seq: int) -> None:
        if self.broker is not None:
            notice = f"quiz {event_id} {seq} {self.origin}"
            task = asyncio.get_running_loop().create_task(self.broker.publish(notice))
            self._closing.add(task)
            task.add_done_callback(self._closing.discard)

    async def on_notice(self, event_id: str, seq: int, origin: str) -> None:
        """Another process appended to ``event_id``'s log: catch up if it is held here."""
        if origin == self.origin:
            return
        live = self._live.get(event_id)
        if live is not None:
            await live.catch_up(seq)

    # ------------------------------------------------------------------ events
    async def create(self, settings: ops.EventSettings, base_url: str) -> CreatedEventResponse:
        """A new event; the response holds the host token (shown this once)."""
        settings = settings.model_copy(
            update={
                "teams": [normal_name(t) for t in settings.teams],
                "spurs": {normal_name(t): cells for t, cells in settings.spurs.items()},
            }
        )
        check_settings(settings)
        seed = settings.spur_seed if settings.spur_seed is not None else secrets.randbits(62)
        first = ops.Created(settings=settings, spur_seed=seed)
        EventModel("check").apply(first, 1)  # refuse now what the fold would refuse later
        host_token = security.new_token()
        for _attempt in range(5):
            event_id = security.new_id(12)
            code = new_code()
            try:
                await asyncio.to_thread(
                    self.repo.create_event,
                    event_id=event_id,
                    join_code=code,
                    host_token_hash=security.hash_token(host_token),
                    title=settings.title,
                    first=LogEntry(1, ops.op_to_json(first)),
                )
            except NameTakenError:
                continue  # a join code collision: draw another
            links = event_links(base_url, event_id, code)
            host = f"{links['judge']}#token={host_token}"
            return CreatedEventResponse(
                id=event_id,
                join_code=code,
                host_token=host_token,
                links=EventLinks(host=host, **links),
            )
        raise WrongPhaseError(N_("could not find a free join code; try again"))

    async def live(self, event_id: str) -> LiveEvent:
        live = self._live.get(event_id)
        if live is not None:
            return live
        if not security.could_be_id(event_id):
            raise NotFoundError(N_("no quiz event {event!r}"), event=event_id)
        async with self._loading:
            live = self._live.get(event_id)
            if live is None:
                stored = await asyncio.to_thread(self.repo.get_event, event_id)
                if stored is None:
                    raise NotFoundError(N_("no quiz event {event!r}"), event=event_id)
                model = await asyncio.to_thread(load_model, self.repo, event_id)
                live = LiveEvent(stored, self.repo, model)
                live.on_commit = self._announce
                self._close(self._live.put(event_id, live))
        return live

    async def stored(self, event_id: str) -> StoredEvent:
        """The event's row: its title and join code (for its pages)."""
        return (await self.live(event_id)).stored

    async def by_code(self, code: str) -> LiveEvent:
        if not JOIN_CODE.fullmatch(normal_code(code)):
            raise NotFoundError(N_("no quiz event has the join code {code!r}"), code=code)
        stored = await asyncio.to_thread(self.repo.event_by_code, normal_code(code))
        if stored is None:
            raise NotFoundError(N_("no quiz event has the join code {code!r}"), code=code)
        return await self.live(stored.id)

    # ---------------------------------------------------------------- identity
    @staticmethod
    def check_host(live: LiveEvent, token: str | None) -> None:
        if not security.matches(token, live.stored.host_token_hash):
            raise ForbiddenError(N_("this needs the host link of the event (its secret token)"))

    @staticmethod
    def team_of(live: LiveEvent, token: str | None) -> str:
        if token:
            hashed = security.hash_token(token)
            team = live.model.team_by_token_hash(hashed)
            if team is not None and any(
                security.hash_matches(hashed, h) for h in live.model.teams[team].token_hashes
            ):
                return team
        raise ForbiddenError(N_("unknown team token: join the event with its code first"))

    async def join_qr(self, event_id: str, base_url: str) -> bytes:
        """The join link of ``event_id`` as a QR code (SVG)."""
        live = await self.live(event_id)
        url = event_links(base_url, event_id, live.stored.join_code)["join"]
        buffer = io.BytesIO()
        segno.make(url, error="m").save(buffer, kind="svg", scale=8, dark="#1d2433", xmldecl=False)
        return buffer.getvalue()

    async def join(self, code: str, team: str) -> CredentialsResponse:
        live = await self.by_code(code)
        name = normal_name(team)
        token = security.new_token()
        recovery = "-".join(new_code(4) for _ in range(3))
        token_hash, recovery_hash = security.hash_token(token), security.hash_token(recovery)
        await live.submit(
            ops.TeamJoined(team=name, token_hash=token_hash, recovery_hash=recovery_hash)
        )
        return _credentials(live.event_id, name, token, recovery)

    async def recover(self, code: str, team: str, recovery_code: str) -> CredentialsResponse:
        live = await self.by_code(code)
        name = normal_name(team)
        known = live.model.teams.get(name)
        wanted = "-".join(normal_code(recovery_code)[i : i + 4] for i in range(0, 12, 4))
        if known is None or not security.matches(wanted, known.recovery_hash):
            raise ForbiddenError(N_("that team name and recovery code do not match"))
        token = security.new_token()
        await live.submit(ops.TeamDevice(team=name, token_hash=security.hash_token(token)))
        return _credentials(live.event_id, name, token, wanted)

    # ------------------------------------------------------------------- teams
    async def team_view(self, event_id: str, token: str | None) -> TeamMessage:
        live = await self.live(event_id)
        team = self.team_of(live, token)
        message: TeamMessage = await live.read(lambda m, now: views.team_message(m, team, now))
        return message

    async def declare(
        self,
        event_id: str,
        token: str | None,
        question: int,
        declaration: ops.Declaration,
        key: str | None = None,
    ) -> TeamMessage:
        """A team's declaration; sent again with the same idempotency ``key`` it is
        applied once."""
        live = await self.live(event_id)
        team = self.team_of(live, token)
        _check_key(key)
        if key is None or key not in live.model.commands:
            op = ops.Declared(question=question, team=team, declaration=declaration)
            try:
                await live.submit(_keyed(op, key))
            except AlreadyAnsweredError:
                if key is None or key not in live.model.commands:
                    raise
        return await self.team_view(event_id, token)

    async def team_answer(
        self, event_id: str, token: str | None, question: int, text: str, submission_id: str
    ) -> AnswerAck:
        received_at = time.time()
        live = await self.live(event_id)
        team = self.team_of(live, token)
        return await self.answer(live, team, question, text, submission_id, received_at=received_at)

    async def answer(
        self,
        live: LiveEvent,
        team: str,
        question: int,
        text: str,
        submission_id: str,
        *,
        by: Literal["team", "judge"] = "team",
        received_at: float | None = None,
    ) -> AnswerAck:
        """Store an answer with the server receive time; a retry with the same
        ``submission_id`` gets the first acknowledgement again."""
        at = time.time() if received_at is None else received_at
        if not SUBMISSION_ID.match(submission_id):
            raise InvalidRequestError(N_("a submission id has 8 to 64 letters, digits or -_.:"))
        previous = self._previous(live, team, submission_id)
        if previous is not None:
            return previous
        op = ops.Answered(
            question=question,
            team=team,
            text=text,
            at=at,
            submission_id=submission_id,
            by=by,
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
        return AnswerAck(
            question=question, text=text_stored, received_at=at, seq=seq, duplicate=False
        )

    @staticmethod
    def _previous(live: LiveEvent, team: str, submission_id: str) -> AnswerAck | None:
        answer = live.model.submissions.get(submission_id)
        if answer is None:
            return None
        if answer.team != team:
            # never say anything about another team's submission
            raise AlreadyAnsweredError(N_("this submission id is already used; send a new one"))
        return AnswerAck(
            question=answer.question,
            text=answer.text,
            received_at=answer.at,
            seq=answer.seq,
            duplicate=True,
        )

    # -------------------------------------------------------------------- host
    async def projector_view(self, event_id: str) -> ProjectorMessage:
        live = await self.live(event_id)
        message: ProjectorMessage = await live.read(views.projector_message)
        return message

    async def judge_view(self, event_id: str, token: str | None) -> JudgeMessage:
        return await self._judge_message(await self.host_event(event_id, token))

    async def _judge_message(self, live: LiveEvent) -> JudgeMessage:
        code = live.stored.join_code
        message: JudgeMessage = await live.read(lambda m, now: views.judge_message(m, now, code))
        return message

    async def host_event(self, event_id: str, token: str | None) -> LiveEvent:
        """The event, for the holder of its host token only."""
        live = await self.live(event_id)
        self.check_host(live, token)
        return live

    async def run_command(
        self, live: LiveEvent, command: Command[B], body: B, key: str | None = None
    ) -> JudgeMessage:
        """Run a judge console command (the host token is checked: ``host_event``); the
        answer is the judge's picture with the log row the command made. A command sent
        again with the same idempotency ``key`` is applied once: the retry is answered
        with the row the first one made (``duplicate``)."""
        _check_key(key)
        async with live.lock:
            seq = live.model.commands.get(key) if key is not None else None
            op = command(live.model, body, time.time()) if seq is None else None
        if op is not None:
            op = _keyed(op, key)
            try:
                seq = await live.submit(op)
            except AlreadyAnsweredError:
                seq = live.model.commands.get(key) if key is not None else None
                if seq is None:
                    raise
                op = None  # the same retry was in the same batch
        message = await self._judge_message(live)
        message.applied_seq = seq
        message.duplicate = op is None
        return message

    # ---------------------------------------------------------------- the show
    async def load_pack(self, live: LiveEvent, body: PackUpload, key: str | None) -> JudgeMessage:
        """Load the host's question pack: read and checked in a thread (the event loop
        answers everyone else meanwhile), then applied like any judge command."""
        _check_key(key)
        loop = asyncio.get_running_loop()
        op = await loop.run_in_executor(self._packs, commands.read_pack, body, self.max_pack_bytes)
        return await self.run_command(live, lambda _model, _body, _now: op, body, key)

    async def store_picture(self, live: LiveEvent, name: str, data: bytes) -> PictureStoredResponse:
        """Store a picture of the pack (a PNG, JPEG, WebP or GIF by its first bytes, at
        most the picture limit); a picture of the same name is replaced."""
        _check_file_name(name, N_("a picture is a plain file name without folders (got {name!r})"))
        found = check_picture(name, data, self.file_limits.picture)
        if found.problem is not None or found.mime is None:
            raise InvalidRequestError(str(found.problem))
        await asyncio.to_thread(self.repo.put_picture, live.event_id, name, found.mime, data)
        await live.submit(ops.PictureStored(name=name, mime=found.mime, size=len(data)))
        return PictureStoredResponse(name=name, mime=found.mime, size=len(data))

    async def store_media(self, live: LiveEvent, name: str, data: bytes) -> PictureStoredResponse:
        """Store a sound or video of the pack (an MP3, OGG, M4A, MP4 or WebM by its first
        bytes, at most its kind's limit, the check ``koth quiz pack check`` makes); one of
        the same name is replaced. It is kept with the pictures (one table of pack files)."""
        _check_file_name(
            name, N_("a sound or video is a plain file name without folders (got {name!r})")
        )
        found = check_media(name, data, self.file_limits)
        if found.problem is not None or found.mime is None:
            raise InvalidRequestError(str(found.problem))
        await asyncio.to_thread(self.repo.put_picture, live.event_id, name, found.mime, data)
        await live.submit(ops.MediaStored(name=name, mime=found.mime, size=len(data)))
        return PictureStoredResponse(name=name, mime=found.mime, size=len(data))

    async def picture(self, event_id: str, name: str, token: str | None) -> tuple[str, bytes]:
        """A picture, sound or video of the pack: for everyone once its question was shown
        (or the event is over), before that for the host only."""
        live = await self.live(event_id)
        if "\x00" in name:  # no stored name holds one (nor could, on PostgreSQL)
            raise NotFoundError(N_("no picture {name!r} is stored with this event"), name=name)
        public = await live.read(lambda m, _now: shown_files(m.pack, m.parts, m.finished))
        if name not in public:
            try:
                self.check_host(live, token)
            except ForbiddenError:
                raise NotFoundError(
                    N_("no picture {name!r} has been shown yet"), name=name
                ) from None
        stored = await asyncio.to_thread(self.repo.picture, live.event_id, name)
        if stored is None:
            raise NotFoundError(N_("no picture {name!r} is stored with this event"), name=name)
        return stored

    # ----------------------------------------------------------------- results
    async def _results_model(self, event_id: str, token: str | None) -> LiveEvent:
        """The event, if its results may be shown: to everyone once it is over, before
        that to the host only."""
        live = await self.live(event_id)
        if not live.model.finished:
            try:
                self.check_host(live, token)
            except ForbiddenError:
                raise ForbiddenError(
                    N_(
                        "the results are public once the game is over; before that only the "
                        "host sees them"
                    )
                ) from None
        return live

    async def results(self, event_id: str, token: str | None, lang: str = "en") -> ResultsDocument:
        live = await self._results_model(event_id, token)
        document: ResultsDocument = await live.read(lambda m, _now: views.results_document(m, lang))
        return document

    async def results_csv(self, event_id: str, token: str | None, lang: str = "en") -> str:
        live = await self._results_model(event_id, token)
        text: str = await live.read(lambda m, _now: results_csv(m, lang))
        return text

    async def stats_csv(self, event_id: str, token: str | None, lang: str = "en") -> str:
        live = await self._results_model(event_id, token)
        text: str = await live.read(lambda m, _now: stats_csv(m, lang))
        return text

    async def protocol(self, event_id: str, token: str | None) -> ProtocolDocument:
        live = await self._results_model(event_id, token)
        document: ProtocolDocument = await live.read(lambda m, _now: protocol_document(m))
        return document

    # -------------------------------------------------------------- listeners
    async def subscribe(
        self, event_id: str, role: Role, token: str | None, sink: Sink
    ) -> tuple[LiveEvent, Listener[str], QuizMessage]:
        """Listen to ``event_id`` as ``role``; returns the listener and the first message
        (subscribed before it is built, so no change can fall in between)."""
        live = await self.live(event_id)
        if role == "judge":
            self.check_host(live, token)
            key = JUDGE
        elif role == "team":
            key = team_key(self.team_of(live, token))
        else:
            key = PROJECTOR
        # the public screens have a cap, and the judge and each team one of their own:
        # no crowd of projectors can keep a team's phones or the judge out
        if key == PROJECTOR and live.listener_count(PROJECTOR) >= self.max_listeners:
            raise TooManyConnectionsError(
                N_("this event already has {count} live connections"), count=self.max_listeners
            )
        if key != PROJECTOR and live.listener_count(key) >= SOCKETS_PER_AUDIENCE:
            raise TooManyConnectionsError(
                N_("this event already has {count} live connections"), count=SOCKETS_PER_AUDIENCE
            )
        listener = live.subscribe(key, sink)
        try:
            first: QuizMessage = await live.read(lambda _m, now: live.message_for(key, now))
        except BaseException:
            live.unsubscribe(listener)
            raise
        return live, listener, first


def _check_file_name(name: str, message: str) -> None:
    """A pack's file is named as the pack names it: a plain name without folders."""
    if not plain_file_name(name) or len(name) > 200:
        raise InvalidRequestError(message, name=name)


def _check_key(key: str | None) -> None:
    if key is not None and not SUBMISSION_ID.match(key):
        raise InvalidRequestError(N_("an Idempotency-Key has 8 to 64 letters, digits or -_.:"))


def _keyed(op: ops.Op, key: str | None) -> ops.Op:
    """``op`` carrying the idempotency key of its request (an answer typed in by the
    judge takes it as its submission id too)."""
    if key is None:
        return op
    if isinstance(op, ops.Answered):
        return op.model_copy(update={"command_id": key, "submission_id": key})
    return op.model_copy(update={"command_id": key})


def _credentials(event_id: str, team: str, token: str, recovery: str) -> CredentialsResponse:
    return CredentialsResponse(
        event_id=event_id,
        team=team,
        token=token,
        recovery_code=recovery,
        team_page=f"/quiz/{event_id}/team",
    )
