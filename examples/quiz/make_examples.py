"""Build the example quiz protocols of this folder (deterministic; re-run to refresh).

    .venv/bin/python examples/quiz/make_examples.py

Each game is simulated with a seeded random generator: every team has a strength, jumps
now and then where the rules allow it, and revolts whenever it may. For each example the
script takes the first seed whose game ends the way the example is meant to end.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from koth.games.quiz import (
    AnswerReceived,
    DeclarationMade,
    DeclarationsLocked,
    LightningQuestion,
    QuestionClosed,
    QuestionOpened,
    QuizConfig,
    apply_event,
    initial_state,
    legal_declarations,
    make_config,
    situation,
)
from koth.games.quiz.events import LightningAnswer
from koth.games.quiz.protocol import result_json, score_protocol

HERE = Path(__file__).parent
TEAMS = [
    "Owls", "Bears", "Cats", "Foxes", "Wolves", "Hawks",
    "Otters", "Lynxes", "Badgers", "Herons", "Ravens", "Moose",
]  # fmt: skip


def simulate(config: QuizConfig, rng: random.Random, *, lightning: bool = True) -> dict[str, Any]:
    """Play a game; returns the protocol dict (config, teams, questions, lightning)."""
    strength = {t: rng.uniform(0.3, 0.75) for t in config.teams}
    state = initial_state(config)
    questions: list[dict[str, Any]] = []
    k = 0
    while not state.finished:
        k += 1
        state = apply_event(state, QuestionOpened(k))
        declarations: dict[str, str] = {}
        for t in config.teams:
            legal = legal_declarations(state, t)
            if "revolution" in legal:
                declarations[t] = "revolution"
            elif "jump" in legal and rng.random() < 0.35:
                declarations[t] = "jump"
        for t, d in declarations.items():
            state = apply_event(state, DeclarationMade(k, t, d))  # type: ignore[arg-type]
        state = apply_event(state, DeclarationsLocked(k))
        answers: dict[str, dict[str, Any]] = {}
        for t in config.teams:
            if rng.random() < 0.93:
                answers[t] = {
                    "correct": rng.random() < strength[t],
                    "time": round(rng.uniform(4.0, 58.0), 1),
                }
                state = apply_event(
                    state, AnswerReceived(k, t, answers[t]["time"], answers[t]["correct"])
                )
        state = apply_event(state, QuestionClosed(k))
        questions.append({"declarations": declarations, "answers": answers})
    rounds: list[dict[str, Any]] = []
    while lightning and situation(state).lightning_required:
        group = situation(state).lightning_required[0].teams
        ans = {t: {"correct": rng.random() < 0.5, "time": round(rng.uniform(2, 15), 1)}
               for t in group}  # fmt: skip
        state = apply_event(
            state,
            LightningQuestion(
                tuple(group), {t: LightningAnswer(a["correct"], a["time"]) for t, a in ans.items()}
            ),
        )
        rounds.append({"teams": group, "answers": ans})
    doc = {
        "config": {
            "steps": config.steps,
            "hold_moves": config.hold_moves,
            "questions": config.questions,
            "backup_questions": config.backup_questions,
            "spurs": {t: list(c) for t, c in config.spurs.items()},
            "partner_questions": sorted(config.partner_questions),
            "prize_places": config.prize_places,
        },
        "teams": list(config.teams),
        "questions": questions,
        "lightning": rounds,
    }
    return doc, state


def find_game(reason: str, *, questions: int, need_lightning: bool = False) -> dict[str, Any]:
    for seed in range(10_000):
        rng = random.Random(seed)
        config = make_config(
            TEAMS, rng=rng, steps=10, questions=questions, backup_questions=4,
            partner_questions={q for q in (5, 12, 20, 28) if q <= questions},
        )  # fmt: skip
        doc, _ = simulate(config, rng)
        if _reason(doc) == reason and (not need_lightning or doc["lightning"]):
            doc["breaks"] = [len(doc["questions"]) // 2]
            return doc
    raise SystemExit(f"no seed gives {reason}")


def _reason(doc: dict[str, Any]) -> str | None:
    return result_json(score_protocol(doc))["reason"]


def semifinal_event() -> dict[str, Any]:
    rng = random.Random(2024)
    parts: list[dict[str, Any]] = []
    groups = [TEAMS[0::2], TEAMS[1::2]]
    qualified: list[str] = []
    for j, group in enumerate(groups, start=1):
        config = make_config(
            group, rng=rng, steps=10, questions=15, kind="semifinal", qualifiers=3,
            partner_questions={7},
        )  # fmt: skip
        doc, state = simulate(config, rng)
        part = {"name": f"semifinal {j}", "teams": group, "config": {
            "spurs": doc["config"]["spurs"], "partner_questions": [7]},
            "questions": doc["questions"], "lightning": doc["lightning"]}  # fmt: skip
        parts.append(part)
        qualified += situation(state).qualified or []
    for seed in range(1000):
        final_rng = random.Random(seed)
        config = make_config(
            qualified, rng=final_rng, steps=10, questions=30, partner_questions={10, 20},
        )  # fmt: skip
        doc, _ = simulate(config, final_rng)
        if _reason(doc) in {"king_held", "no_challenger"}:
            break
    parts.append({"name": "final", "config": {"questions": 30, "spurs": doc["config"]["spurs"],
                  "partner_questions": [10, 20]}, "questions": doc["questions"],
                  "lightning": doc["lightning"]})  # fmt: skip
    return {"format": {"kind": "semifinals", "qualifiers": 3},
            "config": {"steps": 10, "hold_moves": 3, "questions": 15, "prize_places": 3},
            "parts": parts}  # fmt: skip


def main() -> None:
    examples = {
        "king_held.json": find_game("king_held", questions=36),
        "no_challenger.json": find_game("no_challenger", questions=36),
        "questions_exhausted.json": find_game(
            "questions_exhausted", questions=16, need_lightning=True
        ),
        "semifinals.json": semifinal_event(),
    }
    for name, doc in examples.items():
        (HERE / name).write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
        out = result_json(score_protocol(doc))
        print(name, out["reason"], out["king"], out["questions_played"])


if __name__ == "__main__":
    main()
