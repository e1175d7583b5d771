"""At phone size in Chromium: a score pad for any game. Its name on the page, one number per
player (negative with ±, blank counts 0), the status line, saves made in place, a refused
number kept beside its field, and "End the game" naming the winner."""

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

PLAYERS = ["Ann", "Ben", "Cy", "Dee", "Eve"]


def field(page, name: str):
    return page.locator(f'form[data-pad-form] li.row[data-player="{name}"] input[data-points]')


def totals(page) -> list[str]:
    return page.locator(".sheet tfoot td").all_inner_texts()


def test_a_score_pad_game_on_a_phone(phone):
    sign_up(phone)
    add_players(phone, *PLAYERS)
    phone.goto("/games/new")
    phone.get_by_role("link", name=re.compile("Score pad")).click()
    seat_players(phone, PLAYERS)
    open_options(phone)
    phone.get_by_label("Game name", exact=True).fill("Catan")
    phone.get_by_label("Show the dealer", exact=True).check()
    phone.get_by_label("Game name", exact=True).scroll_into_view_if_needed()
    screenshot(phone, "score-pad-new")
    phone.get_by_role("button", name="Start the game").click()
    expect(phone.locator("#now h1")).to_contain_text("round 1")
    expect(phone.locator("#now h1")).to_contain_text("Catan")
    expect(phone.locator(".hand-head .pills")).to_contain_text("Ann deals")
    expect(phone.locator("[data-status]")).to_have_text("No points yet · a blank counts 0")
    screenshot(phone, "score-pad-round-1")

    field(phone, "Ann").fill("7")
    field(phone, "Ben").fill("3")
    phone.get_by_role("button", name="Change the sign of Ben’s points").click()
    expect(field(phone, "Ben")).to_have_value("-3")
    expect(phone.locator("[data-status]")).to_contain_text("Points so far 4 · 2 of 5 entered")
    save = phone.get_by_role("button", name="Save round 1")
    assert in_view(phone, save)
    save.click()
    expect(phone.locator("#now h1")).to_contain_text("round 2")
    expect(phone.locator(".hand-head .pills")).to_contain_text("Ben deals")
    assert totals(phone) == ["7", "−3", "0", "0", "0"]

    # A number that is no whole number is refused beside its field, as typed (a 400).
    phone.allowed_errors.append("status of 400")
    field(phone, "Cy").fill("4")
    field(phone, "Dee").fill("2.5")
    phone.get_by_role("button", name="Save round 2").click()
    dee = phone.locator('form[data-pad-form] li.row[data-player="Dee"]')
    expect(dee.locator(".error")).to_have_text("Dee's points must be a whole number.")
    expect(field(phone, "Cy")).to_have_value("4")
    screenshot(phone, "score-pad-refused")
    field(phone, "Dee").fill("2")
    phone.get_by_role("button", name="Save round 2").click()
    expect(phone.locator("#now h1")).to_contain_text("round 3")
    assert totals(phone) == ["7", "−3", "4", "2", "0"]

    field(phone, "Eve").fill("9")
    phone.get_by_role("button", name="Save round 3").click()
    expect(phone.locator("#now h1")).to_contain_text("round 4")
    screenshot(phone, "score-pad-round-4")

    phone.once("dialog", lambda dialog: dialog.accept())
    phone.get_by_role("button", name="End the game").click()
    expect(phone.locator(".winner")).to_have_text("Eve wins!")
    expect(phone.locator("#final-title")).to_have_text("Catan: game over")
    screenshot(phone, "score-pad-finished")

    # The leaderboard groups plays by the game's name, with a filter that is plain links.
    phone.goto("/stats/score_pad")
    phone.get_by_role("navigation", name="Which games").get_by_role("link", name="Catan").click()
    expect(phone).to_have_url(re.compile(r"/stats/score_pad\?variant=Catan$"))
    expect(phone.locator(".plays")).to_have_text("Catan: 1 play, Eve won 1")
    screenshot(phone, "score-pad-leaderboard")


def test_the_score_pad_pages_have_no_serious_accessibility_problem(axe_phone):
    page = axe_phone
    sign_up(page)
    add_players(page, *PLAYERS[:3])
    page.goto("/games/new?game=score_pad")
    for name in PLAYERS[:3]:
        page.locator("label.seat-name", has_text=name).click()
    open_options(page)
    page.get_by_label("Game name", exact=True).fill("Dominoes")
    page.get_by_role("button", name="Start the game").click()
    game = page.url.rsplit("/", 1)[1]
    field(page, "Ann").fill("5")
    page.get_by_role("button", name="Save round 1").click()
    expect(page.locator("#now h1")).to_contain_text("round 2")
    page.allowed_errors.append("status of 400")
    urls = [
        "/games/new?game=score_pad",
        f"/games/{game}",
        f"/games/{game}/hands/1/edit",
        "/stats/score_pad",
    ]
    found = {}
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        for url in urls:
            page.goto(url)
            problems = accessibility_problems(page)
            if problems:
                found[f"{url} ({scheme})"] = problems
        page.goto(f"/games/{game}")
        field(page, "Ben").fill("1.5")
        page.get_by_role("button", name="Save round 2").click()
        expect(page.locator('li.row[data-player="Ben"] .error')).to_be_visible()
        problems = accessibility_problems(page)
        if problems:
            found[f"refused ({scheme})"] = problems
    assert found == {}
