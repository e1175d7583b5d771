"""At phone size in Chromium: Oklahoma Gin on one screen per round. A game to 100 with the
knock limit shown on a tap; spades double and ace needs gin; the status line and Save in view
without scrolling at 390x844 and 360x740; saves made in place with each total's change in
view; a preview that never promises what the server refuses; a Hollywood game to its end."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from scorekeeper.extensions import db
from scorekeeper.models import Account
from scorekeeper.services import games
from tests.browser import accessibility_problems
from tests.browser import add_players
from tests.browser import in_view
from tests.browser import log_in
from tests.browser import open_options
from tests.browser import screenshot
from tests.browser import seat_players
from tests.browser import sign_up
from tests.conftest import make_account
from tests.e2e.test_phone_accessibility import api_game


def start_game(page, names, **checks):
    page.goto("/games/new")
    page.get_by_role("link", name=re.compile("Oklahoma Gin")).click()
    seat_players(page, names)
    if checks:
        open_options(page)
    for label, value in checks.items():
        if value is True:
            page.get_by_label(label.replace("_", " ")).check()
        else:
            page.get_by_label(label.replace("_", " ")).fill(str(value))
    page.get_by_role("button", name="Start the game").click()


def tap(page, group: str, text: str):
    form = page.locator("form[data-gin-form]")
    form.locator(f'[aria-label="{group}"] label.chip span').get_by_text(text, exact=True).click()


def knock(page, upcard, knocker, mine, theirs, other):
    tap(page, "Upcard", upcard)
    tap(page, "Result", "Knock")
    tap(page, "Who knocked", knocker)
    page.get_by_label(f"{knocker}'s deadwood (knocked)").fill(str(mine))
    page.get_by_label(f"{other}'s deadwood").fill(str(theirs))


def test_a_game_to_100_on_a_phone(phone):
    sign_up(phone)
    add_players(phone, "Ann", "Ben")
    start_game(phone, ["Ann", "Ben"])
    expect(phone.locator("#now h1")).to_contain_text("Round 1")
    expect(phone.locator("#now .pill.dealer")).to_have_text("Ann deals")
    limit = phone.locator("[data-knock-limit]")
    status = phone.locator("[data-status]")
    expect(limit).to_have_text("Tap the upcard: it sets the knock limit.")
    expect(status).to_have_text("Tap the upcard, then how the round ended.")

    # The knock limit follows the upcard at once, before anything is sent.
    tap(phone, "Upcard", "7")
    expect(limit).to_have_text("Knock with 7 or less")
    expect(status).to_have_text("Knock with 7 or less · tap how the round ended")
    tap(phone, "Upcard", "A")
    expect(limit).to_have_text("Knock with 1 or less")
    tap(phone, "Upcard", "Q")
    expect(limit).to_have_text("Knock with 10 or less")

    # Round 1: Ann goes gin against 60: 85. The knocker's deadwood is not asked for gin.
    tap(phone, "Result", "Gin")
    tap(phone, "Who knocked", "Ann")
    expect(phone.locator("#knocker_deadwood")).to_be_hidden()
    expect(status).to_have_text("Enter Ben's deadwood.")
    phone.get_by_label("Ben's deadwood").fill("60")
    expect(status).to_have_text("Gin! Ann scores 85.")
    phone.get_by_role("button", name="Save round 1").click()
    expect(phone.locator(".sheet tfoot td")).to_have_text(["85", "0"])
    expect(phone.locator("#now .pill.dealer")).to_have_text("Ann deals")

    # Round 2: a draw; Ann deals again.
    tap(phone, "Upcard", "4")
    tap(phone, "Result", "Draw")
    expect(phone.locator("#knocker_deadwood")).to_be_hidden()
    phone.get_by_role("button", name="Save round 2").click()
    expect(phone.get_by_text("Round 2 was a draw: Ann deals again.")).to_be_visible()

    # Round 3: Ben knocks above the limit: the page says so, the server refuses and keeps it.
    knock(phone, "3", "Ben", 5, 20, "Ann")
    expect(limit).to_have_text("Knock with 3 or less")
    expect(status).to_have_text("Knock with 3 or less: Ben has 5.")
    expect(status).to_have_class(re.compile(r"\bbad\b"))
    phone.get_by_role("button", name="Save round 3").click()
    expect(phone.locator(".deadwood .error")).to_contain_text("Knock with 3 or less: Ben has 5.")
    expect(phone.locator('input[name="upcard"][value="3"]')).to_be_checked()
    expect(phone.get_by_label("Ann's deadwood")).to_have_value("20")
    expect(limit).to_have_text("Knock with 3 or less")
    phone.get_by_label("Ben's deadwood (knocked)").fill("2")
    expect(status).to_have_text("Ben knocked and scores 18.")
    phone.get_by_role("button", name="Save round 3").click()
    expect(phone.locator(".sheet tfoot td")).to_have_text(["85", "18"])
    expect(phone.locator("#now .pill.dealer")).to_have_text("Ben deals")

    # Round 4: Ben knocks with 9 against 6 on a king: undercut, Ann scores 13 and reaches 98.
    knock(phone, "K", "Ben", 9, 6, "Ann")
    expect(status).to_have_text("Ben knocked; Ann undercut: Ann scores 13.")
    phone.get_by_role("button", name="Save round 4").click()
    expect(phone.locator('tr[data-round="4"] .what')).to_have_text("Ben knocked; Ann undercut")
    expect(phone.locator(".standings li.leader")).to_contain_text("2 to go")

    # Round 5: Ann knocks with 1 against 4: 3 more, 101: she wins.
    knock(phone, "5", "Ann", 1, 4, "Ben")
    phone.get_by_role("button", name="Save round 5").click()

    expect(phone.get_by_role("heading", name="Final score")).to_be_visible()
    expect(phone.locator(".winner")).to_have_text("Ann wins the game with 101 points.")
    assert in_view(phone, phone.locator(".winner"))
    expect(phone.locator(".bonus-lines tfoot td")).to_have_text(["101", "18"])
    expect(phone.locator(".sheet tfoot td")).to_have_text(["101", "18"])
    expect(phone.locator("form[data-gin-form]")).to_have_count(0)
    expect(phone.get_by_role("button", name="Reopen to correct a round")).to_be_visible()
    screenshot(phone, "gin-finished")
    # Nothing on the page is wider than the phone but the score sheet's own scroller.
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= phone.viewport_size["width"]


def test_spades_double_and_ace_needs_gin_on_a_phone(phone):
    sign_up(phone)
    add_players(phone, "Ann", "Ben")
    start_game(phone, ["Ann", "Ben"], Spades_double=True, Ace_needs_gin=True)
    limit = phone.locator("[data-knock-limit]")
    status = phone.locator("[data-status]")
    tap(phone, "Upcard", "A")
    expect(limit).to_have_text("Ace turned up: only gin ends this round")
    knock_chip = phone.locator('input[name="result"][value="knock"]')
    expect(knock_chip).to_be_disabled()
    tap(phone, "Upcard", "6")
    expect(knock_chip).to_be_enabled()
    expect(status).to_have_text("Knock with 6 or less · tap the upcard's suit")
    tap(phone, "Suit of the upcard", "♠")
    expect(limit).to_have_text("Knock with 6 or less · ♠ scores double")
    tap(phone, "Result", "Knock")
    tap(phone, "Who knocked", "Ben")
    phone.get_by_label("Ben's deadwood (knocked)").fill("4")
    phone.get_by_label("Ann's deadwood").fill("14")
    expect(status).to_have_text("Ben knocked and scores 20 (doubled).")
    phone.get_by_role("button", name="Save round 1").click()
    expect(phone.locator(".sheet tfoot td")).to_have_text(["0", "20"])
    expect(phone.locator('tr[data-round="1"] .card-face')).to_have_text("6♠")


def test_the_preview_never_promises_a_score_the_server_refuses(phone):
    sign_up(phone)
    add_players(phone, "Ann", "Ben")
    start_game(phone, ["Ann", "Ben"])
    status = phone.locator("[data-status]")
    # A knock with 3 typed, then changed to gin: the 3 stays, and gin with deadwood is wrong.
    knock(phone, "K", "Ann", 3, 20, "Ben")
    expect(status).to_have_text("Ann knocked and scores 17.")
    tap(phone, "Result", "Gin")
    expect(phone.locator("#knocker_deadwood")).to_be_visible()
    expect(status).to_have_text(
        "Gin means no deadwood, but Ann has 3. Enter it as a knock instead."
    )
    expect(status).to_have_class(re.compile(r"\bbad\b"))
    phone.get_by_role("button", name="Save round 1").click()
    expect(phone.locator(".deadwood .error")).to_contain_text("Gin means no deadwood")
    expect(phone.locator(".sheet")).to_have_count(0)  # nothing was saved
    phone.get_by_label("Ann's deadwood (knocked)").fill("0")
    expect(status).to_have_text("Gin! Ann scores 45.")
    phone.get_by_role("button", name="Save round 1").click()
    expect(phone.locator(".sheet tfoot td")).to_have_text(["45", "0"])


@pytest.mark.parametrize("size", ["phone", "small_phone"])
def test_a_round_fits_with_its_status_and_save_in_view(request, size):
    page = request.getfixturevalue(size)
    sign_up(page)
    add_players(page, "Ann", "Ben")
    start_game(page, ["Ann", "Ben"], Spades_double=True)
    page.evaluate("window.scrollTo(0, 0)")
    status = page.locator("[data-status]")
    save = page.get_by_role("button", name="Save round 1")
    assert in_view(page, status) and in_view(page, save)
    # Every upcard chip is a full tap target, even 7 to a row at 360 px.
    sizes = "ss => ss.map((s) => s.getBoundingClientRect()).map((r) => [r.width, r.height])"
    for box in page.locator('[aria-label="Upcard"] label.chip span').evaluate_all(sizes):
        assert box[0] >= 44 and box[1] >= 44, box
    knock(page, "9", "Ben", 4, 30, "Ann")
    tap(page, "Suit of the upcard", "♥")
    screenshot(page, f"gin-round-{size}")
    # Everything of the round was tapped without scrolling, and Save is still in view.
    assert page.evaluate("window.scrollY") == 0
    assert in_view(page, save)
    page.wait_for_load_state("load")
    loads = []
    page.on("load", lambda: loads.append(1))
    with page.expect_response(re.compile(r"/games/\d+/hands$")) as saved:
        save.click()
    assert saved.value.status == 200
    ben = page.locator('.score-strip [data-total="Ben"]')
    expect(ben).to_have_text("26+26")
    expect(page.locator('.score-strip [data-total="Ann"]')).to_have_text("0±0")
    assert in_view(page, ben) and in_view(page, page.locator("[data-status]"))
    assert in_view(page, page.get_by_role("button", name="Save round 2"))
    expect(page.locator("#main")).to_have_class(re.compile("just-saved"))
    assert loads == []  # in place: no page load
    screenshot(page, f"gin-saved-{size}")


def test_a_hollywood_game_to_its_end_on_a_phone(phone):
    sign_up(phone)
    add_players(phone, "Ann", "Ben")
    start_game(phone, ["Ann", "Ben"], **{"Hollywood (three games at once)": True, "Game to": 50})
    expect(phone.locator("#now h1")).to_have_text("Round 1 Hollywood")
    rounds = [
        ("Ann", 2, 22),  # Ann 20 in game 1
        ("Ben", None, 30),  # Ben gin 55 in game 1: Ben wins game 1
        ("Ann", 2, 12),  # Ann 10 in game 2
        ("Ben", 1, 16),  # Ben 15 in game 2
        ("Ben", 2, 22),  # Ben 20 in games 2 and 3
        ("Ann", 1, 46),  # Ann 45 in games 2 (wins it, 55) and 3
        ("Ann", 1, 6),  # Ann 5 in game 3: 50, wins it and the match
    ]
    for number, (knocker, mine, theirs) in enumerate(rounds, start=1):
        other = "Ben" if knocker == "Ann" else "Ann"
        if mine is None:
            tap(phone, "Upcard", "K")
            tap(phone, "Result", "Gin")
            tap(phone, "Who knocked", knocker)
            phone.get_by_label(f"{other}'s deadwood").fill(str(theirs))
        else:
            knock(phone, "K", knocker, mine, theirs, other)
        phone.get_by_role("button", name=f"Save round {number}").click()
        if number < len(rounds):
            expect(phone.locator("#now h1")).to_have_text(f"Round {number + 1} Hollywood")
        if number == 2:
            expect(phone.get_by_text("Ben wins game 1 with 55 points.")).to_be_visible()
            expect(phone.locator(".hollywood-sheet .game-head").first).to_contain_text("Ben won")
        if number == 5:
            row = phone.locator('tr[data-round="5"] td.won')
            expect(row).to_have_count(2)  # into games 2 and 3
            screenshot(phone, "gin-hollywood-sheet")
    winner = phone.get_by_text("Ann wins 2 of the 3 games, with 125 points in all.")
    expect(winner).to_have_class("winner")  # said once, as the winner line
    totals = phone.locator(".hollywood-sheet tr.game-totals td")
    expect(totals).to_have_text(["20", "★ 55", "★ 55", "35", "★ 50", "20"])
    expect(phone.locator(".final-lines .bonus-lines tfoot td")).to_have_text(["125", "110"])
    screenshot(phone, "gin-hollywood-final")
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= phone.viewport_size["width"]


def test_the_gin_pages_have_no_serious_accessibility_problem(axe_phone):
    page = axe_phone
    sign_up(page)
    add_players(page, "Ann", "Ben")
    start_game(page, ["Ann", "Ben"], **{"Hollywood (three games at once)": True})
    knock(page, "K", "Ann", 2, 22, "Ben")
    page.get_by_role("button", name="Save round 1").click()
    expect(page.locator("#now h1")).to_have_text("Round 2 Hollywood")
    knock(page, "K", "Ben", 9, 6, "Ann")  # an undercut: Ann again
    page.get_by_role("button", name="Save round 2").click()
    expect(page.locator("#now h1")).to_have_text("Round 3 Hollywood")
    url = page.url.split("#")[0]
    found = {}
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        for address in (url, f"{url}/hands/1/edit"):
            page.goto(address)
            if scheme == "light":
                screenshot(page, f"gin-a11y-{'edit' if 'edit' in address else 'game'}")
            problems = accessibility_problems(page)
            if problems:
                found[f"{address} ({scheme})"] = problems
    assert found == {}


def test_a_long_name_without_spaces_wraps_on_a_small_phone(small_phone):
    page = small_phone
    long_name = "Maximiliana" * 3 + "Wolfesc"  # 40 letters, no space
    sign_up(page)
    add_players(page, long_name, "Ben")
    # (Started through the API: the new-game page itself is another matter.)
    page.goto(f"/games/{api_game(page, 'oklahoma_gin', [long_name, 'Ben'])}")
    knock(page, "K", long_name, 2, 22, "Ben")
    page.get_by_role("button", name="Save round 1").click()
    expect(page.locator("#now h1")).to_have_text("Round 2 to 100")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    box = page.locator('[aria-label="Who knocked"] label.chip').first.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 360
    screenshot(page, "gin-long-name")


def lines_of(locator) -> list[int]:
    """How many lines of text each element holds, as drawn."""
    return locator.evaluate_all(
        """(cells) => cells.map((cell) => {
            const range = document.createRange();
            range.selectNodeContents(cell);
            return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
        })"""
    )


def test_a_hollywood_total_s_star_stays_beside_its_number(small_phone, make_app):
    app = make_app()
    make_account(app)
    rounds = [("Ann", 2, 22), ("Ben", None, 30), ("Ann", 2, 12), ("Ben", 1, 16)]
    rounds += [("Ben", 2, 22), ("Ann", 1, 46), ("Ann", 1, 6)]
    with app.app_context():
        account = db.session.scalar(db.select(Account))
        names = ["Ann", "Ben"]
        options = {"hollywood": True, "target": 50}
        game = games.create_game(account, "oklahoma_gin", names, options).game
        for knocker, mine, theirs in rounds:
            knocker = names[0] if knocker == "Ann" else names[1]
            entry = {"upcard": "K", "knocker": knocker, "opponent_deadwood": theirs}
            entry |= {"result": "gin"} if mine is None else {"result": "knock"}
            entry |= {} if mine is None else {"knocker_deadwood": mine}
            games.record_hand(game, entry)
        game_id = game.id
    log_in(small_phone)
    small_phone.goto(f"/games/{game_id}")
    stars = small_phone.locator("td.leader", has_text="★")
    assert stars.count() >= 4  # the final table's and the sheet's game winners
    assert set(lines_of(stars)) == {1}
    screenshot(small_phone, "gin-hollywood-final")
