"""Online, the phone's rules answer first (issue 24), on a 390x844 phone that keeps the game:
a save is checked by the phone's rules and the next step drawn with the totals at once, while
the same save goes to the server; the server's answer then replaces the page (the server
wins), and where it is not the phone's, the page says so. The server's answers are held by a
route on the save's address, to see the page before they land."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from scorekeeper.extensions import db
from scorekeeper.models import Game
from tests.browser import screenshot
from tests.e2e.test_phone_play_offline import kept_on_the_phone
from tests.e2e.test_phone_play_offline import server_state
from tests.e2e.test_phone_play_offline import tap

pytestmark = pytest.mark.usefixtures("patient_expect")


def order_of(form) -> list[str]:
    return form.locator("li.row").evaluate_all("(rows) => rows.map((r) => r.dataset.player)")


def shown_totals(page) -> dict[str, str]:
    """Each player's total on the next hand's rows (the server's page also shows the last
    hand's points after it: "10+10")."""
    shown = page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll(
             "form[data-bids-form] [data-total]")].map((place) => [place.dataset.total,
             place.textContent.replace("−", "-")]))"""
    )
    return {name: re.search(r"-?\d+", text).group() for name, text in shown.items()}


def bids_saved_held(page, game: int) -> tuple[list, list[str]]:
    """Every save of game ``game`` held by a route (the test answers it), then hand 1's bids
    saved, everyone 0, and the phone's answer drawn: the held saves and the order of play."""
    held = []
    page.route(re.compile(rf"/games/{game}/hands(/\d+)?$"), lambda route: held.append(route))
    bids = page.locator("form[data-bids-form]")
    order = order_of(bids)
    for name in order:
        tap(bids, name, 0)
    bids.locator("[data-save]").click()
    expect(page.locator("form[data-tricks-form]")).to_be_visible()  # the phone's answer
    return held, order


def test_the_totals_shown_before_the_server_answers(browser, live_server, make_app):
    app, game, page, errors = kept_on_the_phone(browser, live_server, make_app)
    # The phone's answer: hand 1's tricks, while the server has not even had the save.
    held, order = bids_saved_held(page, game)
    expect(page.locator("body")).to_have_attribute("data-local-first", "1")
    assert len(held) == 1
    with app.app_context():
        assert not db.session.get(Game, game).hands
    # The tricks entered on the phone's step before the server's answer lands: kept in the
    # server's form.
    tricks = page.locator("form[data-tricks-form]")
    for name in order:
        tap(tricks, name, 0)
    tap(tricks, order[0], 7)
    held[0].fulfill(response=held[0].fetch())
    expect(page.locator("body")).to_have_attribute("data-server-compared", "1")
    expect(page.locator("form[data-tricks-form]")).to_be_visible()  # the server's now
    chosen = tricks.locator(f'li[data-player="{order[0]}"] input[value="7"]')
    expect(chosen).to_be_checked()
    expect(tricks.locator(f'li[data-player="{order[1]}"] input[value="0"]')).to_be_checked()
    tricks.locator("[data-save]").click()
    expect(page.locator("body")).to_have_attribute("data-local-first", "2")
    expect(page.locator("#now h1")).to_contain_text("Hand 2")
    first = shown_totals(page)  # written by the phone, the server's answer held
    assert len(held) == 2 and len(first) == 7
    assert any(total != "0" for total in first.values()), first
    assert not any(server_state(app, game)["totals"].values())  # not on the server yet
    screenshot(page, "answer-first-before-the-server")
    held[1].fulfill(response=held[1].fetch())
    expect(page.locator("body")).to_have_attribute("data-server-compared", "2")
    server = server_state(app, game)
    assert {name: str(total) for name, total in server["totals"].items()} == first
    assert shown_totals(page) == first  # the server's page, the same totals
    expect(page.locator("[data-server-won]")).to_have_count(0)
    assert not errors, errors
    page.context.close()


def test_the_server_disagrees_and_its_answer_wins(browser, live_server, make_app):
    app, game, page, errors = kept_on_the_phone(browser, live_server, make_app)
    # The server's answer: a refusal, its page as it stands (hand 1's bids, nothing saved).
    refusal = page.request.get(f"/games/{game}", headers={"X-Fragment": "1"}).text()
    assert "data-bids-form" in refusal
    held, _ = bids_saved_held(page, game)
    expect(page.locator("[data-server-won]")).to_have_count(0)
    held[0].fulfill(status=422, body=refusal, content_type="text/html; charset=utf-8")
    notice = page.locator("[data-server-won]")
    expect(notice).to_have_text(
        "The server's answer differs from this phone's: the server's is shown."
    )
    expect(notice).to_be_visible()
    expect(page.locator("form[data-bids-form]")).to_be_visible()  # the server's page won
    expect(page.locator("form[data-tricks-form]")).to_have_count(0)
    screenshot(page, "answer-first-server-won")
    assert server_state(app, game)["hands"] == []
    assert not errors, errors
    page.context.close()


def test_a_save_the_server_fails_puts_the_form_back(browser, live_server, make_app):
    """The server fails the save (an error, no page): the phone's step goes, the bids' form
    is back with what was entered and says it was not saved (as without the switch)."""
    app, game, page, errors = kept_on_the_phone(browser, live_server, make_app)
    held, order = bids_saved_held(page, game)
    bids = page.locator("form[data-bids-form]")
    held[0].fulfill(status=500, body="Internal Server Error", content_type="text/plain")
    expect(page.locator("form[data-bids-form] .save-failed")).to_be_visible()
    expect(page.locator("form[data-tricks-form]")).to_have_count(0)
    expect(bids.locator(f'li[data-player="{order[0]}"] input[value="0"]')).to_be_checked()
    expect(page.locator("#now h1")).to_contain_text("Hand 1")
    assert server_state(app, game)["hands"] == []
    assert not errors, errors
    page.context.close()


def test_two_saves_in_flight_the_later_step_stays(browser, live_server, make_app):
    """The tricks saved on the phone's step while the bids' save is still on its way: the
    phone draws hand 2 at once; the tricks' save goes only once the bids' is answered (never
    the other way round), and that answer does not draw hand 1's tricks over hand 2; the
    tricks' answer then draws the server's hand 2, the phone's totals."""
    app, game, page, errors = kept_on_the_phone(browser, live_server, make_app)
    held, order = bids_saved_held(page, game)
    tricks = page.locator("form[data-tricks-form]")
    for name in order:
        tap(tricks, name, 0)
    tap(tricks, order[0], 7)
    tricks.locator("[data-save]").click()
    expect(page.locator("body")).to_have_attribute("data-local-first", "2")
    expect(page.locator("#now h1")).to_contain_text("Hand 2")
    first = shown_totals(page)
    assert len(held) == 1  # the tricks wait for the bids' answer
    held[0].fulfill(response=held[0].fetch())
    # The bids' answer landed (the tricks' save then went): hand 2 stays on the page.
    for _ in range(200):
        if len(held) == 2:
            break
        page.wait_for_timeout(50)
    assert len(held) == 2
    expect(page.locator("#now h1")).to_contain_text("Hand 2")
    expect(page.locator("form[data-tricks-form]")).to_have_count(0)
    assert shown_totals(page) == first
    held[1].fulfill(response=held[1].fetch())
    expect(page.locator("body")).to_have_attribute("data-server-compared", "1")
    server = server_state(app, game)
    assert {name: str(total) for name, total in server["totals"].items()} == first
    assert shown_totals(page) == first
    expect(page.locator("[data-server-won]")).to_have_count(0)
    assert not errors, errors
    page.context.close()
