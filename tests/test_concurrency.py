"""Two phones at one game: a change made from a copy of the game that another request has
changed since is refused (409) and leaves nothing half-saved."""

from __future__ import annotations

import pytest

from scorekeeper.errors import Refusal
from scorekeeper.extensions import db
from scorekeeper.models import Account
from scorekeeper.models import Game
from scorekeeper.services import games
from tests.conftest import Api
from tests.pages import game_id
from tests.pages import start_game

HAND = {"bids": {"Ann": 1, "Ben": 0, "Cy": 0}, "tricks": {"Ann": 1, "Ben": 0, "Cy": 0}}


@pytest.fixture
def other_phone(make_app, api):
    """An API client on a second app of the same database: its requests have their own
    sessions, as another gunicorn worker's would."""
    return Api(make_app().test_client(), api.token)


def new_oh_hell(api) -> int:
    return api.post("/games", {"game": "oh_hell", "players": ["Ann", "Ben", "Cy"]}).get_json()["id"]


def test_a_hand_recorded_from_a_stale_copy_meets_a_conflict(app, api, account, other_phone):
    game_id_ = new_oh_hell(api)
    with app.app_context():
        acct = db.session.get(Account, account.id)
        stale = games.get_game(acct, game_id_)  # this session's copy, version as read now
        # Meanwhile another phone records hand 1 (its own request, its own session).
        sent = {**HAND, "number": 1}
        assert other_phone.post(f"/games/{game_id_}/hands", sent).status_code == 201
        with pytest.raises(Refusal) as refused:
            games.record_hand(stale, HAND)  # this copy believes hand 1 comes next
        assert refused.value.status == 409
        assert refused.value.code == "not_next_hand"
    state = api.get(f"/games/{game_id_}").get_json()
    assert [hand["number"] for hand in state["hands"]] == [1]
    assert state["totals"] == {"Ann": 11, "Ben": 10, "Cy": 10}


def test_a_correction_made_from_a_stale_copy_meets_a_conflict(app, api, account, other_phone):
    game_id_ = new_oh_hell(api)
    assert api.post(f"/games/{game_id_}/hands", {**HAND, "number": 1}).status_code == 201
    with app.app_context():
        acct = db.session.get(Account, account.id)
        stale = games.get_game(acct, game_id_)
        second = {"bids": {"Ann": 2, "Ben": 0, "Cy": 0}, "tricks": {"Ann": 2, "Ben": 0, "Cy": 0}}
        sent = {**second, "number": 2}
        assert other_phone.post(f"/games/{game_id_}/hands", sent).status_code == 201
        corrected = {"bids": {"Ann": 0, "Ben": 1, "Cy": 0}, "tricks": {"Ann": 0, "Ben": 1, "Cy": 0}}
        with pytest.raises(Refusal) as refused:
            games.update_hand(stale, 1, corrected, replace=True)
        assert (refused.value.status, refused.value.code) == (409, "conflict")
    state = api.get(f"/games/{game_id_}").get_json()
    assert state["hands"][0]["input"]["bids"] == HAND["bids"]  # the correction left no trace
    assert len(state["hands"]) == 2


def test_a_pitch_hand_sent_twice_is_recorded_once(app, table, api):
    game = game_id(start_game(table, app, "pitch", {"Ann": 1, "Ben": 2, "Cy": 3}))
    form = {"number": "1", "phase": "auction", "quick": "1", "pitcher": "0", "bid": "2"}
    assert table.post(f"/games/{game}/hands", data=form).status_code == 302
    again = table.post(f"/games/{game}/hands", data=form, follow_redirects=True)
    assert "Hand 1 is already recorded" in again.text
    points = {"phase": "points", "pitcher_seat": "0", "high": "0", "low": "1", "game": "2"}
    assert table.post(f"/games/{game}/hands/1", data=points).status_code == 302
    twice = table.post(f"/games/{game}/hands/1", data=points, follow_redirects=True)
    assert "Hand 1 is already complete" in twice.text
    state = api.get(f"/games/{game}").get_json()
    # Ann pitched 2 and took High only: set back.
    assert len(state["hands"]) == 1 and state["totals"] == {"Ann": -2, "Ben": 1, "Cy": 1}
    resent = api.post(f"/games/{game}/hands", {"pitcher": "Ben", "bid": 2, "number": 1})
    assert resent.status_code == 409
    assert resent.get_json()["errors"][0]["code"] == "not_next_hand"
    assert len(api.get(f"/games/{game}").get_json()["hands"]) == 1


def test_a_next_hand_recorded_after_another_phone_corrected_one_meets_a_conflict(
    app, api, account, other_phone
):
    """The stale copy's next hand is still the next one, only the game's version moved (a
    correction of hand 1 on another phone): the game's row, written by its own UPDATE
    (results.store), is checked against the version read, and nothing of the save is kept."""
    game_id_ = new_oh_hell(api)
    assert api.post(f"/games/{game_id_}/hands", {**HAND, "number": 1}).status_code == 201
    with app.app_context():
        acct = db.session.get(Account, account.id)
        stale = games.get_game(acct, game_id_)
        read_at = stale.version
        corrected = {"bids": {"Ann": 0, "Ben": 1, "Cy": 0}, "tricks": {"Ann": 0, "Ben": 1, "Cy": 0}}
        assert other_phone.patch(f"/games/{game_id_}/hands/1", corrected).status_code == 200
        second = {"bids": {"Ann": 2, "Ben": 0, "Cy": 0}, "tricks": {"Ann": 2, "Ben": 0, "Cy": 0}}
        with pytest.raises(Refusal) as refused:
            games.record_hand(stale, second)
        assert (refused.value.status, refused.value.code) == (409, "conflict")
    state = api.get(f"/games/{game_id_}").get_json()
    assert len(state["hands"]) == 1 and state["hands"][0]["input"]["bids"] == corrected["bids"]
    assert state["totals"] == {"Ann": 10, "Ben": 11, "Cy": 10}
    with app.app_context():
        assert db.session.get(Game, game_id_).version == read_at + 1  # the correction's only
    # The game goes on from the other phone's version: the same hand is taken now.
    assert api.post(f"/games/{game_id_}/hands", {**second, "number": 2}).status_code == 201


def test_each_save_moves_the_games_version_by_one(app, api):
    game_id_ = new_oh_hell(api)

    def version() -> int:
        with app.app_context():
            return db.session.get(Game, game_id_).version

    versions = [version()]
    for number in (1, 2):
        hand = {
            "bids": {"Ann": number, "Ben": 0, "Cy": 0},
            "tricks": {"Ann": number, "Ben": 0, "Cy": 0},
        }
        assert api.post(f"/games/{game_id_}/hands", {**hand, "number": number}).status_code == 201
        versions.append(version())
    assert versions == [versions[0], versions[0] + 1, versions[0] + 2]
