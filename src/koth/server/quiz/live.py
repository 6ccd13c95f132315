"""One live quiz event in memory: a group-commit writer and the WebSocket listeners.

Writes: requests queue their op and wait. One writer task takes everything queued,
folds each op into the model (a refused op fails alone), appends the accepted ones to
the log in ONE transaction and only then answers the requests; if the commit fails,
the model is reloaded from the database and the requests get an error. So nothing is
acknowledged, sent to a listener or visible in a response before it is stored, and a
burst of 1,000 answers costs a handful of commits, not 1,000.

Reads take the same lock, so they never see an op that is not yet committed.

Listeners are keyed by audience ("judge", "projector", "team:<name>"); after a write
the affected audiences are marked dirty and a broadcaster sends each listener the
message its audience's view function builds, coalescing bursts.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from collections.abc import Callable
from typing import Any

from koth.core.errors import KothError
from koth.server.errors import StorageUnavailableError
from koth.server.listeners import Listener, Listeners, Sink
from koth.server.metrics import QUIZ_OPS
from koth.server.quiz import ops, views
from koth.server.quiz.model import EventModel
from koth.server.quiz.schemas import JudgeMessage, ProjectorMessage, TeamMessage
from koth.server.quiz.store import BatchOutcome, LogEntry, QuizRepository, StoredEvent

log = logging.getLogger(__name__)

QuizMessage = TeamMessage | ProjectorMessage | JudgeMessage

#: ops folded and committed together at most
MAX_BATCH = 500
#: a burst of changes within this time reaches listeners as one message
COALESCE_S = 0.05

JUDGE = "judge"
PROJECTOR = "projector"
#: broadcaster lanes
SCREENS = "screens"
TEAMS = "teams"


def team_key(team: str) -> str:
    return f"team:{team}"


def load_model(repo: QuizRepository, event_id: str) -> EventModel:
    """Fold the stored log (at start-up, after a restart, after a failed commit)."""
    model = EventModel(event_id)
    for entry in repo.log(event_id):
        model.apply(ops.op_from_json(entry.payload), entry.seq, new=False)
    return model


class LiveEvent:
    def __init__(self, stored: StoredEvent, repo: QuizRepository, model: EventModel) -> None:
        self.stored = stored
        self.repo = repo
        self.model = model
        self.lock = asyncio.Lock()
        self._queue: list[tuple[ops.Op, asyncio.Future[int]]] = []
        self._writer: asyncio.Task[None] | None = None
        self._listeners: Listeners[str] = Listeners(f"quiz event {stored.id}")
        #: dirty audiences per broadcaster lane ("*": every listener of the lane)
        self._dirty: dict[str, set[str]] = {SCREENS: set(), TEAMS: set()}
        #: one broadcaster per lane: the big screens never wait behind 1,000 phones
        self._broadcasters: dict[str, asyncio.Task[None]] = {}
        self._timer_call: asyncio.TimerHandle | None = None
        self._sends: set[asyncio.Task[None]] = set()
        #: told (event id, last seq) after every commit: the service announces it
        self.on_commit: Callable[[str, int], None] | None = None

    @property
    def event_id(self) -> str:
        return self.stored.id

    # ------------------------------------------------------------------- writes
    async def submit(self, op: ops.Op) -> int:
        """Queue ``op``; returns its log seq once committed (or raises why it was refused)."""
        future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._queue.append((op, future))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_all())
        return await future

    async def _write_all(self) -> None:
        while self._queue:
            batch, self._queue = self._queue[:MAX_BATCH], self._queue[MAX_BATCH:]
            batch = [(op, future) for op, future in batch if not future.done()]
            async with self.lock:
                try:
                    outcomes = await asyncio.to_thread(
                        self.repo.commit_batch,
                        self.event_id,
                        self.model.seq,
                        functools.partial(self._fold_batch, batch=batch),
                    )
                except Exception as exc:  # nothing was stored: fold the log afresh
                    log.warning("quiz log append failed: %s", exc)
                    await self._reload()
                    error = (
                        exc
                        if isinstance(exc, StorageUnavailableError)
                        else StorageUnavailableError(f"{exc}; nothing was stored")
                    )
                    for _op, future in batch:
                        if not future.done():
                            future.set_exception(error)
                    continue
            caught_up = outcomes.caught_up
            for entry in outcomes.entries:
                QUIZ_OPS.labels(str(entry.payload.get("kind", ""))).inc()
            for (op, future), outcome in zip(batch, outcomes.results, strict=True):
                if isinstance(outcome, BaseException):
                    if not future.done():
                        future.set_exception(outcome)
                    continue
                if not future.done():
                    future.set_result(outcome)
                self._mark(op)
            if caught_up:
                self._dirty_add("*")
            self.notify_after_write()
            if self.on_commit is not None and (caught_up or outcomes.entries):
                self.on_commit(self.event_id, self.model.seq)

    def _fold_batch(
        self, missing: list[LogEntry], *, batch: list[tuple[ops.Op, asyncio.Future[int]]]
    ) -> BatchOutcome:
        """In the commit's transaction: fold the rows other processes appended since
        this model's last one, then each queued op (a refused op fails alone)."""
        for entry in missing:
            self.model.apply(ops.op_from_json(entry.payload), entry.seq, new=False)
        outcome = BatchOutcome(caught_up=bool(missing))
        for op, _future in batch:
            seq = self.model.seq + 1
            try:
                self.model.apply(op, seq)
            except KothError as exc:
                outcome.results.append(exc)
                continue
            outcome.results.append(seq)
            outcome.entries.append(
                LogEntry(
                    seq, ops.op_to_json(op), getattr(op, "submission_id", None) or op.command_id
                )
            )
        return outcome

    async def catch_up(self, seq: int) -> None:
        """Another process appended up to row ``seq``: fold what this model lacks."""
        async with self.lock:
            if seq <= self.model.seq:
                return
            try:
                missing = await asyncio.to_thread(
                    self.repo.log_after, self.event_id, self.model.seq
                )
                for entry in missing:
                    self.model.apply(ops.op_from_json(entry.payload), entry.seq, new=False)
            except Exception:
                log.exception("catching up quiz event %s failed; folding afresh", self.event_id)
                self.model = await asyncio.to_thread(load_model, self.repo, self.event_id)
        self._dirty_add("*")
        self._schedule_time_up()
        self.notify_after_write()

    async def _reload(self) -> None:
        self.model = await asyncio.to_thread(load_model, self.repo, self.event_id)
        self._dirty_add("*")
        self.notify_after_write()

    # -------------------------------------------------------------------- reads
    async def read(self, build: Callable[[EventModel, float], Any]) -> Any:
        """``build(model, now)`` under the lock (never sees uncommitted ops)."""
        async with self.lock:
            return build(self.model, time.time())

    def message_for(self, key: str, now: float) -> QuizMessage:
        """The one message of audience ``key`` (a team, the projector or the judge)."""
        if key == JUDGE:
            return views.judge_message(self.model, now, self.stored.join_code)
        if key == PROJECTOR:
            return views.projector_message(self.model, now)
        return views.team_message(self.model, key.removeprefix("team:"), now)

    # ---------------------------------------------------------------- listeners
    def subscribe(self, key: str, sink: Sink) -> Listener[str]:
        return self._listeners.add(key, sink)

    def unsubscribe(self, listener: Listener[str]) -> None:
        self._listeners.remove(listener)

    def listener_count(self, key: str | None = None) -> int:
        """How many listen (to audience ``key`` only, if given)."""
        if key is None:
            return len(self._listeners)
        return self._listeners.count(lambda audience: audience == key)

    def busy(self) -> bool:
        """Someone listens, or a write or a broadcast is under way: keep it in memory."""
        working = [self._writer, *self._broadcasters.values()]
        return (
            len(self._listeners) > 0
            or bool(self._queue)
            or self.lock.locked()
            or any(task is not None and not task.done() for task in working)
        )

    def _mark(self, op: ops.Op) -> None:
        if isinstance(op, ops.TeamRenamed | ops.TeamRemoved | ops.TeamsMerged):
            self._moved(team_key(op.team))
        if isinstance(op, ops.Answered):
            self._dirty_add(team_key(op.team), JUDGE, PROJECTOR)
        elif isinstance(op, ops.Declared):
            self._dirty_add(team_key(op.team), JUDGE)
        elif isinstance(op, ops.Judged):
            self._dirty_add(JUDGE, *(team_key(t) for t in op.teams))
        elif isinstance(op, ops.TeamJoined) and not self.model.started:
            self._dirty_add("*")  # every phone shows how many teams have joined
        elif isinstance(op, ops.TeamJoined | ops.TeamDevice):
            self._dirty_add(JUDGE, PROJECTOR, team_key(op.team))
        else:
            self._dirty_add("*")
        if isinstance(op, ops.AnsweringOpened | ops.TimerResumed | ops.TimerExtended):
            self._schedule_time_up()

    def _moved(self, key: str) -> None:
        """Audience ``key`` is gone (a renamed, removed or merged team): its phones are told
        to reconnect, and with their token they find their team (or learn it is gone)."""

        async def tell(sink: Sink) -> None:
            with contextlib.suppress(Exception):  # already gone: nothing to tell
                await sink.send_text('{"type": "reconnect"}')

        for listener in self._listeners.take(key):
            task = asyncio.get_running_loop().create_task(tell(listener.sink))
            self._sends.add(task)
            task.add_done_callback(self._sends.discard)

    def _schedule_time_up(self) -> None:
        # when the time runs out every page must learn that answering closed
        part = self.model.part
        q = part.open_question if part is not None else None
        if q is None or q.timer is None:
            return
        if self._timer_call is not None:
            self._timer_call.cancel()
        delay = q.timer.remaining(time.time()) + 0.05
        loop = asyncio.get_running_loop()
        self._timer_call = loop.call_later(delay, self._time_up)

    def _time_up(self) -> None:
        self._dirty_add("*")
        self._kick()

    def _kick(self) -> None:
        for lane in (SCREENS, TEAMS):
            task = self._broadcasters.get(lane)
            if task is None or task.done():
                self._broadcasters[lane] = asyncio.create_task(self._broadcast(lane))

    def _dirty_add(self, *keys: str) -> None:
        for key in keys:
            if key == "*":
                for dirty in self._dirty.values():
                    dirty.add(key)
            else:
                self._dirty[SCREENS if key in (PROJECTOR, JUDGE) else TEAMS].add(key)

    async def _broadcast(self, lane: str) -> None:
        # the projector and the judge (lane SCREENS) get their own broadcaster, so the
        # big screen never waits behind the messages of 1,000 phones (lane TEAMS)
        while True:
            await asyncio.sleep(COALESCE_S)
            dirty, self._dirty[lane] = self._dirty[lane], set()
            if not dirty:
                return
            listening = self._listeners.audiences()
            if "*" in dirty:
                keys = {k for k in listening if (k in (PROJECTOR, JUDGE)) == (lane == SCREENS)}
            else:
                keys = dirty & listening
            if not keys:
                continue
            async with self.lock:
                now = time.time()
                messages = {key: self.message_for(key, now).model_dump_json() for key in keys}
            await self._listeners.deliver(messages)

    def notify_after_write(self) -> None:
        if any(self._dirty.values()):
            self._kick()

    async def close(self) -> None:
        if self._timer_call is not None:
            self._timer_call.cancel()
        for task in (self._writer, *self._broadcasters.values()):
            if task is not None and not task.done():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
