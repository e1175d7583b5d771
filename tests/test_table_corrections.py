"""The mistakes a real table makes, put right: a seat given to the wrong player, the first
dealer chosen wrongly, a game to delete or to abandon; pages and API."""

from __future__ import annotations

import re

from scorekeeper.extensions import db
from scorekeeper.models import Game
from scorekeeper.models import HandResult
from tests.pages import game_id
from tests.pages import roster_ids
from tests.pages import start_game

HAND = {"bids": {"Ann": 1, "Ben": 0, "Cy": 0}, "tricks": {"Ann": 1, "Ben": 0, "Cy": 0}}


def new_game(api, players=("Ann", "Ben", "Cy"), **options) -> dict:
    body = {"game": "oh_hell", "players": list(players), "options": options}
    return api.post("/games", body).get_json()


def test_a_wrong_player_is_replaced_and_keeps_the_seat_s_entries(api):
    state = new_game(api)
    api.post(f"/games/{state['id']}/hands", {**HAND, "number": 1})
    fixed = api.patch(f"/games/{state['id']}", {"players": ["Ann", "Dee", "Cy"]})
    assert fixed.status_code == 200, fixed.text
    answer = fixed.get_json()
    assert answer["players"] == ["Ann", "Dee", "Cy"]
    assert answer["hands"][0]["input"]["bids"] == {"Ann": 1, "Dee": 0, "Cy": 0}
    assert answer["totals"] == {"Ann": 11, "Dee": 10, "Cy": 10}
    roster = {p["name"]: p["id"] for p in api.get("/players").get_json()["players"]}
    ben = api.get(f"/players/{roster['Ben']}/stats").get_json()["games"]["oh_hell"]
    dee = api.get(f"/players/{roster['Dee']}/stats").get_json()["games"]["oh_hell"]
    assert (ben["in_progress"], ben["hands"]) == (0, 0)  # Ben's part moved to Dee
    assert (dee["in_progress"], dee["hands"], dee["points_total"]) == (1, 1, 10)


def test_reordered_players_keep_what_was_entered_for_them(api):
    state = new_game(api)
    api.post(f"/games/{state['id']}/hands", {**HAND, "number": 1})
    answer = api.patch(f"/games/{state['id']}", {"players": ["Cy", "Ben", "Ann"]}).get_json()
    assert answer["players"] == ["Cy", "Ben", "Ann"]
    assert answer["hands"][0]["input"]["tricks"] == {"Cy": 0, "Ben": 0, "Ann": 1}
    assert answer["hands"][0]["dealer"] == "Cy"  # seat 1 dealt, and Cy sat there
    assert answer["totals"] == {"Cy": 10, "Ben": 10, "Ann": 11}
    # As stored: read again, each hand still gives Ann what she bid and took.
    again = api.get(f"/games/{state['id']}").get_json()
    assert again["hands"][0]["input"]["tricks"] == {"Cy": 0, "Ben": 0, "Ann": 1}
    assert again["totals"] == {"Cy": 10, "Ben": 10, "Ann": 11}


def test_a_first_dealer_the_rules_then_refuse_changes_nothing(api):
    body = {"game": "pitch", "players": ["Ann", "Ben", "Cy"]}
    state = api.post("/games", body).get_json()
    # Ann deals hand 1: Ben, Cy, then Ann bid. With Ben dealing, Cy would have bid first.
    sent = {"auction": [["Ben", 2], ["Cy", "pass"], ["Ann", "pass"]], "high": "Ben", "low": "Ben"}
    assert api.post(f"/games/{state['id']}/hands", sent).status_code == 201
    refused = api.patch(f"/games/{state['id']}", {"first_dealer": "Ben"})
    assert refused.status_code == 422
    error = refused.get_json()["errors"][0]
    assert error["code"] == "bid_invalid" and error["message"].startswith("Hand 1")
    after = api.get(f"/games/{state['id']}").get_json()
    assert after["hands"][0]["dealer"] == "Ann" and after["totals"] == {"Ann": 0, "Ben": 2, "Cy": 0}


def test_a_table_of_another_size_is_refused(api):
    state = new_game(api)
    refused = api.patch(f"/games/{state['id']}", {"players": ["Ann", "Ben"]})
    assert refused.status_code == 422 and refused.get_json()["errors"][0]["code"] == "player_count"


def test_correcting_the_table_on_the_page(app, table, api):
    game = game_id(start_game(table, app, "oh_hell", {"Ann": 1, "Ben": 2, "Cy": 3}))
    api.post(f"/games/{game}/hands", {**HAND, "number": 1})
    page = table.get(f"/games/{game}/table")
    assert page.status_code == 200 and "Correct the table" in page.text
    ids = roster_ids(app)
    answer = table.post(
        f"/games/{game}/table",
        data={"seat-0": ids["Ann"], "seat-1": ids["Dee"], "seat-2": ids["Cy"], "first_dealer": "1"},
        follow_redirects=True,
    )
    assert "Table corrected" in answer.text
    assert '<span class="pill dealer">Cy deals</span>' in answer.text  # hand 2: after Dee
    state = api.get(f"/games/{game}").get_json()
    assert state["players"] == ["Ann", "Dee", "Cy"] and state["hands"][0]["dealer"] == "Dee"
    twice = table.post(
        f"/games/{game}/table",
        data={"seat-0": ids["Ann"], "seat-1": ids["Ann"], "seat-2": ids["Cy"], "first_dealer": "0"},
    )
    assert twice.status_code == 422 and "only once" in twice.text


def test_delete_asks_first_then_removes_everything(app, table, api):
    game = game_id(start_game(table, app, "oh_hell", {"Ann": 1, "Ben": 2, "Cy": 3}))
    api.post(f"/games/{game}/hands", {**HAND, "number": 1})
    ask = table.get(f"/games/{game}/delete")
    assert "cannot be undone" in ask.text
    with app.app_context():
        assert db.session.get(Game, game) is not None
    done = table.post(f"/games/{game}/delete", follow_redirects=True)
    assert "deleted" in done.text
    with app.app_context():
        assert db.session.get(Game, game) is None
        assert db.session.scalar(db.select(db.func.count()).select_from(HandResult)) == 0
    ann = next(p for p in api.get("/players").get_json()["players"] if p["name"] == "Ann")
    figures = api.get(f"/players/{ann['id']}/stats").get_json()["games"]["oh_hell"]
    assert (figures["in_progress"], figures["hands"]) == (0, 0)
    assert table.get(f"/games/{game}").status_code == 404
    state = new_game(api)
    assert api.delete(f"/games/{state['id']}").status_code == 204
    assert api.get(f"/games/{state['id']}").status_code == 404


def test_an_abandoned_game_leaves_in_progress_and_stays_in_history(app, table, api):
    state = new_game(api)
    api.post(f"/games/{state['id']}/hands", {**HAND, "number": 1})
    answer = api.post(f"/games/{state['id']}/abandon")
    assert answer.status_code == 200 and answer.get_json()["status"] == "abandoned"
    home = table.get("/").text
    assert f"/games/{state['id']}" not in home  # no longer among the games in progress
    listed = api.get("/games").get_json()["games"][0]
    assert listed["status"] == "abandoned"
    refused = api.post(f"/games/{state['id']}/hands", {**HAND, "number": 2})
    assert refused.status_code == 422 and "abandoned" in refused.get_json()["errors"][0]["message"]
    page = table.get(f"/games/{state['id']}").text
    assert "This game was abandoned" in page and re.search(r"Resume the game", page)
    ann = next(p for p in api.get("/players").get_json()["players"] if p["name"] == "Ann")
    figures = api.get(f"/players/{ann['id']}/stats").get_json()["games"]["oh_hell"]
    assert (figures["in_progress"], figures["played"], figures["hands"]) == (0, 0, 1)
    assert api.post(f"/games/{state['id']}/resume").get_json()["status"] == "in_progress"


def test_undo_without_javascript_asks_on_its_own_page(app, table, api):
    game = game_id(start_game(table, app, "oh_hell", {"Ann": 1, "Ben": 2, "Cy": 3}))
    api.post(f"/games/{game}/hands", {**HAND, "number": 1})
    page = table.get(f"/games/{game}").text
    assert f'href="/games/{game}/hands/1/undo"' in page
    ask = table.get(f"/games/{game}/hands/1/undo")
    assert ask.status_code == 200 and "Undo hand 1?" in ask.text
    table.post(f"/games/{game}/hands/1/undo")
    assert api.get(f"/games/{game}").get_json()["hands"] == []


def test_the_table_offers_no_archived_player_but_keeps_one_who_sits_there(app, table, api):
    """Dee is archived (she no longer comes): the correction does not offer her, and a seat
    given to her anyway is refused; Ben, archived after he played, still has his seat."""
    game = game_id(start_game(table, app, "oh_hell", {"Ann": 1, "Ben": 2, "Cy": 3}))
    ids = roster_ids(app)
    table.post(f"/players/{ids['Dee']}/archive")
    table.post(f"/players/{ids['Ben']}/archive")
    page = table.get(f"/games/{game}/table").text
    assert f'value="{ids["Dee"]}"' not in page
    assert f'value="{ids["Ben"]}"' in page
    answer = table.post(
        f"/games/{game}/table",
        data={"seat-0": ids["Ann"], "seat-1": ids["Dee"], "seat-2": ids["Cy"], "first_dealer": "0"},
    )
    assert answer.status_code == 422
    assert "Choose a player for every seat." in answer.text
    assert api.get(f"/games/{game}").get_json()["players"] == ["Ann", "Ben", "Cy"]


def test_the_game_page_downloads_its_csv_once_a_hand_is_in(app, table, api):
    game = game_id(start_game(table, app, "oh_hell", {"Ann": 1, "Ben": 2, "Cy": 3}))
    link = f'href="/games/{game}/sheet.csv" download'
    assert link not in table.get(f"/games/{game}").text  # nothing to download yet
    api.post(f"/games/{game}/hands", {**HAND, "number": 1})
    page = table.get(f"/games/{game}").text
    assert link in page
    sheet = table.get(f"/games/{game}/sheet.csv")
    assert sheet.status_code == 200 and sheet.mimetype == "text/csv"
