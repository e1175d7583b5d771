"""The account page on a phone (issue 27, items 7 and 22): the top bar has no Log out (one
stray tap beside History would log the scorekeeper out mid-game); the account page lists the
devices, changes the password, and logs out, for good."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser import log_in
from tests.browser import screenshot
from tests.browser import sign_up


def test_log_out_from_the_account_page_for_good(phone, browser, live_server):
    sign_up(phone)
    bar = phone.locator("header.topbar")
    expect(bar.get_by_role("button", name="Log out")).to_have_count(0)
    assert bar.bounding_box()["height"] < 2 * 44  # the links fit on one line
    account = bar.get_by_role("link", name="Account")
    box = account.bounding_box()
    assert box["height"] >= 44 and box["width"] >= 44, box
    account.click()
    expect(phone.get_by_role("heading", name="Account", exact=True)).to_be_visible()
    devices = phone.locator(".devices li")
    expect(devices).to_have_count(1)
    expect(devices.first).to_contain_text("This phone")
    expect(devices.first).to_contain_text("Chrome")
    assert phone.evaluate("document.documentElement.scrollWidth") <= phone.viewport_size["width"]
    screenshot(phone, "account")
    copied = phone.context.cookies()
    log_out = phone.get_by_role("button", name="Log out", exact=True)
    box = log_out.bounding_box()
    assert box["height"] >= 44, box
    log_out.click()
    expect(phone.get_by_text("Logged out.")).to_be_visible()
    expect(phone.get_by_role("heading", name="Log in")).to_be_visible()
    # Another browser with the cookies copied before the logout is not logged in.
    thief = browser.new_context(base_url=live_server, viewport=phone.viewport_size)
    try:
        thief.add_cookies(copied)
        page = thief.new_page()
        page.goto("/account")
        expect(page.get_by_role("heading", name="Log in")).to_be_visible()
    finally:
        thief.close()


def test_a_wrong_current_password_says_so_and_keeps_the_fields_empty(phone):
    sign_up(phone)
    phone.goto("/account")
    phone.get_by_label("Current password").fill("not my password")
    phone.get_by_label("New password", exact=True).fill("a brand new passphrase")
    phone.get_by_label("New password again").fill("a brand new passphrase")
    phone.get_by_role("button", name="Change password").click()
    expect(phone.get_by_text("That is not your current password.")).to_be_visible()
    for label in ("Current password", "New password", "New password again"):
        expect(phone.get_by_label(label, exact=True)).to_have_value("")
    screenshot(phone, "account-refused")
    phone.get_by_label("Current password").fill("correct horse battery")
    phone.get_by_label("New password", exact=True).fill("a brand new passphrase")
    phone.get_by_label("New password again").fill("a brand new passphrase")
    phone.get_by_role("button", name="Change password").click()
    expect(phone.get_by_text("Password changed. Every other device is logged out.")).to_be_visible()


def test_log_out_everywhere_in_bengali(phone, browser, live_server):
    """ "Log out everywhere" (issue 27, item 7): one tap on the account page ends this phone's
    login and every other one; the page fits the phone in Bengali."""
    sign_up(phone)
    other = browser.new_context(base_url=live_server, viewport=phone.viewport_size)
    try:
        second = other.new_page()
        log_in(second)
        phone.get_by_role("button", name="বাংলা").click()
        phone.goto("/account")
        everywhere = phone.get_by_role("button", name="সব ডিভাইস লগ আউট করুন", exact=True)
        everywhere.scroll_into_view_if_needed()
        box = everywhere.bounding_box()
        assert box["height"] >= 44 and box["x"] + box["width"] <= phone.viewport_size["width"]
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390
        screenshot(phone, "account-everywhere-bn")
        everywhere.click()
        expect(phone.get_by_text("সব ডিভাইস লগ আউট হয়েছে।")).to_be_visible()
        second.goto("/account")
        expect(second.get_by_role("heading", name="Log in")).to_be_visible()
    finally:
        other.close()
