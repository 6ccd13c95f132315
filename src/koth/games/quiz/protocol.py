"""The protocol of a played game (JSON), read into events and scored (Q32).

A single game::

    {"config": {...}, "teams": [...], "questions": [...], "lightning": [...], "breaks": [20]}

Two semifinals and a final (Q15, Q30)::

    {"format": {"kind": "semifinals", "qualifiers": 3}, "config": {...common...},
     "parts": [{"name": "semifinal 1", "teams": [...], "config": {...}, "questions": [...],
                "lightning": [...]}, {...semifinal 2...}, {...final, teams optional...}]}
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from koth.core.errors import InvalidParamsError, KothError, RecordError
from koth.games.quiz.config import QuizConfig, make_config
from koth.games.quiz.engine import apply_event, initial_state
from koth.games.quiz.errors import QuizGameOverError, QuizRuleError
from koth.games.quiz.events import (
    AnswerAdmitted,
    AnswerReceived,
    BreakTaken,
    Declaration,
    DeclarationMade,
    DeclarationsLocked,
    JudgementCorrected,
    LightningAnswer,
    LightningQuestion,
    PartnerFlagged,
    QuestionClosed,
    QuestionOpened,
    QuizEvent,
)
from koth.games.quiz.situation import situation
from koth.games.quiz.state import EndReason, QuizState


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class AnswerIn(_Model):
    correct: bool
    time: float | None = Field(default=None, ge=0)


class CorrectionIn(_Model):
    question: int
    team: str
    correct: bool
    #: an answer the system never received, admitted on appeal (Q26)
    admitted: bool = False


class QuestionIn(_Model):
    declarations: dict[str, Declaration] = {}
    late_declarations: dict[str, Declaration] = {}
    answers: dict[str, AnswerIn] = {}
    partner: bool = False
    corrections: list[CorrectionIn] = []
    """judgement corrections applied after this question is closed (Q26)"""


class LightningIn(_Model):
    teams: list[str]
    answers: dict[str, AnswerIn] = {}


class ConfigIn(_Model):
    steps: int | None = None
    hold_moves: int | None = None
    questions: int | None = None
    backup_questions: int | None = None
    spurs: dict[str, list[int]] | None = None
    spur_seed: int | None = None
    partner_questions: list[int] | None = None
    prize_places: int | None = None

    def merged(self, over: ConfigIn | None) -> ConfigIn:
        if over is None:
            return self
        data = self.model_dump(exclude_none=True)
        data.update(over.model_dump(exclude_none=True))
        return ConfigIn(**data)


class GameIn(_Model):
    config: ConfigIn = ConfigIn()
    teams: list[str]
    questions: list[QuestionIn] = []
    lightning: list[LightningIn] = []
    breaks: list[int] = []
    end_reason: EndReason | None = None


class FormatIn(_Model):
    kind: Literal["single", "semifinals"] = "single"
    qualifiers: int = Field(default=3, ge=1)


class PartIn(_Model):
    name: str | None = None
    teams: list[str] | None = None
    config: ConfigIn | None = None
    questions: list[QuestionIn] = []
    lightning: list[LightningIn] = []
    breaks: list[int] = []
    end_reason: EndReason | None = None


class EventIn(_Model):
    format: FormatIn
    config: ConfigIn = ConfigIn()
    #: an evening in progress lists the parts played so far (semifinal 1 alone, say)
    parts: list[PartIn] = Field(min_length=1, max_length=3)


@dataclass(frozen=True, slots=True)
class PartResult:
    name: str
    config: QuizConfig
    events: tuple[QuizEvent, ...]
    state: QuizState


@dataclass(frozen=True, slots=True)
class ProtocolResult:
    kind: str
    parts: tuple[PartResult, ...]

    @property
    def main(self) -> PartResult:
        return self.parts[-1]

    def part(self, name: str | None) -> PartResult:
        """The part called ``name`` (None: the main one, the final when played)."""
        if name is None:
            return self.main
        for part in self.parts:
            if part.name == name:
                return part
        known = ", ".join(repr(p.name) for p in self.parts)
        raise RecordError(f"the protocol has no part {name!r}; its parts: {known}")


def load_protocol(path: Path | str) -> Any:
    """Read the JSON document; a missing file or malformed JSON raises RecordError."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise RecordError(f"cannot read protocol {p}: {exc.strerror or exc}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(
            f"protocol {p} is not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"
        ) from None


def score_protocol(doc: Any) -> ProtocolResult:
    """Validate and replay a protocol document; rule breaks raise RecordError (with the
    question number as ``index`` and the rule)."""
    if not isinstance(doc, Mapping):
        raise RecordError("a protocol is a JSON object")
    shape = doc.get("format")
    if isinstance(shape, str) and shape.startswith("koth-record"):
        raise RecordError(
            f"this is a game record of {doc.get('game', 'a game')!r}, not a quiz protocol: "
            "check it with `koth replay`"
        )
    if shape is not None and not isinstance(shape, Mapping):
        raise RecordError(
            f"format: {shape!r} is not an object; a protocol's format reads "
            '{"kind": "single"} or {"kind": "semifinals", "qualifiers": 3} (rule Q32)'
        )
    try:
        if shape is not None and shape.get("kind") == "semifinals":
            return _score_event(EventIn.model_validate(doc))
        data = dict(doc)
        data.pop("format", None)
        return ProtocolResult("single", (_score_game("game", GameIn.model_validate(data)),))
    except ValidationError as exc:
        raise RecordError("malformed protocol: " + _describe(exc)) from None


def result_json(
    result: ProtocolResult, after: int | None = None, part: str | None = None
) -> dict[str, Any]:
    """The JSON output: the situation of ``part`` (default: the last part, the final)
    at the top level, after its question ``after`` when given."""
    shown = result.part(part)
    try:
        out = situation(shown.state, after).to_json()
    except QuizRuleError as exc:
        raise RecordError(f"{shown.name}: {exc}", rule=exc.rule) from None
    out["format"] = result.kind
    if result.kind == "semifinals":
        out["stage"] = shown.name
        out["parts"] = [{"name": p.name, **situation(p.state).to_json()} for p in result.parts]
    return out


def game_events(game: GameIn) -> list[QuizEvent]:
    """The events of a single game (or one part), in order."""
    events: list[QuizEvent] = []
    breaks = set(game.breaks)
    for after in sorted(breaks):
        if not 0 <= after <= len(game.questions):
            raise RecordError(
                f"a break after question {after}: the protocol has questions 1 to "
                f"{len(game.questions)} (0 is a break before the first) (rule Q31)",
                rule="Q31",
            )
    if 0 in breaks:
        events.append(BreakTaken(0))
    for k, entry in enumerate(game.questions, start=1):
        events.append(QuestionOpened(k))
        for team, declared in entry.declarations.items():
            events.append(DeclarationMade(k, team, declared))
        events.append(DeclarationsLocked(k))
        for team, declared in entry.late_declarations.items():
            events.append(DeclarationMade(k, team, declared))
        for team, answer in entry.answers.items():
            events.append(AnswerReceived(k, team, _time(answer.time), answer.correct))
        if entry.partner:
            events.append(PartnerFlagged(k))
        events.append(QuestionClosed(k))
        for c in entry.corrections:
            kind = AnswerAdmitted if c.admitted else JudgementCorrected
            events.append(kind(c.question, c.team, c.correct))
        if k in breaks:
            events.append(BreakTaken(k))
    for light in game.lightning:
        answers = {
            t: LightningAnswer(a.correct, None if a.time is None else float(a.time))
            for t, a in light.answers.items()
        }
        events.append(LightningQuestion(tuple(light.teams), answers))
    return events


def _time(value: float | None) -> float | None:
    # A missing time ranks after every recorded one (Q24).
    return None if value is None else float(value)


def _config(
    cfg: ConfigIn, teams: list[str], *, kind: str = "game", qualifiers: int = 3
) -> QuizConfig:
    options: dict[str, Any] = cfg.model_dump(exclude_none=True)
    seed = options.pop("spur_seed", None)
    spurs = {k: tuple(v) for k, v in options.pop("spurs", {}).items()}
    if "partner_questions" in options:
        options["partner_questions"] = frozenset(options["partner_questions"])
    try:
        return make_config(
            teams, seed=seed, spurs=spurs, kind=kind, qualifiers=qualifiers, **options
        )
    except InvalidParamsError as exc:
        raise RecordError(str(exc)) from None


def _score_game(name: str, game: GameIn, *, kind: str = "game", qualifiers: int = 3) -> PartResult:
    config = _config(game.config, game.teams, kind=kind, qualifiers=qualifiers)
    events = game_events(game)
    state = initial_state(config)
    prefix = "" if name == "game" else f"{name}: "
    for event in events:
        try:
            state = apply_event(state, event)
        except QuizGameOverError as exc:
            q = getattr(event, "question", None)
            entry = game.questions[q - 1] if isinstance(q, int) else None
            teams = [*entry.answers, *entry.declarations] if entry is not None else []
            who = f", team {teams[0]}" if teams else ""
            raise RecordError(
                f"{prefix}question {q}{who}: played after the game ended "
                f"({exc.reason}) (rule {exc.rule})",
                index=q,
                rule=exc.rule,
            ) from None
        except QuizRuleError as exc:
            raise RecordError(f"{prefix}{exc}", index=exc.question, rule=exc.rule) from None
        except KothError as exc:
            raise RecordError(f"{prefix}{exc}") from None
    if game.end_reason is not None:
        found = state.standings.reason if state.finished else None
        if found != game.end_reason:
            raise RecordError(
                f"{prefix}the protocol says the game ended because {game.end_reason.value!r}, "
                f"but its questions give {found.value if found else 'a game still running'!r} "
                "(rule Q32)",
                rule="Q32",
            )
    return PartResult(name, config, tuple(events), state)


def _score_event(doc: EventIn) -> ProtocolResult:
    k = doc.format.qualifiers
    parts: list[PartResult] = []
    names = ["semifinal 1", "semifinal 2", "final"]
    for j, part in enumerate(doc.parts[:2]):
        if part.teams is None:
            raise RecordError(f"{names[j]}: the teams of a semifinal must be listed (rule Q30)")
        game = GameIn(
            config=doc.config.merged(part.config),
            teams=part.teams,
            questions=part.questions,
            lightning=part.lightning,
            breaks=part.breaks,
            end_reason=part.end_reason,
        )
        parts.append(_score_game(part.name or names[j], game, kind="semifinal", qualifiers=k))
    overlap = set(parts[0].config.teams) & set(parts[1].config.teams) if len(parts) > 1 else set()
    if overlap:
        raise RecordError(f"team {sorted(overlap)[0]} plays in both semifinals (rule Q30)")
    if len(doc.parts) == 3:
        final = doc.parts[2]
        finalists: list[str] = []
        for p in parts:
            s = situation(p.state)
            if s.qualified is None:
                why = (
                    "is not finished"
                    if not s.finished
                    else "has an unsettled tie at the cut: "
                    + "; ".join(
                        f"place {g.place}: {', '.join(g.teams)}" for g in s.lightning_required
                    )
                )
                raise RecordError(f"final: {p.name} {why}; the finalists are unknown (rule Q15)")
            finalists.extend(s.qualified)
        if final.teams is not None and sorted(final.teams) != sorted(finalists):
            raise RecordError(
                f"final: the listed teams {final.teams} are not the qualifiers {finalists} "
                "(rule Q30)"
            )
        game = GameIn(
            config=doc.config.merged(final.config),
            teams=final.teams or finalists,
            questions=final.questions,
            lightning=final.lightning,
            breaks=final.breaks,
            end_reason=final.end_reason,
        )
        parts.append(_score_game(final.name or names[2], game))
    return ProtocolResult("semifinals", tuple(parts))


def _describe(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors()[:5]:
        loc = ".".join(str(x) for x in err["loc"])
        parts.append(f"{loc}: {err['msg']}" if loc else str(err["msg"]))
    return "; ".join(parts)
