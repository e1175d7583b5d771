"""The shared view of Hearts and of Oh Hell on a phone in Lao (issue 21): the first bidder's
name in bold (no markup printed), no "bids first" in Hearts, no hint to correct a hand."""

from __future__ import annotations

from contextlib import contextmanager

from playwright.sync_api import expect

from scorekeeper.extensions import db
from scorekeeper.models import Account
from scorekeeper.models import Game
from scorekeeper.services import games
from scorekeeper.services import sharing
from tests.browser import PHONE
from tests.browser import _phone_page
from tests.browser import log_in
from tests.browser import screenshot
from tests.conftest import make_account

HANDS = {
    "hearts": {"points": {"Ann": 13, "Ben": 5, "Cy": 8}},
    "oh_hell": {"bids": {"Ann": 1, "Ben": 0, "Cy": 0}, "tricks": {"Ann": 1, "Ben": 0, "Cy": 0}},
}


@contextmanager
def lao_phone(browser, live_server):
    """A phone logged in, its account's language Lao."""
    opened = _phone_page(browser, live_server, PHONE)
    phone = next(opened)
    try:
        log_in(phone)
        phone.goto("/account")
        phone.locator("form.languages button[value=lo]").click()
        yield phone
    finally:
        next(opened, None)


def test_the_shared_view_in_lao_reads_as_text(browser, live_server, make_app):
    app = make_app()
    make_account(app)
    with app.app_context():
        account = db.session.scalar(db.select(Account))
        views = {}
        for kind, hand in HANDS.items():
            game = games.create_game(account, kind, ["Ann", "Ben", "Cy"], {}).game
            games.record_hand(game, hand)
            views[kind] = f"/view/{sharing.share(game).share_token}"
    with lao_phone(browser, live_server) as phone:
        for kind, address in views.items():
            phone.goto(address)
            assert phone.locator("html").get_attribute("lang") == "lo"
            text = phone.locator("main").inner_text()
            assert "<" not in text and "&lt;" not in text
            assert "ແຕະເລກ" not in text  # "Tap a hand's number ..." in Lao
            assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
            if kind == "oh_hell":
                assert phone.locator(".big-facts li strong", has_text="Ben").count() == 1
            screenshot(phone, f"shared-view-{kind}-lo")


def test_a_link_no_longer_shared_says_so_in_lao(browser, live_server, make_app):
    """The view's script writes "No longer shared" once the link is revoked: in the viewer's
    language, from the page's words (issue 27, item 11: its script wrote it in English)."""
    app = make_app()
    make_account(app)
    with app.app_context():
        account = db.session.scalar(db.select(Account))
        game = games.create_game(account, "hearts", ["Ann", "Ben", "Cy"], {}).game
        address = f"/view/{sharing.share(game).share_token}"
        game_id = game.id
    with lao_phone(browser, live_server) as phone:
        phone.goto(address)
        phone.allowed_errors.append("404 (NOT FOUND)")  # the revoked link's answer, on purpose
        with app.app_context():
            sharing.revoke(db.session.get(Game, game_id))
        expect(phone.get_by_role("heading", name="ບໍ່ໄດ້ແບ່ງປັນແລ້ວ")).to_be_visible(timeout=15000)
        assert "No longer shared" not in phone.locator("main").inner_text()
        screenshot(phone, "shared-view-gone-lo")
