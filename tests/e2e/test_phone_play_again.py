"""At phone size in Chromium: Play again (issue 20). Seven players play a one-hand Oh Hell to
the end; on the finished game one tap (Play again, in view without a swipe) lands on the new
game's first hand, the same table with the deal moved one seat to the left. "Change seats
first" opens the new-game page with the table filled in, started with one more tap. The
finished page is shown in English and in Bengali."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from scorekeeper.i18n import LANGUAGES
from tests.browser import add_players
from tests.browser import in_view
from tests.browser import open_options
from tests.browser import screenshot
from tests.browser import seat_players
from tests.browser import sign_up
from tests.test_languages_flows import said

SEVEN = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus"]


def one_hand_of_oh_hell(page) -> str:
    """Seven players, one hand of one card, Gus (the last seat) dealing first: played to the
    end. The finished game's address."""
    page.goto("/games/new?game=oh_hell")
    seat_players(page, SEVEN)
    page.get_by_label("Gus deals first").check()
    open_options(page)
    page.locator("#opt-sequence").select_option("custom")
    page.locator("#opt-custom_sizes").fill("1")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/games/\d+$"))
    expect(page.locator(".hand-head .pill.dealer")).to_have_text("Gus deals")
    for form, button in (("data-bids-form", "Save bids"), ("data-tricks-form", "Save tricks")):
        for name in SEVEN:
            row = page.locator(f'form[{form}] li.row[data-player="{name}"]')
            value = "1" if name == "Ann" else "0"  # Ann, left of Gus, bids first
            row.locator("label.chip span").get_by_text(value, exact=True).click()
        page.get_by_role("button", name=button).click()
    expect(page.locator(".winner")).to_have_text("Ann wins!")
    return page.url.split("#")[0]


def test_play_again_is_one_tap_to_the_next_game_s_first_hand(phone):
    sign_up(phone)
    add_players(phone, *SEVEN)
    finished = one_hand_of_oh_hell(phone)
    phone.goto(finished)
    again = phone.get_by_role("button", name="Play again")
    assert in_view(phone, again), "Play again is off screen"
    expect(phone.get_by_text("The same seats and options; Ann deals first.")).to_be_visible()
    screenshot(phone, "play-again-finished")

    taps = 0
    again.click()
    taps += 1
    phone.wait_for_url(re.compile(r"/games/\d+#now$"))
    assert phone.url.split("#")[0] != finished
    # The first hand's entry, the deal one seat to the left of Gus: Ann (round the table).
    expect(phone.locator("#now h1")).to_have_text("Hand 1 of 1")
    expect(phone.locator(".hand-head .pill.dealer")).to_have_text("Ann deals")
    expect(phone.get_by_role("button", name="Save bids")).to_be_attached()
    rows = phone.locator("form[data-bids-form] li.row")
    expect(rows).to_have_count(7)
    expect(
        phone.get_by_text("Oh Hell started again: Ann, Ben, Cy, Dee, Eve, Fay, Gus.")
    ).to_be_visible()
    assert taps == 1
    screenshot(phone, "play-again-new-game")

    # Change seats first: the new-game page with the table, the options and the dealer filled in.
    phone.goto(finished)
    phone.get_by_role("link", name="Change seats first").click()
    phone.wait_for_url(re.compile(r"/games/new\?"))
    for seat, name in enumerate(SEVEN, start=1):
        expect(phone.get_by_label(f"Seat for {name}")).to_have_value(str(seat))
    expect(phone.get_by_label("Ann deals first")).to_be_checked()
    open_options(phone)
    expect(phone.locator("#opt-custom_sizes")).to_have_value("1")
    screenshot(phone, "play-again-change-seats")
    phone.get_by_role("button", name="Start the game").click()
    phone.wait_for_url(re.compile(r"/games/\d+$"))
    expect(phone.locator(".hand-head .pill.dealer")).to_have_text("Ann deals")

    # The finished game in Bengali: the offer fits the phone and is in view.
    phone.goto(finished)
    phone.locator("form.languages").get_by_role("button", name=LANGUAGES["bn"]).click()
    expect(phone.locator("html")).to_have_attribute("lang", "bn")
    again = phone.get_by_role("button", name=said("bn", "Play again"))
    assert in_view(phone, again)
    wide = phone.evaluate("document.documentElement.scrollWidth")
    assert wide <= phone.viewport_size["width"]
    screenshot(phone, "play-again-finished-bn")
