"""The learn pages' tutorial played through in Chromium for both games, and a hint
shown at a table where a person plays the computer alone (1280x800 and 390x844)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.server.games.browser.conftest import PHONE, SCREENSHOTS
from tests.server.live_server import LiveServer

WIDE = {"width": 1280, "height": 800}
VIEWPORTS = [pytest.param(WIDE, id="desktop"), pytest.param(PHONE, id="phone")]


def feedback(page: Any, kind: str) -> str:
    box = page.locator("#lesson-feedback")
    page.wait_for_function(
        "(kind) => document.querySelector('#lesson-feedback').dataset.kind === kind",
        arg=kind,
        timeout=30_000,
    )
    text: str = box.inner_text()
    return text


@pytest.mark.parametrize("viewport", VIEWPORTS)
@pytest.mark.parametrize("game", ["cards", "board"])
def test_the_tutorial_is_played_through(
    server: LiveServer, browser: Any, game: str, viewport: dict[str, int]
) -> None:
    lessons = httpx.get(f"{server.url}/api/learn/{game}", timeout=60).json()
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    page.goto(f"{server.url}/learn/{game}")
    page.wait_for_selector("#tutorial[data-lessons]", timeout=60_000)
    assert page.locator("#rules h1").count() == 1  # the rules document, rendered
    size = "phone" if viewport is PHONE else "desktop"
    for number, lesson in enumerate(lessons):
        page.wait_for_selector(f"#tutorial[data-lesson='{lesson['key']}']")
        assert page.locator("#board svg, #board .pyramid, #board *").count() > 0  # drawn
        url = f"{server.url}/api/learn/{game}/lessons/{lesson['key']}"
        verdicts = {m: httpx.post(url, json={"action": m}).json() for m in lesson["choices"]}
        wrong = [m for m, v in verdicts.items() if not v["legal"]]
        right = next(m for m, v in verdicts.items() if v["correct"])
        if wrong:  # a wrong click is explained with the rule it breaks
            page.locator(f".lesson-choice[data-move='{wrong[0]}']").click()
            said = feedback(page, "bad")
            assert said.startswith(
                f"{wrong[0]} is not allowed: "
            ) and said == "{text} ({rule})".format(**verdicts[wrong[0]])
            if number == 1:
                shot = SCREENSHOTS / f"learn-{game}-{size}.png"
                page.locator(".learn-grid").screenshot(path=str(shot))
        page.locator(f".lesson-choice[data-move='{right}']").click()
        assert feedback(page, "good") == f"Right: {right}."
        assert page.locator("#tutorial").get_attribute("data-passed") == str(number + 1)
        if number < len(lessons) - 1:
            page.locator("#lesson-next").click()
    assert page.locator("#lesson-done").is_visible()
    assert page.locator(".lesson-step.passed").count() == len(lessons)
    context.close()


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_a_hint_is_shown_to_a_person_playing_the_computer(
    server: LiveServer, browser: Any, viewport: dict[str, int]
) -> None:
    created = httpx.post(
        f"{server.url}/api/games",
        json={
            "game": "board",
            "seats": [{"kind": "human"}, {"kind": "computer", "agent": "beginner"}],
        },
    ).json()
    link = next(s["join_url"] for s in created["seats"] if s["join_url"])
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    page.goto(link)
    # the hint is offered whenever the person has a move to make (the computer moves first
    # in some deals: the button shows up once it is the person's turn)
    page.wait_for_selector("#hint:not(.hidden) #hint-button", timeout=60_000)
    with page.expect_response(lambda r: r.url.endswith("/hint")) as asked:
        page.locator("#hint-button").click()
    action_id = asked.value.json()["action"]["id"]
    answer = page.locator("#hint .hint-answer")
    page.wait_for_function(
        "() => document.querySelector('#hint .hint-answer').textContent.startsWith('Hint from')",
        timeout=120_000,
    )
    text = answer.inner_text()
    assert text.startswith("Hint from the Expert level: ") and "Expert level" in text
    # every click target of the move is outlined (a move made by selecting a unit and
    # then a tile has none of its own)
    targets = page.locator(f"#table [data-action-id='{action_id}']").count()
    assert page.locator("#table .hinted").count() == targets
    size = "phone" if viewport is PHONE else "desktop"
    page.screenshot(path=str(SCREENSHOTS / f"hint-{size}.png"), full_page=False)
    # the table's own learn link
    assert page.locator("a.learn-link").get_attribute("href") == "/learn/board"
    # the hinted move, played: the replay marks the step it leads to
    with page.expect_response(lambda r: r.url.endswith("/actions")):
        page.evaluate(
            """async () => {
                const r = await fetch(`/api/games/${KOTH.table.gameId}/hint`,
                                      {method: 'POST', headers: KOTH.table.headers()});
                const hint = await r.json();
                await fetch(`/api/games/${KOTH.table.gameId}/actions`, {method: 'POST',
                    headers: KOTH.table.headers(),
                    body: JSON.stringify({action_id: hint.action.id, version: hint.version})});
            }"""
        )
    page.goto(link.replace(f"/games/{created['id']}", f"/games/{created['id']}/replay"))
    page.wait_for_selector("#replay[data-step]")
    frames = httpx.get(
        f"{server.url}/api/games/{created['id']}/replay",
        headers={"Authorization": f"Bearer {link.rsplit('token=', 1)[1]}"},
    ).json()["frames"]
    hinted = next(i for i, frame in enumerate(frames) if frame["hinted"] == [0])
    # the replay steps from decision to decision: a move that led to chance (dice) shows
    # at the next decision, after the chance frames folded into it
    step = next(
        (i for i in range(hinted, len(frames)) if frames[i]["to_move"]["kind"] != "chance"),
        len(frames) - 1,
    )
    while int(page.locator("#replay").get_attribute("data-step")) > step:
        page.keyboard.press("ArrowLeft")
    mark = page.locator("#hint-mark")
    mark.wait_for(state="visible")
    assert mark.inner_text() == "Seat 1 played this move after a hint."
    page.keyboard.press("ArrowLeft")
    mark.wait_for(state="hidden")
    context.close()


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_the_lobby_offers_the_computer_by_level(
    server: LiveServer, browser: Any, viewport: dict[str, int]
) -> None:
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    page.goto(server.url + "/")
    page.click("button.tab[data-tab='new-cards']")
    form = page.locator("form#new-cards")
    row = form.locator(".seat-row[data-seat='1']")
    assert row.locator(".level-text").inner_text().startswith("Plays a legal move at random")
    row.locator("select.seat-level").select_option("strong")
    said = row.locator(".level-text").inner_text()
    assert said.startswith("Searches 300 imagined deals") and "Won 33 of 40" in said
    assert not row.locator("select.seat-agent").is_visible()  # under "advanced", closed
    assert form.locator("select[name='param.jokers'] option:checked").inner_text() == (
        "3, the apex holds a Joker (C1.1)"
    )
    size = "phone" if viewport is PHONE else "desktop"
    form.screenshot(path=str(SCREENSHOTS / f"lobby-levels-{size}.png"))
    form.locator("button[type='submit']").click()
    page.wait_for_selector("#table")  # seated at once against the computer
    page.goto(page.url.split("/games/")[0] + "/")
    assert "Strong" in page.locator(".game-item .seat-chip.computer").first.inner_text()
    context.close()
