"""Play again through the JSON API: ``POST /api/v1/games/<id>/again`` makes the finished
game's table once more (201, the new game's state), answers the same game to a second call
before a hand, refuses a game not finished (422 not_finished) and another account's (404).
Every answer is checked against the OpenAPI document (the ``api`` client does it)."""

from __future__ import annotations

from tests.test_play_again import FOUR
from tests.test_play_again import finished_oh_hell
from tests.test_play_again import finished_pitch


def test_the_api_plays_again(app, api):
    old = finished_oh_hell(api)
    response = api.post(f"/games/{old['id']}/again")
    assert response.status_code == 201, response.text
    state = response.get_json()
    assert (state["players"], state["options"]) == (old["players"], old["options"])
    assert state["next"]["dealer"] == "Ann"
    # Sent again before a hand: the same game.
    assert api.post(f"/games/{old['id']}/again").get_json()["id"] == state["id"]
    refused = api.post(f"/games/{state['id']}/again")
    assert refused.status_code == 422
    assert [e["code"] for e in refused.get_json()["errors"]] == ["not_finished"]


def test_a_player_archived_since_is_refused_by_name(app, api):
    old = finished_pitch(api)
    cy = next(p for p in api.get("/players").get_json()["players"] if p["name"] == "Cy")
    api.patch(f"/players/{cy['id']}", {"archived": True})
    refused = api.post(f"/games/{old['id']}/again")
    assert refused.status_code == 422
    (error,) = refused.get_json()["errors"]
    assert (error["code"], error["field"]) == ("unknown_player", "players")
    assert error["message"].startswith("Cy is no longer on the roster (archived)")
    assert len(api.get("/games").get_json()["games"]) == 1


def test_another_accounts_game_is_not_found(api, other_api):
    theirs = other_api.post(
        "/games", {"game": "score_pad", "players": FOUR, "options": {"name": "Darts"}}
    ).get_json()
    other_api.post(f"/games/{theirs['id']}/hands", {"number": 1, "points": {"Ann": 1}})
    other_api.post(f"/games/{theirs['id']}/close")
    assert api.post(f"/games/{theirs['id']}/again").status_code == 404
