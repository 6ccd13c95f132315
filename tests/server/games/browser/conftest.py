"""Page tests of the games: a slow computer's server, and play by clicking (the shared real
server and Chromium come from tests/server/conftest.py)."""

from __future__ import annotations

import json
import os
import re
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.conftest import launched_chromium
from tests.server.live_server import LiveServer

CHROMIUM = Path("/usr/bin/chromium")
# Every run takes the screenshots; they replace the README's copies in docs/screenshots
# only when asked (KOTH_SCREENSHOTS=1), so a test run leaves the checkout unchanged.
SCREENSHOTS = (
    Path(__file__).resolve().parents[4] / "docs" / "screenshots"
    if os.environ.get("KOTH_SCREENSHOTS") == "1"
    else Path(tempfile.mkdtemp(prefix="koth-screenshots-"))
)

if not CHROMIUM.exists():
    pytest.skip(f"browser tests need Chromium at {CHROMIUM}", allow_module_level=True)

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
# what an `expect` waits for at most (Playwright's own default is 5 s): CI's machine can be
# loaded, and a page shows what another page did only after the server's message arrives
sync_api.expect.set_options(timeout=60_000)

DESKTOP = {"width": 1100, "height": 900}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="package")
def chromium() -> Iterator[Any]:
    """Chromium, launched once for this package's modules: none of them runs an event loop
    of its own (``asyncio.run``), which Playwright's sync API would be in the way of."""
    with launched_chromium() as launched:
        yield launched


@pytest.fixture(scope="module")
def slow_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server whose computer waits a second before each move, so that a game the
    computer plays for an absent person lasts until the person is back."""
    database: Path = tmp_path_factory.mktemp("clocks") / "koth.sqlite3"
    live = LiveServer(f"sqlite:///{database}", computer_delay=1.0).start()
    try:
        yield live
    finally:
        live.stop()


class Wiretap:
    """Everything a page received: WebSocket frames and HTTP response bodies."""

    def __init__(self) -> None:
        self.frames: list[str] = []
        self.bodies: list[str] = []

    def attach(self, page: Any) -> None:
        def on_socket(socket: Any) -> None:
            socket.on("framereceived", lambda payload: self.frames.append(str(payload)))

        def on_response(response: Any) -> None:
            try:
                if "json" in (response.headers.get("content-type") or ""):
                    self.bodies.append(response.text())
            except Exception:  # a body the browser discarded (navigation): nothing received
                pass

        page.on("websocket", on_socket)
        page.on("response", on_response)

    def state_messages(self) -> list[dict[str, Any]]:
        messages = []
        for text in [*self.frames, *self.bodies]:
            try:
                data = json.loads(text)
            except ValueError:
                continue
            if isinstance(data, dict) and data.get("type") == "state":
                messages.append(data)
        return messages


CARD_STRING = re.compile(r"(?:(?:hand|reserve|deal) )?(?:(?:[2-9TJQKA][hdcs])+|JK)")
CARD = re.compile(r"[2-9TJQKA][hdcs]")


def cards_in(value: Any) -> set[str]:
    """Every card code written anywhere in ``value`` (runs like 3s4s included)."""
    found: set[str] = set()
    if isinstance(value, str):
        if CARD_STRING.fullmatch(value):
            found.update(CARD.findall(value))
    elif isinstance(value, dict):
        for key, item in value.items():
            found |= cards_in(key) | cards_in(item)
    elif isinstance(value, list):
        for item in value:
            found |= cards_in(item)
    return found


#: what a player can click: actions, units to select, destinations with several options
TARGETS = "#table [data-action-id], #table [data-select], #table [data-choose]"


def click_one(page: Any, rng: Any) -> bool:
    """Click one random legal target (or a unit to select) on ``page``; False if none."""
    table = page.locator("#table")
    targets = page.locator(TARGETS).filter(visible=True)  # folded groups are not clickable
    count = targets.count()
    if count == 0:
        return False
    before = table.get_attribute("data-version")
    target = targets.nth(rng.randrange(count))
    # a board popover asks to confirm what it previews: mostly confirm, sometimes look on
    confirm = page.locator("#table [data-confirm]").filter(visible=True)
    if confirm.count() and rng.random() < 0.7:
        target = confirm.first
    try:
        selecting = target.get_attribute("data-action-id", timeout=2_000) is None
        target.click(timeout=5_000)
    except Exception:  # re-rendered under the cursor by a live update: look again
        return True
    if not selecting:  # an action: wait until the page shows its result
        try:
            page.wait_for_function(
                "(v) => { const t = document.querySelector('#table');"
                " return t.dataset.version !== v || t.dataset.finished === 'true' ||"
                " document.querySelectorAll('#table [data-action-id]').length === 0; }",
                arg=before,
                timeout=30_000,
            )
        except Exception:
            # The click landed on a target that a live update had just replaced, so the
            # server refused it and nothing changed: the caller looks at the page again
            # (and its own deadline still bounds the game).
            return True
    return True


def play_by_clicking(page: Any, rng: Any, *, max_clicks: int = 2000, on_click: Any = None) -> int:
    """Click random legal targets on ``page`` until the game is over; returns the clicks."""
    clicks = 0
    while clicks < max_clicks:
        try:
            page.wait_for_function(
                "() => { const t = document.querySelector('#table');"
                " return t && t.dataset.version !== undefined && (t.dataset.finished === 'true' ||"
                f" document.querySelectorAll('{TARGETS}').length > 0); }}",
                timeout=60_000,
            )
        except Exception as exc:
            status = page.locator("#status").inner_text()
            error = page.locator("#error").inner_text()
            raise AssertionError(f"stuck after {clicks} clicks: {status!r} {error!r}") from exc
        if page.locator("#table").get_attribute("data-finished") == "true":
            return clicks
        if click_one(page, rng):
            clicks += 1
            if on_click is not None:
                on_click(clicks)
    raise AssertionError(f"the game did not end within {max_clicks} clicks")
