"""At 390x844 in Chromium, in Bengali: the numbers the game pages and their scripts write are
in Bengali digits (issue 27, item 12): the Hearts status line and moon button, Pitch's bid
chips, its tile and its points status line, and the hand sizes a saved rule set fills in."""

from __future__ import annotations

import json
import re

from playwright.sync_api import expect

from tests.browser import open_options
from tests.browser import screenshot
from tests.browser import seat_players
from tests.e2e.test_phone_accessibility import api_game
from tests.e2e.test_phone_script_words import call
from tests.e2e.test_phone_script_words import in_language
from tests.e2e.test_phone_script_words import says
from tests.test_languages_flows import said
from tests.test_languages_flows import written


def test_hearts_status_line_and_moon_button_write_bengali_digits(phone):
    page = phone
    in_language(page, "bn")
    page.goto(f"/games/{api_game(page, 'hearts', ['Ann', 'Ben', 'Cy'])}")
    status = page.locator("form[data-hearts-form] [data-status]")
    moon = page.locator('[data-player="Ben"] button[data-moon]')
    expect(moon).to_have_text(f"☾ {written('bn', 26)}")
    page.locator('[data-player="Ann"] input[data-points]').fill("5")
    expect(status).to_have_text(said("bn", "Points so far %(sum)s of %(all)s", sum=5, all=26))
    page.locator('[data-player="Cy"] input[data-points]').fill("13")
    expect(status).to_have_text(said("bn", "Points so far %(sum)s of %(all)s", sum=18, all=26))
    assert not re.search(r"[0-9]", status.inner_text())
    moon.click()
    expect(status).to_have_text(said("bn", "%(name)s took all 26: shooting the moon", name="Ben"))
    screenshot(page, "bn-hearts-words")


def test_pitch_chips_tile_and_points_status_write_bengali_digits(phone):
    page = phone
    in_language(page, "bn")
    page.goto(f"/games/{api_game(page, 'pitch', ['Ann', 'Ben', 'Cy'])}")
    expect(page.locator("#now .tile strong")).to_have_text(written("bn", 7))  # to 7
    call(page, "Ben", written("bn", 3))
    call(page, "Cy", said("bn", "Pass"))
    call(page, "Ann", said("bn", "Pass"))
    page.get_by_role("button", name=said("bn", "Save the auction")).click()
    expect(page.locator("#now .tile strong")).to_have_text(written("bn", 3))  # Ben's bid
    status = page.locator("form[data-points-form] [data-status]")
    page.locator('[data-point="high"] input[value="1"] + span').click()
    expect(status).to_have_text(
        says(
            "bn",
            "%(name)s has %(won)s of %(bid)s · %(left)s to place",
            name="Ben",
            won=1,
            bid=3,
            left=3,
        )
    )
    assert not re.search(r"[0-9]", status.inner_text())
    screenshot(page, "bn-pitch-points-words")


def test_a_rule_set_fills_its_hand_sizes_in_bengali_digits(phone):
    """A saved rule set with custom hand sizes, tapped on the new-game page, writes them as
    the page would (৩, ২, ১); the game starts with those sizes."""
    page = phone
    in_language(page, "bn")
    token = page.request.post(
        "/api/v1/tokens",
        headers={"Authorization": "Basic ZnJpZGF5LWNsdWI6Y29ycmVjdCBob3JzZSBiYXR0ZXJ5"},
    ).json()["token"]
    options = {"sequence": "custom", "custom_sizes": [3, 2, 1]}
    saved = page.request.post(
        "/api/v1/rulesets",
        data=json.dumps({"game": "oh_hell", "name": "Short", "options": options}),
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )
    assert saved.status == 201, saved.text()
    page.goto("/games/new?game=oh_hell")
    open_options(page)
    sizes = page.locator("#opt-custom_sizes")
    expect(sizes).to_have_value("")
    page.get_by_role("button", name="Short", exact=True).click()
    expect(sizes).to_have_value("৩, ২, ১")
    screenshot(page, "bn-rule-set-sizes")
    seat_players(page, ["Ann", "Ben", "Cy"])
    page.get_by_role("button", name=said("bn", "Start the game")).click()
    # Hand 1 of the three the rule set gives.
    expect(page.locator("#now h1")).to_have_text(
        re.compile(f"{written('bn', 1)}.*{written('bn', 3)}$")
    )
