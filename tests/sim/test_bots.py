"""koth's agents (the learned one above all) inside every adapter: OpenSpiel bots,
PettingZoo policies, ``koth simulate``, the web app's computer seats, the analysis."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from koth.analysis.engine import analyse_record, analysis_spec
from koth.cli import app
from koth.core.registry import load_game
from koth.server.games.agents import agent_names, check_seat_agent, make_policy
from tests.agents.test_learned import VARIANTS, _ids
from tests.analysis.records import cards_apex_given_away

pyspiel = pytest.importorskip("pyspiel")

from koth.interop.openspiel import openspiel_game  # noqa: E402
from koth.interop.pettingzoo import raw_env  # noqa: E402
from koth.sim.bots import KothAgentBot, KothAgentPolicy  # noqa: E402


@pytest.mark.parametrize("case", VARIANTS, ids=_ids)
@pytest.mark.parametrize("spec", ["learned:search=0", "learned:iters=4"])
def test_the_learned_agent_as_an_openspiel_bot(case: tuple[str, dict[str, Any]], spec: str) -> None:
    name, params = case
    game = load_game(name, params)
    os_game = openspiel_game(game)
    bots = [KothAgentBot(spec, game, p, seed=2) for p in range(game.num_players)]
    state = os_game.new_initial_state()
    rng = random.Random(2)
    decisions = 0
    while not state.is_terminal() and decisions < 30:
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
        elif state.is_simultaneous_node():
            joint = []
            for p in range(game.num_players):
                legal = state.legal_actions(p)
                joint.append(bots[p].step(state) if len(legal) > 1 or legal else legal[0])
            for p, a in enumerate(joint):
                assert a in state.legal_actions(p)
            state.apply_actions(joint)
            decisions += 1
        else:
            player = state.current_player()
            action = bots[player].step(state)
            assert action in state.legal_actions(player)
            state.apply_action(action)
            decisions += 1
    assert decisions


@pytest.mark.parametrize("case", VARIANTS, ids=_ids)
def test_the_learned_agent_as_a_pettingzoo_policy(case: tuple[str, dict[str, Any]]) -> None:
    name, params = case
    env = raw_env(name, **params)
    env.reset(seed=4)
    policy = KothAgentPolicy("learned:search=0", seed=4)
    steps = 0
    for _ in env.agent_iter(max_iter=60):
        _, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        env.step(policy(env))  # the environment refuses an illegal id
        steps += 1
    assert steps


def test_koth_simulate_plays_the_learned_agent(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app,
        [
            "simulate",
            "cards",
            "--agents",
            "learned:search=0,random",
            "--games",
            "2",
            "--seed",
            "1",
            "--out",
            str(tmp_path),
        ],
    )
    assert result.exit_code == 0, result.output
    assert (tmp_path / "results.json").exists()


@pytest.mark.parametrize("name", ["cards", "board"])
def test_the_web_apps_computer_seats_offer_and_play_learned(name: str) -> None:
    game = load_game(name)
    assert "learned" in agent_names(name)
    check_seat_agent("learned", 20, game, 5000)
    policy = make_policy("learned", 5, game, 0, seed=1, max_seconds=2.0)
    state = game.new_initial_state()
    rng = random.Random(1)
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
    if 0 in state.acting_players() and not state.is_simultaneous_node():
        assert policy(state, 0, rng) in state.legal_actions(0)


def test_the_analysis_searches_with_the_learned_agent() -> None:
    assert analysis_spec("learned:iters=10").endswith("early=0")
    with pytest.raises(Exception, match="analysis needs a search agent"):
        analysis_spec("learned:search=0")
    record, _ = cards_apex_given_away()
    analysis = analyse_record(record, seats=[1], agent="learned:iters=10", seed=3)
    (seat,) = analysis.seats
    assert seat.decisions and all(d.options for d in seat.decisions)
