"""The table's changes stored and replayed (services.table): a change is kept by seat, in
order with the hands; a newcomer takes the next seat; every derived copy (totals, hand
results, statistics) is what a replay of the record gives; a refused change stores nothing;
corrections and removals re-derive everything after them."""

from __future__ import annotations

import pytest

from scorekeeper.errors import Refusal
from scorekeeper.extensions import db
from scorekeeper.models import Game
from scorekeeper.models import TableChange
from scorekeeper.services import games
from scorekeeper.services import table
from tests.replay_check import check_database

FOUR = ["Ann", "Ben", "Cy", "Dee"]


def hand(**said):
    return {
        "bids": {name: bid for name, (bid, _) in said.items()},
        "tricks": {name: tricks for name, (_, tricks) in said.items()},
    }


OPENING = [
    hand(Ann=(0, 0), Ben=(1, 1), Cy=(0, 0), Dee=(0, 0)),
    hand(Ann=(0, 0), Ben=(0, 0), Cy=(2, 2), Dee=(0, 0)),
    hand(Ann=(3, 3), Ben=(0, 0), Cy=(0, 0), Dee=(1, 0)),
]


@pytest.fixture
def game(app, api):
    """A four-player Oh Hell game (sequence up to 13) with three hands played."""
    state = api.post("/games", {"game": "oh_hell", "players": FOUR}).get_json()
    for number, entry in enumerate(OPENING, start=1):
        assert api.post(f"/games/{state['id']}/hands", {**entry, "number": number}).status_code
    return state["id"]


def loaded(game_id: int) -> Game:
    return db.session.get(Game, game_id)


def stats(api, name: str) -> dict:
    roster = {p["name"]: p["id"] for p in api.get("/players").get_json()["players"]}
    return api.get(f"/players/{roster[name]}/stats").get_json()["games"]["oh_hell"]


def test_a_late_join_is_stored_by_seat_and_the_joiner_plays_on(app, api, game):
    with app.app_context():
        result = table.record_change(loaded(game), {"kind": "join", "player": "Eve"}, 4)
        assert result.state.totals["Eve"] == 20
        assert result.state.players == [*FOUR, "Eve"]
        stored = db.session.scalars(db.select(TableChange)).one()
        assert (stored.before_hand, stored.body) == (4, {"kind": "join", "player": 4})
        row = loaded(game)
        assert (row.table_size, row.players, row.members) == (4, FOUR, [*FOUR, "Eve"])
    fourth = hand(Ann=(0, 0), Ben=(0, 0), Cy=(0, 0), Dee=(2, 2), Eve=(2, 2))
    answer = api.post(f"/games/{game}/hands", {**fourth, "number": 4})
    assert answer.status_code == 201, answer.text
    with app.app_context():
        state = games.played(loaded(game)).state
        assert state.totals == {"Ann": 43, "Ben": 41, "Cy": 42, "Dee": 32, "Eve": 32}
        assert loaded(game).sides == [*FOUR, "Eve"]
        assert loaded(game).totals == [43, 41, 42, 32, 32]
        assert check_database(app) == 1
    assert stats(api, "Eve")["hands"] == 1  # credited with the one hand she played
    assert stats(api, "Ann")["hands"] == 4


def test_a_refused_change_stores_nothing(app, game):
    with app.app_context():
        before = (loaded(game).version, len(loaded(game).seats))
        with pytest.raises(Refusal) as refused:
            table.record_change(loaded(game), {"kind": "leave", "player": "Zed"})
        assert refused.value.code == "not_seated"
        with pytest.raises(Refusal) as stale:
            table.record_change(loaded(game), {"kind": "join", "player": "Eve"}, 3)
        assert (stale.value.code, stale.value.status) == ("not_next_hand", 409)
        assert db.session.scalars(db.select(TableChange)).all() == []
        assert (loaded(game).version, len(loaded(game).seats)) == before


def test_a_sit_out_and_a_leave_credit_only_the_hands_played(app, api, game):
    with app.app_context():
        table.record_change(loaded(game), {"kind": "sit_out", "player": "Ben"})
    fourth = hand(Ann=(4, 4), Cy=(0, 0), Dee=(0, 0))
    assert api.post(f"/games/{game}/hands", {**fourth, "number": 4}).status_code == 201
    with app.app_context():
        result = table.record_change(loaded(game), {"kind": "leave", "player": "Ann"})
        assert result.state.left == ["Ann"]
        assert check_database(app) == 1
    assert stats(api, "Ben")["hands"] == 3
    assert stats(api, "Cy")["hands"] == 4


def test_undo_of_a_hand_after_which_the_table_changed_is_a_conflict(app, game):
    with app.app_context():
        table.record_change(loaded(game), {"kind": "adjust", "player": "Ann", "points": -5})
        with pytest.raises(Refusal) as refused:
            games.undo_last_hand(loaded(game), 3)
        assert (refused.value.code, refused.value.status) == ("conflict", 409)


def test_a_correction_and_a_removal_re_derive_what_follows(app, api, game):
    with app.app_context():
        join = table.record_change(loaded(game), {"kind": "join", "player": "Eve"})
        change_id = join.state.changes[0]["id"]
        corrected = table.correct_change(
            loaded(game), change_id, {"kind": "join", "player": "Eve", "score": "zero"}
        )
        assert corrected.state.totals["Eve"] == 0
    fourth = hand(Ann=(0, 0), Ben=(0, 0), Cy=(0, 0), Dee=(2, 2), Eve=(2, 2))
    assert api.post(f"/games/{game}/hands", {**fourth, "number": 4}).status_code == 201
    with app.app_context():
        # Eve played hand 4: her join cannot be removed any more.
        with pytest.raises(Refusal) as refused:
            table.remove_change(loaded(game), change_id)
        assert refused.value.code == "unknown_player"
        assert len(loaded(game).changes) == 1
        assert check_database(app) == 1


def test_a_change_while_a_hand_is_open_is_refused(app, api, game):
    bids = {"bids": {"Ann": 0, "Ben": 0, "Cy": 0, "Dee": 0}, "number": 4}
    assert api.post(f"/games/{game}/hands", bids).status_code == 201
    with app.app_context():
        with pytest.raises(Refusal) as refused:
            table.record_change(loaded(game), {"kind": "sit_out", "player": "Ann"})
        assert refused.value.code == "hand_in_progress"
