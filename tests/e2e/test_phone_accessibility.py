"""axe-core on the main pages at phone size, in light and in dark: no serious or critical
violation (contrast included); totals and refusals are announced (aria-live, role=alert)."""

from __future__ import annotations

import json

from playwright.sync_api import expect

from tests.browser import accessibility_problems
from tests.browser import add_players
from tests.browser import seat_players
from tests.browser import sign_up

PLAYERS = ["Ann", "Ben", "Cy"]


def api_game(page, game: str, players: list[str]) -> int:
    answer = page.request.post(
        "/api/v1/tokens",
        headers={"Authorization": "Basic ZnJpZGF5LWNsdWI6Y29ycmVjdCBob3JzZSBiYXR0ZXJ5"},
    )
    token = answer.json()["token"]
    created = page.request.post(
        "/api/v1/games",
        data=json.dumps({"game": game, "players": players}),
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )
    return created.json()["id"]


def test_the_main_pages_have_no_serious_accessibility_problem(axe_phone):
    page = axe_phone
    sign_up(page)
    add_players(page, *PLAYERS)
    oh_hell = api_game(page, "oh_hell", PLAYERS)
    pitch = api_game(page, "pitch", PLAYERS)
    gin = api_game(page, "oklahoma_gin", PLAYERS[:2])
    urls = [
        "/",
        "/players/",
        "/games/",
        "/games/new",
        "/games/new?game=oh_hell",
        f"/games/{oh_hell}",
        f"/games/{pitch}",
        f"/games/{gin}",
        "/nights/",
        "/stats/",
        f"/games/{oh_hell}/share",
        f"/games/{oh_hell}/table/changes?kind=join",
        f"/games/{oh_hell}/table/changes?kind=schedule",
        "/backup",
        "/account",
        "/offline?lang=en",
    ]
    found = {}
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        for url in urls:
            page.goto(url)
            problems = accessibility_problems(page)
            if problems:
                found[f"{url} ({scheme})"] = problems
    assert found == {}


def test_totals_and_refusals_are_announced(axe_phone):
    page = axe_phone
    sign_up(page)
    add_players(page, *PLAYERS)
    page.goto("/games/new?game=oh_hell")
    seat_players(page, PLAYERS)
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("[data-status]")).to_have_attribute("aria-live", "polite")
    page.get_by_role("button", name="Save bids").click()  # no bid given: refused
    expect(page.get_by_role("alert").first).to_contain_text("Enter")
