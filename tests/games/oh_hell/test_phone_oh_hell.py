"""At phone size in Chromium: Oh Hell on one screen per hand. A whole 3-player game; a
7-player hand from the first bid to the updated totals in 16 taps and no swipe; the hook's
forbidden bid; saves made in place; and the screen kept awake."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser import add_players
from tests.browser import in_view
from tests.browser import open_options
from tests.browser import screenshot
from tests.browser import seat_players
from tests.browser import sign_up

PLAYERS = ["Ann", "Ben", "Cy"]
SEVEN = ["Ann", "Ben", "Cyrus", "Dee", "Eve", "Fay", "Gus"]


def start_game(page, names, **checks):
    page.goto("/games/new")
    page.get_by_role("link", name=re.compile("Oh Hell")).click()
    seat_players(page, names)
    if checks:
        open_options(page)
    for label in checks:
        page.get_by_label(label.replace("_", " "), exact=True).check()
    page.get_by_role("button", name="Start the game").click()
    # The game's own page, loaded: a test that reads the page at once must not read the
    # new-game page it is leaving (the document is null while the next one commits).
    page.wait_for_url(re.compile(r"/games/\d+$"))


def row(page, form: str, player: str):
    return page.locator(f'form[{form}] li.row[data-player="{player}"]')


def tap(page, form: str, player: str, value: int):
    row(page, form, player).locator("label.chip span").get_by_text(str(value), exact=True).click()


def test_a_three_player_game_to_the_end_on_a_phone(phone):
    sign_up(phone)
    add_players(phone, *PLAYERS)
    start_game(phone, PLAYERS)
    expect(phone.locator("#now h1")).to_have_text("Hand 1 of 15")
    expected = dict.fromkeys(PLAYERS, 0)
    for number in range(1, 16):
        cards = number
        first = PLAYERS[number % 3]  # the dealer's left
        expect(phone.locator(".hand-head .tile strong")).to_have_text(str(cards))
        for name in PLAYERS:
            tap(phone, "data-bids-form", name, cards if name == first else 0)
        expect(phone.locator("[data-status]")).to_contain_text(f"Bids total {cards}")
        phone.get_by_role("button", name="Save bids").click()
        expect(row(phone, "data-tricks-form", first).locator(".pill.bid")).to_have_text(
            f"bid {cards}"
        )
        for name in PLAYERS:
            tap(phone, "data-tricks-form", name, cards if name == first else 0)
        expect(phone.locator("[data-status]")).to_contain_text(f"tricks: {cards} of {cards}")
        phone.get_by_role("button", name="Save tricks").click()
        for name in PLAYERS:
            expected[name] += 10 + (cards if name == first else 0)
        if number < 15:
            total = row(phone, "data-bids-form", first).locator(".row-total")
            expect(total).to_contain_text(f"{expected[first]}+{10 + cards}")
    best = max(expected.values())
    winners = [name for name in PLAYERS if expected[name] == best]
    expect(phone.locator(".winner")).to_have_text(f"{winners[0]} wins!")
    expect(phone.get_by_role("heading", name="Final standings")).to_be_visible()
    totals = phone.locator(".sheet tfoot td")
    expect(totals).to_have_text([str(expected[name]) for name in PLAYERS])
    screenshot(phone, "oh-hell-finished")


def seven_player_game(page, hands: int = 0) -> None:
    """A 7-player game (1 to 7 cards) on the phone, ``hands`` of it already played."""
    sign_up(page)
    add_players(page, *SEVEN)
    start_game(page, SEVEN)
    for number in range(1, hands + 1):
        first = SEVEN[number % 7]
        for name in SEVEN:
            tap(page, "data-bids-form", name, number if name == first else 0)
        page.get_by_role("button", name="Save bids").click()
        for name in SEVEN:
            tap(page, "data-tricks-form", name, number if name == first else 0)
        page.get_by_role("button", name="Save tricks").click()
        expect(page.locator("#now h1")).to_have_text(f"Hand {number + 1} of 7")


def test_a_seven_player_hand_is_sixteen_taps_and_no_swipe(phone):
    seven_player_game(phone, hands=6)  # hand 7: 7 cards, 8 chips a row
    phone.evaluate("window.scrollTo(0, 0)")
    taps = 0

    def tap_in_view(form, name, value):
        nonlocal taps
        chip = row(phone, form, name).locator("label.chip span").get_by_text(str(value), exact=True)
        assert in_view(phone, chip), f"{name}'s {value} is off screen"
        chip.click(no_wait_after=True)
        taps += 1

    status = phone.locator("[data-status]")
    save = phone.get_by_role("button", name="Save bids")
    assert in_view(phone, status) and in_view(phone, save)
    screenshot(phone, "oh-hell-7-bids")
    first = SEVEN[0]  # hand 7: Gus deals, Ann bids first
    for name in SEVEN:
        tap_in_view("data-bids-form", name, 7 if name == first else 0)
    assert phone.evaluate("window.scrollY") == 0
    save.click()
    taps += 1
    status = phone.locator("form[data-tricks-form] [data-status]")
    expect(status).to_contain_text("Bids 7 for 7 (even)")
    save = phone.get_by_role("button", name="Save tricks")
    assert in_view(phone, status) and in_view(phone, save)
    screenshot(phone, "oh-hell-7-tricks")
    for name in SEVEN:
        tap_in_view("data-tricks-form", name, 7 if name == first else 0)
    save.click()
    taps += 1
    expect(phone.locator(".winner")).to_be_visible()
    totals = phone.locator("#totals")
    expect(totals).to_be_visible()
    assert in_view(phone, totals.locator("li").first)
    assert phone.evaluate("window.scrollY") < 50  # no swipe: the totals came to the eye
    assert taps == 16
    screenshot(phone, "oh-hell-7-final")


@pytest.mark.parametrize("players", [PLAYERS, SEVEN], ids=["3 players", "7 players"])
def test_on_a_small_phone_the_status_and_save_stay_in_view(small_phone, players):
    sign_up(small_phone)
    add_players(small_phone, *players)
    start_game(small_phone, players)
    for label in ("Save bids",):
        assert in_view(small_phone, small_phone.locator("[data-status]"))
        assert in_view(small_phone, small_phone.get_by_role("button", name=label))
    screenshot(small_phone, f"oh-hell-{len(players)}-small")


def test_a_save_is_one_request_in_place_and_shows_the_change(phone):
    sign_up(phone)
    add_players(phone, *PLAYERS)
    start_game(phone, PLAYERS)
    phone.wait_for_load_state("load")
    loads = []
    phone.on("load", lambda: loads.append(1))
    for name in PLAYERS:
        tap(phone, "data-bids-form", name, 1 if name == "Ben" else 0)
    with phone.expect_response(re.compile(r"/games/\d+/hands$")) as saved:
        phone.get_by_role("button", name="Save bids").click()
    assert saved.value.status == 200
    assert saved.value.headers.get("content-encoding") in ("br", "gzip")
    for name in PLAYERS:
        tap(phone, "data-tricks-form", name, 1 if name == "Ben" else 0)
    phone.get_by_role("button", name="Save tricks").click()
    ben = row(phone, "data-bids-form", "Ben").locator(".row-total")
    expect(ben).to_contain_text("11+11")
    expect(phone.locator("#main")).to_have_class(re.compile("just-saved"))
    assert loads == []  # no page load: the answer replaced the page's main part


def test_a_failed_save_keeps_what_was_typed_and_sends_it_when_the_link_is_back(phone):
    """The save gets no answer: it is kept on the phone (the outbox), the form keeps what was
    typed and says so; once the link is back it is sent by itself."""
    sign_up(phone)
    add_players(phone, *PLAYERS)
    start_game(phone, PLAYERS)
    phone.wait_for_function("() => window.Outbox !== undefined")
    for name in PLAYERS:
        tap(phone, "data-bids-form", name, 1 if name == "Ben" else 0)
    phone.allowed_errors.append("net::ERR_FAILED")  # the request this test cuts off
    phone.route(re.compile(r"/games/\d+/hands$"), lambda route: route.abort())
    phone.get_by_role("button", name="Save bids").click()
    expect(phone.locator(".kept-note")).to_contain_text("Kept on this phone, not sent yet")
    expect(phone.locator("#outbox summary")).to_have_text("1 save kept on this phone, not sent yet")
    assert row(phone, "data-bids-form", "Ben").locator('input[value="1"]').is_checked()
    phone.unroute(re.compile(r"/games/\d+/hands$"))
    expect(row(phone, "data-tricks-form", "Ben").locator(".pill.bid")).to_have_text("bid 1")
    expect(phone.locator("#outbox")).to_have_count(0)


def test_the_dealer_sees_the_forbidden_bid_struck_out(phone):
    sign_up(phone)
    add_players(phone, "Ann", "Ben", "Cy", "Dee")
    phone.goto("/games/new?game=oh_hell")
    seat_players(phone, ["Ann", "Ben", "Cy", "Dee"])
    open_options(phone)
    phone.get_by_label("Hook", exact=True).check()
    phone.get_by_label("Cards per hand").select_option("down")
    phone.get_by_label("Most cards in a hand").fill("5")
    phone.get_by_role("button", name="Start the game").click()
    expect(phone.locator("#now h1")).to_have_text("Hand 1 of 5")
    tap(phone, "data-bids-form", "Ben", 1)
    tap(phone, "data-bids-form", "Cy", 2)
    tap(phone, "data-bids-form", "Dee", 0)
    dealer = row(phone, "data-bids-form", "Ann")
    expect(dealer.locator("[data-forbidden-note]")).to_have_text("Ann may not bid 2 (the hook).")
    expect(dealer.locator("label.chip.forbidden")).to_have_text("2")
    expect(dealer.locator('input[value="2"]')).to_be_disabled()
    tap(phone, "data-bids-form", "Ann", 3)
    expect(phone.locator("[data-status]")).to_have_text("Bids total 6 for 5 cards: 1 over")
    screenshot(phone, "oh-hell-hook")
    phone.get_by_role("button", name="Save bids").click()
    expect(phone.locator("[data-status]")).to_contain_text("1 over")


def test_a_tapped_bid_that_becomes_forbidden_is_kept_and_named(phone):
    """The script never changes a typed value: the dealer's bid stays and the row says why
    it cannot be saved."""
    sign_up(phone)
    add_players(phone, "Ann", "Ben", "Cy")
    start_game(phone, ["Ann", "Ben", "Cy"], Hook=True)
    tap(phone, "data-bids-form", "Ann", 1)  # the dealer first
    tap(phone, "data-bids-form", "Ben", 0)
    tap(phone, "data-bids-form", "Cy", 0)  # now 1 is the forbidden bid
    dealer = row(phone, "data-bids-form", "Ann")
    expect(dealer.locator('input[value="1"]')).to_be_checked()
    expect(dealer.locator("[data-forbidden-note]")).to_contain_text("choose another bid")
    expect(phone.locator("[data-status]")).to_have_text("Bids total 1 for 1 card: even")
    phone.get_by_role("button", name="Save bids").click()
    expect(row(phone, "data-bids-form", "Ann").locator(".error")).to_contain_text("may not bid 1")


WAKE_LOCK_STUB = """
window.__wakeLocks = 0;
Object.defineProperty(navigator, "wakeLock", {value: {request: (kind) => {
  window.__wakeLocks += 1;
  return Promise.resolve({addEventListener: () => {}, kind});
}}});
"""


def test_the_game_page_keeps_the_screen_awake(phone):
    phone.add_init_script(WAKE_LOCK_STUB)
    sign_up(phone)
    add_players(phone, *PLAYERS)
    assert phone.evaluate("window.__wakeLocks") == 0  # only game pages ask
    start_game(phone, PLAYERS)
    expect(phone.locator("#now h1")).to_have_text("Hand 1 of 15")
    # A function, not an expression: Playwright would evaluate an expression with eval, which
    # the page's CSP refuses (seen only when the first check is too early to be true).
    phone.wait_for_function("() => window.__wakeLocks >= 1")


def test_nothing_breaks_without_a_wake_lock(phone):
    phone.add_init_script("delete Navigator.prototype.wakeLock;")
    sign_up(phone)
    add_players(phone, *PLAYERS)
    start_game(phone, PLAYERS)
    assert phone.evaluate("'wakeLock' in navigator") is False
    tap(phone, "data-bids-form", "Ben", 1)
    expect(phone.locator("[data-status]")).to_contain_text("Bids so far 1")


def change_a_bid(page, player: str, value: int) -> None:
    """Tap ``value`` for ``player`` in the open "Change a bid" card."""
    row(page, "data-change-bids", player).locator("label.chip span").get_by_text(
        written_as(page, value), exact=True
    ).click()


def written_as(page, value: int) -> str:
    """``value`` in the page's digits (as bidding.js writes them)."""
    language = page.locator("html").get_attribute("lang")  # waits out a navigation
    return page.evaluate("([lang, v]) => new Intl.NumberFormat(lang).format(v)", [language, value])


def bids_in_play(page, bids: dict[str, int]) -> None:
    """Hand 1 of a 3-player game with the hook (1 card, Ann deals): ``bids`` saved."""
    for name, bid in bids.items():
        row(page, "data-bids-form", name).locator("label.chip span").get_by_text(
            written_as(page, bid), exact=True
        ).click()
    page.locator("form[data-bids-form] [data-save]").click()
    expect(page.locator("form[data-tricks-form]")).to_be_visible()


def test_a_changed_bid_the_hook_refuses_is_said_beside_it_and_a_saved_one_says_so(phone):
    """Issue 27, item 10: the refusal beside the bid, what was typed kept, the old bid
    shown as the bid still; a valid change saved in place and said."""
    sign_up(phone)
    add_players(phone, *PLAYERS)
    start_game(phone, PLAYERS, Hook=True)
    bids_in_play(phone, {"Ann": 0, "Ben": 0, "Cy": 0})
    phone.wait_for_load_state("load")
    loads = []
    phone.on("load", lambda: loads.append(1))
    phone.get_by_text("Change a bid").click()
    change_a_bid(phone, "Ann", 1)  # the dealer's 1 makes the bids total the card
    with phone.expect_response(re.compile(r"/games/\d+/hands/1$")) as answer:
        phone.get_by_role("button", name="Save changed bids").click()
    assert answer.value.status == 422
    ann = row(phone, "data-change-bids", "Ann")
    refusal = ann.locator("p.error[role=alert]")
    expect(refusal).to_have_text(
        "Hand 1: Ann is the dealer and may not bid 1: the bids would total the 1 card."
    )
    expect(refusal).to_be_in_viewport()
    expect(ann.locator('input[value="1"]')).to_be_checked()  # what was typed is kept
    # The bid in play is still the old one, and the page does not say it changed.
    expect(row(phone, "data-tricks-form", "Ann").locator(".pill.bid")).to_have_text("bid 0")
    expect(phone.locator(".flash-success")).to_have_count(0)
    screenshot(phone, "oh-hell-change-refused")

    change_a_bid(phone, "Cy", 1)  # Ann 1, Ben 0, Cy 1: 2 for 1 card, the hook holds
    with phone.expect_response(re.compile(r"/games/\d+/hands/1$")) as answer:
        phone.get_by_role("button", name="Save changed bids").click()
    assert answer.value.status == 200
    said = phone.locator(".flash-success")
    expect(said).to_have_text("Bids of hand 1 changed.")
    expect(said).to_be_in_viewport()
    for name, bid in {"Ann": 1, "Ben": 0, "Cy": 1}.items():
        expect(row(phone, "data-tricks-form", name).locator(".pill.bid")).to_have_text(f"bid {bid}")
    expect(phone.locator(".sheet tbody tr.playing td .bt")).to_have_text(["1/–", "0/–", "1/–"])
    expect(phone.locator("details.change-bids")).not_to_have_attribute("open", "")
    expect(row(phone, "data-change-bids", "Ann").locator('input[value="1"]')).to_be_checked()
    screenshot(phone, "oh-hell-change-saved")
    assert loads == []  # both answers replaced the page's main part in place


def test_a_failed_change_of_a_bid_says_so_and_keeps_what_was_typed(phone):
    sign_up(phone)
    add_players(phone, *PLAYERS)
    start_game(phone, PLAYERS, Hook=True)
    bids_in_play(phone, {"Ann": 0, "Ben": 0, "Cy": 0})
    phone.get_by_text("Change a bid").click()
    change_a_bid(phone, "Ben", 1)
    phone.allowed_errors.append("net::ERR_FAILED")  # the request this test cuts off
    phone.route(re.compile(r"/games/\d+/hands/1$"), lambda route: route.abort())
    phone.wait_for_function("() => window.Outbox !== undefined")
    phone.get_by_role("button", name="Save changed bids").click()
    expect(phone.locator("form[data-change-bids] .kept-note")).to_contain_text("not sent yet")
    expect(row(phone, "data-change-bids", "Ben").locator('input[value="1"]')).to_be_checked()
