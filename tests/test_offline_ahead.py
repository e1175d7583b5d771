"""The steps ahead of a phone playing offline (``/offline/play/<id>/ahead.json``): the game
page's hand head and forms at each step still to come, rendered by the page's own templates,
reached by forms the game fills in itself; the phone's own answer for each step says which
(its hands entered, those scored)."""

from __future__ import annotations

import html
import re

from scorekeeper.extensions import db
from scorekeeper.games import portable
from scorekeeper.games.hearts import form as hearts_form
from scorekeeper.games.oh_hell import form as oh_hell_form
from scorekeeper.models import Game
from scorekeeper.services import games
from tests.pages import game_id
from tests.pages import start_game
from tests.test_offline_save import SEVEN
from tests.test_offline_save import Phone
from tests.test_offline_save import bid_form
from tests.test_offline_save import server_state
from tests.test_offline_save import server_state_options
from tests.test_offline_save import seven_at_the_table
from tests.test_offline_save import trick_form


def test_every_step_of_a_seven_hand_game_is_made_ahead(table, app):
    game = seven_at_the_table(table, app)
    answer = table.get(f"/offline/play/{game}/ahead.json")
    assert answer.status_code == 200
    body = answer.get_json()
    assert body["now"] == "0:0"
    # The step now, then bids and tricks of each of the 7 hands: the step after each, the last
    # one the game over.
    expected = ["0:0"] + [f"{hand}:{hand - done}" for hand in range(1, 8) for done in (0, 1)]
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
    assert len(body["steps"]) == 41  # the step now, and 40 ahead
    assert "data-bids-form" in body["steps"]["19:19"]
    assert 'name="number" value="20"' in body["steps"]["19:19"]


def test_a_score_pad_s_rounds_ahead(table, app):
    """The score pad fills in its own form too: a game of 5 rounds, each round ahead."""
    response = start_game(
        table, app, "score_pad", {"Ann": 1, "Ben": 2, "Cy": 3}, name="Catan", end="rounds", rounds=5
    )
    game = game_id(response)
    body = table.get(f"/offline/play/{game}/ahead.json").get_json()
    assert sorted(body["steps"]) == [f"{round_}:{round_}" for round_ in range(0, 5)] + ["5:5:over"]
    assert 'name="number" value="5"' in body["steps"]["4:4"]
    assert "game over" in body["steps"]["5:5:over"]
    # Each round's correction form, by the score pad's own template.
    assert sorted(body["corrections"], key=int) == [str(round_) for round_ in range(1, 6)]
    assert f'action="/games/{game}/hands/3"' in body["corrections"]["3"]
    assert 'name="point-2"' in body["corrections"]["3"]


def test_each_game_s_correction_fields_read_back_as_its_entry():
    """``fields`` of every game with steps ahead, read by the same game's reader, is the
    entry again: Oh Hell (a trump), Wizard (a suit the dealer chose), the score pad (a
    negative points and a blank)."""
    players = ["Ann", "Ben", "Cy"]
    entries = {
        "oh_hell": {"bids": {"Ann": 1, "Ben": 0, "Cy": 2}, "tricks": {"Ann": 1, "Ben": 1, "Cy": 1},
                    "trump": "spades"},
        "wizard": {"bids": {"Ann": 1, "Ben": 0, "Cy": 2}, "tricks": {"Ann": 0, "Ben": 1, "Cy": 2},
                   "trump": "hearts", "trump_chosen": True},
        "score_pad": {"points": {"Ann": -4, "Cy": 12}},
    }  # fmt: skip
    for key, entry in entries.items():
        form = portable.form_of(key)
        fields = form.fields(entry, players)
        assert form.read(fields, players, "both") == entry, key


def test_the_steps_back_and_the_correction_forms_of_a_game_under_way(table, app):
    """A game with two hands scored and the third's bids in: the page at the step now, at
    each step an undo on the phone goes back to (hand 3's bids, hand 2's, hand 1's), and the
    correction form of every hand scored and still to score, by the page's own template."""
    game = seven_at_the_table(table, app)
    phone = Phone(server_state_options(app, game))
    phone.state = server_state(app, game)
    for number in (1, 2, 3):
        table.post(f"/games/{game}/hands", data=bid_form(phone.state, number))
        phone.save("record", number, bid_form(phone.state, number))
        if number < 3:
            table.post(f"/games/{game}/hands/{number}", data=trick_form(phone.state))
            phone.save("update", number, trick_form(phone.state))
    assert server_state(app, game) == phone.state
    body = table.get(f"/offline/play/{game}/ahead.json").get_json()
    assert body["now"] == "3:2"
    for step in ("3:2", "2:2", "1:1", "0:0"):  # now, then back hand by hand
        assert step in body["steps"], step
    assert "data-tricks-form" in body["steps"]["3:2"]
    assert 'name="number" value="3"' in body["steps"]["2:2"]
    assert 'name="number" value="1"' in body["steps"]["0:0"]
    assert sorted(body["corrections"], key=int) == [str(hand) for hand in range(1, 8)]
    two = body["corrections"]["2"]
    assert f'action="/games/{game}/hands/2"' in two
    assert 'name="phase" value="both"' in two and "Correct hand 2" in two
    assert "2 cards · Ben dealt" in two
    keys = re.findall(
        r'name="idempotency_key"[^>]*value="([^"]+)"', "".join(body["corrections"].values())
    )
    assert len(keys) == len(set(keys)) == 7


def test_a_hands_correction_fields_read_back_as_its_entry(table, app):
    """``portable.fields``: the correction form's fields of a hand of the phone's record, read
    by the game's own reader, give the hand's entry back (Oh Hell, with its trump)."""
    phone = Phone({"hook": True})
    form = {**bid_form({"next": {"order": SEVEN, "dealer": "Ann", "forbidden_dealer_bid": 1}}, 1)}
    phone.save("record", 1, {**form, "trump": "hearts"})
    phone.save("update", 1, trick_form(phone.state))
    answer = portable.fields({**phone.request, "number": 1})
    fields = answer["fields"]
    assert fields["trump"] == "hearts"
    entry = oh_hell_form.read(fields, SEVEN, "both")
    assert entry == phone.request["entries"][0]
    missing = portable.fields({**phone.request, "number": 2})
    assert missing["refused"][0]["code"] == "not_found"


def test_an_undo_made_offline_on_a_game_that_moved_since_is_refused(table, app):
    """An undo sent from a phone that played offline names the game's version it was made on
    (``based_on``): after another phone's save meanwhile it is refused with the warning, and
    nothing changes; on the version it names, the last hand goes."""
    game = seven_at_the_table(table, app)
    state = server_state(app, game)
    table.post(f"/games/{game}/hands", data=bid_form(state, 1))
    with app.app_context():
        version = db.session.get(Game, game).version
    before = server_state(app, game)
    moved = table.post(
        f"/games/{game}/hands/1/undo", data={"based_on": str(version - 1)}, follow_redirects=True
    )
    assert "changed on another phone while this one was offline" in html.unescape(moved.text)
    assert server_state(app, game) == before
    table.post(f"/games/{game}/hands/1/undo", data={"based_on": str(version)})
    assert server_state(app, game)["hands"] == []
    with app.app_context():
        assert db.session.get(Game, game).version == version + 1


def test_the_phone_says_of_an_undo_and_a_correction_what_the_server_says(table, app):
    """``portable.save``'s ``said``: the message the server's page shows after the same save
    (a correction, the bids of the hand in play changed, an undo); none for a save that moves
    the game on."""
    game = seven_at_the_table(table, app)
    phone = Phone(server_state_options(app, game))
    phone.state = server_state(app, game)

    def both(action, number, form, url):
        answer = phone.save(action, number, form)
        page = html.unescape(table.post(url, data=form, follow_redirects=True).text)
        assert server_state(app, game) == phone.state
        if answer["said"] is not None:
            assert answer["said"] in page
        return answer["said"]

    hands = f"/games/{game}/hands"
    assert both("record", 1, bid_form(phone.state, 1), hands) is None
    changed = {**bid_form(phone.state, 1), "change": "1"}
    changed.pop("number")
    assert both("update", 1, changed, f"{hands}/1") == "Bids of hand 1 changed."
    assert both("update", 1, trick_form(phone.state), f"{hands}/1") is None
    hand = phone.state["hands"][0]
    seats = {name: seat for seat, name in enumerate(SEVEN)}
    form = {"phase": "both"}
    for name in hand["info"]["order"]:
        form[f"bid-{seats[name]}"] = str(hand["input"]["bids"][name])
        form[f"trick-{seats[name]}"] = str(hand["input"]["tricks"][name])
    said = both("update", 1, form, f"{hands}/1")
    assert said == "Hand 1 corrected; later hands re-scored."
    assert both("undo", 1, {}, f"{hands}/1/undo") == "Hand 1 removed."
