"""What is stored is keyed by seat: read back with other names in the seats (a roster rename),
the same hands score the same, and nothing but the names changes."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.games import GAMES
from scorekeeper.games import Setup


def replay(key, players, entries, **options):
    rules = GAMES[key].rules
    setup = Setup(tuple(players), rules.resolve_options(options, len(players)))
    return rules.play(setup, entries)


def stored_and_read_back(key, entry, old, new):
    """The normalised entry stored under the ``old`` names, read back under the ``new``."""
    rules = GAMES[key].rules
    normalised = replay(key, old, [entry]).hands[0].input
    stored = rules.to_seats(normalised, old)
    return stored, rules.from_seats(stored, new)


def test_oh_hell_bids_and_tricks_are_stored_by_seat():
    entry = {"bids": {"Ann": 1, "Ben": 0, "Cy": 0}, "tricks": {"Ann": 1, "Ben": 0, "Cy": 0}}
    stored, renamed = stored_and_read_back(
        "oh_hell", entry, ["Ann", "Ben", "Cy"], ["Annie", "Ben", "Cy"]
    )
    assert stored == {"bids": [1, 0, 0], "tricks": [1, 0, 0]}
    assert renamed == {
        "bids": {"Annie": 1, "Ben": 0, "Cy": 0},
        "tricks": {"Annie": 1, "Ben": 0, "Cy": 0},
    }
    before = replay("oh_hell", ["Ann", "Ben", "Cy"], [entry])
    after = replay("oh_hell", ["Annie", "Ben", "Cy"], [renamed])
    assert after.totals == {"Annie": before.totals["Ann"], "Ben": 10, "Cy": 10}


def test_a_bid_still_missing_is_stored_as_an_empty_seat():
    rules = GAMES["oh_hell"].rules
    stored = rules.to_seats({"bids": {"Ben": 2}}, ["Ann", "Ben", "Cy"])
    assert stored == {"bids": [None, 2, None]}
    assert rules.from_seats(stored, ["Ann", "Ben", "Cy"]) == {"bids": {"Ben": 2}}


def test_pitch_auction_and_every_point_are_stored_by_seat():
    entry = {
        "auction": [["Ben", "pass"], ["Cy", 2], ["Ann", "pass"]],
        "high": "Cy",
        "low": "Ann",
        "jack": None,
        "game": "Cy",
        "game_points": {"Ann": 3, "Cy": 20},
    }
    stored, renamed = stored_and_read_back(
        "pitch", entry, ["Ann", "Ben", "Cy"], ["Ann", "Ben", "Cyd"]
    )
    assert stored["auction"] == [[1, "pass"], [2, 2], [0, "pass"]]
    assert (stored["high"], stored["low"], stored["jack"], stored["game"]) == (2, 0, None, 2)
    assert stored["game_points"] == [3, None, 20]
    assert renamed["auction"] == [["Ben", "pass"], ["Cyd", 2], ["Ann", "pass"]]
    assert (renamed["high"], renamed["low"], renamed["game"]) == ("Cyd", "Ann", "Cyd")
    assert renamed["game_points"] == {"Ann": 3, "Cyd": 20}
    state = replay("pitch", ["Ann", "Ben", "Cyd"], [renamed])
    assert state.totals == {"Ann": 1, "Ben": 0, "Cyd": 2}


def test_gin_stores_the_knocker_by_seat():
    entry = {
        "upcard": "7",
        "result": "knock",
        "knocker": "Ann",
        "knocker_deadwood": 3,
        "opponent_deadwood": 10,
    }
    stored, renamed = stored_and_read_back("oklahoma_gin", entry, ["Ann", "Ben"], ["Annie", "Ben"])
    assert stored["knocker"] == 0
    assert renamed["knocker"] == "Annie"
    assert renamed["knocker_deadwood"] == 3


@given(
    bids=st.lists(st.integers(0, 3), min_size=4, max_size=4),
    names=st.permutations(["Ann", "Ben", "Cy", "Dee"]),
)
def test_oh_hell_storage_round_trips_for_any_seating(bids, names):
    rules = GAMES["oh_hell"].rules
    entry = {"bids": dict(zip(names, bids, strict=True))}
    assert rules.from_seats(rules.to_seats(entry, names), names) == entry
