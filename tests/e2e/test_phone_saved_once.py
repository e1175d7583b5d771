"""At phone size in Chromium: a save whose answer was lost on its way back (the server saved
it) is kept on the phone, sent again by itself and answered as the first time (the form's
idempotency key: the same part of the page, no "someone else saved"), the hand saved once; and
Back to the game after a save shows the game as it is now, not the hand as it was before the
save (game pages are sent with ``Cache-Control: no-store``, issue 26)."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from scorekeeper.extensions import db
from scorekeeper.models import Account
from scorekeeper.models import HandEntry
from scorekeeper.services import games
from tests.browser import log_in
from tests.browser import screenshot
from tests.conftest import make_account
from tests.games.oh_hell.test_phone_oh_hell import row
from tests.games.oh_hell.test_phone_oh_hell import tap

PLAYERS = ["Ann", "Ben", "Cy"]
HANDS = re.compile(r"/games/\d+/hands$")


def test_a_lost_answer_is_sent_again_and_saved_once_and_back_shows_the_game_now(phone, make_app):
    app = make_app()
    make_account(app)
    with app.app_context():
        account = db.session.scalar(db.select(Account))
        game = games.create_game(account, "oh_hell", PLAYERS, {}).game.id
    log_in(phone)
    phone.goto(f"/games/{game}")
    for name in PLAYERS:
        tap(phone, "data-bids-form", name, 1 if name == "Ben" else 0)

    # The request reaches the server, which saves the bids; its answer never comes back.
    landed = []

    def lose_the_answer(route):
        # Sent URL-encoded, as the browser sends a form itself (the server reads multipart
        # several times slower).
        sent = route.request.headers["content-type"]
        assert sent.startswith("application/x-www-form-urlencoded"), sent
        landed.append(route.fetch().status)
        route.abort()

    phone.allowed_errors.append("net::ERR_FAILED")
    phone.route(HANDS, lose_the_answer)
    phone.wait_for_function("() => window.Outbox !== undefined")
    phone.get_by_role("button", name="Save bids").click()
    expect(phone.locator(".kept-note")).to_contain_text("Kept on this phone, not sent yet")
    assert landed == [200]
    with phone.expect_response(HANDS) as resent:
        phone.unroute(HANDS)  # the phone sends it again by itself (the outbox)
    assert resent.value.status == 200
    assert resent.value.headers.get("idempotent-replayed") == "true"
    expect(row(phone, "data-tricks-form", "Ben").locator(".pill.bid")).to_have_text("bid 1")
    expect(phone.locator(".flash-warning")).to_have_count(0)  # not "someone else saved"
    screenshot(phone, "saved-once-after-a-lost-answer")
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(HandEntry)) == 1

    # Away from the game and Back: the game as it is now (the tricks to enter), not the page
    # as first loaded (the bids of hand 1 open).
    phone.goto("/players/")
    phone.go_back()
    expect(row(phone, "data-tricks-form", "Ben").locator(".pill.bid")).to_have_text("bid 1")
    expect(phone.locator("form[data-bids-form]")).to_have_count(0)
