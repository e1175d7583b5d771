"""Spades, Auction Pitch, Hearts and Oklahoma Gin played with no network on a 390x844 phone
(issue 24): 3 hands each, every step's page the server's, made ahead from a form the game
fills in itself (its form's ``sample``), with what the phone entered written in where the
page depends on it (Spades' contracts and nils, Pitch's pitcher and bid, Gin's dealer). The
totals shown are the phone's rules'; then the link returns, the outbox sends the saves and
the server's game is the phone's."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import expect

from tests.browser import screenshot
from tests.e2e.test_phone_play_offline import TOTAL
from tests.e2e.test_phone_play_offline import back_online
from tests.e2e.test_phone_play_offline import kept_on_the_phone
from tests.e2e.test_phone_play_offline import server_state

pytestmark = pytest.mark.usefixtures("patient_expect")

FOUR = ["Ann", "Ben", "Cy", "Dee"]


def chip(form, name: str, value) -> None:
    """Tap the chip of ``name`` with ``value`` (its label: the radio is hidden under it)."""
    form.locator(f'input[name="{name}"][value="{value}"]').locator("xpath=..").click()


def phone_state(page, game: int) -> dict:
    return page.evaluate(f"() => JSON.parse(localStorage.getItem('sk-keep-{game}'))")["state"]


def order_of(form) -> list[str]:
    return form.locator("li.row[data-player]").evaluate_all(
        "(rows) => rows.map((row) => row.dataset.player)"
    )


def seat_of(form, name: str) -> str:
    return form.locator(f'li.row[data-player="{name}"]').get_attribute("data-seat")


def spades_hand(page, game: int, number: int) -> int:
    """Bids that are not the form's own (one nil), the tricks' form says the phone's
    contracts and the nil; each bid taken, the rest to the first bidder."""
    bids = page.locator("form[data-bids-form]")
    order = order_of(bids)
    said = dict(zip(order, [4, 0, 3, 2], strict=True))
    for name, bid in said.items():
        chip(bids, f"bid-{seat_of(bids, name)}", bid)
    bids.locator("[data-save]").click()
    tricks = page.locator("form[data-tricks-form]")
    expect(tricks).to_be_visible()
    teams = {"Ann & Cy": said["Ann"] + said["Cy"], "Ben & Dee": said["Ben"] + said["Dee"]}
    expect(tricks.locator("[data-status]")).to_contain_text(
        f"Contracts: Ann & Cy {teams['Ann & Cy']} · Ben & Dee {teams['Ben & Dee']}"
    )
    expect(tricks.locator(f'li[data-player="{order[1]}"] .pill.bid')).to_have_text("nil")
    expect(tricks.locator(f'li[data-player="{order[0]}"] .pill.bid')).to_have_text("bid 4")
    taken = dict(said)
    taken[order[0]] += 13 - sum(said.values())
    for name, count in taken.items():
        chip(tricks, f"trick-{seat_of(tricks, name)}", count)
    tricks.locator("[data-save]").click()
    return 2


def pitch_hand(page, game: int, number: int) -> int:
    """The first bidder pitches 3 (the form made ahead was for the dealer's 2): the points'
    form says so and gives the one-trump shortcut to them."""
    auction = page.locator("form[data-auction-form]")
    order = order_of(auction)
    pitcher = order[0]
    for name in order:
        chip(auction, f"call-{seat_of(auction, name)}", 3 if name == pitcher else "pass")
    auction.locator("[data-save]").click()
    points = page.locator("form[data-points-form]")
    expect(points).to_be_visible()
    expect(points.locator("[data-status]")).to_contain_text(f"{pitcher} needs 3 of the 4 points")
    expect(page.locator("#now .pill.first")).to_have_text(f"{pitcher} pitched 3")
    seat = str(FOUR.index(pitcher))
    expect(points.locator('input[name="pitcher_seat"]')).to_have_value(seat)
    if number == 1:
        screenshot(page, "play-offline-pitch-points")
        # One trump only: High and Low go to the pitcher (the phone's, not the form's).
        points.locator("[data-single-trump]").locator("xpath=..").click()
        expect(points.locator(f'input[name="high"][value="{seat}"]')).to_be_checked()
        chip(points, "jack", "none")
        chip(points, "game", seat)
    else:
        other = str(FOUR.index(order[1]))
        chip(points, "high", other)
        chip(points, "low", seat)
        chip(points, "jack", "none")
        chip(points, "game", "tie")
    points.locator("[data-save]").click()
    return 2


HEARTS = [[13, 6, 7, 0], [26, 0, 0, 0], [3, 3, 3, 17]]


def hearts_hand(page, game: int, number: int) -> int:
    form = page.locator("form[data-hearts-form]")
    expect(form.locator("input[name=number]")).to_have_value(str(number))
    for seat, points in enumerate(HEARTS[number - 1]):
        form.locator(f'input[name="point-{seat}"]').fill(str(points))
    form.locator("[data-save]").click()
    return 1


def gin_hand(page, game: int, number: int) -> int:
    """Round 1 the dealer knocks and wins (and deals again: the form made ahead had the other
    player win), round 2 the other goes gin, round 3 a draw."""
    form = page.locator("form[data-gin-form]")
    expect(form.locator("input[name=number]")).to_have_value(str(number))
    dealer = phone_state(page, game)["next"]["dealer"] if number > 1 else "Ann"
    expect(page.locator("#now .pill.dealer")).to_have_text(f"{dealer} deals")
    expect(form.locator(f'.score-strip li[data-player="{dealer}"] .pill.dealer')).to_be_visible()
    other = next(name for name in ("Ann", "Ben") if name != dealer)
    chip(form, "upcard", "7")
    if number == 1:
        chip(form, "result", "knock")
        chip(form, "knocker", ["Ann", "Ben"].index(dealer))
        form.locator("#knocker_deadwood").fill("3")
        form.locator("#opponent_deadwood").fill("20")
    elif number == 2:
        chip(form, "result", "gin")
        chip(form, "knocker", ["Ann", "Ben"].index(other))
        form.locator("#opponent_deadwood").fill("10")
    else:
        chip(form, "result", "draw")
    form.locator("[data-save]").click()
    return 1


GAMES: dict[str, tuple[list[str], dict, Callable]] = {
    "spades": (FOUR, {"target": 500}, spades_hand),
    "pitch": (FOUR[:3], {"target": 11}, pitch_hand),
    "hearts": (FOUR, {"target": 100}, hearts_hand),
    "oklahoma_gin": (FOUR[:2], {"target": 100}, gin_hand),
}


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_three_hands_offline_then_synced(browser, live_server, make_app, kind):
    players, options, play = GAMES[kind]
    app, game, page, errors = kept_on_the_phone(
        browser, live_server, make_app, kind, players, options
    )
    context = page.context
    ahead = page.evaluate(f"() => JSON.parse(localStorage.getItem('sk-ahead-{game}'))")
    assert ahead["steps"], "no step made ahead"
    context.set_offline(True)
    saves = 0
    box = page.locator("#main [data-part=notices]")
    for number in range(1, 4):
        saves += play(page, game, number)
        expect(page.locator("body")).to_have_attribute("data-offline-checked", str(saves))
        if kind == "hearts":  # the rules' notice of the moon, the server's words, then gone
            if number == 2:
                expect(box).to_have_text("Ann shot the moon in hand 2: everyone else scores 26.")
                # Where the server's page has it: between the hand's head and its form.
                order = "(box) => [box.previousElementSibling.id, box.nextElementSibling.id]"
                assert box.evaluate(order) == ["now", "entry"]
                page.evaluate("() => window.scrollTo(0, 0)")
                screenshot(page, "play-offline-hearts-moon")
            else:
                expect(box).to_be_hidden()
        # The next hand's entry, the server's page made ahead, with the phone's totals.
        expect(page.locator("#now h1")).to_contain_text(str(number + 1))
        state = phone_state(page, game)
        kept = page.evaluate(f"() => JSON.parse(localStorage.getItem('sk-keep-{game}'))")
        changes = {line["side"]: line["change"] for line in kept["standings"]}
        for side, total in state["totals"].items():
            shown = page.locator(f'#main [data-total="{side}"]').first
            text = shown.evaluate(TOTAL).replace("−", "-")
            assert text == str(total), (side, text, total)
            # The last hand's change beside a total, where the server's page shows one.
            for delta in page.locator(f'#main [data-total="{side}"] .delta').all_inner_texts():
                change = changes[side]
                assert delta.replace("−", "-") == (
                    f"+{change}" if change > 0 else str(change) if change else "±0"
                )
    page.evaluate("() => window.scrollTo(0, 0)")  # the entry from its head, as it opens
    screenshot(page, f"play-offline-{kind}")
    notices = box.evaluate("(box) => box.hidden ? null : box.innerText")
    if kind == "oklahoma_gin":
        assert notices, "no notice of the rounds drawn"
    phone = phone_state(page, game)
    assert len(phone["hands"]) == 3 and all(hand["status"] == "scored" for hand in phone["hands"])
    assert page.evaluate("() => Outbox.entries().then((kept) => kept.length)") == saves

    back_online(page)
    server = server_state(app, game)
    assert server["totals"] == phone["totals"]
    assert server == phone
    page.reload()
    expect(page.locator("#now h1")).to_contain_text("4")
    # The notices the phone drew are the server's, word for word.
    assert box.evaluate("(box) => box.hidden ? null : box.innerText") == notices
    page.evaluate("() => window.scrollTo(0, 0)")
    screenshot(page, f"play-online-{kind}")
    assert not [error for error in errors if "ERR_INTERNET" not in error], errors
    context.close()


def test_spades_blind_nil_offline_where_the_phones_totals_allow_it(browser, live_server, make_app):
    """Spades with blind nil: hand 1 offline leaves the second bidder's team more than 100
    behind (its contract of 12 set), so in hand 2 its players may bid blind nil, which the
    steps made ahead (from the game's own filled-in forms, where the other team fell behind)
    could not know: the boxes are there, hidden, and the phone shows them for that team only.
    A blind nil bid offline is checked by the phone's rules, then synced: the server's game
    is the phone's."""
    app, game, page, errors = kept_on_the_phone(
        browser, live_server, make_app, "spades", FOUR, {"target": 500, "blind_nil": True}
    )
    context = page.context
    context.set_offline(True)
    bids = page.locator("form[data-bids-form]")
    order = order_of(bids)
    for name, bid in zip(order, [1, 6, 1, 6], strict=True):
        chip(bids, f"bid-{seat_of(bids, name)}", bid)
    bids.locator("[data-save]").click()
    tricks = page.locator("form[data-tricks-form]")
    expect(tricks).to_be_visible()
    taken = dict(zip(order, [2, 11, 0, 0], strict=True))  # 2 made, the other team's 12 set
    for name, count in taken.items():
        chip(tricks, f"trick-{seat_of(tricks, name)}", count)
    tricks.locator("[data-save]").click()
    expect(page.locator("body")).to_have_attribute("data-offline-checked", "2")
    state = phone_state(page, game)
    allowed = state["next"]["blind_nil_allowed"]
    assert sorted(allowed.values()) == [False, True], allowed
    behind = next(side for side, may in allowed.items() if may)
    assert order[1] in behind.split(" & "), (behind, order)
    bids = page.locator("form[data-bids-form]")
    expect(page.locator("#now h1")).to_contain_text("2")
    boxes = bids.locator(".blind-nil")
    expect(boxes).to_have_count(4)  # every box made ahead
    expect(bids.locator(f'.blind-nil[data-side="{behind}"]')).to_have_count(2)
    expect(bids.locator(f'.blind-nil[data-side="{behind}"]:visible')).to_have_count(2)
    expect(bids.locator(".blind-nil:visible")).to_have_count(2)
    screenshot(page, "play-offline-spades-blind-nil")
    first = bids.locator(f'.blind-nil[data-side="{behind}"]').first
    blind = first.locator("xpath=ancestor::li[@data-player]").get_attribute("data-player")
    for name in order_of(bids):
        chip(bids, f"bid-{seat_of(bids, name)}", 0 if name == blind else 3)
    first.locator("input").check()
    bids.locator("[data-save]").click()
    expect(page.locator("body")).to_have_attribute("data-offline-checked", "3")
    phone = phone_state(page, game)
    assert phone["hands"][1]["input"]["blind_nil"] == [blind]

    back_online(page)
    assert server_state(app, game) == phone
    assert not [error for error in errors if "ERR_INTERNET" not in error], errors
    context.close()


def test_a_game_that_ends_offline_sooner_than_the_forms_made_ahead(browser, live_server, make_app):
    """Hearts to 50, played offline: the forms made ahead (13 points each to the two lowest)
    end the game at hand 7, the phone's at hand 3. The phone draws the game-over page made
    ahead with its own winner line ("Dee wins with the lowest total!", the rules' words),
    standings ("Final standings", Dee's trophy) and sheet, the form gone, not left locked;
    synced, the server's page is the phone's."""
    app, game, page, errors = kept_on_the_phone(
        browser, live_server, make_app, "hearts", FOUR, {"target": 50}
    )
    ahead = page.evaluate(f"() => JSON.parse(localStorage.getItem('sk-ahead-{game}'))")
    assert "3:3:over" not in ahead["steps"]
    assert any(step.endswith(":over") for step in ahead["steps"])
    page.context.set_offline(True)
    for number, points in ((1, [20, 6, 0, 0]), (2, [20, 0, 6, 0]), (3, [13, 0, 13, 0])):
        form = page.locator("form[data-hearts-form]")
        expect(form.locator("input[name=number]")).to_have_value(str(number))
        for seat, value in enumerate(points):
            form.locator(f'input[name="point-{seat}"]').fill(str(value))
        form.locator("[data-save]").click()
        expect(page.locator("body")).to_have_attribute("data-offline-checked", str(number))
    expect(page.locator("#final-title")).to_be_visible()
    expect(page.locator("#now [data-winner]")).to_have_text("Dee wins with the lowest total!")
    expect(page.locator("form[data-hearts-form]")).to_have_count(0)
    expect(page.locator("#totals-title")).to_contain_text("Final standings")
    expect(page.locator("#totals > li .who").first).to_have_text("🏆\xa0Dee")
    page.evaluate("() => window.scrollTo(0, 0)")
    screenshot(page, "play-offline-ended-sooner")
    shown = (
        page.locator("#now").inner_text(),
        page.locator("#main [data-part=standings]").inner_text(),
    )
    phone = phone_state(page, game)
    assert phone["finished"]

    back_online(page)
    assert server_state(app, game) == phone
    page.reload()
    expect(page.locator("#final-title")).to_be_visible()
    again = (
        page.locator("#now").inner_text(),
        page.locator("#main [data-part=standings]").inner_text(),
    )
    assert again == shown
    assert not [error for error in errors if "ERR_INTERNET" not in error], errors
    page.context.close()


def test_gin_ended_offline_draws_its_own_final_lines(browser, live_server, make_app):
    """Oklahoma Gin to 100 with its game, box and shutout bonuses: Ben goes gin against 90 of
    deadwood in the first round, which ends the game (none of the forms made ahead does). The
    phone draws the game-over page with the game's own templates: the final lines (the game
    bonus, Ben's box, the shutout doubling his total) are this game's, equal to the server's
    page once synced."""
    options = {"target": 100, "game_bonus": 100, "box_bonus": 25, "shutout_double": True}
    app, game, page, errors = kept_on_the_phone(
        browser, live_server, make_app, "oklahoma_gin", FOUR[:2], options
    )
    ahead = page.evaluate(f"() => JSON.parse(localStorage.getItem('sk-ahead-{game}'))")
    assert "1:1:over" not in ahead["steps"]
    page.context.set_offline(True)
    form = page.locator("form[data-gin-form]")
    chip(form, "upcard", "7")
    chip(form, "result", "gin")
    chip(form, "knocker", 1)
    form.locator("#opponent_deadwood").fill("90")
    form.locator("[data-save]").click()
    expect(page.locator("#final-title")).to_be_visible()
    lines = page.locator("#main .final-lines")
    expect(lines).to_contain_text("Game bonus")
    expect(lines).to_contain_text("Shutout")
    phone = phone_state(page, game)
    assert phone["finished"] and phone["winners"] == ["Ben"]
    shown = lines.inner_text()
    page.evaluate("() => window.scrollTo(0, 0)")
    screenshot(page, "play-offline-gin-final-lines")

    back_online(page)
    assert server_state(app, game) == phone
    page.reload()
    expect(page.locator("#final-title")).to_be_visible()
    assert page.locator("#main .final-lines").inner_text() == shown
    assert not [error for error in errors if "ERR_INTERNET" not in error], errors
    page.context.close()
