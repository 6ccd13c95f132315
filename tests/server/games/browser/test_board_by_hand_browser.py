"""Every board action played on the board itself, on a desktop (1280x800) and a phone
(390x844): recruit, move, swap, ring turns both ways, area move, assault, alliance offer
and its answer, placing the starting area and ending the turn with a chosen die to drop.
Each is a click on the board (a unit, a tile, a ring arrow, the recruit badge, the end
control: never the text list), then a preview on the board and a popover next to the
target, and only "Confirm" sends it. On the phone nothing is scrolled: every hotspot, the
popover and its buttons are on screen beside the board, and every tap circle of a unit is
at least 40 px."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Error as PlaywrightError

from koth.core.state import GameState
from koth.games.board.tables import LOC_NAMES
from tests.server.games.browser.board_positions import (
    Position,
    having,
    last_decision,
    store_position,
)
from tests.server.games.browser.conftest import PHONE, SCREENSHOTS, sync_api
from tests.server.live_server import LiveServer

VIEWPORTS = {"desktop": {"width": 1280, "height": 800}, "phone": PHONE}
MIN_TAP = 40


@pytest.fixture(params=list(VIEWPORTS))
def size(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def context(browser: Any, size: str) -> Iterator[Any]:
    ctx = browser.new_context(viewport=VIEWPORTS[size])
    try:
        yield ctx
    finally:
        ctx.close()


def turn_dice(count: int) -> Any:
    """The mover holds at least ``count`` turn dice (faces 5 and 6)."""

    def wanted(state: GameState[Any, Any], legal: list[str]) -> bool:
        dice = state.data.dice[state.current_player()]
        return sum(face >= 5 for face in dice) >= count

    return wanted


def both(*tests: Any) -> Any:
    return lambda state, legal: all(test(state, legal) for test in tests)


class Table:
    """One seat's page, clicked like a person would: only what is on screen, by mouse."""

    def __init__(self, context: Any, link: str, size: str) -> None:
        self.page = context.new_page()
        self.size = size
        self.errors: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.goto(link)
        self.page.wait_for_selector("#table svg.rings")
        # the table may be drawn again right after it opens (the live connection's first
        # state, the device's name sent once): scroll to the board as it then stands
        for attempt in range(20):
            try:
                self.page.locator(".board-play").scroll_into_view_if_needed()
                break
            except PlaywrightError as error:
                if "not attached" not in str(error) or attempt == 19:
                    raise

    @property
    def version(self) -> str:
        return str(self.page.locator("#table").get_attribute("data-version"))

    def tap(self, selector: str) -> None:
        """Click the middle of ``selector`` with the mouse; on the phone it must already
        be on screen (nothing scrolls away from the board to reach it)."""
        target = self.page.locator(selector).first
        # a live update may draw the table again while it is found: find it anew
        for attempt in range(20):
            target.wait_for(state="visible")
            try:
                if self.size != "phone":
                    target.scroll_into_view_if_needed()  # on a desktop a person scrolls to it
                box = target.bounding_box()
                break
            except PlaywrightError as error:
                if "not attached" not in str(error) or attempt == 19:
                    raise
        assert box, selector
        viewport = VIEWPORTS[self.size]
        if self.size == "phone":
            assert self.page.evaluate("window.scrollY") == 0, "the page scrolled"
            assert box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"], selector
            assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"], selector
        self.page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)

    def open(self, selector: str, text: str) -> None:
        """Tap the hotspot ``selector`` and pick the popover's option sending ``text``."""
        self.tap(selector)
        self.page.wait_for_selector("#board-popover")
        option = f"#board-popover .popover-option[data-action='{text}']"
        if self.page.locator(option).count():
            self.tap(option)

    def choose(self, text: str) -> None:
        """In the open popover, pick the option sending ``text`` (when there are several),
        check the preview is drawn and nothing is sent yet, then confirm."""
        page = self.page
        before = self.version
        page.wait_for_selector("#board-popover")
        option = page.locator(f"#board-popover .popover-option[data-action='{text}']")
        if option.count():
            self.tap(f"#board-popover .popover-option[data-action='{text}']")
        confirm = page.locator("#board-popover .popover-confirm")
        sync_api.expect(confirm).to_have_attribute("data-action", text)
        assert (
            page.locator("#table .preview-layer > *").count()
            + page.locator("#table .preview-ring, #table .die.forfeit").count()
            > 0
        ), f"no preview of {text}"
        assert self.version == before, "an action was sent before it was confirmed"
        label = str(confirm.get_attribute("title"))
        assert label and not label.startswith(text.split()[0] + " "), label  # worded
        self.tap("#board-popover .popover-confirm")
        sync_api.expect(page.locator("#table")).not_to_have_attribute("data-version", before)

    def shot(self, name: str) -> None:
        self.page.screenshot(path=str(SCREENSHOTS / f"{name}-{self.size}.png"))


def last_action(server: LiveServer, position: Position) -> str:
    return last_decision(server, position.game_id)


def seated(
    server: LiveServer, context: Any, size: str, wanted: Any, **options: Any
) -> tuple[Position, Table]:
    """A new game at a position ``wanted`` accepts, and the page of the seat to move."""
    position = store_position(server, wanted, **options)
    return position, Table(context, position.links[position.mover], size)


def commit(
    table: Table, server: LiveServer, position: Position, text: str, shot: str | None = None
) -> None:
    """Photograph the preview (when named), confirm it, check the server stored ``text``."""
    if shot:
        table.shot(shot)
    table.choose(text)
    assert last_action(server, position) == text


def legal_now(server: LiveServer, position: Position, seat: int) -> list[str]:
    token = position.links[seat].split("token=")[1]
    url = f"{server.url}/api/games/{position.game_id}"
    data = httpx.get(url, headers={"Authorization": f"Bearer {token}"}, timeout=10).json()
    return [a["text"] for a in data["legal"]]


def pick(legal: list[str] | tuple[str, ...], prefix: str, plain: bool = True) -> str:
    """The first legal action starting with ``prefix`` (paid the plain way if asked)."""
    found = [a for a in legal if a.startswith(prefix) and (not plain or " by " not in a)]
    assert found, f"no {prefix!r} in {legal}"
    return found[0]


def test_move_then_recruit_on_the_board(server: LiveServer, context: Any, size: str) -> None:
    position, table = seated(server, context, size, having("move", "recruit"))
    move = pick(position.legal, "move ")
    page = table.page
    # each die shows its kind as a glyph and a word (B7: 1-2 recruit, 3-4 move, 5-6 turn)
    dice = page.locator("#board-toolbar .die")
    assert dice.count() > 0
    for i in range(dice.count()):
        face = int(str(dice.nth(i).get_attribute("data-face")))
        word = ("recruit", "move", "turn")[(face - 1) // 2]
        assert word in dice.nth(i).locator(".die-kind").inner_text()
    # tile names on request, remembered over a reload
    assert page.locator("#table .tile-label").count() == 0
    table.tap("#board-toolbar .labels-toggle")
    sync_api.expect(page.locator("#table .tile-label")).to_have_count(29 + 3)
    page.reload()
    page.wait_for_selector("#table svg.rings")
    assert page.locator("#table .tile-label").count() == 29 + 3
    # the folded text list: every action as a worded button, its tooltip in words too
    buttons = page.locator("#board-action-list button.action")
    assert buttons.count() == len(position.legal)
    for i in range(buttons.count()):
        label, notation = buttons.nth(i).text_content(), buttons.nth(i).get_attribute("data-action")
        assert label == buttons.nth(i).get_attribute("title") and label != notation
        assert not label.startswith(str(notation).split()[0] + " "), label
    _, _unit, route = move.split()[:3]
    src, dst = route.split(">")
    # the movable units glow, with tap circles big enough for a finger
    sources = table.page.locator("#table circle.hit.source")
    assert sources.count() > 0
    for i in range(sources.count()):
        box = sources.nth(i).bounding_box()
        assert box and box["width"] >= MIN_TAP and box["height"] >= MIN_TAP, box
    table.tap(f"#table circle.hit[data-select='{src}']")
    sync_api.expect(
        table.page.locator(f"#table circle.hit.target[data-select='{dst}']")
    ).to_have_count(1)
    table.tap(f"#table circle.hit[data-select='{dst}']")
    assert table.page.locator(f"#table .preview-to[data-loc='{dst}']").count() == 1
    assert table.page.locator("#table .preview-arrow").count() == 1
    commit(table, server, position, move, "board-move")

    recruit = pick(legal_now(server, position, position.mover), "recruit ")
    table.tap("#table .recruit-badge")
    sync_api.expect(table.page.locator("#table .preview-recruit")).to_have_count(1)
    commit(table, server, position, recruit)
    assert not table.errors


def test_ring_turns_both_ways_on_the_ring_arrows(
    server: LiveServer, context: Any, size: str
) -> None:
    position, table = seated(server, context, size, both(having("turn ring"), turn_dice(2)))
    arrows = table.page.locator("#table .ring-arrow")
    titles = {str(arrows.nth(i).locator("title").text_content()) for i in range(arrows.count())}
    assert titles and all("clockwise" in title for title in titles)
    assert not any("left" in title or "right" in title for title in titles)
    for direction, word in (("right", "cw"), ("left", "ccw")):
        legal = legal_now(server, position, position.mover)
        turn = next(a for a in legal if a.startswith("turn ring") and a.endswith(direction))
        ring = turn.split()[1][-1]
        table.tap(f"#table .ring-arrow[data-select='ring{ring}:{word}']")
        sync_api.expect(table.page.locator("#table .tile.preview-ring")).to_have_count(7)
        popover = table.page.locator("#board-popover").inner_text()
        expected = "counter-clockwise" if word == "ccw" else "clockwise"
        assert f"Turn ring {ring} {expected}" in popover
        commit(table, server, position, turn, "board-turn-ccw" if word == "ccw" else None)
    assert not table.errors


def test_swap_and_area_move_by_picking_tiles(server: LiveServer, context: Any, size: str) -> None:
    position, table = seated(server, context, size, both(having("swap", "area"), turn_dice(2)))
    swap = pick(position.legal, "swap ")
    _, a, b = swap.split()
    table.tap(f"#table path.tile[data-loc='{a}']")
    sync_api.expect(table.page.locator(f"#table .tile.swap-target[data-loc='{b}']")).to_have_count(
        1
    )
    table.tap(f"#table path.tile[data-loc='{b}']")
    assert table.page.locator("#table .preview-swap").count() == 2
    commit(table, server, position, swap)

    area = pick(legal_now(server, position, position.mover), "area ")
    tile = area.split()[1]
    own = str(table.page.locator("#table circle.area.source").first.get_attribute("data-loc"))
    table.tap(f"#table circle.hit[data-select='{own}']")
    table.tap(f"#table path.tile[data-loc='{tile}']")
    sync_api.expect(table.page.locator("#table .preview-ghost-area")).to_have_count(1)
    commit(table, server, position, area)
    assert not table.errors


def test_end_the_turn_choosing_the_dice_to_drop(
    server: LiveServer, context: Any, size: str
) -> None:
    position, table = seated(server, context, size, having("end drop"))
    end = pick(position.legal, "end drop")
    table.open("#table .board-control[data-select='end']", end)
    dropped = len(end.removeprefix("end drop ").split("+"))
    sync_api.expect(table.page.locator("#board-toolbar .die.forfeit")).to_have_count(dropped)
    commit(table, server, position, end, "board-end")
    assert not table.errors


def test_an_assault_by_clicking_the_blocker(server: LiveServer, context: Any, size: str) -> None:
    position, table = seated(server, context, size, having("attack"))
    attack = pick(position.legal, "attack ", plain=False)
    words = attack.split()
    target, lose, keep = words[1], words[3], words[5]
    table.open(f"#table circle.hit.assault[data-select='{target}']", attack)
    for role, where in (("target", target), ("lose", lose), ("keep", keep)):
        assert table.page.locator(f"#table .preview-{role}[data-loc='{where}']").count() == 1
    commit(table, server, position, attack, "board-assault")
    assert not table.errors


def test_an_alliance_offered_and_answered_on_the_board(
    server: LiveServer, browser: Any, context: Any, size: str
) -> None:
    position, table = seated(server, context, size, having("ally"))
    offer = pick(position.legal, "ally ", plain=False)
    words = offer.split()
    target, own, helper, helper_from = words[1], words[3], int(words[5]), words[7]
    table.open(f"#table circle.hit.assault[data-select='{target}']", offer)
    assert table.page.locator(f"#table .preview-helper[data-loc='{helper_from}']").count() == 1
    assert table.page.locator(f"#table .preview-keep[data-loc='{own}']").count() == 1
    assert f"Seat {helper + 1}" in table.page.locator("#board-popover").inner_text()
    commit(table, server, position, offer)

    # the helper's page opens the offer by itself, next to the blocker, units highlighted
    other = browser.new_context(viewport=VIEWPORTS[size])
    try:
        helper_table = Table(other, position.links[helper], size)
        helper_table.page.wait_for_selector("#board-popover")
        text = helper_table.page.locator("#board-popover").inner_text()
        assert "Accept" in text and "Decline" in text
        # who offers, with which fighters, and the die that decides whose fighter dies
        assert f"Seat {position.mover + 1}" in text and helper_from in text and own in text
        assert "1-3 theirs, 4-6 yours" in text
        helper_page = helper_table.page
        assert helper_page.locator(f"#table .preview-target[data-loc='{target}']").count() == 1
        assert helper_page.locator(f"#table .preview-helper[data-loc='{helper_from}']").count()
        helper_table.shot("board-answer")
        helper_table.choose("accept")
        assert last_action(server, position) == "accept"
        assert not helper_table.errors
    finally:
        other.close()
    assert not table.errors


def test_place_the_starting_area_on_the_outer_ring(
    server: LiveServer, context: Any, size: str
) -> None:
    position, table = seated(server, context, size, having("place"), num_players=2)
    place = pick(position.legal, "place ")
    tile = LOC_NAMES[int(place.split()[1])] if place.split()[1].isdigit() else place.split()[1]
    table.tap(f"#table circle.hit.target[data-select='{tile}']")
    sync_api.expect(table.page.locator("#table .preview-ghost-area")).to_have_count(1)
    table.choose(place)
    assert last_action(server, position) == place
    assert not table.errors
