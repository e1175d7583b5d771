"""The steps ahead asked for only when needed (issue 24), on a 390x844 phone that keeps the
game: hands played online ask ``ahead.json`` far fewer times than they save (the steps kept
still cover offline play), and offline right after, 2 hands, an undo and a correction of a
hand scored online after the steps were asked for all find their pages and forms; synced,
the server's game is the phone's."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from scorekeeper.extensions import db
from scorekeeper.models import Game
from tests.browser import wait_until
from tests.e2e.test_phone_play_offline import back_online
from tests.e2e.test_phone_play_offline import kept_on_the_phone
from tests.e2e.test_phone_play_offline import play_hand
from tests.e2e.test_phone_play_offline import server_state
from tests.e2e.test_phone_play_offline import tap

pytestmark = pytest.mark.usefixtures("patient_expect")


def version_of(app, game: int) -> int:
    with app.app_context():
        return db.session.get(Game, game).version


def until_saved(app, game: int, version: int) -> None:
    """The server's game at ``version`` (each save moves it on by one)."""
    deadline = time.monotonic() + 30
    while version_of(app, game) < version:
        assert time.monotonic() < deadline, "the save did not reach the server"
        time.sleep(0.05)


def test_online_saves_ask_few_steps_ahead_then_offline_play(browser, live_server, make_app):
    app, game, page, errors = kept_on_the_phone(browser, live_server, make_app)  # 7 hands
    asked: list[str] = []
    page.on("request", lambda request: "/ahead.json" in request.url and asked.append(request.url))
    page.on("dialog", lambda dialog: dialog.accept())  # "Undo hand 6?"
    version = version_of(app, game)
    saves = 0
    for number in (1, 2, 3, 4):  # online, each save's answer awaited before the next tap
        expect(page.locator("#now h1")).to_contain_text(f"Hand {number}")
        play_hand(page, 8 - number)
        saves += 2
        until_saved(app, game, version + saves)
        expect(page.locator("#now h1")).to_contain_text(f"Hand {number + 1}")
    page.wait_for_timeout(1000)  # what the last answer's page asks for, asked
    assert len(asked) <= 1 < saves, asked  # 8 saves: the steps kept cover them all
    assert len(server_state(app, game)["hands"]) == 4

    context = page.context
    context.set_offline(True)
    for number in (5, 6):
        expect(page.locator("#now h1")).to_contain_text(f"Hand {number}")
        play_hand(page, 8 - number)
    expect(page.locator("#now h1")).to_contain_text("Hand 7")
    rows = page.locator("table.sheet > tbody > tr[data-line]")
    expect(rows).to_have_count(6)
    page.locator(".undo-row button").click()  # hand 6 undone
    expect(page.locator("#now h1")).to_contain_text("Hand 6")
    expect(rows).to_have_count(5)
    expect(page.locator(".sheet-card .flash-success")).to_have_text("Hand 6 removed.")

    # Hand 4 (4 cards), scored online after the steps were asked for: its correction form kept too.
    page.locator('table.sheet tr[data-line="4"] a.hand-link').click()
    dialog = page.locator("dialog[data-offline-correction][open]")
    expect(dialog.locator("h1")).to_have_text("Correct hand 4")
    form = dialog.locator("form")
    took = form.locator('input[name^="trick-"][value="4"]:checked')
    expect(took).to_have_count(1)
    seat = took.get_attribute("name")
    other = next(f"trick-{each}" for each in range(7) if f"trick-{each}" != seat)
    form.locator(f'input[name="{seat}"][value="3"]').locator("xpath=..").click()
    form.locator(f'input[name="{other}"][value="1"]').locator("xpath=..").click()
    form.locator("button[type=submit]").click()
    expect(dialog).to_have_count(0)
    expect(page.locator(".sheet-card .flash-success")).to_contain_text("Hand 4 corrected")
    phone = page.evaluate(f"() => JSON.parse(localStorage.getItem('sk-keep-{game}'))")
    assert len(phone["state"]["hands"]) == 5
    assert sorted(phone["state"]["hands"][3]["input"]["tricks"].values()) == [0] * 5 + [1, 3]
    assert page.evaluate("() => Outbox.entries().then((kept) => kept.length)") == 6
    assert len(server_state(app, game)["hands"]) == 4  # nothing of it on the server yet

    back_online(page)
    assert server_state(app, game) == phone["state"]
    assert not [error for error in errors if "ERR_INTERNET" not in error], errors
    context.close()


def test_a_missing_step_is_asked_at_once_another_phones_change_soon(browser, live_server, make_app):
    """The steps kept cut down to the step now (as after a game that went where the steps
    made ahead did not): the next save online asks at once, and the step it reached is kept.
    Then a save made elsewhere (not by this page): this phone's next save asks again (at
    most once in 5 s), and the steps kept are the server's game's."""
    app, game, page, errors = kept_on_the_phone(browser, live_server, make_app)
    asked: list[str] = []
    page.on("request", lambda request: "/ahead.json" in request.url and asked.append(request.url))
    page.evaluate(
        f"""() => {{
          const ahead = JSON.parse(localStorage.getItem('sk-ahead-{game}'));
          ahead.steps = {{"0:0": ahead.steps["0:0"]}};
          localStorage.setItem('sk-ahead-{game}', JSON.stringify(ahead));
        }}"""
    )
    version = version_of(app, game)
    bids = page.locator("form[data-bids-form]")
    order = bids.locator("li.row").evaluate_all("(rows) => rows.map((r) => r.dataset.player)")
    for name in order:
        tap(bids, name, 0)
    bids.locator("[data-save]").click()
    until_saved(app, game, version + 1)
    wait_until(
        page, f"() => JSON.parse(localStorage.getItem('sk-ahead-{game}')).version === {version + 1}"
    )
    assert len(asked) == 1, asked
    kept = page.evaluate(f"() => JSON.parse(localStorage.getItem('sk-ahead-{game}'))")
    assert "1:0" in kept["steps"] and "1:1" in kept["steps"]

    # Hand 1's tricks saved elsewhere (the same account, another phone).
    token = page.locator("input[name=csrf_token]").first.get_attribute("value")
    fields = {"csrf_token": token, "seats": "0,1,2,3,4,5,6", "phase": "tricks"}
    fields |= {f"trick-{seat}": "0" for seat in range(7)} | {"idempotency_key": "elsewhere"}
    fields["trick-1"] = "7"  # Ben, first in order (Ann deals), takes the 7 tricks
    answer = page.request.post(f"/games/{game}/hands/1", form=fields)
    assert answer.ok, answer.status
    until_saved(app, game, version + 2)
    asked.clear()
    # This page (no live events: the game has no seat link) saves the same tricks: its
    # answer says the game's version, one more than this phone's saves account for.
    tricks = page.locator("form[data-tricks-form]")
    for name in order:
        tap(tricks, name, 0)
    tap(tricks, order[0], 7)
    tricks.locator("[data-save]").click()
    expect(page.locator("#now h1")).to_contain_text("Hand 2")
    wait_until(
        page,
        f"""async () => {{
          const server = (await (await fetch('/offline/play/{game}.json')).json()).version;
          return JSON.parse(localStorage.getItem('sk-ahead-{game}')).version === server;
        }}""",
        timeout=20_000,
    )
    assert len(asked) == 1, asked
    assert not [error for error in errors if "ERR_INTERNET" not in error], errors
    page.context.close()
