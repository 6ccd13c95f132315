"""The host's control of the evening, as handlers of the event fold: the team list
(rename, remove, merge, lock joining, withdraw and its undo) and re-opening the last
resolved question.

A rename and a re-opening are not patched into the model by hand: the event is folded
again from the ops that count (``history``), with the team renamed in every earlier op,
or without the resolution being undone. So whatever the engine derives from them
(standings, the King, downgrades) is exactly what it would have been had the team always
had that name, or had the question never been resolved. An op that no longer fits that
history (an appeal filed on the question after its resolution) makes the re-opening
refused, and nothing changes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from koth.core.errors import KothError
from koth.games.quiz import situation
from koth.i18n import N_, Term, Text
from koth.server.errors import (
    InvalidRequestError,
    NameTakenError,
    NotFoundError,
    WrongPhaseError,
)
from koth.server.quiz import ops
from koth.server.quiz.names import check_team_name, name_key
from koth.server.quiz.parts import Part, Team


@dataclass(frozen=True)
class Change:
    """One change of the host's control, for the console and the exports."""

    seq: int
    kind: str
    team: str
    detail: str = ""
    """the old name (renamed), the absorbed team (merged)"""
    part: str = ""
    question: int | None = None
    """withdrawn after this question of ``part``; this question re-opened"""


#: ops whose effect is a new fold of ``history``, not an entry of it
REFOLDING = (ops.TeamRenamed, ops.QuestionReopened)


class HostControl:
    """Handlers of the host's control ops; mixed into :class:`EventModel`."""

    if TYPE_CHECKING:
        event_id: str
        seq: int
        teams: dict[str, Team]
        by_token: dict[str, str]
        by_key: dict[str, str]
        parts: list[Part]
        commands: dict[str, int]
        _new: bool

        @property
        def started(self) -> bool: ...

        @property
        def config(self) -> ops.EventSettings: ...

        def current_part(self) -> Part: ...

        def apply(self, op: ops.Op, seq: int, *, new: bool = True) -> None: ...

    #: the ops that count, as (log row, op): what a new fold replays
    history: list[tuple[int, ops.Op]]
    #: every change of the team list and every re-opening, in order
    changes: list[Change]
    join_locked: bool

    def _init_control(self) -> None:
        self.history = []
        self.changes = []
        self.join_locked = False

    def _remember(self, op: ops.Op, seq: int) -> None:
        if not isinstance(op, REFOLDING):
            self.history.append((seq, op))

    # ----------------------------------------------------------------- queries
    def withdrawn(self, team: str) -> bool:
        found = self.teams.get(team)
        return found is not None and found.withdrawn_after is not None

    def reopenable(self) -> int | None:
        """The question that *Re-open* would open again, if any."""
        part = self.parts[-1] if self.parts else None
        if part is None or not part.questions or part.open_question is not None:
            return None
        return part.questions[-1].number

    # ---------------------------------------------------------------- handlers
    def _on_team_renamed(self, op: ops.TeamRenamed, seq: int) -> None:
        self._team(op.team)
        check_team_name(op.name, new=self._new)
        if op.name == op.team:
            raise InvalidRequestError(N_("team {team!r} already has that name"), team=op.team)
        same = self.by_key.get(name_key(op.name))
        if same is not None and same != op.team:
            raise NameTakenError(
                N_("{name!r} is too like the name of team {team!r}"), name=op.name, team=same
            )
        history = [(s, ops.with_team_renamed(o, op.team, op.name)) for s, o in self.history]
        self._refold(history, Text(N_("team {team!r} cannot be renamed"), team=op.team))
        self.changes.append(Change(seq, "renamed", op.name, op.team))

    def _on_team_removed(self, op: ops.TeamRemoved, seq: int) -> None:
        self._before_start(
            N_("the game has started: teams can no longer be removed; withdraw it instead")
        )
        self._drop(self._team(op.team))
        self.changes.append(Change(seq, "removed", op.team))

    def _on_teams_merged(self, op: ops.TeamsMerged, seq: int) -> None:
        self._before_start(
            N_("the game has started: teams can no longer be merged; withdraw one of them instead")
        )
        gone, into = self._team(op.team), self._team(op.into)
        if gone is into:
            raise InvalidRequestError(N_("a team cannot absorb itself: choose two teams"))
        self._drop(gone)
        for token_hash in gone.token_hashes:
            into.token_hashes.add(token_hash)
            self.by_token[token_hash] = into.name
        into.recovery_hash = into.recovery_hash or gone.recovery_hash
        self.changes.append(Change(seq, "merged", op.into, op.team))

    def _on_joining_locked(self, op: ops.JoiningLocked, seq: int) -> None:
        if self.started:
            raise WrongPhaseError(N_("the game has started: nobody can join any more"))
        if op.locked == self.join_locked:
            raise InvalidRequestError(
                N_("joining is already locked") if op.locked else N_("joining is already open")
            )
        self.join_locked = op.locked
        self.changes.append(Change(seq, "joining_locked" if op.locked else "joining_opened", ""))

    def _on_team_withdrawn(self, op: ops.TeamWithdrawn, seq: int) -> None:
        part = self.current_part()
        team = self._team(op.team)
        if op.team not in part.state.index:
            raise WrongPhaseError(
                N_("team {team} does not play in {part}"), team=op.team, part=Term(part.name)
            )
        if team.withdrawn_after is not None:
            raise WrongPhaseError(N_("team {team} has already withdrawn"), team=op.team)
        king = situation(part.state).king
        if king == op.team and self.config.withdrawn_king == "refused":
            raise WrongPhaseError(
                N_(
                    "team {team} is the King: under this event's settings the King cannot "
                    "withdraw while it reigns (rule Q36)"
                ),
                team=op.team,
            )
        team.withdrawn_after = len(part.questions)
        team.withdrawn_in = part.name
        self.changes.append(
            Change(seq, "withdrawn", op.team, part=part.name, question=team.withdrawn_after)
        )

    def _on_team_returned(self, op: ops.TeamReturned, seq: int) -> None:
        team = self._team(op.team)
        if team.withdrawn_after is None:
            raise WrongPhaseError(N_("team {team} has not withdrawn"), team=op.team)
        if team.withdrawn_in != self.current_part().name:
            raise WrongPhaseError(
                N_("team {team} withdrew in {part}, which is over"),
                team=op.team,
                part=Term(team.withdrawn_in),
            )
        team.withdrawn_after = None
        team.withdrawn_in = ""
        part = self.current_part()
        self.changes.append(
            Change(seq, "returned", op.team, part=part.name, question=len(part.questions))
        )

    def _on_question_reopened(self, op: ops.QuestionReopened, seq: int) -> None:
        number = self.reopenable()
        if number is None:
            raise WrongPhaseError(
                N_(
                    "only the last resolved question can be re-opened, "
                    "before the next one is opened"
                )
            )
        if op.question != number:
            raise WrongPhaseError(
                N_("only question {question}, the last resolved one, can be re-opened"),
                question=number,
            )
        for index in range(len(self.history) - 1, -1, -1):
            done = self.history[index][1]
            if isinstance(done, ops.PartStarted):
                break
            if isinstance(done, ops.Resolved) and done.question == number:
                rest = self.history[:index] + self.history[index + 1 :]
                self._refold(
                    rest, Text(N_("question {question} cannot be re-opened"), question=number)
                )
                self.changes.append(
                    Change(seq, "reopened", "", part=self.current_part().name, question=number)
                )
                return
        raise WrongPhaseError(
            N_("question {question} was not resolved in this part"), question=number
        )

    # ----------------------------------------------------------------- helpers
    def _team(self, name: str) -> Team:
        team = self.teams.get(name)
        if team is None:
            raise NotFoundError(N_("no team {team!r}"), team=name)
        return team

    def _before_start(self, refused: str) -> None:
        if self.started:
            raise WrongPhaseError(refused)

    def _drop(self, team: Team) -> None:
        del self.teams[team.name]
        for token_hash in team.token_hashes:
            self.by_token.pop(token_hash, None)
        key = name_key(team.name)
        if self.by_key.get(key) == team.name:
            del self.by_key[key]

    def _refold(self, history: list[tuple[int, ops.Op]], refused: Text) -> None:
        """Become the fold of ``history`` (every row at its own seq); what is not derived
        from it (the idempotency keys, the list of changes) is kept."""
        fresh = type(self)(self.event_id)  # type: ignore[call-arg]
        try:
            for seq, op in history:
                fresh.seq = seq - 1
                fresh.apply(op, seq, new=False)
        except KothError as exc:
            raise WrongPhaseError(
                N_("{refused}: a later change depends on it ({why})"), refused=refused, why=exc
            ) from None
        kept = {"seq": self.seq, "commands": self.commands, "changes": self.changes}
        self.__dict__.update(fresh.__dict__)
        self.__dict__.update(kept)
