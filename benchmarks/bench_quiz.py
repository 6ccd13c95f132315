"""Benchmark of the quiz engine: one question and a whole 60-question game.

Run: ``.venv/bin/python benchmarks/bench_quiz.py`` (optionally ``--teams 24 1000``).

For 24, 1,000 and 10,000 teams it builds a random 60-question game (seeded; 35% right
answers, jumps and revolutions declared where legal; ``hold_moves`` set high so that all
60 questions are played), then prints:

* question events: applying one question's events one at a time (open, declarations,
  lock, one answer per team, close), median over the 60 questions;
* resolve: the resolution of one question alone (``rules.resolve``), median;
* fold: ``fold(config, events)`` of the whole game from its event list.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from koth.games.quiz import (
    AnswerReceived,
    DeclarationMade,
    DeclarationsLocked,
    QuestionClosed,
    QuestionOpened,
    QuizConfig,
    QuizEvent,
    apply_event,
    fold,
    initial_state,
    make_config,
)
from koth.games.quiz.rules import declaration_problem, resolve

QUESTIONS = 60


def build_game(teams: int, seed: int) -> tuple[QuizConfig, list[QuizEvent], list[float]]:
    rng = random.Random(seed)
    names = [f"T{i:05d}" for i in range(teams)]
    config = make_config(
        names, rng=rng, steps=10, hold_moves=1000, questions=QUESTIONS, partner_questions={7, 30}
    )
    state = initial_state(config)
    events: list[QuizEvent] = []
    per_question: list[float] = []
    for q in range(1, QUESTIONS + 1):
        question: list[QuizEvent] = [QuestionOpened(q)]
        standings = state.standings
        for i, name in enumerate(names):
            for decl in ("revolution", "jump"):
                if rng.random() < 0.5 and declaration_problem(config, standings, i, decl) is None:
                    question.append(DeclarationMade(q, name, decl))
                    break
        question.append(DeclarationsLocked(q))
        for name in names:
            if rng.random() < 0.9:
                question.append(
                    AnswerReceived(q, name, round(rng.uniform(1, 60), 2), rng.random() < 0.35)
                )
        question.append(QuestionClosed(q))
        start = time.perf_counter()
        for event in question:
            state = apply_event(state, event)
        per_question.append(time.perf_counter() - start)
        events.extend(question)
    assert state.questions_played == QUESTIONS, state.standings.reason
    return config, events, per_question


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--teams", type=int, nargs="*", default=[24, 1_000, 10_000])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"quiz engine benchmark: {QUESTIONS} questions, steps 10")
    print(f"{'teams':>7} {'events':>9} {'question events':>16} {'resolve':>10} {'fold game':>10}")
    for teams in args.teams:
        config, events, per_question = build_game(teams, args.seed)
        start = time.perf_counter()
        state = fold(config, events)
        fold_s = time.perf_counter() - start
        resolve_times = []
        for k, record in enumerate(state.records):
            t0 = time.perf_counter()
            resolve(state.config, state.snapshots[k], record)
            resolve_times.append(time.perf_counter() - t0)
        print(
            f"{teams:>7} {len(events):>9} {statistics.median(per_question) * 1e3:>13.2f} ms"
            f" {statistics.median(resolve_times) * 1e3:>7.2f} ms {fold_s:>8.3f} s"
        )


if __name__ == "__main__":
    main()
