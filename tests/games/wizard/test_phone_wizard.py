"""At phone size in Chromium: Wizard on one screen per round. A few rounds with the trump
reminder (a suit, the dealer's choice, a Jester), the hook's forbidden dealer bid struck out
before the dealer bids, and six players' status and Save bar in view."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser import accessibility_problems
from tests.browser import add_players
from tests.browser import in_view
from tests.browser import open_options
from tests.browser import screenshot
from tests.browser import seat_players
from tests.browser import sign_up
from tests.e2e.test_phone_accessibility import api_game

PLAYERS = ["Ann", "Ben", "Cy"]
SIX = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"]


def start_game(page, names, **checks):
    page.goto("/games/new")
    page.get_by_role("link", name=re.compile("Wizard")).click()
    seat_players(page, names)
    if checks:
        open_options(page)
    for label in checks:
        page.get_by_label(label, exact=True).check()
    page.get_by_role("button", name="Start the game").click()


def row(page, form: str, player: str):
    return page.locator(f'form[{form}] li.row[data-player="{player}"]')


def tap(page, form: str, player: str, value: int):
    row(page, form, player).locator("label.chip span").get_by_text(str(value), exact=True).click()


def test_a_few_rounds_with_the_trump_reminder_on_a_phone(phone):
    sign_up(phone)
    add_players(phone, *PLAYERS)
    start_game(phone, PLAYERS)
    expect(phone.locator("#now h1")).to_have_text("Round 1 of 20")
    expect(phone.locator(".staircase rect")).to_have_count(20)
    trumps = ["Wizard ♥", "♠ Spades", "Jester: none"]
    pills = ["Trump ♥ · the dealer chose", "Trump ♠", "No trump (a Jester)"]
    expected = dict.fromkeys(PLAYERS, 0)
    for number in range(1, 4):
        first = PLAYERS[number % 3]
        phone.get_by_label("Trump: the turned card (optional, a reminder)").select_option(
            label=trumps[number - 1]
        )
        for name in PLAYERS:
            tap(phone, "data-bids-form", name, number if name == first else 0)
        expect(phone.locator("[data-status]")).to_contain_text(f"Bids total {number}")
        if number == 1:
            screenshot(phone, "wizard-bids")
        phone.get_by_role("button", name="Save bids").click()
        expect(phone.locator(".hand-head .pill.trump, .hand-head .pill.notrump")).to_have_text(
            pills[number - 1]
        )
        expect(row(phone, "data-tricks-form", first).locator(".pill.bid")).to_have_text(
            f"bid {number}"
        )
        if number == 1:
            screenshot(phone, "wizard-tricks")
        for name in PLAYERS:
            tap(phone, "data-tricks-form", name, number if name == first else 0)
        expect(phone.locator("[data-status]")).to_contain_text(f"tricks: {number} of {number}")
        phone.get_by_role("button", name="Save tricks").click()
        for name in PLAYERS:
            expected[name] += 20 + (10 * number if name == first else 0)
        expect(phone.locator("#now h1")).to_have_text(f"Round {number + 1} of 20")
        total = row(phone, "data-bids-form", first).locator(".row-total")
        expect(total).to_contain_text(f"{expected[first]}+{20 + 10 * number}")
    expect(phone.locator(".sheet tfoot td")).to_have_text([str(expected[n]) for n in PLAYERS])
    expect(phone.locator(".sheet tbody tr").first.locator("th .small")).to_contain_text("♥*")
    screenshot(phone, "wizard-round-4")


def test_the_dealer_sees_the_forbidden_bid_before_bidding(phone):
    sign_up(phone)
    add_players(phone, "Ann", "Ben", "Cy", "Dee")
    start_game(phone, ["Ann", "Ben", "Cy", "Dee"], **{"Bids may not equal the tricks (hook)": 1})
    dealer = row(phone, "data-bids-form", "Ann")
    expect(dealer.locator("[data-forbidden-note]")).to_have_text("Hook: the bids may not total 1.")
    tap(phone, "data-bids-form", "Ben", 1)
    tap(phone, "data-bids-form", "Cy", 0)
    tap(phone, "data-bids-form", "Dee", 0)
    expect(dealer.locator("[data-forbidden-note]")).to_have_text("Ann may not bid 0 (the hook).")
    expect(dealer.locator("label.chip.forbidden")).to_have_text("0")
    expect(dealer.locator('input[value="0"]')).to_be_disabled()
    tap(phone, "data-bids-form", "Ann", 1)
    expect(phone.locator("[data-status]")).to_have_text("Bids total 2 for 1 card: 1 over")
    screenshot(phone, "wizard-hook")
    phone.get_by_role("button", name="Save bids").click()
    expect(phone.locator("form[data-tricks-form] [data-status]")).to_contain_text("1 over")


def test_six_players_status_and_save_stay_in_view(phone):
    sign_up(phone)
    add_players(phone, *SIX)
    start_game(phone, SIX)
    expect(phone.locator("#now h1")).to_have_text("Round 1 of 10")
    phone.evaluate("window.scrollTo(0, 0)")
    assert in_view(phone, phone.locator("[data-status]"))
    assert in_view(phone, phone.get_by_role("button", name="Save bids"))
    for name in SIX:
        chip = (
            row(phone, "data-bids-form", name)
            .locator("label.chip span")
            .get_by_text("0", exact=True)
        )
        assert in_view(phone, chip), f"{name}'s 0 is off screen"
    screenshot(phone, "wizard-6-bids")


def test_no_serious_accessibility_problem_on_wizard_pages(axe_phone):
    page = axe_phone
    sign_up(page)
    add_players(page, *PLAYERS)
    game = api_game(page, "wizard", PLAYERS)
    urls = [f"/games/{game}"]  # the bids, with the trump choice
    page.goto(urls[0])
    tap(page, "data-bids-form", "Ben", 1)
    tap(page, "data-bids-form", "Cy", 0)
    tap(page, "data-bids-form", "Ann", 0)
    page.get_by_role("button", name="Save bids").click()
    expect(page.locator("form[data-tricks-form]")).to_be_visible()
    found = {}
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        for url in (f"/games/{game}", "/games/new?game=wizard", f"/games/{game}/share"):
            page.goto(url)
            problems = accessibility_problems(page)
            if problems:
                found[f"{url} ({scheme})"] = problems
    assert found == {}
