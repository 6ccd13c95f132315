"""``situation(state)``: the game situation as a typed value with a JSON form."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

from koth.games.quiz.errors import QuizRuleError
from koth.games.quiz.ranking import needs_lightning, rank
from koth.games.quiz.state import EndReason, QuizState


class TeamLine(BaseModel):
    model_config = ConfigDict(frozen=True)

    name: str
    position: int
    points: int
    place: int
    spur_used: bool
    revolution_right: bool
    king: bool = False
    spurs: list[int] | None = None
    """the team's spur cells, revealed only when the game is over (Q20)"""


class TieGroup(BaseModel):
    model_config = ConfigDict(frozen=True)

    place: int
    teams: list[str]


class Downgrade(BaseModel):
    """A declaration that did not stand: the note's parameters (declaration, reason
    and rule, and the reason's own), worded by :mod:`koth.games.quiz.wording`."""

    model_config = ConfigDict(frozen=True)

    question: int
    team: str
    params: dict[str, str | int]


class Situation(BaseModel):
    """The game situation; ``teams`` is sorted by place (shared places repeat)."""

    model_config = ConfigDict(frozen=True)

    finished: bool
    reason: EndReason | None
    king: str | None
    king_hold: int
    questions_played: int
    teams: list[TeamLine]
    lightning_required: list[TieGroup]
    kind: str = "game"
    steps: int = 10
    hold_moves: int = 3
    total_questions: int = 0
    lightning_played: int = 0
    lightning_not_applied: list[int] = []
    voided_questions: list[int] = []
    downgraded: list[Downgrade] = []
    qualified: list[str] | None = None
    """semifinal only: the teams going to the final, once the cut is settled (Q15)"""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = self.model_dump(mode="json")
        return out


def situation(state: QuizState, after: int | None = None) -> Situation:
    """The situation after the last resolved question, or after question ``after``
    (with every correction applied). Lightning results count only at the end."""
    config = state.config
    played = state.questions_played
    if after is None:
        after = played
    if not 0 <= after <= played:
        raise QuizRuleError(f"only questions 0..{played} were played", rule="Q33", question=after)
    standings = state.snapshots[after]
    at_end = after == played
    lightning = state.lightning if at_end else ()
    cut = config.qualifiers if config.kind == "semifinal" else None
    ranking = rank(
        standings, lightning, dict(state.index), prize_places=config.prize_places, cut=cut
    )
    finished = standings.finished
    names = config.teams
    lines = [
        TeamLine(
            name=names[i],
            position=standings.position[i],
            points=standings.points[i],
            place=ranking.places[i],
            spur_used=bool(standings.spurs_used[i]),
            revolution_right=standings.revolution_right[i] and config.kind == "game",
            king=standings.king == i,
            spurs=sorted(config.spurs.get(names[i], ())) if finished else None,
        )
        for i in ranking.order
    ]
    required = [
        TieGroup(place=place, teams=[names[i] for i in group])
        for place, group in ranking.groups
        if finished
        and needs_lightning(place, len(group), prize_places=config.prize_places, cut=cut)
    ]
    qualified = None
    if cut is not None and finished and not required:
        qualified = [names[i] for i in ranking.order[:cut]]
    downgraded = [
        Downgrade(question=note.question, team=note.team, params=note.details)
        for notes in state.notes[:after]
        for note in notes
        if note.kind == "downgraded"
    ]
    return Situation(
        finished=finished,
        reason=standings.reason,
        king=None if standings.king is None else names[standings.king],
        king_hold=standings.king_hold,
        questions_played=after,
        teams=lines,
        lightning_required=required,
        kind=config.kind,
        steps=config.steps,
        hold_moves=config.hold_moves,
        total_questions=config.total_questions,
        lightning_played=len(lightning),
        lightning_not_applied=[k + 1 for k, ok in enumerate(ranking.applied) if not ok],
        voided_questions=list(state.voided_questions) if at_end else [],
        downgraded=downgraded,
        qualified=qualified,
    )
