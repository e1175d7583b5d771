"""Oh Hell on the pages (Flask test client): set-up, bids, tricks, refusals, corrections."""

from __future__ import annotations

import html
import re

import pytest

from scorekeeper.extensions import db
from scorekeeper.models import Game
from tests.pages import game_id
from tests.pages import roster_ids
from tests.pages import start_game

THREE = ["Ann", "Ben", "Cy"]


def start(client, app, seats, dealer=None, **options):
    return start_game(client, app, "oh_hell", seats, dealer, **options)


def bids(client, game: int, number: int, values: dict[int, int], **extra):
    data = {"phase": "bids", "number": str(number), **extra}
    data.update({f"bid-{seat}": str(v) for seat, v in values.items()})
    return client.post(f"/games/{game}/hands", data=data)


def tricks(client, game: int, number: int, values: dict[int, int]):
    data = {"phase": "tricks", **{f"trick-{seat}": str(v) for seat, v in values.items()}}
    return client.post(f"/games/{game}/hands/{number}", data=data)


def test_choose_a_game_then_set_it_up(table):
    page = table.get("/games/new")
    assert "Oh Hell" in page.text
    form = table.get("/games/new?game=oh_hell")
    assert form.status_code == 200
    for text in [
        "Players and seats",
        "Cards per hand",
        "Hook",
        "Simultaneous bidding",
        "A missed bid scores",
        "Zero-bid bonus",
        "Must trump",
    ]:
        assert text in form.text


def test_seat_order_and_first_dealer_come_from_the_form(table, app):
    response = start(table, app, {"Cy": 1, "Ann": 2, "Ben": 3}, dealer="Ben", hook=True)
    assert response.status_code == 302
    game = game_id(response)
    with app.app_context():
        stored = db.session.get(Game, game)
        assert [seat.player.name for seat in stored.seats] == ["Cy", "Ann", "Ben"]
        assert stored.first_dealer == 2
        assert stored.options["hook"] is True
        assert stored.options["max_cards"] == 15
    page = table.get(f"/games/{game}")
    assert re.search(r"Hand 1 <span class=\"sub\">of 15</span>", page.text)
    assert '<span class="pill dealer">Ben deals</span>' in page.text
    assert '<span class="pill first">Cy bids first</span>' in page.text


def test_a_new_player_can_be_added_on_the_spot(table, app):
    ids = roster_ids(app)
    data = {
        "game": "oh_hell",
        f"seat-{ids['Ann']}": "1",
        f"seat-{ids['Ben']}": "2",
        "new-name-1": "Zoe",
        "new-seat-1": "3",
        "first_dealer": "new-1",
    }
    response = table.post("/games/new?game=oh_hell", data=data)
    assert response.status_code == 302
    assert "Zoe" in roster_ids(app)
    page = table.get(response.headers["Location"])
    assert '<span class="pill dealer">Zoe deals</span>' in page.text


@pytest.mark.parametrize(
    ("seats", "options", "message"),
    [
        ({"Ann": 1, "Ben": 2}, {}, "This game needs 3 to 7 players; 2 chosen."),
        ({"Ann": 1, "Ben": 1, "Cy": 2}, {}, "Ann and Ben are both in seat 1."),
        (
            {"Ann": 1, "Ben": 2, "Cy": 3},
            {"max_cards": 16},
            "Most cards in a hand must be from 1 to 15.",
        ),
    ],
)
def test_setup_refusals_keep_the_choices(table, app, seats, options, message):
    response = start(table, app, seats, hook=True, **options)
    assert response.status_code == 422
    assert message in response.text
    ids = roster_ids(app)
    assert re.search(
        rf'name="seat-{ids["Ann"]}"[^>]*>.*?<option value="1" selected', response.text, re.S
    )
    assert re.search(r'name="opt-hook" value="y" checked', response.text)
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(Game.id))) == 0


def test_bids_then_tricks_score_the_hand(table, app):
    game = game_id(start(table, app, {"Ann": 1, "Ben": 2, "Cy": 3}, sequence="down", max_cards=3))
    assert bids(table, game, 1, {0: 1, 1: 2, 2: 0}).status_code == 302
    page = table.get(f"/games/{game}")
    # The tricks form reminds the table who bid what, and the bids' balance.
    assert "Bids 3 for 3 (even)" in page.text
    assert re.search(
        r'data-player="Ann" data-bid="1">.*?<span class="pill bid">bid 1</span>', page.text, re.S
    )
    assert tricks(table, game, 1, {0: 1, 1: 1, 2: 1}).status_code == 302
    page = table.get(f"/games/{game}")
    assert re.search(r"Hand 2 <span class=\"sub\">of 3</span>", page.text)
    with app.app_context():
        stored = db.session.get(Game, game)
        assert stored.totals_by_side == {"Ann": 11, "Ben": 0, "Cy": 0}
    assert 'class="missed"' in page.text and 'class="made"' in page.text


def test_the_hook_is_shown_before_the_dealer_bids_and_enforced(table, app):
    game = game_id(
        start(
            table,
            app,
            {"Ann": 1, "Ben": 2, "Cy": 3, "Dee": 4},
            sequence="down",
            max_cards=5,
            hook=True,
        )
    )
    # Ann deals hand 1 (5 cards); others bid 1 + 2 + 0 first.
    assert bids(table, game, 1, {1: 1, 2: 2, 3: 0}).status_code == 302
    page = table.get(f"/games/{game}")
    assert "Ann may not bid 2 (the hook)." in page.text
    assert re.search(
        r'class="chip forbidden">\s*<input type="radio" name="bid-0" value="2"\s*disabled',
        page.text,
    )
    response = table.post(f"/games/{game}/hands/1", data={"phase": "bids", "bid-0": "2"})
    assert response.status_code == 422
    assert "Ann is the dealer and may not bid 2: the bids would total the 5 cards." in response.text


def test_tricks_that_do_not_add_up_are_refused_and_kept(table, app):
    game = game_id(start(table, app, {"Ann": 1, "Ben": 2, "Cy": 3}, sequence="down", max_cards=3))
    bids(table, game, 1, {0: 1, 1: 1, 2: 0})
    response = tricks(table, game, 1, {0: 2, 1: 2, 2: 0})
    assert response.status_code == 422
    assert "Tricks add up to 4 but 3 cards were dealt." in response.text
    assert re.search(r'name="trick-0" value="2"\s*checked', response.text)
    assert re.search(r'name="trick-1" value="2"\s*checked', response.text)
    missing = table.post(f"/games/{game}/hands/1", data={"phase": "tricks", "trick-0": "3"})
    assert missing.status_code == 422
    assert "Enter the tricks for Ben." in missing.text


def test_a_double_tap_records_the_hand_once(table, app):
    game = game_id(start(table, app, {"Ann": 1, "Ben": 2, "Cy": 3}))
    assert bids(table, game, 1, {0: 1, 1: 0, 2: 0}).status_code == 302
    again = bids(table, game, 1, {0: 1, 1: 0, 2: 0})
    assert again.status_code == 302
    page = table.get(f"/games/{game}")
    assert "Hand 1 is already recorded" in page.text
    assert tricks(table, game, 1, {0: 1, 1: 0, 2: 0}).status_code == 302
    repeat = tricks(table, game, 1, {0: 1, 1: 0, 2: 0})
    assert repeat.status_code == 302
    assert "Hand 1 is already complete" in table.get(f"/games/{game}").text
    with app.app_context():
        assert db.session.get(Game, game).hand_count == 1


def test_correct_an_earlier_hand_and_undo_the_last(table, app):
    game = game_id(start(table, app, {"Ann": 1, "Ben": 2, "Cy": 3}))
    bids(table, game, 1, {0: 1, 1: 0, 2: 0})
    tricks(table, game, 1, {0: 1, 1: 0, 2: 0})
    bids(table, game, 2, {0: 0, 1: 0, 2: 1})
    tricks(table, game, 2, {0: 0, 1: 1, 2: 1})
    edit = table.get(f"/games/{game}/hands/1/edit")
    assert "Correct hand 1" in edit.text
    bad = table.post(
        f"/games/{game}/hands/1",
        data={
            "phase": "both",
            "bid-0": "1",
            "bid-1": "0",
            "bid-2": "0",
            "trick-0": "1",
            "trick-1": "1",
            "trick-2": "0",
        },
    )
    assert bad.status_code == 422
    assert "Tricks add up to 2 but 1 card was dealt." in bad.text
    fixed = table.post(
        f"/games/{game}/hands/1",
        data={
            "phase": "both",
            "bid-0": "1",
            "bid-1": "0",
            "bid-2": "0",
            "trick-0": "0",
            "trick-1": "1",
            "trick-2": "0",
        },
        follow_redirects=True,
    )
    assert "Hand 1 corrected; later hands re-scored." in fixed.text
    with app.app_context():
        assert db.session.get(Game, game).totals_by_side == {"Ann": 10, "Ben": 0, "Cy": 21}
    undone = table.post(f"/games/{game}/hands/2/undo", follow_redirects=True)
    assert "Hand 2 removed." in undone.text
    with app.app_context():
        assert db.session.get(Game, game).hand_count == 1


def test_a_finished_game_shows_the_winner_and_is_read_only(table, app):
    game = game_id(start(table, app, {"Ann": 1, "Ben": 2, "Cy": 3}, sequence="down", max_cards=1))
    bids(table, game, 1, {0: 0, 1: 1, 2: 0})
    page = tricks(table, game, 1, {0: 0, 1: 1, 2: 0})
    page = table.get(f"/games/{game}")
    assert "Final standings" in page.text
    assert "Ben wins!" in page.text
    assert "Reopen to correct a hand" in page.text
    assert "/hands/1/edit" not in page.text
    refused = bids(table, game, 2, {0: 0, 1: 0, 2: 0})
    assert refused.status_code == 422
    assert "This game is over. Reopen it first to correct a hand." in refused.text
    reopened = table.post(f"/games/{game}/reopen", follow_redirects=True)
    assert "Game reopened" in reopened.text
    assert "/hands/1/edit" in reopened.text


def test_another_account_gets_404_for_game_pages(table, app):
    from tests.conftest import signup

    game = game_id(start(table, app, {"Ann": 1, "Ben": 2, "Cy": 3}))
    other = app.test_client()
    signup(other, "other-table")
    assert other.get(f"/games/{game}").status_code == 404
    assert bids(other, game, 1, {0: 0, 1: 0, 2: 0}).status_code == 404
    assert other.post(f"/games/{game}/hands/1/undo").status_code == 404
    assert other.get(f"/games/{game}/hands/1/edit").status_code == 404
    assert "Ann" not in other.get("/games/").text


def test_the_app_can_pick_the_first_dealer_at_random(table, app):
    ids = roster_ids(app)
    data = {"game": "oh_hell", "first_dealer": "random"}
    for seat, name in enumerate(["Ann", "Ben", "Cy"], start=1):
        data[f"seat-{ids[name]}"] = str(seat)
    dealers = set()
    for _ in range(12):
        response = table.post("/games/new?game=oh_hell", data=data, follow_redirects=True)
        found = re.search(r"(\w+) deals first \(picked at random\)\.", response.text)
        assert found, response.text
        assert f'<span class="pill dealer">{found.group(1)} deals</span>' in response.text
        dealers.add(found.group(1))
    assert dealers <= {"Ann", "Ben", "Cy"}
    assert len(dealers) > 1  # 12 draws from 3 seats: all the same has odds of 1 in 177,147


@pytest.mark.parametrize(
    ("seats", "options", "form", "message"),
    [
        ({"Ann": 1, "Ben": 2, "Cy": 3}, {}, {"bid-0": "2"}, "Ann's bid must be from 0 to 1."),
        ({"Ann": 1, "Ben": 2, "Cy": 3}, {}, {"bid-0": "x"}, "Ann's bid must be a whole number."),
        (
            {"Ann": 1, "Ben": 2, "Cy": 3, "Dee": 4},
            {"sequence": "down"},
            {"bid-0": "0", "bid-1": "0", "bid-2": "0", "bid-3": "0", "trump": "hearts"},
            "All 52 cards are dealt in a 13-card hand, so there is no trump.",
        ),
        (
            {"Ann": 1, "Ben": 2, "Cy": 3},
            {"simultaneous": True, "hook": True},
            {"bid-0": "1", "bid-1": "0", "bid-2": "0"},
            "The bids add up to the 1 card dealt, which the hook forbids: "
            "the table must bid again.",
        ),
        ({"Ann": 1, "Ben": 2, "Cy": 3}, {}, {}, "Enter a bid for every player."),
    ],
)
def test_every_bid_refusal_is_shown_and_nothing_is_saved(table, app, seats, options, form, message):
    game = game_id(start(table, app, seats, **options))
    response = table.post(f"/games/{game}/hands", data={"phase": "bids", "number": "1", **form})
    assert response.status_code in (400, 422)
    assert message in html.unescape(response.text)
    with app.app_context():
        assert db.session.get(Game, game).hand_count == 0


def test_a_game_started_from_a_night_belongs_to_it(table, app, account):
    from datetime import date

    from scorekeeper.models import Night

    with app.app_context():
        night = Night(account_id=account.id, date=date(2026, 11, 27), name="Friday")
        db.session.add(night)
        db.session.commit()
        night_id = night.id
    choose = table.get(f"/games/new?night={night_id}")
    assert f"/games/new?game=oh_hell&amp;night={night_id}" in choose.text
    form = table.get(f"/games/new?game=oh_hell&night={night_id}")
    assert "Part of the night of Friday, 27 November 2026: Friday." in form.text
    ids = roster_ids(app)
    data = {"game": "oh_hell", **{f"seat-{ids[n]}": str(i) for i, n in enumerate(THREE, 1)}}
    response = table.post(f"/games/new?game=oh_hell&night={night_id}", data=data)
    with app.app_context():
        assert db.session.get(Game, game_id(response)).night_id == night_id
    assert table.get(f"/games/new?game=oh_hell&night={night_id + 1}").status_code == 404


def test_a_long_game_s_page_shows_the_latest_hands_and_a_link_to_all(app, table, api):
    state = api.post(
        "/games",
        {"game": "oh_hell", "players": ["Ann", "Ben", "Cy"],
         "options": {"sequence": "custom", "custom_sizes": [1] * 30}},
    ).get_json()  # fmt: skip
    said = {"Ann": 1, "Ben": 0, "Cy": 0}
    for number in range(1, 30):  # 29 of the 30 hands: the game is still open
        api.post(f"/games/{state['id']}/hands", {"bids": said, "tricks": said, "number": number})
    page = table.get(f"/games/{state['id']}").text
    shown = [int(n) for n in re.findall(r'aria-label="Correct hand (\d+) ', page)]
    assert shown == list(range(6, 30))
    assert "Show hands 1 to 5 too" in page
    every = table.get(f"/games/{state['id']}?sheet=all").text
    every_shown = [int(n) for n in re.findall(r'aria-label="Correct hand (\d+) ', every)]
    assert every_shown == list(range(1, 30))
