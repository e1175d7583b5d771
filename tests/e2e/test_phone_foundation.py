"""At phone size in a real browser: sign up, add players, log out (on the account page) and
back in."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser import add_players
from tests.browser import sign_up


def test_sign_up_and_build_a_roster_on_a_phone(phone):
    sign_up(phone)
    expect(phone.get_by_text("Welcome, friday-club!")).to_be_visible()
    add_players(phone, "Ann", "Ben", "Cy")
    roster = phone.locator(".roster li .name")
    expect(roster).to_have_text(["Ann", "Ben", "Cy"])
    # The page fits the phone: nothing scrolls sideways.
    assert phone.evaluate("document.documentElement.scrollWidth") <= phone.viewport_size["width"]


def test_a_refused_name_keeps_what_was_typed(phone):
    sign_up(phone)
    add_players(phone, "Ann")
    phone.get_by_label("Name").fill("ann")
    phone.get_by_role("button", name="Add player").click()
    expect(phone.get_by_text("There is already a player called Ann.")).to_be_visible()
    expect(phone.get_by_label("Name")).to_have_value("ann")


def test_tap_targets_are_at_least_44_pixels(phone):
    sign_up(phone)
    add_players(phone, "Ann")
    for locator in [
        phone.get_by_role("button", name="Add player"),
        phone.get_by_role("link", name="Rename"),
        phone.get_by_role("button", name="Archive"),
        phone.get_by_role("link", name="Account"),
    ]:
        box = locator.bounding_box()
        assert box["height"] >= 44, locator


def test_log_out_and_back_in(phone):
    sign_up(phone)
    phone.get_by_role("link", name="Account").click()
    phone.get_by_role("button", name="Log out", exact=True).click()
    expect(phone.get_by_role("heading", name="Log in")).to_be_visible()
    phone.get_by_label("Username").fill("friday-club")
    phone.get_by_label("Password").fill("wrong password")
    phone.get_by_role("button", name="Log in").click()
    expect(phone.get_by_text("Wrong username or password.")).to_be_visible()
    expect(phone.get_by_label("Username")).to_have_value("friday-club")
    phone.get_by_label("Password").fill("correct horse battery")
    phone.get_by_role("button", name="Log in").click()
    expect(phone.get_by_role("heading", name="Hello, friday-club")).to_be_visible()
