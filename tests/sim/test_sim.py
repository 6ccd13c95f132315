"""Tournaments on the toy game: schedule, parallel run, interruption, report, CLI."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from koth.build import build_kind
from koth.cli import app
from koth.core.errors import InvalidParamsError
from koth.sim.compare import folder_name, write_comparison, write_comparison_report
from koth.sim.report import write_report, write_results
from koth.sim.runner import (
    GameSummary,
    TournamentConfig,
    prepare,
    run_comparison,
    run_tournament,
    schedule,
)
from koth.sim.stats import fit_elo, pairwise_scores, tally_agents, wilson_interval
from tests.cli_text import plain

TOY = ("tests.core.toy_game",)


def toy_config(games: int, workers: int = 1, **more: Any) -> TournamentConfig:
    return prepare(
        TournamentConfig(
            game="toy_duel",
            agents=("mcts:iters=30", "random"),
            games=games,
            seed=3,
            workers=workers,
            imports=TOY,
            **more,
        )
    )


# ------------------------------------------------------------------ maths
def test_wilson_interval_matches_known_values() -> None:
    low, high = wilson_interval(8, 10)
    assert (round(low, 4), round(high, 4)) == (0.4902, 0.9433)
    low, high = wilson_interval(0, 10)
    assert low == 0 and round(high, 4) == 0.2775
    low, high = wilson_interval(50, 100)
    assert (round(low, 4), round(high, 4)) == (0.4038, 0.5962)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson_interval(11, 10)


def test_elo_fit_recovers_known_differences() -> None:
    # 3 wins in 4 games: the maximum-likelihood gap is 400 log10(3)
    scores = {("a", "b"): (3.0, 4), ("b", "a"): (1.0, 4)}
    ratings = fit_elo(scores, ["a", "b"], prior_draws=0)
    assert math.isclose(ratings["a"] - ratings["b"], 400 * math.log10(3), abs_tol=1e-6)
    assert math.isclose((ratings["a"] + ratings["b"]) / 2, 1500)
    # results exactly as strengths 4:2:1 predict are fitted back exactly
    scores = {
        ("a", "b"): (2.0, 3), ("b", "a"): (1.0, 3),
        ("b", "c"): (2.0, 3), ("c", "b"): (1.0, 3),
        ("a", "c"): (4.0, 5), ("c", "a"): (1.0, 5),
    }  # fmt: skip
    ratings = fit_elo(scores, ["a", "b", "c"], prior_draws=0)
    assert math.isclose(ratings["a"] - ratings["b"], 400 * math.log10(2), abs_tol=1e-6)
    assert math.isclose(ratings["a"] - ratings["c"], 400 * math.log10(4), abs_tol=1e-6)
    # an unbeaten agent stays finite thanks to the prior
    ratings = fit_elo({("a", "b"): (5.0, 5), ("b", "a"): (0.0, 5)}, ["a", "b"])
    assert math.isclose(ratings["a"] - ratings["b"], 400 * math.log10(11), abs_tol=1e-6)


def test_pairwise_scores_of_a_multiplayer_game() -> None:
    games = [{"seats": ["x", "y", "z"], "winners": [1], "returns": [0, 1, 0]}]
    scores = pairwise_scores(games)
    assert scores[("y", "x")] == (1.0, 1) and scores[("x", "z")] == (0.5, 1)
    tallies = tally_agents(games, ["x", "y", "z"])
    assert (tallies["y"].wins, tallies["x"].losses, tallies["z"].draws) == (1, 1, 0)


# ------------------------------------------------------------------ schedule
def test_seats_rotate_fairly_and_seeds_are_reproducible() -> None:
    config = toy_config(6)
    tasks = schedule(config)
    for seat in range(2):
        assert sorted(t.labels[seat] for t in tasks) == sorted(config.labels * 3)
    assert len({t.seed for t in tasks}) == 6
    assert [t.seed for t in tasks] == [t.seed for t in schedule(config)]


def test_prepare_refuses_a_wrong_table_and_bad_agents() -> None:
    with pytest.raises(InvalidParamsError, match="seats 2"):
        prepare(TournamentConfig("toy_duel", ("random",) * 3, 2, imports=TOY))
    with pytest.raises(InvalidParamsError):
        prepare(TournamentConfig("toy_duel", ("random", "mcts:wat=1"), 2, imports=TOY))
    labels = TournamentConfig("toy_duel", ("random", "random"), 2).labels
    assert labels == ("random#1", "random#2")


# ------------------------------------------------------------------ running
def _check_results(folder: Path, games: int) -> dict[str, Any]:
    document: dict[str, Any] = json.loads((folder / "results.json").read_text())
    assert document["games_finished"] == len(document["games"]) == games
    for game in document["games"]:
        assert set(game) >= {"seed", "seats", "winners", "returns", "decisions", "stats"}
        for winner in game["winners"]:
            assert game["returns"][winner] == max(game["returns"])
        assert game["winner_agents"] == [game["seats"][w] for w in game["winners"]]
    report = (folder / "report.md").read_text()
    assert document["build"] == build_kind() and f"koth {build_kind()}" in report
    for png in ["win_rate.png", "turn_order.png", "game_length.png", "elo.png"]:
        assert (folder / png).stat().st_size > 1000
        assert f"({png})" in report
    return document


def test_a_parallel_tournament_writes_results_and_report(tmp_path: Path) -> None:
    tournament = run_tournament(toy_config(6, workers=2))
    assert not tournament.interrupted
    assert [g["index"] for g in tournament.games] == list(range(6))
    write_results(tournament, tmp_path)
    document = _check_results(tmp_path, 6)
    # the same seed plays the same games in one process
    serial = run_tournament(toy_config(6, workers=1))
    strip = ("duration_s", "think_seconds")
    assert [{k: v for k, v in g.items() if k not in strip} for g in serial.games] == [
        {k: v for k, v in g.items() if k not in strip} for g in document["games"]
    ]


@pytest.mark.parametrize("workers", [1, 2])
def test_an_interrupted_tournament_keeps_the_finished_games(tmp_path: Path, workers: int) -> None:
    seen: list[GameSummary] = []

    def stop_after_three(summary: GameSummary) -> None:
        seen.append(summary)
        if len(seen) == 3:
            raise KeyboardInterrupt

    tournament = run_tournament(toy_config(40, workers=workers), stop_after_three)
    assert tournament.interrupted
    assert len(tournament.games) == 3
    write_results(tournament, tmp_path)
    document = _check_results(tmp_path, 3)
    assert document["interrupted"] and document["games_requested"] == 40
    assert "interrupted" in (tmp_path / "report.md").read_text()


def test_the_report_can_be_rebuilt_and_survives_no_games(tmp_path: Path) -> None:
    tournament = run_tournament(toy_config(2))
    write_results(tournament, tmp_path)
    document = json.loads((tmp_path / "results.json").read_text())
    document["games"] = []
    write_report(document, tmp_path / "empty")
    assert "nothing to report" in (tmp_path / "empty" / "report.md").read_text()


def test_the_simulate_command(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "sim"
    args = ["simulate", "toy_duel", "--import", "tests.core.toy_game"]
    result = runner.invoke(
        app, [*args, "--agents", "ismcts:iters=20,random", "--games", "4", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    _check_results(out, 4)
    result = runner.invoke(app, [*args, "--agents", "random,nobody", "--out", str(out)])
    assert result.exit_code == 2 and "unknown agent" in result.output
    result = runner.invoke(app, [*args, "--agents", "random,random", "--set", "max_card=99"])
    assert result.exit_code == 2 and "max_card" in result.output


def test_a_board_tournament_reports_points_and_unit_types(tmp_path: Path) -> None:
    config = prepare(TournamentConfig("board", ("heuristic", "random"), 2, seed=1))
    tournament = run_tournament(config)
    write_results(tournament, tmp_path)
    document = _check_results(tmp_path, 2)
    stats = document["games"][0]["stats"]
    assert stats["points_over_time"][0] == [0, 0]
    final = stats["points_over_time"][-1]
    for winner in document["games"][0]["winners"]:
        assert final[winner] == max(final)
    assert any("fighter" in seat for seat in stats["unit_types"])
    report = (tmp_path / "report.md").read_text()
    for png in ["points.png", "unit_types.png", "action_kinds.png"]:
        assert (tmp_path / png).stat().st_size > 1000 and f"({png})" in report
    # three agents: a three-seat board game, seats rotating
    config = prepare(TournamentConfig("board", ("heuristic", "random", "random"), 3, seed=1))
    assert config.params["num_players"] == 3
    assert {task.labels[0] for task in schedule(config)} == set(config.labels)


# ------------------------------------------------------------------ variants compared
def test_compare_crosses_settings_and_plays_the_same_seeds(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "compare"
    result = runner.invoke(
        app,
        [
            "simulate", "cards", "--agents", "heuristic,random", "--games", "4",
            "--compare", "tens_equal=false,true", "--compare", "dealer=0,1", "--out", str(out),
        ],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    document = json.loads((out / "results.json").read_text())
    labels = [v["label"] for v in document["variants"]]
    assert labels == [
        "tens_equal=false dealer=0",
        "tens_equal=false dealer=1",
        "tens_equal=true dealer=0",
        "tens_equal=true dealer=1",
    ]
    seeds = [[g["seed"] for g in v["games"]] for v in document["variants"]]
    assert all(s == seeds[0] for s in seeds) and len(seeds[0]) == 4
    for variant in document["variants"]:
        assert variant["params"]["tens_equal"] == variant["setting"]["tens_equal"]
        assert {g["variant"] for g in variant["games"]} == {variant["label"]}
        assert (out / folder_name(variant["label"]) / "report.md").exists()
    report = (out / "report.md").read_text()
    assert "| 4 - 1 |" in report and "| tie-break rounds per game |" in report
    for png in ["win_rate.png", "turn_order.png", "game_length.png", "facts.png"]:
        assert (out / png).stat().st_size > 1000 and f"({png})" in report
    # the dealer moves first: the turn order follows the setting
    first = document["variants"][1]["games"][0]["stats"]["turn_order"]
    assert first == [1, 0]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--compare", "tens_equal"], "is not NAME=VALUE1,VALUE2"),
        (["--compare", "tens_equal="], "is not NAME=VALUE1,VALUE2"),
        (["--compare", "jokers=3,3"], "names a value twice"),
        (["--compare", "jokers=2,3", "--compare", "jokers=2"], "already set by --compare"),
        (["--compare", "jokers=2,3", "--set", "jokers=2"], "already set by --set"),
        (["--compare", "jokers=2,5"], "jokers"),
        (["--compare", "nonsense=1,2"], "nonsense"),
    ],
)
def test_compare_refuses_bad_settings(options: list[str], message: str) -> None:
    result = CliRunner().invoke(
        app, ["simulate", "cards", "--agents", "random,random", "--games", "1", *options]
    )
    assert result.exit_code == 2 and message in plain(result.output)
    assert result.output.count("Error") == 1 and "Traceback" not in result.output


def test_an_interrupted_comparison_keeps_matching_games(tmp_path: Path) -> None:
    seen: list[GameSummary] = []

    def stop_after_five(summary: GameSummary) -> None:
        seen.append(summary)
        if len(seen) == 5:
            raise KeyboardInterrupt

    variants = {
        label: prepare(TournamentConfig("cards", ("heuristic", "random"), 20, params=setting))
        for label, setting in (("a", {"tens_equal": False}), ("b", {"tens_equal": True}))
    }
    tournaments = run_comparison(variants, stop_after_five)
    assert all(t.interrupted for t in tournaments.values())
    # game i of every variant is scheduled before game i + 1 of any
    assert [len(tournaments[k].games) for k in "ab"] == [3, 2]
    settings = {"a": {"tens_equal": False}, "b": {"tens_equal": True}}
    document = write_comparison(tournaments, settings, tmp_path)
    assert document["interrupted"]
    report = (tmp_path / "report.md").read_text()
    assert "interrupted" in report and "Games finished per variant: 3, 2 of 20" in report
    # the report is rebuilt from the file alone
    rebuilt = json.loads((tmp_path / "results.json").read_text())
    write_comparison_report(rebuilt, tmp_path / "again")
    assert (tmp_path / "again" / "report.md").read_text() == report
