"""The configuration of one quiz game (rules Q1, Q4, Q5, Q13, Q14, Q15).

Spur cells are data here: the host sets them, or :func:`draw_spurs` draws them with
an explicit random generator *before* the game, never inside the fold.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from koth.core.errors import InvalidParamsError

GameKind = Literal["game", "semifinal"]


class QuizConfig(BaseModel):
    """Everything a quiz game needs before its first question.

    ``kind="game"`` is a game with a King (Q7-Q12); ``kind="semifinal"`` is a semifinal
    of the three-part format (Q15): no King, no Revolution, the top ``qualifiers`` go on.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    teams: tuple[str, ...]
    steps: int = Field(default=10, ge=3, le=1000)
    hold_moves: int = Field(default=3, ge=1)
    questions: int = Field(default=40, ge=1)
    backup_questions: int = Field(default=0, ge=0)
    spurs: Mapping[str, tuple[int, ...]] = Field(default_factory=dict)
    partner_questions: frozenset[int] = frozenset()
    prize_places: int = Field(default=3, ge=1)
    kind: GameKind = "game"
    qualifiers: int = Field(default=3, ge=1)

    @property
    def total_questions(self) -> int:
        """Main plus backup questions (Q13, Q35)."""
        return self.questions + self.backup_questions

    @model_validator(mode="after")
    def _check(self) -> QuizConfig:
        if len(self.teams) < 2:
            raise ValueError("a quiz game needs at least 2 teams (rule Q1)")
        seen: set[str] = set()
        for name in self.teams:
            if not name or name != name.strip():
                raise ValueError(f"team name {name!r} is empty or has surrounding spaces")
            if name in seen:
                raise ValueError(f"team {name!r} is listed twice (rule Q1)")
            seen.add(name)
        for name, cells in self.spurs.items():
            if name not in seen:
                raise ValueError(f"spurs given for unknown team {name!r} (rule Q4)")
            if len(set(cells)) != len(cells):
                raise ValueError(f"team {name}: a spur cell is listed twice (rule Q4)")
            for cell in cells:
                if not 1 <= cell <= self.steps - 1:
                    raise ValueError(
                        f"team {name}: spur cell {cell} is not on the area below the Peak "
                        f"(1..{self.steps - 1}) (rule Q19)"
                    )
        for q in self.partner_questions:
            if not 1 <= q <= self.total_questions:
                raise ValueError(
                    f"partner question {q} is not among questions 1..{self.total_questions} "
                    "(rule Q5)"
                )
        if self.kind == "semifinal" and self.qualifiers > len(self.teams):
            raise ValueError(
                f"{self.qualifiers} qualifiers but only {len(self.teams)} teams (rule Q15)"
            )
        return self


def spur_range(steps: int) -> range:
    """Cells among which the system draws spurs: 2..N-3, or 1..N-1 on a short slope (Q19)."""
    cells = range(2, steps - 2)
    return cells if len(cells) > 0 else range(1, steps)


def draw_spurs(
    teams: Iterable[str], steps: int, rng: random.Random, per_slope: int = 1
) -> dict[str, tuple[int, ...]]:
    """Draw ``per_slope`` distinct spur cells for every team (Q4). Outside the fold."""
    cells = spur_range(steps)
    if per_slope > len(cells):
        raise InvalidParamsError(
            f"cannot draw {per_slope} spur cells among {len(cells)} cells (rule Q4)"
        )
    return {name: tuple(sorted(rng.sample(cells, per_slope))) for name in teams}


def make_config(
    teams: Sequence[str],
    *,
    rng: random.Random | None = None,
    seed: int | None = None,
    spurs_per_slope: int = 1,
    **options: Any,
) -> QuizConfig:
    """Build a validated :class:`QuizConfig`; teams without host-set spurs get drawn ones
    when ``rng`` or ``seed`` is given (Q4). Raises :class:`InvalidParamsError`."""
    spurs: dict[str, tuple[int, ...]] = {
        k: tuple(v) for k, v in dict(options.pop("spurs", {}) or {}).items()
    }
    if rng is None and seed is not None:
        rng = random.Random(seed)
    steps = int(options.get("steps", 10))
    if rng is not None:
        missing = [t for t in teams if t not in spurs]
        spurs.update(draw_spurs(missing, steps, rng, spurs_per_slope))
    try:
        return QuizConfig(teams=tuple(teams), spurs=spurs, **options)
    except ValidationError as exc:
        raise InvalidParamsError(_validation_message(exc)) from None


def _validation_message(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors():
        loc = ".".join(str(x) for x in err["loc"])
        msg = str(err["msg"]).removeprefix("Value error, ")
        parts.append(f"{loc}: {msg}" if loc else msg)
    return "invalid quiz configuration: " + "; ".join(parts)
