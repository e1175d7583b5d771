"""Auction Pitch (Setback): pure rules tests, no app and no database."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from scorekeeper.games.base import RuleError
from scorekeeper.games.base import Setup
from scorekeeper.games.pitch.rules import RULES
from scorekeeper.games.pitch.rules import legal_calls
from scorekeeper.games.pitch.rules import team_name

THREE = ("Ann", "Ben", "Cy")
FOUR = ("Ann", "Ben", "Cy", "Dee")
NAMES = ("Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus")


def play(entries: list[Any], players=THREE, first_dealer: int = 0, **options):
    setup = Setup(tuple(players), RULES.resolve_options(options, len(players)), first_dealer)
    return RULES.play(setup, entries)


def refused(entries: list[Any], players=THREE, first_dealer: int = 0, **options) -> RuleError:
    with pytest.raises(RuleError) as caught:
        play(entries, players, first_dealer, **options)
    error = caught.value
    assert_sentence(error.message)
    return error


def assert_sentence(message: str) -> None:
    assert message[0].isupper(), message
    assert message.endswith("."), message
    assert len(message.split()) >= 4, message


def points(high="Ann", low="Ann", jack=None, game=None, **more) -> dict[str, Any]:
    return {"high": high, "low": low, "jack": jack, "game": game, **more}


def pitched(pitcher: str, bid: int, **scored) -> dict[str, Any]:
    """A hand in the short form; with points when any are given."""
    entry: dict[str, Any] = {"pitcher": pitcher, "bid": bid}
    if scored:
        entry.update(points(**scored))
    return entry


# With THREE and first dealer Ann, hand 1 is bid Ben, Cy, Ann (dealer last).


def auction(*calls) -> dict[str, Any]:
    return {"auction": [list(call) for call in calls]}


# Table and options --------------------------------------------------------------------------


def test_rules_are_registered_under_the_key_pitch_with_their_title():
    assert RULES.key == "pitch"
    assert RULES.title == "Auction Pitch"
    assert (RULES.min_players, RULES.max_players) == (2, 7)
    assert RULES.hand_word == "Hand"


def test_a_new_game_gets_target_7_singles_min_bid_1_and_low_to_the_trick_winner():
    assert RULES.resolve_options({}, 3) == {
        "target": 7,
        "partnerships": False,
        "min_bid": 1,
        "low_to_player": False,
        "smudge": False,
        "dealer_may_steal": True,
    }
    specs = {spec.key: spec for spec in RULES.option_specs(4)}
    assert specs["target"].choices == (7, 11, 15, 21)
    assert specs["min_bid"].choices == (1, 2)
    assert specs["low_to_player"].label == "Low goes to whoever played it"


@pytest.mark.parametrize(
    ("options", "field"),
    [({"target": 10}, "options.target"), ({"min_bid": 3}, "options.min_bid")],
)
def test_an_option_value_outside_the_choices_is_refused(options, field):
    with pytest.raises(RuleError) as caught:
        RULES.resolve_options(options, 3)
    assert caught.value.code == "option_value"
    assert caught.value.field == field


@pytest.mark.parametrize("count", [2, 3, 4, 5, 6, 7])
def test_two_to_seven_players_may_play_alone(count):
    RULES.check_players(NAMES[:count], RULES.resolve_options({}, count))


@pytest.mark.parametrize("count", [1, 8])
def test_fewer_than_two_or_more_than_seven_players_are_refused(count):
    players = [f"P{seat}" for seat in range(count)]
    with pytest.raises(RuleError) as caught:
        RULES.check_players(players, RULES.resolve_options({}, count))
    assert caught.value.code == "player_count"
    assert_sentence(caught.value.message)


@pytest.mark.parametrize("count", [2, 3, 5, 6])
def test_partnerships_need_exactly_four_players(count):
    with pytest.raises(RuleError) as caught:
        RULES.check_players(NAMES[:count], {"partnerships": True})
    assert caught.value.code == "partnership_count"
    assert caught.value.message == f"Partnerships need exactly 4 players; {count} chosen."


def test_partnerships_with_four_players_are_accepted():
    RULES.check_players(FOUR, {"partnerships": True})


def test_a_player_cannot_sit_at_the_table_twice():
    with pytest.raises(RuleError) as caught:
        RULES.check_players(["Ann", "Ben", "Ann", "Cy"], {"partnerships": True})
    assert caught.value.code == "player_count"


# Dealer and bidding order -------------------------------------------------------------------


def test_before_any_hand_the_first_dealer_deals_and_the_left_neighbour_bids_first():
    state = play([], first_dealer=1)
    assert state.next == {
        "number": 1,
        "dealer": "Ben",
        "order": ["Cy", "Ann", "Ben"],
        "players": ["Ann", "Ben", "Cy"],
    }
    assert state.sides == ["Ann", "Ben", "Cy"]
    assert state.teams is None
    assert state.totals == {"Ann": 0, "Ben": 0, "Cy": 0}
    assert state.hands == []
    assert state.winners == [] and state.bonuses == [] and state.notices == []


def test_the_deal_passes_to_the_left_after_every_hand():
    hand = pitched("Ann", 1, high="Ben", low="Cy")
    state = play([hand, hand, hand])
    assert [h.dealer for h in state.hands] == ["Ann", "Ben", "Cy"]
    assert [h.info["order"] for h in state.hands] == [
        ["Ben", "Cy", "Ann"],
        ["Cy", "Ann", "Ben"],
        ["Ann", "Ben", "Cy"],
    ]
    assert state.next["number"] == 4
    assert state.next["dealer"] == "Ann"
    assert state.next["order"] == ["Ben", "Cy", "Ann"]


# Auction ------------------------------------------------------------------------------------


def test_the_high_bidder_becomes_the_pitcher():
    state = play([auction(("Ben", 2), ("Cy", 3), ("Ann", "pass"))])
    hand = state.hands[0]
    assert hand.status == "playing"
    assert hand.points is None
    assert hand.info == {
        "pitcher": "Cy",
        "pitcher_side": "Cy",
        "bid": 3,
        "stolen": False,
        "made": None,
        "won": None,
        "order": ["Ben", "Cy", "Ann"],
        "smudge": False,
    }
    assert hand.input == {"auction": [["Ben", 2], ["Cy", 3], ["Ann", "pass"]]}


def test_the_hand_in_progress_is_what_comes_next_with_its_pitcher_and_bid():
    state = play([auction(("Ben", 2), ("Cy", 3), ("Ann", "pass"))])
    assert state.current is state.hands[0]
    assert state.next == {
        "number": 1,
        "dealer": "Ann",
        "order": ["Ben", "Cy", "Ann"],
        "pitcher": "Cy",
        "bid": 3,
        "players": ["Ann", "Ben", "Cy"],
    }


def test_dealer_must_bid_two_when_everyone_else_passed():
    error = refused([auction(("Ben", "pass"), ("Cy", "pass"), ("Ann", "pass"))])
    assert error.code == "dealer_must_bid"
    assert error.field == "auction.2"
    assert error.hand == 1
    assert "Ann" in error.message and "at least 2" in error.message

    error = refused([auction(("Ben", "pass"), ("Cy", "pass"), ("Ann", 1))])
    assert error.code == "dealer_min_bid"
    assert "Ann" in error.message and "at least 2" in error.message

    state = play([auction(("Ben", "pass"), ("Cy", "pass"), ("Ann", 2))])
    assert state.hands[0].info["pitcher"] == "Ann"
    assert state.hands[0].info["bid"] == 2
    assert state.hands[0].info["stolen"] is False


def test_a_dealer_everyone_passed_to_is_offered_only_two_to_four():
    order = ["Ben", "Cy", "Ann"]
    passes = [["Ben", "pass"], ["Cy", "pass"]]
    assert legal_calls(passes, "Ann", order, {"min_bid": 1}) == [2, 3, 4]
    assert legal_calls(passes, "Ann", order, {"min_bid": 2}) == [2, 3, 4]


def test_a_bid_of_one_is_refused_when_the_lowest_bid_is_two():
    error = refused([auction(("Ben", 1), ("Cy", "pass"), ("Ann", "pass"))], min_bid=2)
    assert error.code == "bid_invalid"
    assert error.field == "auction.0"
    assert error.message == "Ben bid 1, but a bid must be from 2 to 4."
    assert legal_calls([], "Ann", ["Ben", "Cy", "Ann"], {"min_bid": 2}) == ["pass", 2, 3, 4]


def test_a_bid_of_one_is_accepted_by_default():
    state = play([auction(("Ben", 1), ("Cy", "pass"), ("Ann", "pass"))])
    assert state.hands[0].info["pitcher"] == "Ben"
    assert state.hands[0].info["bid"] == 1


@pytest.mark.parametrize("high", [1, 2, 3])
def test_the_dealer_may_steal_a_bid_of_one_two_or_three_by_bidding_equal(high):
    state = play([auction(("Ben", high), ("Cy", "pass"), ("Ann", high))])
    info = state.hands[0].info
    assert info["pitcher"] == "Ann"
    assert info["bid"] == high
    assert info["stolen"] is True


def test_the_dealer_may_outbid_instead_of_stealing():
    state = play([auction(("Ben", 2), ("Cy", "pass"), ("Ann", 3))])
    assert state.hands[0].info["pitcher"] == "Ann"
    assert state.hands[0].info["stolen"] is False


def test_the_dealer_may_not_steal_a_bid_of_four():
    error = refused([auction(("Ben", 4), ("Cy", "pass"), ("Ann", 4))])
    assert error.code == "steal_not_allowed"
    assert error.field == "auction.2"
    assert error.message == "Ann cannot steal a bid of 4; the dealer can only pass now."


def test_after_a_bid_of_four_the_rest_can_only_pass():
    error = refused([auction(("Ben", 4), ("Cy", 4), ("Ann", "pass"))])
    assert error.code == "bid_not_higher"
    assert error.field == "auction.1"
    assert "only pass" in error.message and "Cy" in error.message
    assert legal_calls([["Ben", 4]], "Ann", ["Ben", "Cy", "Ann"], {"min_bid": 1}) == ["pass"]
    assert legal_calls([["Ben", 4], ["Cy", "pass"]], "Ann", ["Ben", "Cy", "Ann"], {}) == ["pass"]
    state = play([auction(("Ben", 4), ("Cy", "pass"), ("Ann", "pass"))])
    assert state.hands[0].info["pitcher"] == "Ben"


@pytest.mark.parametrize("bid", [1, 2])
def test_a_bid_must_be_higher_than_the_high_bid(bid):
    error = refused([auction(("Ben", 2), ("Cy", bid), ("Ann", "pass"))])
    assert error.code == "bid_not_higher"
    assert error.field == "auction.1"
    assert error.message == "The high bid is 2: Cy must bid more than 2 or pass."


def test_the_dealer_may_not_bid_below_the_high_bid():
    error = refused([auction(("Ben", 3), ("Cy", "pass"), ("Ann", 2))])
    assert error.code == "bid_not_higher"
    assert "steal" in error.message and "Ann" in error.message


def test_the_dealer_is_offered_the_steal_and_everything_higher():
    order = ["Ben", "Cy", "Ann"]
    assert legal_calls([["Ben", 2], ["Cy", "pass"]], "Ann", order, {}) == ["pass", 2, 3, 4]
    assert legal_calls([["Ben", 2]], "Ann", order, {}) == ["pass", 3, 4]
    assert legal_calls([["Ben", 2], ["Cy", 3], ["Ann", 3]], "Ann", order, {}) == []


@pytest.mark.parametrize("call", [0, 5, -1, 7, "two", "fold"])
def test_a_call_other_than_pass_or_one_to_four_is_refused(call):
    error = refused([auction(("Ben", call), ("Cy", "pass"), ("Ann", 2))])
    assert error.code == "bid_invalid"
    assert error.field == "auction.0"
    assert "Ben" in error.message


@pytest.mark.parametrize("call", [2.0, 2.5, True, [2]])
def test_a_call_that_is_not_a_whole_number_or_pass_is_a_wrong_type(call):
    error = refused([auction(("Ben", call), ("Cy", "pass"), ("Ann", 2))])
    assert error.code == "wrong_type"
    assert error.field == "auction.0"


def test_pass_is_read_in_any_case_and_stored_as_pass():
    state = play([auction(("Ben", "Pass"), ("Cy", " PASS "), ("Ann", 2))])
    assert state.hands[0].input["auction"] == [["Ben", "pass"], ["Cy", "pass"], ["Ann", 2]]


def test_each_player_gets_exactly_one_turn():
    error = refused([auction(("Ben", 1), ("Ben", 2), ("Ann", "pass"))])
    assert error.code == "bid_invalid"
    assert error.field == "auction.1"
    assert error.message == "Ben has already had a turn; it is Cy’s turn now."

    error = refused([auction(("Ben", 1), ("Cy", 2), ("Ann", "pass"), ("Ben", 3))])
    assert error.code == "bid_invalid"
    assert error.field == "auction.3"
    assert "exactly once" in error.message


def test_a_player_bidding_out_of_turn_is_refused():
    error = refused([auction(("Cy", 2), ("Ben", "pass"), ("Ann", "pass"))])
    assert error.code == "bid_invalid"
    assert error.field == "auction.0"
    assert error.message == "It is Ben’s turn to bid, not Cy’s."


def test_an_auction_missing_a_turn_is_refused():
    error = refused([auction(("Ben", 2), ("Cy", "pass"))])
    assert error.code == "bid_invalid"
    assert error.field == "auction.2"
    assert (
        error.message == "The auction is missing Ann’s turn; everyone bids or passes exactly once."
    )
    assert refused([auction()]).code == "bid_invalid"


def test_a_stranger_in_the_auction_is_not_at_the_table():
    error = refused([auction(("Zed", 2), ("Cy", "pass"), ("Ann", "pass"))])
    assert error.code == "unknown_player"
    assert error.message == "Zed is not playing in this game."


@pytest.mark.parametrize(
    "value", ["Ben 2", {"Ben": 2}, [["Ben"], ["Cy", 2]], [["Ben", 2, 3]], [[7, 2]], 3]
)
def test_an_auction_that_is_not_a_list_of_player_and_call_pairs_is_a_wrong_type(value):
    error = refused([{"auction": value}])
    assert error.code == "wrong_type"


def test_the_short_form_records_the_pitcher_and_bid():
    state = play([{"pitcher": "Cy", "bid": 3, "extra": "ignored"}])
    hand = state.hands[0]
    assert hand.input == {"pitcher": "Cy", "bid": 3}
    assert hand.info["pitcher"] == "Cy"
    assert hand.info["bid"] == 3
    assert hand.info["stolen"] is False
    assert hand.status == "playing"


@pytest.mark.parametrize(
    ("entry", "code", "field"),
    [
        ({"pitcher": "Zed", "bid": 2}, "unknown_player", "pitcher"),
        ({"pitcher": 3, "bid": 2}, "wrong_type", "pitcher"),
        ({"pitcher": "Ben", "bid": 5}, "bid_invalid", "bid"),
        ({"pitcher": "Ben", "bid": 0}, "bid_invalid", "bid"),
        ({"pitcher": "Ben", "bid": "3"}, "wrong_type", "bid"),
        ({"pitcher": "Ben"}, "required", "bid"),
        ({"bid": 2}, "required", "pitcher"),
        ({}, "required", "auction"),
        ({"high": "Ann", "low": "Ann"}, "required", "auction"),
    ],
)
def test_a_wrong_short_form_is_refused(entry, code, field):
    error = refused([entry])
    assert error.code == code
    assert error.field == field
    assert error.hand == 1


def test_the_short_form_respects_the_lowest_bid():
    error = refused([{"pitcher": "Ben", "bid": 1}], min_bid=2)
    assert error.code == "bid_invalid"
    assert error.message == "Ben’s bid must be from 2 to 4."


def test_an_auction_and_a_short_form_together_are_refused():
    entry = {**auction(("Ben", 2), ("Cy", "pass"), ("Ann", "pass")), "pitcher": "Ben", "bid": 2}
    error = refused([entry])
    assert error.code == "bid_invalid"
    assert error.message == "Enter either the auction or the pitcher and the bid, not both."


def test_a_hand_that_is_not_an_object_is_a_wrong_type():
    assert refused([["Ben", 2]]).code == "wrong_type"


# Points of a hand -----------------------------------------------------------------------------


def test_a_pitcher_who_makes_the_bid_scores_all_points_won_and_others_score_theirs():
    entry = pitched("Ben", 2, high="Ben", low="Cy", jack="Ben", game="Ann")
    state = play([entry])
    hand = state.hands[0]
    assert hand.status == "scored"
    assert hand.points == {"Ann": 1, "Ben": 2, "Cy": 1}
    assert hand.info["made"] is True
    assert hand.info["won"] == {"Ann": ["game"], "Ben": ["high", "jack"], "Cy": ["low"]}
    assert hand.input == {
        "pitcher": "Ben",
        "bid": 2,
        "high": "Ben",
        "low": "Cy",
        "jack": "Ben",
        "game": "Ann",
    }
    assert state.totals == {"Ann": 1, "Ben": 2, "Cy": 1}
    assert state.next["number"] == 2


def test_a_pitcher_who_falls_short_is_set_back_by_the_bid():
    state = play([pitched("Ben", 3, high="Ben", low="Cy", jack="Ben", game="Ann")])
    hand = state.hands[0]
    assert hand.info["made"] is False
    assert hand.points == {"Ann": 1, "Ben": -3, "Cy": 1}


def test_a_set_back_may_take_a_total_below_zero():
    first = pitched("Ben", 1, high="Ben", low="Ann")
    second = pitched("Ben", 4, high="Ann", low="Ann", jack="Cy", game="Cy")
    state = play([first, second])
    assert [h.points["Ben"] for h in state.hands] == [1, -4]
    assert state.totals == {"Ann": 3, "Ben": -3, "Cy": 2}
    assert not state.finished


def test_a_pitcher_who_wins_exactly_the_bid_makes_it():
    state = play([pitched("Cy", 4, high="Cy", low="Cy", jack="Cy", game="Cy")])
    assert state.hands[0].points == {"Ann": 0, "Ben": 0, "Cy": 4}
    assert state.hands[0].info["made"] is True


@pytest.mark.parametrize("missing", ["high", "low"])
def test_high_and_low_are_required_once_points_are_entered(missing):
    entry = pitched("Ben", 2, high="Ben", low="Cy", jack="Ben")
    del entry[missing]
    error = refused([entry])
    assert error.code == "required"
    assert error.field == missing
    assert "every hand" in error.message


def test_a_jack_that_was_not_played_is_awarded_to_nobody():
    state = play([pitched("Ann", 2, high="Ann", low="Ben", jack=None, game="Ann")])
    hand = state.hands[0]
    assert hand.info["won"] == {"Ann": ["high", "game"], "Ben": ["low"], "Cy": []}
    assert hand.points == {"Ann": 2, "Ben": 1, "Cy": 0}
    assert sum(len(won) for won in hand.info["won"].values()) == 3


def test_game_is_awarded_to_nobody_on_a_tie():
    state = play([pitched("Ann", 2, high="Ann", low="Ben", jack="Cy", game=None)])
    assert state.hands[0].points == {"Ann": -2, "Ben": 1, "Cy": 1}


def test_jack_and_game_may_be_left_out_when_not_awarded():
    state = play([{"pitcher": "Ann", "bid": 1, "high": "Ann", "low": "Ben"}])
    assert state.hands[0].input["jack"] is None
    assert state.hands[0].input["game"] is None
    assert state.hands[0].points == {"Ann": 1, "Ben": 1, "Cy": 0}


def test_one_player_may_win_both_high_and_low_when_several_trumps_were_played():
    state = play([pitched("Ben", 2, high="Cy", low="Cy")])
    assert state.hands[0].points == {"Ann": 0, "Ben": -2, "Cy": 2}


def test_a_lone_trump_is_high_and_low_for_the_pitcher():
    entry = pitched("Ben", 2, high="Ben", low="Ben", game="Cy", single_trump=True)
    state = play([entry])
    hand = state.hands[0]
    assert hand.points == {"Ann": 0, "Ben": 2, "Cy": 1}
    assert hand.info["won"]["Ben"] == ["high", "low"]
    assert hand.input["single_trump"] is True


def test_a_lone_jack_of_trumps_is_high_low_and_jack_for_three_points():
    entry = pitched("Ben", 3, high="Ben", low="Ben", jack="Ben", single_trump=True)
    state = play([entry])
    assert state.hands[0].points == {"Ann": 0, "Ben": 3, "Cy": 0}
    assert state.hands[0].info["made"] is True


@pytest.mark.parametrize(
    ("scored", "field"),
    [
        ({"high": "Cy", "low": "Ben"}, "high"),
        ({"high": "Ben", "low": "Ann"}, "low"),
        ({"high": "Cy", "low": "Cy"}, "high"),
        ({"high": "Ben", "low": "Ben", "jack": "Cy"}, "jack"),
    ],
)
def test_a_lone_trump_won_by_anyone_but_the_pitcher_is_refused(scored, field):
    error = refused([pitched("Ben", 2, single_trump=True, **scored)])
    assert error.code == "single_trump_mismatch"
    assert error.field == field
    assert error.message.startswith("Only one trump was played, the one Ben led")


def test_single_trump_must_be_yes_or_no():
    error = refused([pitched("Ben", 2, high="Ben", low="Ben", single_trump="yes")])
    assert error.code == "wrong_type"
    assert error.field == "single_trump"


def test_single_trump_off_is_stored_and_changes_nothing():
    state = play([pitched("Ben", 2, high="Cy", low="Ann", single_trump=False)])
    assert state.hands[0].input["single_trump"] is False
    assert state.hands[0].points == {"Ann": 1, "Ben": -2, "Cy": 1}


@pytest.mark.parametrize("key", ["high", "low", "jack", "game"])
def test_a_point_won_by_someone_not_at_the_table_is_refused(key):
    entry = pitched("Ben", 2, high="Ben", low="Cy")
    entry[key] = "Zed"
    error = refused([entry])
    assert error.code == "unknown_player"
    assert error.field == key
    assert error.message == "Zed is not playing in this game."


@pytest.mark.parametrize("key", ["high", "low", "jack", "game"])
def test_a_point_holder_that_is_not_a_name_is_a_wrong_type(key):
    entry = pitched("Ben", 2, high="Ben", low="Cy")
    entry[key] = 2
    assert refused([entry]).code == "wrong_type"


def test_game_points_decide_who_wins_game():
    entry = pitched("Ben", 2, high="Ben", low="Cy", game_points={"Ann": 12, "Ben": 20, "Cy": 19})
    state = play([entry])
    hand = state.hands[0]
    assert hand.info["won"]["Ben"] == ["high", "game"]
    assert hand.points == {"Ann": 0, "Ben": 2, "Cy": 1}
    assert hand.input["game_points"] == {"Ann": 12, "Ben": 20, "Cy": 19}


def test_game_goes_to_the_most_game_points_not_a_majority():
    entry = pitched("Ben", 2, high="Ben", low="Cy", game_points={"Ann": 21, "Ben": 20, "Cy": 19})
    assert play([entry]).hands[0].info["won"]["Ann"] == ["game"]


def test_game_points_left_out_for_a_player_count_as_zero():
    entry = pitched("Ben", 2, high="Ben", low="Cy", game_points={"Cy": 4})
    state = play([entry])
    assert state.hands[0].info["won"]["Cy"] == ["low", "game"]
    assert state.hands[0].input["game_points"] == {"Cy": 4}


def test_a_named_game_that_agrees_with_the_game_points_is_accepted():
    entry = pitched("Ben", 2, high="Ben", low="Cy", game="Ben", game_points={"Ben": 30, "Cy": 9})
    assert play([entry]).hands[0].points == {"Ann": 0, "Ben": 2, "Cy": 1}


def test_a_tie_for_the_most_game_points_awards_no_game():
    entry = pitched("Ben", 2, high="Ben", low="Cy", game_points={"Ann": 20, "Ben": 20, "Cy": 3})
    state = play([entry])
    assert state.hands[0].points == {"Ann": 0, "Ben": -2, "Cy": 1}
    all_zero = pitched("Ben", 1, high="Ben", low="Cy", game_points={"Ann": 0})
    assert play([all_zero]).hands[0].points == {"Ann": 0, "Ben": 1, "Cy": 1}


def test_a_named_game_that_disagrees_with_the_game_points_is_refused():
    entry = pitched("Ben", 2, high="Ben", low="Cy", game="Ann", game_points={"Ann": 9, "Ben": 30})
    error = refused([entry])
    assert error.code == "game_point_mismatch"
    assert error.field == "game"
    assert error.message == "By the game points Game goes to Ben (30), not to Ann (9)."


def test_a_named_game_on_a_game_point_tie_is_refused():
    entry = pitched("Ben", 2, high="Ben", low="Cy", game="Ann", game_points={"Ann": 9, "Ben": 9})
    error = refused([entry])
    assert error.code == "game_point_on_tie"
    assert error.field == "game"
    assert (
        error.message == "The game points tie for the most (9 each), so nobody gets Game, not Ann."
    )


def test_game_points_that_add_up_to_more_than_80_are_refused():
    entry = pitched("Ben", 2, high="Ben", low="Cy", game_points={"Ann": 40, "Ben": 30, "Cy": 11})
    error = refused([entry])
    assert error.code == "game_points_invalid"
    assert error.field == "game_points"
    assert "never sum to more than 80" in error.message
    exactly = pitched("Ben", 2, high="Ben", low="Cy", game_points={"Ann": 40, "Ben": 30, "Cy": 8})
    assert play([exactly]).hands[0].info["won"]["Ann"] == ["game"]


def test_game_points_beyond_what_the_cards_in_play_hold_are_refused():
    # Two players play 12 cards: at most four tens, four aces and four kings = 68.
    players = ("Ann", "Ben")
    entry = pitched("Ben", 2, high="Ben", low="Ann", game_points={"Ann": 40, "Ben": 29})
    error = refused([entry], players=players)
    assert error.code == "game_points_invalid"
    assert (
        error.message == "The game points add up to 69, but the 12 cards in play hold at most 68."
    )
    fits = pitched("Ben", 2, high="Ben", low="Ann", game_points={"Ann": 40, "Ben": 28})
    assert play([fits], players=players).hands[0].info["won"]["Ann"] == ["low", "game"]


@pytest.mark.parametrize(
    ("game_points", "code", "field"),
    [
        ({"Ann": 81}, "game_points_invalid", "game_points.Ann"),
        ({"Ann": -1}, "game_points_invalid", "game_points.Ann"),
        ({"Ann": 1.5}, "wrong_type", "game_points.Ann"),
        ({"Ann": "10"}, "wrong_type", "game_points.Ann"),
        ({"Zed": 10}, "unknown_player", "game_points.Zed"),
        ([10, 20, 30], "wrong_type", "game_points"),
    ],
)
def test_a_wrong_game_point_count_is_refused(game_points, code, field):
    entry = pitched("Ben", 2, high="Ben", low="Cy", game_points=game_points)
    error = refused([entry])
    assert error.code == code
    assert error.field == field


def test_low_to_player_only_changes_who_the_table_writes_down():
    entry = pitched("Ben", 2, high="Ben", low="Cy", jack="Ann")
    assert play([entry], low_to_player=True).hands[0].points == play([entry]).hands[0].points


# Incomplete hands, corrections and the end of the game ---------------------------------------


def test_only_the_last_hand_may_wait_for_its_points():
    error = refused([pitched("Ben", 2), pitched("Cy", 2, high="Cy", low="Cy")])
    assert error.code == "required"
    assert error.hand == 1
    assert error.message == "Hand 1 is not finished: enter who won High and Low."


def test_a_refusal_names_the_hand_it_concerns():
    good = pitched("Ben", 1, high="Ben", low="Cy")
    error = refused([good, good, auction(("Ben", 2), ("Cy", "pass"), ("Ann", "pass"))])
    assert error.code == "bid_invalid"
    assert error.hand == 3  # hand 3 is dealt by Cy, so Ann bids first


def test_a_completion_adds_the_points_to_the_auction_entered_before():
    entered = auction(("Ben", 2), ("Cy", "pass"), ("Ann", "pass"))
    merged = RULES.merge(entered, points(high="Ben", low="Ben", game="Cy"))
    state = play([merged])
    assert state.hands[0].status == "scored"
    assert state.hands[0].points == {"Ann": 0, "Ben": 2, "Cy": 1}


def test_a_correction_in_the_other_bidding_form_replaces_the_first_one():
    entered = {**auction(("Ben", 2), ("Cy", "pass"), ("Ann", "pass")), **points(high="Ben")}
    merged = RULES.merge(entered, {"pitcher": "Cy", "bid": 1})
    assert "auction" not in merged
    assert play([merged]).hands[0].info["pitcher"] == "Cy"
    back = RULES.merge(merged, auction(("Ben", 2), ("Cy", 3), ("Ann", "pass")))
    assert "pitcher" not in back and "bid" not in back
    assert play([back]).hands[0].info["pitcher"] == "Cy"


def test_the_pitcher_who_reaches_the_target_wins():
    state = play(
        [
            pitched("Ben", 4, high="Ben", low="Ben", jack="Ben", game="Ben"),
            pitched("Ben", 3, high="Ben", low="Ben", jack="Ben", game="Cy"),
        ]
    )
    assert state.totals == {"Ann": 0, "Ben": 7, "Cy": 1}
    assert state.finished
    assert state.winners == ["Ben"]
    assert state.next is None
    assert state.notices == []


def test_a_player_above_the_target_who_did_not_pitch_does_not_win():
    four = {"high": "Cy", "low": "Cy", "jack": "Cy", "game": "Cy"}
    state = play([pitched("Ben", 2, **four), pitched("Ann", 2, **four)])
    assert state.totals == {"Ann": -2, "Ben": -2, "Cy": 8}
    assert not state.finished
    assert state.winners == []
    assert state.notices == ["Cy has 8 but must pitch to win."]
    assert state.next["number"] == 3


def test_a_player_above_the_target_wins_after_pitching_a_hand_and_staying_above_it():
    four = {"high": "Cy", "low": "Cy", "jack": "Cy", "game": "Cy"}
    hands = [pitched("Ben", 2, **four), pitched("Ann", 2, **four)]
    state = play([*hands, pitched("Cy", 2, high="Cy", low="Cy")])
    assert state.totals == {"Ann": -2, "Ben": -2, "Cy": 10}
    assert state.finished
    assert state.winners == ["Cy"]


def test_a_player_above_the_target_set_below_it_while_pitching_does_not_win():
    four = {"high": "Cy", "low": "Cy", "jack": "Cy", "game": "Cy"}
    hands = [pitched("Ben", 2, **four), pitched("Ann", 2, **four)]
    state = play([*hands, pitched("Cy", 4, high="Cy", low="Ann")])
    assert state.totals == {"Ann": -1, "Ben": -2, "Cy": 4}
    assert not state.finished
    assert state.notices == []


def test_with_two_players_above_the_target_only_the_pitcher_wins():
    four = {"high": "Cy", "low": "Cy", "jack": "Cy", "game": "Cy"}
    hands = [
        pitched("Ben", 2, **four),
        pitched("Ann", 2, **four),
        pitched("Ann", 4, high="Ann", low="Ann", jack="Ann", game="Ann"),
    ]
    before = play(hands)
    assert before.totals == {"Ann": 2, "Ben": -2, "Cy": 8}
    last = pitched("Ann", 4, high="Ann", low="Ann", jack="Ann", game="Ann")
    state = play([*hands, last])
    assert state.totals == {"Ann": 6, "Ben": -2, "Cy": 8}
    assert not state.finished
    assert state.notices == ["Cy has 8 but must pitch to win."]

    final = pitched("Ann", 1, high="Ann", low="Cy", jack="Cy", game="Cy")
    state = play([*hands, last, final])
    assert state.totals == {"Ann": 7, "Ben": -2, "Cy": 11}
    assert state.finished
    assert state.winners == ["Ann"]
    assert state.notices == ["Ann reached 7 as the pitcher and wins, though Cy scored more."]


def test_a_pitcher_set_back_but_still_at_the_target_wins():
    first = pitched("Ben", 4, high="Ben", low="Ben", jack="Ben", game="Ben")
    second = pitched("Ann", 1, high="Ben", low="Ben", jack="Ben", game="Ben")
    third = pitched("Ben", 4, high="Ben", low="Ann", jack="Cy", game="Ben")
    state = play([first, second, third])
    assert [h.points["Ben"] for h in state.hands] == [4, 4, -4]
    assert state.totals["Ben"] == 4
    assert not state.finished  # 4 is below 7

    lots = [first, second]  # Ben 8 without having pitched the last hand
    assert play(lots).notices == ["Ben has 8 but must pitch to win."]
    set_back = pitched("Ben", 1, high="Ann", low="Ann", jack="Cy", game="Cy")
    state = play([*lots, set_back])
    assert state.hands[-1].info["made"] is False
    assert state.totals["Ben"] == 7
    assert state.finished
    assert state.winners == ["Ben"]
    assert state.notices[0] == "Ben was set back but still has 7, enough to win as the pitcher."


def test_a_pitcher_set_back_below_the_target_does_not_win():
    first = pitched("Ben", 4, high="Ben", low="Ben", jack="Ben", game="Ben")
    second = pitched("Ann", 1, high="Ben", low="Ben", jack="Ben", game="Ben")
    set_back = pitched("Ben", 2, high="Ann", low="Ann", jack="Cy", game="Cy")
    state = play([first, second, set_back])
    assert state.totals["Ben"] == 6
    assert not state.finished
    assert state.notices == []


@pytest.mark.parametrize("target", [7, 11, 15, 21])
def test_the_game_ends_at_the_chosen_target(target):
    sweep = pitched("Ann", 4, high="Ann", low="Ann", jack="Ann", game="Ann")
    needed = -(-target // 4)
    state = play([sweep] * (needed - 1), target=target)
    assert not state.finished
    assert state.totals["Ann"] == 4 * (needed - 1)
    state = play([sweep] * needed, target=target)
    assert state.finished
    assert state.winners == ["Ann"]
    assert state.totals["Ann"] == 4 * needed >= target


def test_no_hand_is_taken_after_the_game_is_over():
    sweep = pitched("Ann", 4, high="Ann", low="Ann", jack="Ann", game="Ann")
    with pytest.raises(RuleError) as caught:
        play([sweep, sweep, pitched("Ben", 2)])
    assert caught.value.code == "game_over"
    assert caught.value.message == "This game is over."
    assert caught.value.hand == 3


# Partnerships -------------------------------------------------------------------------------


def test_partners_sit_opposite_and_play_under_their_team_names():
    state = play([], players=FOUR, partnerships=True)
    assert state.teams == [["Ann", "Cy"], ["Ben", "Dee"]]
    assert state.sides == ["Ann & Cy", "Ben & Dee"]
    assert state.totals == {"Ann & Cy": 0, "Ben & Dee": 0}
    assert team_name(["Ann", "Cy"]) == "Ann & Cy"


def test_points_won_by_partners_go_to_their_team():
    entry = {
        **auction(("Ben", 2), ("Cy", "pass"), ("Dee", "pass"), ("Ann", "pass")),
        **points(high="Dee", low="Cy", jack="Ann", game="Ben"),
    }
    state = play([entry], players=FOUR, partnerships=True)
    hand = state.hands[0]
    assert hand.info["pitcher"] == "Ben"
    assert hand.info["pitcher_side"] == "Ben & Dee"
    assert hand.info["made"] is True
    assert hand.info["won"] == {"Ann & Cy": ["low", "jack"], "Ben & Dee": ["high", "game"]}
    assert hand.points == {"Ann & Cy": 2, "Ben & Dee": 2}
    assert state.totals == {"Ann & Cy": 2, "Ben & Dee": 2}


def test_a_team_is_set_back_when_its_pitcher_falls_short():
    entry = pitched("Ann", 3, high="Cy", low="Ben", jack="Dee", game="Ann")
    state = play([entry, pitched("Ben", 1, high="Dee", low="Ann")], players=FOUR, partnerships=True)
    assert [h.points for h in state.hands] == [
        {"Ann & Cy": -3, "Ben & Dee": 2},
        {"Ann & Cy": 1, "Ben & Dee": 1},
    ]
    assert state.totals == {"Ann & Cy": -2, "Ben & Dee": 3}


def test_a_team_s_game_points_are_the_sum_of_its_players():
    game_points = {"Ann": 10, "Ben": 15, "Cy": 10, "Dee": 4}
    entry = pitched("Ben", 2, high="Ben", low="Ben", game_points=game_points)
    state = play([entry], players=FOUR, partnerships=True)
    assert state.hands[0].info["won"] == {"Ann & Cy": ["game"], "Ben & Dee": ["high", "low"]}
    mismatch = {**entry, "game": "Dee"}
    error = refused([mismatch], players=FOUR, partnerships=True)
    assert error.code == "game_point_mismatch"
    assert error.message == "By the game points Game goes to Ann & Cy (20), not to Ben & Dee (19)."


def test_a_lone_trump_in_partnerships_is_won_by_the_pitchers_side():
    entry = pitched("Ben", 2, high="Dee", low="Dee", single_trump=True)
    state = play([entry], players=FOUR, partnerships=True)
    assert state.hands[0].points == {"Ann & Cy": 0, "Ben & Dee": 2}
    error = refused([{**entry, "low": "Cy"}], players=FOUR, partnerships=True)
    assert (error.code, error.field) == ("single_trump_mismatch", "low")


def test_a_team_above_the_target_must_pitch_to_win():
    sweep = {"high": "Cy", "low": "Ann", "jack": "Cy", "game": "Ann"}
    hands = [pitched("Ben", 1, **sweep), pitched("Dee", 1, **sweep)]
    state = play(hands, players=FOUR, partnerships=True)
    assert state.totals == {"Ann & Cy": 8, "Ben & Dee": -2}
    assert not state.finished
    assert state.notices == ["Ann & Cy have 8 but one of them must pitch to win."]
    state = play([*hands, pitched("Cy", 2, **sweep)], players=FOUR, partnerships=True)
    assert state.finished
    assert state.winners == ["Ann & Cy"]


def test_a_team_set_back_but_still_at_the_target_wins():
    sweep = {"high": "Cy", "low": "Ann", "jack": "Cy", "game": "Ann"}
    hands = [pitched("Ben", 1, **sweep), pitched("Dee", 1, **sweep)]
    short = pitched("Ann", 1, high="Ben", low="Dee", jack="Ben", game="Dee")
    state = play([*hands, short], players=FOUR, partnerships=True)
    assert state.totals == {"Ann & Cy": 7, "Ben & Dee": 2}
    assert state.winners == ["Ann & Cy"]
    assert state.notices == [
        "Ann & Cy were set back but still have 7, enough to win as the pitcher."
    ]


# Properties ---------------------------------------------------------------------------------


def legal_choices(high: int, is_dealer: bool, min_bid: int) -> list[Any]:
    """What the rules allow, written out independently of the module."""
    if is_dealer and high == 0:
        return list(range(max(min_bid, 2), 5))
    if is_dealer:
        return ["pass"] if high == 4 else ["pass", *range(max(min_bid, high), 5)]
    return ["pass", *range(max(min_bid, high + 1), 5)]


@st.composite
def auctions(draw, order: list[str], min_bid: int) -> list[list[Any]]:
    turns: list[list[Any]] = []
    high = 0
    for index, name in enumerate(order):
        call = draw(st.sampled_from(legal_choices(high, index == len(order) - 1, min_bid)))
        turns.append([name, call])
        if call != "pass":
            high = call
    return turns


def high_bidder(turns: list[list[Any]]) -> tuple[str, int]:
    bid = max(call for _, call in turns if call != "pass")
    return [name for name, call in turns if call == bid][-1], bid


@st.composite
def tables(draw) -> tuple[tuple[str, ...], dict[str, Any], int]:
    partnerships = draw(st.booleans())
    count = 4 if partnerships else draw(st.integers(2, 7))
    options = {
        "target": draw(st.sampled_from([7, 11, 15, 21])),
        "partnerships": partnerships,
        "min_bid": draw(st.sampled_from([1, 2])),
        "low_to_player": draw(st.booleans()),
    }
    return NAMES[:count], options, draw(st.integers(0, count - 1))


@st.composite
def scored_points(draw, players: tuple[str, ...], pitcher: str) -> dict[str, Any]:
    anyone = st.sampled_from(players)
    maybe = st.one_of(st.none(), anyone)
    if draw(st.booleans()) and draw(st.booleans()):
        entered: dict[str, Any] = {
            "high": pitcher,
            "low": pitcher,
            "jack": draw(st.sampled_from([None, pitcher])),
            "game": draw(maybe),
            "single_trump": True,
        }
    else:
        entered = {"high": draw(anyone), "low": draw(anyone), "jack": draw(maybe)}
        entered["game"] = draw(maybe)
    if draw(st.booleans()):
        cap = {2: 68, 3: 78}.get(len(players), 80)
        counts: dict[str, int] = {}
        for name in players:
            counts[name] = draw(st.integers(0, cap - sum(counts.values())))
        entered["game_points"] = counts
        entered.pop("game")
    return entered


@st.composite
def games(draw) -> tuple[tuple[str, ...], dict[str, Any], int, list[dict[str, Any]]]:
    players, options, first_dealer = draw(tables())
    entries: list[dict[str, Any]] = []
    hand_count = draw(st.integers(0, 12))
    for index in range(hand_count):
        seat = (first_dealer + index) % len(players)
        order = [players[(seat + step) % len(players)] for step in range(1, len(players) + 1)]
        if draw(st.booleans()):
            entry: dict[str, Any] = {"auction": draw(auctions(order, options["min_bid"]))}
            pitcher, _ = high_bidder(entry["auction"])
        else:
            pitcher = draw(st.sampled_from(players))
            entry = {"pitcher": pitcher, "bid": draw(st.integers(options["min_bid"], 4))}
        last = index == hand_count - 1
        if not (last and draw(st.booleans())):
            entry.update(draw(scored_points(players, pitcher)))
        entries.append(entry)
    return players, options, first_dealer, entries


def replay_until_over(players, options, first_dealer, entries):
    """Replay a legal game; hands generated past the winning hand are dropped."""
    setup = Setup(players, options, first_dealer)
    try:
        return RULES.play(setup, entries), entries
    except RuleError as error:
        assert error.code == "game_over"
        entries = entries[: error.hand - 1]
        return RULES.play(setup, entries), entries


@settings(max_examples=150, deadline=None)
@given(games())
def test_every_random_legal_game_is_accepted_and_adds_up(game):
    players, options, first_dealer, entries = game
    state, entries = replay_until_over(players, options, first_dealer, entries)
    assert len(state.hands) == len(entries)
    running = {side: 0 for side in state.sides}
    for index, (hand, entry) in enumerate(zip(state.hands, entries, strict=True)):
        assert hand.number == index + 1
        assert hand.dealer == players[(first_dealer + index) % len(players)]
        assert hand.info["order"][-1] == hand.dealer
        if "auction" in entry:
            assert (hand.info["pitcher"], hand.info["bid"]) == high_bidder(entry["auction"])
        if hand.status == "playing":
            assert hand is state.hands[-1]
            assert hand.points is None
            assert state.next["pitcher"] == hand.info["pitcher"]
            continue
        side = hand.info["pitcher_side"]
        won = {name: len(points) for name, points in hand.info["won"].items()}
        assert set(hand.points) == set(state.sides)
        assert hand.info["made"] == (won[side] >= hand.info["bid"])
        for other in state.sides:
            if other != side or hand.info["made"]:
                assert hand.points[other] == won[other]
            else:
                assert hand.points[other] == -hand.info["bid"]
        for other in state.sides:
            running[other] += hand.points[other]
        pitcher_reached = running[side] >= options["target"]
        assert pitcher_reached == (state.finished and hand is state.hands[-1])
    assert state.totals == running
    if state.finished:
        assert state.winners == [state.hands[-1].info["pitcher_side"]]
        assert state.next is None
    else:
        assert state.winners == []
        reached = [side for side in state.sides if running[side] >= options["target"]]
        assert len(state.notices) == len(reached)
        assert state.next["dealer"] == state.next["order"][-1]


@settings(max_examples=150, deadline=None)
@given(games())
def test_the_points_handed_out_in_a_hand_never_exceed_four(game):
    players, options, first_dealer, entries = game
    state, _ = replay_until_over(players, options, first_dealer, entries)
    for hand in state.hands:
        if hand.status == "scored":
            handed_out = sum(len(points) for points in hand.info["won"].values())
            assert 2 <= handed_out <= 4
            assert sum(value for value in hand.points.values() if value > 0) <= 4


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_every_legal_auction_is_accepted_and_the_pitcher_is_the_high_bidder(data):
    players, options, first_dealer = data.draw(tables())
    order = [players[(first_dealer + step) % len(players)] for step in range(1, len(players) + 1)]
    turns = data.draw(auctions(order, options["min_bid"]))
    state = RULES.play(Setup(players, options, first_dealer), [{"auction": turns}])
    info = state.hands[0].info
    pitcher, bid = high_bidder(turns)
    assert (info["pitcher"], info["bid"]) == (pitcher, bid)
    others_high = max((call for _, call in turns[:-1] if call != "pass"), default=0)
    assert info["stolen"] == (turns[-1][1] == others_high)
    assert state.hands[0].input == {"auction": turns}


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_legal_calls_offers_exactly_what_the_auction_accepts(data):
    players, options, first_dealer = data.draw(tables())
    order = [players[(first_dealer + step) % len(players)] for step in range(1, len(players) + 1)]
    turns = data.draw(auctions(order, options["min_bid"]))
    prefix = turns[: data.draw(st.integers(0, len(turns)))]
    high = max((call for _, call in prefix if call != "pass"), default=0)
    offered = legal_calls(prefix, order[-1], order, options)
    if len(prefix) == len(order):
        assert offered == []
    else:
        assert offered == legal_choices(high, len(prefix) == len(order) - 1, options["min_bid"])


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_an_illegal_call_anywhere_in_an_auction_is_refused(data):
    players, options, first_dealer = data.draw(tables())
    order = [players[(first_dealer + step) % len(players)] for step in range(1, len(players) + 1)]
    turns = data.draw(auctions(order, options["min_bid"]))
    spot = data.draw(st.integers(0, len(turns) - 1))
    high = max((call for _, call in turns[:spot] if call != "pass"), default=0)
    allowed = legal_choices(high, spot == len(order) - 1, options["min_bid"])
    wrong = [call for call in ["pass", -1, 0, 1, 2, 3, 4, 5, "bid"] if call not in allowed]
    turns[spot] = [turns[spot][0], data.draw(st.sampled_from(wrong))]
    codes = {"bid_invalid", "bid_not_higher", "dealer_must_bid", "dealer_min_bid"}
    codes.add("steal_not_allowed")
    with pytest.raises(RuleError) as caught:
        RULES.play(Setup(players, options, first_dealer), [{"auction": turns}])
    assert caught.value.code in codes
    assert caught.value.field == f"auction.{spot}"
    assert caught.value.hand == 1


@settings(max_examples=100, deadline=None)
@given(games(), st.data())
def test_a_stranger_or_too_many_game_points_in_any_hand_is_refused(game, data):
    players, options, first_dealer, entries = game
    _, entries = replay_until_over(players, options, first_dealer, entries)
    scored = [index for index, entry in enumerate(entries) if "high" in entry]
    if not scored:
        return
    spot = data.draw(st.sampled_from(scored))
    broken = dict(entries[spot])
    mistake = data.draw(st.sampled_from(["high", "low", "jack", "game", "game_points"]))
    if mistake == "game_points":
        broken.pop("game", None)
        broken["game_points"] = {players[0]: 50, players[1]: 31}
        code = "game_points_invalid"
    else:
        broken.pop("game_points", None)
        broken.pop("single_trump", None)
        broken[mistake] = "Zed"
        code = "unknown_player"
    entries = [*entries[:spot], broken, *entries[spot + 1 :]]
    with pytest.raises(RuleError) as caught:
        RULES.play(Setup(players, options, first_dealer), entries)
    assert caught.value.code == code
    assert caught.value.hand == spot + 1
