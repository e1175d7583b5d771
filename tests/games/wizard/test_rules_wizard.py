"""Wizard rules: rounds, scoring, the hook, the trump record, refusals, and properties."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from scorekeeper.games.base import RuleError
from scorekeeper.games.base import Setup
from scorekeeper.games.wizard.rules import RULES
from scorekeeper.games.wizard.rules import bid_balance
from scorekeeper.games.wizard.rules import forbidden_dealer_bid
from scorekeeper.games.wizard.rules import hook_applies
from scorekeeper.games.wizard.rules import round_points
from scorekeeper.games.wizard.rules import rounds_for

NAMES = ("Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus")
THREE = NAMES[:3]
FOUR = NAMES[:4]


def make_setup(players=THREE, first_dealer=0, **options) -> Setup:
    return Setup(tuple(players), RULES.resolve_options(options, len(players)), first_dealer)


def play(entries, players=THREE, first_dealer=0, **options):
    return RULES.play(make_setup(players, first_dealer, **options), entries)


def refusal(entries, players=THREE, first_dealer=0, **options) -> RuleError:
    with pytest.raises(RuleError) as caught:
        play(entries, players, first_dealer, **options)
    for error in caught.value.errors:
        assert_sentence(error.message)
    return caught.value


def assert_sentence(message: str) -> None:
    assert message[0].isupper()
    assert message.endswith(".")
    assert len(message.split()) >= 3


def rnd(bids, tricks=None, players=THREE, **extra):
    entry = {"bids": dict(zip(players, bids, strict=True))}
    if tricks is not None:
        entry["tricks"] = dict(zip(players, tricks, strict=True))
    entry.update(extra)
    return entry


def scored_rounds(count, players=THREE):
    """``count`` legal rounds (the hook too): the first player bids k and takes every trick
    (20 + 10 k), the second bids 1 and misses (-10), the others bid 0 and make it (20)."""
    rest = [0] * (len(players) - 2)
    return [rnd([k, 1, *rest], [k, 0, *rest], players) for k in range(1, count + 1)]


# The table and the options -------------------------------------------------------------------


@pytest.mark.parametrize(("count", "rounds"), [(3, 20), (4, 15), (5, 12), (6, 10)])
def test_the_number_of_rounds_is_60_divided_by_the_players(count, rounds):
    assert rounds_for(count) == rounds
    state = play([], NAMES[:count])
    assert state.next["total_hands"] == rounds
    spec = {option.key: option for option in RULES.option_specs(count)}["hook_min_cards"]
    assert (spec.default, spec.minimum, spec.maximum) == (1, 1, rounds)


def test_wizard_is_for_three_to_six_players():
    assert (RULES.key, RULES.title, RULES.hand_word) == ("wizard", "Wizard", "Round")
    assert (RULES.min_players, RULES.max_players) == (3, 6)
    for count in (2, 7):
        with pytest.raises(ValueError):
            rounds_for(count)
        with pytest.raises(RuleError) as caught:
            RULES.check_players(NAMES[:count] if count < 7 else [*NAMES, "Hal"][:7], {})
        assert caught.value.code == "player_count"
        assert caught.value.message == f"This game needs 3 to 6 players; {count} chosen."


def test_option_defaults_match_the_api():
    assert RULES.resolve_options({}, 4) == {"bids_may_not_equal": False, "hook_min_cards": 1}
    for option in RULES.option_specs(4):
        assert option.label and option.help


def test_hook_min_cards_runs_from_1_to_the_number_of_rounds():
    assert RULES.resolve_options({"hook_min_cards": 20}, 3)["hook_min_cards"] == 20
    for value in (0, 21):
        with pytest.raises(RuleError) as caught:
            RULES.resolve_options({"hook_min_cards": value}, 3)
        assert (caught.value.code, caught.value.field) == ("option_value", "options.hook_min_cards")
        assert caught.value.message == "Hook from this many cards must be from 1 to 20."
    with pytest.raises(RuleError) as caught:
        RULES.resolve_options({"hook_min_cards": 11}, 6)
    assert caught.value.message == "Hook from this many cards must be from 1 to 10."


def test_an_unknown_option_and_a_bad_value_are_reported_together():
    with pytest.raises(RuleError) as caught:
        RULES.resolve_options({"hook": True, "bids_may_not_equal": "yes"}, 4)
    assert [(e.code, e.field) for e in caught.value.errors] == [
        ("unknown_option", "options.hook"),
        ("option_value", "options.bids_may_not_equal"),
    ]


# Scoring -------------------------------------------------------------------------------------


def test_an_exact_bid_scores_20_plus_10_a_trick():
    assert round_points(2, 2) == 40
    assert round_points(0, 0) == 20
    assert round_points(5, 5) == 70


def test_a_missed_bid_loses_10_for_every_trick_off():
    assert round_points(2, 0) == -20
    assert round_points(1, 3) == -20
    assert round_points(0, 4) == -40


def test_a_round_is_scored_and_totals_may_go_below_zero():
    # Round 3: Ann bids 1 takes 1 (30), Ben bids 2 takes 0 (-20), Cy bids 0 takes 2 (-20).
    entries = [*scored_rounds(2), rnd([1, 2, 0], [1, 0, 2])]
    state = play(entries)
    assert state.hands[2].points == {"Ann": 30, "Ben": -20, "Cy": -20}
    assert state.hands[2].info["made"] == {"Ann": True, "Ben": False, "Cy": False}
    assert state.totals == {"Ann": 30 + 40 + 30, "Ben": -10 - 10 - 20, "Cy": 20 + 20 - 20}


def test_round_k_deals_k_cards_and_the_deal_passes_to_the_left():
    state = play(scored_rounds(4, FOUR), FOUR, first_dealer=2)
    assert [h.info["cards"] for h in state.hands] == [1, 2, 3, 4]
    assert [h.dealer for h in state.hands] == ["Cy", "Dee", "Ann", "Ben"]
    assert state.hands[0].info["order"] == ["Dee", "Ann", "Ben", "Cy"]
    assert state.hands[0].info["leader"] == "Dee"
    assert state.next["number"] == 5 and state.next["cards"] == 5
    assert state.next["dealer"] == "Cy"
    assert state.next["order"] == ["Dee", "Ann", "Ben", "Cy"]


# A whole game --------------------------------------------------------------------------------


def test_a_three_player_game_runs_to_its_20th_round_and_the_highest_total_wins():
    # Round k: Ann bids and takes k // 2, Ben the rest, Cy bids 1 (0 in round 1) and takes 0.
    entries = []
    for k in range(1, 21):
        ann, ben = k // 2, k - k // 2
        entries.append(rnd([ann, ben, 0 if k == 1 else 1], [ann, ben, 0]))
    entries[3]["trump"] = "hearts"
    entries[4].update(trump="spades", trump_chosen=True)
    entries[5]["trump"] = "none"
    state = play(entries)
    assert len(state.hands) == 20
    assert [h.dealer for h in state.hands[:4]] == ["Ann", "Ben", "Cy", "Ann"]
    assert state.hands[19].dealer == "Ben"
    assert state.hands[0].points == {"Ann": 20, "Ben": 30, "Cy": 20}
    assert state.hands[19].points == {"Ann": 120, "Ben": 120, "Cy": -10}
    # Ann: 20 rounds x 20 + 10 x (0+1+1+2+2+...+9+9+10 = 100); Ben: 400 + 10 x (210 - 100);
    # Cy: 20 in round 1, then 19 rounds of -10.
    assert state.totals == {"Ann": 1400, "Ben": 1500, "Cy": -170}
    assert state.hands[19].totals == state.totals
    assert state.finished and state.winners == ["Ben"]
    assert state.next is None
    assert state.notices == ["Ben wins with 1500."]
    assert state.hands[19].info["no_trump"] is True
    assert state.hands[3].info["trump"] == "hearts" and not state.hands[3].info["no_trump"]
    assert state.hands[4].info["trump_chosen"] is True
    assert state.hands[5].info["no_trump"] is True and state.hands[5].info["trump"] is None
    error = refusal([*entries, rnd([0, 0, 0])])
    assert (error.code, error.hand, error.message) == ("game_over", 21, "This game is over.")


def test_the_last_round_is_announced_with_no_trump():
    six = NAMES[:6]
    entries = scored_rounds(9, six)
    state = play(entries, six)
    assert state.next["number"] == 10 and state.next["no_trump"] is True
    assert state.next["cards"] == 10
    assert "Round 10 is the last: every card is dealt, so there is no trump." in state.notices
    state = play(scored_rounds(10, six), six)
    assert state.finished
    assert state.hands[9].info["no_trump"] is True
    # Ann makes every bid of k: 20 + 10 k; Ben misses a bid of 1 every round; the others
    # make 0 every round: 20 each.
    assert state.totals == {"Ann": 200 + 10 * 55, "Ben": -100, **{n: 200 for n in six[2:]}}
    assert state.winners == ["Ann"]


def test_players_level_at_the_top_share_the_win():
    # Every round Ann and Ben bid 0 and take 0 (20); Cy bids 0 and takes all k (-10 k).
    entries = [rnd([0, 0, 0], [0, 0, k]) for k in range(1, 21)]
    state = play(entries)
    assert state.totals == {"Ann": 400, "Ben": 400, "Cy": -2100}
    assert state.finished and state.winners == ["Ann", "Ben"]
    assert state.notices == ["Ann and Ben share the win with 400."]


def test_a_game_of_misses_is_won_by_the_highest_negative_total():
    # Round 1: Ann bids 0 takes 1 (-10), Ben bids 1 takes 0 (-10), Cy bids 0 takes 0 (20).
    # Rounds 2..20: Cy bids k takes 0 (-10 k); Ann and Ben bid 0 and take k // 2 and the rest.
    entries = [rnd([0, 1, 0], [1, 0, 0])]
    for k in range(2, 21):
        entries.append(rnd([0, 0, k], [k // 2, k - k // 2, 0]))
    state = play(entries)
    assert state.totals == {"Ann": -1010, "Ben": -1100, "Cy": -2070}
    assert state.winners == ["Ann"]
    assert state.notices == ["Ann wins with -1010."]


# Bidding, the reminder board and the hook ----------------------------------------------------


def test_bids_may_be_entered_one_at_a_time_while_the_table_bids():
    state = play([*scored_rounds(2), {"bids": {"Ann": 2}}])
    current = state.hands[2]
    assert current.status == "bidding"
    assert current.input == {"bids": {"Ann": 2}}
    assert current.info["bids_total"] == 2
    assert state.current is current
    assert state.next["number"] == 3
    merged = RULES.merge(current.input, {"bids": {"Ben": 0}})
    assert merged == {"bids": {"Ann": 2, "Ben": 0}}
    state = play([*scored_rounds(2), RULES.merge(merged, {"bids": {"Cy": 2}})])
    assert state.hands[2].status == "playing"
    assert state.hands[2].info["balance"] == "1 over"
    assert "Bids total 4 for 3 cards (1 over)." in state.notices


def test_tricks_complete_a_round_and_one_figure_can_be_corrected_alone():
    entered = {"bids": {"Ann": 1, "Ben": 0, "Cy": 0}}
    completed = RULES.merge(entered, {"tricks": {"Ann": 1, "Ben": 0, "Cy": 0}})
    corrected = RULES.merge(completed, {"tricks": {"Ann": 0, "Cy": 1}, "trump": "clubs"})
    assert corrected == {
        "bids": {"Ann": 1, "Ben": 0, "Cy": 0},
        "tricks": {"Ann": 0, "Ben": 0, "Cy": 1},
        "trump": "clubs",
    }
    state = play([corrected])
    assert state.hands[0].points == {"Ann": -10, "Ben": 20, "Cy": -10}
    assert entered == {"bids": {"Ann": 1, "Ben": 0, "Cy": 0}}


def test_with_the_hook_the_dealer_is_told_the_forbidden_bid_once_the_others_have_bid():
    # Round 5, Ann deals again (4 players): Ben 1 + Cy 2 + Dee 0 = 3, so Ann may not bid 2.
    entries = [*scored_rounds(4, FOUR), {"bids": {"Ben": 1, "Cy": 2}}]
    state = play(entries, FOUR, bids_may_not_equal=True)
    assert state.next["dealer"] == "Ann"
    assert state.next["order"] == ["Ben", "Cy", "Dee", "Ann"]
    assert state.next["forbidden_dealer_bid"] is None
    entries[-1]["bids"]["Dee"] = 0
    state = play(entries, FOUR, bids_may_not_equal=True)
    assert state.hands[4].status == "bidding"
    assert state.next["forbidden_dealer_bid"] == 2
    assert state.next["hook"] is True
    assert "Ann is the dealer and may not bid 2." in state.notices
    entries[-1]["bids"]["Ann"] = 2
    error = refusal(entries, FOUR, bids_may_not_equal=True)
    assert (error.code, error.field, error.hand) == ("hook_violation", "bids.Ann", 5)
    assert error.message == "Ann is the dealer and may not bid 2: the bids would total the 5 cards."
    for bid in (0, 1, 3, 4, 5):
        entries[-1]["bids"]["Ann"] = bid
        state = play(entries, FOUR, bids_may_not_equal=True)
        assert state.hands[4].status == "playing"
        assert state.next["forbidden_dealer_bid"] == 2
        assert "Ann is the dealer and may not bid 2." not in state.notices


def test_without_the_hook_the_bids_may_equal_the_cards():
    state = play([rnd([1, 0, 0]), rnd([1, 1, 0])][:1])
    assert state.hands[0].info["balance"] == "even"
    assert state.next["forbidden_dealer_bid"] is None
    assert state.next["hook"] is False


def test_the_hook_spares_rounds_below_hook_min_cards():
    options = {"bids_may_not_equal": True, "hook_min_cards": 3}
    assert not hook_applies(RULES.resolve_options(options, 3), 2)
    assert hook_applies(RULES.resolve_options(options, 3), 3)
    # Round 2 (Ben deals): bids 1 + 0 + 1 = 2 cards is fine below 3 cards.
    state = play([rnd([1, 0, 0], [1, 0, 0]), rnd([1, 1, 0])], **options)
    assert state.hands[1].status == "playing"
    assert state.hands[1].info["hook"] is False
    assert state.next["forbidden_dealer_bid"] is None
    # Round 3 (Cy deals): Ann 1 + Ben 1 leave Cy forbidden from bidding 1.
    entries = [rnd([1, 0, 0], [1, 0, 0]), rnd([1, 1, 0], [1, 1, 0]), {"bids": {"Ann": 1, "Ben": 1}}]
    state = play(entries, **options)
    assert state.next["forbidden_dealer_bid"] == 1
    error = refusal([*entries[:2], rnd([1, 1, 1])], **options)
    assert (error.code, error.field) == ("hook_violation", "bids.Cy")


def test_hook_min_cards_has_no_effect_with_the_hook_off():
    state = play([rnd([1, 0, 0])], hook_min_cards=1)
    assert state.hands[0].status == "playing"
    assert state.hands[0].info["hook"] is False


def test_the_forbidden_bid_is_none_when_the_others_already_bid_more_than_the_cards():
    assert forbidden_dealer_bid(5, [1, 2, 0]) == 2
    assert forbidden_dealer_bid(3, [2, 2]) is None
    entries = [rnd([1, 1, 0], [1, 0, 0]), {"bids": {"Cy": 2, "Ann": 1}}]
    state = play(entries, bids_may_not_equal=True)
    assert state.next["dealer"] == "Ben"
    assert state.next["forbidden_dealer_bid"] is None


def test_bid_balance_says_over_under_or_even():
    assert bid_balance(7, 5) == "2 over"
    assert bid_balance(4, 5) == "1 under"
    assert bid_balance(5, 5) == "even"


# The trump record ----------------------------------------------------------------------------


def test_a_turned_suit_is_recorded_as_trump():
    state = play([rnd([1, 0, 0], trump=" Hearts ")])
    assert state.hands[0].input == {"bids": {"Ann": 1, "Ben": 0, "Cy": 0}, "trump": "hearts"}
    assert state.hands[0].info["trump"] == "hearts"
    assert state.hands[0].info["no_trump"] is False
    assert state.hands[0].info["trump_chosen"] is False


def test_a_wizard_turned_lets_the_dealer_choose_the_suit():
    state = play([rnd([1, 0, 0], trump="spades", trump_chosen=True)])
    assert state.hands[0].input["trump_chosen"] is True
    assert state.hands[0].info["trump"] == "spades"
    assert state.hands[0].info["trump_chosen"] is True
    assert "A Wizard was turned: Ann chose spades as trump." in state.notices
    state = play([rnd([1, 0, 0], trump="spades", trump_chosen=False)])
    assert "trump_chosen" not in state.hands[0].input


def test_a_jester_turned_means_no_trump():
    state = play([rnd([1, 0, 0], trump="none")])
    assert state.hands[0].input["trump"] == "none"
    assert state.hands[0].info["no_trump"] is True
    assert state.hands[0].info["trump"] is None
    assert "A Jester was turned: there is no trump this round." in state.notices
    assert state.next["no_trump"] is False


def test_a_trump_that_is_not_a_suit_or_none_is_refused():
    for trump in ("stars", 3, ["hearts"], ""):
        error = refusal([rnd([1, 0, 0], trump=trump)])
        assert (error.code, error.field) == ("trump_invalid", "trump")
        assert error.message == (
            "The trump must be clubs, diamonds, hearts, spades or none (a Jester)."
        )


def test_a_dealer_choice_of_no_trump_is_refused():
    error = refusal([rnd([1, 0, 0], trump="none", trump_chosen=True)])
    assert (error.code, error.field) == ("trump_invalid", "trump")


def test_trump_chosen_must_be_yes_or_no():
    error = refusal([rnd([1, 0, 0], trump="clubs", trump_chosen="yes")])
    assert (error.code, error.field) == ("wrong_type", "trump_chosen")


def test_a_suit_recorded_for_the_last_round_is_refused():
    entries = scored_rounds(14, FOUR)
    error = refusal([*entries, rnd([15, 0, 0, 0], trump="clubs", players=FOUR)], FOUR)
    assert (error.code, error.field, error.hand) == ("trump_invalid", "trump", 15)
    assert error.message == (
        "Every card is dealt in the last round (round 15), so no card is turned and there is "
        "no trump."
    )
    error = refusal([*entries, rnd([15, 0, 0, 0], trump_chosen=True, players=FOUR)], FOUR)
    assert (error.code, error.field) == ("trump_invalid", "trump_chosen")
    state = play([*entries, rnd([15, 0, 0, 0], trump="none", players=FOUR)], FOUR)
    assert state.hands[14].info["no_trump"] is True


# Refusals ------------------------------------------------------------------------------------


def test_a_round_without_bids_is_refused():
    for entry in ({}, {"bids": None}, {"bids": {}}, {"trump": "clubs"}):
        error = refusal([entry])
        assert (error.code, error.field, error.hand) == ("missing_bid", "bids", 1)
    assert refusal([{}]).message == "Enter a bid for every player."


def test_tricks_without_every_bid_are_refused():
    error = refusal([{"bids": {"Ann": 1, "Ben": 0}, "tricks": {"Ann": 1, "Ben": 0, "Cy": 0}}])
    assert (error.code, error.field, error.message) == (
        "missing_bid",
        "bids.Cy",
        "Enter a bid for Cy.",
    )


def test_an_earlier_round_with_missing_bids_or_tricks_is_refused():
    error = refusal([{"bids": {"Ann": 1}}, rnd([0, 0, 0])])
    assert (error.code, error.hand, error.field) == ("missing_bid", 1, "bids.Ben")
    error = refusal([rnd([1, 0, 0]), rnd([0, 0, 0])])
    assert (error.code, error.hand, error.field) == ("missing_tricks", 1, "tricks")
    assert error.message == "Round 1 has no tricks yet: enter them before the next round."


def test_a_bid_outside_0_to_the_cards_is_refused():
    for bid in (-1, 3):
        error = refusal([*scored_rounds(1), rnd([bid, 0, 0])])
        assert (error.code, error.field, error.hand) == ("bid_out_of_range", "bids.Ann", 2)
        assert error.message == "Ann's bid must be from 0 to 2."


def test_two_bids_out_of_range_are_reported_at_once():
    error = refusal([*scored_rounds(1), rnd([3, 0, -1])])
    assert [(e.code, e.field, e.hand) for e in error.errors] == [
        ("bid_out_of_range", "bids.Ann", 2),
        ("bid_out_of_range", "bids.Cy", 2),
    ]
    assert [e.message for e in error.errors] == [
        "Ann's bid must be from 0 to 2.",
        "Cy's bid must be from 0 to 2.",
    ]


def test_a_bad_bid_a_bad_trump_and_bad_tricks_are_reported_together():
    entry = rnd(["1", 0, 0], [2, 0, 0], trump="stars")
    error = refusal([entry])
    assert [(e.code, e.field) for e in error.errors] == [
        ("wrong_type", "bids.Ann"),
        ("trump_invalid", "trump"),
        ("tricks_out_of_range", "tricks.Ann"),
    ]


def test_the_hook_waits_until_the_bids_are_in_range():
    entries = [*scored_rounds(1), rnd([3, 1, 1])]
    error = refusal(entries, bids_may_not_equal=True)
    assert [e.code for e in error.errors] == ["bid_out_of_range"]


def test_a_bid_that_is_not_a_whole_number_is_refused():
    for bid in ("1", 1.0, True, [1]):
        error = refusal([rnd([bid, 0, 0])])
        assert (error.code, error.field) == ("wrong_type", "bids.Ann")
        assert error.message == "Ann's bid must be a whole number."


def test_entries_of_the_wrong_shape_are_refused():
    assert refusal([[1, 0, 0]]).code == "wrong_type"
    error = refusal([{"bids": [1, 0, 0]}])
    assert (error.code, error.field) == ("wrong_type", "bids")
    error = refusal([{"bids": {"Ann": 1, "Ben": 0, "Cy": 0}, "tricks": 1}])
    assert (error.code, error.field) == ("wrong_type", "tricks")


def test_a_name_not_at_the_table_is_refused():
    error = refusal([{"bids": {"Ann": 1, "Ben": 0, "Zed": 0}}])
    assert (error.code, error.field) == ("unknown_player", "bids.Zed")
    assert error.message == "Zed is not playing in this game."


def test_tricks_must_be_given_for_every_player_and_add_up_to_the_cards():
    error = refusal([{"bids": {"Ann": 1, "Ben": 0, "Cy": 0}, "tricks": {"Ann": 1, "Ben": 0}}])
    assert (error.code, error.field, error.message) == (
        "missing_tricks",
        "tricks.Cy",
        "Enter the tricks for Cy.",
    )
    error = refusal([*scored_rounds(2), rnd([1, 1, 1], [1, 1, 0])])
    assert (error.code, error.field, error.hand) == ("tricks_sum_mismatch", "tricks", 3)
    assert error.message == "Tricks add up to 2 but 3 cards were dealt to each player."
    error = refusal([rnd([1, 0, 0], [0, 0, 0])])
    assert error.message == "Tricks add up to 0 but 1 card was dealt to each player."


def test_tricks_outside_0_to_the_cards_are_refused_for_each_player():
    error = refusal([rnd([1, 0, 0], [2, -1, 0])])
    assert [(e.code, e.field) for e in error.errors] == [
        ("tricks_out_of_range", "tricks.Ann"),
        ("tricks_out_of_range", "tricks.Ben"),
    ]
    assert error.errors[0].message == "Ann's tricks must be from 0 to 1."


# Storage, facts, CSV -------------------------------------------------------------------------


def test_bids_and_tricks_are_stored_by_seat_and_read_back_under_new_names():
    entry = rnd([1, 0, 1], [1, 1, 0], trump="none")
    normalised = play([*scored_rounds(1), entry]).hands[1].input
    stored = RULES.to_seats(normalised, THREE)
    assert stored == {"bids": [1, 0, 1], "tricks": [1, 1, 0], "trump": "none"}
    renamed = RULES.from_seats(stored, ["Ann", "Bert", "Cy"])
    assert renamed == {
        "bids": {"Ann": 1, "Bert": 0, "Cy": 1},
        "tricks": {"Ann": 1, "Bert": 1, "Cy": 0},
        "trump": "none",
    }
    state = play([*scored_rounds(1, ["Ann", "Bert", "Cy"]), renamed], ["Ann", "Bert", "Cy"])
    assert state.hands[1].points == {"Ann": 30, "Bert": -10, "Cy": -10}
    partial = RULES.to_seats({"bids": {"Ben": 2}}, THREE)
    assert partial == {"bids": [None, 2, None]}
    assert RULES.from_seats(partial, THREE) == {"bids": {"Ben": 2}}


def test_each_seat_counts_its_bids_made_and_how_far_it_was_off():
    setup = make_setup()
    state = RULES.play(setup, [*scored_rounds(1), rnd([0, 2, 0], [0, 0, 2])])
    assert RULES.hand_facts(setup, state.hands[1]) == [
        {"bids": 1, "bids_made": 1, "zero_bids": 1, "zero_bids_made": 1},
        {"bids": 1, "tricks_off": 2},
        {"bids": 1, "zero_bids": 1, "tricks_off": 2},
    ]
    assert {fact.key for fact in RULES.facts} >= {"bids", "bids_made"}
    fact_keys = {fact.key for fact in RULES.facts} | {"hands", "points", "played", "won"}
    for stat in RULES.stats:
        assert {stat.count, stat.out_of or "hands", stat.per or "hands"} <= fact_keys


def test_the_csv_shows_cards_trump_and_each_bid_and_trick():
    setup = make_setup()
    state = RULES.play(setup, [rnd([1, 0, 0], [1, 0, 0], trump="hearts"), {"bids": {"Ann": 1}}])
    columns = RULES.csv_columns(setup)
    assert columns == [
        "Cards",
        "Trump",
        "Dealer chose trump",
        "Ann bid",
        "Ann tricks",
        "Ben bid",
        "Ben tricks",
        "Cy bid",
        "Cy tricks",
    ]
    assert RULES.csv_cells(setup, state.hands[0]) == [1, "Hearts", False, 1, 1, 0, 0, 0, 0]
    assert RULES.csv_cells(setup, state.hands[1]) == [2, None, False, 1, None] + [None] * 4
    assert len(RULES.csv_cells(setup, state.hands[1])) == len(columns)


# Properties ----------------------------------------------------------------------------------


@st.composite
def legal_games(draw):
    count = draw(st.integers(3, 6))
    players = NAMES[:count]
    options = {
        "bids_may_not_equal": draw(st.booleans()),
        "hook_min_cards": draw(st.integers(1, rounds_for(count))),
    }
    setup = make_setup(players, draw(st.integers(0, count - 1)), **options)
    entries = []
    for cards in range(1, rounds_for(count) + 1):
        dealer = players[(setup.first_dealer + cards - 1) % count]
        bids = {name: draw(st.integers(0, cards)) for name in players}
        if hook_applies(setup.options, cards) and sum(bids.values()) == cards:
            bids[dealer] = draw(st.sampled_from([b for b in range(cards + 1) if b != bids[dealer]]))
        takers = draw(st.lists(st.sampled_from(players), min_size=cards, max_size=cards))
        entries.append({"bids": bids, "tricks": {name: takers.count(name) for name in players}})
    return setup, entries


@settings(max_examples=60, deadline=None)
@given(legal_games(), st.data())
def test_totals_are_the_sum_of_the_round_points_in_any_legal_game(game, data):
    setup, entries = game
    state = RULES.play(setup, entries)
    assert state.finished and state.next is None
    for played, entry in zip(state.hands, entries, strict=True):
        for name in setup.players:
            bid, took = entry["bids"][name], entry["tricks"][name]
            expected = 20 + 10 * took if bid == took else -10 * abs(took - bid)
            assert played.points[name] == expected
        if hook_applies(setup.options, played.info["cards"]):
            assert played.info["bids_total"] != played.info["cards"]
    for name in setup.players:
        assert state.totals[name] == sum(h.points[name] for h in state.hands)
    best = max(state.totals.values())
    assert state.winners == [n for n in setup.players if state.totals[n] == best]
    kept = data.draw(st.integers(0, len(entries) - 1))
    state = RULES.play(setup, [*entries[:kept], {"bids": entries[kept]["bids"]}])
    assert not state.finished and state.hands[-1].status == "playing"
    for name in setup.players:
        assert state.totals[name] == sum(h.points[name] for h in state.hands[:kept])


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_the_forbidden_dealer_bid_exists_only_where_the_hook_applies(data):
    count = data.draw(st.integers(3, 6))
    players = NAMES[:count]
    rounds = rounds_for(count)
    number = data.draw(st.integers(1, rounds))
    options = {
        "bids_may_not_equal": data.draw(st.booleans()),
        "hook_min_cards": data.draw(st.integers(1, rounds)),
    }
    first = data.draw(st.integers(0, count - 1))
    dealer = players[(first + number - 1) % count]
    others = {name: data.draw(st.integers(0, number)) for name in players if name != dealer}
    earlier = scored_rounds(number - 1, players)
    state = play([*earlier, {"bids": others}], players, first, **options)
    applies = options["bids_may_not_equal"] and number >= options["hook_min_cards"]
    assert state.next["hook"] is applies
    forbidden = state.next["forbidden_dealer_bid"]
    if not applies:
        assert forbidden is None
    else:
        assert forbidden == forbidden_dealer_bid(number, others.values())
    for bid in range(number + 1):
        entry = {"bids": {**others, dealer: bid}}
        if applies and bid == forbidden:
            error = refusal([*earlier, entry], players, first, **options)
            assert (error.code, error.field) == ("hook_violation", f"bids.{dealer}")
        else:
            assert play([*earlier, entry], players, first, **options).hands[-1].status == "playing"
