"""The table changes with no network on a 390x844 phone (issue 24): a 5-player Oh Hell game
kept on the phone, the network off from the first hand. The Table panel is drawn by the
phone from its own template (``games/pages.py``), each change is checked by the server's rules
running in the phone (a refusal beside its field, what was typed kept), and the next hand's
page is drawn by the game's own templates for the table as it now is: a player sits out a
hand, a newcomer joins after a named seat, points given then undone from the sheet (never
sent: taken back from the outbox), a player leaves. Then the link returns: the outbox sends
every hand and change in order, the server replays them, and its game is the phone's."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scorekeeper.extensions import db
from scorekeeper.models import Game
from tests.browser import screenshot
from tests.e2e.test_phone_play_offline import back_online
from tests.e2e.test_phone_play_offline import kept_on_the_phone
from tests.e2e.test_phone_play_offline import play_hand
from tests.e2e.test_phone_play_offline import server_state

pytestmark = pytest.mark.usefixtures("patient_expect")

FIVE = ["Ann", "Ben", "Cy", "Dee", "Eve"]


def numbered(state: dict) -> dict:
    """A state with its changes' numbers left out (the server gives each change its number
    when it gets it; the phone's have none till then)."""
    return {**state, "changes": [{**change, "id": None} for change in state["changes"]]}


def waiting(page) -> int:
    return page.evaluate("() => Outbox.entries().then((kept) => kept.length)")


def hand(page) -> list[str]:
    """The next hand on the page: its bids form's players, in bidding order."""
    bids = page.locator("form[data-bids-form]")
    expect(bids).to_be_visible()
    return bids.locator("li.row").evaluate_all("(rows) => rows.map((r) => r.dataset.player)")


def play(page) -> None:
    """The hand on the page played (play_hand), till the phone checked both its saves."""
    checked = int(page.locator("body").get_attribute("data-offline-checked") or 0)
    play_hand(page, int(page.locator("form[data-bids-form]").get_attribute("data-cards")))
    expect(page.locator("body")).to_have_attribute("data-offline-checked", str(checked + 2))


def panel(page, kind: str):
    """The Table panel, drawn on the phone, with the form of ``kind`` open."""
    page.locator("#now a.table-link").click()
    expect(page.locator("#main h1")).to_have_text("Table")
    card = page.locator(f"#change-{kind}")
    card.locator("summary").click()
    return card


def choose(card, name: str, value: str) -> None:
    card.locator(f'input[name="{name}"][value="{value}"]').locator("xpath=..").click()


def test_table_changes_offline_then_synced(browser, live_server, make_app):
    app, game, page, errors = kept_on_the_phone(
        browser, live_server, make_app, players=FIVE, options={"hook": True, "sequence": "down"}
    )
    page.on("dialog", lambda dialog: dialog.accept())
    page.context.set_offline(True)
    assert hand(page) == ["Ben", "Cy", "Dee", "Eve", "Ann"]
    play(page)
    saves = 2

    # Cy sits out hand 2: the phone's panel, then hand 2 drawn without Cy.
    card = panel(page, "sit_out")
    screenshot(page, "table-offline-panel")
    choose(card, "player", "Cy")
    card.locator("button[type=submit]").click()
    saves += 1
    expect(page.locator("#now h1")).to_contain_text("Hand 2")
    assert "Cy" not in hand(page)
    expect(page.locator(".flashes[data-offline-said]")).to_contain_text("Cy")
    assert waiting(page) == saves
    play(page)
    saves += 2

    # A join refused (Ben is seated) keeps what was typed; then Hal joins after Ann on zero.
    card = panel(page, "join")
    card.locator("input[name=new_player]").fill("Ben")
    card.locator("button[type=submit]").click()
    # Beside its field, as the server's page shows it (at the end of the field's box).
    refused = card.locator("fieldset:has(input[name=new_player]) [data-offline-error]")
    expect(refused).to_have_attribute("data-offline-error", "already_seated")
    expect(card.locator("input[name=new_player]")).to_have_value("Ben")
    assert waiting(page) == saves
    card.locator("input[name=new_player]").fill("Hal")
    card.locator("select[name=after]").select_option("Ann")
    choose(card, "score", "zero")
    card.locator("button[type=submit]").click()
    saves += 1
    expect(page.locator("#now h1")).to_contain_text("Hand 3")
    order = hand(page)
    assert "Hal" in order and "Cy" in order
    assert order.index("Hal") == (order.index("Ann") + 1) % len(order)
    screenshot(page, "table-offline-joined")
    play(page)
    saves += 2

    # Points for Ben, then undone under the sheet: never sent, taken back from the outbox.
    before = page.evaluate(f"() => JSON.parse(localStorage.getItem('sk-keep-{game}'))")
    card = panel(page, "adjust")
    choose(card, "player", "Ben")
    card.locator("input[name=points]").fill("10")
    card.locator("input[name=note]").fill("bonus")
    card.locator("button[type=submit]").click()
    expect(page.locator("#now h1")).to_contain_text("Hand 4")
    assert waiting(page) == saves + 1
    page.locator("#main tr.undo-row form button").click()
    expect(page.locator(".flashes[data-offline-said]")).to_contain_text("undone")
    assert waiting(page) == saves
    after = page.evaluate(f"() => JSON.parse(localStorage.getItem('sk-keep-{game}'))")
    assert after["state"]["totals"] == before["state"]["totals"]
    assert after["version"] == before["version"]

    # Dee leaves: hand 4 without Dee.
    card = panel(page, "leave")
    choose(card, "player", "Dee")
    card.locator("button[type=submit]").click()
    saves += 1
    expect(page.locator("#now h1")).to_contain_text("Hand 4")
    assert "Dee" not in hand(page)
    play(page)
    saves += 2
    phone = page.evaluate(f"() => JSON.parse(localStorage.getItem('sk-keep-{game}'))")
    assert waiting(page) == saves
    with app.app_context():
        assert not db.session.get(Game, game).hands  # nothing reached the server yet

    back_online(page)
    expect(page.locator("#outbox")).to_have_count(0)
    assert numbered(server_state(app, game)) == numbered(phone["state"])
    with app.app_context():
        assert db.session.get(Game, game).members == [*FIVE, "Hal"]
    assert not [error for error in errors if "ERR_INTERNET" not in error], errors
    page.context.close()


def test_seat_handed_over_and_hands_dropped_offline_then_the_game_ended(
    browser, live_server, make_app
):
    """Offline on the phone's panel: Eve hands her seat to Zoe (a new name: her total and
    place go with the seat), hand 2 is dropped from the hands still to play (hand 2 is then
    dealt 8 cards, not 9), and after hand 2 the table ends the game (the game-over page drawn
    by the phone, "Final standings"); synced, the server's game is the phone's."""
    app, game, page, errors = kept_on_the_phone(
        browser, live_server, make_app, players=FIVE, options={"hook": True, "sequence": "down"}
    )
    page.on("dialog", lambda dialog: dialog.accept())
    page.context.set_offline(True)
    play(page)
    # The panel as a page: its heading focused; "Back to the game" and the phone's back
    # button each put the game back as it was, the Table link focused.
    title = page.title()
    page.locator("#now a.table-link").click()
    expect(page.locator("#main h1")).to_have_text("Table")
    assert page.evaluate("() => document.activeElement.tagName") == "H1"
    assert page.title() == f"Table · {title}"  # as the server's panel page is named
    page.locator("#main a.button.wide", has_text="Back to the game").click()
    expect(page.locator("#now h1")).to_contain_text("Hand 2")
    assert page.evaluate("() => document.activeElement.classList.contains('table-link')")
    assert page.title() == title
    panel(page, "leave")
    page.go_back()
    expect(page.locator("#now h1")).to_contain_text("Hand 2")
    assert page.url.endswith(f"/games/{game}")
    card = panel(page, "substitute")
    choose(card, "player", "Eve")
    card.locator("input[name=new_by]").fill("Zoe")
    # The phone's step back past the panel the change closes lands late (as on a busy
    # phone): the panel opened right after must wait for it, not be closed by it.
    page.evaluate(
        "() => { const back = history.back.bind(history);"
        " history.back = () => setTimeout(back, 600); }"
    )
    card.locator("button[type=submit]").click()
    order = hand(page)
    assert "Zoe" in order and "Eve" not in order
    card = panel(page, "schedule")
    page.wait_for_timeout(900)
    expect(page.locator("#main h1")).to_have_text("Table")
    card.locator('input[name=drop][value="0"]').check()
    card.locator("button.primary").click()
    expect(page.locator("#now h1")).to_contain_text("Hand 2")
    assert page.locator("form[data-bids-form]").get_attribute("data-cards") == "8"
    play(page)
    card = panel(page, "schedule")
    card.locator("button.end-now").click()
    expect(page.locator("#final-title")).to_be_visible()
    expect(page.locator("#totals-title")).to_contain_text("Final standings")
    expect(page.locator("form[data-bids-form]")).to_have_count(0)
    phone = page.evaluate(f"() => JSON.parse(localStorage.getItem('sk-keep-{game}'))")
    assert phone["state"]["finished"]
    assert waiting(page) == 7  # two hands (4 saves) and three changes

    back_online(page)
    assert numbered(server_state(app, game)) == numbered(phone["state"])
    with app.app_context():
        assert db.session.get(Game, game).members == [*FIVE, "Zoe"]
    assert not [error for error in errors if "ERR_INTERNET" not in error], errors
    page.context.close()
