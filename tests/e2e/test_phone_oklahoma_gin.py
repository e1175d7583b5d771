"""At phone size in Chromium: an Oklahoma Gin game to 100, the knock limit shown on a tap."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.e2e.conftest import add_players
from tests.e2e.conftest import sign_up


def start_game(page, names, **checks):
    page.goto("/games/new")
    page.get_by_role("link", name=re.compile("Oklahoma Gin")).click()
    for name in names:  # tapping a name gives it the next free seat
        page.locator("label.seat-name", has_text=name).click()
    for label in checks:
        page.get_by_label(label.replace("_", " ")).check()
    page.get_by_role("button", name="Start the game").click()


def tap(page, group: str, text: str):
    form = page.locator("form[data-gin-form]")
    form.locator(f'[aria-label="{group}"] label.chip span').get_by_text(text, exact=True).click()


def test_a_game_to_100_on_a_phone(phone):
    sign_up(phone)
    add_players(phone, "Ann", "Ben")
    start_game(phone, ["Ann", "Ben"])
    expect(phone.get_by_role("heading", name=re.compile("Oklahoma Gin"))).to_contain_text("Round 1")
    expect(phone.locator(".facts")).to_contain_text("Dealer Ann")
    limit = phone.locator("[data-knock-limit]")
    expect(limit).to_have_text("Tap the upcard: it sets the knock limit.")

    # The knock limit follows the upcard at once, before anything is sent.
    tap(phone, "Upcard", "7")
    expect(limit).to_have_text("Knock with 7 or less")
    tap(phone, "Upcard", "A")
    expect(limit).to_have_text("Knock with 1 or less")
    tap(phone, "Upcard", "Q")
    expect(limit).to_have_text("Knock with 10 or less")

    # Round 1: Ann goes gin against 60: 85. The knocker's deadwood is not asked for gin.
    tap(phone, "Result", "Gin")
    tap(phone, "Who knocked", "Ann")
    expect(phone.locator("#knocker_deadwood")).to_be_hidden()
    expect(phone.get_by_label("Ben's deadwood")).to_be_visible()
    phone.get_by_label("Ben's deadwood").fill("60")
    expect(phone.locator("[data-round-score]")).to_have_text("Gin! Ann scores 85.")
    phone.get_by_role("button", name="Save round 1").click()
    expect(phone.locator(".sheet tfoot td")).to_have_text(["85", "0"])
    expect(phone.locator(".facts")).to_contain_text("Dealer Ann")

    # Round 2: a draw; Ann deals again.
    tap(phone, "Upcard", "4")
    tap(phone, "Result", "Draw")
    expect(phone.locator("#knocker_deadwood")).to_be_hidden()
    phone.get_by_role("button", name="Save round 2").click()
    expect(phone.get_by_text("Round 2 was a draw: Ann deals again.")).to_be_visible()

    # Round 3: Ben knocks above the limit: the page says so, the server refuses and keeps it.
    tap(phone, "Upcard", "3")
    expect(limit).to_have_text("Knock with 3 or less")
    tap(phone, "Result", "Knock")
    tap(phone, "Who knocked", "Ben")
    phone.get_by_label("Ben's deadwood (knocked)").fill("5")
    phone.get_by_label("Ann's deadwood").fill("20")
    score = phone.locator("[data-round-score]")
    expect(score).to_have_text("Knock with 3 or less: Ben has 5.")
    expect(score).to_have_class(re.compile(r"\bbad\b"))
    phone.get_by_role("button", name="Save round 3").click()
    expect(phone.locator(".deadwood .error")).to_contain_text("Knock with 3 or less: Ben has 5.")
    expect(phone.locator('input[name="upcard"][value="3"]')).to_be_checked()
    expect(phone.get_by_label("Ann's deadwood")).to_have_value("20")
    expect(limit).to_have_text("Knock with 3 or less")
    phone.get_by_label("Ben's deadwood (knocked)").fill("2")
    expect(score).to_have_text("Ben scores 18.")
    phone.get_by_role("button", name="Save round 3").click()
    expect(phone.locator(".sheet tfoot td")).to_have_text(["85", "18"])
    expect(phone.locator(".facts")).to_contain_text("Dealer Ben")

    # Round 4: Ben knocks with 9 against 6 on a king: undercut, Ann scores 13 and reaches 98.
    tap(phone, "Upcard", "K")
    tap(phone, "Result", "Knock")
    tap(phone, "Who knocked", "Ben")
    phone.get_by_label("Ben's deadwood (knocked)").fill("9")
    phone.get_by_label("Ann's deadwood").fill("6")
    expect(phone.locator("[data-round-score]")).to_have_text("Undercut! Ann scores 13.")
    phone.get_by_role("button", name="Save round 4").click()
    expect(phone.locator('tr[data-round="4"] .undercut-mark')).to_have_text("undercut")
    expect(phone.locator(".standings li.leader")).to_contain_text("2 to go")

    # Round 5: Ann knocks with 1 against 4: 3 more, 101: she wins.
    tap(phone, "Upcard", "5")
    tap(phone, "Result", "Knock")
    tap(phone, "Who knocked", "Ann")
    phone.get_by_label("Ann's deadwood (knocked)").fill("1")
    phone.get_by_label("Ben's deadwood").fill("4")
    phone.get_by_role("button", name="Save round 5").click()

    expect(phone.get_by_role("heading", name="Final score")).to_be_visible()
    expect(phone.locator(".winner")).to_have_text("Ann wins!")
    expect(phone.locator(".bonus-lines tfoot td")).to_have_text(["101", "18"])
    expect(phone.locator(".sheet tfoot td")).to_have_text(["101", "18"])
    expect(phone.locator("form[data-gin-form]")).to_have_count(0)
    expect(phone.get_by_role("button", name="Reopen to correct a round")).to_be_visible()
    # Nothing on the page is wider than the phone but the score sheet's own scroller.
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= phone.viewport_size["width"]


def test_spades_double_and_ace_needs_gin_on_a_phone(phone):
    sign_up(phone)
    add_players(phone, "Ann", "Ben")
    start_game(phone, ["Ann", "Ben"], Spades_double=True, Ace_needs_gin=True)
    limit = phone.locator("[data-knock-limit]")
    tap(phone, "Upcard", "A")
    expect(limit).to_have_text("Ace turned up: only gin ends this round")
    knock = phone.locator('input[name="result"][value="knock"]')
    expect(knock).to_be_disabled()
    tap(phone, "Upcard", "6")
    expect(knock).to_be_enabled()
    tap(phone, "Suit of the upcard", "♠")
    expect(limit).to_have_text("Knock with 6 or less · ♠ scores double")
    tap(phone, "Result", "Knock")
    tap(phone, "Who knocked", "Ben")
    phone.get_by_label("Ben's deadwood (knocked)").fill("4")
    phone.get_by_label("Ann's deadwood").fill("14")
    expect(phone.locator("[data-round-score]")).to_have_text("Ben scores 20 (doubled).")
    phone.get_by_role("button", name="Save round 1").click()
    expect(phone.locator(".sheet tfoot td")).to_have_text(["0", "20"])
    expect(phone.locator('tr[data-round="1"] .card-face')).to_have_text("6♠")
