"""Two phones: the scorekeeper enters a hand; the other phone's shared view shows it."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser import PHONE
from tests.browser import add_players
from tests.browser import screenshot
from tests.browser import seat_players
from tests.browser import sign_up


def test_the_viewer_sees_each_hand_within_seconds(phone, browser, live_server):
    sign_up(phone)
    add_players(phone, "Ann", "Ben", "Cy")
    phone.goto("/games/new?game=oh_hell")
    seat_players(phone, ["Ann", "Ben", "Cy"])
    phone.get_by_role("button", name="Start the game").click()
    game_url = phone.url
    phone.get_by_role("link", name="Share with the table").click()
    phone.get_by_role("button", name="Share this game").click()
    link = phone.locator(".share-url a").get_attribute("href")
    expect(phone.locator("img.qr")).to_be_visible()
    # Visible comes before decoded: wait for the picture itself, not just its box.
    phone.wait_for_function("() => document.querySelector('img.qr').naturalWidth > 0")

    viewer_context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    viewer = viewer_context.new_page()
    viewer.goto(link)
    expect(viewer.get_by_role("heading", name=re.compile("Hand 1"))).to_be_visible()
    expect(viewer.locator(".bid-board")).to_have_count(0)

    phone.goto(game_url)
    for name, bid in (("Ben", "1"), ("Cy", "0"), ("Ann", "1")):
        row = phone.locator(f'form[data-bids-form] li.row[data-player="{name}"]')
        row.locator("label.chip span").get_by_text(bid, exact=True).click()
    phone.get_by_role("button", name="Save bids").click()

    # No reload on the viewer's side: the page polls and swaps in the new state.
    board = viewer.locator(".bid-board li")
    expect(board).to_have_count(3, timeout=5000)
    expect(viewer.locator(".balance")).to_contain_text("1 over")

    # A scored hand gives the viewer the score chart, folded; unfolded, it stays open as the
    # next hand comes in, and draws it.
    def hand(form: str, values: dict[str, str], button: str) -> None:
        for name, value in values.items():
            row = phone.locator(f'form[{form}] li.row[data-player="{name}"]')
            row.locator("label.chip span").get_by_text(value, exact=True).click()
        phone.get_by_role("button", name=button).click()

    hand("data-tricks-form", {"Ben": "1", "Cy": "0", "Ann": "0"}, "Save tricks")
    fold = viewer.locator("details#chart-fold")
    fold.locator("summary").first.click()
    expect(fold.locator("svg.chart-svg")).to_be_visible()
    expect(fold.locator("table tbody tr")).to_have_count(1)
    hand("data-bids-form", {"Cy": "0", "Ann": "0", "Ben": "1"}, "Save bids")
    hand("data-tricks-form", {"Cy": "1", "Ann": "0", "Ben": "1"}, "Save tricks")
    expect(fold.locator("table tbody tr")).to_have_count(2, timeout=5000)
    expect(fold).to_have_attribute("open", "")
    expect(fold.locator("svg.chart-svg")).to_be_visible()
    fold.scroll_into_view_if_needed()
    screenshot(viewer, "shared-view-chart")

    phone.get_by_role("link", name="Share with the table").click()
    phone.get_by_role("button", name="Stop sharing").click()
    expect(viewer.get_by_role("heading", name="No longer shared")).to_be_visible(timeout=5000)
    viewer_context.close()
