"""Oh Hell rules: every example of RULES.md, every variant and refusal, and properties."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from scorekeeper.games.base import RuleError
from scorekeeper.games.base import Setup
from scorekeeper.games.oh_hell.rules import RULES
from scorekeeper.games.oh_hell.rules import SEQUENCES
from scorekeeper.games.oh_hell.rules import bid_balance
from scorekeeper.games.oh_hell.rules import forbidden_dealer_bid
from scorekeeper.games.oh_hell.rules import hand_points
from scorekeeper.games.oh_hell.rules import hand_sizes
from scorekeeper.games.oh_hell.rules import max_cards_for
from scorekeeper.games.oh_hell.rules import no_trump

NAMES = ("Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus")
THREE = NAMES[:3]
FOUR = NAMES[:4]
DEFAULTS = {"zero_bid_bonus": False, "miss_scoring": "zero"}


def make_setup(players=THREE, first_dealer=0, **options) -> Setup:
    return Setup(tuple(players), RULES.resolve_options(options, len(players)), first_dealer)


def play(entries, players=THREE, first_dealer=0, **options):
    return RULES.play(make_setup(players, first_dealer, **options), entries)


def refusal(entries, players=THREE, first_dealer=0, **options) -> RuleError:
    with pytest.raises(RuleError) as caught:
        play(entries, players, first_dealer, **options)
    assert_sentence(caught.value.message)
    return caught.value


def assert_sentence(message: str) -> None:
    assert message[0].isupper()
    assert message.endswith(".")
    assert len(message.split()) >= 3


def hand(bids, tricks=None, **extra):
    entry = {"bids": dict(zip(NAMES, bids, strict=False))}
    if tricks is not None:
        entry["tricks"] = dict(zip(NAMES, tricks, strict=False))
    entry.update(extra)
    return entry


# The examples of RULES.md, hand by hand ------------------------------------------------------


def test_a_made_bid_of_4_scores_14():
    assert hand_points(4, 4, 5, DEFAULTS) == 14
    state = play([hand([4, 1, 0, 0], [4, 1, 0, 0])], FOUR, sequence="down", max_cards=5)
    assert state.hands[0].points == {"Ann": 14, "Ben": 11, "Cy": 10, "Dee": 10}
    assert state.totals == {"Ann": 14, "Ben": 11, "Cy": 10, "Dee": 10}


def test_a_made_bid_of_0_scores_10():
    assert hand_points(0, 0, 5, DEFAULTS) == 10
    state = play([hand([0, 0, 1], [0, 0, 1])])
    assert state.hands[0].points == {"Ann": 10, "Ben": 10, "Cy": 11}


def test_a_missed_bid_scores_nothing_by_default():
    assert hand_points(3, 4, 5, DEFAULTS) == 0
    assert hand_points(0, 1, 5, DEFAULTS) == 0
    state = play([hand([1, 1, 0], [0, 1, 0])], sequence="down", max_cards=1)
    assert state.hands[0].points == {"Ann": 0, "Ben": 11, "Cy": 10}
    assert state.hands[0].info["made"] == {"Ann": False, "Ben": True, "Cy": True}


def test_with_the_hook_the_dealer_is_told_the_forbidden_bid_before_bidding():
    # 5 cards, Cy deals, the others bid 1 + 2 + 0 = 3: Cy may not bid 2.
    entries = [{"bids": {"Dee": 1, "Ann": 2, "Ben": 0}}]
    state = play(entries, FOUR, first_dealer=2, sequence="down", max_cards=5, hook=True)
    assert state.hands[0].status == "bidding"
    assert state.next["number"] == 1
    assert state.next["dealer"] == "Cy"
    assert state.next["order"] == ["Dee", "Ann", "Ben", "Cy"]
    assert state.next["forbidden_dealer_bid"] == 2
    assert "Cy is the dealer and may not bid 2." in state.notices


def test_dealer_may_not_bid_the_value_that_makes_bids_equal_tricks():
    entries = [{"bids": {"Dee": 1, "Ann": 2, "Ben": 0, "Cy": 2}}]
    error = refusal(entries, FOUR, first_dealer=2, sequence="down", max_cards=5, hook=True)
    assert error.code == "hook_violation"
    assert error.field == "bids.Cy"
    assert error.hand == 1
    assert error.message == "Cy is the dealer and may not bid 2: the bids would total the 5 cards."


def test_dealer_may_bid_any_other_value_under_the_hook():
    for bid in (0, 1, 3, 4, 5):
        entries = [{"bids": {"Dee": 1, "Ann": 2, "Ben": 0, "Cy": bid}}]
        state = play(entries, FOUR, first_dealer=2, sequence="down", max_cards=5, hook=True)
        assert state.hands[0].status == "playing"
        assert state.hands[0].input["bids"]["Cy"] == bid
        assert state.next["forbidden_dealer_bid"] == 2


def test_a_missed_bid_scores_a_point_a_trick_with_per_trick_scoring():
    assert hand_points(3, 4, 5, {"miss_scoring": "per_trick"}) == 4
    entries = [hand([3, 1, 1], [4, 1, 0])]
    state = play(entries, sequence="down", max_cards=5, miss_scoring="per_trick")
    assert state.hands[0].points == {"Ann": 4, "Ben": 11, "Cy": 0}


def test_a_made_zero_bid_scores_5_plus_the_cards_with_the_zero_bid_bonus():
    assert hand_points(0, 0, 7, {"zero_bid_bonus": True}) == 12
    entries = [hand([0, 3, 4], [0, 3, 4])]
    state = play(entries, sequence="down", max_cards=7, zero_bid_bonus=True)
    assert state.hands[0].info["cards"] == 7
    assert state.hands[0].points == {"Ann": 12, "Ben": 13, "Cy": 14}


def test_the_zero_bid_bonus_does_not_change_other_made_bids():
    assert hand_points(2, 2, 7, {"zero_bid_bonus": True}) == 12
    assert hand_points(0, 1, 7, {"zero_bid_bonus": True}) == 0


# Table, sequences, dealer, trump -------------------------------------------------------------


@pytest.mark.parametrize(
    ("count", "most"), [(3, 15), (4, 13), (5, 10), (6, 8), (7, 7)], ids=lambda v: str(v)
)
def test_the_number_of_hands_follows_the_player_count_table(count, most):
    assert max_cards_for(count) == most
    spec = {option.key: option for option in RULES.option_specs(count)}["max_cards"]
    assert (spec.default, spec.minimum, spec.maximum) == (most, 1, most)
    options = RULES.resolve_options({}, count)
    assert options["max_cards"] == most
    assert hand_sizes(options["sequence"], options["max_cards"]) == list(range(1, most + 1))
    state = play([], NAMES[:count])
    assert state.next["total_hands"] == most


def test_player_counts_outside_3_to_7_have_no_table_entry():
    for count in (2, 8):
        with pytest.raises(ValueError):
            max_cards_for(count)


def test_each_sequence_deals_its_hand_sizes():
    assert hand_sizes("up", 4) == [1, 2, 3, 4]
    assert hand_sizes("down", 4) == [4, 3, 2, 1]
    assert hand_sizes("up-down", 4) == [1, 2, 3, 4, 3, 2, 1]
    assert hand_sizes("down-up", 4) == [4, 3, 2, 1, 2, 3, 4]
    for most in range(1, 16):
        assert len(hand_sizes("up", most)) == len(hand_sizes("down", most)) == most
        assert len(hand_sizes("up-down", most)) == len(hand_sizes("down-up", most)) == 2 * most - 1


def test_the_maximum_may_be_lowered_but_not_raised():
    assert RULES.resolve_options({"max_cards": 5}, 4)["max_cards"] == 5
    for value in (0, 14):
        with pytest.raises(RuleError) as caught:
            RULES.resolve_options({"max_cards": value}, 4)
        assert caught.value.code == "option_value"
        assert caught.value.message == "Most cards in a hand must be from 1 to 13."


def test_option_defaults_match_the_api():
    assert RULES.resolve_options({}, 5) == {
        "sequence": "up",
        "custom_sizes": None,
        "max_cards": 10,
        "no_trump_hands": "last",
        "hook": False,
        "hook_min_cards": 1,
        "simultaneous": False,
        "miss_scoring": "zero",
        "zero_bid_bonus": False,
        "made_bonus": 10,
        "trick_value": 1,
        "miss_penalty": 0,
        "must_trump": False,
    }
    for option in RULES.option_specs(5):
        assert option.label and option.help
    assert RULES.key == "oh_hell" and RULES.title == "Oh Hell" and RULES.hand_word == "Hand"
    assert (RULES.min_players, RULES.max_players) == (3, 7)


def test_the_deal_passes_to_the_left_and_the_dealers_left_bids_first_and_leads():
    entries = [hand([1, 0, 0, 0], [1, 0, 0, 0]), hand([1, 0, 0, 0], [1, 1, 0, 0])]
    state = play(entries, FOUR, first_dealer=1)
    assert [h.dealer for h in state.hands] == ["Ben", "Cy"]
    assert state.hands[0].info["order"] == ["Cy", "Dee", "Ann", "Ben"]
    assert state.hands[0].info["leader"] == "Cy"
    assert state.hands[1].info["order"] == ["Dee", "Ann", "Ben", "Cy"]
    assert state.next["dealer"] == "Dee"
    assert state.next["order"] == ["Ann", "Ben", "Cy", "Dee"]
    assert state.next["leader"] == "Ann"


def test_no_trump_exactly_when_the_hand_uses_all_52_cards():
    for count in range(3, 8):
        for cards in range(1, max_cards_for(count) + 1):
            assert no_trump(count, cards) == (count * cards == 52)
    assert no_trump(4, 13)
    state = play([], FOUR, sequence="down")
    assert state.next["cards"] == 13
    assert state.next["no_trump"] is True
    assert "Hand 1: all 52 cards are dealt, so there is no trump." in state.notices
    state = play([hand([4, 3, 3, 3])], FOUR, sequence="down")
    assert state.hands[0].info["no_trump"] is True
    assert state.hands[0].info["trump"] is None
    assert state.next["no_trump"] is True
    assert play([], FOUR).next["no_trump"] is False


def test_the_trump_suit_may_be_recorded_as_a_reminder():
    state = play([hand([1, 0, 0], trump="Hearts")])
    assert state.hands[0].info["trump"] == "hearts"
    assert state.hands[0].input == {"bids": {"Ann": 1, "Ben": 0, "Cy": 0}, "trump": "hearts"}
    state = play([hand([1, 0, 0], trump=None)])
    assert state.hands[0].info["trump"] is None
    assert "trump" not in state.hands[0].input


def test_a_trump_that_is_not_a_suit_is_refused():
    for trump in ("stars", 3, ["hearts"], ""):
        error = refusal([hand([1, 0, 0], trump=trump)])
        assert error.code == "trump_invalid"
        assert error.field == "trump"
        assert error.message == "The trump must be clubs, diamonds, hearts or spades."


def test_a_trump_on_a_hand_that_deals_all_52_cards_is_refused():
    error = refusal([hand([4, 3, 3, 2], trump="spades")], FOUR, sequence="down")
    assert error.code == "trump_invalid"
    assert error.hand == 1
    assert error.message == "All 52 cards are dealt in a 13-card hand, so there is no trump."


def test_bid_balance_says_over_under_or_even():
    assert bid_balance(7, 5) == "2 over"
    assert bid_balance(4, 5) == "1 under"
    assert bid_balance(5, 5) == "even"


def test_forbidden_dealer_bid_is_none_when_the_others_already_bid_more_than_the_cards():
    assert forbidden_dealer_bid(5, [1, 2, 0]) == 2
    assert forbidden_dealer_bid(5, [0, 0, 0]) == 5
    assert forbidden_dealer_bid(3, [2, 2]) is None


def test_a_hand_with_bids_and_no_tricks_is_being_played():
    state = play([hand([1, 1, 0], [1, 0, 0]), hand([1, 1, 1])], must_trump=True)
    current = state.hands[1]
    assert current.status == "playing"
    assert current.points is None
    assert current.info == {
        "cards": 2,
        "no_trump": False,
        "trump": None,
        "order": ["Cy", "Ann", "Ben"],
        "leader": "Cy",
        "bids_total": 3,
        "balance": "1 over",
        "made": None,
        "total_hands": 15,
    }
    assert state.current is current
    assert state.totals == {"Ann": 11, "Ben": 0, "Cy": 10}
    assert state.next == {
        "number": 2,
        "dealer": "Ben",
        "cards": 2,
        "order": ["Cy", "Ann", "Ben"],
        "leader": "Cy",
        "no_trump": False,
        "forbidden_dealer_bid": None,
        "total_hands": 15,
        "schedule": list(range(2, 16)),
        "players": list(THREE),
    }
    assert state.notices == [
        "Bids total 3 for 2 cards (1 over).",
        "A player who cannot follow suit must play a trump if holding one.",
    ]


def test_the_next_hand_is_described_before_it_is_entered():
    state = play([hand([0, 0, 0], [0, 1, 0])], hook=True)
    assert state.hands[0].status == "scored"
    assert state.hands[0].info["made"] == {"Ann": True, "Ben": False, "Cy": True}
    assert state.next == {
        "number": 2,
        "dealer": "Ben",
        "cards": 2,
        "order": ["Cy", "Ann", "Ben"],
        "leader": "Cy",
        "no_trump": False,
        "forbidden_dealer_bid": None,
        "total_hands": 15,
        "schedule": list(range(2, 16)),
        "players": list(THREE),
    }
    assert state.notices == []
    assert state.sides == list(THREE)
    assert state.teams is None
    assert state.bonuses == []


def test_bids_can_be_entered_one_at_a_time_while_the_table_bids():
    state = play([{"bids": {"Ben": 1}}])
    assert state.hands[0].status == "bidding"
    assert state.hands[0].input == {"bids": {"Ben": 1}}
    assert state.hands[0].info["bids_total"] == 1
    assert state.next["forbidden_dealer_bid"] is None
    merged = RULES.merge({"bids": {"Ben": 1}}, {"bids": {"Cy": 0}})
    assert merged == {"bids": {"Ben": 1, "Cy": 0}}
    state = play([RULES.merge(merged, {"bids": {"Ann": 1}})], hook=True)
    assert state.hands[0].status == "playing"
    assert state.next["forbidden_dealer_bid"] == 0


def test_merge_completes_a_hand_and_corrects_one_figure():
    entered = {"bids": {"Ann": 1, "Ben": 0, "Cy": 0}}
    completed = RULES.merge(entered, {"tricks": {"Ann": 1, "Ben": 0, "Cy": 0}})
    assert completed == {
        "bids": {"Ann": 1, "Ben": 0, "Cy": 0},
        "tricks": {"Ann": 1, "Ben": 0, "Cy": 0},
    }
    corrected = RULES.merge(completed, {"bids": {"Ben": 1}, "trump": "clubs"})
    assert corrected["bids"] == {"Ann": 1, "Ben": 1, "Cy": 0}
    assert corrected["trump"] == "clubs"
    assert entered == {"bids": {"Ann": 1, "Ben": 0, "Cy": 0}}


def test_unknown_keys_are_dropped_and_names_kept_in_seat_order():
    entry = {
        "number": 1,
        "bids": {"Cy": 0, "Ann": 1, "Ben": 0},
        "tricks": {"Cy": 0, "Ben": 0, "Ann": 1},
    }
    state = play([entry])
    assert state.hands[0].input == {
        "bids": {"Ann": 1, "Ben": 0, "Cy": 0},
        "tricks": {"Ann": 1, "Ben": 0, "Cy": 0},
    }
    assert list(state.hands[0].points) == list(THREE)


# Refusals ------------------------------------------------------------------------------------


def test_a_hand_without_bids_is_refused():
    for entry in ({}, {"bids": None}, {"bids": {}}, {"trump": "clubs"}):
        error = refusal([entry])
        assert error.code == "missing_bid"
        assert error.hand == 1
    assert refusal([{}]).message == "Enter a bid for every player."


def test_tricks_without_every_bid_are_refused():
    error = refusal([{"bids": {"Ann": 1, "Ben": 0}, "tricks": {"Ann": 1, "Ben": 0, "Cy": 0}}])
    assert error.code == "missing_bid"
    assert error.field == "bids.Cy"
    assert error.message == "Enter a bid for Cy."


def test_an_earlier_hand_with_missing_bids_is_refused():
    error = refusal([{"bids": {"Ann": 1}}, hand([0, 0, 0])])
    assert error.code == "missing_bid"
    assert error.hand == 1
    assert error.field == "bids.Ben"


def test_a_bid_outside_0_to_the_cards_is_refused():
    for bid in (-1, 3):
        error = refusal([hand([1, 0, 0], [1, 0, 0]), hand([bid, 0, 0])])
        assert error.code == "bid_out_of_range"
        assert error.field == "bids.Ann"
        assert error.hand == 2
        assert error.message == "Ann's bid must be from 0 to 2."


def test_a_bid_that_is_not_a_whole_number_is_refused():
    for bid in ("1", 1.0, True, [1]):
        error = refusal([hand([bid, 0, 0])])
        assert error.code == "wrong_type"
        assert error.field == "bids.Ann"
        assert error.message == "Ann's bid must be a whole number."


def test_entries_of_the_wrong_shape_are_refused():
    assert refusal([[1, 0, 0]]).code == "wrong_type"
    error = refusal([{"bids": [1, 0, 0]}])
    assert (error.code, error.field) == ("wrong_type", "bids")
    error = refusal([{"bids": {"Ann": 1, "Ben": 0, "Cy": 0}, "tricks": 1}])
    assert (error.code, error.field) == ("wrong_type", "tricks")


def test_a_name_not_at_the_table_is_refused():
    error = refusal([{"bids": {"Ann": 1, "Ben": 0, "Zed": 0}}])
    assert error.code == "unknown_player"
    assert error.field == "bids.Zed"
    assert error.message == "Zed is not playing in this game."
    error = refusal([{"bids": {"Ann": 1, "Ben": 0, "Cy": 0}, "tricks": {"Ann": 1, "Zed": 0}}])
    assert (error.code, error.field) == ("unknown_player", "tricks.Zed")


def test_a_hand_left_without_tricks_is_refused_when_another_follows():
    error = refusal([hand([1, 0, 0], [1, 0, 0]), hand([1, 0, 0]), hand([1, 0, 0])])
    assert error.code == "missing_tricks"
    assert error.hand == 2
    assert error.field == "tricks"
    assert error.message == "Hand 2 has no tricks yet: enter them before the next hand."


def test_tricks_must_be_given_for_every_player():
    error = refusal([{"bids": {"Ann": 1, "Ben": 0, "Cy": 0}, "tricks": {"Ann": 1, "Ben": 0}}])
    assert error.code == "missing_tricks"
    assert error.field == "tricks.Cy"
    assert error.message == "Enter the tricks for Cy."


def test_tricks_outside_0_to_the_cards_are_refused():
    error = refusal([hand([1, 0, 0], [2, -1, 0])])
    assert error.code == "tricks_out_of_range"
    assert error.field == "tricks.Ann"
    assert error.message == "Ann's tricks must be from 0 to 1."
    error = refusal([hand([1, 0, 0], [1, "0", 0])])
    assert (error.code, error.field) == ("wrong_type", "tricks.Ben")


def test_tricks_must_add_up_to_the_cards_dealt():
    error = refusal([hand([2, 2, 1, 0], [2, 1, 1, 0])], FOUR, sequence="down", max_cards=5)
    assert error.code == "tricks_sum_mismatch"
    assert error.field == "tricks"
    assert error.message == "Tricks add up to 4 but 5 cards were dealt."
    error = refusal([hand([1, 0, 0], [0, 0, 0])])
    assert error.message == "Tricks add up to 0 but 1 card was dealt."


def test_no_hand_may_follow_the_end_of_the_game():
    entries = [hand([1, 0, 0], [1, 0, 0]), hand([1, 1, 1], [1, 1, 0])]
    state = play(entries, max_cards=2)
    assert state.finished
    error = refusal([*entries, hand([0, 0, 0])], max_cards=2)
    assert (error.code, error.hand, error.message) == ("game_over", 3, "This game is over.")


# Combinations --------------------------------------------------------------------------------


def test_up_down_with_the_hook_climbs_and_descends_with_the_hook_at_every_size():
    options = {"sequence": "up-down", "max_cards": 3, "hook": True}
    # 1, 2, 3, 2, 1 cards; dealers Ann, Ben, Cy, Ann, Ben.
    entries = [
        hand([0, 0, 0], [0, 0, 1]),  # Ann deals 1: others bid 0, so Ann may not bid 1.
        hand([1, 0, 0], [1, 1, 0]),  # Ben deals 2: others bid 1, Ben may not bid 1.
        hand([1, 1, 0], [1, 1, 1]),  # Cy deals 3: Cy may not bid 1.
        hand([1, 0, 0], [2, 0, 0]),  # Ann deals 2: Ann may not bid 2.
        hand([0, 0, 0], [0, 0, 1]),
    ]
    state = play(entries, **options)
    assert [h.info["cards"] for h in state.hands] == [1, 2, 3, 2, 1]
    assert [h.dealer for h in state.hands] == ["Ann", "Ben", "Cy", "Ann", "Ben"]
    assert [h.points for h in state.hands] == [
        {"Ann": 10, "Ben": 10, "Cy": 0},
        {"Ann": 11, "Ben": 0, "Cy": 10},
        {"Ann": 11, "Ben": 11, "Cy": 0},
        {"Ann": 0, "Ben": 10, "Cy": 10},
        {"Ann": 10, "Ben": 10, "Cy": 0},
    ]
    assert state.totals == {"Ann": 42, "Ben": 41, "Cy": 20}
    assert state.finished and state.winners == ["Ann"]
    assert state.next is None
    assert state.notices == ["Ann wins with 42."]
    # The hook holds on the way down too: hand 4 has 2 cards, Ben and Cy bid 1 + 1, Ann deals.
    error = refusal([*entries[:3], hand([0, 1, 1])], **options)
    assert (error.code, error.hand, error.field) == ("hook_violation", 4, "bids.Ann")
    assert error.message == "Ann is the dealer and may not bid 0: the bids would total the 2 cards."


def test_simultaneous_bids_show_no_order_and_single_nobody_out():
    state = play([hand([1, 1, 0])], simultaneous=True, hook=True)
    assert state.hands[0].info["order"] is None
    assert state.hands[0].info["leader"] == "Ben"
    assert state.next["order"] is None
    assert state.next["forbidden_dealer_bid"] is None


def test_with_simultaneous_bidding_and_the_hook_bids_equal_to_the_cards_are_refused_together():
    error = refusal([hand([1, 1, 0], [1, 0, 0]), hand([1, 0, 1])], simultaneous=True, hook=True)
    assert error.code == "hook_violation"
    assert error.field == "bids"
    assert error.hand == 2
    assert error.message == (
        "The bids add up to the 2 cards dealt, which the hook forbids: the table must bid again."
    )
    state = play([hand([1, 1, 0], [1, 0, 0]), hand([1, 1, 1])], simultaneous=True, hook=True)
    assert state.hands[1].status == "playing"


def test_without_the_hook_bids_may_equal_the_cards():
    state = play([hand([1, 0, 0], [1, 0, 0]), hand([1, 0, 1], [1, 0, 1])])
    assert state.hands[1].info["balance"] == "even"
    assert state.totals == {"Ann": 22, "Ben": 20, "Cy": 21}
    state = play([hand([1, 0, 0], [1, 0, 0]), hand([1, 0, 1])], simultaneous=True)
    assert state.hands[1].status == "playing"


def test_per_trick_misses_combine_with_the_zero_bid_bonus():
    options = {"sequence": "down", "max_cards": 4, "miss_scoring": "per_trick"}
    options["zero_bid_bonus"] = True
    entries = [hand([0, 2, 1], [1, 2, 1]), hand([0, 2, 0], [0, 1, 2])]
    state = play(entries, **options)
    assert state.hands[0].points == {"Ann": 1, "Ben": 12, "Cy": 11}
    assert state.hands[1].points == {"Ann": 8, "Ben": 1, "Cy": 2}
    assert state.totals == {"Ann": 9, "Ben": 13, "Cy": 13}


# Whole games ---------------------------------------------------------------------------------


def test_a_full_three_player_game_of_15_hands_ends_with_a_winner():
    entries = []
    for cards in range(1, 16):
        entries.append({"bids": {"Ann": cards, "Ben": 0, "Cy": 0}})
        entries[-1]["tricks"] = {"Ann": cards, "Ben": 0, "Cy": 0}
    state = play(entries, first_dealer=2)
    assert len(state.hands) == 15
    assert [h.info["cards"] for h in state.hands] == list(range(1, 16))
    assert [h.dealer for h in state.hands[:4]] == ["Cy", "Ann", "Ben", "Cy"]
    assert all(h.status == "scored" for h in state.hands)
    assert state.totals == {"Ann": 270, "Ben": 150, "Cy": 150}
    assert state.finished is True
    assert state.winners == ["Ann"]
    assert state.next is None
    assert state.notices == ["Ann wins with 270."]
    partway = play(entries[:14], first_dealer=2)
    assert not partway.finished and partway.winners == []
    assert partway.next["number"] == 15 and partway.next["cards"] == 15
    last_open = play([*entries[:14], {"bids": entries[14]["bids"]}], first_dealer=2)
    assert not last_open.finished
    assert last_open.next["number"] == 15


def test_players_level_at_the_top_share_the_win():
    entries = [hand([1, 0, 0], [1, 0, 0]), hand([0, 1, 0], [0, 1, 1])]
    state = play(entries, max_cards=2)
    assert state.totals == {"Ann": 21, "Ben": 21, "Cy": 10}
    assert state.winners == ["Ann", "Ben"]
    assert state.notices == ["Ann and Ben share the win with 21."]


def test_correcting_an_earlier_hand_rescores_the_totals():
    entries = [hand([1, 0, 0], [1, 0, 0]), hand([1, 1, 1], [1, 1, 0])]
    assert play(entries).totals == {"Ann": 22, "Ben": 21, "Cy": 10}
    entries[0] = RULES.merge(entries[0], {"tricks": {"Ann": 0, "Ben": 1}})
    state = play(entries)
    assert state.hands[0].points == {"Ann": 0, "Ben": 0, "Cy": 10}
    assert state.totals == {"Ann": 11, "Ben": 11, "Cy": 10}


def test_a_correction_that_breaks_a_hand_names_that_hand():
    entries = [hand([1, 0, 0], [1, 0, 0]), hand([1, 1, 1], [1, 1, 0]), hand([0, 0, 0])]
    entries[1] = RULES.merge(entries[1], {"tricks": {"Cy": 1}})
    error = refusal(entries)
    assert (error.code, error.hand) == ("tricks_sum_mismatch", 2)


# Properties ----------------------------------------------------------------------------------


@st.composite
def legal_games(draw):
    """A random table, options and a whole legal game (every hand scored)."""
    count = draw(st.integers(3, 7))
    players = NAMES[:count]
    options = {
        "sequence": draw(st.sampled_from(SEQUENCES)),
        "max_cards": draw(st.integers(1, min(6, max_cards_for(count)))),
        "hook": draw(st.booleans()),
        "simultaneous": draw(st.booleans()),
        "miss_scoring": draw(st.sampled_from(["zero", "per_trick"])),
        "zero_bid_bonus": draw(st.booleans()),
        "must_trump": draw(st.booleans()),
    }
    setup = make_setup(players, draw(st.integers(0, count - 1)), **options)
    entries = []
    for number, cards in enumerate(hand_sizes(options["sequence"], options["max_cards"]), 1):
        dealer = players[(setup.first_dealer + number - 1) % count]
        bids = {name: draw(st.integers(0, cards)) for name in players}
        if options["hook"] and sum(bids.values()) == cards:
            others = [value for value in range(cards + 1) if value != bids[dealer]]
            bids[dealer] = draw(st.sampled_from(others))
        takers = draw(st.lists(st.sampled_from(players), min_size=cards, max_size=cards))
        entries.append({"bids": bids, "tricks": {name: takers.count(name) for name in players}})
    return setup, entries


@settings(max_examples=150, deadline=None)
@given(legal_games(), st.data())
def test_totals_are_the_sum_of_the_hand_points_in_any_legal_game(game, data):
    setup, entries = game
    state = RULES.play(setup, entries)
    assert state.finished and state.next is None
    for played, entry in zip(state.hands, entries, strict=True):
        cards = played.info["cards"]
        assert sum(played.input["tricks"].values()) == cards
        for name in setup.players:
            bid, tricks = entry["bids"][name], entry["tricks"][name]
            assert played.points[name] == hand_points(bid, tricks, cards, setup.options)
        if setup.options["hook"]:
            assert played.info["bids_total"] != cards
    for name in setup.players:
        assert state.totals[name] == sum(h.points[name] for h in state.hands)
    assert state.winners == [
        n for n in setup.players if state.totals[n] == max(state.totals.values())
    ]
    # Cut the game short: the hands entered so far add up the same way.
    kept = data.draw(st.integers(0, len(entries) - 1))
    partial = [*entries[:kept], {"bids": entries[kept]["bids"]}]
    state = RULES.play(setup, partial)
    assert not state.finished and state.winners == []
    assert state.hands[-1].status == "playing"
    assert state.next["number"] == kept + 1
    for name in setup.players:
        assert state.totals[name] == sum(h.points[name] for h in state.hands[:kept])


@settings(max_examples=100, deadline=None)
@given(st.integers(3, 7), st.integers(0, 6), st.sampled_from(SEQUENCES))
def test_the_dealer_rotates_through_every_seat(count, first, sequence):
    players = NAMES[:count]
    first %= count
    state = play([], players, first, sequence=sequence)
    total = state.next["total_hands"]
    entries = []
    dealers = []
    for number in range(1, total + 1):
        state = play(entries, players, first, sequence=sequence)
        assert state.next["number"] == number
        assert state.next["order"][-1] == state.next["dealer"]
        assert sorted(state.next["order"]) == sorted(players)
        dealers.append(state.next["dealer"])
        cards = state.next["cards"]
        entries.append(
            {
                "bids": {name: 0 for name in players},
                "tricks": {name: cards if name == players[0] else 0 for name in players},
            }
        )
    assert dealers == [players[(first + k) % count] for k in range(total)]
    assert set(dealers) == set(players)
    assert [h.dealer for h in play(entries, players, first, sequence=sequence).hands] == dealers


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_the_hooks_forbidden_value_is_never_accepted_and_every_other_legal_value_is(data):
    count = data.draw(st.integers(3, 7))
    players = NAMES[:count]
    cards = data.draw(st.integers(1, max_cards_for(count)))
    first = data.draw(st.integers(0, count - 1))
    dealer = players[first]
    others = {name: data.draw(st.integers(0, cards)) for name in players if name != dealer}
    options = {"sequence": "down", "max_cards": cards, "hook": True}
    forbidden = forbidden_dealer_bid(cards, others.values())
    waiting = play([{"bids": others}], players, first, **options)
    assert waiting.hands[0].status == "bidding"
    assert waiting.next["forbidden_dealer_bid"] == forbidden
    for bid in range(cards + 1):
        entries = [{"bids": {**others, dealer: bid}}]
        if bid == forbidden:
            error = refusal(entries, players, first, **options)
            assert (error.code, error.field, error.hand) == ("hook_violation", f"bids.{dealer}", 1)
            assert f"{dealer} is the dealer and may not bid {bid}" in error.message
        else:
            state = play(entries, players, first, **options)
            assert state.hands[0].status == "playing"
            assert state.hands[0].info["bids_total"] != cards


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_illegal_bids_and_tricks_are_refused(data):
    count = data.draw(st.integers(3, 7))
    players = NAMES[:count]
    cards = data.draw(st.integers(1, max_cards_for(count)))
    options = {"sequence": "down", "max_cards": cards}
    victim = data.draw(st.sampled_from(players))
    bids = {name: 0 for name in players}
    bad = data.draw(
        st.one_of(
            st.integers(max_value=-1),
            st.integers(min_value=cards + 1),
            st.floats(),
            st.text(),
            st.booleans(),
            st.lists(st.integers(), max_size=2),
        )
    )
    error = refusal([{"bids": {**bids, victim: bad}}], players, **options)
    expected = "bid_out_of_range" if type(bad) is int else "wrong_type"
    assert (error.code, error.field, error.hand) == (expected, f"bids.{victim}", 1)
    tricks = {name: data.draw(st.integers(0, cards)) for name in players}
    if sum(tricks.values()) != cards:
        error = refusal([{"bids": bids, "tricks": tricks}], players, **options)
        assert (error.code, error.field) == ("tricks_sum_mismatch", "tricks")
    else:
        state = play([{"bids": bids, "tricks": tricks}], players, **options)
        assert state.hands[0].status == "scored"
