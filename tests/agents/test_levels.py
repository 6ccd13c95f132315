"""Named computer levels: each one a playable agent and budget, ordered, measured."""

from __future__ import annotations

import pytest

from koth.agents.levels import LEVEL_KEYS, TITLES, level, level_of_spec, levels_for, strongest
from koth.agents.registry import check_spec
from koth.core.errors import InvalidParamsError
from koth.core.registry import load_game

GAMES = ("cards", "board")


@pytest.mark.parametrize("game", GAMES)
def test_every_level_plays_its_game_and_is_measured_against_the_level_below(game: str) -> None:
    found = levels_for(game)
    assert [lv.key for lv in found] == list(LEVEL_KEYS)
    rules = load_game(game)
    for below, lv in zip((None, *found), found, strict=False):
        check_spec(lv.spec, rules)
        assert lv.game == game and lv.title == TITLES[lv.key] and lv.summary.endswith(".")
        if below is None:
            assert lv.measured is None  # the weakest has nothing below it
            continue
        assert lv.measured is not None and lv.measured.opponent == below.key
        assert lv.measured.games > 0 and 0 <= lv.measured.wins <= lv.measured.games
    # the levels that search are budgeted in iterations, not seconds (machine-independent)
    assert [lv.iterations for lv in found][2:] == sorted(lv.iterations or 0 for lv in found[2:])
    assert all("seconds" not in lv.spec for lv in found)
    assert strongest(game) == found[-1]


def test_levels_are_found_by_key_and_by_spec() -> None:
    assert level("cards", "strong").spec == "ismcts:iters=300"
    assert level("cards", "strong").agent == "ismcts" and level("cards", "strong").iterations == 300
    assert level("board", "beginner").iterations is None
    assert level_of_spec("board", "learned:iters=1000") == level("board", "expert")
    assert level("board", "expert").agent == "learned"  # the strongest there (docs/agents.md)
    assert level_of_spec("cards", " ISMCTS:iters=300 ") == level("cards", "strong")
    assert level_of_spec("cards", "ismcts:iters=301") is None
    capped = "ismcts:iters=300:early=0:seconds=5"  # an analysis agent, capped by the server
    assert level_of_spec("cards", capped) is None
    assert level_of_spec("cards", capped, ignore=("seconds", "early")) == level("cards", "strong")
    assert level_of_spec("cards", "nonsense:") is None
    assert levels_for("toy_duel") == () and strongest("toy_duel") is None
    with pytest.raises(InvalidParamsError, match=r"no level 'grandmaster'.*beginner, casual"):
        level("cards", "grandmaster")
    with pytest.raises(InvalidParamsError, match=r"toy_duel game has no level 'strong'.*none"):
        level("toy_duel", "strong")
