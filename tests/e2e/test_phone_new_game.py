"""The new-game page on a phone (issue 27, items 15, 16, 17 and the Deals-first radios of 22):
the seats counted and numbered and a tap with every seat taken refused with a reason; the
options folded under the line that says them with Start always in view; the last options
of that game filled in; thumb-sized Deals-first radios; and a 40-letter name that widens no
page."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser import SMALL_PHONE
from tests.browser import _phone_page
from tests.browser import add_players
from tests.browser import in_view
from tests.browser import open_options
from tests.browser import screenshot
from tests.browser import sign_up

SEVEN = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus"]
LONG = "Wolfeschlegelsteinhausenbergerdorffvoral"  # 40 letters, no space


def seat(page, name: str):
    return page.locator("label.seat-name", has_text=name)


def badge(page, name: str):
    return seat(page, name).locator("[data-seat-no]")


def width(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth")


def test_each_seat_is_numbered_counted_and_a_seventh_tap_says_why(phone):
    sign_up(phone)
    add_players(phone, *SEVEN)
    phone.goto("/games/new?game=wizard")  # 3 to 6 players
    count = phone.locator("[data-seat-count]")
    refusal = phone.locator("[data-seat-full]")
    expect(count).to_have_text("0 of 3–6 seated")
    assert in_view(phone, count)
    for number, name in enumerate(SEVEN[:6], start=1):
        seat(phone, name).click()
        expect(badge(phone, name)).to_have_text(str(number))
        expect(count).to_have_text(f"{number} of 3–6 seated")
    expect(badge(phone, "Gus")).to_be_hidden()
    seat(phone, "Gus").click()
    said = "All 6 seats are taken: Wizard is played by 3 to 6 players. Free a seat first."
    expect(refusal).to_have_text(said)
    expect(refusal).to_be_visible()
    assert in_view(phone, refusal)
    expect(phone.get_by_label("Seat for Gus")).to_have_value("")
    expect(count).to_have_text("6 of 3–6 seated")
    screenshot(phone, "new-game-seats-full")
    # Freeing a seat: the next tap takes it.
    seat(phone, "Cy").click()
    expect(refusal).to_be_hidden()
    expect(badge(phone, "Cy")).to_be_hidden()
    expect(count).to_have_text("5 of 3–6 seated")
    seat(phone, "Gus").click()
    expect(badge(phone, "Gus")).to_have_text("3")
    expect(count).to_have_text("6 of 3–6 seated")


def test_the_deals_first_radios_are_thumb_sized(phone):
    sign_up(phone)
    add_players(phone, "Ann", "Ben", "Cy")
    phone.goto("/games/new?game=oh_hell")
    targets = phone.locator("table.seats label.radio-tap")
    expect(targets).to_have_count(3 + 3)
    for target in targets.all():
        box = target.bounding_box()
        assert box and box["width"] >= 44 and box["height"] >= 44, box
    # A tap near the target's corner still marks the dealer.
    box = targets.nth(1).bounding_box()
    phone.mouse.click(box["x"] + 3, box["y"] + 3)
    expect(phone.get_by_label("Ben deals first")).to_be_checked()


def test_start_is_in_view_and_the_options_one_tap_away(phone):
    sign_up(phone)
    add_players(phone, "Ann", "Ben", "Cy", "Dee")
    phone.goto("/games/new?game=oh_hell")
    start = phone.get_by_role("button", name="Start the game")
    assert in_view(phone, start)
    height = phone.evaluate("document.documentElement.scrollHeight")
    assert height <= 1.3 * 844, f"the page is {height} px with its options folded"
    line = phone.locator("[data-options-summary]")
    expect(line).to_have_text("Standard")
    expect(phone.get_by_label("Hook", exact=True)).to_be_hidden()
    screenshot(phone, "new-game-folded")
    open_options(phone)
    phone.get_by_label("Hook", exact=True).check()
    phone.get_by_label("Most cards in a hand").fill("5")
    expect(line).to_have_text("Standard · Most cards in a hand: 5 · Hook")
    phone.get_by_role("button", name="Penalty", exact=True).click()
    expect(line).to_have_text("Penalty · Most cards in a hand: 5 · Hook")
    # Deep among the options, Start is still on the screen.
    phone.get_by_label("Must trump (La Podrida)").scroll_into_view_if_needed()
    assert in_view(phone, start)
    screenshot(phone, "new-game-options-open")
    for name in ["Ann", "Ben", "Cy", "Dee"]:
        seat(phone, name).click()
    start.click()
    expect(phone.locator("#now h1")).to_have_text("Hand 1 of 5")


def test_the_last_options_of_that_game_are_filled_in(phone):
    sign_up(phone)
    add_players(phone, "Ann", "Ben", "Cy")
    phone.goto("/games/new?game=oh_hell")
    for name in ["Ann", "Ben", "Cy"]:
        seat(phone, name).click()
    open_options(phone)
    phone.get_by_label("Hook", exact=True).check()
    phone.get_by_label("Cards per hand").select_option("down")
    phone.get_by_label("Most cards in a hand").fill("4")
    phone.get_by_role("button", name="Start the game").click()
    expect(phone.locator("#now h1")).to_have_text("Hand 1 of 4")
    phone.goto("/games/new?game=oh_hell")
    expect(phone.locator("[data-options-summary]")).to_have_text(
        "Standard · Cards per hand: Down: the most, then one fewer each hand to 1 · "
        "Most cards in a hand: 4 · Hook"
    )
    expect(phone.get_by_text("As in your last game of Oh Hell.")).to_be_visible()
    expect(phone.get_by_label("Hook", exact=True)).to_be_hidden()  # folded
    open_options(phone)
    expect(phone.get_by_label("Hook", exact=True)).to_be_checked()
    expect(phone.get_by_label("Cards per hand")).to_have_value("down")
    expect(phone.get_by_label("Most cards in a hand")).to_have_value("4")
    # Another game starts from its own defaults.
    phone.goto("/games/new?game=wizard")
    expect(phone.locator("[data-options-summary]")).to_have_text("Standard")


def test_a_forty_letter_name_widens_no_page(browser, live_server):
    pages = _phone_page(browser, live_server, {"width": 390, "height": 844})
    phone = next(pages)
    try:
        sign_up(phone)
        add_players(phone, LONG, "Ben", "Cy")
        wide = {}
        phone.goto("/players/")
        wide["players"] = width(phone)
        phone.goto("/games/new?game=oh_hell")
        wide["new game"] = width(phone)
        for name in [LONG, "Ben", "Cy"]:
            seat(phone, name).click()
        wide["new game, seated"] = width(phone)
        screenshot(phone, "new-game-long-name")
        phone.get_by_role("button", name="Start the game").click()
        expect(phone.locator("#now h1")).to_have_text("Hand 1 of 15")
        wide["game entry"] = width(phone)
        game = phone.url.rsplit("/", 1)[1]
        for form, values in (("data-bids-form", (1, 0, 0)), ("data-tricks-form", (1, 0, 0))):
            for name, value in zip([LONG, "Ben", "Cy"], values, strict=True):
                chips = phone.locator(f'form[{form}] li.row[data-player="{name}"] label.chip span')
                chips.get_by_text(str(value), exact=True).click()
            phone.locator(f"form[{form}] [data-save]").click()
        expect(phone.locator("#now h1")).to_have_text("Hand 2 of 15")
        wide["game entry, hand 2"] = width(phone)
        phone.goto(f"/games/{game}?sheet=all")
        phone.locator("#sheet-title").scroll_into_view_if_needed()
        wide["sheet"] = width(phone)
        phone.goto("/")
        wide["home"] = width(phone)
        screenshot(phone, "home-long-name")
        phone.goto("/nights/")
        wide["history"] = width(phone)
        phone.goto(f"/history/games/{game}")
        wide["game in history"] = width(phone)
        phone.goto("/games/")
        wide["games"] = width(phone)
        phone.goto("/stats/")
        wide["statistics"] = width(phone)
        assert all(value <= 390 for value in wide.values()), wide
        # Home's card keeps the name inside it.
        card = phone.locator(".card", has_text=LONG).first
        box = card.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390, box
    finally:
        next(pages, None)


def test_the_new_game_page_fits_a_small_phone(browser, live_server):
    pages = _phone_page(browser, live_server, SMALL_PHONE)
    phone = next(pages)
    try:
        sign_up(phone)
        add_players(phone, LONG, "Ben", "Cy")
        phone.goto("/games/new?game=pitch")
        assert width(phone) <= 360
        assert in_view(phone, phone.get_by_role("button", name="Start the game"))
        open_options(phone)
        assert width(phone) <= 360
        expect(phone.locator("[data-options-summary]")).to_have_text(re.compile("Standard"))
    finally:
        next(pages, None)
