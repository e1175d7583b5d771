"""The roster page: add, rename, archive, restore; every refusal keeps what was typed."""

from __future__ import annotations

import pytest

from scorekeeper.extensions import db
from scorekeeper.models import Player
from tests.conftest import login
from tests.conftest import signup


def names(app, active: bool = True) -> list[str]:
    with app.app_context():
        rows = db.session.scalars(db.select(Player).where(Player.archived == (not active)))
        return sorted(player.name for player in rows)


def player_named(app, name: str) -> Player:
    with app.app_context():
        player = db.session.scalar(db.select(Player).where(Player.name_key == name.casefold()))
        db.session.expunge(player)
        return player


def test_adding_a_player_trims_the_name(app, logged_in):
    response = logged_in.post("/players/", data={"name": "  Ann   Lee "}, follow_redirects=True)
    assert response.status_code == 200
    assert "Ann Lee added." in response.text
    assert names(app) == ["Ann Lee"]


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("   ", "Enter a name."),
        ("x" * 41, "A name can be at most 40 characters (41 given)."),
    ],
)
def test_bad_names_are_refused_with_the_reason(app, logged_in, typed, message):
    response = logged_in.post("/players/", data={"name": typed})
    assert response.status_code == 422
    assert message in response.text
    if typed.strip():
        assert f'value="{typed}"' in response.text
    assert names(app) == []


def test_names_are_unique_ignoring_case(app, logged_in):
    logged_in.post("/players/", data={"name": "Ann"})
    response = logged_in.post("/players/", data={"name": "aNN"})
    assert response.status_code == 422
    assert "There is already a player called Ann." in response.text
    assert 'value="aNN"' in response.text
    assert names(app) == ["Ann"]


def test_rename_keeps_the_player_and_refuses_a_taken_name(app, logged_in):
    logged_in.post("/players/", data={"name": "Ann"})
    logged_in.post("/players/", data={"name": "Ben"})
    ann = player_named(app, "Ann")
    page = logged_in.get(f"/players/{ann.id}/rename")
    assert 'value="Ann"' in page.text
    response = logged_in.post(f"/players/{ann.id}/rename", data={"name": "ben"})
    assert response.status_code == 422
    assert "There is already a player called Ben." in response.text
    assert 'value="ben"' in response.text
    response = logged_in.post(
        f"/players/{ann.id}/rename", data={"name": "Annie"}, follow_redirects=True
    )
    assert "Ann is now Annie." in response.text
    assert player_named(app, "Annie").id == ann.id


def test_renaming_to_another_case_of_the_same_name_is_allowed(app, logged_in):
    logged_in.post("/players/", data={"name": "ann"})
    ann = player_named(app, "ann")
    response = logged_in.post(f"/players/{ann.id}/rename", data={"name": "Ann"})
    assert response.status_code == 302
    assert names(app) == ["Ann"]


def test_archive_and_restore(app, logged_in):
    logged_in.post("/players/", data={"name": "Ann"})
    ann = player_named(app, "ann")
    page = logged_in.post(f"/players/{ann.id}/archive", follow_redirects=True)
    assert "Ann archived." in page.text
    assert "Archived" in page.text
    assert names(app, active=False) == ["Ann"]
    response = logged_in.post("/players/", data={"name": "ann"})
    assert "There is already a player called Ann (archived: restore them instead)." in response.text
    page = logged_in.post(f"/players/{ann.id}/restore", follow_redirects=True)
    assert "Ann restored." in page.text
    assert names(app) == ["Ann"]


def test_another_account_can_neither_see_nor_change_a_player(app, logged_in):
    logged_in.post("/players/", data={"name": "Ann"})
    ann = player_named(app, "ann")
    other = app.test_client()
    signup(other, "other-table")
    assert "Ann" not in other.get("/players/").text
    assert other.get(f"/players/{ann.id}/rename").status_code == 404
    assert other.post(f"/players/{ann.id}/rename", data={"name": "Hacked"}).status_code == 404
    assert other.post(f"/players/{ann.id}/archive").status_code == 404
    assert player_named(app, "Ann").archived is False


def test_forms_need_a_csrf_token(make_app, account):
    app = make_app(WTF_CSRF_ENABLED=True)
    client = app.test_client()
    page = client.get("/login")
    assert 'name="csrf_token"' in page.text
    response = login(client)
    assert response.status_code == 400
    assert "This form was out of date." in response.text


def test_names_sort_in_the_reader_s_alphabet(logged_in):
    for name in ("Zoë", "Élodie", "ben", "Anna", "Eve"):
        logged_in.post("/players/", data={"name": name})
    page = logged_in.get("/players/").text
    order = [name for name in ("Anna", "ben", "Élodie", "Eve", "Zoë") if name in page]
    positions = [page.index(f">{name}<") for name in order]
    assert positions == sorted(positions), order


def test_a_new_game_spells_each_player_as_the_roster_does(api):
    """ "ann" typed for a game is the roster's Ann: the game, its seats and its statistics all
    say Ann (a stateful schemathesis sequence found a 500 when the spellings differed)."""
    assert api.post("/players", {"name": "Ann"}).status_code == 201
    answer = api.post("/games", {"game": "pitch", "players": ["ann", "Ben", "Cy"]})
    assert answer.status_code == 201, answer.text
    assert answer.get_json()["players"] == ["Ann", "Ben", "Cy"]
    game = answer.get_json()["id"]
    assert api.get(f"/games/{game}").get_json()["players"] == ["Ann", "Ben", "Cy"]
