"""The drills' database check (tests/replay_check.py) holds on a database of several
accounts: two tables may each have their own Ann."""

from __future__ import annotations

from scorekeeper.extensions import db
from scorekeeper.models import Account
from scorekeeper.services import games
from tests.conftest import make_account
from tests.replay_check import check_database

THREE = ["Ann", "Ben", "Cy"]
HAND = {"bids": {"Ann": 1, "Ben": 0, "Cy": 0}, "tricks": {"Ann": 1, "Ben": 0, "Cy": 0}}


def test_two_accounts_with_the_same_names_are_both_checked(app):
    made = [make_account(app, "friday-club"), make_account(app, "saturday-club")]
    with app.app_context():
        for each in made:
            game = games.create_game(db.session.get(Account, each.id), "oh_hell", THREE).game
            games.record_hand(game, HAND)
    assert check_database(app) == 2
