"""At phone size in Chromium: a few Hearts hands on one screen each. The passing direction
in the head, the points added up in the status line as they are typed, the moon button, a
refused hand kept as typed with the message beside the field, saves made in place."""

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

PLAYERS = ["Ann", "Ben", "Cy", "Dee"]


def start_game(page, names, **choices):
    page.goto("/games/new")
    page.get_by_role("link", name=re.compile("Hearts")).click()
    seat_players(page, names)
    if choices:
        open_options(page)
    for key, value in choices.items():  # options by their field
        field = page.locator(f'[name="opt-{key}"]')
        if value is True:
            field.check()
        else:
            field.select_option(value)
    page.get_by_role("button", name="Start the game").click()


def field(page, name: str):
    return page.locator(f'form[data-hearts-form] li.row[data-player="{name}"] input[data-points]')


def enter(page, values):
    for name, value in zip(PLAYERS, values, strict=True):
        field(page, name).fill(str(value))


def totals(page) -> list[str]:
    return page.locator(".sheet tfoot td").all_inner_texts()


def test_a_few_hearts_hands_on_a_phone(phone):
    sign_up(phone)
    add_players(phone, *PLAYERS)
    start_game(phone, PLAYERS, jack_of_diamonds=True)
    expect(phone.locator("#now h1")).to_contain_text("Hand 1")
    expect(phone.locator(".hand-head .tile strong")).to_have_text("←")
    expect(phone.locator(".hand-head .pills")).to_contain_text("Pass three cards to the left")
    expect(phone.locator("[data-status]")).to_have_text("No points yet · 26 to share")
    screenshot(phone, "hearts-hand-1")

    # Hand 1: typed one by one, the status line keeps the sum.
    field(phone, "Ann").fill("13")
    expect(phone.locator("[data-status]")).to_have_text("Points so far 13 of 26")
    field(phone, "Ben").fill("5")
    field(phone, "Cy").fill("8")
    field(phone, "Dee").fill("0")
    expect(phone.locator("[data-status]")).to_have_text("Points so far 26 of 26")
    phone.get_by_label("Jack of diamonds (−10) taken by").select_option("Dee")
    save = phone.get_by_role("button", name="Save hand 1")
    assert in_view(phone, save)  # the pinned Save bar
    save.click()
    expect(phone.locator("#now h1")).to_contain_text("Hand 2")
    expect(phone.locator(".hand-head .tile strong")).to_have_text("→")
    expect(phone.locator("main")).to_have_class(re.compile("just-saved"))  # saved in place
    assert totals(phone) == ["13", "5", "8", "−10"]

    # Hand 2: points that do not add up are refused, kept, and said why.
    enter(phone, [10, 5, 8, 0])
    expect(phone.locator("[data-status]")).to_have_class(re.compile("bad"))
    phone.get_by_role("button", name="Save hand 2").click()
    expect(phone.locator("form[data-hearts-form] .error").first).to_contain_text(
        "The points add up to 23"
    )
    expect(field(phone, "Ann")).to_have_value("10")
    screenshot(phone, "hearts-refused")
    field(phone, "Ann").fill("13")
    phone.get_by_role("button", name="Save hand 2").click()
    expect(phone.locator("#now h1")).to_contain_text("Hand 3")

    # Hand 3: Ben shoots the moon with one tap.
    phone.get_by_role("button", name="Ben shot the moon (all 26)").click()
    expect(field(phone, "Ben")).to_have_value("26")
    expect(field(phone, "Ann")).to_have_value("0")
    expect(phone.locator("[data-status]")).to_have_text("Ben took all 26: shooting the moon")
    phone.get_by_role("button", name="Save hand 3").click()
    expect(phone.locator(".notices .notice")).to_have_text(
        "Ben shot the moon in hand 3: everyone else scores 26."
    )
    expect(phone.locator(".hand-head .pills")).to_contain_text("No passing: keep your cards")
    assert totals(phone) == ["52", "10", "42", "16"]
    screenshot(phone, "hearts-after-moon")
    phone.locator(".sheet-card").scroll_into_view_if_needed()
    screenshot(phone, "hearts-sheet")


def test_the_hearts_pages_have_no_serious_accessibility_problem(axe_phone):
    page = axe_phone
    sign_up(page)
    add_players(page, *PLAYERS)
    start_game(page, PLAYERS, jack_of_diamonds=True)
    game = page.url.rsplit("/", 1)[1]
    enter(page, [13, 5, 8, 0])
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.locator("#now h1")).to_contain_text("Hand 2")
    urls = ["/games/new?game=hearts", f"/games/{game}", f"/games/{game}/hands/1/edit"]
    found = {}
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        for url in urls:
            page.goto(url)
            problems = accessibility_problems(page)
            if problems:
                found[f"{url} ({scheme})"] = problems
        # A refused hand, as the table sees it.
        page.goto(f"/games/{game}")
        enter(page, [13, 5, 8, 1])
        page.get_by_role("button", name="Save hand 2").click()
        expect(page.locator("[data-status]")).to_have_class(re.compile("bad"))
        problems = accessibility_problems(page)
        if problems:
            found[f"refused ({scheme})"] = problems
    assert found == {}
