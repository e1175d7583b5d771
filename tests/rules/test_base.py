"""The shared rules layer: options of every kind, several problems at once, presets."""

from __future__ import annotations

import pytest

from scorekeeper.games.base import GameRules
from scorekeeper.games.base import Option
from scorekeeper.games.base import Preset
from scorekeeper.games.base import Problems
from scorekeeper.games.base import RuleError
from scorekeeper.games.base import RuleErrors
from scorekeeper.games.base import State
from scorekeeper.games.base import collect_options
from scorekeeper.games.base import each_player
from scorekeeper.games.base import resolve_options
from scorekeeper.games.base import whole_number
from scorekeeper.games.oh_hell.rules import RULES as OH_HELL
from scorekeeper.games.oklahoma_gin.rules import RULES as GIN
from scorekeeper.games.pitch.rules import RULES as PITCH
from scorekeeper.games.readers import BIDS

PLAYERS = ("Ann", "Ben", "Cy")


class Toy(GameRules):
    """A game with one option of each kind and two presets."""

    key = "toy"
    min_players = 2
    max_players = 4
    presets = (
        Preset("plain", "Plain", {"target": 10, "double": False}),
        Preset("big", "Big", {"target": 20, "double": True}),
    )

    def option_specs(self, player_count):
        return [
            Option("target", "Target", "choice", 10, choices=(10, 20)),
            Option("double", "Double", "bool", False),
            Option("rounds", "Rounds", "int", 3, minimum=1, maximum=9),
            Option("sizes", "Sizes", "list", None, minimum=1, maximum=5),
        ]


def codes(error: RuleError) -> list[tuple[str, str | None]]:
    return [(problem.code, problem.field) for problem in error.errors]


def test_a_list_option_is_none_until_given_and_then_a_list_of_numbers_in_range():
    specs = Toy().option_specs(2)
    assert resolve_options(specs, {})["sizes"] is None
    assert resolve_options(specs, {"sizes": None})["sizes"] is None
    assert resolve_options(specs, {"sizes": [1, 5, 2]})["sizes"] == [1, 5, 2]
    for bad in ([0], [6], [1.0], [True], "1,2", 3):
        with pytest.raises(RuleError) as caught:
            resolve_options(specs, {"sizes": bad})
        assert codes(caught.value) == [("option_value", "options.sizes")]
        assert caught.value.message == "Sizes must be a list of whole numbers from 1 to 5."


def test_collect_options_keeps_the_good_values_and_records_every_problem():
    problems = Problems()
    raw = {"target": 15, "double": True, "rounds": 0, "colour": "red"}
    resolved = collect_options(Toy().option_specs(2), raw, problems)
    assert resolved == {"double": True, "sizes": None}
    assert [(e.code, e.field) for e in problems.errors] == [
        ("unknown_option", "options.colour"),
        ("option_value", "options.target"),
        ("option_value", "options.rounds"),
    ]


def test_each_player_reports_every_stranger_missing_player_and_bad_value_at_once():
    def read(name, value):
        return whole_number(
            value,
            f"bids.{name}",
            "bid_out_of_range",
            0,
            3,
            not_whole=f"{name}'s bid must be a whole number.",
            out_of_range=f"{name}'s bid must be from 0 to 3.",
        )

    entry = {"bids": {"Ann": 4, "Zed": 1, "Cy": "x"}}
    with pytest.raises(RuleErrors) as caught:
        each_player(entry, "bids", PLAYERS, "missing_bid", BIDS, read)
    assert codes(caught.value) == [
        ("unknown_player", "bids.Zed"),
        ("bid_out_of_range", "bids.Ann"),
        ("missing_bid", "bids.Ben"),
        ("wrong_type", "bids.Cy"),
    ]
    assert [e.message for e in caught.value.errors] == [
        "Zed is not playing in this game.",
        "Ann's bid must be from 0 to 3.",
        "Enter a bid for Ben.",
        "Cy's bid must be a whole number.",
    ]
    partial = each_player({"bids": {"Ben": 2}}, "bids", PLAYERS, "missing_bid", BIDS, read, True)
    assert partial == {"Ben": 2}
    for empty in ({}, {"bids": None}, {"bids": {}}, {"bids": {"Ann": None}}):
        with pytest.raises(RuleError) as caught:
            each_player(empty, "bids", PLAYERS, "missing_bid", BIDS, read)
        assert codes(caught.value) == [("missing_bid", "bids")]
        assert caught.value.message == "Enter a bid for every player."


def test_check_setup_returns_the_resolved_options_of_a_good_table():
    assert Toy().check_setup(["Ann", "Ben"], {"target": 20}) == {
        "target": 20,
        "double": False,
        "rounds": 3,
        "sizes": None,
    }
    assert OH_HELL.check_setup(PLAYERS, None) == OH_HELL.resolve_options({}, 3)


def test_check_setup_reports_the_player_count_and_the_options_together():
    players = [f"P{seat}" for seat in range(8)]
    with pytest.raises(RuleErrors) as caught:
        OH_HELL.check_setup(players, {"sequence": "sideways", "colour": "red"})
    assert codes(caught.value) == [
        ("unknown_option", "options.colour"),
        ("option_value", "options.sequence"),
        ("player_count", "players"),
    ]
    assert caught.value.errors[-1].message == "This game needs 3 to 7 players; 8 chosen."
    with pytest.raises(RuleErrors) as caught:
        GIN.check_setup(PLAYERS, {"target": 5})
    assert codes(caught.value) == [("option_value", "options.target"), ("player_count", "players")]


def test_check_setup_checks_the_table_by_the_options_that_are_good():
    # Partnerships asked for (a good value) with a bad target: the table is checked as a
    # partnership table, so 3 players is a partnership_count problem.
    with pytest.raises(RuleErrors) as caught:
        PITCH.check_setup(PLAYERS, {"partnerships": True, "target": 10})
    assert codes(caught.value) == [
        ("option_value", "options.target"),
        ("partnership_count", "players"),
    ]
    # A bad partnerships value counts as its default (everyone alone): 8 is too many.
    players = [f"P{seat}" for seat in range(8)]
    with pytest.raises(RuleErrors) as caught:
        PITCH.check_setup(players, {"partnerships": "yes"})
    assert codes(caught.value) == [
        ("option_value", "options.partnerships"),
        ("player_count", "players"),
    ]


def test_check_setup_refuses_options_that_are_not_an_object_with_the_table():
    with pytest.raises(RuleErrors) as caught:
        Toy().check_setup(["Ann"], ["target", 10])
    assert codes(caught.value) == [("wrong_type", "options"), ("player_count", "players")]


def test_check_setup_with_one_problem_raises_just_that_one():
    with pytest.raises(RuleError) as caught:
        Toy().check_setup(["Ann"], {})
    assert not isinstance(caught.value, RuleErrors)
    assert codes(caught.value) == [("player_count", "players")]
    with pytest.raises(RuleError) as caught:
        Toy().check_setup(["Ann", "Ann"], {})
    assert caught.value.message == "Each player can sit at the table only once."


def test_preset_of_names_the_preset_the_options_match():
    toy = Toy()
    assert toy.preset_of({"target": 10, "double": False, "rounds": 5}) == "plain"
    assert toy.preset_of({}) == "plain"  # options left out count as their defaults
    assert toy.preset_of({"target": 20, "double": True}) == "big"
    assert toy.preset_of({"target": 20, "double": False}) is None
    assert toy.preset_of({"target": 20, "double": 1}) is None  # 1 is not True


def test_a_game_without_presets_matches_none_and_describes_nothing():
    class Bare(GameRules):
        def option_specs(self, player_count):
            return []

    assert Bare().presets == ()
    assert Bare().preset_of({}) is None
    assert Bare().describe({}) == []


def test_a_state_has_no_columns_unless_its_game_plays_several_on_one_sheet():
    state = State(sides=["Ann"], teams=None, hands=[], totals={"Ann": 0})
    assert state.columns is None
