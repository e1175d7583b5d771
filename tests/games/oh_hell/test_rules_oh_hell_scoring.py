"""Oh Hell's house scoring as free whole numbers (issue 25): the worked examples of RULES.md
("House scoring"), a property over any values from 0 to 100, the values refused, the worked
example of the new-game page and the variant that keeps statistics like with like."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from scorekeeper.games.base import RuleError
from scorekeeper.games.base import Setup
from scorekeeper.games.oh_hell.rules import RULES
from scorekeeper.games.oh_hell.rules import hand_points

THREE = ("Ann", "Ben", "Cy")
VALUES = st.integers(0, 100)


def play(entries, **options):
    setup = Setup(THREE, RULES.resolve_options(options, 3), 0)
    return RULES.play(setup, entries)


def refused(raw: dict[str, Any]) -> list[tuple[str, str | None]]:
    with pytest.raises(RuleError) as caught:
        RULES.resolve_options(raw, 3)
    return [(error.code, error.field) for error in caught.value.errors]


# The worked examples of RULES.md, "House scoring" -------------------------------------------


def test_made_bonus_5_bid_2_took_2_scores_7():
    assert hand_points(2, 2, 5, {"made_bonus": 5}) == 7


def test_miss_penalty_5_bid_1_took_3_scores_minus_10():
    assert hand_points(1, 3, 5, {"miss_penalty": 5}) == -10


def test_the_wizard_way_scores_40_made_and_minus_20_missed_by_two():
    wizard = {"made_bonus": 20, "trick_value": 10, "miss_penalty": 10}
    assert hand_points(2, 2, 5, wizard) == 40
    assert hand_points(2, 0, 5, wizard) == -20


def test_5_5_5_with_per_trick_misses_bid_3_took_1_scores_minus_5():
    five = {"made_bonus": 5, "trick_value": 5, "miss_penalty": 5, "miss_scoring": "per_trick"}
    assert hand_points(3, 1, 5, five) == 5 - 10


def test_per_trick_misses_score_the_tricks_without_the_bonus():
    # RULES.md: bid 3 took 4 -> 4 (a point a trick, times trick_value, no 10 bonus).
    assert hand_points(3, 4, 5, {"miss_scoring": "per_trick"}) == 4
    assert hand_points(3, 4, 5, {"miss_scoring": "per_trick", "trick_value": 7}) == 28


def test_the_defaults_still_score_10_plus_tricks_and_0_for_a_miss():
    assert hand_points(4, 4, 5, {}) == 14
    assert hand_points(0, 0, 5, {}) == 10
    assert hand_points(2, 3, 5, {}) == 0


def test_a_5_5_5_game_goes_below_zero_as_the_rules_say():
    five = {"made_bonus": 5, "trick_value": 5, "miss_penalty": 5, "miss_scoring": "per_trick"}
    said = {"bids": {"Ann": 3, "Ben": 0, "Cy": 0}, "tricks": {"Ann": 1, "Ben": 1, "Cy": 1}}
    state = play([said], sequence="down", max_cards=3, **five)
    # Ann 1 trick (5) off by 2 (-10); Ben and Cy 1 trick (5) off by 1 (-5).
    assert state.hands[0].points == {"Ann": -5, "Ben": 0, "Cy": 0}


# Any values from 0 to 100 -------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(
    bonus=VALUES,
    value=VALUES,
    penalty=VALUES,
    per_trick=st.booleans(),
    cards=st.integers(1, 15),
    data=st.data(),
)
def test_any_values_score_bonus_plus_tricks_made_and_tricks_less_penalty_missed(
    bonus, value, penalty, per_trick, cards, data
):
    bid = data.draw(st.integers(0, cards))
    tricks = data.draw(st.integers(0, cards))
    raw = {
        "made_bonus": bonus,
        "trick_value": value,
        "miss_penalty": penalty,
        "miss_scoring": "per_trick" if per_trick else "zero",
    }
    options = RULES.resolve_options(raw, 3)  # every value from 0 to 100 is taken
    points = hand_points(bid, tricks, cards, options)
    if bid == tricks:
        assert points == bonus + value * tricks
    else:
        per_trick_points = value * tricks if per_trick else 0
        assert points == per_trick_points - penalty * abs(tricks - bid)


@settings(max_examples=100, deadline=None)
@given(bonus=VALUES, value=VALUES, penalty=VALUES, per_trick=st.booleans())
def test_a_whole_hand_scores_each_player_by_the_formula(bonus, value, penalty, per_trick):
    raw = {"made_bonus": bonus, "trick_value": value, "miss_penalty": penalty}
    if per_trick:
        raw["miss_scoring"] = "per_trick"
    said = {"bids": {"Ann": 2, "Ben": 1, "Cy": 0}, "tricks": {"Ann": 2, "Ben": 0, "Cy": 1}}
    state = play([said], sequence="down", max_cards=3, **raw)
    assert state.hands[0].points == {
        "Ann": bonus + 2 * value,
        "Ben": -penalty,
        "Cy": (value if per_trick else 0) - penalty,
    }


@pytest.mark.parametrize("key", ["made_bonus", "trick_value", "miss_penalty"])
@pytest.mark.parametrize("value", [-1, 101, 2.5, 10.0, True, False, "ten", "10", [10], None])
def test_anything_but_a_whole_number_from_0_to_100_is_option_value(key, value):
    if value is None:  # left out: the default
        assert (
            RULES.resolve_options({key: value}, 3)[key]
            == {
                "made_bonus": 10,
                "trick_value": 1,
                "miss_penalty": 0,
            }[key]
        )
        return
    assert refused({key: value}) == [("option_value", f"options.{key}")]


def test_every_bad_value_is_reported_at_once_with_the_other_problems():
    raw = {"made_bonus": -1, "trick_value": 101, "miss_penalty": "ten", "sequence": "sideways"}
    assert sorted(refused(raw)) == [
        ("option_value", "options.made_bonus"),
        ("option_value", "options.miss_penalty"),
        ("option_value", "options.sequence"),
        ("option_value", "options.trick_value"),
    ]
    with pytest.raises(RuleError) as caught:
        RULES.check_setup(["Ann", "Ben"], {"made_bonus": 2.5, "miss_penalty": True})
    assert sorted((e.code, e.field) for e in caught.value.errors) == [
        ("option_value", "options.made_bonus"),
        ("option_value", "options.miss_penalty"),
        ("player_count", "players"),
    ]
    messages = {e.field: e.message for e in caught.value.errors}
    assert messages["options.made_bonus"] == "Exact-bid bonus must be a whole number."
    with pytest.raises(RuleError) as caught:
        RULES.resolve_options({"trick_value": 101}, 3)
    assert caught.value.message == "Points per trick must be from 0 to 100."


def test_the_presets_still_fill_in_their_values():
    labels = {preset.key: str(preset.label) for preset in RULES.presets}
    assert labels["seed"] == "Standard"
    wizard = next(p for p in RULES.presets if p.key == "wizard_scoring").options
    assert (wizard["made_bonus"], wizard["trick_value"], wizard["miss_penalty"]) == (20, 10, 10)


# The worked example of the new-game page ----------------------------------------------------


def test_the_worked_example_of_the_issue():
    example = RULES.worked_example({"made_bonus": 5, "miss_penalty": 5})
    assert (
        example == "bid 2, took 2: 7 points · bid 1, took 3: -10 points · bid 0, took 0: 5 points"
    )


def test_the_worked_example_of_the_defaults_and_of_the_wizard_way():
    assert RULES.worked_example({}) == (
        "bid 2, took 2: 12 points · bid 1, took 3: 0 points · bid 0, took 0: 10 points"
    )
    wizard = {"made_bonus": 20, "trick_value": 10, "miss_penalty": 10}
    assert RULES.worked_example(wizard) == (
        "bid 2, took 2: 40 points · bid 1, took 3: -20 points · bid 0, took 0: 20 points"
    )


def test_the_worked_example_says_1_point_and_the_zero_bid_bonus_hand():
    assert RULES.worked_example({"made_bonus": 1, "trick_value": 0}) == (
        "bid 2, took 2: 1 point · bid 1, took 3: 0 points · bid 0, took 0: 1 point"
    )
    assert RULES.worked_example({"zero_bid_bonus": True, "miss_scoring": "per_trick"}) == (
        "bid 2, took 2: 12 points · bid 1, took 3: 3 points · "
        "bid 0, took 0 in a 5-card hand: 10 points"
    )


@settings(max_examples=200, deadline=None)
@given(bonus=VALUES, value=VALUES, penalty=VALUES, per_trick=st.booleans(), zero=st.booleans())
def test_the_worked_example_says_what_the_rules_score(bonus, value, penalty, per_trick, zero):
    options = {
        "made_bonus": bonus,
        "trick_value": value,
        "miss_penalty": penalty,
        "miss_scoring": "per_trick" if per_trick else "zero",
        "zero_bid_bonus": zero,
    }
    parts = RULES.worked_example(options).split(" · ")
    hands = [(2, 2), (1, 3), (0, 0)]
    assert len(parts) == len(hands)
    for part, (bid, took) in zip(parts, hands, strict=True):
        points = hand_points(bid, took, 5, options)
        assert part.startswith(f"bid {bid}, took {took}")
        assert part.endswith(f": {points} point" if abs(points) == 1 else f": {points} points")


# Statistics compare like with like ----------------------------------------------------------


def test_a_preset_keeps_its_key_and_a_custom_formula_says_its_values():
    resolved = RULES.resolve_options
    assert RULES.variant_of(resolved({}, 3)) == "seed"
    assert RULES.variant_of(resolved({"miss_penalty": 5}, 3)) == "penalty"
    five = {"made_bonus": 5, "trick_value": 5, "miss_penalty": 5}
    assert RULES.variant_of(resolved(five, 3)) == "custom:5/5/5"
    assert RULES.variant_of(resolved({**five, "miss_scoring": "per_trick"}, 3)) == (
        "custom:5/5/5:per_trick"
    )
    assert RULES.variant_of(resolved({"zero_bid_bonus": True}, 3)) == "custom:10/1/0:zero_bid"
    both = {"made_bonus": 100, "trick_value": 100, "miss_penalty": 100}
    both.update(miss_scoring="per_trick", zero_bid_bonus=True)
    longest = RULES.variant_of(resolved(both, 3))
    assert longest == "custom:100/100/100:per_trick:zero_bid" and len(longest) <= 60
    # Options that do not score play no part.
    assert RULES.variant_of(resolved({**five, "hook": True, "sequence": "down"}, 3)) == (
        "custom:5/5/5"
    )


@settings(max_examples=200, deadline=None)
@given(
    a=st.tuples(VALUES, VALUES, VALUES, st.booleans(), st.booleans()),
    b=st.tuples(VALUES, VALUES, VALUES, st.booleans(), st.booleans()),
)
def test_two_formulas_share_a_variant_only_when_they_score_alike(a, b):
    def options(values):
        bonus, value, penalty, per_trick, zero = values
        return RULES.resolve_options(
            {
                "made_bonus": bonus,
                "trick_value": value,
                "miss_penalty": penalty,
                "miss_scoring": "per_trick" if per_trick else "zero",
                "zero_bid_bonus": zero,
            },
            3,
        )

    assert (RULES.variant_of(options(a)) == RULES.variant_of(options(b))) == (a == b)


def test_a_custom_variant_reads_as_its_values():
    assert RULES.variant_label("custom:5/5/5") == "Scoring 5/5/5"
    assert RULES.variant_label("custom:20/2/0:per_trick") == (
        "Scoring 20/2/0, misses score their tricks"
    )
    assert RULES.variant_label("custom:10/1/0:zero_bid") == "Scoring 10/1/0, zero-bid bonus"
    assert RULES.variant_label("custom:5/5/5:per_trick:zero_bid") == (
        "Scoring 5/5/5, misses score their tricks, zero-bid bonus"
    )
    # Presets by their names; games stored before the values were said: "House rules".
    assert RULES.variant_label("seed") == "Standard"
    assert RULES.variant_label("penalty") == "Penalty"
    assert RULES.variant_label("custom") == "House rules"
    assert RULES.variant_label("custom:x/1") == "custom:x/1"
