"""At phone size in Chromium (issue 23): a player's rating with its chart, and head to head
with another player chosen on the page, in English and in Lao; nothing wider than the phone,
no serious accessibility problem."""

from __future__ import annotations

import json

from playwright.sync_api import expect

from tests.browser import accessibility_problems
from tests.browser import api_account
from tests.browser import log_in
from tests.browser import screenshot

PLAYERS = ["Ann", "Benedikt-Alexander", "Cy", "Dee"]


def finished_games(page) -> None:
    """An account and three one-card Oh Hell games, each won by another player, through the
    API in the phone's own cookie jar."""
    request = page.context.request
    headers = api_account(page.context, PLAYERS)
    options = {"max_cards": 1, "sequence": "down"}
    for winner in PLAYERS[:3]:
        body = {"game": "oh_hell", "players": PLAYERS, "options": options}
        game = request.post("/api/v1/games", data=json.dumps(body), headers=headers).json()["id"]
        bids = {name: int(name == winner) for name in PLAYERS}
        hand = json.dumps({"number": 1, "bids": bids, "tricks": bids})
        answer = request.post(f"/api/v1/games/{game}/hands", data=hand, headers=headers)
        assert answer.json()["status"] == "finished"


def fits(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], width


def test_a_player_s_rating_chart_and_head_to_head_on_a_phone(axe_phone):
    page = axe_phone
    finished_games(page)
    log_in(page)
    page.goto("/stats/")
    page.get_by_role("link", name="Ann").first.click()
    rating = page.locator("section[aria-labelledby=rating-title]")
    expect(rating.get_by_text("Every card game", exact=True)).to_be_visible()
    chart = rating.locator("figure.rating-chart svg")
    expect(chart).to_be_visible()
    assert chart.locator("polyline").get_attribute("points").count(",") == 4  # 0 and 3 games
    rating.get_by_text("The chart as a table").click()
    expect(rating.locator("table tbody tr")).to_have_count(3)
    fits(page)
    assert accessibility_problems(page) == []
    screenshot(page, "player-rating")

    page.get_by_label("Head to head with").select_option(label="Benedikt-Alexander")
    page.get_by_role("button", name="Compare").click()
    expect(page.locator("h1")).to_contain_text("Ann and Benedikt-Alexander")
    row = page.locator("table.board tbody tr")
    expect(row).to_have_count(1)
    # Ann won the first game, Benedikt-Alexander the second; Cy won the third: both missed.
    expect(row.locator("td")).to_have_text(["3", "1", "1", "1"])
    fits(page)
    assert accessibility_problems(page) == []
    screenshot(page, "head-to-head")

    page.context.add_cookies([{"name": "lang", "value": "lo", "url": page.url}])
    page.reload()
    expect(page.locator("html")).to_have_attribute("lang", "lo")
    expect(page.locator("h1")).to_contain_text("Ann ແລະ Benedikt-Alexander")
    expect(page.get_by_text("ຕົວຕໍ່ຕົວກັບ")).to_be_visible()
    fits(page)
    screenshot(page, "head-to-head-lo")
