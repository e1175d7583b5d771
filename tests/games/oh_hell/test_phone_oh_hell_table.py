"""At phone size in Chromium: the Table panel of an Oh Hell game (issue 20). After hand 1,
the staircase of the hands still to play is edited in place (a size changed, a hand dropped,
one added), a player leaves, and a late arrival joins in 4 taps from the game page (Table,
+ a player, their name, Add), starting on the last place's total, then corrected."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser import add_players
from tests.browser import screenshot
from tests.browser import sign_up
from tests.e2e.test_phone_script_words import LANGUAGES
from tests.games.oh_hell.test_phone_oh_hell import start_game
from tests.games.oh_hell.test_phone_oh_hell import tap

FOUR = ["Ann", "Ben", "Cy", "Dee"]


class Taps:
    """Counts the taps a person makes (each click of the test is one)."""

    def __init__(self, page) -> None:
        self.page = page
        self.count = 0

    def on(self, locator) -> None:
        locator.click()
        self.count += 1


def play_first_hand(page) -> None:
    """Hand 1 (one card; Ann deals, Ben bids first): Ben bids 1 and takes it."""
    for name in FOUR:
        tap(page, "data-bids-form", name, 1 if name == "Ben" else 0)
    page.get_by_role("button", name="Save bids").click()
    for name in FOUR:
        tap(page, "data-tricks-form", name, 1 if name == "Ben" else 0)
    page.get_by_role("button", name="Save tricks").click()
    expect(page.locator("#now h1")).to_have_text(re.compile("Hand 2"))


def open_panel(page) -> None:
    page.locator(".hand-head .table-link").click()
    page.wait_for_url(re.compile(r"/table/changes$"))


def test_a_staircase_edit_a_leave_and_a_late_join_on_a_phone(phone):
    sign_up(phone)
    add_players(phone, *FOUR, "Eve")
    start_game(phone, FOUR)
    play_first_hand(phone)

    # The staircase: hands 2 to 13 (2 to 13 cards); hand 2 made 3 cards, hand 3 dropped,
    # a hand of 1 card added at the end.
    open_panel(phone)
    schedule = phone.locator("#change-schedule")
    schedule.locator("summary").click()
    expect(schedule.get_by_label("Cards in hand 2")).to_have_value("2")
    screenshot(phone, "table-panel-staircase")
    schedule.get_by_label("Cards in hand 2").fill("3")
    schedule.locator('input[name="drop"][value="1"]').check()
    schedule.get_by_label("Cards in an added hand").fill("1")
    schedule.get_by_role("button", name="Save the hands").click()
    expect(phone.locator(".flash-success")).to_have_text(
        "12 hands still to play: 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 1 cards."
    )
    expect(phone.locator(".hand-head .tile strong")).to_have_text("3")

    # A refusal stays beside its field, with what was typed.
    open_panel(phone)
    adjust = phone.locator("#change-adjust")
    adjust.locator("summary").click()
    adjust.locator("label.chip", has_text="Cy").click()
    adjust.get_by_label("Points (a minus for a penalty)").fill("0")
    adjust.get_by_label("Note (optional)").fill("renege")
    adjust.get_by_role("button", name="Add the points").click()
    refused = phone.locator("#change-adjust")
    expect(refused.locator(".error")).to_have_text(
        "The points are a whole number from −1000 to 1000, not 0."
    )
    expect(refused.get_by_label("Note (optional)")).to_have_value("renege")
    screenshot(phone, "table-panel-refused")
    phone.get_by_role("link", name="Back to the game").click()

    # Dee leaves.
    open_panel(phone)
    leave = phone.locator("#change-leave")
    leave.locator("summary").click()
    leave.locator("label.chip", has_text="Dee").click()
    leave.get_by_role("button", name="Leaves the game").click()
    expect(phone.locator(".flash-success")).to_have_text("Dee leaves the game.")

    # Eve arrives late: 4 taps from the game page, her name from the roster.
    screenshot(phone, "table-panel-game-page")
    taps = Taps(phone)
    taps.on(phone.locator(".hand-head .table-link"))
    join = phone.locator("#change-join")
    expect(join.locator("label.option-line").first).to_have_text("Last place: starts on 10")
    taps.on(join.locator("summary"))
    screenshot(phone, "table-panel-join")
    taps.on(join.locator("label.chip", has_text="Eve"))
    taps.on(join.get_by_role("button", name="Add"))
    expect(phone.locator(".flash-success")).to_have_text("Eve joins, starting on 10.")
    assert taps.count == 4
    expect(phone.locator("#now h1")).to_have_text(re.compile("Hand 2"))

    # Her starting total corrected from the list of changes: her own form, filled in as
    # recorded (last place, the choice made, not the 10 it came to).
    open_panel(phone)
    phone.get_by_role("link", name="Correct: Eve joins, starting on 10.").click()
    expect(phone.locator("h1")).to_have_text("Correct a change")
    join = phone.locator("#change-join")
    expect(join.locator('input[name="score"][value="last"]')).to_be_checked()
    expect(join.locator('input[name="score_number"]')).to_have_value("")
    expect(join.get_by_label("Sits after")).to_have_value("")  # the last seat, as recorded
    expect(join.get_by_label("Sits after").locator("option").last).to_have_text(
        "Cy (the last seat)"
    )
    screenshot(phone, "table-panel-correct")
    join.locator('input[name="score"][value="number"]').check()
    join.locator('input[name="score_number"]').fill("12")
    join.get_by_role("button", name="Save the correction").click()
    expect(phone.locator(".flash-success")).to_have_text(
        "Change corrected: Eve joins, starting on 12."
    )

    # The panel in Bengali, with the last change to undo.
    game_url = phone.url.split("#")[0]
    phone.goto("/players/")
    phone.locator("form.languages").get_by_role("button", name=LANGUAGES["bn"]).click()
    expect(phone.locator("html")).to_have_attribute("lang", "bn")
    phone.goto(game_url + "/table/changes?kind=join")
    expect(phone.locator("#change-join")).to_have_attribute("open", "")
    screenshot(phone, "table-panel-join-bn")
    phone.goto(game_url + "/table/changes?kind=schedule")
    screenshot(phone, "table-panel-staircase-bn")
