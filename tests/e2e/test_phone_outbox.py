"""The outbox on a 390x844 phone (issue 26): saves made while the link is down are kept on the
phone and sent when it is back, in order, also after the page was closed and opened again; a
save whose answer was lost is sent again and answered with the first answer, never saved twice.

- Seven hands of a four-player Oh Hell game entered while the link goes down and up at random
  (a seeded random: at least 100 flips), the page closed and opened again twice with a save
  waiting (once opened without a connection: the worker's copy of the page, the kept values
  back in their form): at the end every hand is on the server once, as entered, equal to its
  replay, and nothing waits on the phone.
- Every answer lost after the server saved (``route.fetch`` then ``route.abort``): each save is
  sent again by the outbox, answered with its first answer (``Idempotent-Replayed: true``),
  and the hands are saved once each.
"""

from __future__ import annotations

import random
import re
import time

import pytest
from playwright.sync_api import expect

from scorekeeper.extensions import db
from scorekeeper.models import Account
from scorekeeper.models import HandEntry
from scorekeeper.services import games
from tests.browser import accessibility_problems
from tests.browser import log_in
from tests.browser import phone_settings
from tests.browser import screenshot
from tests.browser import wait_until
from tests.conftest import make_account
from tests.replay_check import check_database

pytestmark = pytest.mark.usefixtures("patient_expect")


PLAYERS = ["Ann", "Ben", "Cy", "Dee"]
HANDS = 7
SEED = 26
WRITES = re.compile(r"/games/\d+/hands(/\d+)?$")
KEY = re.compile(r'idempotency_key(?:"\r\n\r\n|=)([^\r\n&]+)')


def a_game(make_app) -> tuple:
    app = make_app()
    make_account(app)
    with app.app_context():
        account = db.session.scalar(db.select(Account))
        game = games.create_game(account, "oh_hell", PLAYERS, {}).game.id
    return app, game


def step_form(page, phase: str, number: int):
    """The form of this step, open (not one whose save waits on the phone)."""
    expect(page.locator("#now h1")).to_contain_text(f"Hand {number} ")
    return page.locator(f"form[data-{phase}-form]:not([data-kept])")


def enter(page, form, phase: str, rng: random.Random) -> dict[str, int]:
    """Tap a random hand into the form: bids (the dealer's never the forbidden one), or tricks
    that add up to the cards. What was entered, by player."""
    cards = int(form.get_attribute("data-cards"))
    if phase == "bids":
        said = {name: rng.randint(0, cards) for name in PLAYERS}
    else:
        said = dict.fromkeys(PLAYERS, 0)
        for _trick in range(cards):
            said[rng.choice(PLAYERS)] += 1
    for name, value in said.items():
        row = form.locator(f'li.row[data-player="{name}"]')
        chip = row.locator(f'input[value="{value}"]')
        if chip.is_disabled():  # the hook: the dealer may not bid this
            value = value + 1 if value < cards else value - 1
            said[name] = value
            chip = row.locator(f'input[value="{value}"]')
        chip.locator("xpath=..").click()
    return said


def bids_saved_offline(phone, bids: dict[str, int], phase: str = "bids"):
    """On the game's page (the outbox loaded), the link down: the bids (or the tricks) of
    hand 1 tapped and saved. The form."""
    phone.wait_for_function("() => window.Outbox !== undefined")
    phone.allowed_errors.append("net::ERR_INTERNET_DISCONNECTED")
    phone.context.set_offline(True)
    form = phone.locator(f"form[data-{phase}-form]")
    for name, value in bids.items():
        form.locator(f'li[data-player="{name}"] input[value="{value}"]').locator("xpath=..").click()
    form.locator("[data-save]").click()
    return form


def test_seven_hands_while_the_link_goes_down_and_up(browser, live_server, make_app):
    app, game = a_game(make_app)
    context = browser.new_context(**phone_settings(live_server, service_workers="allow"))
    context.set_default_timeout(20_000)
    rng = random.Random(SEED)
    link = {"down": False, "flips": 0}
    replayed = []
    failed = []
    errors = []
    context.on(
        "response",
        lambda r: replayed.append(r.url) if r.headers.get("idempotent-replayed") else None,
    )
    context.on(
        "requestfailed",
        lambda r: failed.append(r.url) if r.method == "POST" else None,
    )

    def flip(down: bool | None = None) -> None:
        down = (not link["down"]) if down is None else down
        if down != link["down"]:
            link["down"] = down
            context.set_offline(down)
            link["flips"] += 1

    def flicker(times: int) -> None:
        for _ in range(times):
            flip()
            time.sleep(rng.uniform(0, 0.12))

    def opened():
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        return page

    def outbox(page) -> int:
        page.wait_for_function("() => window.Outbox !== undefined")
        return page.evaluate("Outbox.entries().then((kept) => kept.length)")

    started = time.monotonic()
    try:
        page = opened()
        log_in(page)
        page.goto(f"/games/{game}")
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        page.reload()  # the worker installed: the page is its from now on
        page.wait_for_function("() => navigator.serviceWorker.controller !== null")
        entered: dict[int, dict] = {}
        steps = [(number, phase) for number in range(1, HANDS + 1) for phase in ("bids", "tricks")]
        for index, (number, phase) in enumerate(steps):
            flip(False)  # the link back: what waits is sent, the next step comes
            form = step_form(page, phase, number)
            expect(form).to_be_visible()
            page.wait_for_function("() => window.Outbox && Outbox.count === 0")
            said = enter(page, form, phase, rng)
            entered.setdefault(number, {})[phase] = said
            reopen = index in (4, 9)
            if reopen:
                # The phone's copy of the page is the page as it stands (the worker keeps one
                # after each save; one asked for while the link was down is made when it is
                # back), then the save is made without a connection: it waits on the phone.
                wait_until(
                    page,
                    """([phase, title]) => caches.open("sk-pages")
                        .then((cache) => cache.match(location.href, { ignoreVary: true }))
                        .then((copy) => copy && copy.text())
                        .then((html) => Boolean(html && html.includes(`data-${phase}-form`)
                                                && html.includes(`>${title} <`)))""",
                    arg=[phase, f"Hand {number}"],
                )
                flip(True)
            else:
                flicker(rng.randint(1, 4))
            form.locator("[data-save]").click()
            if reopen:
                kept = page.locator("#outbox summary")
                expect(kept).to_have_text("1 save kept on this phone, not sent yet")
                expect(page.locator("form[data-kept] .kept-note")).to_contain_text("not sent yet")
                screenshot(page, "outbox-kept")
                page.close()
                flicker(2 if index == 4 else 1)  # down when opened the first time, up the second
                page = opened()
                page.goto(f"/games/{game}")
                if link["down"]:  # the worker's copy: the kept values back in their form
                    expect(page.locator(".offline-mark")).to_be_visible()
                    expect(page.locator("#outbox summary")).to_have_text(
                        "1 save kept on this phone, not sent yet"
                    )
                    locked = page.locator(f"form[data-{phase}-form][data-kept]")
                    expect(locked).to_be_visible()
                    for name, value in said.items():
                        chip = locked.locator(f'li[data-player="{name}"] input[value="{value}"]')
                        expect(chip).to_be_checked()
                    screenshot(page, "outbox-reopened-offline")
            flicker(rng.randint(5, 9))
        flip(False)
        expect(page.locator("#now h1")).to_contain_text(f"Hand {HANDS + 1} ")
        expect(page.locator("form[data-bids-form]")).to_be_visible()
        page.wait_for_function("() => window.Outbox && Outbox.count === 0")
        assert outbox(page) == 0
        expect(page.locator("#outbox")).to_have_count(0)
        expect(page.locator(".flash-warning")).to_have_count(0)
        seconds = time.monotonic() - started
    finally:
        context.close()

    print(
        f"\noutbox run: {link['flips']} flips, {HANDS} hands, {len(failed)} saves without an "
        f"answer, {len(replayed)} answers replayed, {seconds:.1f} s"
    )
    assert link["flips"] >= 100, link
    assert errors == []
    assert failed, "no save went without an answer: the link never went down under one"
    with app.app_context():
        result = games.load(db.session.scalar(db.select(Account)), game)
        hands = result.state.hands
        assert [hand.number for hand in hands] == list(range(1, HANDS + 1))
        for hand in hands:
            assert hand.input["bids"] == entered[hand.number]["bids"], hand.number
            assert hand.input["tricks"] == entered[hand.number]["tricks"], hand.number
        count = db.session.scalar(
            db.select(db.func.count()).select_from(HandEntry).where(HandEntry.game_id == game)
        )
        assert count == HANDS
    assert check_database(app) == 1


def test_answers_lost_after_the_save_are_replayed_when_sent_again(phone, make_app):
    """Each save lands and its answer is lost: the outbox sends it again by itself, and the
    server answers with the first answer (replayed): the hands are saved once each."""
    app, game = a_game(make_app)
    log_in(phone)
    phone.goto(f"/games/{game}")
    phone.wait_for_function("() => window.Outbox !== undefined")
    phone.allowed_errors.append("net::ERR_FAILED")  # the answers this test loses
    lost: list[str] = []
    answers: list[tuple[str, int, str | None]] = []

    def lose_the_first_answer(route):
        request = route.request
        key = KEY.search(request.post_data or "")
        if request.method != "POST" or key is None or key.group(1) in lost:
            route.fallback()
            return
        assert route.fetch().status == 200  # the server saved it
        lost.append(key.group(1))
        route.abort()

    phone.route(WRITES, lose_the_first_answer)

    def note(response) -> None:
        if response.request.method == "POST" and WRITES.search(response.url):
            key = KEY.search(response.request.post_data or "").group(1)
            answers.append((key, response.status, response.headers.get("idempotent-replayed")))

    phone.on("response", note)
    rng = random.Random(SEED)
    for number in (1, 2, 3):
        for phase in ("bids", "tricks"):
            form = step_form(phone, phase, number)
            enter(phone, form, phase, rng)
            form.locator("[data-save]").click()
            if (number, phase) == (1, "bids"):
                expect(phone.locator("#outbox summary")).to_have_text(
                    "1 save kept on this phone, not sent yet"
                )
                screenshot(phone, "outbox-answer-lost")
    expect(phone.locator("#now h1")).to_contain_text("Hand 4 ")
    expect(phone.locator("#outbox")).to_have_count(0)
    expect(phone.locator(".flash-warning")).to_have_count(0)
    print(f"\nlost answers: {len(lost)}, resent and replayed: {len(answers)}")
    assert len(lost) == 6
    assert [key for key, _status, _replayed in answers] == lost
    assert all(status == 200 and replayed == "true" for _key, status, replayed in answers)
    with app.app_context():
        count = db.session.scalar(
            db.select(db.func.count()).select_from(HandEntry).where(HandEntry.game_id == game)
        )
        assert count == 3
    assert check_database(app) == 1


def chosen(phone, app, game: int, button: str) -> dict:
    """Tap ``button`` of the refused save and say yes to its question: the list empties, on
    the phone too; the bids of hand 1 the server then holds."""
    phone.once("dialog", lambda dialog: dialog.accept())
    phone.locator("#outbox").get_by_role("button", name=button).click()
    expect(phone.locator("#outbox")).to_have_count(0)
    assert phone.evaluate("Outbox.entries().then((kept) => kept.length)") == 0
    with app.app_context():
        return games.load(db.session.scalar(db.select(Account)), game).state.hands[0].input["bids"]


def test_a_refused_kept_save_can_be_kept_over_the_other_phones(axe_phone, make_app):
    """The same refusal, and the scorekeeper keeps this phone's bids ("Keep this phone's",
    asked first): the bids of the hand in play are changed to the phone's on the server, the
    entry leaves the list, the page shows the phone's bids; axe-core finds nothing serious in
    the list with its two buttons."""
    phone = axe_phone
    app, game = a_game(make_app)
    log_in(phone)
    phone.goto(f"/games/{game}")
    mine = {"Ann": 1, "Ben": 0, "Cy": 0, "Dee": 0}
    bids_saved_offline(phone, mine)
    with app.app_context():  # another phone gets there first
        account = db.session.scalar(db.select(Account))
        theirs = {"Ann": 0, "Ben": 1, "Cy": 0, "Dee": 0}
        games.record_hand(games.get_game(account, game), {"bids": theirs}, number=1)
    phone.context.set_offline(False)
    kept = phone.locator("#outbox")
    expect(kept.locator("li .differs")).to_have_count(2)
    screenshot(phone, "outbox-refused-choice")
    assert accessibility_problems(phone) == []
    assert chosen(phone, app, game, "Keep this phone’s") == mine
    tricks = phone.locator("form[data-tricks-form]")
    expect(tricks.locator('li[data-player="Ann"] .pill.bid')).to_have_text("bid 1")
    expect(tricks.locator('li[data-player="Ben"] .pill.bid')).to_have_text("bid 0")


def test_kept_tricks_of_a_hand_the_other_phone_finished_go_through_its_correction(
    axe_phone, make_app
):
    """The tricks of hand 1 kept on the phone while another phone saves other tricks for it:
    refused when sent (the hand is finished), and kept over the other phone's in one tap
    through the hand's correction form (none on the page for it): the server's hand 1 has the
    bids both phones saw and this phone's tricks."""
    phone = axe_phone
    app, game = a_game(make_app)
    bids = {"Ann": 0, "Ben": 1, "Cy": 1, "Dee": 1}
    with app.app_context():
        account = db.session.scalar(db.select(Account))
        games.record_hand(games.get_game(account, game), {"bids": bids}, number=1)
    log_in(phone)
    phone.goto(f"/games/{game}")
    mine = {"Ann": 1, "Ben": 0, "Cy": 0, "Dee": 0}
    bids_saved_offline(phone, mine, "tricks")
    with app.app_context():  # another phone gets there first
        account = db.session.scalar(db.select(Account))
        theirs = {"Ann": 0, "Ben": 1, "Cy": 0, "Dee": 0}
        games.update_hand(games.get_game(account, game), 1, {"tricks": theirs}, complete=True)
    phone.context.set_offline(False)
    kept = phone.locator("#outbox")
    expect(kept.locator("li .differs")).to_have_count(2)
    expect(phone.locator("form[data-bids-form]")).to_be_visible()  # hand 2 on the page
    phone.once("dialog", lambda dialog: dialog.accept())
    kept.get_by_role("button", name="Keep this phone’s").click()
    expect(phone.locator("#outbox")).to_have_count(0)
    with app.app_context():
        hand = games.load(db.session.scalar(db.select(Account)), game).state.hands[0]
        assert (hand.input["bids"], hand.input["tricks"]) == (bids, mine)


def test_a_kept_save_refused_when_sent_comes_back_with_both_versions(axe_phone, make_app):
    """The bids of hand 1 kept on the phone while another phone saves other bids for it: sent
    when the link is back, the save is refused; the page says so (the server's message, the
    game as it stands) and the outbox keeps the entry, with the server's message and each bid
    where the two differ, until it is discarded (asked first). axe-core finds nothing serious
    in the list."""
    phone = axe_phone
    app, game = a_game(make_app)
    log_in(phone)
    phone.goto(f"/games/{game}")
    bids_saved_offline(phone, {"Ann": 1, "Ben": 0, "Cy": 0, "Dee": 0})
    expect(phone.locator("#outbox summary")).to_have_text("1 save kept on this phone, not sent yet")
    with app.app_context():  # another phone gets there first
        account = db.session.scalar(db.select(Account))
        theirs = {"Ann": 0, "Ben": 1, "Cy": 0, "Dee": 0}
        games.record_hand(games.get_game(account, game), {"bids": theirs}, number=1)
    phone.context.set_offline(False)
    expect(phone.locator(".flash-warning")).to_be_visible()
    expect(phone.locator("form[data-tricks-form]")).to_be_visible()  # the game as it stands
    kept = phone.locator("#outbox")
    expect(kept.locator("summary")).to_have_text("0 saves kept on this phone, not sent yet")
    expect(kept).to_have_attribute("open", "")
    expect(kept.locator("li .error")).to_contain_text("Not saved when sent: ")
    expect(kept.locator("li .differs")).to_have_text(
        ["Ben's bid: yours 0, saved 1", "Ann's bid: yours 1, saved 0"]  # in bidding order
    )
    expect(kept.locator("li .said")).to_have_text(
        "Ben's bid 0 · Cy's bid 0 · Dee's bid 0 · Ann's bid 1"
    )
    # Nothing pretends it was saved: the hand in play has the bids the server holds.
    tricks = phone.locator("form[data-tricks-form]")
    expect(tricks.locator('li[data-player="Ben"] .pill.bid')).to_have_text("bid 1")
    expect(tricks.locator('li[data-player="Ann"] .pill.bid')).to_have_text("bid 0")
    screenshot(phone, "outbox-refused")
    assert accessibility_problems(phone) == []

    # "Discard" asks first: dismissed, the entry stays; accepted, it goes.
    phone.once("dialog", lambda dialog: dialog.dismiss())
    kept.get_by_role("button", name="Discard").click()
    expect(kept.locator("li")).to_have_count(1)
    assert chosen(phone, app, game, "Discard") == theirs


def test_the_outbox_speaks_the_readers_language_and_digits(phone, make_app):
    """On a Bengali page: the count of what waits and the form's note in Bengali, the count in
    Bengali digits."""
    app, game = a_game(make_app)
    log_in(phone)
    phone.context.add_cookies([{"name": "lang", "value": "bn", "url": phone.url}])
    phone.goto(f"/games/{game}")
    expect(phone.locator("html")).to_have_attribute("lang", "bn")
    form = bids_saved_offline(phone, dict.fromkeys(PLAYERS, 0))
    expect(phone.locator("#outbox summary")).to_have_text("১টি সেভ এই ফোনে রাখা আছে, এখনো পাঠানো হয়নি")
    expect(form.locator(".kept-note")).to_contain_text("এই ফোনে রাখা আছে, এখনো পাঠানো হয়নি")
    expect(phone.locator("#outbox li strong")).to_contain_text("ওহ হেল")
    screenshot(phone, "outbox-kept-bn")
    phone.context.set_offline(False)
    expect(phone.locator("form[data-tricks-form]")).to_be_visible()
    expect(phone.locator("#outbox")).to_have_count(0)
    with app.app_context():
        count = db.session.scalar(
            db.select(db.func.count()).select_from(HandEntry).where(HandEntry.game_id == game)
        )
        assert count == 1


def test_a_waiting_save_discarded_gives_the_form_back(phone, make_app):
    """A save waiting on the phone, discarded from the list (asked first): the form is open
    again with what was typed, and saved from there once the link is back, once."""
    app, game = a_game(make_app)
    log_in(phone)
    phone.goto(f"/games/{game}")
    form = bids_saved_offline(phone, dict.fromkeys(PLAYERS, 0))
    expect(form).to_have_attribute("data-kept", "")
    expect(form.locator('li[data-player="Ann"] input[value="1"]')).to_be_disabled()
    expect(form.locator("[data-save]")).to_be_disabled()
    phone.locator("#outbox summary").click()
    phone.once("dialog", lambda dialog: dialog.accept())
    phone.locator("#outbox").get_by_role("button", name="Discard").click()
    expect(phone.locator("#outbox")).to_have_count(0)
    expect(form).not_to_have_attribute("data-kept", "")
    expect(form.locator(".kept-note")).to_have_count(0)
    expect(form.locator('li[data-player="Ann"] input[value="0"]')).to_be_checked()
    expect(form.locator('li[data-player="Ann"] input[value="1"]')).to_be_enabled()
    phone.context.set_offline(False)
    form.locator('li[data-player="Ann"] input[value="1"]').locator("xpath=..").click()
    form.locator("[data-save]").click()
    expect(phone.locator("form[data-tricks-form]")).to_be_visible()
    with app.app_context():
        hand = games.load(db.session.scalar(db.select(Account)), game).state.hands
        assert [each.input["bids"] for each in hand] == [{"Ann": 1, "Ben": 0, "Cy": 0, "Dee": 0}]
