"""The ratings page on a 390x844 phone, in English and in Bengali: the best first, the
provisional ratings marked, the numbers in the reader's digits, nothing wider than the screen."""

from __future__ import annotations

import re

import sqlalchemy as sa
from playwright.sync_api import expect

from scorekeeper.extensions import db
from scorekeeper.models import Account
from scorekeeper.services import games
from tests.browser import screenshot
from tests.browser import sign_up


def one_hand(account, players, taker):
    """A one-card Oh Hell game: ``taker`` bids 1 and takes the trick, the others bid 0."""
    made = games.create_game(account, "oh_hell", players, {"sequence": "up", "max_cards": 1})
    bids = {name: int(name == taker) for name in players}
    games.record_hand(games.get_game(account, made.game.id), {"bids": bids, "tricks": bids})


def test_the_ratings_page_on_a_phone(app, phone):
    sign_up(phone)
    phone.wait_for_url(lambda url: "/signup" not in url)
    with app.app_context():
        account = db.session.scalar(sa.select(Account).where(Account.username == "friday-club"))
        for taker in ("Cy", "Cy", "Ann"):
            one_hand(account, ["Ann", "Ben", "Cy", "Dee"], taker)
    phone.goto("/stats/")
    phone.get_by_role("link", name=re.compile("^Ratings")).click()
    expect(phone.get_by_role("heading", name="Ratings")).to_be_visible()
    rows = phone.locator("table.board tbody th a")
    expect(rows).to_have_count(4)
    assert rows.nth(0).inner_text() == "Cy"
    expect(phone.locator("table.board .tag", has_text="provisional")).to_have_count(4)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(phone, "ratings-en")

    phone.locator("footer").get_by_role("button", name="বাংলা").click()
    phone.goto("/stats/ratings")
    expect(phone.get_by_role("heading", name="রেটিং")).to_be_visible()
    first = phone.locator("table.board tbody tr").first
    expect(first.locator("td").first).to_have_text("১")
    assert re.search("[০-৯]", first.locator("td").nth(1).inner_text())
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(phone, "ratings-bn")
