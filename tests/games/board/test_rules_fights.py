"""Scenario tests for rules B10-B14 of docs/rules/board.md (fights, pushes, alliances,
turning)."""

from __future__ import annotations

import pytest

from koth.core.errors import IllegalActionError
from koth.core.state import GameState
from koth.games.board import BoardGame, Phase
from tests.games.board.helpers import code_at, legal, make_state, play
from tests.games.board.test_rules_board import moves_of

G2 = BoardGame()
G3 = BoardGame(num_players=3)


def test_b10_runners_never_enter_or_pass_enemy_fighters_and_blockers() -> None:
    free = make_state(G2, units={(0, "2.0"): "R1"}, dice={0: (3,)})
    assert {"2.1", "2.2"} <= moves_of(G2, free, "runner", "2.0")
    blocked = make_state(
        G2, units={(0, "2.0"): "R1", (1, "2.1"): "F1", (1, "1.0"): "R1"}, dice={0: (3,)}
    )
    reach = moves_of(G2, blocked, "runner", "2.0")
    assert "2.1" not in reach and "2.2" not in reach and "1.0" in reach
    with pytest.raises(IllegalActionError, match="B10"):
        play(G2, blocked, "move runner 2.0>2.1")


@pytest.mark.parametrize(
    ("blocked_by_own", "own", "reach_2_1", "reach_2_2"),
    [
        (True, "B1", False, False),  # B10 by default: any blocker stops a runner
        (True, "F1", False, False),  # ... and any fighter
        (True, "R1", True, True),  # runners never stop runners
        (False, "B1", True, True),  # the option: own units neither stop nor block
        (False, "F1", True, True),
    ],
)
def test_b10_runners_are_stopped_by_any_fighter_or_blocker_by_default(
    blocked_by_own: bool, own: str, reach_2_1: bool, reach_2_2: bool
) -> None:
    game = BoardGame(runners_blocked_by_own=blocked_by_own)
    state = make_state(game, units={(0, "2.0"): "R1", (0, "2.1"): own}, dice={0: (3,)})
    reach = moves_of(game, state, "runner", "2.0")
    assert ("2.1" in reach) is reach_2_1 and ("2.2" in reach) is reach_2_2
    if blocked_by_own and own != "R1":
        with pytest.raises(IllegalActionError, match="B10"):
            play(game, state, "move runner 2.0>2.1")


def test_b10_the_default_is_the_text_reading() -> None:
    assert BoardGame().params.runners_blocked_by_own is True


def test_b10_1_own_area_stays_open_and_pushed_runners_land_anywhere() -> None:
    game = BoardGame(runners_blocked_by_own=True)
    state = make_state(game, units={(0, "1.0"): "R1", (0, "A1"): "F2"}, dice={0: (3,)})
    assert "A1" in moves_of(game, state, "runner", "1.0")
    push = make_state(
        G2, units={(0, "2.1"): "B1", (0, "1.2"): "F1", (1, "2.2"): "R1"}, dice={0: (3,)}
    )
    after = play(G2, push, "move blocker 2.1>2.2")
    assert code_at(after, 1, "1.2") == "R1" and code_at(after, 0, "1.2") == "F1"


def test_b11_fighter_vs_fighter_both_die() -> None:
    state = make_state(G2, units={(0, "2.1"): "F1", (1, "2.2"): "F2"}, dice={0: (3,)})
    after = play(G2, state, "move fighter 2.1>2.2")
    assert code_at(after, 0, "2.1") == "" and code_at(after, 0, "2.2") == ""
    assert code_at(after, 1, "2.2") == "F1" and after.hand[1] == 5 and after.hand[4] == 4


def test_b11_fighter_vs_runners_kills_all_and_stays() -> None:
    state = make_state(G2, units={(0, "2.1"): "F1", (1, "2.2"): "R2"}, dice={0: (3,)})
    after = play(G2, state, "move fighter 2.1>2.2")
    assert code_at(after, 0, "2.2") == "F1" and code_at(after, 1, "2.2") == ""
    assert after.hand[3] == 2


def test_b11_fighters_are_fought_before_runners() -> None:
    state = make_state(
        G3, units={(0, "2.1"): "F1", (1, "2.2"): "F1", (2, "2.2"): "R1"}, dice={0: (3,)}
    )
    after = play(G3, state, "move fighter 2.1>2.2")
    assert code_at(after, 1, "2.2") == "" and code_at(after, 2, "2.2") == "R1"


def test_b11_a_single_fighter_never_enters_a_blocker_tile() -> None:
    state = make_state(G2, units={(0, "2.1"): "F1", (1, "2.2"): "B1"}, dice={0: (3,)})
    assert "2.2" not in moves_of(G2, state, "fighter", "2.1")
    with pytest.raises(IllegalActionError, match="B11"):
        play(G2, state, "move fighter 2.1>2.2")


def test_b11_1_stacking_applies_even_when_the_attacker_dies() -> None:
    state = make_state(
        G2, units={(0, "4.0"): "F1", (0, "4.1"): "R2", (1, "4.1"): "F1"}, dice={0: (3,)}
    )
    assert "4.1" not in moves_of(G2, state, "fighter", "4.0")


def test_b11_2_two_fighters_assault_a_blocker() -> None:
    state = make_state(
        G2, units={(0, "2.1"): "F1", (0, "2.3"): "F1", (1, "2.2"): "R1B1"}, dice={0: (3, 4)}
    )
    assert "attack 2.2 lose 2.1 keep 2.3" in legal(G2, state)
    after = play(G2, state, "attack 2.2 lose 2.1 keep 2.3")
    assert code_at(after, 0, "2.2") == "F1" and code_at(after, 1, "2.2") == ""
    assert after.hand[3:] == (2, 5, 2) and after.hand[1] == 4
    assert after.active() == 1  # both move actions are spent


def test_b11_2_survivor_stays_when_another_blocker_remains() -> None:
    state = make_state(G2, units={(0, "2.1"): "F2", (1, "2.2"): "B2"}, dice={0: (3, 5, 6)})
    actions = legal(G2, state)
    assert "attack 2.2 lose 2.1 keep 2.1 by move+pair" in actions
    after = play(G2, state, "attack 2.2 lose 2.1 keep 2.1 by move+pair")
    assert code_at(after, 0, "2.1") == "F1" and code_at(after, 1, "2.2") == "B1"


def test_b11_2_assault_needs_both_actions_of_the_turn() -> None:
    state = make_state(
        G2,
        units={(0, "2.1"): "F1", (0, "2.3"): "F1", (1, "2.2"): "B1"},
        dice={0: (3, 4)},
        slots=1,
    )
    assert not any(a.startswith("attack") for a in legal(G2, state))
    with pytest.raises(IllegalActionError, match="B11"):
        play(G2, state, "attack 2.2 lose 2.1 keep 2.3")


def test_b12_blocker_pushes_runners_one_ring_outward() -> None:
    state = make_state(G2, units={(0, "3.1"): "B1", (1, "3.2"): "R2"}, dice={0: (3,)})
    after = play(G2, state, "move blocker 3.1>3.2")
    assert code_at(after, 1, "2.2") == "R2" and code_at(after, 0, "3.2") == "B1"


def test_b12_push_from_ring_1_goes_where_the_blocker_came_from() -> None:
    state = make_state(G2, units={(0, "2.1"): "B1", (1, "1.1"): "R1"}, dice={0: (3,)})
    after = play(G2, state, "move blocker 2.1>1.1")
    assert code_at(after, 1, "2.1") == "R1"


def test_b12_pushed_runner_without_room_dies() -> None:
    state = make_state(
        G2, units={(0, "3.0"): "B1", (1, "3.1"): "R1", (1, "2.1"): "F4"}, dice={0: (3,)}
    )
    after = play(G2, state, "move blocker 3.0>3.1")
    assert code_at(after, 1, "2.1") == "F4" and after.hand[3] == 2


def test_b12_blockers_never_enter_enemy_fighter_tiles() -> None:
    state = make_state(G2, units={(0, "2.1"): "B1", (1, "2.2"): "F1"}, dice={0: (3,)})
    assert "2.2" not in moves_of(G2, state, "blocker", "2.1")
    with pytest.raises(IllegalActionError, match="B12"):
        play(G2, state, "move blocker 2.1>2.2")


def test_b12_1_push_from_the_center_goes_to_the_blockers_origin() -> None:
    state = make_state(G2, units={(0, "4.0"): "B1", (1, "C"): "R1"}, dice={0: (3,)})
    after = play(G2, state, "move blocker 4.0>C")
    assert code_at(after, 1, "4.0") == "R1" and code_at(after, 0, "C") == "B1"


def test_b12_2_push_into_the_blockers_area_kills() -> None:
    state = make_state(G2, units={(0, "A1"): "B1", (1, "1.0"): "R1"}, dice={0: (3,)})
    after = play(G2, state, "move blocker A1>1.0")
    assert after.hand[3] == 2 and code_at(after, 1, "A1") == ""


def test_b12_3_option_blockers_never_join_an_enemy_blocker() -> None:
    game = BoardGame(blockers_avoid_blockers=True)
    state = make_state(game, units={(0, "2.1"): "B1", (1, "2.2"): "B1"}, dice={0: (3,)})
    assert "2.2" not in moves_of(game, state, "blocker", "2.1")
    with pytest.raises(IllegalActionError, match=r"B12\.3"):
        play(game, state, "move blocker 2.1>2.2")


@pytest.mark.parametrize(
    ("enemy", "joined", "pushed"),
    [
        ("B1", True, ""),  # B12.3: the blocker joins the enemy blocker; nobody fights
        ("B1R1", True, "R1"),  # B12: the enemy runners are pushed outward all the same
        ("B2R2", True, "R2"),
        ("B1F1", False, ""),  # B12: never onto an enemy fighter, blocker or not
    ],
)
def test_b12_3_blockers_may_join_an_enemy_blocker_by_default(
    enemy: str, joined: bool, pushed: str
) -> None:
    state = make_state(G2, units={(0, "3.1"): "B1", (1, "3.2"): enemy}, dice={0: (3,)})
    assert ("3.2" in moves_of(G2, state, "blocker", "3.1")) is joined
    if not joined:
        return
    after = play(G2, state, "move blocker 3.1>3.2")
    assert code_at(after, 0, "3.2") == "B1"
    assert code_at(after, 1, "3.2") == enemy[:2]  # the enemy blocker stays, unharmed
    assert code_at(after, 1, "2.2") == pushed
    assert G2.legal_actions(after, 1)  # the shared tile is a legal position


@pytest.mark.parametrize(
    ("order", "killed", "spared"),
    [
        ((0, 1, 2), 1, 2),  # seat 1 comes first after the attacker
        ((0, 2, 1), 2, 1),  # seat 2 does
    ],
)
def test_b12_4_an_assault_on_a_shared_tile_kills_the_next_enemy_in_turn_order(
    order: tuple[int, ...], killed: int, spared: int
) -> None:
    from koth.games.board.state import evolve

    state = make_state(
        G3,
        units={(0, "2.1"): "F1", (0, "2.3"): "F1", (1, "2.2"): "B1", (2, "2.2"): "B1"},
        dice={0: (3, 4)},
    )
    state = evolve(state, order=order)
    listed = [str(a) for a in G3.legal_actions(state, 0)]
    assert listed.count("attack 2.2 lose 2.1 keep 2.3") == 1
    after = play(G3, state, "attack 2.2 lose 2.1 keep 2.3")
    assert code_at(after, killed, "2.2") == "" and code_at(after, spared, "2.2") == "B1"
    # another enemy blocker still holds the tile: the survivor stays where it was (B11.2)
    assert code_at(after, 0, "2.3") == "F1" and code_at(after, 0, "2.2") == ""


def test_b12_4_an_assault_next_to_an_own_blocker_moves_in() -> None:
    state = make_state(
        G2,
        units={(0, "2.1"): "F1", (0, "2.3"): "F1", (0, "2.2"): "B1", (1, "2.2"): "B1"},
        dice={0: (3, 4)},
    )
    after = play(G2, state, "attack 2.2 lose 2.1 keep 2.3")
    assert code_at(after, 1, "2.2") == "" and code_at(after, 0, "2.2") == "F1B1"


def alliance_state() -> object:
    return make_state(
        G3,
        units={(0, "2.1"): "F1", (1, "2.3"): "F1", (2, "2.2"): "B1"},
        dice={0: (3, 1), 1: (1,), 2: (1,)},
    )


@pytest.mark.parametrize(("face", "dead", "survivor"), [(1, 0, 1), (3, 0, 1), (4, 1, 0), (6, 1, 0)])
def test_b13_alliance_accepted_die_decides_who_dies(face: int, dead: int, survivor: int) -> None:
    gs = GameState(G3, alliance_state())
    offer = "ally 2.2 from 2.1 with 1 from 2.3"
    assert offer in {str(a) for a in gs.legal_actions()}
    gs.apply_action(offer)
    assert gs.current_player() == 1 and {str(a) for a in gs.legal_actions()} == {
        "accept",
        "decline",
    }
    gs.apply_action("accept")
    assert gs.is_chance_node() and gs.data.dice[0] == (1,)
    assert code_at(gs.data, 2, "2.2") == ""  # the blocker died
    gs.apply_action(f"roll {face}")
    origin = {0: "2.1", 1: "2.3"}
    assert code_at(gs.data, dead, origin[dead]) == ""
    assert code_at(gs.data, survivor, "2.2") == "F1"
    assert gs.data.phase is Phase.TURN and gs.current_player() == 0 and gs.data.slots == 1


def test_b13_1_a_declined_offer_costs_nothing_and_is_not_repeated() -> None:
    gs = GameState(G3, alliance_state())
    gs.apply_action("ally 2.2 from 2.1 with 1 from 2.3")
    gs.apply_action("decline")
    assert gs.current_player() == 0 and gs.data.dice[0] == (1, 3) and gs.data.slots == 0
    assert not any(str(a).startswith("ally") for a in gs.legal_actions())
    with pytest.raises(IllegalActionError, match="B13"):
        gs.apply_action("ally 2.2 from 2.1 with 1 from 2.3")


def test_b14_turn_ring_left_moves_terrain_and_units() -> None:
    state = make_state(G2, units={(0, "2.0"): "F1", (1, "2.3"): "R1"}, dice={0: (5,)})
    after = play(G2, state, "turn ring2 left")
    assert code_at(after, 0, "2.6") == "F1" and code_at(after, 1, "2.2") == "R1"
    assert after.terrain[7:14] == state.terrain[8:14] + state.terrain[7:8]


def test_b14_move_area_and_swap_terrain() -> None:
    state = make_state(G2, units={(0, "A1"): "F2", (0, "2.2"): "B1"}, dice={0: (5, 6)})
    actions = legal(G2, state)
    assert {f"area 1.{i}" for i in (1, 3, 4, 5, 6)} <= actions
    assert "area 1.2" not in actions and "area 1.0" not in actions
    assert "swap 2.2 2.3" not in actions  # the blocker would stand on normal terrain
    assert "swap 2.1 2.2" not in actions  # both light
    assert "swap 1.2 1.3" in actions
    with pytest.raises(IllegalActionError, match="B14"):
        play(G2, state, "swap 2.2 2.3")


def test_b14_1_right_turns_raise_the_index() -> None:
    state = make_state(G2, units={(0, "3.6"): "R1"}, dice={0: (5,)})
    after = play(G2, state, "turn ring3 right")
    assert code_at(after, 0, "3.0") == "R1"


def test_b14_2_swap_needs_different_terrain_and_neighbours() -> None:
    state = make_state(G2, dice={0: (5,)})
    swaps = {a for a in legal(G2, state) if a.startswith("swap")}
    assert "swap 1.0 1.1" not in swaps and "swap 1.2 1.3" in swaps and "swap 1.3 2.3" not in swaps
    after = play(G2, state, "swap 1.2 1.3")
    assert after.terrain[2:4] == (1, 0)
    with pytest.raises(IllegalActionError, match="B14"):
        play(G2, state, "swap 1.0 1.1")


def test_b14_3_area_moves_with_its_units_to_a_free_outer_tile() -> None:
    state = make_state(G2, units={(0, "A1"): "F2"}, dice={0: (5, 3)})
    after = play(G2, state, "area 1.5")
    assert after.area_pos[0] == 5 and code_at(after, 0, "A1") == "F2"
    assert moves_of(G2, after, "fighter", "A1") == set()  # 1.5 is difficult: no fighter
    after = play(G2, state, "area 1.1")
    assert moves_of(G2, after, "fighter", "A1") == {"1.1"}
