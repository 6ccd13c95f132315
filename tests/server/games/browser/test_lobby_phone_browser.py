"""The lobby on a phone: every game's form fits the screen's width (no sideways
scrolling), in English and in Russian, whose texts are longer."""

from __future__ import annotations

from typing import Any

import pytest

from tests.server.games.browser.conftest import PHONE, SCREENSHOTS
from tests.server.live_server import LiveServer


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_every_game_form_fits_a_phone(server: LiveServer, browser: Any, lang: str) -> None:
    context = browser.new_context(viewport=PHONE, locale=lang)
    page = context.new_page()
    page.goto(f"{server.url}/?lang={lang}")
    tabs = page.locator("button.tab[data-tab^='new-']")
    assert tabs.count() >= 2
    for index in range(tabs.count()):
        tab = tabs.nth(index)
        name = tab.get_attribute("data-tab")
        tab.click()
        page.wait_for_selector(f"form#{name}", state="visible")
        wide = page.evaluate(
            """() => [...document.querySelectorAll('form:not([hidden]) fieldset')]
                .filter(f => f.offsetParent !== null
                    && f.getBoundingClientRect().right > document.documentElement.clientWidth)
                .map(f => f.className)"""
        )
        width = page.evaluate("document.documentElement.scrollWidth")
        page.screenshot(path=str(SCREENSHOTS / f"lobby-phone-{lang}-{name}.png"), full_page=True)
        assert wide == [] and width <= PHONE["width"], (name, wide, width)
    context.close()
