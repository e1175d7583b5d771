"""At phone size in Chromium: a whole 3-player Oh Hell game, then the hook's forbidden bid."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.e2e.conftest import add_players
from tests.e2e.conftest import sign_up

PLAYERS = ["Ann", "Ben", "Cy"]


def start_game(page, names, **checks):
    page.goto("/games/new")
    page.get_by_role("link", name=re.compile("Oh Hell")).click()
    for name in names:  # tapping a name gives it the next free seat
        page.locator("label.seat-name", has_text=name).click()
    for label in checks:
        page.get_by_label(label.replace("_", " ")).check()
    page.get_by_role("button", name="Start the game").click()


def tap(page, form: str, player: str, value: int):
    row = page.locator(f'form[{form}] fieldset[data-player="{player}"]')
    row.locator("label.chip span").get_by_text(str(value), exact=True).click()


def test_a_three_player_game_to_the_end_on_a_phone(phone):
    sign_up(phone)
    add_players(phone, *PLAYERS)
    start_game(phone, PLAYERS)
    expect(phone.get_by_text("Hand 1 of 15")).to_be_visible()
    expected = dict.fromkeys(PLAYERS, 0)
    for number in range(1, 16):
        cards = number
        first = PLAYERS[number % 3]  # the dealer's left
        for name in PLAYERS:
            tap(phone, "data-bids-form", name, cards if name == first else 0)
        expect(phone.locator("[data-bid-total]")).to_contain_text(f"Bids total {cards}")
        phone.get_by_role("button", name="Save bids").click()
        board = phone.locator(".bid-board li", has_text=first)
        expect(board.locator(".bid")).to_have_text(str(cards))
        for name in PLAYERS:
            tap(phone, "data-tricks-form", name, cards if name == first else 0)
        expect(phone.locator("[data-trick-total]")).to_have_text(f"Tricks: {cards} of {cards}")
        phone.get_by_role("button", name="Save tricks").click()
        for name in PLAYERS:
            expected[name] += 10 + (cards if name == first else 0)
    best = max(expected.values())
    winners = [name for name in PLAYERS if expected[name] == best]
    expect(phone.get_by_role("heading", name="Final standings")).to_be_visible()
    expect(phone.locator(".winner")).to_have_text(f"{winners[0]} wins!")
    totals = phone.locator(".sheet tfoot td")
    expect(totals).to_have_text([str(expected[name]) for name in PLAYERS])


def test_the_dealer_sees_the_forbidden_bid_struck_out(phone):
    sign_up(phone)
    add_players(phone, "Ann", "Ben", "Cy", "Dee")
    phone.goto("/games/new?game=oh_hell")
    for name in ["Ann", "Ben", "Cy", "Dee"]:
        phone.locator("label.seat-name", has_text=name).click()
    phone.get_by_label("Hook", exact=True).check()
    phone.get_by_label("Cards per hand").select_option("down")
    phone.get_by_label("Most cards in a hand").fill("5")
    phone.get_by_role("button", name="Start the game").click()
    expect(phone.get_by_text("Hand 1 of 5")).to_be_visible()
    tap(phone, "data-bids-form", "Ben", 1)
    tap(phone, "data-bids-form", "Cy", 2)
    tap(phone, "data-bids-form", "Dee", 0)
    dealer = phone.locator('form[data-bids-form] fieldset[data-player="Ann"]')
    expect(dealer.locator("[data-forbidden-note]")).to_have_text("Ann may not bid 2.")
    expect(dealer.locator("label.chip.forbidden")).to_have_text("2")
    expect(dealer.locator('input[value="2"]')).to_be_disabled()
    tap(phone, "data-bids-form", "Ann", 3)
    expect(phone.locator("[data-bid-total]")).to_have_text("Bids total 6 for 5 cards: 1 over")
    phone.get_by_role("button", name="Save bids").click()
    expect(phone.locator(".balance")).to_contain_text("1 over")


WAKE_LOCK_STUB = """
window.__wakeLocks = 0;
Object.defineProperty(navigator, "wakeLock", {value: {request: (kind) => {
  window.__wakeLocks += 1;
  return Promise.resolve({addEventListener: () => {}, kind});
}}});
"""


def test_the_game_page_keeps_the_screen_awake(phone):
    phone.add_init_script(WAKE_LOCK_STUB)
    sign_up(phone)
    add_players(phone, *PLAYERS)
    assert phone.evaluate("window.__wakeLocks") == 0  # only game pages ask
    start_game(phone, PLAYERS)
    expect(phone.get_by_text("Hand 1 of 15")).to_be_visible()
    phone.wait_for_function("window.__wakeLocks >= 1")


def test_nothing_breaks_without_a_wake_lock(phone):
    phone.add_init_script("delete Navigator.prototype.wakeLock;")
    sign_up(phone)
    add_players(phone, *PLAYERS)
    start_game(phone, PLAYERS)
    assert phone.evaluate("'wakeLock' in navigator") is False
    tap(phone, "data-bids-form", "Ben", 1)
    expect(phone.locator("[data-bid-total]")).to_contain_text("Bids so far: 1")
