"""Oh Hell house rules (issue 12): hands without trump, the hook's smallest hand, house
scoring and its presets, custom sequences, the game described in words, and every problem of
an entry reported at once."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from scorekeeper.games.base import RuleError
from scorekeeper.games.base import RuleErrors
from scorekeeper.games.base import Setup
from scorekeeper.games.oh_hell.rules import MAX_CARDS
from scorekeeper.games.oh_hell.rules import RULES
from scorekeeper.games.oh_hell.rules import SEQUENCES
from scorekeeper.games.oh_hell.rules import forbidden_dealer_bid
from scorekeeper.games.oh_hell.rules import game_sizes
from scorekeeper.games.oh_hell.rules import hand_points
from scorekeeper.games.oh_hell.rules import hand_sizes

NAMES = ("Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus")
THREE = NAMES[:3]
FOUR = NAMES[:4]
MINUS = "\u2212"


def make_setup(players=THREE, first_dealer=0, **options) -> Setup:
    return Setup(tuple(players), RULES.resolve_options(options, len(players)), first_dealer)


def play(entries, players=THREE, first_dealer=0, **options):
    return RULES.play(make_setup(players, first_dealer, **options), entries)


def refusal(entries, players=THREE, first_dealer=0, **options) -> RuleError:
    with pytest.raises(RuleError) as caught:
        play(entries, players, first_dealer, **options)
    for error in caught.value.errors:
        assert error.message[0].isupper() and error.message.endswith(".")
    return caught.value


def options_refused(raw: dict[str, Any], count: int = 3) -> list[tuple[str, str | None]]:
    with pytest.raises(RuleError) as caught:
        RULES.resolve_options(raw, count)
    return [(error.code, error.field) for error in caught.value.errors]


def hand(bids, tricks=None, players=THREE, **extra):
    entry: dict[str, Any] = {"bids": dict(zip(players, bids, strict=True))}
    if tricks is not None:
        entry["tricks"] = dict(zip(players, tricks, strict=True))
    entry.update(extra)
    return entry


def first_takes_all(players, cards, **extra):
    """A hand where the first seat bids and takes every trick, the others bid 0."""
    bids = [cards] + [0] * (len(players) - 1)
    return hand(bids, bids, players, **extra)


# House scoring: the examples of RULES.md ------------------------------------------------------


def test_a_made_bid_scores_the_made_bonus_plus_the_tricks_at_their_value():
    # made_bonus 5, bid 2 took 2 -> 7.
    assert hand_points(2, 2, 3, {"made_bonus": 5}) == 7
    state = play([hand([2, 1, 0], [2, 1, 0])], sequence="down", max_cards=3, made_bonus=5)
    assert state.hands[0].points == {"Ann": 7, "Ben": 6, "Cy": 5}
    state = play([hand([2, 1, 0], [2, 1, 0])], sequence="down", max_cards=3, made_bonus=20)
    assert state.hands[0].points == {"Ann": 22, "Ben": 21, "Cy": 20}


def test_a_missed_bid_loses_the_penalty_for_every_trick_it_was_off_by():
    # miss_penalty 5, bid 1 took 3 -> -10; totals may go below zero.
    assert hand_points(1, 3, 3, {"miss_penalty": 5}) == -10
    state = play([hand([1, 1, 1], [3, 0, 0])], sequence="down", max_cards=3, miss_penalty=5)
    assert state.hands[0].points == {"Ann": -10, "Ben": -5, "Cy": -5}
    assert state.totals == {"Ann": -10, "Ben": -5, "Cy": -5}
    state = play([hand([1, 1, 1], [3, 0, 0])], sequence="down", max_cards=3, miss_penalty=10)
    assert state.hands[0].points == {"Ann": -20, "Ben": -10, "Cy": -10}


def test_the_wizard_way_scores_40_for_two_made_and_minus_20_for_two_missed_by_two():
    wizard = {"made_bonus": 20, "trick_value": 10, "miss_penalty": 10}
    assert hand_points(2, 2, 2, wizard) == 40
    assert hand_points(2, 0, 2, wizard) == -20
    entries = [hand([2, 2, 0], [2, 0, 0])]
    state = play(entries, sequence="down", max_cards=2, **wizard)
    assert state.hands[0].points == {"Ann": 40, "Ben": -20, "Cy": 20}
    assert state.totals == {"Ann": 40, "Ben": -20, "Cy": 20}


def test_per_trick_misses_count_the_tricks_at_their_value_less_the_penalty():
    # bid 3 took 4: 4 tricks, times the trick value, less the penalty for 1 trick off.
    assert hand_points(3, 4, 5, {"miss_scoring": "per_trick"}) == 4
    assert hand_points(3, 4, 5, {"miss_scoring": "per_trick", "trick_value": 10}) == 40
    assert hand_points(3, 4, 5, {"miss_scoring": "per_trick", "miss_penalty": 5}) == -1
    both = {"miss_scoring": "per_trick", "trick_value": 10, "miss_penalty": 10}
    assert hand_points(0, 3, 5, both) == 0
    state = play([hand([3, 1, 1], [4, 1, 0])], sequence="down", max_cards=5, **both)
    assert state.hands[0].points == {"Ann": 30, "Ben": 20, "Cy": -10}


def test_a_made_zero_with_the_zero_bid_bonus_scores_5_plus_the_cards_whatever_the_bonus():
    options = {"zero_bid_bonus": True, "made_bonus": 20, "trick_value": 10}
    assert hand_points(0, 0, 7, options) == 12
    assert hand_points(2, 2, 7, options) == 40
    state = play([hand([0, 3, 4], [0, 3, 4])], sequence="down", max_cards=7, **options)
    assert state.hands[0].points == {"Ann": 12, "Ben": 50, "Cy": 60}


def test_the_scoring_options_take_only_whole_numbers_from_0_to_100():
    for raw in (
        {"made_bonus": 101},
        {"trick_value": -1},
        {"miss_penalty": 2.5},
        {"made_bonus": 10.0},
    ):
        (key,) = raw
        assert options_refused(raw) == [("option_value", f"options.{key}")]
    for raw in ({"made_bonus": 15}, {"trick_value": 5}, {"miss_penalty": 1}, {"made_bonus": 0}):
        assert RULES.resolve_options(raw, 3).items() >= raw.items()


def test_bids_made_still_count_an_exact_bid_whatever_the_scoring():
    setup = make_setup(miss_penalty=10, sequence="down", max_cards=2)
    state = RULES.play(setup, [hand([2, 0, 1], [2, 0, 0])])
    facts = RULES.hand_facts(setup, state.hands[0])
    assert [f["bids_made"] for f in facts] == [1, 1, 0]
    assert state.hands[0].points == {"Ann": 12, "Ben": 10, "Cy": -10}
    assert state.hands[0].info["made"] == {"Ann": True, "Ben": True, "Cy": False}


# Presets -------------------------------------------------------------------------------------


def test_the_presets_are_listed_in_order_with_their_labels_and_scoring():
    assert [(key, label) for key, label, _ in RULES.presets] == [
        ("seed", "Standard"),
        ("nomination_whist", "Nomination Whist"),
        ("penalty", "Penalty"),
        ("wizard_scoring", "Wizard scoring"),
    ]
    seed = {
        "made_bonus": 10,
        "trick_value": 1,
        "miss_scoring": "zero",
        "miss_penalty": 0,
        "zero_bid_bonus": False,
    }
    by_key = {preset.key: preset.options for preset in RULES.presets}
    assert by_key["seed"] == seed
    assert by_key["nomination_whist"] == {**seed, "miss_scoring": "per_trick"}
    assert by_key["penalty"] == {**seed, "miss_penalty": 5}
    assert by_key["wizard_scoring"] == {
        **seed,
        "made_bonus": 20,
        "trick_value": 10,
        "miss_penalty": 10,
    }
    defaults = RULES.resolve_options({}, 4)
    assert {key: defaults[key] for key in seed} == seed


@pytest.mark.parametrize("preset", RULES.presets, ids=lambda preset: preset.key)
def test_options_filled_in_by_a_preset_are_recognised_as_that_preset(preset):
    resolved = RULES.resolve_options(preset.options, 5)
    assert RULES.preset_of(resolved) == preset.key
    # Options that do not score (sequence, hook, ...) do not matter.
    other = RULES.resolve_options({**preset.options, "sequence": "down", "hook": True}, 5)
    assert RULES.preset_of(other) == preset.key


def test_options_that_match_no_preset_have_none():
    assert RULES.preset_of(RULES.resolve_options({}, 3)) == "seed"
    assert RULES.preset_of(RULES.resolve_options({"zero_bid_bonus": True}, 3)) is None
    assert RULES.preset_of(RULES.resolve_options({"made_bonus": 20}, 3)) is None
    wizard_but = {"made_bonus": 20, "trick_value": 10, "miss_penalty": 5}
    assert RULES.preset_of(RULES.resolve_options(wizard_but, 3)) is None


def test_presets_score_as_they_say():
    entry = hand([2, 1, 0], [3, 0, 0])  # Ann off by 1 (took 3), Ben off by 1 (took 0), Cy made.
    scored = {}
    for preset in RULES.presets:
        state = play([entry], sequence="down", max_cards=3, **preset.options)
        scored[preset.key] = state.hands[0].points
    assert scored == {
        "seed": {"Ann": 0, "Ben": 0, "Cy": 10},
        "nomination_whist": {"Ann": 3, "Ben": 0, "Cy": 10},
        "penalty": {"Ann": -5, "Ben": -5, "Cy": 5 + 5},
        "wizard_scoring": {"Ann": -10, "Ben": -10, "Cy": 20},
    }


# Hands without trump ---------------------------------------------------------------------------

#: Three players, at most 4 cards: which hands (from 1) have no trump, per sequence and choice.
NO_TRUMP_CASES = [
    ("up", {}, "last", {4}),
    ("up", {}, "largest", {4}),
    ("up", {}, "none", set()),
    ("down", {}, "last", {4}),
    ("down", {}, "largest", {1}),
    ("down", {}, "none", set()),
    ("up-down", {}, "last", {7}),
    ("up-down", {}, "largest", {4}),
    ("up-down", {}, "none", set()),
    ("down-up", {}, "last", {7}),
    ("down-up", {}, "largest", {1, 7}),
    ("down-up", {}, "none", set()),
    ("custom", {"custom_sizes": [2, 3, 3, 1]}, "last", {4}),
    ("custom", {"custom_sizes": [2, 3, 3, 1]}, "largest", {2, 3}),
    ("custom", {"custom_sizes": [2, 3, 3, 1]}, "none", set()),
]


@pytest.mark.parametrize(("sequence", "extra", "chosen", "without"), NO_TRUMP_CASES)
def test_the_hands_without_trump_follow_the_choice_in_every_sequence(
    sequence, extra, chosen, without
):
    options = {"sequence": sequence, "max_cards": 4, "no_trump_hands": chosen, **extra}
    sizes = game_sizes(RULES.resolve_options(options, 3))
    entries: list[dict[str, Any]] = []
    for number, cards in enumerate(sizes, 1):
        state = play(entries, **options)
        assert state.next["number"] == number
        assert state.next["no_trump"] is (number in without)
        trump = None if number in without else "hearts"
        if number in without:
            error = refusal([*entries, first_takes_all(THREE, cards, trump="hearts")], **options)
            assert (error.code, error.field, error.hand) == ("trump_invalid", "trump", number)
        entries.append(first_takes_all(THREE, cards, trump=trump))
    state = play(entries, **options)
    assert state.finished
    assert {h.number for h in state.hands if h.info["no_trump"]} == without
    assert [h.input.get("trump") for h in state.hands] == [
        None if h.number in without else "hearts" for h in state.hands
    ]


def test_by_default_the_last_hand_is_played_without_trump():
    entries = [first_takes_all(THREE, cards) for cards in range(1, 15)]
    state = play(entries)
    assert state.next["number"] == 15
    assert state.next["no_trump"] is True
    assert "Hand 15 is the last hand: it is played without trump." in state.notices
    error = refusal([*entries, first_takes_all(THREE, 15, trump="spades")])
    assert error.code == "trump_invalid"
    assert error.message == "Hand 15 is the last hand, which is played without trump."
    state = play([*entries, first_takes_all(THREE, 15)])
    assert state.hands[-1].info["no_trump"] is True
    assert [h.info["no_trump"] for h in state.hands[:14]] == [False] * 14


def test_the_biggest_hands_say_why_they_have_no_trump():
    options = {"sequence": "down-up", "max_cards": 3, "no_trump_hands": "largest"}
    state = play([], **options)
    assert "Hand 1 has the most cards of the game: it is played without trump." in state.notices
    error = refusal([first_takes_all(THREE, 3, trump="clubs")], **options)
    assert error.message == (
        "Hand 1 has the most cards of the game (3), so it is played without trump."
    )


@pytest.mark.parametrize("chosen", ["last", "largest", "none"])
def test_a_hand_that_deals_all_52_cards_never_has_a_trump(chosen):
    # Four players, down: 13, 12, ... 1. Hand 1 deals all 52 cards whatever is chosen.
    options = {"sequence": "down", "no_trump_hands": chosen}
    state = play([], FOUR, **options)
    assert state.next["no_trump"] is True
    assert "Hand 1: all 52 cards are dealt, so there is no trump." in state.notices
    error = refusal([first_takes_all(FOUR, 13, trump="spades")], FOUR, **options)
    assert error.message == "All 52 cards are dealt in a 13-card hand, so there is no trump."
    state = play([first_takes_all(FOUR, 13)], FOUR, **options)
    assert state.hands[0].info["no_trump"] is True
    assert state.next["cards"] == 12 and state.next["no_trump"] is False
    # A custom schedule too: 13 cards to each of four players, twice, 5 between.
    custom = {"sequence": "custom", "custom_sizes": [13, 5, 13, 4], "no_trump_hands": chosen}
    entries = [first_takes_all(FOUR, 13), first_takes_all(FOUR, 5)]
    state = play(entries, FOUR, **custom)
    assert [h.info["no_trump"] for h in state.hands] == [True, False]
    assert state.next["cards"] == 13 and state.next["no_trump"] is True
    state = play([*entries, first_takes_all(FOUR, 13)], FOUR, **custom)
    assert state.next["cards"] == 4 and state.next["no_trump"] is (chosen == "last")


def test_with_no_hand_chosen_the_last_hand_may_have_a_trump():
    entries = [first_takes_all(THREE, 1), first_takes_all(THREE, 2, trump="Diamonds")]
    state = play(entries, max_cards=2, no_trump_hands="none")
    assert state.finished
    assert state.hands[1].info["no_trump"] is False
    assert state.hands[1].input["trump"] == "diamonds"
    assert RULES.csv_cells(make_setup(), state.hands[1])[:2] == [2, "Diamonds"]


def test_the_csv_says_none_for_a_hand_without_trump():
    setup = make_setup(max_cards=2)
    state = RULES.play(setup, [first_takes_all(THREE, 1, trump="clubs"), first_takes_all(THREE, 2)])
    assert [RULES.csv_cells(setup, h)[1] for h in state.hands] == ["Clubs", "No trump"]


def test_no_trump_hands_takes_only_its_listed_values():
    assert options_refused({"no_trump_hands": "first"}) == [
        ("option_value", "options.no_trump_hands")
    ]


# The hook's smallest hand ----------------------------------------------------------------------


def test_the_hook_holds_only_from_the_smallest_hand_named():
    options = {"sequence": "up", "max_cards": 4, "hook": True, "hook_min_cards": 3}
    # Hand 2: Ben deals 2 cards. Cy and Ann bid 1 + 0, so without the limit Ben may not bid 1.
    hand_1 = hand([1, 0, 0], [1, 0, 0])
    waiting = play([hand_1, {"bids": {"Cy": 1, "Ann": 0}}], **options)
    assert waiting.next["forbidden_dealer_bid"] is None
    assert not any("may not bid" in notice for notice in waiting.notices)
    state = play([hand_1, hand([0, 1, 1], [0, 1, 1])], **options)
    assert state.hands[1].info["bids_total"] == 2 == state.hands[1].info["cards"]
    # Hand 3: Cy deals 3 cards, the first at or above the limit: the hook holds.
    hand_2 = hand([0, 1, 1], [0, 1, 1])
    waiting = play([hand_1, hand_2, {"bids": {"Ann": 1, "Ben": 1}}], **options)
    assert waiting.next["forbidden_dealer_bid"] == 1
    assert "Cy is the dealer and may not bid 1." in waiting.notices
    error = refusal([hand_1, hand_2, hand([1, 1, 1])], **options)
    assert (error.code, error.field, error.hand) == ("hook_violation", "bids.Cy", 3)
    assert play([hand_1, hand_2, hand([1, 1, 0])], **options).hands[2].status == "playing"


def test_the_smallest_hand_of_the_hook_applies_to_simultaneous_bidding_too():
    options = {"max_cards": 3, "hook": True, "simultaneous": True, "hook_min_cards": 2}
    state = play([hand([1, 0, 0], [1, 0, 0])], **options)  # 1 card: bids may total 1
    assert state.hands[0].info["bids_total"] == 1
    error = refusal([hand([1, 0, 0], [1, 0, 0]), hand([1, 1, 0])], **options)
    assert (error.code, error.field) == ("hook_violation", "bids")


def test_the_smallest_hand_of_the_hook_has_no_effect_with_the_hook_off():
    options = {"max_cards": 4, "hook_min_cards": 2}
    assert RULES.resolve_options(options, 3)["hook_min_cards"] == 2
    state = play([hand([1, 0, 0], [1, 0, 0]), {"bids": {"Cy": 1, "Ann": 1}}], **options)
    assert state.next["forbidden_dealer_bid"] is None
    state = play([hand([1, 0, 0], [1, 0, 0]), hand([1, 0, 1])], **options)
    assert state.hands[1].status == "playing"


@pytest.mark.parametrize(
    ("raw", "count", "biggest"),
    [
        ({}, 3, 15),
        ({}, 7, 7),
        ({"max_cards": 5}, 4, 5),
        ({"sequence": "down-up", "max_cards": 2}, 5, 2),
        ({"sequence": "custom", "custom_sizes": [2, 6, 3]}, 3, 6),
    ],
)
def test_the_smallest_hand_of_the_hook_runs_from_1_to_the_biggest_hand_of_the_game(
    raw, count, biggest
):
    for least in (1, biggest):
        assert RULES.resolve_options({**raw, "hook_min_cards": least}, count)["hook_min_cards"]
    for least in (0, biggest + 1):
        assert options_refused({**raw, "hook_min_cards": least}, count) == [
            ("option_value", "options.hook_min_cards")
        ]
    with pytest.raises(RuleError) as caught:
        RULES.resolve_options({**raw, "hook_min_cards": biggest + 1}, count)
    assert str(biggest) in caught.value.message


# Custom sequences ----------------------------------------------------------------------------


def test_a_custom_sequence_is_played_exactly_as_listed():
    options = {"sequence": "custom", "custom_sizes": [7, 7, 7], "max_cards": 2}
    seven = NAMES
    resolved = RULES.resolve_options(options, 7)
    assert resolved["custom_sizes"] == [7, 7, 7]
    state = play([], seven, **options)
    assert state.next["cards"] == 7 and state.next["total_hands"] == 3
    entries = [first_takes_all(seven, 7) for _ in range(3)]
    state = play(entries, seven, first_dealer=6, **options)
    assert [h.info["cards"] for h in state.hands] == [7, 7, 7]
    assert [h.dealer for h in state.hands] == ["Gus", "Ann", "Ben"]
    assert state.finished
    assert state.totals["Ann"] == 3 * 17
    assert state.hands[-1].info["no_trump"] is True
    error = refusal([*entries, first_takes_all(seven, 7)], seven, **options)
    assert (error.code, error.hand) == ("game_over", 4)


def test_a_custom_sequence_of_odd_sizes_deals_them_in_order():
    sizes = [9, 7, 5, 3, 1, 3, 5, 7, 9]
    options = {"sequence": "custom", "custom_sizes": sizes}
    entries = [first_takes_all(FOUR, cards) for cards in sizes[:4]]
    state = play(entries, FOUR, **options)
    assert [h.info["cards"] for h in state.hands] == [9, 7, 5, 3]
    assert state.next["cards"] == 1 and state.next["number"] == 5
    error = refusal([*entries, first_takes_all(FOUR, 2)], FOUR, **options)
    assert error.code == "bid_out_of_range"


def test_a_custom_sequence_may_have_40_hands_of_the_most_cards():
    assert len(RULES.resolve_options({"sequence": "custom", "custom_sizes": [15] * 40}, 3)) > 0
    assert RULES.resolve_options({"sequence": "custom", "custom_sizes": [1]}, 3)["custom_sizes"]


@pytest.mark.parametrize(
    ("raw", "count"),
    [
        ({"sequence": "custom"}, 3),
        ({"sequence": "custom", "custom_sizes": None}, 3),
        ({"custom_sizes": [3, 2, 1]}, 3),
        ({"sequence": "down", "custom_sizes": [3, 2, 1]}, 3),
        ({"sequence": "up", "custom_sizes": []}, 3),
        ({"sequence": "custom", "custom_sizes": "3, 2, 1"}, 3),
        ({"sequence": "custom", "custom_sizes": {"1": 3}}, 3),
        ({"sequence": "custom", "custom_sizes": 3}, 3),
        ({"sequence": "custom", "custom_sizes": []}, 3),
        ({"sequence": "custom", "custom_sizes": [1] * 41}, 3),
        ({"sequence": "custom", "custom_sizes": [3, 0, 1]}, 3),
        ({"sequence": "custom", "custom_sizes": [3, -2]}, 3),
        ({"sequence": "custom", "custom_sizes": [16]}, 3),
        ({"sequence": "custom", "custom_sizes": [7, 8]}, 7),
        ({"sequence": "custom", "custom_sizes": [14]}, 4),
        ({"sequence": "custom", "custom_sizes": [2, 1.5]}, 3),
        ({"sequence": "custom", "custom_sizes": [2.0]}, 3),
        ({"sequence": "custom", "custom_sizes": [True]}, 3),
        ({"sequence": "custom", "custom_sizes": ["3"]}, 3),
        ({"sequence": "custom", "custom_sizes": [None]}, 3),
        ({"sequence": "custom", "custom_sizes": [0, 99, "x"]}, 3),
    ],
)
def test_every_problem_with_the_custom_sizes_is_one_custom_sizes_invalid(raw, count):
    assert options_refused(raw, count) == [("custom_sizes_invalid", "options.custom_sizes")]


def test_custom_size_messages_say_what_is_wrong():
    def message(raw, count=3):
        with pytest.raises(RuleError) as caught:
            RULES.resolve_options(raw, count)
        return caught.value.message

    assert message({"sequence": "custom"}) == (
        "A custom sequence needs its hand sizes: the cards of each hand, in order."
    )
    assert message({"custom_sizes": [1]}) == (
        "Custom hand sizes go with the custom sequence only; choose it or leave them out."
    )
    assert message({"sequence": "custom", "custom_sizes": []}) == (
        "A custom sequence has 1 to 40 hands, not 0."
    )
    assert message({"sequence": "custom", "custom_sizes": [5, 8]}, 7) == (
        "Each custom hand has 1 to 7 cards, but hand 2 has “8”."
    )


def test_custom_size_problems_come_with_the_other_option_problems():
    assert options_refused({"sequence": "custom", "made_bonus": 101, "colour": 1}) == [
        ("unknown_option", "options.colour"),
        ("option_value", "options.made_bonus"),
        ("custom_sizes_invalid", "options.custom_sizes"),
    ]
    # With a sequence that does not exist, whether the sizes belong cannot be told yet.
    assert options_refused({"sequence": "sideways", "custom_sizes": [1, 2]}) == [
        ("option_value", "options.sequence")
    ]


def test_the_most_cards_plays_no_part_in_a_custom_sequence():
    options = {"sequence": "custom", "custom_sizes": [5, 1], "max_cards": 2}
    assert game_sizes(RULES.resolve_options(options, 3)) == [5, 1]
    state = play([first_takes_all(THREE, 5)], **options)
    assert state.hands[0].info["cards"] == 5


def test_options_stored_before_the_house_rules_play_as_before():
    old = {
        "sequence": "up",
        "max_cards": 2,
        "hook": True,
        "simultaneous": False,
        "miss_scoring": "zero",
        "zero_bid_bonus": False,
        "must_trump": False,
    }
    setup = Setup(THREE, old, 0)
    state = RULES.play(setup, [hand([1, 0, 1], [1, 0, 0]), hand([1, 1, 1], [1, 1, 0])])
    assert state.totals == {"Ann": 22, "Ben": 21, "Cy": 0}
    assert state.hands[1].info["no_trump"] is True


# Every option described ------------------------------------------------------------------------


def test_every_option_has_a_label_and_help_and_every_choice_a_label():
    for count in range(3, 8):
        for option in RULES.option_specs(count):
            assert option.label and option.help, option.key
            if option.kind == "choice":
                assert set(option.choice_labels) == set(option.choices), option.key
    specs = {option.key: option for option in RULES.option_specs(3)}
    assert specs["sequence"].choice_labels["up"] == "Up: 1 card, then 2, 3 … to the most"
    assert specs["sequence"].choices == ("up", "down", "up-down", "down-up", "custom")
    assert specs["custom_sizes"].kind == "list"
    assert (specs["custom_sizes"].minimum, specs["custom_sizes"].maximum) == (1, 15)
    for key in ("made_bonus", "trick_value", "miss_penalty"):
        assert (specs[key].kind, specs[key].minimum, specs[key].maximum) == ("int", 0, 100)
        assert specs[key].stepper
    assert [key for key in specs] == list(RULES.resolve_options({}, 3))


def describe(count=3, **options):
    return RULES.describe(RULES.resolve_options(options, count))


def test_plain_play_is_described_in_three_sentences():
    assert describe() == [
        "Exact bid: 10 + tricks. Missed: 0.",
        "Cards per hand: 1 to 15, one more each hand (15 hands).",
        "The last hand is played without trump.",
    ]


def test_the_wizard_way_and_the_other_scorings_are_described():
    assert describe(made_bonus=20, trick_value=10, miss_penalty=10)[0] == (
        f"Exact bid: 20 + 10 per trick. Missed: {MINUS}10 per trick off."
    )
    assert (
        describe(miss_scoring="per_trick")[0]
        == "Exact bid: 10 + tricks. Missed: 1 per trick taken."
    )
    assert describe(miss_scoring="per_trick", trick_value=10, miss_penalty=5, made_bonus=5)[0] == (
        f"Exact bid: 5 + 10 per trick. Missed: 10 per trick taken, {MINUS}5 per trick off."
    )
    assert "A made bid of 0 scores 5 + the cards dealt." in describe(zero_bid_bonus=True)


@pytest.mark.parametrize(
    ("options", "count", "sentence"),
    [
        ({"sequence": "down"}, 5, "Cards per hand: 10 down to 1, one fewer each hand (10 hands)."),
        ({"sequence": "up-down"}, 3, "Cards per hand: 1 to 15, then back down to 1 (29 hands)."),
        (
            {"sequence": "down-up", "max_cards": 6},
            3,
            "Cards per hand: 6 down to 1, then back up to 6 (11 hands).",
        ),
        ({"max_cards": 1}, 3, "Cards per hand: 1 (1 hand)."),
        (
            {"sequence": "custom", "custom_sizes": [7, 7, 7]},
            7,
            "Cards per hand, as the table listed them: 7, 7, 7 (3 hands).",
        ),
    ],
)
def test_the_cards_per_hand_are_said_in_words(options, count, sentence):
    assert describe(count, **options)[1] == sentence


def test_the_hands_without_trump_are_described():
    assert describe(no_trump_hands="largest")[2] == (
        "The hand with the most cards (15) is played without trump."
    )
    assert describe(no_trump_hands="largest", sequence="down-up")[2] == (
        "The 2 hands with the most cards (15) are played without trump."
    )
    assert describe(no_trump_hands="none")[2] == (
        "A trump card is turned in every hand that leaves a card to turn."
    )
    sentences = RULES.describe(RULES.resolve_options({}, 4), player_count=4)
    assert sentences[-1] == (
        "A hand of 13 cards deals all 52, so it has no trump (no card is left to turn)."
    )
    assert len(RULES.describe(RULES.resolve_options({"max_cards": 12}, 4), player_count=4)) == 3


def test_the_hook_simultaneous_bidding_and_must_trump_are_described():
    assert describe(hook=True)[-1] == "Hook: the bids may not add up to the cards dealt."
    assert describe(hook=True, hook_min_cards=4)[-1] == (
        "Hook: the bids may not add up to the cards dealt (hands of 4 cards or more)."
    )
    assert describe(hook_min_cards=4) == describe()  # no effect with the hook off
    assert describe(simultaneous=True)[-1] == "Everyone shows a bid at once."
    assert describe(simultaneous=True, hook=True)[-1] == (
        "Everyone shows a bid at once; with the hook, bids that add up to the cards dealt are "
        "refused and the table bids again."
    )
    assert describe(must_trump=True)[-1] == (
        "A player who cannot follow suit must play a trump if holding one."
    )


def test_describe_fills_in_options_left_out():
    assert RULES.describe({"made_bonus": 5}) == [
        "Exact bid: 5 + tricks. Missed: 0.",
        "Cards per hand: 1 to 15, one more each hand (15 hands).",
        "The last hand is played without trump.",
    ]


# Several problems at once --------------------------------------------------------------------


def test_two_bids_out_of_range_name_both_players():
    error = refusal([hand([1, 0, 0], [1, 0, 0]), hand([3, 0, -1])])
    assert isinstance(error, RuleErrors)
    assert [(e.code, e.field, e.hand) for e in error.errors] == [
        ("bid_out_of_range", "bids.Ann", 2),
        ("bid_out_of_range", "bids.Cy", 2),
    ]
    assert [e.message for e in error.errors] == [
        "Ann's bid must be from 0 to 2.",
        "Cy's bid must be from 0 to 2.",
    ]
    assert (error.code, error.field, error.hand) == ("bid_out_of_range", "bids.Ann", 2)


def test_missing_bids_of_several_players_are_all_named():
    error = refusal([{"bids": {"Ben": 0}, "tricks": {"Ann": 1, "Ben": 0, "Cy": 0}}])
    assert [(e.code, e.field) for e in error.errors] == [
        ("missing_bid", "bids.Ann"),
        ("missing_bid", "bids.Cy"),
    ]
    # An earlier hand left half bid: every missing bid, and its missing tricks.
    error = refusal([{"bids": {"Ann": 1}}, hand([0, 0, 0])])
    assert [(e.code, e.field, e.hand) for e in error.errors] == [
        ("missing_bid", "bids.Ben", 1),
        ("missing_bid", "bids.Cy", 1),
        ("missing_tricks", "tricks", 1),
    ]


def test_bid_trump_and_trick_problems_of_one_hand_come_together():
    entry = {
        "bids": {"Ann": 5, "Ben": "one", "Cy": 0, "Zed": 1},
        "tricks": {"Ann": 2, "Ben": 0},
        "trump": "stars",
    }
    error = refusal([entry], sequence="down", max_cards=2)
    assert [(e.code, e.field) for e in error.errors] == [
        ("unknown_player", "bids.Zed"),
        ("bid_out_of_range", "bids.Ann"),
        ("wrong_type", "bids.Ben"),
        ("trump_invalid", "trump"),
        ("missing_tricks", "tricks.Cy"),
    ]


def test_tricks_out_of_range_are_all_named_and_their_sum_waits_for_them():
    error = refusal([hand([1, 0, 0], [3, -1, 9])], sequence="down", max_cards=2)
    assert [(e.code, e.field) for e in error.errors] == [
        ("tricks_out_of_range", "tricks.Ann"),
        ("tricks_out_of_range", "tricks.Ben"),
        ("tricks_out_of_range", "tricks.Cy"),
    ]


def test_the_hook_waits_until_every_bid_is_in_range():
    options = {"sequence": "down", "max_cards": 2, "hook": True}
    # Ann deals: Ben and Cy bid 1 + 1 and Ann 0 totals 2, but Ben's 3 is out of range first.
    error = refusal([hand([0, 3, 1])], **options)
    assert [(e.code, e.field) for e in error.errors] == [("bid_out_of_range", "bids.Ben")]
    error = refusal([hand([0, 1, 1], trump="stars")], **options)
    assert [(e.code, e.field) for e in error.errors] == [
        ("hook_violation", "bids.Ann"),
        ("trump_invalid", "trump"),
    ]


def test_a_hand_left_without_tricks_and_with_a_bad_bid_gives_both():
    error = refusal([hand([1, 0, 5]), hand([0, 0, 0])])
    assert [(e.code, e.field, e.hand) for e in error.errors] == [
        ("bid_out_of_range", "bids.Cy", 1),
        ("missing_tricks", "tricks", 1),
    ]


# Properties over random option combinations ------------------------------------------------


def expected_points(bid: int, tricks: int, cards: int, options: dict[str, Any]) -> int:
    """RULES.md "House scoring", written out again."""
    if bid == tricks:
        if bid == 0 and options["zero_bid_bonus"]:
            return 5 + cards
        return options["made_bonus"] + options["trick_value"] * tricks
    won = tricks * options["trick_value"] if options["miss_scoring"] == "per_trick" else 0
    return won - options["miss_penalty"] * abs(tricks - bid)


@st.composite
def option_sets(draw, count: int) -> dict[str, Any]:
    most = MAX_CARDS[count]
    sequence = draw(st.sampled_from([*SEQUENCES, "custom"]))
    options: dict[str, Any] = {
        "sequence": sequence,
        "max_cards": draw(st.integers(1, min(5, most))),
        "no_trump_hands": draw(st.sampled_from(["last", "largest", "none"])),
        "hook": draw(st.booleans()),
        "simultaneous": draw(st.booleans()),
        "miss_scoring": draw(st.sampled_from(["zero", "per_trick"])),
        "zero_bid_bonus": draw(st.booleans()),
        "made_bonus": draw(st.integers(0, 100)),
        "trick_value": draw(st.integers(0, 100)),
        "miss_penalty": draw(st.integers(0, 100)),
        "must_trump": draw(st.booleans()),
    }
    if sequence == "custom":
        options["custom_sizes"] = draw(st.lists(st.integers(1, most), min_size=1, max_size=8))
        biggest = max(options["custom_sizes"])
    else:
        biggest = options["max_cards"]
    options["hook_min_cards"] = draw(st.integers(1, biggest))
    return options


@st.composite
def house_games(draw):
    """A random table, random house rules and a whole legal game, with the schedule."""
    count = draw(st.integers(3, 7))
    players = NAMES[:count]
    options = draw(option_sets(count))
    setup = make_setup(players, draw(st.integers(0, count - 1)), **options)
    if options["sequence"] == "custom":
        schedule = options["custom_sizes"]
    else:
        schedule = hand_sizes(options["sequence"], options["max_cards"])
    entries = []
    for number, cards in enumerate(schedule, 1):
        dealer = players[(setup.first_dealer + number - 1) % count]
        bids = {name: draw(st.integers(0, cards)) for name in players}
        hooked = options["hook"] and cards >= options["hook_min_cards"]
        if hooked and sum(bids.values()) == cards:
            others = [value for value in range(cards + 1) if value != bids[dealer]]
            bids[dealer] = draw(st.sampled_from(others))
        takers = draw(st.lists(st.sampled_from(players), min_size=cards, max_size=cards))
        entries.append({"bids": bids, "tricks": {name: takers.count(name) for name in players}})
    return setup, schedule, entries


@settings(max_examples=150, deadline=None)
@given(house_games())
def test_any_house_rules_game_is_played_as_listed_and_totals_add_up(game):
    setup, schedule, entries = game
    options = setup.options
    count = len(setup.players)
    state = RULES.play(setup, entries)
    assert state.finished and state.next is None
    assert [h.info["cards"] for h in state.hands] == list(schedule)
    assert all(h.info["total_hands"] == len(schedule) for h in state.hands)
    for index, (played, entry) in enumerate(zip(state.hands, entries, strict=True)):
        cards = schedule[index]
        for name in setup.players:
            bid, tricks = entry["bids"][name], entry["tricks"][name]
            assert played.points[name] == expected_points(bid, tricks, cards, options)
        chosen = options["no_trump_hands"]
        expected = (
            count * cards == 52
            or (chosen == "last" and index == len(schedule) - 1)
            or (chosen == "largest" and cards == max(schedule))
        )
        assert played.info["no_trump"] is expected
    for name in setup.players:
        assert state.totals[name] == sum(h.points[name] for h in state.hands)
        assert state.hands[-1].totals[name] == state.totals[name]
    best = max(state.totals.values())
    assert state.winners == [n for n in setup.players if state.totals[n] == best]


@settings(max_examples=150, deadline=None)
@given(house_games(), st.data())
def test_the_forbidden_dealer_bid_exists_only_where_the_hook_applies(game, data):
    setup, schedule, entries = game
    options = setup.options
    count = len(setup.players)
    number = data.draw(st.integers(1, len(schedule)))
    cards = schedule[number - 1]
    dealer = setup.players[(setup.first_dealer + number - 1) % count]
    others = {name: bid for name, bid in entries[number - 1]["bids"].items() if name != dealer}
    state = RULES.play(setup, [*entries[: number - 1], {"bids": others}])
    assert state.next["number"] == number and state.next["cards"] == cards
    assert state.next["no_trump"] is state.hands[-1].info["no_trump"]
    hooked = options["hook"] and cards >= options["hook_min_cards"]
    if hooked and not options["simultaneous"]:
        assert state.next["forbidden_dealer_bid"] == forbidden_dealer_bid(cards, others.values())
    else:
        assert state.next["forbidden_dealer_bid"] is None
    # And the hook refuses the dealer's completing bid exactly where it applies.
    completing = cards - sum(others.values())
    if 0 <= completing <= cards:
        entry = {"bids": {**others, dealer: completing}}
        if hooked:
            with pytest.raises(RuleError) as caught:
                RULES.play(setup, [*entries[: number - 1], entry])
            assert caught.value.code == "hook_violation"
        else:
            assert RULES.play(setup, [*entries[: number - 1], entry]).hands[-1].status == "playing"


@settings(max_examples=100, deadline=None)
@given(st.integers(3, 7), st.data())
def test_any_list_of_allowed_sizes_is_accepted_and_anything_else_is_custom_sizes_invalid(
    count, data
):
    most = MAX_CARDS[count]
    sizes = data.draw(st.lists(st.integers(-2, most + 2), min_size=0, max_size=42))
    good = 1 <= len(sizes) <= 40 and all(1 <= cards <= most for cards in sizes)
    raw = {"sequence": "custom", "custom_sizes": sizes}
    if good:
        assert game_sizes(RULES.resolve_options(raw, count)) == sizes
        assert RULES.preset_of(RULES.resolve_options(raw, count)) == "seed"
    else:
        assert options_refused(raw, count) == [("custom_sizes_invalid", "options.custom_sizes")]
