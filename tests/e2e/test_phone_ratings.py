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
BENGALI_NIGHT = "আজকের রাত"  # "The night"


def finished_games(page) -> int:
    """An account and a night of three one-card Oh Hell games, each won by another player,
    through the API in the phone's own cookie jar; the night."""
    request = page.context.request
    headers = api_account(page.context, PLAYERS)
    night = request.post("/api/v1/nights", data=json.dumps({"name": "Friday"}), headers=headers)
    options = {"max_cards": 1, "sequence": "down"}
    for winner in PLAYERS[:3]:
        body = {"game": "oh_hell", "players": PLAYERS, "options": options}
        body["night_id"] = night.json()["id"]
        game = request.post("/api/v1/games", data=json.dumps(body), headers=headers).json()["id"]
        bids = {name: int(name == winner) for name in PLAYERS}
        hand = json.dumps({"number": 1, "bids": bids, "tricks": bids})
        answer = request.post(f"/api/v1/games/{game}/hands", data=hand, headers=headers)
        assert answer.json()["status"] == "finished"
    return night.json()["id"]


def checked(page, name: str) -> None:
    """The page fits the phone's width, axe finds nothing serious, and a screenshot."""
    fits(page)
    assert accessibility_problems(page) == []
    screenshot(page, name)


def in_language(page, code: str) -> None:
    page.context.add_cookies([{"name": "lang", "value": code, "url": page.url}])
    page.reload()
    expect(page.locator("html")).to_have_attribute("lang", code)


def fits(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], width


def test_a_player_s_rating_chart_and_head_to_head_on_a_phone(axe_phone):
    page = axe_phone
    finished_games(page)
    log_in(page)
    page.goto("/stats/ratings")
    expect(page.locator("table.board tbody tr")).to_have_count(len(PLAYERS))
    fits(page)
    page.goto("/stats/")
    page.get_by_role("link", name="Ann").first.click()
    rating = page.locator("section[aria-labelledby=rating-title]")
    expect(rating.get_by_text("Every card game", exact=True)).to_be_visible()
    chart = rating.locator("figure.rating-chart svg")
    expect(chart).to_be_visible()
    assert chart.locator("polyline").get_attribute("points").count(",") == 4  # 0 and 3 games
    rating.get_by_text("The chart as a table").click()
    expect(rating.locator("table tbody tr")).to_have_count(3)
    checked(page, "player-rating")

    page.get_by_label("Head to head with").select_option(label="Benedikt-Alexander")
    page.get_by_role("button", name="Compare").click()
    expect(page.locator("h1")).to_contain_text("Ann and Benedikt-Alexander")
    row = page.locator("table.board tbody tr")
    expect(row).to_have_count(1)
    # Ann won the first game, Benedikt-Alexander the second; Cy won the third: both missed.
    expect(row.locator("td")).to_have_text(["3", "1", "1", "1"])
    checked(page, "head-to-head")

    in_language(page, "lo")
    expect(page.locator("h1")).to_contain_text("Ann ແລະ Benedikt-Alexander")
    expect(page.get_by_text("ຕົວຕໍ່ຕົວກັບ")).to_be_visible()
    fits(page)
    screenshot(page, "head-to-head-lo")


def test_a_night_s_story_is_copied_for_a_message_on_a_phone(axe_phone):
    page = axe_phone
    night = finished_games(page)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    log_in(page)
    page.goto(f"/nights/{night}")
    story = page.locator("section.recap")
    expect(story.locator(".recap-lines li").first).to_be_visible()
    story.get_by_text("Share this night").click()
    # Chromium here has no share sheet: the button copies the text.
    story.get_by_role("button", name="Copy the text").click()
    expect(story.get_by_text("Copied: paste it into a message.")).to_be_visible()
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == story.locator("textarea").input_value()
    assert copied.startswith("Friday") and "Ann" in copied
    checked(page, "night-story")

    in_language(page, "bn")
    expect(story.locator("h2")).to_have_text(BENGALI_NIGHT)
    expect(story.get_by_text("এই রাতটি শেয়ার করুন")).to_be_visible()
    fits(page)
    screenshot(page, "night-story-bn")
