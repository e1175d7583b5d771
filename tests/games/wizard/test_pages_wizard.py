"""Wizard on the pages (Flask test client): set-up, bids with the trump, tricks, every refusal
beside its field with what was typed kept, corrections, undo, a whole game, history, statistics
and the CSV."""

from __future__ import annotations

import csv
import html
import io
import re

import pytest

from scorekeeper.extensions import db
from scorekeeper.models import Game
from tests.bid_games import form_head
from tests.bid_games import row_of
from tests.bid_games import stored
from tests.pages import game_id
from tests.pages import roster_ids
from tests.pages import start_game

THREE = {"Ann": 1, "Ben": 2, "Cy": 3}


def start(client, app, seats=THREE, dealer=None, **options):
    return game_id(start_game(client, app, "wizard", seats, dealer, **options))


def bids(client, game: int, number: int, values: dict[int, int | str], **extra):
    data = {"phase": "bids", "number": str(number), **extra}
    data.update({f"bid-{seat}": str(v) for seat, v in values.items()})
    return client.post(f"/games/{game}/hands", data=data)


def more_bids(client, game: int, number: int, values: dict[int, int | str], **extra):
    data = {"phase": "bids", **extra, **{f"bid-{seat}": str(v) for seat, v in values.items()}}
    return client.post(f"/games/{game}/hands/{number}", data=data)


def tricks(client, game: int, number: int, values: dict[int, int | str]):
    data = {"phase": "tricks", **{f"trick-{seat}": str(v) for seat, v in values.items()}}
    return client.post(f"/games/{game}/hands/{number}", data=data)


def test_wizard_is_offered_and_set_up_with_its_options(table, app):
    assert "Wizard" in table.get("/games/new").text
    form = table.get("/games/new?game=wizard")
    assert form.status_code == 200
    assert "Bids may not equal the tricks (hook)" in form.text
    assert "Hook from this many cards" in form.text
    game = start(table, app, {"Cy": 1, "Ann": 2, "Ben": 3}, dealer="Ben", bids_may_not_equal=True)
    found = stored(app, game)
    assert found.options == {"bids_may_not_equal": True, "hook_min_cards": 1}
    page = table.get(f"/games/{game}").text
    assert 'Round 1 <span class="sub">of 20</span>' in page
    assert '<span class="pill dealer">Ben deals</span>' in page
    assert '<span class="pill first">Cy bids first</span>' in page
    # The schedule strip: twenty rounds of 1 to 20 cards, round 1 marked.
    strip = re.search(r'<svg class="staircase".*?</svg>', page, re.S).group(0)
    assert strip.count("<rect") == 20 and strip.count('class="now"') == 1
    assert "Cards per hand: 1, 2, 3" in strip


@pytest.mark.parametrize(
    ("seats", "options", "message"),
    [
        ({"Ann": 1, "Ben": 2}, {}, "This game needs 3 to 6 players; 2 chosen."),
        ({"Ann": 1, "Ben": 1, "Cy": 2}, {}, "Ann and Ben are both in seat 1."),
        (THREE, {"hook_min_cards": 21}, "Hook from this many cards must be from 1 to 20."),
    ],
)
def test_setup_refusals_keep_the_choices(table, app, seats, options, message):
    response = start_game(table, app, "wizard", seats, bids_may_not_equal=True, **options)
    assert response.status_code == 422
    assert message in response.text
    assert re.search(r'name="opt-bids_may_not_equal" value="y" checked', response.text)
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(Game.id))) == 0


def test_bids_one_by_one_with_the_trump_then_tricks(table, app):
    game = start(table, app, bids_may_not_equal=True)
    # Round 1: Ann deals; Ben bids first. The dealer chose hearts after turning a Wizard.
    assert bids(table, game, 1, {1: 1}, trump="chose-hearts").status_code == 302
    page = table.get(f"/games/{game}").text
    assert "Bids so far 1 for 1 · 2 still to bid" in page
    assert re.search(r'<option value="chose-hearts" selected', page)
    assert more_bids(table, game, 1, {2: 0}, trump="chose-hearts").status_code == 302
    page = table.get(f"/games/{game}").text
    # Before the dealer bids: the one value the hook forbids, struck out.
    assert "Ann may not bid 0 (the hook)." in row_of(page, "bids", "Ann")
    assert re.search(
        r'class="chip forbidden">\s*<input type="radio" name="bid-0" value="0"\s*disabled', page
    )
    assert more_bids(table, game, 1, {0: 1}, trump="chose-hearts").status_code == 302
    page = table.get(f"/games/{game}").text
    # The tricks: who bid what beside each row, the trump on the hand's pills.
    assert '<span class="pill trump">Trump ♥ · the dealer chose</span>' in page
    assert '<span class="pill bid">bid 1</span>' in row_of(page, "tricks", "Ben")
    assert "Bids 2 for 1 (1 over)" in page
    assert "A Wizard may always be played" in page
    assert tricks(table, game, 1, {0: 0, 1: 1, 2: 0}).status_code == 302
    assert stored(app, game).totals_by_side == {"Ann": -10, "Ben": 30, "Cy": 20}
    page = table.get(f"/games/{game}").text
    assert 'Round 2 <span class="sub">of 20</span>' in page
    assert re.search(r'<td class="made" title="Ben: bid 1, took 1; total 30">', html.unescape(page))
    assert "♥*" in page  # the sheet: hearts, chosen by the dealer


def test_a_jester_means_no_trump_and_the_last_round_has_none(table, app, api):
    game = start(table, app)
    assert bids(table, game, 1, {0: 0, 1: 0, 2: 1}, trump="none").status_code == 302
    page = table.get(f"/games/{game}").text
    assert '<span class="pill notrump">No trump (a Jester)</span>' in page
    assert stored(app, game).hands[0].input["trump"] == "none"
    tricks(table, game, 1, {0: 0, 1: 0, 2: 1})
    for number in range(2, 20):
        sent = {"Ann": number, "Ben": 0, "Cy": 0}
        api.post(f"/games/{game}/hands", {"number": number, "bids": sent, "tricks": sent})
    page = table.get(f"/games/{game}").text
    assert 'Round 20 <span class="sub">of 20</span>' in page
    assert '<span class="pill notrump">No trump: the last round</span>' in page
    assert 'name="trump"' not in page


def refused_bids(table, app, options, form, number=1, before=()):
    game = start(table, app, **options)
    for values in before:
        more_bids(table, game, number, values)
    hands = len(stored(app, game).hands)
    data = {"phase": "bids", "number": str(number), **form}
    if hands:
        response = table.post(f"/games/{game}/hands/{number}", data=data)
    else:
        response = table.post(f"/games/{game}/hands", data=data)
    return game, response


@pytest.mark.parametrize(
    ("options", "form", "where", "code_message"),
    [
        ({}, {"bid-0": "2", "bid-1": "0"}, "Ann", "Round 1: Ann's bid must be from 0 to 1."),
        ({}, {"bid-0": "x", "bid-1": "0"}, "Ann", "Ann's bid must be a whole number."),
        ({}, {}, None, "Round 1: Enter a bid for every player."),
        (
            {"bids_may_not_equal": True},
            {"bid-1": "1", "bid-2": "0", "bid-0": "0"},
            "Ann",
            "Round 1: Ann is the dealer and may not bid 0: the bids would total the 1 card.",
        ),
    ],
    ids=["bid_out_of_range", "wrong_type", "missing_bid", "hook_violation"],
)
def test_every_bid_refusal_is_shown_beside_its_field_and_keeps_what_was_typed(
    table, app, options, form, where, code_message
):
    game, response = refused_bids(table, app, options, form)
    assert response.status_code in (400, 422)
    page = response.text
    if where is None:
        assert code_message in form_head(page, "bids")
    else:
        assert code_message in row_of(page, "bids", where)
        assert "has-error" in re.search(
            rf'<li class="[^"]*" data-seat="\d" data-player="{where}"', page
        ).group(0)
    for key, value in form.items():
        if value.isdigit() and int(value) <= 1:  # round 1: the chips are 0 and 1
            assert re.search(rf'name="{key}" value="{value}"\s*checked', page), key
    assert stored(app, game).hands == []


def test_a_trump_the_rules_refuse_is_shown_beside_the_trump(table, app):
    game = start(table, app)
    response = bids(table, game, 1, {0: 0, 1: 1, 2: 0}, trump="roses")
    assert response.status_code == 422
    head = html.unescape(response.text[: response.text.index("data-bids-form")])
    assert "Round 1: The trump must be clubs, diamonds, hearts, spades or none (a Jester)." in head
    assert re.search(r'name="bid-1" value="1"\s*checked', response.text)
    assert stored(app, game).hands == []


@pytest.mark.parametrize(
    ("form", "where", "message"),
    [
        (
            {"trick-0": "2", "trick-1": "0", "trick-2": "0"},
            "Ann",
            "Round 1: Ann's tricks must be from 0 to 1.",
        ),
        (
            {"trick-0": "1", "trick-1": "1", "trick-2": "0"},
            None,
            "Round 1: Tricks add up to 2 but 1 card was dealt to each player.",
        ),
        ({"trick-0": "1", "trick-2": "0"}, "Ben", "Enter the tricks for Ben."),
        (
            {"trick-0": "one", "trick-1": "0", "trick-2": "0"},
            "Ann",
            "Ann's tricks must be a whole number.",
        ),
    ],
    ids=["tricks_out_of_range", "tricks_sum_mismatch", "missing_tricks", "wrong_type"],
)
def test_every_tricks_refusal_is_shown_beside_its_field_and_keeps_what_was_typed(
    table, app, form, where, message
):
    game = start(table, app)
    bids(table, game, 1, {0: 1, 1: 0, 2: 0})
    response = table.post(f"/games/{game}/hands/1", data={"phase": "tricks", **form})
    assert response.status_code in (400, 422)
    page = response.text
    shown = row_of(page, "tricks", where) if where else form_head(page, "tricks")
    assert message in shown
    for key, value in form.items():
        if value.isdigit() and int(value) <= 1:  # round 1: the chips are 0 and 1
            assert re.search(rf'name="{key}" value="{value}"\s*checked', page), key
    assert stored(app, game).hands[0].input.get("tricks") is None


def test_a_double_tap_records_the_round_once(table, app):
    game = start(table, app)
    assert bids(table, game, 1, {0: 1, 1: 0, 2: 0}).status_code == 302
    assert bids(table, game, 1, {0: 1, 1: 0, 2: 0}).status_code == 302
    assert "Round 1 is already recorded" in table.get(f"/games/{game}").text
    assert len(stored(app, game).hands) == 1


def test_correct_an_earlier_round_and_undo_the_last(table, app):
    game = start(table, app)
    bids(table, game, 1, {0: 1, 1: 0, 2: 0})
    tricks(table, game, 1, {0: 1, 1: 0, 2: 0})
    bids(table, game, 2, {0: 0, 1: 0, 2: 2})
    tricks(table, game, 2, {0: 0, 1: 0, 2: 2})
    assert stored(app, game).totals_by_side == {"Ann": 50, "Ben": 40, "Cy": 60}
    edit = table.get(f"/games/{game}/hands/1/edit")
    assert "Correct round 1" in edit.text
    assert re.search(r'name="bid-0" value="1"\s*checked', edit.text)
    both = {"phase": "both", "bid-0": "1", "bid-1": "0", "bid-2": "0", "trump": "spades"}
    bad = table.post(
        f"/games/{game}/hands/1", data={**both, "trick-0": "1", "trick-1": "1", "trick-2": "0"}
    )
    assert bad.status_code == 422
    assert "Tricks add up to 2 but 1 card was dealt to each player." in html.unescape(bad.text)
    assert re.search(r'name="trick-1" value="1"\s*checked', bad.text)
    assert re.search(r'<option value="spades" selected>', bad.text)
    fixed = table.post(
        f"/games/{game}/hands/1",
        data={**both, "trick-0": "0", "trick-1": "1", "trick-2": "0"},
        follow_redirects=True,
    )
    assert "Round 1 corrected; later rounds re-scored." in fixed.text
    assert stored(app, game).totals_by_side == {"Ann": 10, "Ben": 10, "Cy": 60}
    assert stored(app, game).hands[0].input["trump"] == "spades"
    confirm = table.get(f"/games/{game}/hands/2/undo")
    assert "Undo round 2?" in confirm.text
    undone = table.post(f"/games/{game}/hands/2/undo", follow_redirects=True)
    assert "Round 2 removed." in undone.text
    assert len(stored(app, game).hands) == 1


def play_to_the_end(table, game: int, players: int = 3) -> None:
    """Every round on the pages: the first bidder bids and takes every card."""
    for number in range(1, 60 // players + 1):
        first = number % players  # the dealer's left (seat 1 deals round 1)
        values = {seat: (number if seat == first else 0) for seat in range(players)}
        assert bids(table, game, number, values).status_code == 302
        assert tricks(table, game, number, values).status_code == 302


def test_a_whole_game_to_the_winner_then_history_statistics_and_csv(table, app):
    game = start(table, app)
    play_to_the_end(table, game)
    page = table.get(f"/games/{game}").text
    expected = {"Ann": 0, "Ben": 0, "Cy": 0}
    names = ["Ann", "Ben", "Cy"]
    for number in range(1, 21):
        for seat, name in enumerate(names):
            expected[name] += 20 + (10 * number if seat == number % 3 else 0)
    assert stored(app, game).totals_by_side == expected
    best = max(expected.values())
    (winner,) = [name for name in names if expected[name] == best]
    assert f"{winner} wins!" in page and "Final standings" in page
    assert "made 20 of 20" in page
    refused = bids(table, game, 21, {0: 0, 1: 0, 2: 0})
    assert refused.status_code == 422
    assert "This game is over." in refused.text

    review = table.get(f"/history/games/{game}")
    assert review.status_code == 200
    assert f"{winner} won" in review.text and "wizard-sheet" in review.text

    ann = roster_ids(app)["Ann"]
    stats = re.sub(r"\s+", " ", table.get(f"/stats/players/{ann}").text)
    assert "Wizard" in stats
    assert "<dt>Bids made</dt><dd>20 of 20" in stats
    zero = sum(1 for number in range(1, 21) if number % 3 != 0)  # Ann did not bid first
    assert f"<dt>Zero bids made</dt><dd>{zero} of {zero}" in stats
    assert '<dt>Tricks off the bid</dt><dd>0 <span class="muted">0.0 a game</span>' in stats
    assert "<dt>Points per round</dt>" in stats

    sheet = table.get(f"/games/{game}/sheet.csv").text.removeprefix("\ufeff")
    rows = list(csv.reader(io.StringIO(sheet)))
    assert rows[0][:5] == ["Round", "Dealer", "Cards", "Trump", "Dealer chose trump"]
    assert rows[0][5:7] == ["Ann bid", "Ann tricks"]
    assert rows[1][:3] == ["1", "Ann", "1"]
    assert rows[20][3] == "No trump"  # the last round has no trump
    assert rows[-1] == ["Winner", winner] + [""] * (len(rows[0]) - 2)


def test_another_account_gets_404(table, app):
    from tests.conftest import signup

    game = start(table, app)
    other = app.test_client()
    signup(other, "other-table")
    assert other.get(f"/games/{game}").status_code == 404
    assert bids(other, game, 1, {0: 0, 1: 0, 2: 1}).status_code == 404
