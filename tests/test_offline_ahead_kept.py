"""The steps ahead (``ahead.json``) made once per game version, reader and language: kept in
the process (``offline_rules.ahead_kept``), with a weak ETag, a 304 for a phone that asks
again for a game that has not moved, and never another reader's or language's answer."""

from __future__ import annotations

import pytest

from scorekeeper.views import offline_rules
from tests.conftest import login
from tests.conftest import make_account
from tests.test_offline_save import bid_form
from tests.test_offline_save import server_state
from tests.test_offline_save import seven_at_the_table


@pytest.fixture(autouse=True)
def none_kept(app):
    """The tests' app serves test after test (its database emptied): nothing kept before."""
    app.extensions.pop("sk_ahead_kept", None)


def kept(app):
    with app.app_context():
        found = offline_rules.ahead_kept()
        return found.computed, found.hits


def save_bids(client, app, game: int) -> None:
    """Hand 1's bids, saved: the game moves on (its version too)."""
    response = client.post(f"/games/{game}/hands", data=bid_form(server_state(app, game), 1))
    assert response.status_code in (200, 302, 303), response.status_code


def test_the_same_version_is_made_once_and_a_304_after(table, app):
    game = seven_at_the_table(table, app)
    url = f"/offline/play/{game}/ahead.json"
    first = table.get(url)
    assert first.status_code == 200
    tag = first.headers["ETag"]
    assert tag.startswith('W/"')
    assert "private" in first.headers["Cache-Control"]
    assert "no-cache" in first.headers["Cache-Control"]
    assert kept(app) == (1, 0)
    again = table.get(url)  # asked again without the tag: the kept answer, not made again
    assert again.status_code == 200
    assert again.data == first.data
    assert again.headers["ETag"] == tag
    assert kept(app) == (1, 1)
    unchanged = table.get(url, headers={"If-None-Match": tag})
    assert unchanged.status_code == 304
    assert unchanged.data == b""
    assert kept(app) == (1, 1)  # a 304 reads nothing kept, makes nothing
    assert first.get_json()["more"] is False  # 7 hands, the game ends within the steps made


def test_a_moved_game_is_made_again_with_a_new_tag(table, app):
    game = seven_at_the_table(table, app)
    url = f"/offline/play/{game}/ahead.json"
    first = table.get(url)
    save_bids(table, app, game)
    moved = table.get(url, headers={"If-None-Match": first.headers["ETag"]})
    assert moved.status_code == 200
    assert moved.headers["ETag"] != first.headers["ETag"]
    assert moved.get_json()["version"] > first.get_json()["version"]
    assert moved.get_json()["now"] == "1:0"
    assert kept(app) == (2, 0)
    needs = table.get(f"/offline/play/{game}.json").get_json()["needs"]
    assert needs == {"step": "1:0", "back": "0:0", "scored": []}
    assert needs["step"] in moved.get_json()["steps"]
    assert needs["back"] in moved.get_json()["steps"]


def test_another_language_is_never_handed_the_kept_answer(table, app):
    game = seven_at_the_table(table, app)
    url = f"/offline/play/{game}/ahead.json"
    english = table.get(url)
    table.set_cookie("lang", "bn")
    bengali = table.get(url)
    assert bengali.status_code == 200
    assert bengali.headers["ETag"] != english.headers["ETag"]
    assert bengali.data != english.data
    assert kept(app) == (2, 0)
    # The English tag from the Bengali reader: no 304, the Bengali answer.
    asked = table.get(url, headers={"If-None-Match": english.headers["ETag"]})
    assert asked.status_code == 200
    assert asked.data == bengali.data


def test_another_reader_never_gets_the_kept_answer(table, app):
    game = seven_at_the_table(table, app)
    url = f"/offline/play/{game}/ahead.json"
    mine = table.get(url)
    # The same account on another phone (its own session: its forms carry its own token).
    other_phone = app.test_client()
    assert login(other_phone).status_code == 302
    theirs = other_phone.get(url, headers={"If-None-Match": mine.headers["ETag"]})
    assert theirs.status_code == 200
    assert theirs.headers["ETag"] != mine.headers["ETag"]
    assert theirs.data != mine.data
    assert kept(app) == (2, 0)
    # Another account: not its game, whatever it sends.
    make_account(app, "other-club")
    stranger = app.test_client()
    assert login(stranger, "other-club").status_code == 302
    for headers in ({}, {"If-None-Match": mine.headers["ETag"]}):
        answer = stranger.get(url, headers=headers)
        assert answer.status_code == 404
        assert b"steps" not in answer.data
    assert kept(app) == (2, 0)


def test_the_kept_answers_are_few(table, app, monkeypatch):
    monkeypatch.setattr(offline_rules, "AHEAD_KEPT", 2)
    game = seven_at_the_table(table, app)
    url = f"/offline/play/{game}/ahead.json"
    for language in ("en", "bn", "lo"):
        table.set_cookie("lang", language)
        assert table.get(url).status_code == 200
    with app.app_context():
        assert len(offline_rules.ahead_kept()) == 2
    table.set_cookie("lang", "en")  # the least recently asked, dropped: made again
    table.get(url)
    assert kept(app) == (4, 0)
