"""The shared view of Hearts and of Oh Hell on a phone in Lao (issue 21): the first bidder's
name in bold (no markup printed), no "bids first" in Hearts, no hint to correct a hand."""

from __future__ import annotations

from scorekeeper.extensions import db
from scorekeeper.models import Account
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
    opened = _phone_page(browser, live_server, PHONE)
    phone = next(opened)
    try:
        log_in(phone)
        phone.goto("/account")
        phone.locator("form.languages button[value=lo]").click()
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
    finally:
        next(opened, None)
