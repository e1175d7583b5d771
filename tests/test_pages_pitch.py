"""Auction Pitch on the pages: the auction, the points, set backs, partnerships, the win."""

from __future__ import annotations

import html
import re

import pytest

from scorekeeper.extensions import db
from scorekeeper.models import Game
from tests.pages import game_id
from tests.pages import roster_ids
from tests.pages import start_game


def start(client, app, names, **options):
    seats = {name: seat for seat, name in enumerate(names, start=1)}
    return game_id(start_game(client, app, "pitch", seats, **options))


def auction(client, game_id, number, calls: dict[int, str], order: list[int]):
    data = {"phase": "auction", "number": str(number), "order": ",".join(map(str, order))}
    data.update({f"call-{seat}": call for seat, call in calls.items()})
    return client.post(f"/games/{game_id}/hands", data=data)


def points(client, game_id, number, pitcher_seat, **won):
    data = {"phase": "points", "pitcher_seat": str(pitcher_seat)}
    data.update({key: str(value) for key, value in won.items()})
    return client.post(f"/games/{game_id}/hands/{number}", data=data)


def totals(app, game):
    with app.app_context():
        return db.session.get(Game, game).totals_by_side


def test_the_setup_form_offers_pitch_options(table):
    page = table.get("/games/new?game=pitch")
    for text in ["Points to win", "Partnerships", "Lowest bid", "Low goes to whoever played it"]:
        assert text in page.text


def test_auction_then_points_score_the_hand(table, app):
    game = start(table, app, ["Ann", "Ben", "Cy"])
    page = table.get(f"/games/{game}")
    assert "Auction for hand 1" in page.text
    assert "Dealer <strong>Ann</strong>" in page.text
    # Ben (first), Cy, then Ann the dealer; Cy bids 2, Ann steals at 2.
    response = auction(table, game, 1, {1: "pass", 2: "2", 0: "2"}, [1, 2, 0])
    assert response.status_code == 302
    page = table.get(f"/games/{game}")
    assert re.search(r"<strong>Ann</strong> pitched <span class=\"big\">2</span>", page.text)
    assert "stolen" in page.text
    response = points(table, game, 1, 0, high=0, low=1, jack="none", game=0)
    assert response.status_code == 302
    assert totals(app, game) == {"Ann": 2, "Ben": 1, "Cy": 0}
    page = table.get(f"/games/{game}")
    assert "made ✓" in page.text


def test_a_pitcher_who_falls_short_is_set_back_below_zero(table, app):
    game = start(table, app, ["Ann", "Ben", "Cy"])
    auction(table, game, 1, {1: "3", 2: "pass", 0: "pass"}, [1, 2, 0])
    points(table, game, 1, 1, high=1, low=2, jack=2, game="tie")
    assert totals(app, game) == {"Ann": 0, "Ben": -3, "Cy": 2}
    page = table.get(f"/games/{game}")
    assert "set ✗" in page.text
    assert "−3" in page.text


@pytest.mark.parametrize(
    ("calls", "message"),
    [
        (
            {1: "pass", 2: "pass", 0: "pass"},
            "Everyone else passed, so Ann (the dealer) must bid at least 2.",
        ),
        ({1: "2", 2: "2", 0: "pass"}, "The high bid is 2: Cy must bid more than 2 or pass."),
        ({1: "4", 2: "pass", 0: "4"}, "Ann cannot steal a bid of 4; the dealer can only pass now."),
        ({1: "pass", 2: "pass"}, "Enter Ann’s call: pass or a bid."),
    ],
)
def test_illegal_auctions_are_refused_and_kept(table, app, calls, message):
    game = start(table, app, ["Ann", "Ben", "Cy"])
    response = auction(table, game, 1, calls, [1, 2, 0])
    assert response.status_code == 422
    assert message in html.unescape(response.text)
    for seat, call in calls.items():
        assert re.search(rf'name="call-{seat}" value="{call}"\s*checked', response.text)
    with app.app_context():
        assert db.session.get(Game, game).hand_count == 0


def test_the_quick_form_records_pitcher_and_bid(table, app):
    game = start(table, app, ["Ann", "Ben", "Cy"], min_bid=2)
    data = {"phase": "auction", "quick": "1", "number": "1", "pitcher": "2", "bid": "1"}
    refused = table.post(f"/games/{game}/hands", data=data)
    assert refused.status_code == 422
    assert "Hand 1: Cy’s bid must be from 2 to 4." in refused.text
    data["bid"] = "3"
    assert table.post(f"/games/{game}/hands", data=data).status_code == 302
    assert "<strong>Cy</strong> pitched" in table.get(f"/games/{game}").text


def test_one_trump_shortcut_and_its_check(table, app):
    game = start(table, app, ["Ann", "Ben", "Cy"])
    auction(table, game, 1, {1: "2", 2: "pass", 0: "pass"}, [1, 2, 0])
    wrong = points(table, game, 1, 1, single_trump="y", high=2, low=2, jack="none", game=0)
    assert wrong.status_code == 422
    assert "Only one trump was played" in wrong.text
    ok = points(table, game, 1, 1, single_trump="y", jack=1, game=0)
    assert ok.status_code == 302
    assert totals(app, game) == {"Ann": 1, "Ben": 3, "Cy": 0}


def test_game_points_decide_game_and_impossible_counts_are_refused(table, app):
    game = start(table, app, ["Ann", "Ben", "Cy"])
    auction(table, game, 1, {1: "2", 2: "pass", 0: "pass"}, [1, 2, 0])
    data = {"high": 1, "low": 1, "jack": "none", "game-points": ""}
    over = points(
        table, game, 1, 1, **data, **{"game_points-0": 40, "game_points-1": 30, "game_points-2": 20}
    )
    assert over.status_code == 422
    assert "never sum to more than 80" in over.text
    assert 'name="game_points-0" value="40"' in over.text
    tie = points(
        table,
        game,
        1,
        1,
        high=1,
        low=1,
        jack="none",
        game=1,
        **{"game_points-0": 20, "game_points-1": 20},
    )
    assert tie.status_code == 422
    assert "tie for the most" in tie.text
    ok = points(
        table, game, 1, 1, high=1, low=1, jack="none", **{"game_points-0": 10, "game_points-1": 25}
    )
    assert ok.status_code == 302
    assert totals(app, game) == {"Ann": 0, "Ben": 3, "Cy": 0}


def test_a_non_pitcher_above_the_target_must_pitch_to_win(table, app):
    game = start(table, app, ["Ann", "Ben", "Cy"])
    # Ben takes all four points off Cy's pitch twice: 8, but Ben never pitched.
    for number, order in ((1, [1, 2, 0]), (2, [2, 0, 1])):
        calls = {seat: "pass" for seat in order}
        calls[2] = "2"
        auction(table, game, number, calls, order)
        points(table, game, number, 2, high=1, low=1, jack=1, game=1)
    page = table.get(f"/games/{game}")
    assert "Ben has 8 but must pitch to win." in page.text
    assert "Final standings" not in page.text
    # Hand 3: Ben deals... Ann first; Ben pitches 2 and makes it: Ben wins.
    auction(table, game, 3, {0: "pass", 1: "2", 2: "pass"}, [0, 1, 2])
    points(table, game, 3, 1, high=1, low=1, jack="none", game="tie")
    page = table.get(f"/games/{game}")
    assert "Ben wins!" in page.text
    assert "Reopen to correct a hand" in page.text


def test_partnerships_score_teams(table, app):
    game = start(table, app, ["Ann", "Ben", "Cy", "Dee"], partnerships=True)
    page = table.get(f"/games/{game}")
    assert "partners: Ann &amp; Cy vs Ben &amp; Dee" in page.text
    auction(table, game, 1, {1: "pass", 2: "3", 3: "pass", 0: "pass"}, [1, 2, 3, 0])
    points(table, game, 1, 2, high=0, low=2, jack=1, game=0)
    assert totals(app, game) == {"Ann & Cy": 3, "Ben & Dee": 1}


def test_partnerships_need_four(table, app):
    ids = roster_ids(app)
    data = {"game": "pitch", "opt-partnerships": "y"}
    for seat, name in enumerate(["Ann", "Ben", "Cy"], start=1):
        data[f"seat-{ids[name]}"] = str(seat)
    response = table.post("/games/new?game=pitch", data=data)
    assert response.status_code == 422
    assert "Partnerships need exactly 4 players; 3 chosen." in response.text


def test_correct_a_hand_from_the_edit_page(table, app):
    game = start(table, app, ["Ann", "Ben", "Cy"])
    auction(table, game, 1, {1: "2", 2: "pass", 0: "pass"}, [1, 2, 0])
    points(table, game, 1, 1, high=1, low=1, jack="none", game=0)
    edit = table.get(f"/games/{game}/hands/1/edit")
    assert edit.status_code == 200
    assert re.search(r'name="call-1" value="2"\s*checked', edit.text)
    data = {
        "phase": "both",
        "order": "1,2,0",
        "call-1": "2",
        "call-2": "pass",
        "call-0": "pass",
        "pitcher_seat": "1",
        "high": "1",
        "low": "1",
        "jack": "1",
        "game": "1",
    }
    response = table.post(f"/games/{game}/hands/1", data=data)
    assert response.status_code == 302
    assert totals(app, game) == {"Ann": 0, "Ben": 4, "Cy": 0}


def test_a_lone_trump_that_was_the_jack_gives_the_pitcher_three_points(table, app):
    game = start(table, app, ["Ann", "Ben", "Cy"])
    auction(table, game, 1, {1: "3", 2: "pass", 0: "pass"}, [1, 2, 0])
    response = points(table, game, 1, 1, single_trump="y", lone_jack="y", game=2)
    assert response.status_code == 302
    assert totals(app, game) == {"Ann": 0, "Ben": 3, "Cy": 1}
