"""At phone size in Chromium: a 4-player partnership Pitch game to a win."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.e2e.conftest import add_players
from tests.e2e.conftest import sign_up

PLAYERS = ["Ann", "Ben", "Cy", "Dee"]


def tap_call(page, player: str, call: str):
    row = page.locator(f'[data-auction] fieldset[data-player="{player}"]')
    row.locator("label.chip span").get_by_text(call, exact=True).click()


def tap_point(page, point: str, choice: str):
    row = page.locator(f'form[data-points-form] fieldset[data-point="{point}"]')
    row.locator("label.chip span").get_by_text(choice, exact=True).click()


def test_a_partnership_game_to_a_win_on_a_phone(phone):
    sign_up(phone)
    add_players(phone, *PLAYERS)
    phone.goto("/games/new?game=pitch")
    for name in PLAYERS:
        phone.locator("label.seat-name", has_text=name).click()
    phone.get_by_label("Partnerships (4 players, partners sit opposite)").check()
    phone.get_by_role("button", name="Start the game").click()
    expect(phone.get_by_text("partners: Ann & Cy vs Ben & Dee")).to_be_visible()

    for number, (dealer, first) in enumerate([("Ann", "Ben"), ("Ben", "Cy"), ("Cy", "Dee")], 1):
        expect(phone.get_by_role("heading", name=f"Auction for hand {number}")).to_be_visible()
        order = PLAYERS[PLAYERS.index(first) :] + PLAYERS[: PLAYERS.index(first)]
        # Only legal calls are offered: before anyone bids, the dealer cannot pass.
        dealer_pass = phone.locator(
            f'[data-auction] fieldset[data-player="{dealer}"] input[value="pass"]'
        )
        expect(dealer_pass).to_be_disabled()
        tap_call(phone, first, "4")
        for name in order[1:]:
            # After a 4 nothing but a pass is allowed.
            row = phone.locator(f'[data-auction] fieldset[data-player="{name}"]')
            expect(row.locator('input[value="4"]')).to_be_disabled()
            tap_call(phone, name, "Pass")
        expect(phone.locator("[data-auction-note]")).to_have_text(f"{first} pitches 4.")
        phone.get_by_role("button", name="Save the auction").click()
        expect(phone.locator(".pitch-line")).to_contain_text(f"{first} pitched 4")
        for point in ("high", "low", "jack", "game"):
            tap_point(phone, point, first)
        phone.get_by_role("button", name="Save the points").click()

    expect(phone.get_by_role("heading", name="Final standings")).to_be_visible()
    expect(phone.locator(".winner")).to_have_text("Ben & Dee win!")
    expect(phone.locator(".sheet tfoot td")).to_have_text(["4", "8"])


def test_a_three_player_game_to_a_win_on_a_phone(phone):
    players = ["Ann", "Ben", "Cy"]
    sign_up(phone)
    add_players(phone, *players)
    phone.goto("/games/new?game=pitch")
    for name in players:
        phone.locator("label.seat-name", has_text=name).click()
    phone.get_by_role("button", name="Start the game").click()
    # Each hand the first bidder pitches 4 and takes all four points; hand 2 uses the quick
    # form. Ben reaches 8 as the pitcher of hand 4 and wins.
    for number, first in enumerate(["Ben", "Cy", "Ann", "Ben"], 1):
        expect(phone.get_by_role("heading", name=f"Auction for hand {number}")).to_be_visible()
        if number == 2:
            phone.get_by_text("Just record the pitcher and the bid").click()
            quick = phone.locator("details.quick")
            quick.locator("label.chip span").get_by_text(first, exact=True).click()
            quick.locator("label.chip span").get_by_text("4", exact=True).click()
            phone.get_by_role("button", name="Save pitcher and bid").click()
        else:
            tap_call(phone, first, "4")
            start = players.index(first)
            for name in (players[start:] + players[:start])[1:]:
                tap_call(phone, name, "Pass")
            phone.get_by_role("button", name="Save the auction").click()
        for point in ("high", "low", "jack", "game"):
            tap_point(phone, point, first)
        phone.get_by_role("button", name="Save the points").click()
        if number == 3:
            expect(phone.locator(".sheet tfoot td")).to_have_text(["4", "4", "4"])
    expect(phone.locator(".winner")).to_have_text("Ben wins!")
    expect(phone.locator(".sheet tfoot td")).to_have_text(["4", "8", "4"])


def test_the_lone_jack_shortcut_ticks_high_low_and_jack(phone):
    sign_up(phone)
    add_players(phone, "Ann", "Ben", "Cy")
    phone.goto("/games/new?game=pitch")
    for name in ["Ann", "Ben", "Cy"]:
        phone.locator("label.seat-name", has_text=name).click()
    phone.get_by_role("button", name="Start the game").click()
    tap_call(phone, "Ben", "3")
    tap_call(phone, "Cy", "Pass")
    tap_call(phone, "Ann", "Pass")
    phone.get_by_role("button", name="Save the auction").click()
    phone.get_by_label("…and it was the jack (Jack too)").check()
    form = phone.locator("form[data-points-form]")
    for point in ("high", "low", "jack"):
        row = form.locator(f'fieldset[data-point="{point}"]')
        expect(row.locator('input[value="1"]')).to_be_checked()  # Ben's seat
    expect(phone.get_by_label(re.compile("Only one trump was played"))).to_be_checked()
    tap_point(phone, "game", "Cy")
    phone.get_by_role("button", name="Save the points").click()
    expect(phone.locator(".sheet tfoot td")).to_have_text(["0", "3", "1"])
