"""The migration that tells Oh Hell's custom formulas apart (issue 25): games stored as
"custom" before a custom formula's variant said its values get the variant that says them,
and the players' statistics come out exactly as if the games had been keyed so from the
start: no average mixes a 5/5/5 game with a 20/2/0 one."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import sqlalchemy as sa

from scorekeeper.extensions import db
from scorekeeper.models import Game
from tests.replay_check import check_database

MIGRATION = next(
    (Path(__file__).parents[3] / "scorekeeper" / "migrations" / "versions").glob(
        "*_oh_hell_custom_scoring_variants.py"
    )
)
THREE = ["Ann", "Ben", "Cy"]
FIVE = {"made_bonus": 5, "trick_value": 5, "miss_penalty": 5}
TWENTY = {"made_bonus": 20, "trick_value": 2, "miss_scoring": "per_trick"}


def migration():
    spec = importlib.util.spec_from_file_location("custom_variants", MIGRATION)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def played(api, bids, tricks, **options) -> int:
    """A finished one-hand game (one card each) with these options; its id."""
    state = api.post(
        "/games", {"game": "oh_hell", "players": THREE, "options": {"max_cards": 1, **options}}
    ).get_json()
    said = {"bids": dict(zip(THREE, bids, strict=True))}
    said["tricks"] = dict(zip(THREE, tricks, strict=True))
    assert api.post(f"/games/{state['id']}/hands", said).get_json()["status"] == "finished"
    return state["id"]


def ann(api, variant: str) -> tuple[int, float]:
    board = api.get(f"/leaderboards/oh_hell?variant={variant}").get_json()
    line = next(line for line in board["players"] if line["player"]["name"] == "Ann")
    return line["played"], line["average_score"]


def test_games_stored_as_custom_get_their_formula_and_the_statistics_follow(app, api):
    five = [played(api, [1, 0, 0], [1, 0, 0], **FIVE), played(api, [0, 0, 0], [1, 0, 0], **FIVE)]
    twenty = played(api, [1, 1, 0], [0, 1, 0], **TWENTY)
    played(api, [1, 0, 0], [1, 0, 0])  # standard: untouched
    assert ann(api, "custom:5/5/5") == (2, (10 - 5) / 2)
    step = migration()
    with app.app_context():
        keyed = dict(db.session.execute(sa.select(Game.id, Game.variant)).all())
        assert keyed[five[0]] == "custom:5/5/5"
        assert keyed[twenty] == "custom:20/2/0:per_trick"
        # As the games were stored before: "custom" for any formula but a preset's (one of
        # the 5/5/5 games is left with its new key, as one saved after the change would be).
        db.session.execute(
            sa.update(Game).where(Game.id.in_([five[0], twenty])).values(variant="custom")
        )
        step.sum_again(db.session.connection(), {"custom", *keyed.values()} - {"seed"})
        db.session.commit()
    check_database(app)  # the statistics as the old keys made them
    assert ann(api, "custom") == (2, (10 + 0) / 2)  # two formulas in one average
    assert ann(api, "custom:5/5/5") == (1, -5)
    with app.app_context():
        step.tell_apart(db.session.connection())
        db.session.commit()
        assert dict(db.session.execute(sa.select(Game.id, Game.variant)).all()) == keyed
    check_database(app)  # every figure equals a replay of the games under their new keys
    variants = api.get("/leaderboards/oh_hell").get_json()["variants"]
    assert {v["variant"] for v in variants} == {"seed", "custom:5/5/5", "custom:20/2/0:per_trick"}
    assert ann(api, "custom:5/5/5") == (2, (10 - 5) / 2)
    assert ann(api, "custom:20/2/0:per_trick") == (1, 0)


def test_the_formula_is_said_as_the_rules_say_it():
    from scorekeeper.games.oh_hell.rules import RULES

    step = migration()
    for options in (
        {},
        FIVE,
        TWENTY,
        {"zero_bid_bonus": True},
        {**FIVE, "miss_scoring": "per_trick", "zero_bid_bonus": True},
        {"made_bonus": 0, "trick_value": 100, "miss_penalty": 100},
    ):
        if RULES.preset_of(options) is None:  # "custom" was stored for no preset's formula
            assert step.custom_variant(options) == RULES.variant_of(options), options
