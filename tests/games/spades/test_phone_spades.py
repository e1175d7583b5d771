"""At phone size in Chromium: Spades on one screen per hand. A short game to 250 in
partnerships with a nil, then blind nil offered to the team 100 behind; the status and Save
bar in view."""

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

FOUR = ["Ann", "Ben", "Cy", "Dee"]


def start_game(page, target="250", blind_nil=False):
    page.goto("/games/new")
    page.get_by_role("link", name=re.compile("Spades")).click()
    seat_players(page, FOUR)
    open_options(page)
    page.get_by_label("Points to win").select_option(target)
    if blind_nil:
        page.get_by_label("Blind nil", exact=True).check()
    page.get_by_role("button", name="Start the game").click()


def row(page, form: str, player: str):
    return page.locator(f'form[{form}] li.row[data-player="{player}"]')


def tap(page, form: str, player: str, value: int | str):
    row(page, form, player).locator("label.chip span").get_by_text(str(value), exact=True).click()


def play(page, bids: dict, tricks: dict):
    for name, bid in bids.items():
        tap(page, "data-bids-form", name, "Nil" if bid == 0 else bid)
    page.get_by_role("button", name="Save bids").click()
    for name, took in tricks.items():
        tap(page, "data-tricks-form", name, took)
    page.get_by_role("button", name="Save tricks").click()


def test_a_short_game_to_250_on_a_phone(phone):
    sign_up(phone)
    add_players(phone, *FOUR)
    start_game(phone)
    expect(phone.locator("#now h1")).to_have_text("Hand 1 to 250")
    expect(phone.locator(".to-target li").first).to_contain_text("250 to go")
    assert in_view(phone, phone.locator("[data-status]"))
    assert in_view(phone, phone.get_by_role("button", name="Save bids"))
    screenshot(phone, "spades-bids")
    # Hand 1: Ben bids nil and makes it.
    for name, bid in {"Ben": 0, "Cy": 4, "Dee": 5, "Ann": 3}.items():
        tap(phone, "data-bids-form", name, "Nil" if bid == 0 else bid)
    expect(phone.locator("[data-status]")).to_contain_text("Bids total 12 for 13 cards")
    phone.get_by_role("button", name="Save bids").click()
    status = phone.locator("form[data-tricks-form] [data-status]")
    expect(status).to_contain_text("Contracts: Ann & Cy 7 · Ben & Dee 5")
    expect(row(phone, "data-tricks-form", "Ben").locator(".pill.bid")).to_have_text("nil")
    for name, took in {"Ben": 0, "Cy": 4, "Dee": 6, "Ann": 3}.items():
        tap(phone, "data-tricks-form", name, took)
    expect(status).to_contain_text("tricks: 13 of 13")
    screenshot(phone, "spades-tricks")
    phone.get_by_role("button", name="Save tricks").click()
    expect(phone.locator("#now h1")).to_have_text("Hand 2 to 250")
    expect(phone.locator(".to-target li").nth(1)).to_contain_text("Ben & Dee 151 99 to go · 1 bag")
    totals = {"Ann & Cy": 70, "Ben & Dee": 151}
    for number in (2, 3):  # 8 and 5 bid and made: 80 and 50 a hand
        expect(phone.locator("#now h1")).to_have_text(f"Hand {number} to 250")
        play(
            phone, {"Cy": 4, "Dee": 2, "Ann": 4, "Ben": 3}, {"Cy": 4, "Dee": 2, "Ann": 4, "Ben": 3}
        )
        totals = {"Ann & Cy": totals["Ann & Cy"] + 80, "Ben & Dee": totals["Ben & Dee"] + 50}
    expect(phone.locator(".winner")).to_have_text("Ben & Dee win!")
    expect(phone.locator(".sheet tbody tr")).to_have_count(3)
    expect(phone.locator(".sheet tfoot td")).to_have_text([str(t) for t in totals.values()])
    screenshot(phone, "spades-final")


def test_blind_nil_is_offered_only_to_the_team_behind(phone):
    sign_up(phone)
    add_players(phone, *FOUR)
    start_game(phone, target="500", blind_nil=True)
    expect(phone.locator('input[name^="blind-"]')).to_have_count(0)
    # Ben & Dee set and Ben's nil fails: far behind.
    play(phone, {"Ben": 0, "Cy": 4, "Dee": 5, "Ann": 3}, {"Ben": 1, "Cy": 4, "Dee": 4, "Ann": 4})
    expect(phone.locator(".notices")).to_contain_text("Ben & Dee are 100 or more behind")
    expect(
        row(phone, "data-bids-form", "Ben").get_by_label("Blind nil (before looking: ±200)")
    ).to_be_visible()
    expect(row(phone, "data-bids-form", "Ann").locator('input[name^="blind-"]')).to_have_count(0)
    screenshot(phone, "spades-blind-nil")
    row(phone, "data-bids-form", "Dee").get_by_label("Blind nil (before looking: ±200)").check()
    for name, bid in {"Cy": 4, "Ann": 4, "Ben": 4}.items():
        tap(phone, "data-bids-form", name, bid)
    phone.get_by_role("button", name="Save bids").click()
    expect(row(phone, "data-tricks-form", "Dee").locator(".pill.bid")).to_have_text("blind nil")


def test_no_serious_accessibility_problem_on_spades_pages(axe_phone):
    page = axe_phone
    sign_up(page)
    add_players(page, *FOUR)
    start_game(page, target="500", blind_nil=True)
    game = page.url.rsplit("/", 1)[1].split("#")[0]
    play(page, {"Ben": 0, "Cy": 4, "Dee": 5, "Ann": 3}, {"Ben": 1, "Cy": 4, "Dee": 4, "Ann": 4})
    expect(page.locator(".blind-nil").first).to_be_visible()
    found = {}
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        for url in (f"/games/{game}", f"/games/{game}/hands/1/edit", f"/history/games/{game}"):
            page.goto(url)
            problems = accessibility_problems(page)
            if problems:
                found[f"{url} ({scheme})"] = problems
    assert found == {}


def test_on_a_small_phone_the_status_and_save_stay_in_view(small_phone):
    sign_up(small_phone)
    add_players(small_phone, *FOUR)
    start_game(small_phone)
    small_phone.evaluate("window.scrollTo(0, 0)")
    assert in_view(small_phone, small_phone.locator("[data-status]"))
    assert in_view(small_phone, small_phone.get_by_role("button", name="Save bids"))
    screenshot(small_phone, "spades-small")
