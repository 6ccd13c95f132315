"""Scenario tests for rules B1-B9 of docs/rules/board.md."""

from __future__ import annotations

import pytest

from koth.core.errors import IllegalActionError
from koth.core.state import GameState
from koth.games.board import BoardGame, Phase
from koth.games.board.tables import ARRANGEMENTS, CENTER, NEIGHBOURS, RING_TERRAIN
from tests.games.board.helpers import code_at, legal, loc, make_state, play

G2 = BoardGame()


def moves_of(game: BoardGame, state: object, unit: str, src: str) -> set[str]:
    prefix = f"move {unit} {src}>"
    return {
        a.split(">")[1]
        for a in legal(game, state, state.active())  # type: ignore[attr-defined]
        if a.startswith(prefix) and " by " not in a
    }


def test_b1_orthogonal_neighbours_only() -> None:
    state = make_state(G2, units={(0, "2.1"): "F1"}, dice={0: (3,)})
    assert moves_of(G2, state, "fighter", "2.1") == {"2.0", "2.2", "1.1", "3.1"}


@pytest.mark.parametrize(
    ("tile", "expected"),
    [
        ("1.0", {"1.6", "1.1", "2.0"}),
        ("2.3", {"2.2", "2.4", "1.3", "3.3"}),
        ("4.6", {"4.5", "4.0", "3.6", "C"}),
        ("C", {f"4.{i}" for i in range(7)}),
    ],
)
def test_b1_neighbour_table(tile: str, expected: set[str]) -> None:
    from koth.games.board.tables import LOC_NAMES

    assert {LOC_NAMES[x] for x in NEIGHBOURS[loc(tile)]} == expected


def test_b1_1_indices_are_fixed_positions_rotation_moves_contents() -> None:
    state = make_state(G2, units={(0, "1.0"): "R1", (1, "2.3"): "F1"}, dice={0: (5, 3)})
    after = play(G2, state, "turn ring1 right")
    assert code_at(after, 0, "1.1") == "R1" and code_at(after, 0, "1.0") == ""
    assert after.area_pos == state.area_pos  # areas stay at their outer positions
    assert after.terrain[loc("1.1")] == state.terrain[loc("1.0")]
    # neighbours follow positions: the runner on 1.1 now reaches 2.1
    assert "2.1" in moves_of(G2, after, "runner", "1.1")


def test_b2_terrain_chance_per_ring() -> None:
    gs = G2.new_initial_state()
    outcomes = gs.chance_outcomes()
    assert len(outcomes) == 210 == len(ARRANGEMENTS)
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    assert all(sorted(a.arrangement) == sorted(RING_TERRAIN) for a, _ in outcomes)
    for ring in range(1, 5):
        gs.apply_action(f"terrain ring{ring} DDNNLLL")
    assert gs.data.phase is Phase.DRAW
    assert gs.data.terrain[:7] == (2, 2, 1, 1, 0, 0, 0)


def setup(game: BoardGame, areas: str, places: list[str]) -> GameState:  # type: ignore[type-arg]
    gs = game.new_initial_state()
    for ring in range(1, 5):
        gs.apply_action(f"terrain ring{ring} LLLNNDD")
    gs.apply_action(f"areas {areas}")
    for tile in places:
        gs.apply_action(f"place {tile}")
    return gs


def test_b3_areas_drawn_then_placed_highest_first() -> None:
    gs = setup(BoardGame(num_players=3), "2,3,1", [])
    assert gs.current_player() == 1  # seat 1 drew area 3
    gs.apply_action("place 1.3")
    assert gs.current_player() == 0  # area 2 next
    assert "place 1.3" not in {str(a) for a in gs.legal_actions()}
    with pytest.raises(IllegalActionError, match="B3"):
        gs.apply_action("place 1.3")
    gs.apply_action("place 1.5")
    assert gs.current_player() == 2
    gs.apply_action("place 1.0")
    assert gs.data.phase is Phase.ROLL and gs.data.order == (2, 0, 1)


def test_b3_draw_is_a_uniform_permutation() -> None:
    gs = BoardGame(num_players=4).new_initial_state()
    for ring in range(1, 5):
        gs.apply_action(f"terrain ring{ring} LLLNNDD")
    outcomes = gs.chance_outcomes()
    assert len(outcomes) == 24 and all(p == pytest.approx(1 / 24) for _, p in outcomes)


def test_b3_enemy_units_never_enter_an_area() -> None:
    # area A1 (player 0) touches 1.0; player 1's runner stands on 1.0
    state = make_state(G2, units={(1, "1.0"): "R1", (0, "2.2"): "F1"}, dice={1: (3,)}, turn=1)
    assert "A1" not in moves_of(G2, state, "runner", "1.0")
    with pytest.raises(IllegalActionError, match="B3"):
        play(G2, state, "move runner 1.0>A1")


def test_b3_1_own_area_is_entered_and_left_through_its_tile() -> None:
    state = make_state(G2, units={(0, "A1"): "F1", (0, "1.0"): "F1"}, dice={0: (3, 4)})
    assert moves_of(G2, state, "fighter", "A1") == {"1.0"}
    assert "A1" in moves_of(G2, state, "fighter", "1.0")


def test_b4_units_start_in_hand_and_dead_units_return() -> None:
    assert G2.initial().hand == (2, 5, 2, 2, 5, 2)
    state = make_state(G2, units={(0, "2.1"): "F1", (1, "2.2"): "F1"}, dice={0: (3,)})
    after = play(G2, state, "move fighter 2.1>2.2")
    assert after.hand == (2, 5, 2, 2, 5, 2)
    assert G2.invariant_violations(after) == []


@pytest.mark.parametrize(
    ("target", "present", "allowed"),
    [
        ("1.1", "F4", True),
        ("1.1", "R1F4", False),
        ("2.1", "F3", True),
        ("2.1", "F4", False),
        ("3.1", "F2", True),
        ("3.1", "F3", False),
        ("4.1", "F1", True),
        ("4.1", "F2", False),
    ],
)
def test_b5_stacking_limits_per_ring(target: str, present: str, allowed: bool) -> None:
    source = target[:2] + "0"
    state = make_state(G2, units={(0, target): present, (0, source): "F1"}, dice={0: (3,)})
    assert (target in moves_of(G2, state, "fighter", source)) is allowed
    if not allowed:
        with pytest.raises(IllegalActionError, match="B5"):
            play(G2, state, f"move fighter {source}>{target}")


def test_b5_center_holds_one_unit_per_player_and_area_is_unlimited() -> None:
    state = make_state(
        G2,
        units={(0, "C"): "R1", (0, "4.0"): "F1", (0, "1.0"): "F1", (0, "A1"): "F3B2"},
        dice={0: (3,)},
    )
    assert "C" not in moves_of(G2, state, "fighter", "4.0")
    assert "A1" in moves_of(G2, state, "fighter", "1.0")


def test_b6_every_player_rolls_four_public_dice_in_turn_order() -> None:
    gs = setup(G2, "2,1", ["1.3", "1.0"])
    assert gs.data.phase is Phase.ROLL and gs.data.round == 1
    outcomes = gs.chance_outcomes()
    assert [str(a) for a, _ in outcomes] == [f"roll {f}" for f in range(1, 7)]
    assert all(p == pytest.approx(1 / 6) for _, p in outcomes)
    for face in (1, 2, 3, 4, 5, 6, 1, 2):
        gs.apply_action(f"roll {face}")
    assert gs.data.dice == ((1, 2, 5, 6), (1, 2, 3, 4))
    assert gs.current_player() == 1  # seat 1 holds area 1 and starts
    assert "dice" in gs.view(0) and gs.view(0)["dice"] == [[1, 2, 5, 6], [1, 2, 3, 4]]


def test_b6_two_turns_per_player_per_round() -> None:
    state = make_state(G2, dice={0: (1, 1, 1, 1), 1: (1, 1, 1, 1)})
    seen = []
    gs = GameState(G2, state)
    while gs.data.phase is Phase.TURN:
        seen.append(gs.current_player())
        gs.apply_action("recruit fighter")
        gs.apply_action("recruit fighter")
    assert seen == [0, 1, 0, 1] and gs.data.phase is Phase.ROLL and gs.data.round == 5


@pytest.mark.parametrize(
    ("face", "kinds"),
    [
        (1, {"recruit"}),
        (2, {"recruit"}),
        (3, {"move"}),
        (4, {"move"}),
        (5, {"turn", "area", "swap"}),
        (6, {"turn", "area", "swap"}),
    ],
)
def test_b7_die_faces(face: int, kinds: set[str]) -> None:
    state = make_state(G2, units={(0, "2.1"): "F1"}, dice={0: (face,)})
    found = {a.split()[0] for a in legal(G2, state)} - {"end"}
    assert found == kinds


def test_b7_two_turning_dice_make_one_move_and_a_turn_may_use_three_dice() -> None:
    state = make_state(G2, units={(0, "2.1"): "F1"}, dice={0: (5, 6, 3, 1)})
    assert "move fighter 2.1>2.2 by pair" in legal(G2, state)
    after = play(G2, state, "move fighter 2.1>2.2 by pair", "move fighter 2.2>2.1")
    assert after.dice[0] == (1,) and after.active() == 1


def test_b7_1_first_turn_ended_early_drops_dice_of_the_players_choice() -> None:
    state = make_state(G2, units={(0, "2.1"): "F1"}, dice={0: (1, 3, 5, 5)})
    ends = {a for a in legal(G2, state) if a.startswith("end")}
    assert ends == {
        "end drop recruit+move",
        "end drop recruit+turn",
        "end drop move+turn",
        "end drop turn+turn",
    }
    after = play(G2, state, "end drop turn+turn")
    assert after.dice[0] == (1, 3)
    one_used = play(G2, state, "move fighter 2.1>2.2")
    assert {a for a in legal(G2, one_used) if a.startswith("end")} == {
        "end drop recruit",
        "end drop turn",
    }


def test_b7_2_turn_ends_after_two_actions_and_an_empty_second_turn_is_skipped() -> None:
    state = make_state(G2, units={(0, "2.1"): "F1"}, dice={0: (5, 5, 6, 6), 1: (1, 1, 1, 1)})
    after = play(G2, state, "move fighter 2.1>2.2 by pair", "move fighter 2.2>2.1 by pair")
    assert after.active() == 1 and after.turn == 1
    after = play(G2, after, "recruit fighter", "recruit fighter")
    assert after.turn == 3 and after.active() == 1  # player 0's second turn was skipped


def test_b7_3_a_payment_spends_the_lowest_face_of_its_category() -> None:
    state = make_state(G2, units={(0, "2.1"): "F1"}, dice={0: (3, 4, 6, 6)})
    after = play(G2, state, "move fighter 2.1>2.2")
    assert after.dice[0] == (4, 6, 6)


def test_b7_4_recruit_die_moves_once_everything_is_recruited() -> None:
    everything = {(0, "A1"): "R2F5B1", (0, "2.1"): "B1"}
    state = make_state(G2, units=everything, dice={0: (1,)})
    assert "move blocker 2.1>2.2 by recruit" in legal(G2, state)
    partial = make_state(G2, units={(0, "2.1"): "B1"}, dice={0: (1,)})
    assert not any(" by recruit" in a for a in legal(G2, partial))


def test_b7_4_move_die_recruits_when_nothing_is_in_play() -> None:
    state = make_state(G2, dice={0: (3,)})
    assert legal(G2, state) >= {"recruit fighter by move", "recruit blocker by move"}
    some = make_state(G2, units={(0, "A1"): "F1"}, dice={0: (3,)})
    assert not any(a.endswith("by move") for a in legal(G2, some))


def test_b7_4_runners_in_hand_before_round_4_keep_recruit_dice_as_recruit_dice() -> None:
    state = make_state(G2, units={(0, "A1"): "F5B1", (0, "2.1"): "B1"}, dice={0: (1,)}, round_=2)
    assert not any("by recruit" in a for a in legal(G2, state))


@pytest.mark.parametrize(("round_", "allowed"), [(1, False), (3, False), (4, True), (9, True)])
def test_b8_runners_are_recruited_after_round_3(round_: int, allowed: bool) -> None:
    state = make_state(G2, dice={0: (1,)}, round_=round_)
    assert ("recruit runner" in legal(G2, state)) is allowed
    assert "recruit fighter" in legal(G2, state)
    if not allowed:
        with pytest.raises(IllegalActionError, match="B8"):
            play(G2, state, "recruit runner")


@pytest.mark.parametrize(("round_", "allowed"), [(1, False), (2, True), (5, True)])
def test_b8_runner_first_round_option(round_: int, allowed: bool) -> None:
    game = BoardGame(runner_first_round=2)
    state = make_state(game, dice={0: (1,)}, round_=round_)
    assert ("recruit runner" in legal(game, state)) is allowed
    if not allowed:
        with pytest.raises(IllegalActionError, match="from round 2 on"):
            play(game, state, "recruit runner")


def test_b8_recruit_puts_the_unit_in_the_own_area() -> None:
    after = play(G2, make_state(G2, dice={0: (1, 2)}), "recruit blocker")
    assert code_at(after, 0, "A1") == "B1" and after.hand[:3] == (2, 5, 1)


def test_b9_ranges_and_terrain() -> None:
    # ring 2: 2.0-2.2 light, 2.3-2.4 normal, 2.5-2.6 difficult
    state = make_state(
        G2, units={(0, "2.2"): "F1", (0, "2.1"): "B1", (0, "3.4"): "R1"}, dice={0: (3,)}
    )
    assert moves_of(G2, state, "fighter", "2.2") == {"2.1", "2.3", "1.2", "3.2"}
    assert moves_of(G2, state, "blocker", "2.1") == {"2.0", "2.2", "1.1", "3.1"}
    runner = moves_of(G2, state, "runner", "3.4")
    assert {"3.5", "3.6", "3.0", "C", "4.4", "2.4", "1.4", "4.1"} <= runner
    assert "1.1" not in runner


def test_b9_blocker_may_join_own_units_and_fighter_avoids_difficult() -> None:
    state = make_state(G2, units={(0, "2.4"): "F1"}, dice={0: (3,)})
    assert "2.5" not in moves_of(G2, state, "fighter", "2.4")
    with pytest.raises(IllegalActionError, match="B9"):
        play(G2, state, "move fighter 2.4>2.5")


def test_b9_range_options() -> None:
    game = BoardGame(fighter_range=2, blocker_range=3)
    state = make_state(game, units={(0, "2.1"): "F1", (0, "3.0"): "B1"}, dice={0: (3,)})
    assert {"2.3", "4.1", "1.2"} <= moves_of(game, state, "fighter", "2.1")
    assert {"3.2", "1.1", "4.2"} <= moves_of(game, state, "blocker", "3.0")


def test_b9_runner_range_option() -> None:
    reached = []
    for reach in (1, 2, 3, 4):
        game = BoardGame(runner_range=reach)
        state = make_state(game, units={(0, "3.4"): "R1"}, dice={0: (3,)})
        reached.append(moves_of(game, state, "runner", "3.4"))
    assert reached[0] == {"2.4", "3.3", "3.5", "4.4"}  # the neighbours only
    assert reached[0] < reached[1] < reached[2] < reached[3]  # each range reaches further
    default = make_state(G2, units={(0, "3.4"): "R1"}, dice={0: (3,)})
    assert reached[2] == moves_of(G2, default, "runner", "3.4")  # 3 is the default


@pytest.mark.parametrize(("first", "second"), [("4.0", "4.1"), ("4.1", "4.2"), ("3.4", "3.5")])
def test_b9_runner_range_4_searches_from_each_runner_own_tile(first: str, second: str) -> None:
    """Two runners on neighbouring tiles, the one on the even index searched first: each
    gets the moves of its own tile (the searches are remembered by their arguments, and
    a range of 4 once shared one memo entry between an even tile and the next)."""
    game = BoardGame(runner_range=4)
    state = make_state(game, units={(0, first): "R1", (0, second): "R1"}, dice={0: (3,)})
    for src, other in ((first, second), (second, first)):
        reach = moves_of(game, state, "runner", src)
        assert src not in reach and other in reach
        alone = make_state(game, units={(0, src): "R1"}, dice={0: (3,)})
        assert reach == moves_of(game, alone, "runner", src)


def test_b9_1_longer_moves_pass_only_tiles_free_of_enemies() -> None:
    game = BoardGame(fighter_range=2)
    state = make_state(game, units={(0, "1.1"): "F1", (1, "1.2"): "R1"}, dice={0: (3,)})
    reach = moves_of(game, state, "fighter", "1.1")
    assert "1.2" in reach and "1.3" not in reach and "2.2" in reach  # 2.2 via 2.1


def test_b9_2_a_move_ends_in_the_own_area_without_passing_through() -> None:
    state = make_state(G2, units={(0, "1.1"): "R1"}, dice={0: (3,)})
    reach = moves_of(G2, state, "runner", "1.1")
    assert "A1" in reach and "A2" not in reach
    state = make_state(G2, units={(0, "A1"): "R1"}, dice={0: (3,)})
    assert moves_of(G2, state, "runner", "A1") == {
        "1.0",
        "1.1",
        "1.2",
        "1.6",
        "1.5",
        "2.0",
        "2.1",
        "2.6",
        "3.0",
    }


def test_b9_stacking_counts_only_where_the_move_ends() -> None:
    state = make_state(G2, units={(0, "4.0"): "R1", (0, "4.1"): "R1F1"}, dice={0: (3,)})
    assert "4.2" in moves_of(G2, state, "runner", "4.0")  # passes the full 4.1
    assert loc("C") == CENTER
