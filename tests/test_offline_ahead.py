"""The steps ahead of a phone playing offline (``/offline/play/<id>/ahead.json``): the game
page's hand head and forms at each step still to come, rendered by the page's own templates,
reached by forms the game fills in itself; the phone's own answer for each step says which
(its hands entered, those scored)."""

from __future__ import annotations

import re

from scorekeeper.extensions import db
from scorekeeper.games.hearts import form as hearts_form
from scorekeeper.models import Game
from scorekeeper.services import games
from tests.pages import game_id
from tests.pages import start_game
from tests.test_offline_save import seven_at_the_table


def test_every_step_of_a_seven_hand_game_is_made_ahead(table, app):
    game = seven_at_the_table(table, app)
    answer = table.get(f"/offline/play/{game}/ahead.json")
    assert answer.status_code == 200
    body = answer.get_json()
    assert body["now"] == "0:0"
    # Bids then tricks of each of the 7 hands: the step after each, the last one the game over.
    expected = [f"{hand}:{hand - done}" for hand in range(1, 8) for done in (0, 1)]
    expected[expected.index("7:7")] = "7:7:over"  # the game over: a step of its own
    assert sorted(body["steps"]) == sorted(expected)
    for hand in range(1, 7):
        tricks = body["steps"][f"{hand}:{hand - 1}"]
        assert "data-tricks-form" in tricks and f'/games/{game}/hands/{hand}"' in tricks
        assert 'id="change-bids"' in tricks
        bids = body["steps"][f"{hand}:{hand}"]
        assert "data-bids-form" in bids
        assert f'name="number" value="{hand + 1}"' in bids
        assert f"Hand {hand + 1}" in bids
        # Each form ahead has a key of its own (a save is sent once, each once).
    pages = "".join(body["steps"].values())
    keys = re.findall(r'name="idempotency_key"[^>]*value="([^"]+)"', pages)
    assert len(keys) == len(set(keys)) >= 13
    assert "Game over" in body["steps"]["7:7:over"]
    with app.app_context():  # nothing was saved: the steps ahead are the page's, made aside
        assert not db.session.get(Game, game).hands
        assert games.played(db.session.get(Game, game)).state.hands == []


def test_a_game_that_fills_in_no_form_has_no_steps_ahead(table, app, monkeypatch):
    """(Every game has ``sample`` now: one without it, as a game added later may be.)"""
    monkeypatch.delattr(hearts_form, "sample")
    response = start_game(table, app, "hearts", {"Ann": 1, "Ben": 2, "Cy": 3, "Dee": 4})
    game = game_id(response)
    body = table.get(f"/offline/play/{game}/ahead.json").get_json()
    assert body["steps"] == {}


def test_wizard_steps_ahead_too(table, app):
    """The family's filled-in forms serve Wizard as well: its 20 rounds of three, two steps
    each, all made ahead (the most there are: ``STEPS_AHEAD``)."""
    response = start_game(table, app, "wizard", {"Ann": 1, "Ben": 2, "Cy": 3})
    game = game_id(response)
    body = table.get(f"/offline/play/{game}/ahead.json").get_json()
    assert len(body["steps"]) == 40
    assert "data-bids-form" in body["steps"]["19:19"]
    assert 'name="number" value="20"' in body["steps"]["19:19"]


def test_a_score_pad_s_rounds_ahead(table, app):
    """The score pad fills in its own form too: a game of 5 rounds, each round ahead."""
    response = start_game(
        table, app, "score_pad", {"Ann": 1, "Ben": 2, "Cy": 3}, name="Catan", end="rounds", rounds=5
    )
    game = game_id(response)
    body = table.get(f"/offline/play/{game}/ahead.json").get_json()
    assert sorted(body["steps"]) == [f"{round_}:{round_}" for round_ in range(1, 5)] + ["5:5:over"]
    assert 'name="number" value="5"' in body["steps"]["4:4"]
    assert "game over" in body["steps"]["5:5:over"]
