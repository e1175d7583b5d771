"""At phone size in Chromium: Auction Pitch on one screen per step. A partnership game and a
3-player game to a win; the auction's forced passes; the quick form brought into view; the
status line and Save in view without scrolling for 3 and 7 players at 390x844 and 360x740;
saves made in place with each total's change in view; smudge and no stealing."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser import accessibility_problems
from tests.browser import add_players
from tests.browser import in_view
from tests.browser import open_options
from tests.browser import screenshot
from tests.browser import seat_players
from tests.browser import sign_up
from tests.e2e.test_phone_accessibility import api_game

PLAYERS = ["Ann", "Ben", "Cy", "Dee"]
THREE = ["Ann", "Ben", "Cy"]
SEVEN = ["Ann", "Ben", "Cyrus", "Dee", "Eve", "Fay", "Gus"]


def call_row(page, player: str):
    return page.locator(f'[data-auction] [data-player="{player}"]')


def tap_call(page, player: str, call: str):
    call_row(page, player).locator("label.chip span").get_by_text(call, exact=True).click()


def tap_point(page, point: str, choice: str):
    row = page.locator(f'form[data-points-form] [data-point="{point}"]')
    row.locator("label.chip span").get_by_text(choice, exact=True).click()


def start_game(page, names, *checks, uncheck=()):
    page.goto("/games/new?game=pitch")
    seat_players(page, names)
    if checks or uncheck:
        open_options(page)
    for label in checks:
        page.get_by_label(label, exact=True).check()
    for label in uncheck:
        page.get_by_label(label, exact=True).uncheck()
    page.get_by_role("button", name="Start the game").click()


def test_a_partnership_game_to_a_win_on_a_phone(phone):
    sign_up(phone)
    add_players(phone, *PLAYERS)
    start_game(phone, PLAYERS, "Partnerships (4 players, partners sit opposite)")
    expect(phone.locator(".standings, .sheet")).to_have_count(0)

    for number, (dealer, first) in enumerate([("Ann", "Ben"), ("Ben", "Cy"), ("Cy", "Dee")], 1):
        expect(phone.locator("#now h1")).to_contain_text(f"Hand {number}")
        order = PLAYERS[PLAYERS.index(first) :] + PLAYERS[: PLAYERS.index(first)]
        # Only legal calls are offered: before anyone bids, the dealer cannot pass.
        expect(call_row(phone, dealer).locator('input[value="pass"]')).to_be_disabled()
        tap_call(phone, first, "4")
        # After a 4 nothing but a pass is allowed: the passes are filled in, and it says so.
        for name in order[1:]:
            expect(call_row(phone, name).locator('input[value="4"]')).to_be_disabled()
            expect(call_row(phone, name).locator('input[value="pass"]')).to_be_checked()
        expect(phone.locator("[data-status]")).to_have_text(
            f"{first} pitches 4 · the others pass (filled in)"
        )
        phone.get_by_role("button", name="Save the auction").click()
        expect(phone.locator("#now .pill.first")).to_have_text(f"{first} pitched 4")
        for point in ("high", "low", "jack", "game"):
            tap_point(phone, point, first)
        phone.get_by_role("button", name="Save the points").click()

    expect(phone.get_by_role("heading", name="Final standings")).to_be_visible()
    expect(phone.locator(".winner")).to_have_text("Ben & Dee win!")
    expect(phone.locator(".sheet tfoot td")).to_have_text(["4", "8"])


def test_a_three_player_game_to_a_win_on_a_phone(phone):
    sign_up(phone)
    add_players(phone, *THREE)
    start_game(phone, THREE)
    # Each hand the first bidder pitches 4 and takes all four points; hand 2 uses the quick
    # form. Ben reaches 8 as the pitcher of hand 4 and wins.
    for number, first in enumerate(["Ben", "Cy", "Ann", "Ben"], 1):
        expect(phone.locator("#now h1")).to_contain_text(f"Hand {number}")
        if number == 2:
            phone.evaluate("window.scrollTo(0, 0)")
            phone.get_by_text("Just record the pitcher and the bid").click()
            quick = phone.locator("details.quick")
            save = phone.get_by_role("button", name="Save pitcher and bid")
            # The quick form opens below the auction: it is brought into view.
            expect(save).to_be_in_viewport()
            screenshot(phone, "pitch-quick")
            quick.locator("label.chip span").get_by_text(first, exact=True).click()
            quick.locator("label.chip span").get_by_text("4", exact=True).click()
            save.click()
        else:
            tap_call(phone, first, "4")
            phone.get_by_role("button", name="Save the auction").click()
        for point in ("high", "low", "jack", "game"):
            tap_point(phone, point, first)
        expect(phone.locator("[data-status]")).to_have_text(f"{first} makes 4 (4 of 4)")
        phone.get_by_role("button", name="Save the points").click()
        if number == 3:
            expect(phone.locator(".sheet tfoot td")).to_have_text(["4", "4", "4"])
    expect(phone.locator(".winner")).to_have_text("Ben wins!")
    expect(phone.locator(".sheet tfoot td")).to_have_text(["4", "8", "4"])
    screenshot(phone, "pitch-finished")


def test_the_lone_jack_shortcut_ticks_high_low_and_jack(phone):
    sign_up(phone)
    add_players(phone, *THREE)
    start_game(phone, THREE)
    tap_call(phone, "Ben", "3")
    tap_call(phone, "Cy", "Pass")
    tap_call(phone, "Ann", "Pass")
    phone.get_by_role("button", name="Save the auction").click()
    toggle = phone.locator("label.toggle", has_text="…it was the jack (Jack too)")
    box = toggle.bounding_box()
    assert box["height"] >= 44 and box["width"] >= 44  # a tap target, not a 22 px box
    toggle.click()
    form = phone.locator("form[data-points-form]")
    for point in ("high", "low", "jack"):
        row = form.locator(f'[data-point="{point}"]')
        expect(row.locator('input[value="1"]')).to_be_checked()  # Ben's seat
    expect(form.locator("input[data-single-trump]")).to_be_checked()
    expect(phone.locator("[data-status]")).to_have_text("Ben has 3 of 3 · 1 to place")
    tap_point(phone, "game", "Cy")
    phone.get_by_role("button", name="Save the points").click()
    expect(phone.locator(".sheet tfoot td")).to_have_text(["0", "3", "1"])


def play_auction(page, names, dealer_index: int, pitcher: str, bid: str):
    start = (dealer_index + 1) % len(names)
    order = names[start:] + names[:start]
    for name in order:
        tap_call(page, name, bid if name == pitcher else "Pass")


@pytest.mark.parametrize("players", [THREE, SEVEN], ids=["3 players", "7 players"])
@pytest.mark.parametrize("size", ["phone", "small_phone"])
def test_each_step_fits_with_its_status_and_save_in_view(request, size, players):
    page = request.getfixturevalue(size)
    sign_up(page)
    add_players(page, *players)
    start_game(page, players)
    label = f"pitch-{len(players)}-{size}"
    page.evaluate("window.scrollTo(0, 0)")
    save = page.get_by_role("button", name="Save the auction")
    assert in_view(page, page.locator("[data-status]")) and in_view(page, save)
    screenshot(page, f"{label}-auction")
    play_auction(page, players, 0, players[1], "2")
    assert page.evaluate("window.scrollY") < 5 or in_view(page, save)
    save.click()
    status = page.locator("form[data-points-form] [data-status]")
    save = page.get_by_role("button", name="Save the points")
    expect(status).to_contain_text(f"{players[1]} needs 2 of the 4 points")
    assert in_view(page, status) and in_view(page, save)
    screenshot(page, f"{label}-points")
    for point in ("high", "low", "jack"):
        tap_point(page, point, players[1])
    tap_point(page, "game", "Tie")
    expect(status).to_have_text(f"{players[1]} makes 2 (3 of 4)")
    save.click()
    # The next hand's auction: each row's running total with its change, in view.
    total = call_row(page, players[1]).locator(".row-total")
    expect(total).to_contain_text("3+3")
    assert in_view(page, total)
    assert in_view(page, page.locator("[data-status]"))
    assert in_view(page, page.get_by_role("button", name="Save the auction"))
    screenshot(page, f"{label}-saved")


def test_a_save_is_one_request_in_place_and_shows_the_change(phone):
    sign_up(phone)
    add_players(phone, *THREE)
    start_game(phone, THREE)
    phone.wait_for_load_state("load")
    loads = []
    phone.on("load", lambda: loads.append(1))
    play_auction(phone, THREE, 0, "Cy", "3")
    with phone.expect_response(re.compile(r"/games/\d+/hands$")) as saved:
        phone.get_by_role("button", name="Save the auction").click()
    assert saved.value.status == 200
    for point in ("high", "low"):
        tap_point(phone, point, "Ann")
    tap_point(phone, "jack", "Not played")
    tap_point(phone, "game", "Cy")
    expect(phone.locator("[data-status]")).to_have_text("Cy is set back 3 (1 of 3)")
    expect(phone.locator("[data-status]")).to_have_class(re.compile(r"\bbad\b"))
    phone.get_by_role("button", name="Save the points").click()
    cy = call_row(phone, "Cy").locator(".row-total")
    expect(cy).to_contain_text("−3−3")
    expect(call_row(phone, "Ann").locator(".row-total")).to_contain_text("2+2")
    expect(phone.locator("#main")).to_have_class(re.compile("just-saved"))
    assert in_view(phone, cy)
    assert loads == []  # no page load: the answer replaced the page's main part
    # The standings say how far each side is from the target.
    expect(phone.locator(".standings li", has_text="Ann").locator(".note")).to_have_text("5 to go")


def test_smudge_wins_at_once_and_the_dealer_may_not_steal(phone):
    sign_up(phone)
    add_players(phone, *THREE)
    start_game(phone, THREE, "Smudge", uncheck=["The dealer may steal"])
    tap_call(phone, "Ben", "2")
    tap_call(phone, "Cy", "Pass")
    dealer = call_row(phone, "Ann")
    expect(dealer.locator(".pill.nosteal")).to_have_text("bids higher")
    # No stealing: the dealer may not equal the 2, only bid more.
    expect(dealer.locator('input[value="2"]')).to_be_disabled()
    expect(dealer.locator('input[value="3"]')).to_be_enabled()
    tap_call(phone, "Ann", "Pass")
    phone.get_by_role("button", name="Save the auction").click()
    # Cy takes all four points off Ben's pitch: a smudge wins, pitcher or not.
    for point in ("high", "low", "jack", "game"):
        tap_point(phone, point, "Cy")
    expect(phone.locator("[data-status]")).to_have_text("Smudge! Cy wins the game")
    phone.get_by_role("button", name="Save the points").click()
    expect(phone.locator(".winner")).to_have_text("Smudge! Cy wins!")
    assert in_view(phone, phone.locator(".winner"))
    screenshot(phone, "pitch-smudge")


def test_the_pitch_pages_have_no_serious_accessibility_problem(axe_phone):
    page = axe_phone
    sign_up(page)
    add_players(page, *PLAYERS)
    game = api_game(page, "pitch", PLAYERS)
    page.goto(f"/games/{game}")
    play_auction(page, PLAYERS, 0, "Ben", "2")
    page.get_by_role("button", name="Save the auction").click()
    for point in ("high", "low", "jack", "game"):
        tap_point(page, point, "Ben")
    page.get_by_role("button", name="Save the points").click()
    expect(call_row(page, "Ben").locator(".row-total")).to_contain_text("4+4")
    play_auction(page, PLAYERS, 1, "Cy", "3")
    page.get_by_role("button", name="Save the auction").click()
    expect(page.locator("form[data-points-form]")).to_be_visible()
    found = {}
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        for url in (f"/games/{game}", f"/games/{game}/hands/1/edit"):
            page.goto(url)
            if scheme == "light":
                screenshot(page, f"pitch-a11y-{'edit' if 'edit' in url else 'game'}")
            problems = accessibility_problems(page)
            if problems:
                found[f"{url} ({scheme})"] = problems
    assert found == {}


def test_a_long_name_without_spaces_wraps_on_a_small_phone(small_phone):
    page = small_phone
    long_name = "Maximiliana" * 3 + "Wolfesc"  # 40 letters, no space
    sign_up(page)
    add_players(page, long_name, "Ben", "Cy")
    # (Started through the API: the new-game page itself is another matter.)
    page.goto(f"/games/{api_game(page, 'pitch', [long_name, 'Ben', 'Cy'])}")
    play_auction(page, [long_name, "Ben", "Cy"], 0, "Ben", "2")
    page.get_by_role("button", name="Save the auction").click()
    expect(page.locator("form[data-points-form]")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    screenshot(page, "pitch-long-name-points")
    for point in ("high", "low", "jack", "game"):
        tap_point(page, point, long_name)
    page.get_by_role("button", name="Save the points").click()
    expect(call_row(page, long_name).locator(".row-total")).to_contain_text("4+4")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    screenshot(page, "pitch-long-name-auction")


def test_a_seven_player_hand_is_thirteen_taps_and_no_swipe(phone):
    sign_up(phone)
    add_players(phone, *SEVEN)
    start_game(phone, SEVEN)
    phone.evaluate("window.scrollTo(0, 0)")
    taps = 0

    def tap_in_view(locator):
        nonlocal taps
        assert in_view(phone, locator), "off screen"
        locator.click(no_wait_after=True)
        taps += 1

    order = SEVEN[1:] + SEVEN[:1]  # Ann deals: Ben first, Ann last
    for name in order:
        call = "3" if name == "Dee" else "Pass"
        tap_in_view(call_row(phone, name).locator("label.chip span").get_by_text(call, exact=True))
    expect(phone.locator("[data-status]")).to_have_text("Dee pitches 3")
    tap_in_view(phone.get_by_role("button", name="Save the auction"))
    expect(phone.locator("#now .pill.first")).to_have_text("Dee pitched 3")
    for point, who in (("high", "Dee"), ("low", "Dee"), ("jack", "Eve"), ("game", "Dee")):
        row = phone.locator(f'form[data-points-form] [data-point="{point}"]')
        tap_in_view(row.locator("label.chip span").get_by_text(who, exact=True))
    expect(phone.locator("[data-status]")).to_have_text("Dee makes 3 (3 of 4)")
    tap_in_view(phone.get_by_role("button", name="Save the points"))
    dee = call_row(phone, "Dee").locator(".row-total")
    expect(dee).to_contain_text("3+3")
    assert in_view(phone, dee)
    assert phone.evaluate("window.scrollY") < 5  # no swipe from the first call to the totals
    assert taps == 13
