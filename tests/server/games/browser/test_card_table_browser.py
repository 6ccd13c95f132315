"""The card table forgives, between two persons in Chromium (one at 1280x800, one on a
390x844 phone): both choose their reserve on one screen at the same time (a summary,
undo, confirm: the twelve rounds go by themselves); a card is picked, confirmed, shown
face up to its owner as played and out of the hand, and taken back while the opponent
has not chosen; the log panel lists every event newest first with the last decision
marked; the fight history lists every fight; at the end every card is revealed, the
table says who won and why, and the badge says "finished"."""

from __future__ import annotations

import random
from typing import Any

import httpx
import pytest

from tests.server.games.browser.conftest import PHONE, SCREENSHOTS
from tests.server.live_server import LiveServer

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

WIDE = {"width": 1280, "height": 800}
WAIT = 30_000  # a generous ceiling: CI is a loaded two-core machine


class Seat:
    """One person's page and API access."""

    def __init__(self, server: LiveServer, created: dict[str, Any], seat: int, page: Any):
        self.url = f"{server.url}/api/games/{created['id']}"
        self.token = next(s["token"] for s in created["seats"] if s["seat"] == seat)
        self.seat = seat
        self.page = page

    def state(self) -> dict[str, Any]:
        body: dict[str, Any] = httpx.get(
            self.url, headers={"Authorization": f"Bearer {self.token}"}
        ).json()
        return body

    def post(self, action: str) -> None:
        response = httpx.post(
            f"{self.url}/actions",
            json={"action": action},
            headers={"Authorization": f"Bearer {self.token}"},
        )
        assert response.status_code == 200, response.text


def hand_cards(page: Any) -> list[str]:
    return [
        c
        for c in page.locator("#table .mine .hand [data-card]").evaluate_all(
            "nodes => nodes.map(n => n.dataset.card)"
        )
        if c
    ]


def test_two_persons_at_a_card_table_that_forgives(server: LiveServer, browser: Any) -> None:
    created = httpx.post(
        f"{server.url}/api/games",
        json={"game": "cards", "seats": [{"kind": "human"}, {"kind": "human"}]},
    ).json()
    desk = browser.new_context(viewport=WIDE).new_page()
    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    one, two = Seat(server, created, 0, desk), Seat(server, created, 1, phone)
    for seat, page in ((0, desk), (1, phone)):
        page.goto(next(s["join_url"] for s in created["seats"] if s["seat"] == seat))
        page.locator("#table .reserve-planner .plan-card").first.wait_for(timeout=WAIT)

    # -- the reserve, on one screen each, chosen by both at once
    plans: dict[int, list[str]] = {}
    for seat, page in ((0, desk), (1, phone)):
        cards = page.locator("#table .plan-card")
        expect(cards).to_have_count(12)
        picks = [cards.nth(i).get_attribute("data-card") for i in (0, 3, 5, 11)]
        for i in (0, 3, 5, 11):
            cards.nth(i).click()
        page.locator("#table .reserve-planner button.undo").click()  # the last pick undone
        plans[seat] = [c for c in picks[:3] if c]
        expect(page.locator("#table .plan-summary")).to_contain_text("Reserve: 3 cards")
        expect(page.locator("#table .plan-card.to-reserve")).to_have_count(3)
    desk.screenshot(path=str(SCREENSHOTS / "cards_reserve_desktop.png"), full_page=True)
    phone.screenshot(path=str(SCREENSHOTS / "cards_reserve_phone.png"), full_page=True)
    desk.locator("#table .reserve-planner button.confirm").click()
    phone.locator("#table .reserve-planner button.confirm").click()
    # the twelve rounds go by themselves on both pages
    for page in (desk, phone):
        expect(page.locator("#table .pyramid")).to_be_visible(timeout=WAIT)
        expect(page.locator("#table .reserve-planner")).to_have_count(0, timeout=WAIT)
    for seat in (one, two):
        mine = seat.state()["view"]["players"][seat.seat]
        assert sorted(mine["reserve"]) == sorted(plans[seat.seat])

    # -- a stack chosen, a card picked, confirmed, taken back, and another played
    desk.locator("#table .stack.legal").first.click()  # the dealer, Seat 1, chooses
    first = desk.locator("#table .mine .hand button.card-button").first
    expect(first).to_be_visible(timeout=WAIT)
    card = first.get_attribute("data-card")
    first.click()  # picked: nothing is sent yet
    confirm = desk.locator("#table .pending.mine button.confirm")
    expect(confirm).to_contain_text("Attack with")
    assert one.state()["submitted"] == []
    confirm.click()
    played = desk.locator("#table .pending.mine .played")
    expect(played).to_have_attribute("data-played", str(card), timeout=WAIT)
    assert card not in hand_cards(desk)  # it left the hand, and shows face up as played
    assert one.state()["my_submission"] == card
    expect(phone.locator("#table .pending.theirs .card.back")).to_be_visible(timeout=WAIT)
    desk.screenshot(path=str(SCREENSHOTS / "cards_played_desktop.png"), full_page=True)
    desk.locator("#table .take-back").click()
    expect(played).to_have_count(0, timeout=WAIT)
    assert card in hand_cards(desk)
    assert one.state()["submitted"] == []
    expect(phone.locator("#table .pending.theirs .card.back")).to_have_count(0, timeout=WAIT)
    # on the phone too: a card confirmed with the button, shown as played, taken back
    pick = phone.locator("#table .mine .hand button.card-button").first
    expect(pick).to_be_visible(timeout=WAIT)
    pick.click()
    phone.locator("#table .pending.mine button.confirm").click()
    on_phone = phone.locator("#table .pending.mine .played")
    expect(on_phone).to_have_count(1, timeout=WAIT)
    expect(desk.locator("#table .pending.theirs .card.back")).to_be_visible(timeout=WAIT)
    phone.screenshot(path=str(SCREENSHOTS / "cards_played_phone.png"), full_page=True)
    phone.locator("#table .take-back").click()
    expect(on_phone).to_have_count(0, timeout=WAIT)
    assert two.state()["submitted"] == []
    # another card, confirmed by tapping it again
    second = desk.locator("#table .mine .hand button.card-button").last
    other = second.get_attribute("data-card")
    second.click()
    desk.locator(f"#table .mine .hand button.card-button.picked[data-card='{other}']").click()
    expect(played).to_have_attribute("data-played", str(other), timeout=WAIT)
    # the phone's person answers, by picking and tapping again
    pick = phone.locator("#table .mine button.card-button").first
    expect(pick).to_be_visible(timeout=WAIT)
    pick.click()
    phone.locator("#table .mine button.card-button.picked").click()

    # -- the fight is in both logs (newest first, marked) and in the fight history
    for page in (desk, phone):
        expect(page.locator("#table .fight-history .fight")).to_have_count(1, timeout=WAIT)
        entry = page.locator("#log .log-entry[data-code='fight']")
        expect(entry).to_have_count(1, timeout=WAIT)
    log = one.state()["log"]
    entries = desk.locator("#log .log-entry")
    expect(entries).to_have_count(len(log))
    assert entries.first.get_attribute("data-move") == str(log[-1]["move"])
    assert "latest" in (entries.first.get_attribute("class") or "")
    assert desk.locator("#log .log-entry.latest").count() == sum(
        e["decision"] == log[-1]["decision"] for e in log
    )
    desk.screenshot(path=str(SCREENSHOTS / "cards_log_desktop.png"), full_page=True)
    phone.screenshot(path=str(SCREENSHOTS / "cards_log_phone.png"), full_page=True)
    status = desk.locator("#status").inner_text() + phone.locator("#status").inner_text()
    assert "(you)" not in status

    # -- the rest of the game by the API; at the end every card is revealed
    rng = random.Random(3)
    for _ in range(400):
        states = [one.state(), two.state()]
        if states[0]["outcome"]:
            break
        for seat, state in zip((one, two), states, strict=True):
            if state["legal"]:
                seat.post(rng.choice(state["legal"])["text"])
    final = one.state()
    assert final["outcome"]
    for seat, page in ((0, desk), (1, phone)):
        expect(page.locator("#table .result")).to_be_visible(timeout=WAIT)
        expect(page.locator("#conn")).to_have_attribute("data-state", "finished")
        revealed = page.locator(f"#table .revealed[data-player='{1 - seat}'] [data-card]")
        truth = final["reveal"][str(1 - seat)]["players"][1 - seat]
        expect(revealed).to_have_count(len(truth["hand"]) + len(truth["reserve"]))
        assert page.locator("#table .fight-history .fight").count() == len(final["view"]["log"])
    winners = final["outcome"]["winners"]
    text = desk.locator("#table .result").inner_text()
    assert ("won the apex" in text) == bool(winners) and ("draw" in text) == (not winners)
    desk.screenshot(path=str(SCREENSHOTS / "cards_end_desktop.png"), full_page=True)
    phone.screenshot(path=str(SCREENSHOTS / "cards_end_phone.png"), full_page=True)
