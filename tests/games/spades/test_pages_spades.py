"""Spades on the pages (Flask test client): partnerships, bids with nil and blind nil, tricks,
every refusal beside its field with what was typed kept, corrections, undo, a whole game to
the target, history, statistics and the CSV."""

from __future__ import annotations

import csv
import html
import io
import re

import pytest

from tests.bid_games import form_head
from tests.bid_games import row_of
from tests.bid_games import stored
from tests.pages import game_id
from tests.pages import roster_ids
from tests.pages import start_game

FOUR = {"Ann": 1, "Ben": 2, "Cy": 3, "Dee": 4}
US, THEM = "Ann & Cy", "Ben & Dee"


def start(client, app, seats=FOUR, dealer=None, **options):
    return game_id(start_game(client, app, "spades", seats, dealer, **options))


def bids(client, game: int, number: int, values: dict[int, int | str], blind=(), **extra):
    data = {"phase": "bids", "number": str(number), **extra}
    data.update({f"bid-{seat}": str(v) for seat, v in values.items()})
    if blind:
        data["blind_shown"] = "1"
        data.update({f"blind-{seat}": "y" for seat in blind})
    return client.post(f"/games/{game}/hands", data=data)


def tricks(client, game: int, number: int, values: dict[int, int | str]):
    data = {"phase": "tricks", **{f"trick-{seat}": str(v) for seat, v in values.items()}}
    return client.post(f"/games/{game}/hands/{number}", data=data)


def hand(client, game, number, bid_values, trick_values, blind=()):
    assert bids(client, game, number, bid_values, blind).status_code == 302
    assert tricks(client, game, number, trick_values).status_code == 302


def cell(page: str, number: int, side: str) -> str:
    """One team's cell of a hand on the score sheet, as text."""
    body = page[page.index("spades-sheet") :].split("<tbody>")[1].split("</tbody>")[0]
    rows = [
        row
        for row in body.split("<tr")[1:]
        if re.search(rf"<th scope=\"row\">.*?>{number}<", row, re.S)
    ]
    found = re.search(rf'data-side="{re.escape(html.escape(side))}">(.*?)</td>', rows[0], re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html.unescape(found.group(1)))).strip()


def test_spades_is_set_up_for_four_in_partnerships(table, app):
    assert "Spades" in table.get("/games/new").text
    form = table.get("/games/new?game=spades")
    for label in ("Points to win", "Blind nil", "Bag penalty", "Set out at −200"):
        assert label in form.text
    game = start(table, app, dealer="Dee", target=300)
    assert stored(app, game).options == {
        "target": 300,
        "blind_nil": False,
        "bag_penalty": True,
        "set_out": True,
    }
    page = html.unescape(table.get(f"/games/{game}").text)
    assert 'Hand 1 <span class="sub">to 300</span>' in page
    assert '<span class="pill dealer">Dee deals</span>' in page
    assert '<span class="pill first">Ann bids first</span>' in page
    # Distance to the target, by team.
    assert re.search(
        rf"{US}</span> <strong data-total=\"{US}\">0</strong> "
        r"<span class=\"muted\">300 to go · 0 bags",
        page,
    )
    assert "Partners sit opposite: seats 1 and 3 against 2 and 4." in page
    # 0 reads "Nil" on the bid chips; no blind nil box while it is not allowed.
    assert re.search(r'name="bid-0" value="0" ><span>Nil</span>', page)
    assert 'name="blind-' not in page


@pytest.mark.parametrize(
    ("seats", "message"),
    [
        ({"Ann": 1, "Ben": 2, "Cy": 3}, "This game needs exactly 4 players; 3 chosen."),
        ({"Ann": 1, "Ben": 2, "Cy": 3, "Dee": 3}, "Cy and Dee are both in seat 3."),
    ],
)
def test_setup_refusals(table, app, seats, message):
    response = start_game(table, app, "spades", seats, blind_nil=True)
    assert response.status_code == 422
    assert message in response.text
    assert re.search(r'name="opt-blind_nil" value="y" checked', response.text)


def test_contracts_nils_bags_and_a_set_on_the_sheet(table, app):
    game = start(table, app, blind_nil=True)
    # Hand 1: Ann deals. Ben bids nil and takes a trick: -100, the trick is a bag.
    assert bids(table, game, 1, {0: 3, 1: 0, 2: 4, 3: 4}).status_code == 302
    page = html.unescape(table.get(f"/games/{game}").text)
    assert f"Contracts: {US} 7 · {THEM} 4 · tricks: 0 of 13" in page
    assert '<span class="pill bid">nil</span>' in row_of(page, "tricks", "Ben")
    assert '<span class="pill bid">bid 4</span>' in row_of(page, "tricks", "Dee")
    # Only a nil is made by an exact count (the script ticks it); a contract is the team's.
    assert 'data-bid="0"' in row_of(page, "tricks", "Ben").split(">")[0]
    assert "data-bid" not in row_of(page, "tricks", "Dee").split(">")[0]
    assert "Spades are always trump." in page
    assert tricks(table, game, 1, {0: 4, 1: 1, 2: 4, 3: 4}).status_code == 302
    page = table.get(f"/games/{game}").text
    assert cell(page, 1, US) == "7/8 ✓ 71 71 bags +1 → 1"
    assert cell(page, 1, THEM) == "4/4 ✓ −60 −60 bags +1 → 1 Ben nil ✗"
    # Ben & Dee are 131 behind: either may bid blind nil now, and the page offers it.
    assert f"{THEM} are 100 or more behind" in html.unescape(page)
    assert 'name="blind-1"' in page and 'name="blind-3"' in page
    assert 'name="blind-0"' not in page
    # Hand 2: Ben bids blind nil (the box alone: the bid is 0) and makes it: +200.
    hand(table, game, 2, {0: 3, 2: 3, 3: 5}, {0: 4, 1: 0, 2: 4, 3: 5}, blind=[1])
    page = table.get(f"/games/{game}").text
    assert stored(app, game).hands[1].input["blind_nil"] == [1]
    assert cell(page, 2, US) == "6/8 ✓ 62 133 bags +2 → 3"
    assert cell(page, 2, THEM) == "5/5 ✓ 250 190 bags +0 → 1 Ben blind nil ✓"
    # Hand 3: Ann & Cy are set (12 bid, 10 taken): -120.
    hand(table, game, 3, {0: 7, 1: 1, 2: 5, 3: 0}, {0: 5, 1: 2, 2: 5, 3: 1})
    page = table.get(f"/games/{game}").text
    assert cell(page, 3, US) == "12/10 ✗ −120 13 bags +0 → 3"
    assert cell(page, 3, THEM) == "1/2 ✓ −89 101 bags +2 → 3 Dee nil ✗"
    assert stored(app, game).totals_by_side == {US: 13, THEM: 101}
    standings = html.unescape(page[page.index('id="totals"') :])
    assert '<span class="note">3 bags</span>' in standings


def test_ten_bags_cost_a_hundred_points(table, app):
    game = start(table, app)
    # Each hand Ann & Cy bid 2 and take 7: five bags a hand.
    hand(table, game, 1, {0: 1, 1: 3, 2: 1, 3: 3}, {0: 4, 1: 3, 2: 3, 3: 3})
    hand(table, game, 2, {0: 1, 1: 3, 2: 1, 3: 3}, {0: 4, 1: 3, 2: 3, 3: 3})
    page = table.get(f"/games/{game}").text
    assert cell(page, 2, US) == "2/7 ✓ −75 −50 bags +5 → 0 · bag penalty −100"
    notice = f"{US} reached 10 bags in hand 2: 100 points off, 0 bags carried over."
    assert notice in html.unescape(page)


def test_blind_nil_is_refused_beside_the_box_unless_the_team_is_behind(table, app):
    game = start(table, app, blind_nil=True)
    response = bids(table, game, 1, {0: 3, 2: 4, 3: 4}, blind=[1])
    assert response.status_code == 422
    shown = row_of(response.text, "bids", "Ben")
    assert "may not bid blind nil: Ben & Dee are not behind at the start of this hand" in shown
    assert re.search(r'name="blind-1" value="y" checked', response.text)
    assert re.search(r'name="bid-3" value="4"\s*checked', response.text)
    assert stored(app, game).hands == []
    off = start(table, app)
    response = bids(table, off, 1, {0: 3, 2: 4, 3: 4}, blind=[1])
    assert "Blind nil is not played in this game." in row_of(response.text, "bids", "Ben")


@pytest.mark.parametrize(
    ("form", "where", "message"),
    [
        (
            {"bid-0": "14", "bid-1": "0", "bid-2": "0", "bid-3": "0"},
            "Ann",
            "Hand 1: Ann's bid must be from 0 to 13.",
        ),
        (
            {"bid-0": "x", "bid-1": "0", "bid-2": "0", "bid-3": "0"},
            "Ann",
            "Ann's bid must be a whole number.",
        ),
        ({"bid-0": "3", "bid-1": "2", "bid-2": "4"}, "Dee", "Hand 1: Enter a bid for Dee."),
        ({}, None, "Hand 1: Enter a bid for every player."),
    ],
    ids=["bid_out_of_range", "wrong_type", "missing_bid", "missing_bids"],
)
def test_every_bid_refusal_is_shown_beside_its_field(table, app, form, where, message):
    game = start(table, app)
    response = table.post(f"/games/{game}/hands", data={"phase": "bids", "number": "1", **form})
    assert response.status_code in (400, 422)
    shown = row_of(response.text, "bids", where) if where else form_head(response.text, "bids")
    assert message in shown
    for key, value in form.items():
        if value.isdigit() and int(value) <= 13:
            assert re.search(rf'name="{key}" value="{value}"\s*checked', response.text), key
    assert stored(app, game).hands == []


@pytest.mark.parametrize(
    ("form", "where", "message"),
    [
        (
            {"trick-0": "14", "trick-1": "0", "trick-2": "0", "trick-3": "0"},
            "Ann",
            "Hand 1: Ann's tricks must be from 0 to 13.",
        ),
        (
            {"trick-0": "4", "trick-1": "4", "trick-2": "4", "trick-3": "4"},
            None,
            "Hand 1: Tricks add up to 16 but every hand has 13 tricks.",
        ),
        ({"trick-0": "4", "trick-1": "4", "trick-2": "4"}, "Dee", "Enter the tricks for Dee."),
        (
            {"trick-0": "?", "trick-1": "4", "trick-2": "4", "trick-3": "4"},
            "Ann",
            "Ann's tricks must be a whole number.",
        ),
    ],
    ids=["tricks_out_of_range", "tricks_sum_mismatch", "missing_tricks", "wrong_type"],
)
def test_every_tricks_refusal_is_shown_beside_its_field(table, app, form, where, message):
    game = start(table, app)
    bids(table, game, 1, {0: 3, 1: 3, 2: 3, 3: 3})
    response = table.post(f"/games/{game}/hands/1", data={"phase": "tricks", **form})
    assert response.status_code in (400, 422)
    shown = row_of(response.text, "tricks", where) if where else form_head(response.text, "tricks")
    assert message in shown
    for key, value in form.items():
        if value.isdigit() and int(value) <= 13:
            assert re.search(rf'name="{key}" value="{value}"\s*checked', response.text), key
    assert "tricks" not in stored(app, game).hands[0].input


def test_correct_an_earlier_hand_rescores_the_bags_and_undo_the_last(table, app):
    game = start(table, app, blind_nil=True)
    hand(table, game, 1, {0: 3, 1: 0, 2: 4, 3: 4}, {0: 4, 1: 1, 2: 4, 3: 4})
    hand(table, game, 2, {0: 3, 1: 3, 2: 3, 3: 3}, {0: 4, 1: 3, 2: 3, 3: 3})
    edit = table.get(f"/games/{game}/hands/1/edit")
    assert "Correct hand 1" in edit.text
    assert re.search(r'name="trick-1" value="1"\s*checked', edit.text)
    both = {
        "phase": "both",
        "blind_shown": "1",
        "bid-0": "3",
        "bid-1": "0",
        "bid-2": "4",
        "bid-3": "4",
    }
    bad = table.post(
        f"/games/{game}/hands/1",
        data={**both, "trick-0": "4", "trick-1": "2", "trick-2": "4", "trick-3": "4"},
    )
    assert bad.status_code == 422
    assert "Tricks add up to 14 but every hand has 13 tricks." in html.unescape(bad.text)
    assert re.search(r'name="trick-1" value="2"\s*checked', bad.text)
    fixed = table.post(
        f"/games/{game}/hands/1",
        data={**both, "trick-0": "5", "trick-1": "0", "trick-2": "4", "trick-3": "4"},
        follow_redirects=True,
    )
    assert "Hand 1 corrected; later hands re-scored." in fixed.text
    # Ben's nil now made (+100 + 40); Ann & Cy have two bags, carried into hand 2 (+1).
    page = table.get(f"/games/{game}").text
    assert cell(page, 1, THEM) == "4/4 ✓ 140 140 bags +0 → 0 Ben nil ✓"
    assert cell(page, 2, US) == "6/7 ✓ 61 133 bags +1 → 3"
    undone = table.post(f"/games/{game}/hands/2/undo", follow_redirects=True)
    assert "Hand 2 removed." in undone.text
    assert stored(app, game).totals_by_side == {US: 72, THEM: 140}


def test_a_whole_game_to_the_target_then_history_statistics_and_csv(table, app):
    game = start(table, app, target=250)
    number = 0
    while True:
        number += 1
        hand(table, game, number, {0: 4, 1: 2, 2: 4, 3: 3}, {0: 4, 1: 2, 2: 4, 3: 3})
        totals = stored(app, game).totals_by_side
        if totals[US] >= 250:
            break
        assert number < 10
    assert totals == {US: 80 * number, THEM: 50 * number}
    page = html.unescape(table.get(f"/games/{game}").text)
    assert f"{US} win!" in page and "Final standings" in page
    assert "Reopen to correct a hand" in page
    refused = bids(table, game, number + 1, {0: 3, 1: 3, 2: 3, 3: 3})
    assert refused.status_code == 422 and "This game is over." in refused.text

    review = html.unescape(table.get(f"/history/games/{game}").text)
    assert f"{US} won" in review and "spades-sheet" in review

    ann = roster_ids(app)["Ann"]
    stats = re.sub(r"\s+", " ", table.get(f"/stats/players/{ann}").text)
    assert "Spades" in stats
    assert f"<dt>Contracts made</dt><dd>{number} of {number}" in stats
    assert '<dt>Bags</dt><dd>0 <span class="muted">0.0 a game</span>' in stats

    sheet = table.get(f"/games/{game}/sheet.csv").text.removeprefix("\ufeff")
    rows = list(csv.reader(io.StringIO(sheet)))
    assert rows[0][:4] == ["Hand", "Dealer", "Ann bid", "Ann tricks"]
    assert f"{US} contract" in rows[0] and f"{THEM} bags total" in rows[0]
    assert rows[1][:4] == ["1", "Ann", "4", "4"]
    assert rows[-1][:2] == ["Winner", US]


def test_another_account_gets_404(table, app):
    from tests.conftest import signup

    game = start(table, app)
    other = app.test_client()
    signup(other, "other-table")
    assert other.get(f"/games/{game}").status_code == 404
    assert bids(other, game, 1, {0: 3, 1: 3, 2: 3, 3: 4}).status_code == 404
