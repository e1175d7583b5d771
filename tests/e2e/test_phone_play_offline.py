"""Offline play on a 390x844 phone (issue 24): the game page's "Keep this game on this phone"
switch gets the rules onto the phone (never with the page); with the link down a save of the
entry form is checked there by the server's own rules and form reader: a hook refusal is shown
at once with the server's code and message, and changes nothing; the save that follows is
accepted, kept by the outbox with its idempotency key, and sent when the link returns; the
server's game is then the phone's (its record and state equal to what the phone worked out)."""

from __future__ import annotations

import dataclasses
import json

import pytest
from playwright.sync_api import expect

from scorekeeper.extensions import db
from scorekeeper.models import Account
from scorekeeper.models import Game
from scorekeeper.services import games
from scorekeeper.views import offline_rules
from tests.browser import log_in
from tests.browser import phone_settings
from tests.browser import screenshot
from tests.conftest import make_account

SEVEN = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus"]


def server_state(app, game: int) -> dict:
    from scorekeeper.games import portable

    with app.app_context():
        found = db.session.get(Game, game)
        state = games.played(found).state
        return json.loads(json.dumps(portable.plain(dataclasses.asdict(state))))


def test_a_hand_saved_offline_is_checked_on_the_phone_and_synced(browser, live_server, make_app):
    app = make_app()
    with app.app_context():
        if not offline_rules.available():
            pytest.skip("Pyodide is not installed (make installs it from the npm registry)")
    make_account(app)
    with app.app_context():
        account = db.session.scalar(db.select(Account))
        game = games.create_game(account, "oh_hell", SEVEN, {"hook": True}).game.id
    context = browser.new_context(**phone_settings(live_server))
    context.set_default_timeout(20_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    log_in(page)
    page.goto(f"/games/{game}")
    switch = page.locator("input[data-keep-offline]")
    expect(switch).to_be_visible(timeout=20_000)
    assert not switch.is_checked()
    assert page.evaluate("() => !window.loadPyodide")  # nothing of the rules before the switch
    switch.check()
    expect(page.locator(".keep-offline[data-ready]")).to_be_attached(timeout=180_000)

    context.set_offline(True)
    form = page.locator("form[data-bids-form]")
    cards = int(form.get_attribute("data-cards"))
    order = page.evaluate(f"() => JSON.parse(localStorage.getItem('sk-keep-{game}')).request")
    assert order["players"] == SEVEN
    dealer = SEVEN[0]
    # Everyone bids 0; the dealer taps the bid the hook forbids (its chip enabled, as a page
    # whose script did not disable it would leave it): refused by the phone's rules.
    for name in SEVEN:
        form.locator(f'li[data-player="{name}"] input[value="0"]').locator("xpath=..").click()
    chip = form.locator(f'li[data-player="{dealer}"] input[value="{cards}"]')
    chip.evaluate("(input) => { input.disabled = false; }")
    chip.locator("xpath=..").click()
    form.locator("[data-save]").click()
    refusal = form.locator("[data-offline-error]")
    expect(refusal).to_have_attribute("data-offline-error", "hook_violation")
    expect(refusal).to_contain_text(f"{dealer} is the dealer and may not bid {cards}")
    screenshot(page, "play-offline-hook-refused")
    assert page.evaluate("() => window.Outbox && Outbox.entries().then((kept) => kept.length)") == 0

    form.locator(f'li[data-player="{dealer}"] input[value="0"]').locator("xpath=..").click()
    form.locator("[data-save]").click()
    expect(page.locator("body[data-offline-saves='1']")).to_be_attached()
    expect(form.locator("[data-offline-error]")).to_have_count(0)
    expect(page.locator("[data-keep-state]")).to_have_text(
        "Checked on this phone, sent when the link returns."
    )
    phone = page.evaluate(f"() => JSON.parse(localStorage.getItem('sk-keep-{game}'))")
    assert phone["request"]["entries"] == [{"bids": dict.fromkeys(SEVEN, 0), "trump": None}]
    assert page.evaluate("() => Outbox.entries().then((kept) => kept.length)") == 1
    screenshot(page, "play-offline-kept")

    context.set_offline(False)
    expect(page.locator("#outbox")).to_have_count(0)  # nothing waits on the phone any more
    assert page.evaluate("() => Outbox.entries().then((kept) => kept.length)") == 0
    assert server_state(app, game) == phone["state"]
    assert not [error for error in errors if "ERR_INTERNET" not in error], errors
    context.close()
