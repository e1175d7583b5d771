"""At phone size in Chromium: the score sheet (issue 27, items 20 and 21).

Every installed game's sheet, at its largest usual table (seven players where the game allows
them), fits a 360 px phone without sideways scrolling, the leader's total in view; a seat has
one colour on the entry rows, the sheet and the chart; a hand is corrected in place from the
sheet (no new page), a refusal shown in the dialog with what was typed; undo sits under the
last hand. The games are played through the API (the pages are what is looked at).
"""

from __future__ import annotations

import base64
import json
import re

from playwright.sync_api import expect

from scorekeeper.games import GAMES
from tests.browser import SMALL_PHONE
from tests.browser import add_players
from tests.browser import screenshot
from tests.browser import sign_up

SEVEN = ["Ann", "Benedikt", "Christiane", "Dee", "Evangeline", "Fay", "Gustavo"]


def api(page):
    """A caller of the JSON API as the account signed up on ``page``."""
    basic = base64.b64encode(b"friday-club:correct horse battery").decode()
    answer = page.request.post("/api/v1/tokens", headers={"Authorization": f"Basic {basic}"})
    token = answer.json()["token"]

    def call(method: str, url: str, body=None):
        answer = page.request.fetch(
            url,
            method=method,
            data=None if body is None else json.dumps(body),
            headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
        )
        assert answer.ok, (url, body, answer.status, answer.text())
        return answer.json()

    return call


def bid_hand(players, number):
    """Oh Hell and Wizard: hand ``number`` has ``number`` cards; one player bids them all, and
    every third hand two players miss by one."""
    lead = players[number % len(players)]
    bids = {name: (number if name == lead else 0) for name in players}
    tricks = dict(bids)
    if number % 3 == 0:
        tricks[lead] -= 1
        tricks[players[(number + 1) % len(players)]] += 1
    return {"bids": bids, "tricks": tricks}


def spades_hand(players, number):
    return {
        "bids": {name: 3 + (seat == 0) for seat, name in enumerate(players)},
        "tricks": {name: (4 if seat == number % 4 else 3) for seat, name in enumerate(players)},
    }


def hearts_hand(players, number):
    points = dict.fromkeys(players, 0)
    points[players[number % len(players)]] = 13
    points[players[(number + 1) % len(players)]] = 13
    return {"points": points}


def pad_hand(players, number):
    return {
        "points": {name: (seat * 37 + number * 13) % 90 - 20 for seat, name in enumerate(players)}
    }


def pitch_hand(players, number):
    seat = number % len(players)
    return {
        "pitcher": players[seat],
        "bid": 2,
        "high": players[seat],
        "low": players[(seat + 1) % len(players)],
        "jack": players[seat],
        "game": players[(seat + 2) % len(players)],
    }


def gin_hand(players, number):
    return {
        "upcard": "5",
        "result": "knock",
        "knocker": players[number % 2],
        "knocker_deadwood": 3,
        "opponent_deadwood": 25 + number,
    }


#: Each installed game at its largest usual table: (game, players, options, hand maker);
#: Pitch and Gin also in their widest variants (partnerships, Hollywood's three games).
TABLES = [
    ("oh_hell", SEVEN, {}, bid_hand),
    ("wizard", SEVEN[:6], {}, bid_hand),
    ("pitch", SEVEN, {"target": 21}, pitch_hand),
    ("pitch", SEVEN[:4], {"target": 21, "partnerships": True}, pitch_hand),
    ("oklahoma_gin", SEVEN[:2], {}, gin_hand),
    ("oklahoma_gin", SEVEN[:2], {"hollywood": True}, gin_hand),
    ("spades", SEVEN[:4], {}, spades_hand),
    ("hearts", SEVEN[:6], {}, hearts_hand),
    ("score_pad", SEVEN, {"name": "Darts"}, pad_hand),
]


def play(call, game: str, players, options, hand, count: int) -> int:
    body = {"game": game, "players": players, "options": options}
    made = call("POST", "/api/v1/games", body)["id"]
    for number in range(1, count + 1):
        call("POST", f"/api/v1/games/{made}/hands", hand(players, number))
    return made


def test_every_game_at_its_largest_table_fits_a_360_px_phone_with_the_leader_in_view(small_phone):
    page = small_phone
    assert {table[0] for table in TABLES} == set(GAMES), "a table for every installed game"
    for game, plugin in GAMES.items():
        largest = max(len(players) for kind, players, _options, _hand in TABLES if kind == game)
        assert largest == min(plugin.rules.max_players, 7), game
    sign_up(page)
    add_players(page, *SEVEN)
    call = api(page)
    for game, players, options, hand in TABLES:
        made = play(call, game, players, options, hand, 6)
        state = call("GET", f"/api/v1/games/{made}")
        page.goto(f"/games/{made}")
        sheet = page.locator(".sheet-card .sheet-scroll")
        sheet.scroll_into_view_if_needed()
        scroll, client = sheet.evaluate("box => [box.scrollWidth, box.clientWidth]")
        label = f"{game} {options}"
        assert scroll <= client, f"{label}: the sheet scrolls sideways ({scroll} > {client})"
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= SMALL_PHONE["width"], f"{label}: the page is {width} px wide"
        # The leader's total: on the sheet, in the box and on the screen.
        best = max(state["totals"].values())
        sides = list(state["totals"])
        leader = sides.index(next(side for side in sides if state["totals"][side] == best))
        if game == "oklahoma_gin" and options.get("hollywood"):
            total = page.locator(".hollywood-sheet tr.game-totals td").nth(leader)
        else:
            total = page.locator(".sheet-card .sheet tfoot tr").last.locator("td").nth(leader)
        expect(total).to_contain_text(re.compile(r"\d"))
        box, frame = total.bounding_box(), sheet.bounding_box()
        assert box["x"] >= frame["x"] - 0.5, label
        assert box["x"] + box["width"] <= frame["x"] + frame["width"] + 0.5, label
        assert box["y"] >= 0 and box["y"] + box["height"] <= SMALL_PHONE["height"], label
        screenshot(page, f"sheet-{game}-{len(players)}")


def tint(locator) -> str:
    return locator.evaluate("el => getComputedStyle(el).getPropertyValue('--tint').trim()")


def test_a_seat_has_one_colour_on_the_entry_rows_the_sheet_and_the_chart(small_phone):
    page = small_phone
    sign_up(page)
    add_players(page, *SEVEN)
    call = api(page)
    made = play(call, "oh_hell", SEVEN, {}, bid_hand, 3)
    page.goto(f"/games/{made}")
    colours = []
    for seat, name in enumerate(SEVEN):
        head = page.locator(f'.sheet th.seat-col[data-seat-col="{seat + 1}"]')
        expect(head).to_contain_text(name)
        # Told apart without colour too: the seat's number above the name.
        expect(head.locator(".seat-no")).to_have_text(str(seat + 1))
        ring = page.locator(f'form[data-bids-form] li.row[data-seat="{seat}"] .seat-no')
        expect(ring).to_have_text(str(seat + 1))
        assert tint(ring) == tint(head) != "", name
        colours.append(tint(head))
    assert len(set(colours)) == 7, colours
    # The chart (the game's review page) draws each seat's line in that colour, and its legend
    # names the seat by its number as well.
    page.goto(f"/history/games/{made}")
    lines = page.locator(".chart-svg .series polyline")
    expect(lines).to_have_count(7)
    for seat, name in enumerate(SEVEN):
        stroke = lines.nth(seat).evaluate("el => getComputedStyle(el).stroke")
        swatch = page.locator(".legend li").nth(seat)
        expect(swatch).to_contain_text(name)
        expect(swatch.locator(".seat-no")).to_have_text(str(seat + 1))
        head = page.locator(f'.sheet th.seat-col[data-seat-col="{seat + 1}"]')
        bar = head.evaluate("el => getComputedStyle(el).boxShadow")
        assert tint(head) == colours[seat]
        rgb = re.match(r"rgb\([^)]*\)", bar).group(0)
        assert stroke == rgb, (name, stroke, bar)


PLAYERS = ["Ann", "Ben", "Cy"]


def oh_hell_on_a_phone(page) -> int:
    """A 3-player Oh Hell game with three hands (1, 2 and 3 cards) played: Ann, Ben and Cy
    each bid 0 but the hand's lead (Ben, Cy, Ann), who bids and takes them all."""
    sign_up(page)
    add_players(page, *PLAYERS)
    call = api(page)
    made = call("POST", "/api/v1/games", {"game": "oh_hell", "players": PLAYERS})["id"]
    for number in (1, 2, 3):
        lead = PLAYERS[number % 3]
        bids = {name: (number if name == lead else 0) for name in PLAYERS}
        call("POST", f"/api/v1/games/{made}/hands", {"bids": bids, "tricks": bids})
    page.goto(f"/games/{made}")
    return made


def totals(page) -> list[str]:
    return page.locator(".sheet tfoot td").all_inner_texts()


def chip(page, kind: str, seat: int, value: int):
    return page.locator(f'dialog input[name="{kind}-{seat}"][value="{value}"]')


def test_a_hand_is_corrected_in_place_from_the_sheet(phone):
    page = phone
    made = oh_hell_on_a_phone(page)
    address = page.url
    # Hand 1: Ben 11; hand 2: Cy 12; hand 3: Ann 13; the others 10 a hand.
    assert totals(page) == ["33", "31", "32"]
    page.evaluate("window.loadedOnce = true")  # gone if the page were loaded again
    page.locator(".sheet a.hand-link", has_text="2").first.click()
    dialog = page.locator("dialog.correct-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.get_by_role("heading", name="Correct hand 2")).to_be_visible()
    # Refused: Ann takes a trick too (3 tricks of 2 cards). The message is in the dialog, and
    # what was typed is still there.
    chip(page, "trick", 0, 1).locator("xpath=..").click()
    dialog.get_by_role("button", name="Save the correction").click()
    refusal = dialog.locator("p.error", has_text="Tricks add up to 3 but 2 cards were dealt")
    expect(refusal).to_be_visible()
    expect(refusal).to_have_count(1)  # once, in the form above the rows (not at the top too)
    expect(chip(page, "trick", 0, 1)).to_be_checked()
    assert totals(page) == ["33", "31", "32"]
    # Fixed: Cy took only one of the two; both Ann and Cy missed their bid.
    chip(page, "trick", 2, 1).locator("xpath=..").click()
    dialog.get_by_role("button", name="Save the correction").click()
    expect(dialog).to_be_hidden()
    expect(page.locator(".sheet-card")).to_contain_text("Hand 2 corrected")
    assert totals(page) == ["23", "31", "20"]
    assert page.url == address
    assert page.evaluate("window.loadedOnce") is True
    corrected = page.locator(".sheet tr.just-corrected")
    expect(corrected).to_contain_text("0/1")
    screenshot(page, "sheet-corrected-in-place")
    # The game as stored says the same.
    state = api(page)("GET", f"/api/v1/games/{made}")
    assert state["hands"][1]["input"]["tricks"] == {"Ann": 1, "Ben": 0, "Cy": 1}


def test_cancel_closes_the_correction_and_changes_nothing(phone):
    page = phone
    oh_hell_on_a_phone(page)
    page.locator(".sheet a.hand-link", has_text="1").first.click()
    dialog = page.locator("dialog.correct-dialog")
    expect(dialog).to_be_visible()
    dialog.get_by_role("link", name="Cancel").click()
    expect(dialog).to_be_hidden()
    assert totals(page) == ["33", "31", "32"]


def test_undo_sits_under_the_last_hand_on_the_sheet(phone):
    page = phone
    oh_hell_on_a_phone(page)
    last = page.locator(".sheet tbody tr:has(a.hand-link)").last
    undo = page.get_by_role("button", name="Undo hand 3")
    expect(undo).to_have_count(1)
    # The row right under hand 3, above the totals.
    row = page.locator(".sheet tbody tr.undo-row")
    assert row.evaluate("el => el.previousElementSibling") == last.evaluate("el => el")
    last.scroll_into_view_if_needed()
    top, below = last.bounding_box(), undo.bounding_box()
    assert 0 <= below["y"] - (top["y"] + top["height"]) < 20
    page.once("dialog", lambda asked: asked.accept())
    undo.click()
    expect(page.locator(".flash")).to_contain_text("Hand 3 removed")
    expect(page.get_by_role("button", name="Undo hand 2")).to_be_visible()


def test_no_undo_on_the_shared_view(phone):
    page = phone
    made = oh_hell_on_a_phone(page)
    url = api(page)("POST", f"/api/v1/games/{made}/share")["url"]
    page.goto(url)
    # The score sheet (the score chart's table, folded under it, is a .sheet too).
    expect(page.locator("table.sheet.compact")).to_be_visible()
    expect(page.locator(".undo-row")).to_have_count(0)


def test_a_correction_whose_request_fails_says_so_and_keeps_what_was_typed(phone):
    page = phone
    made = oh_hell_on_a_phone(page)
    page.locator(".sheet a.hand-link", has_text="2").first.click()
    dialog = page.locator("dialog.correct-dialog")
    expect(dialog).to_be_visible()
    page.allowed_errors.append("net::ERR_FAILED")
    page.route(f"**/games/{made}/hands/2", lambda route: route.abort())
    chip(page, "trick", 2, 1).locator("xpath=..").click()
    chip(page, "trick", 0, 1).locator("xpath=..").click()
    page.wait_for_function("() => window.Outbox !== undefined")
    dialog.get_by_role("button", name="Save the correction").click()
    expect(dialog.locator(".kept-note")).to_contain_text("Kept on this phone, not sent yet")
    expect(chip(page, "trick", 0, 1)).to_be_checked()
    # Once the connection is back, the phone sends it by itself (the outbox).
    page.unroute(f"**/games/{made}/hands/2")
    expect(dialog).to_be_hidden()
    assert totals(page) == ["23", "31", "20"]


def test_the_seven_player_sheet_fits_in_every_language(small_phone):
    """The row heads' words are longer in Sundanese and Bengali ("১ তাস · বদলান"): they wrap,
    the columns do not leave the phone."""
    page = small_phone
    sign_up(page)
    add_players(page, *SEVEN)
    made = play(api(page), "oh_hell", SEVEN, {}, bid_hand, 6)
    for code in ("su", "lo", "bn"):
        page.goto("/")
        page.locator(f'.languages button[value="{code}"]').click()
        page.wait_for_load_state()
        page.goto(f"/games/{made}")
        sheet = page.locator(".sheet-card .sheet-scroll")
        scroll, client = sheet.evaluate("box => [box.scrollWidth, box.clientWidth]")
        assert scroll <= client, (code, scroll, client)


def canasta_hand(players, number):
    """A score pad of a game with long figures (Canasta, rummy): a round's points in the
    thousands, some below zero, the totals in the ten thousands."""
    return {
        "points": {
            name: (-1) ** seat * (1240 + seat * 370 + number * 130)
            for seat, name in enumerate(players)
        }
    }


def test_long_figures_still_fit_seven_columns_on_a_360_px_phone(small_phone):
    """Figures of five and six characters ("−3220", "−29400") in seven columns: drawn smaller,
    the sheet still fits, in English and in Bengali's digits."""
    page = small_phone
    sign_up(page)
    add_players(page, *SEVEN)
    made = play(api(page), "score_pad", SEVEN, {"name": "Canasta"}, canasta_hand, 8)
    for code in ("en", "bn"):
        if code != "en":
            page.goto("/")
            page.locator(f'.languages button[value="{code}"]').click()
            page.wait_for_load_state()
        page.goto(f"/games/{made}")
        sheet = page.locator(".sheet-card .sheet-scroll")
        sheet.scroll_into_view_if_needed()
        scroll, client = sheet.evaluate("box => [box.scrollWidth, box.clientWidth]")
        assert scroll <= client, (code, scroll, client)
        total = page.locator(".sheet tfoot td").nth(5)  # Fay's
        expect(total).to_have_text("−29400" if code == "en" else "−২৯৪০০")
        screenshot(page, f"sheet-long-figures-{code}")
    # Short figures keep their usual size.
    small = play(api(page), "score_pad", SEVEN, {"name": "Darts"}, pad_hand, 3)
    page.goto(f"/games/{small}")
    size = page.locator(".sheet tfoot td").first.evaluate("el => getComputedStyle(el).fontSize")
    assert size == "16.8px", size


def long_gin_on_a_phone(page) -> int:
    """A Gin game of 30 rounds (to 1,000 points), 2 points a round, Ann and Ben in turn."""
    sign_up(page)
    add_players(page, "Ann", "Ben")
    call = api(page)
    game = {"game": "oklahoma_gin", "players": ["Ann", "Ben"], "options": {"target": 1000}}
    made = call("POST", "/api/v1/games", game)["id"]
    for number in range(1, 31):
        knocker = "Ann" if number % 2 else "Ben"
        body = {"upcard": "7", "result": "knock", "knocker": knocker}
        body |= {"knocker_deadwood": 2, "opponent_deadwood": 4}
        call("POST", f"/api/v1/games/{made}/hands", body)
    page.goto(f"/games/{made}")
    return made


def save_round_in_place(page, knocker: str) -> None:
    page.evaluate(
        """(fields) => {
            const form = document.getElementById("entry");
            for (const [name, value] of Object.entries(fields)) {
                form.elements[name].value = value;
            }
            form.requestSubmit();
        }""",
        {"upcard": "7", "result": "knock", "knocker": knocker}
        | {"knocker_deadwood": "2", "opponent_deadwood": "4"},
    )


def test_a_round_saved_in_place_keeps_the_sheet_s_latest_rounds(phone):
    """A long game: the answer to a round saved in place holds that round's line only (issue
    22), and the script keeps the lines the page shows: the latest 24 rounds, in order, the
    link to the earlier ones, the totals updated, and the page not loaded again."""
    page = phone
    made = long_gin_on_a_phone(page)
    page.evaluate("window.loadedOnce = true")  # gone if the page were loaded again
    asked = []
    page.on("request", lambda request: asked.append((request.method, request.url)))
    rows = page.locator(".sheet tbody tr[data-line]")
    assert rows.evaluate_all("rows => rows.map((row) => Number(row.dataset.line))") == list(
        range(7, 31)
    )
    for number, knocker in ((31, "0"), (32, "1")):
        save_round_in_place(page, knocker)
        expect(rows.last).to_have_attribute("data-line", str(number))
        shown = rows.evaluate_all("rows => rows.map((row) => Number(row.dataset.line))")
        assert shown == list(range(number - 23, number + 1))
        earlier = page.locator(".sheet tr.earlier")
        expect(earlier).to_contain_text(f"Show rounds 1 to {number - 24} too")
    assert totals(page) == ["32", "32"]
    assert page.locator(".sheet tbody tr.undo-row").count() == 1
    expect(page.get_by_role("button", name="Undo round 32")).to_have_count(1)
    assert page.evaluate("window.loadedOnce") is True
    # One request a round: the answer was merged, not read again whole.
    assert [method for method, url in asked if "/hands" in url or url.endswith(f"/{made}")] == [
        "POST",
        "POST",
    ]


def test_a_sheet_that_lacks_a_line_is_read_again_whole(phone):
    """The page lost a line the answer does not repeat (round 20): the script reads the main
    part again whole rather than show a sheet with a hole in it."""
    page = phone
    made = long_gin_on_a_phone(page)
    asked = []
    page.on("request", lambda request: asked.append((request.method, request.url)))
    page.locator('.sheet tbody tr[data-line="20"]').evaluate("row => row.remove()")
    save_round_in_place(page, "0")
    rows = page.locator(".sheet tbody tr[data-line]")
    expect(rows.last).to_have_attribute("data-line", "31")
    shown = rows.evaluate_all("rows => rows.map((row) => Number(row.dataset.line))")
    assert shown == list(range(8, 32))
    assert totals(page) == ["32", "30"]
    assert [method for method, url in asked if "/hands" in url or url.endswith(f"/{made}")] == [
        "POST",
        "GET",
    ]
