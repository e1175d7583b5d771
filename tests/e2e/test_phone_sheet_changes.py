"""At phone size in Chromium: a score sheet with the table's changes (issue 20). A joiner, a
sit-out, an adjustment with its note, a leaver, a substitute and a schedule change make seven
columns and a line for each change; the sheet still fits a 360 px phone in English and in
Bengali, its undo offers the last change, and axe finds no serious problem."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser import PHONE
from tests.browser import SMALL_PHONE
from tests.browser import accessibility_problems
from tests.browser import add_players
from tests.browser import screenshot
from tests.browser import sign_up
from tests.e2e.test_phone_sheet import SEVEN
from tests.e2e.test_phone_sheet import api
from tests.e2e.test_phone_sheet import bid_hand


def changed_game(page) -> int:
    """Five at the table; Fay joins, Dee sits out a hand, Christiane is docked 10 points,
    Evangeline leaves, Gustavo takes over from Ann, two hands still to play."""
    sign_up(page)
    add_players(page, *SEVEN)
    call = api(page)
    made = call("POST", "/api/v1/games", {"game": "oh_hell", "players": SEVEN[:5]})["id"]

    def hand(number: int) -> None:
        dealt = call("GET", f"/api/v1/games/{made}")["next"]["players"]
        call("POST", f"/api/v1/games/{made}/hands", {**bid_hand(dealt, number), "number": number})

    def change(**body) -> None:
        call("POST", f"/api/v1/games/{made}/changes", body)

    hand(1)
    hand(2)
    change(kind="join", player="Fay", after="Ann")
    change(kind="sit_out", player="Dee")
    hand(3)
    change(kind="adjust", player="Christiane", points=-10, note="played out of turn")
    change(kind="leave", player="Evangeline")
    hand(4)
    change(kind="substitute", player="Ann", by="Gustavo")
    change(kind="schedule", sizes=[5, 3])
    return made


def look(page, name: str) -> None:
    """Screenshots of the sheet: its top, and its end (the undo under the last change)."""
    page.locator(".sheet-card").scroll_into_view_if_needed()
    screenshot(page, name)
    page.locator(".sheet-card .sheet-scroll").evaluate("box => box.scrollTop = box.scrollHeight")
    page.locator(".sheet .undo-row").scroll_into_view_if_needed()
    screenshot(page, f"{name}-end")


def fits(page) -> None:
    sheet = page.locator(".sheet-card .sheet-scroll")
    sheet.scroll_into_view_if_needed()
    scroll, client = sheet.evaluate("box => [box.scrollWidth, box.clientWidth]")
    assert scroll <= client, f"the sheet scrolls sideways ({scroll} > {client})"
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"the page is {width} px wide"


def in_bengali(page, made: int) -> None:
    """The game's sheet in Bengali (the words are longer): it still fits; screenshots."""
    page.goto("/")
    page.locator('.languages button[value="bn"]').click()
    page.wait_for_load_state()
    page.goto(f"/games/{made}")
    fits(page)
    look(page, "sheet-changes-bn")


def test_a_sheet_with_every_change_fits_a_360_px_phone_in_english_and_bengali(small_phone):
    page = small_phone
    assert page.viewport_size == SMALL_PHONE
    made = changed_game(page)
    page.goto(f"/games/{made}")
    expect(page.locator(".sheet thead .seat-col")).to_have_count(7)
    expect(page.locator(".sheet tr.change-line:not(.figures)")).to_have_count(6)
    expect(page.locator(".sheet td.sat-out")).to_have_count(1)
    expect(page.locator(".sheet .undo-row button")).to_have_text(
        "Undo: 2 hands still to play: 5, 3 cards."
    )
    fits(page)
    look(page, "sheet-changes-en")
    in_bengali(page, made)


def test_the_change_is_undone_from_the_sheet_and_the_page_has_no_serious_problem(axe_phone):
    page = axe_phone
    assert page.viewport_size == PHONE
    made = changed_game(page)
    page.goto(f"/games/{made}")
    fits(page)
    look(page, "sheet-changes-en")
    found = {}
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        problems = accessibility_problems(page)
        if problems:
            found[scheme] = problems
    page.emulate_media(color_scheme="light")
    assert found == {}
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator(".sheet .undo-row button").click()
    expect(page.locator(".sheet .undo-row button")).to_have_text(
        "Undo: Gustavo takes over from Ann."
    )
    expect(page.locator(".sheet tr.change-line:not(.figures)")).to_have_count(5)
    in_bengali(page, made)
