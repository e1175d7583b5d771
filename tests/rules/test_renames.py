"""A roster rename rewrites the names stored in every game's entries, and nothing else."""

from __future__ import annotations

from scorekeeper.games import GAMES
from scorekeeper.games import Setup


def replay(key, players, entries, **options):
    rules = GAMES[key].rules
    setup = Setup(tuple(players), rules.resolve_options(options, len(players)))
    return rules.play(setup, entries)


def test_oh_hell_rename_moves_bids_and_tricks():
    entry = {"bids": {"Ann": 1, "Ben": 0, "Cy": 0}, "tricks": {"Ann": 1, "Ben": 0, "Cy": 0}}
    renamed = GAMES["oh_hell"].rules.rename(entry, "Ann", "Annie")
    assert renamed == {
        "bids": {"Annie": 1, "Ben": 0, "Cy": 0},
        "tricks": {"Annie": 1, "Ben": 0, "Cy": 0},
    }
    before = replay("oh_hell", ["Ann", "Ben", "Cy"], [entry])
    after = replay("oh_hell", ["Annie", "Ben", "Cy"], [renamed])
    assert after.totals == {"Annie": before.totals["Ann"], "Ben": 10, "Cy": 10}


def test_pitch_rename_reaches_the_auction_and_every_point():
    entry = {
        "auction": [["Ben", "pass"], ["Cy", 2], ["Ann", "pass"]],
        "high": "Cy",
        "low": "Ann",
        "jack": None,
        "game": "Cy",
        "game_points": {"Ann": 3, "Cy": 20},
    }
    renamed = GAMES["pitch"].rules.rename(entry, "Cy", "Cyd")
    assert renamed["auction"] == [["Ben", "pass"], ["Cyd", 2], ["Ann", "pass"]]
    assert (renamed["high"], renamed["low"], renamed["game"]) == ("Cyd", "Ann", "Cyd")
    assert renamed["game_points"] == {"Ann": 3, "Cyd": 20}
    state = replay("pitch", ["Ann", "Ben", "Cyd"], [renamed])
    assert state.totals == {"Ann": 1, "Ben": 0, "Cyd": 2}


def test_gin_rename_changes_the_knocker_only():
    entry = {
        "upcard": "7",
        "result": "knock",
        "knocker": "Ann",
        "knocker_deadwood": 3,
        "opponent_deadwood": 10,
    }
    renamed = GAMES["oklahoma_gin"].rules.rename(entry, "Ann", "Annie")
    assert renamed == {**entry, "knocker": "Annie"}
    assert GAMES["oklahoma_gin"].rules.rename(entry, "Zed", "Ann") == entry
