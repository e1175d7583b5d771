"""A whole game played with no network on a 390x844 phone (issue 24): a 7-player Oh Hell game
of 7 hands (down from 7 cards, the hook on), the network off from the first hand to the end.
Every step's page is the server's, made ahead by its own templates (``ahead.json``), every
save is checked by the server's rules running in the phone: a hook refusal shown at once with
the server's code and message, a correction of a hand's bids (its tricks' form says the new
bid), the totals written at once, the game over. Then the link returns: the outbox sends the
15 saves in order with their idempotency keys, the server replays them with its own rules,
and the server's game is the phone's."""

from __future__ import annotations

import dataclasses
import html
import json
import re
import time

import pytest
from playwright.sync_api import expect

from scorekeeper.extensions import db
from scorekeeper.games import portable
from scorekeeper.i18n import LANGUAGES
from scorekeeper.models import Account
from scorekeeper.models import Game
from scorekeeper.services import games
from scorekeeper.views import offline_rules
from tests.browser import CHROMIUM
from tests.browser import LAUNCH_ARGS
from tests.browser import log_in
from tests.browser import phone_settings
from tests.browser import screenshot
from tests.browser import wait_until
from tests.conftest import make_account
from tests.test_languages_flows import said
from tests.test_languages_flows import written

pytestmark = pytest.mark.usefixtures("patient_expect")

SEVEN = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus"]
#: A total as written in its place (its label and the last hand's change aside).
TOTAL = """(place) => [...place.childNodes].filter((node) => node.nodeType === 3)
  .map((node) => node.textContent).join('').trim()"""


def back_online(page) -> None:
    """The link back: the outbox sends what the phone kept, till nothing is left in it."""
    page.context.set_offline(False)
    wait_until(page, "() => Outbox.entries().then((kept) => kept.length === 0)", timeout=30_000)


def server_state(app, game: int) -> dict:
    with app.app_context():
        found = db.session.get(Game, game)
        state = games.played(found).state
        return json.loads(json.dumps(portable.plain(dataclasses.asdict(state))))


def tap(form, name: str, value: int) -> None:
    form.locator(f'li[data-player="{name}"] input[value="{value}"]').locator("xpath=..").click()


def play_hand(page, cards: int) -> None:
    """A hand on the page as it stands: everyone bids 0, then the first in order takes every
    trick (also bench/play_offline.py's)."""
    bids = page.locator("form[data-bids-form]")
    order = bids.locator("li.row").evaluate_all("(rows) => rows.map((r) => r.dataset.player)")
    for name in order:
        tap(bids, name, 0)
    bids.locator("[data-save]").click()
    tricks = page.locator("form[data-tricks-form]")
    tricks.wait_for()
    for name in order:
        tap(tricks, name, 0)
    tap(tricks, order[0], cards)
    tricks.locator("[data-save]").click()


def kept_on_the_phone(
    browser,
    live_server,
    make_app,
    kind="oh_hell",
    players=SEVEN,
    options=None,
    profile=None,
    language=None,
):
    """A game open on a phone that keeps it (a 7-player Oh Hell game of 7 hands with the hook,
    unless told): the app, the game's id, the phone's page and the page's errors. With a
    ``profile`` (a folder): a browser of its own on it, the service worker allowed (in a
    context of the tests' shared browser, a worker installed by an earlier test's context
    kept this one's from ever taking control)."""
    app = make_app()
    with app.app_context():
        if not offline_rules.available():
            pytest.skip("Pyodide is not installed (make installs it from the npm registry)")
    make_account(app)
    with app.app_context():
        account = db.session.scalar(db.select(Account))
        options = options or {"hook": True, "sequence": "down"}
        game = games.create_game(account, kind, players, options).game.id
    if profile is None:
        context = browser.new_context(**phone_settings(live_server))
    else:
        context = browser.browser_type.launch_persistent_context(
            profile,
            executable_path=CHROMIUM,
            args=LAUNCH_ARGS,
            **phone_settings(live_server, service_workers="allow"),
        )
    context.set_default_timeout(20_000)
    page = context.pages[0] if context.pages else context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    log_in(page)
    if language:  # the language switch, on the page logging in led to
        page.locator("form.languages").get_by_role("button", name=LANGUAGES[language]).click()
        expect(page.locator("html")).to_have_attribute("lang", language)
    page.goto(f"/games/{game}")
    switch = page.locator("input[data-keep-offline]")
    expect(switch).to_be_visible(timeout=20_000)
    assert page.evaluate("() => !window.loadPyodide")  # nothing of the rules before the switch
    switch.check()
    expect(page.locator(".keep-offline[data-ready][data-ahead]")).to_be_attached(timeout=180_000)
    return app, game, page, errors


def test_seven_hands_offline_then_synced(browser, live_server, make_app):
    app, game, page, errors = kept_on_the_phone(browser, live_server, make_app)
    context = page.context
    context.set_offline(True)
    saves = 0
    for number in range(1, 8):
        cards = 8 - number
        bids = page.locator("form[data-bids-form]")
        expect(page.locator("#now h1")).to_contain_text(f"Hand {number}")
        assert int(bids.get_attribute("data-cards")) == cards
        order = bids.locator("li.row").evaluate_all("(rows) => rows.map((r) => r.dataset.player)")
        dealer = order[-1]
        assert dealer == SEVEN[(number - 1) % 7]
        for name in order:
            tap(bids, name, 0)
        if number == 2:
            # The dealer taps the bid the hook forbids (its chip enabled, as a page whose
            # script did not disable it would leave it): refused by the phone's rules.
            chip = bids.locator(f'li[data-player="{dealer}"] input[value="{cards}"]')
            chip.evaluate("(input) => { input.disabled = false; }")
            tap(bids, dealer, cards)
            bids.locator("[data-save]").click()
            refusal = bids.locator("[data-offline-error]")
            expect(refusal).to_have_attribute("data-offline-error", "hook_violation")
            expect(refusal).to_contain_text(f"{dealer} is the dealer and may not bid {cards}")
            screenshot(page, "play-offline-game-hook-refused")
            assert page.evaluate("() => Outbox.entries().then((kept) => kept.length)") == saves
            tap(bids, dealer, 0)
        bids.locator("[data-save]").click()
        saves += 1
        tricks = page.locator("form[data-tricks-form]")
        expect(tricks).to_be_visible()
        if number == 3:
            # A correction: Ben's bid becomes 1; the tricks' form says so at once.
            page.locator("#change-bids summary").click()
            change = page.locator("form[data-change-bids]")
            expect(change.locator('li[data-player="Ben"] input[value="0"]')).to_be_checked()
            tap(change, "Ben", 1)
            change.locator("[data-save]").click()
            saves += 1
            tricks = page.locator("form[data-tricks-form]")
            expect(tricks.locator('li[data-player="Ben"] .pill.bid')).to_have_text("bid 1")
            expect(tricks.locator("[data-status]")).to_contain_text("Bids 1 for 5")
        for name in order:
            tap(tricks, name, 0)
        tap(tricks, order[0], cards)
        tricks.locator("[data-save]").click()
        saves += 1
        expect(page.locator("body")).to_have_attribute("data-offline-checked", str(saves))
        if number < 7:  # the next hand's rows: the totals as the phone's rules have them
            kept = page.evaluate(f"() => localStorage.getItem('sk-keep-{game}')")
            totals = json.loads(kept)["state"]["totals"]
            for name, total in totals.items():
                place = page.locator(f'form[data-bids-form] [data-total="{name}"]')
                shown = place.evaluate(TOTAL).replace("−", "-")
                assert shown == str(total), (name, shown, total)
            assert any(totals.values())
    expect(page.locator("#final-title")).to_be_visible()
    screenshot(page, "play-offline-game-over")
    phone = page.evaluate(f"() => JSON.parse(localStorage.getItem('sk-keep-{game}'))")
    assert phone["state"]["finished"] is True
    assert len(phone["state"]["hands"]) == 7
    assert phone["state"]["hands"][2]["input"]["bids"]["Ben"] == 1
    assert page.evaluate("() => Outbox.entries().then((kept) => kept.length)") == saves == 15
    with app.app_context():
        assert not db.session.get(Game, game).hands  # nothing reached the server yet

    back_online(page)
    expect(page.locator("#outbox")).to_have_count(0)
    assert server_state(app, game) == phone["state"]
    expect(page.locator("#final-title")).to_be_visible()  # the server's page now
    assert not [error for error in errors if "ERR_INTERNET" not in error], errors
    context.close()


def test_a_game_moved_meanwhile_is_refused_and_the_phones_saves_kept(
    browser, live_server, make_app
):
    """Another phone saves hand 1 while this one plays it offline: when the link returns, the
    first offline save is refused (the game moved since the phone saw it), shown with the
    message and where the two differ; the save made after it is not sent; the server's game
    is the other phone's, nothing of this phone's applied; both its saves stay on the phone."""
    app, game, page, errors = kept_on_the_phone(browser, live_server, make_app)
    context = page.context
    context.set_offline(True)
    play_hand(page, 7)
    expect(page.locator("body")).to_have_attribute("data-offline-checked", "2")
    with app.app_context():  # meanwhile, another phone: hand 1's bids, everyone 1 but Ann
        other = db.session.get(Game, game)
        games.record_hand(other, {"bids": {**dict.fromkeys(SEVEN, 1), "Ann": 0}})
    before = server_state(app, game)

    context.set_offline(False)
    outbox = page.locator("#outbox")
    expect(outbox.locator(".error")).to_contain_text("changed on another phone", timeout=30_000)
    expect(outbox).to_have_attribute("open", "")
    screenshot(page, "play-offline-conflict")
    kept = page.evaluate("() => Outbox.entries()")
    assert len(kept) == 2
    assert kept[0]["refused"] and not kept[1].get("refused")  # the second one was not sent
    assert server_state(app, game) == before
    assert server_state(app, game)["hands"][0]["input"]["bids"]["Ben"] == 1
    assert not [error for error in errors if "ERR_INTERNET" not in error], errors
    context.close()


def test_the_phones_version_chosen_in_one_tap_then_its_later_saves_go(
    browser, live_server, make_app
):
    """The same meeting of two phones, and the scorekeeper keeps this phone's version ("Keep
    this phone's", asked first): hand 1's bids become the phone's on the server (its own form
    for the bids of the hand in play, filled in from the kept save), then the save kept after
    it (made on the phone's version) goes too, named on the game's version as it now stands:
    the server's game is the phone's, nothing kept is left."""
    app, game, page, errors = kept_on_the_phone(browser, live_server, make_app)
    context = page.context
    context.set_offline(True)
    play_hand(page, 7)
    expect(page.locator("body")).to_have_attribute("data-offline-checked", "2")
    phone = page.evaluate(f"() => JSON.parse(localStorage.getItem('sk-keep-{game}'))")
    with app.app_context():  # meanwhile, another phone: hand 1's bids, everyone 1 but Ann
        other = db.session.get(Game, game)
        games.record_hand(other, {"bids": {**dict.fromkeys(SEVEN, 1), "Ann": 0}})

    context.set_offline(False)
    outbox = page.locator("#outbox")
    expect(outbox.locator(".error")).to_contain_text("changed on another phone", timeout=30_000)
    mine = outbox.get_by_role("button", name="Keep this phone’s")
    expect(mine).to_have_count(1)  # only the refused save offers it
    page.once("dialog", lambda dialog: dialog.dismiss())
    mine.click()
    expect(outbox.locator("li")).to_have_count(2)  # dismissed: nothing sent
    assert server_state(app, game)["hands"][0]["input"]["bids"]["Ben"] == 1
    page.once("dialog", lambda dialog: dialog.accept())
    mine.click()
    wait_until(page, "() => Outbox.entries().then((kept) => kept.length === 0)", timeout=30_000)
    expect(page.locator("#outbox")).to_have_count(0)
    assert server_state(app, game) == phone["state"]
    assert phone["state"]["hands"][0]["status"] == "scored"
    expect(page.locator("form[data-bids-form]")).to_be_visible()  # hand 2, the server's page
    screenshot(page, "play-offline-conflict-kept-mine")
    assert not [error for error in errors if "ERR_INTERNET" not in error], errors
    context.close()


def test_a_score_pad_played_offline(browser, live_server, make_app):
    """The score pad (a game of another kind: one form a round, typed points): 3 rounds with
    the network off, each round's form the server's made ahead, the totals written at once, the
    game over; synced, the server's game is the phone's."""
    options = {"name": "Catan", "end": "rounds", "rounds": 3}
    app, game, page, errors = kept_on_the_phone(
        browser, live_server, make_app, "score_pad", SEVEN[:3], options
    )
    context = page.context
    context.set_offline(True)
    for number in range(1, 4):
        form = page.locator("form[data-pad-form]")
        expect(form.locator("input[name=number]")).to_have_value(str(number))
        for seat in range(3):
            form.locator(f'input[name="point-{seat}"]').fill(str(number * (seat + 1)))
        form.locator("[data-save]").click()
        expect(page.locator("body")).to_have_attribute("data-offline-checked", str(number))
        if number < 3:
            ben = page.locator('form[data-pad-form] [data-total="Ben"]')
            expect(ben).to_contain_text(str(sum(2 * done for done in range(1, number + 1))))
            # The round's change beside the total, as the server's form shows it.
            expect(ben.locator(".delta")).to_have_text(f"+{2 * number}")
    expect(page.locator("#final-title")).to_contain_text("game over")
    phone = page.evaluate(f"() => JSON.parse(localStorage.getItem('sk-keep-{game}'))")
    assert phone["state"]["totals"] == {"Ann": 6, "Ben": 12, "Cy": 18}
    back_online(page)
    assert server_state(app, game) == phone["state"]
    assert not [error for error in errors if "ERR_INTERNET" not in error], errors
    context.close()


STANDINGS = """() => [...document.querySelectorAll('#totals > li')].map((line) => ({
  who: line.querySelector('.who').textContent, total: line.querySelector('.total').textContent,
  leader: line.classList.contains('leader')}))"""


def test_the_standings_redrawn_offline_as_the_server_draws_them(browser, live_server, make_app):
    """A score pad (highest wins), its first round online, then offline: each round that changes
    who leads redraws the
    standings card at once in the server's order, with its stars and each total's change (the
    phone's rules: ``portable.standings``), an undo too; synced and loaded again online, the
    server's card is the phone's, line by line."""
    options = {"name": "Catan", "end": "rounds", "rounds": 3}
    app, game, page, errors = kept_on_the_phone(
        browser, live_server, make_app, "score_pad", SEVEN[:3], options
    )
    names = page.locator("#totals > li .who")
    for number, points in ((1, (10, 0, 5)), (2, (0, 20, 0))):
        if number == 2:  # round 1 online: the card is the server's (none before a round)
            expect(names).to_have_text(["★ Ann", "Cy", "Ben"])
            page.context.set_offline(True)
        form = page.locator("form[data-pad-form]")
        expect(form.locator("input[name=number]")).to_have_value(str(number))
        for seat, value in enumerate(points):
            form.locator(f'input[name="point-{seat}"]').fill(str(value))
        form.locator("[data-save]").click()
    expect(page.locator("body")).to_have_attribute("data-offline-checked", "1")
    expect(names).to_have_text(["★ Ben", "Ann", "Cy"])
    expect(page.locator("#totals > li .total")).to_have_text(["20+20", "10±0", "5±0"])
    expect(page.locator("#totals > li.leader")).to_have_count(1)

    page.on("dialog", lambda dialog: dialog.accept())  # "Undo round 2?"
    page.locator(".undo-row button").click()  # round 2 undone: Ann leads again
    expect(page.locator("body")).to_have_attribute("data-offline-checked", "2")
    expect(names).to_have_text(["★ Ann", "Cy", "Ben"])
    expect(page.locator("#totals > li .total")).to_have_text(["10+10", "5+5", "0±0"])
    form = page.locator("form[data-pad-form]")
    for seat, value in enumerate((0, 20, 0)):
        form.locator(f'input[name="point-{seat}"]').fill(str(value))
    form.locator("[data-save]").click()
    expect(names).to_have_text(["★ Ben", "Ann", "Cy"])
    phone = page.evaluate(STANDINGS)

    back_online(page)
    page.reload()
    expect(page.locator("#totals > li")).to_have_count(3)
    assert page.evaluate(STANDINGS) == phone
    assert [line["who"] for line in phone] == ["★\xa0Ben", "Ann", "Cy"]
    assert not [error for error in errors if "ERR_INTERNET" not in error], errors
    page.context.close()


CARD = """() => {
  const card = document.querySelector('#main [data-part=standings]');
  return card && {heading: card.querySelector('h2').innerText, text: card.innerText,
    next: card.nextElementSibling.getAttribute('aria-labelledby')};
}"""


@pytest.mark.parametrize("language", ["en", "bn"])
def test_the_standings_card_of_a_first_hand_and_of_a_game_over_offline(
    browser, live_server, make_app, language
):
    """A score pad of 3 rounds played offline from its first round: the page had no standings
    card (no round yet); the first round saved offline puts it where the server's page has it
    (above the sheet), headed "Totals"; the last round ends the game and its heading says
    "Final standings", in the table's language (the server's templates' words, made ahead).
    Synced and loaded again, the server's card is the phone's, word for word."""
    options = {"name": "Catan", "end": "rounds", "rounds": 3}
    app, game, page, errors = kept_on_the_phone(
        browser, live_server, make_app, "score_pad", SEVEN[:3], options, language=language
    )
    page.context.set_offline(True)
    words = (lambda message: message) if language == "en" else (lambda m: said(language, m))
    card = page.locator("#main [data-part=standings]")
    expect(card).to_have_count(0)
    for number in range(1, 4):
        form = page.locator("form[data-pad-form]")
        for seat in range(3):
            form.locator(f'input[name="point-{seat}"]').fill(str(number * (seat + 1)))
        form.locator("[data-save]").click()
        expect(page.locator("body")).to_have_attribute("data-offline-checked", str(number))
        if number == 1:
            shown = page.evaluate(CARD)
            assert shown["heading"].startswith(words("Totals") + " "), shown
            assert shown["next"] == "sheet-title"
            expect(page.locator("#totals > li")).to_have_count(3)
            expect(page.locator("#totals > li .who").first).to_have_text(f"★\xa0{SEVEN[2]}")
    expect(page.locator("#final-title")).to_be_visible()
    phone = page.evaluate(CARD)
    assert phone["heading"].startswith(words("Final standings") + " "), phone
    expect(page.locator("#totals > li .who").first).to_have_text(f"🏆\xa0{SEVEN[2]}")
    # The winner line is the phone's (the page made ahead had its forms' winners).
    wins = "%(name)s wins!"
    line = wins % {"name": "Cy"} if language == "en" else said(language, wins, name="Cy")
    expect(page.locator("#now [data-winner]")).to_have_text(line)
    head = page.locator("#now").inner_text()
    page.evaluate("() => window.scrollTo(0, 0)")
    screenshot(page, f"play-offline-final-standings-{language}")

    back_online(page)
    page.reload()
    expect(card).to_have_count(1)
    assert page.evaluate(CARD) == phone
    assert page.locator("#now").inner_text() == head
    assert not [error for error in errors if "ERR_INTERNET" not in error], errors
    page.context.close()


def test_the_page_loaded_again_offline_goes_on_where_the_phone_is(
    browser, live_server, make_app, tmp_path
):
    """The tab loaded again with no link (the worker's copy of the page as it was online,
    before the hand played offline): the page is at the phone's step (hand 2's bids), the rules
    start again from the phone's cache, and the game goes on; synced, the server's is the
    phone's."""
    app, game, page, errors = kept_on_the_phone(
        browser, live_server, make_app, profile=tmp_path / "profile"
    )
    context = page.context
    copies = "() => caches.open('sk-pages').then((cache) => cache.keys()).then((k) => k.length)"
    # The worker installed (registered once the page is drawn), the page loaded again through
    # it: it keeps a copy of the page and of offline play's files (after a test whose context
    # had a worker, the first page was not always claimed by the new worker).
    page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    wait_until(page, copies, timeout=60_000)
    expect(page.locator(".keep-offline[data-ready][data-ahead]")).to_be_attached(timeout=120_000)
    context.set_offline(True)
    play_hand(page, 7)
    expect(page.locator("body")).to_have_attribute("data-offline-checked", "2")
    page.reload()
    expect(page.locator("#now h1")).to_contain_text("Hand 2")
    expect(page.locator("form[data-bids-form] input[name=number]")).to_have_value("2")
    expect(page.locator(".keep-offline[data-ready]")).to_be_attached(timeout=120_000)
    play_hand(page, 6)
    expect(page.locator("body")).to_have_attribute("data-offline-checked", "2")
    expect(page.locator("#now h1")).to_contain_text("Hand 3")
    phone = page.evaluate(f"() => JSON.parse(localStorage.getItem('sk-keep-{game}'))")
    assert len(phone["state"]["hands"]) == 2
    back_online(page)
    assert server_state(app, game) == phone["state"]
    assert not [error for error in errors if "ERR_INTERNET" not in error], errors
    context.close()


@pytest.mark.parametrize("slow_record", [False, True], ids=["record-first", "worker-first"])
def test_a_first_visit_before_the_worker_then_loaded_again_offline(
    browser, live_server, make_app, tmp_path, slow_record
):
    """The game page drawn before the app's worker ever took it over (the worker and every
    copy gone, the page loaded again: the worker comes back only after the page is drawn, and
    offline play's script, rules and record went past it). Once the worker takes the page
    over, the phone asks for them again and the worker keeps them: the page loaded again with
    no link plays on. With the game's record slow to come (a crowded server), the worker takes
    the page over first: the phone asks again all the same."""
    app, game, page, errors = kept_on_the_phone(
        browser, live_server, make_app, profile=tmp_path / "profile"
    )
    context = page.context
    page.evaluate(
        """async () => {
          for (const registration of await navigator.serviceWorker.getRegistrations()) {
            await registration.unregister();
          }
          for (const name of await caches.keys()) await caches.delete(name);
        }"""
    )
    if slow_record:

        def slow(route):
            time.sleep(6)  # longer than the worker's install and claim
            route.continue_()

        page.route(f"**/offline/play/{game}.json", slow, times=1)
    page.reload()
    assert page.evaluate("() => navigator.serviceWorker.controller") is None
    expect(page.locator(".keep-offline[data-ready]")).to_be_attached(timeout=120_000)
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=60_000)
    kept = """(paths) => Promise.all(paths.map((path) => caches.match(path, { ignoreVary: true })))
      .then((found) => found.every(Boolean))"""
    data = page.evaluate(f"() => JSON.parse(localStorage.getItem('sk-keep-{game}'))")
    paths = [data["urls"]["play"], data["urls"]["rules"], *data["urls"]["files"]]
    wait_until(page, f"() => ({kept})({json.dumps(paths)})", timeout=60_000)
    wait_until(
        page,
        "() => caches.open('sk-pages').then((cache) => cache.keys()).then((k) => k.length > 0)",
        timeout=60_000,
    )
    context.set_offline(True)
    page.reload()
    expect(page.locator(".keep-offline[data-ready]")).to_be_attached(timeout=120_000)
    play_hand(page, 7)
    expect(page.locator("body")).to_have_attribute("data-offline-checked", "2")
    expect(page.locator("#now h1")).to_contain_text("Hand 2")
    phone = page.evaluate(f"() => JSON.parse(localStorage.getItem('sk-keep-{game}'))")
    back_online(page)
    assert server_state(app, game) == phone["state"]
    assert not [error for error in errors if "ERR_INTERNET" not in error], errors
    context.close()


def test_an_undo_and_a_correction_offline_then_synced(browser, live_server, make_app):
    """Offline, on a 390x844 phone: 3 hands of a 4-player Oh Hell game (the hook on), the last
    one undone from the sheet (the entry back at hand 3's bids, its row gone, the undo now
    under hand 2), hand 1 corrected from the sheet (its form as the server made it ahead,
    filled in from the phone's record; a bid the hook forbids refused with the server's
    message; then saved: the row and the totals redrawn at once), 2 more hands. The link
    back, the 12 saves go in order, and the server's game is the phone's, hand by hand."""
    players = SEVEN[:4]
    app, game, page, errors = kept_on_the_phone(
        browser, live_server, make_app, players=players, options={"hook": True, "max_cards": 5}
    )
    context = page.context
    page.on("dialog", lambda dialog: dialog.accept())  # "Undo hand 3?"
    context.set_offline(True)
    for number in (1, 2, 3):
        expect(page.locator("#now h1")).to_contain_text(f"Hand {number}")
        play_hand(page, number)
    expect(page.locator("#now h1")).to_contain_text("Hand 4")
    rows = page.locator("table.sheet > tbody > tr[data-line]")
    expect(rows).to_have_count(3)

    page.locator(".undo-row button").click()
    expect(page.locator("#now h1")).to_contain_text("Hand 3")
    expect(page.locator("form[data-bids-form] input[name=number]")).to_have_value("3")
    expect(rows).to_have_count(2)
    expect(page.locator(".sheet-card .flash-success")).to_have_text("Hand 3 removed.")
    expect(page.locator(".undo-row form")).to_have_attribute(
        "action", f"/games/{game}/hands/2/undo"
    )
    phone = page.evaluate(f"() => JSON.parse(localStorage.getItem('sk-keep-{game}'))")
    assert len(phone["state"]["hands"]) == 2

    # Hand 1 (1 card, Ann deals, Ben bids first and took the trick): corrected.
    page.locator('table.sheet tr[data-line="1"] a.hand-link').click()
    dialog = page.locator("dialog[data-offline-correction][open]")
    form = dialog.locator("form")
    expect(dialog.locator("h1")).to_have_text("Correct hand 1")
    expect(form.locator('input[name="trick-1"][value="1"]')).to_be_checked()  # Ben's trick
    expect(form.locator('input[name="bid-0"][value="0"]')).to_be_checked()
    form.locator('input[name="bid-2"][value="1"]').locator("xpath=..").click()  # Cy bids 1
    form.locator('input[name="trick-2"][value="1"]').locator("xpath=..").click()
    form.locator('input[name="trick-1"][value="0"]').locator("xpath=..").click()
    form.locator("button[type=submit]").click()
    refusal = form.locator("[data-offline-error]")
    expect(refusal).to_have_attribute("data-offline-error", "hook_violation")
    offline_message = refusal.inner_text()
    assert "Ann is the dealer and may not bid 0" in offline_message
    screenshot(page, "play-offline-correction-refused")
    form.locator('input[name="bid-0"][value="1"]').locator("xpath=..").click()  # Ann bids 1
    screenshot(page, "play-offline-correction")
    form.locator("button[type=submit]").click()
    expect(dialog).to_have_count(0)
    corrected = page.locator('table.sheet tr[data-line="1"]')
    expect(corrected).to_have_class(re.compile("just-corrected"))
    said = page.locator(".sheet-card .flash-success")
    expect(said).to_have_text("Hand 1 corrected; later hands re-scored.")
    phone = page.evaluate(f"() => JSON.parse(localStorage.getItem('sk-keep-{game}'))")
    hand = phone["state"]["hands"][0]
    assert hand["input"]["bids"] == {"Ann": 1, "Ben": 0, "Cy": 1, "Dee": 0}
    assert hand["points"] == {"Ann": 0, "Ben": 10, "Cy": 11, "Dee": 10}
    cy = corrected.locator("td").nth(2)  # the game's own cell, drawn by its template
    expect(cy.locator(".bt")).to_have_text("1/1")
    expect(cy.locator(".mark")).to_have_text("✓")
    expect(cy.locator(".pts")).to_have_text("11")
    for name, total in phone["state"]["totals"].items():  # the sheet's totals and the entry's
        expect(page.locator(f'table.sheet tfoot td[data-col="{name}"]')).to_have_text(
            str(total).replace("-", "−")
        )
    screenshot(page, "play-offline-corrected-sheet")

    for number in (3, 4):
        expect(page.locator("#now h1")).to_contain_text(f"Hand {number}")
        play_hand(page, number)
    expect(page.locator("#now h1")).to_contain_text("Hand 5")
    expect(rows).to_have_count(4)
    phone = page.evaluate(f"() => JSON.parse(localStorage.getItem('sk-keep-{game}'))")
    assert [hand["status"] for hand in phone["state"]["hands"]] == ["scored"] * 4
    assert page.evaluate("() => Outbox.entries().then((kept) => kept.length)") == 12
    with app.app_context():
        assert not db.session.get(Game, game).hands  # nothing reached the server yet

    back_online(page)
    server = server_state(app, game)
    assert server["totals"] == phone["state"]["totals"]
    assert [hand["input"] for hand in server["hands"]] == [
        hand["input"] for hand in phone["state"]["hands"]
    ]
    assert server == phone["state"]
    # The same refused correction sent to the server: its message is the phone's.
    token = page.locator("input[name=csrf_token]").first.get_attribute("value")
    fields = {"csrf_token": token, "seats": "0,1,2,3", "phase": "both", "idempotency_key": "x1"}
    fields |= {"bid-0": "0", "bid-1": "0", "bid-2": "1", "bid-3": "0"}
    fields |= {"trick-0": "0", "trick-1": "0", "trick-2": "1", "trick-3": "0"}
    answer = page.request.post(f"/games/{game}/hands/1", form=fields)
    assert answer.status == 422
    assert html.escape(offline_message, quote=False) in answer.text()
    assert server_state(app, game) == server
    with app.app_context():  # the steps ahead of the game as synced kept (none still on its way)
        version = db.session.get(Game, game).version
    wait_until(
        page, f"() => JSON.parse(localStorage.getItem('sk-ahead-{game}')).version === {version}"
    )
    assert not [error for error in errors if "ERR_INTERNET" not in error], errors
    context.close()


#: A sheet's hand rows as drawn, without the mark of the rows the phone drew.
SHEET_ROWS = """() => [...document.querySelectorAll('#main table.sheet > tbody > tr[data-line]')]
  .map((row) => row.outerHTML.replace(' data-offline-row=""', ''))"""


@pytest.mark.parametrize("language", ["en", "bn"])
def test_an_offline_hands_row_shows_the_games_own_cells(browser, live_server, make_app, language):
    """Offline, at 390x844, in English and in Bengali: the sheet row of a hand played on the
    phone is drawn by the game's own template (games/pages.py under Pyodide), before any
    sync: Oh Hell's bid/tricks, ✓ made or ✗ missed, the hand's points, in the language's
    digits, the link to correct it; the next hand's bids as its pending row; synced, the
    server's page draws the very same rows."""
    players = SEVEN[:4]
    app, game, page, errors = kept_on_the_phone(
        browser,
        live_server,
        make_app,
        players=players,
        options={"hook": True, "max_cards": 5},
        language=language,
    )
    page.context.set_offline(True)
    # The sheet's drawing is made ready once the link is down, not before (online the server
    # draws the sheet).
    expect(page.locator(".keep-offline[data-sheet]")).to_be_attached(timeout=60_000)
    play_hand(page, 1)  # everyone bids 0, the first in order (Ben) takes the one trick
    expect(page.locator("body")).to_have_attribute("data-offline-checked", "2")
    bids = page.locator("form[data-bids-form]")
    expect(bids.locator("input[name=number]")).to_have_value("2")
    for name in bids.locator("li.row").evaluate_all("(rows) => rows.map((r) => r.dataset.player)"):
        tap(bids, name, 0 if name != "Ben" else 1)
    bids.locator("[data-save]").click()  # hand 2's bids: its row pending
    expect(page.locator("body")).to_have_attribute("data-offline-checked", "3")
    first = page.locator('#main table.sheet tr[data-line="1"][data-offline-row]')
    expect(first.locator("td .bt")).to_have_text(
        [written(language, text) for text in ("0/0", "0/1", "0/0", "0/0")]
    )
    expect(first.locator("td .mark")).to_have_text(["✓", "✗", "✓", "✓"])
    expect(first.locator("td .mark").nth(1)).to_have_attribute(
        "aria-label", "missed" if language == "en" else said(language, "missed")
    )
    expect(first.locator("td .pts")).to_have_text([written(language, n) for n in (10, 0, 10, 10)])
    expect(first.locator("a.hand-link")).to_have_attribute("href", f"/games/{game}/hands/1/edit")
    pending = page.locator('#main table.sheet tr[data-line="2"][data-offline-row]')
    expect(pending).to_have_class("playing")
    expect(pending.locator("td.pending .bt")).to_have_text(
        [written(language, text) for text in ("0/–", "1/–", "0/–", "0/–")]
    )
    expect(page.locator(".undo-row form")).to_have_attribute(
        "action", f"/games/{game}/hands/2/undo"
    )
    page.locator("#main .sheet-card").scroll_into_view_if_needed()
    screenshot(page, f"play-offline-sheet-{language}")
    phone = page.evaluate(SHEET_ROWS)
    assert len(phone) == 2
    with app.app_context():
        assert not db.session.get(Game, game).hands  # nothing reached the server yet

    back_online(page)
    page.goto(f"/games/{game}")
    assert page.evaluate(SHEET_ROWS) == phone
    assert not [error for error in errors if "ERR_INTERNET" not in error], errors
    page.context.close()
