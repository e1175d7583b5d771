"""Spades rules: contracts, nils, blind nil, bags, the target, the set-out, refusals, properties."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from scorekeeper.games.base import RuleError
from scorekeeper.games.base import Setup
from scorekeeper.games.spades.rules import RULES
from scorekeeper.games.spades.rules import bag_penalty
from scorekeeper.games.spades.rules import blind_nil_allowed
from scorekeeper.games.spades.rules import team_score

FOUR = ("Ann", "Ben", "Cy", "Dee")
AC = "Ann & Cy"
BD = "Ben & Dee"


def make_setup(players=FOUR, first_dealer=0, **options) -> Setup:
    return Setup(tuple(players), RULES.resolve_options(options, len(players)), first_dealer)


def play(entries, first_dealer=0, **options):
    return RULES.play(make_setup(FOUR, first_dealer, **options), entries)


def refusal(entries, first_dealer=0, **options) -> RuleError:
    with pytest.raises(RuleError) as caught:
        play(entries, first_dealer, **options)
    for error in caught.value.errors:
        assert error.message[0].isupper() and error.message.endswith(".")
    return caught.value


def hand(bids, tricks=None, blind=None):
    entry = {"bids": dict(zip(FOUR, bids, strict=True))}
    if tricks is not None:
        entry["tricks"] = dict(zip(FOUR, tricks, strict=True))
    if blind is not None:
        entry["blind_nil"] = blind
    return entry


# The table and the options -------------------------------------------------------------------


def test_spades_is_four_players_in_two_partnerships_sitting_opposite():
    assert (RULES.key, RULES.title, RULES.hand_word) == ("spades", "Spades", "Hand")
    assert RULES.team_seats({}, 4) == [[0, 2], [1, 3]]
    assert RULES.sides(FOUR, {}) == [AC, BD]
    assert RULES.side_of_seat({}, 4) == [0, 1, 0, 1]
    state = play([])
    assert state.sides == [AC, BD]
    assert state.teams == [["Ann", "Cy"], ["Ben", "Dee"]]
    assert state.totals == {AC: 0, BD: 0}


@pytest.mark.parametrize("count", [3, 5])
def test_any_other_number_of_players_is_refused(count):
    players = ("Ann", "Ben", "Cy", "Dee", "Eve")[:count]
    with pytest.raises(RuleError) as caught:
        RULES.check_players(players, {})
    assert (caught.value.code, caught.value.field) == ("player_count", "players")
    assert caught.value.message == f"This game needs exactly 4 players; {count} chosen."
    with pytest.raises(RuleError):
        RULES.play(Setup(players, RULES.resolve_options({}, count)), [])


def test_option_defaults_match_the_api():
    assert RULES.resolve_options({}, 4) == {
        "target": 500,
        "blind_nil": False,
        "bag_penalty": True,
        "set_out": True,
    }
    for option in RULES.option_specs(4):
        assert option.label and option.help
    for value in (250, 300, 500):
        assert RULES.resolve_options({"target": value}, 4)["target"] == value
    with pytest.raises(RuleError) as caught:
        RULES.resolve_options({"target": 400, "bag_penalty": "on"}, 4)
    assert [(e.code, e.field) for e in caught.value.errors] == [
        ("option_value", "options.target"),
        ("option_value", "options.bag_penalty"),
    ]
    assert caught.value.errors[0].message == "Points to win must be one of: 250, 300, 500."


def test_the_deal_passes_left_and_bidding_starts_at_the_dealers_left():
    entries = [hand([3, 3, 3, 3], [4, 3, 3, 3]), hand([3, 3, 3, 3], [4, 3, 3, 3])]
    state = play(entries, first_dealer=3)
    assert [h.dealer for h in state.hands] == ["Dee", "Ann"]
    assert state.hands[0].info["order"] == ["Ann", "Ben", "Cy", "Dee"]
    assert state.hands[1].info["leader"] == "Ben"
    assert state.next["dealer"] == "Ben"
    assert state.next["order"] == ["Cy", "Dee", "Ann", "Ben"]
    assert state.next["cards"] == 13 and state.next["trump"] == "spades"


# Scoring a hand ------------------------------------------------------------------------------


def test_a_made_contract_scores_10_a_trick_bid_and_1_a_trick_over_each_a_bag():
    state = play([hand([4, 3, 2, 3], [5, 3, 3, 2])])
    # Ann & Cy bid 6 and took 8: 60 + 2, 2 bags. Ben & Dee bid 6 and took 5: set, -60.
    assert state.hands[0].points == {AC: 62, BD: -60}
    info = state.hands[0].info
    assert info["contract"] == {AC: 6, BD: 6}
    assert info["tricks"] == {AC: 8, BD: 5}
    assert info["made"] == {AC: True, BD: False}
    assert info["bags"] == {AC: 2, BD: 0}
    assert info["bags_total"] == {AC: 2, BD: 0}
    assert info["bag_penalty"] == {AC: 0, BD: 0}
    assert state.next["bags"] == {AC: 2, BD: 0}


def test_an_exact_contract_scores_10_a_trick_and_no_bag():
    assert team_score({"A": 3, "C": 4}, {"A": 3, "C": 4}, [], ["A", "C"])["points"] == 70
    state = play([hand([3, 3, 4, 3], [3, 3, 4, 3])])
    assert state.hands[0].points == {AC: 70, BD: 60}
    assert state.hands[0].info["bags"] == {AC: 0, BD: 0}


def test_a_made_nil_scores_100_and_a_failed_nil_loses_100():
    # Cy bids nil and takes none (+100); Ann bid 4 and took 5 (41, 1 bag).
    # Dee bids nil and takes 2 (-100, 2 bags); Ben bid 5 and took 6: 51, 1 bag.
    state = play([hand([4, 5, 0, 0], [5, 6, 0, 2])])
    assert state.hands[0].points == {AC: 141, BD: 51 - 100}
    info = state.hands[0].info
    assert info["nil"] == {
        AC: [{"player": "Cy", "blind": False, "made": True}],
        BD: [{"player": "Dee", "blind": False, "made": False}],
    }
    assert info["bags"] == {AC: 1, BD: 3}


def test_a_failed_nils_tricks_do_not_help_the_partners_contract():
    # Ann bids nil and takes 3; Cy bid 5 and took 4: set (-50) though the team took 7.
    state = play([hand([0, 3, 5, 2], [3, 3, 4, 3])])
    assert state.hands[0].info["tricks"][AC] == 4
    assert state.hands[0].info["made"][AC] is False
    assert state.hands[0].points[AC] == -50 - 100
    assert state.hands[0].info["bags"][AC] == 3
    assert state.hands[0].points[BD] == 51


def test_a_contract_of_zero_scores_nothing_by_itself():
    # Both Ben and Dee bid nil: Ben takes none (+100), Dee takes 1 (-100, 1 bag).
    state = play([hand([6, 0, 6, 0], [6, 0, 6, 1])])
    info = state.hands[0].info
    assert info["contract"][BD] == 0
    assert info["made"][BD] is None
    assert state.hands[0].points == {AC: 120, BD: 0}
    assert info["bags"][BD] == 1
    both_made = play([hand([6, 0, 7, 0], [6, 0, 7, 0])])
    assert both_made.hands[0].points == {AC: 130, BD: 200}


def test_bids_alone_open_the_hand_and_tricks_complete_it():
    state = play([hand([3, 3, 3, 3])])
    current = state.hands[0]
    assert current.status == "playing"
    assert current.points is None
    assert current.info["contract"] == {AC: 6, BD: 6}
    assert current.info["made"] is None and current.info["bags"] is None
    assert state.current is current
    assert state.next["number"] == 1
    assert "Contracts: Ann & Cy 6, Ben & Dee 6." in state.notices
    completed = RULES.merge(current.input, {"tricks": dict(zip(FOUR, [4, 3, 3, 3], strict=True))})
    state = play([completed])
    assert state.hands[0].status == "scored"
    assert state.hands[0].points == {AC: 61, BD: 60}
    assert state.next["number"] == 2


def test_one_bid_or_trick_can_be_corrected_alone():
    entered = hand([3, 3, 3, 3], [4, 3, 3, 3])
    corrected = RULES.merge(entered, {"bids": {"Cy": 4}, "tricks": {"Ann": 3, "Cy": 4}})
    assert corrected["bids"] == {"Ann": 3, "Ben": 3, "Cy": 4, "Dee": 3}
    assert corrected["tricks"] == {"Ann": 3, "Ben": 3, "Cy": 4, "Dee": 3}
    assert play([corrected]).hands[0].points == {AC: 70, BD: 60}
    assert entered["bids"]["Cy"] == 3


# Bags ----------------------------------------------------------------------------------------


def test_ten_bags_cost_100_and_the_rest_carry_on_repeating_while_ten_are_left():
    assert bag_penalty(9) == (0, 9)
    assert bag_penalty(10) == (-100, 0)
    assert bag_penalty(13) == (-100, 3)
    assert bag_penalty(22) == (-200, 2)


def test_the_bag_penalty_belongs_to_the_hand_that_reaches_ten_bags():
    # Hand 1: Ann & Cy bid 2 + 2 and take all 13: 49, 9 bags. Ben & Dee bid 1 + 1: -20.
    # Hand 2: Ann bids 1 and takes 7, Cy bids nil and takes 6: 16 - 100, 6 + 6 bags.
    #   9 + 12 = 21 bags: -200 and 1 bag carries on.
    entries = [hand([2, 1, 2, 1], [7, 0, 6, 0]), hand([1, 1, 0, 1], [7, 0, 6, 0])]
    state = play(entries, set_out=False)
    assert state.hands[0].info["bags_total"] == {AC: 9, BD: 0}
    second = state.hands[1].info
    assert second["bags"] == {AC: 12, BD: 0}
    assert second["bag_penalty"] == {AC: -200, BD: 0}
    assert second["bags_total"] == {AC: 1, BD: 0}
    assert state.hands[1].points == {AC: 16 - 100 - 200, BD: -20}
    assert state.totals == {AC: 49 - 284, BD: -40}
    assert state.next["bags"] == {AC: 1, BD: 0}
    assert "Ann & Cy reached 10 bags in hand 2: 200 points off, 1 bag carried over." in (
        state.notices
    )
    assert not state.finished


def test_without_the_bag_penalty_bags_are_only_counted():
    entries = [hand([2, 1, 2, 1], [7, 0, 6, 0]), hand([1, 1, 0, 1], [7, 0, 6, 0])]
    state = play(entries, bag_penalty=False, set_out=False)
    assert state.hands[1].info["bag_penalty"] == {AC: 0, BD: 0}
    assert state.hands[1].info["bags_total"] == {AC: 21, BD: 0}
    assert state.totals == {AC: 49 + 16 - 100, BD: -40}


def test_a_team_at_minus_200_is_set_out_and_the_other_team_wins():
    entries = [hand([2, 1, 2, 1], [7, 0, 6, 0]), hand([1, 1, 0, 1], [7, 0, 6, 0])]
    state = play(entries)
    assert state.totals == {AC: -235, BD: -40}
    assert state.finished and state.winners == [BD]
    assert state.next is None
    assert state.notices[-1] == "Ann & Cy are set out at -235: Ben & Dee win with -40."
    error = refusal([*entries, hand([3, 3, 3, 3])])
    assert (error.code, error.hand) == ("game_over", 3)


def test_when_both_teams_are_set_out_the_higher_total_wins_and_equal_totals_play_on():
    # Both teams bid 13 and both are set: -130 each hand.
    entries = [hand([7, 6, 6, 7], [4, 3, 3, 3])] * 2
    state = play(entries)
    assert state.hands[0].points == {AC: -130 + 0, BD: -130}
    assert state.totals == {AC: -260, BD: -260}
    assert not state.finished
    assert "Both teams have -260: another hand decides." in state.notices
    # Then both bid 2: Ann & Cy take 2 (20), Ben & Dee 11 (20 + 9): still both set out.
    state = play([*entries, hand([1, 1, 1, 1], [1, 2, 1, 9])])
    assert state.totals == {AC: -240, BD: -231}
    assert state.finished and state.winners == [BD]
    assert state.notices[-1] == "Ann & Cy are set out at -240: Ben & Dee win with -231."


def test_the_set_out_is_decided_before_the_target():
    # Twice Ann & Cy bid 13 and take them (130); Ben & Dee bid 13 too and are set (-130).
    # After hand 2 Ann & Cy reached 250 and Ben & Dee are set out: the set-out decides.
    entries = [hand([7, 6, 6, 7], [7, 0, 6, 0])] * 2
    state = play(entries, target=250)
    assert state.totals == {AC: 260, BD: -260}
    assert state.finished and state.winners == [AC]
    assert state.notices == ["Ben & Dee are set out at -260: Ann & Cy win with 260."]
    state = play(entries, target=250, set_out=False)
    assert state.finished and state.winners == [AC]
    assert state.notices == ["Ann & Cy win with 260 to -260."]
    state = play(entries, set_out=False)
    assert not state.finished
    assert state.totals == {AC: 260, BD: -260}


def test_without_the_set_out_a_team_may_fall_below_minus_200_and_play_on():
    entries = [hand([7, 6, 6, 7], [4, 3, 3, 3])] * 3
    state = play(entries, set_out=False)
    assert state.totals == {AC: -390, BD: -390}
    assert not state.finished
    assert state.next["number"] == 4


# The target ----------------------------------------------------------------------------------


def test_the_first_team_to_reach_the_target_wins():
    # Hand 1: Ann & Cy 130; Ben & Dee two made nils, 200. Hand 2: 60 and 61.
    entries = [hand([6, 0, 7, 0], [6, 0, 7, 0]), hand([3, 3, 3, 3], [3, 3, 3, 4])]
    state = play(entries[:1], target=250)
    assert state.totals == {AC: 130, BD: 200}
    assert not state.finished
    state = play(entries, target=250)
    assert state.totals == {AC: 190, BD: 261}
    assert state.finished and state.winners == [BD]
    assert state.notices == ["Ben & Dee win with 261 to 190."]


def test_when_both_teams_reach_the_target_the_higher_total_wins():
    entries = [hand([6, 0, 7, 0], [6, 0, 7, 0])] * 2
    state = play(entries, target=250)
    assert state.totals == {AC: 260, BD: 400}
    assert state.finished and state.winners == [BD]
    assert state.notices == ["Ben & Dee win with 400 to 260."]


def test_an_exact_tie_at_the_target_plays_another_hand():
    ahead_by_one = hand([3, 3, 3, 3], [3, 3, 3, 4])  # Ann & Cy 60, Ben & Dee 61 (1 bag).
    # Four such hands: 240 to 244. Then Ann & Cy bid 4 and take 4 (40), Ben & Dee bid 3 and
    # take 9 (36): 280 each, both over 250 (no bag penalty here).
    level = hand([2, 2, 2, 1], [2, 5, 2, 4])
    entries = [ahead_by_one] * 4 + [level]
    state = play(entries, target=250, bag_penalty=False)
    assert [h.totals for h in state.hands[3:]] == [{AC: 240, BD: 244}, {AC: 280, BD: 280}]
    assert not state.finished
    assert state.winners == []
    assert state.next["number"] == 6
    assert state.notices[0] == "Both teams have 280: another hand decides."
    state = play([*entries, ahead_by_one], target=250, bag_penalty=False)
    assert state.totals == {AC: 340, BD: 341}
    assert state.finished and state.winners == [BD]


def test_over_the_target_together_the_higher_total_wins_even_by_one_point():
    ahead_by_one = hand([3, 3, 3, 3], [3, 3, 3, 4])
    behind_by_one = hand([3, 3, 3, 3], [4, 3, 3, 3])
    entries = [ahead_by_one] * 4 + [behind_by_one]
    state = play(entries, target=300)
    assert [h.totals for h in state.hands[3:]] == [{AC: 240, BD: 244}, {AC: 301, BD: 304}]
    assert state.finished and state.winners == [BD]


def test_a_full_game_to_500_with_nils_a_set_contract_and_a_bag_penalty():
    entries = [
        # 1: Ann 4 takes 5 (41, 1 bag), Cy nil made (+100); Ben & Dee bid 7 take 8 (71, 1 bag).
        hand([4, 3, 0, 4], [5, 3, 0, 5]),
        # 2: Ann & Cy bid 6 take 4: set, -60. Ben & Dee bid 6 take 9: 63, 3 bags (4 in all).
        hand([3, 4, 3, 2], [2, 5, 2, 4]),
        # 3: Ann nil takes 2 (-100, 2 bags), Cy bid 5 takes 4: set (-50); Ben & Dee 8 take 7.
        hand([0, 4, 5, 4], [2, 4, 4, 3]),
        # 4: Ann & Cy bid 9 take 10 (91, 1 bag: 4 in all); Ben & Dee bid 4 take 3: -40.
        hand([5, 2, 4, 2], [6, 3, 4, 0]),
        # 5: Ann & Cy bid 6 take 4: -60. Ben & Dee bid 3 take 9: 36 and 6 bags: 10, -100.
        hand([3, 2, 3, 1], [2, 6, 2, 3]),
        # 6: Ann & Cy bid 12 take 12 (120); Ben bid 1 takes 1 (10), Dee nil made (+100).
        hand([6, 1, 6, 0], [7, 1, 5, 0]),
        # 7: Ann & Cy bid 13 take 13 (130); Ben and Dee both nil and both made (+200).
        hand([7, 0, 6, 0], [7, 0, 6, 0]),
        # 8: Ann & Cy bid 10 (100); Ben bid 3 takes 3 (30), Dee nil made (+100).
        hand([6, 3, 4, 0], [6, 3, 4, 0]),
        # 9: Ann & Cy bid 9 (90); Ben 4 (40), Dee nil made (+100): Ben & Dee reach 530.
        hand([5, 4, 4, 0], [5, 4, 4, 0]),
    ]
    state = play(entries)
    assert [h.points for h in state.hands] == [
        {AC: 141, BD: 71},
        {AC: -60, BD: 63},
        {AC: -150, BD: -80},
        {AC: 91, BD: -40},
        {AC: -60, BD: -64},
        {AC: 120, BD: 110},
        {AC: 130, BD: 200},
        {AC: 100, BD: 130},
        {AC: 90, BD: 140},
    ]
    assert [h.totals for h in state.hands] == [
        {AC: 141, BD: 71},
        {AC: 81, BD: 134},
        {AC: -69, BD: 54},
        {AC: 22, BD: 14},
        {AC: -38, BD: -50},
        {AC: 82, BD: 60},
        {AC: 212, BD: 260},
        {AC: 312, BD: 390},
        {AC: 402, BD: 530},
    ]
    assert [h.info["bags_total"] for h in state.hands] == [
        {AC: 1, BD: 1},
        {AC: 1, BD: 4},
        {AC: 3, BD: 4},
        {AC: 4, BD: 4},
        {AC: 4, BD: 0},
        *[{AC: 4, BD: 0}] * 4,
    ]
    assert state.hands[4].info["bag_penalty"] == {AC: 0, BD: -100}
    assert state.hands[2].info["nil"][AC] == [{"player": "Ann", "blind": False, "made": False}]
    assert state.hands[1].info["made"] == {AC: False, BD: True}
    assert state.hands[6].info["made"] == {AC: True, BD: None}
    assert [h.dealer for h in state.hands[:5]] == ["Ann", "Ben", "Cy", "Dee", "Ann"]
    assert state.finished and state.winners == [BD]
    assert state.totals == {AC: 402, BD: 530}
    assert state.notices == ["Ben & Dee win with 530 to 402."]
    assert state.next is None
    before_the_end = play(entries[:8])
    assert not before_the_end.finished
    assert before_the_end.next["bags"] == {AC: 4, BD: 0}
    penalty_hand = play(entries[:5])
    assert penalty_hand.notices[0] == (
        "Ben & Dee reached 10 bags in hand 5: 100 points off, 0 bags carried over."
    )


# Blind nil -----------------------------------------------------------------------------------

BEHIND = hand([5, 3, 5, 2], [6, 2, 5, 0])  # Ann & Cy 101, Ben & Dee -50: 151 behind.


def test_blind_nil_is_allowed_only_100_or_more_behind():
    on = {"blind_nil": True}
    assert blind_nil_allowed(on, {AC: 0, BD: 100}) == {AC: True, BD: False}
    assert blind_nil_allowed(on, {AC: 0, BD: 99}) == {AC: False, BD: False}
    assert blind_nil_allowed({"blind_nil": False}, {AC: 0, BD: 500}) == {AC: False, BD: False}
    state = play([BEHIND], blind_nil=True)
    assert state.totals == {AC: 101, BD: -50}
    assert state.next["blind_nil_allowed"] == {AC: False, BD: True}
    assert "Ben & Dee are 100 or more behind: either of them may bid blind nil." in state.notices


def test_a_blind_nil_made_scores_200_and_failed_loses_200():
    made = play([BEHIND, hand([4, 0, 4, 4], [5, 0, 4, 4], blind=["Ben"])], blind_nil=True)
    second = made.hands[1]
    assert second.input["blind_nil"] == ["Ben"]
    assert second.info["nil"][BD] == [{"player": "Ben", "blind": True, "made": True}]
    assert second.points == {AC: 81, BD: 240}
    assert second.info["blind_nil_allowed"] == {AC: False, BD: True}
    failed = play([BEHIND, hand([4, 0, 4, 4], [4, 1, 4, 4], blind=["Ben"])], blind_nil=True)
    assert failed.hands[1].points == {AC: 80, BD: 40 - 200}
    assert failed.hands[1].info["bags"][BD] == 1


def test_a_blind_nil_bidder_need_not_enter_the_bid_of_zero():
    entry = {"bids": {"Ann": 4, "Cy": 4, "Dee": 4}, "blind_nil": ["Ben"]}
    state = play([BEHIND, entry], blind_nil=True)
    assert state.hands[1].input["bids"] == {"Ann": 4, "Ben": 0, "Cy": 4, "Dee": 4}
    assert state.hands[1].status == "playing"


def test_blind_nil_is_refused_when_the_option_is_off():
    error = refusal([BEHIND, hand([4, 0, 4, 4], blind=["Ben"])])
    assert (error.code, error.field) == ("blind_nil_not_allowed", "blind_nil")
    assert error.message == "Blind nil is not played in this game."


def test_blind_nil_is_refused_for_a_team_less_than_100_behind():
    error = refusal([BEHIND, hand([0, 4, 4, 4], blind=["Ann"])], blind_nil=True)
    assert (error.code, error.field, error.hand) == ("blind_nil_not_allowed", "blind_nil", 2)
    assert error.message == (
        "Ann may not bid blind nil: Ann & Cy are not behind at the start of this hand, and "
        "blind nil needs 100 or more behind."
    )
    near = [hand([3, 3, 3, 3], [3, 3, 3, 4])]  # Ann & Cy 60, Ben & Dee 61: 1 behind.
    error = refusal([*near, hand([0, 4, 4, 4], blind=["Ann"])], blind_nil=True)
    assert "Ann & Cy are behind by only 1" in error.message
    error = refusal([hand([0, 4, 4, 4], blind=["Ann"])], blind_nil=True)
    assert error.code == "blind_nil_not_allowed"


def test_a_blind_nil_bidder_bidding_more_than_zero_is_refused():
    error = refusal([BEHIND, hand([4, 2, 4, 4], blind=["Ben"])], blind_nil=True)
    assert (error.code, error.field) == ("bid_out_of_range", "bids.Ben")
    assert error.message == "Ben bid blind nil, so Ben's bid is 0, not 2."


def test_a_wrong_blind_nil_list_is_refused():
    error = refusal([BEHIND, hand([4, 0, 4, 4], blind="Ben")], blind_nil=True)
    assert (error.code, error.field) == ("wrong_type", "blind_nil")
    error = refusal([BEHIND, hand([4, 0, 4, 4], blind=["Zed", 3])], blind_nil=True)
    assert [(e.code, e.field) for e in error.errors] == [
        ("unknown_player", "blind_nil.0"),
        ("wrong_type", "blind_nil.1"),
    ]


def test_both_partners_may_bid_blind_nil():
    state = play([BEHIND, hand([6, 0, 7, 0], [6, 0, 7, 0], blind=["Dee", "Ben"])], blind_nil=True)
    assert state.hands[1].input["blind_nil"] == ["Ben", "Dee"]
    assert state.hands[1].points == {AC: 130, BD: 400}


# Refusals ------------------------------------------------------------------------------------


def test_every_missing_bid_is_reported():
    error = refusal([{"bids": {"Ann": 3, "Cy": 3}}])
    assert [(e.code, e.field, e.message) for e in error.errors] == [
        ("missing_bid", "bids.Ben", "Enter a bid for Ben."),
        ("missing_bid", "bids.Dee", "Enter a bid for Dee."),
    ]
    for entry in ({}, {"bids": None}, {"bids": {}}, {"tricks": {"Ann": 13}}):
        assert refusal([entry]).errors[0].code == "missing_bid"


def test_two_bids_out_of_range_are_reported_at_once():
    error = refusal([hand([14, 3, -1, 3])])
    assert [(e.code, e.field, e.hand) for e in error.errors] == [
        ("bid_out_of_range", "bids.Ann", 1),
        ("bid_out_of_range", "bids.Cy", 1),
    ]
    assert error.errors[0].message == "Ann's bid must be from 0 to 13."


def test_bids_and_tricks_of_the_wrong_type_are_refused():
    error = refusal([hand(["3", 3, 3, 3.0])])
    assert [(e.code, e.field) for e in error.errors] == [
        ("wrong_type", "bids.Ann"),
        ("wrong_type", "bids.Dee"),
    ]
    assert refusal([[3, 3, 3, 3]]).code == "wrong_type"
    assert (refusal([{"bids": [3, 3, 3, 3]}]).field) == "bids"


def test_tricks_must_be_given_for_everyone_and_add_up_to_13():
    error = refusal([{"bids": hand([3, 3, 3, 3])["bids"], "tricks": {"Ann": 13}}])
    assert [(e.code, e.field) for e in error.errors] == [
        ("missing_tricks", "tricks.Ben"),
        ("missing_tricks", "tricks.Cy"),
        ("missing_tricks", "tricks.Dee"),
    ]
    error = refusal([hand([3, 3, 3, 3], [3, 3, 3, 3])])
    assert (error.code, error.field) == ("tricks_sum_mismatch", "tricks")
    assert error.message == "Tricks add up to 12 but every hand has 13 tricks."
    error = refusal([hand([3, 3, 3, 3], [14, -1, 0, 0])])
    assert [(e.code, e.field) for e in error.errors] == [
        ("tricks_out_of_range", "tricks.Ann"),
        ("tricks_out_of_range", "tricks.Ben"),
    ]


def test_a_bad_bid_and_bad_tricks_are_reported_together():
    error = refusal([hand([3, 3, 3, 30], [3, 3, 3, 3])])
    assert [(e.code, e.field) for e in error.errors] == [
        ("bid_out_of_range", "bids.Dee"),
        ("tricks_sum_mismatch", "tricks"),
    ]


def test_a_hand_left_without_tricks_is_refused_when_another_follows():
    error = refusal([hand([3, 3, 3, 3]), hand([3, 3, 3, 3])])
    assert (error.code, error.field, error.hand) == ("missing_tricks", "tricks", 1)
    assert error.message == "Hand 1 has no tricks yet: enter them before the next hand."


def test_a_name_not_at_the_table_is_refused():
    error = refusal([{"bids": {"Ann": 3, "Ben": 3, "Cy": 3, "Dee": 3, "Zed": 1}}])
    assert (error.code, error.field) == ("unknown_player", "bids.Zed")
    assert error.message == "Zed is not playing in this game."


# Storage, facts, CSV -------------------------------------------------------------------------


def test_bids_tricks_and_blind_nil_are_stored_by_seat():
    entry = hand([4, 0, 4, 4], [5, 0, 4, 4], blind=["Ben"])
    normalised = play([BEHIND, entry], blind_nil=True).hands[1].input
    stored = RULES.to_seats(normalised, FOUR)
    assert stored == {"bids": [4, 0, 4, 4], "blind_nil": [1], "tricks": [5, 0, 4, 4]}
    renamed = ["Ann", "Bob", "Cy", "Dee"]
    read = RULES.from_seats(stored, renamed)
    assert read == {
        "bids": {"Ann": 4, "Bob": 0, "Cy": 4, "Dee": 4},
        "blind_nil": ["Bob"],
        "tricks": {"Ann": 5, "Bob": 0, "Cy": 4, "Dee": 4},
    }
    before = RULES.from_seats(RULES.to_seats(BEHIND, FOUR), renamed)
    state = RULES.play(make_setup(renamed, blind_nil=True), [before, read])
    assert state.totals == {"Ann & Cy": 182, "Bob & Dee": 190}


def test_each_seat_counts_its_teams_contract_its_nils_and_bags():
    setup = make_setup(blind_nil=True)
    state = RULES.play(setup, [BEHIND, hand([4, 0, 4, 4], [4, 1, 4, 4], blind=["Ben"])])
    assert RULES.hand_facts(setup, state.hands[0]) == [
        {"contracts": 1, "contracts_made": 1, "bags": 1},
        {"contracts": 1},
        {"contracts": 1, "contracts_made": 1, "bags": 1},
        {"contracts": 1},
    ]
    assert RULES.hand_facts(setup, state.hands[1]) == [
        {"contracts": 1, "contracts_made": 1},
        {"contracts": 1, "contracts_made": 1, "blind_nils": 1, "bags": 1},
        {"contracts": 1, "contracts_made": 1},
        {"contracts": 1, "contracts_made": 1, "bags": 1},
    ]
    penalty = play([hand([2, 1, 2, 1], [7, 0, 6, 0]), hand([1, 1, 0, 1], [7, 0, 6, 0])])
    facts = RULES.hand_facts(make_setup(), penalty.hands[1])
    assert facts[0] == {"contracts": 1, "contracts_made": 1, "bags": 12, "bag_penalties": 2}
    assert facts[2]["nils"] == 1 and "nils_made" not in facts[2]
    keys = {fact.key for fact in RULES.facts} | {"hands", "points", "played", "won"}
    for stat in RULES.stats:
        assert {stat.count, stat.out_of or "hands", stat.per or "hands"} <= keys


def test_the_csv_shows_bids_tricks_blind_nil_and_each_teams_contract_and_bags():
    setup = make_setup(blind_nil=True)
    state = RULES.play(setup, [BEHIND, hand([4, 0, 4, 4], blind=["Ben"])])
    columns = RULES.csv_columns(setup)
    assert columns[:3] == ["Ann bid", "Ann tricks", "Ben bid"]
    assert columns[8:] == [
        "Blind nil",
        "Ann & Cy contract",
        "Ann & Cy made",
        "Ann & Cy bags",
        "Ann & Cy bags total",
        "Ben & Dee contract",
        "Ben & Dee made",
        "Ben & Dee bags",
        "Ben & Dee bags total",
    ]
    assert RULES.csv_cells(setup, state.hands[0]) == [
        *[5, 6, 3, 2, 5, 5, 2, 0],
        None,
        *[10, True, 1, 1],
        *[5, False, 0, 0],
    ]
    assert RULES.csv_cells(setup, state.hands[1]) == [
        *[4, None, 0, None, 4, None, 4, None],
        "Ben",
        *[8, None, None, 1],
        *[4, None, None, 0],
    ]


# Properties ----------------------------------------------------------------------------------


@st.composite
def legal_hands(draw):
    bids = {name: draw(st.integers(0, 13)) for name in FOUR}
    takers = draw(st.lists(st.sampled_from(FOUR), min_size=13, max_size=13))
    return {"bids": bids, "tricks": {name: takers.count(name) for name in FOUR}}


def game_until_over(setup, hands):
    """The hands of ``hands`` up to the one that ends the game."""
    entries = []
    for entry in hands:
        entries.append(entry)
        if RULES.play(setup, entries).finished:
            break
    return entries


@settings(max_examples=80, deadline=None)
@given(
    st.lists(legal_hands(), min_size=1, max_size=12),
    st.sampled_from([250, 300, 500]),
    st.booleans(),
    st.booleans(),
)
def test_totals_and_bags_add_up_in_any_legal_game(hands, target, penalty, set_out):
    setup = make_setup(target=target, bag_penalty=penalty, set_out=set_out)
    entries = game_until_over(setup, hands)
    state = RULES.play(setup, entries)
    for side in state.sides:
        assert state.totals[side] == sum(h.points[side] for h in state.hands)
    carried = {AC: 0, BD: 0}
    for played in state.hands:
        info = played.info
        for side, team in ((AC, ("Ann", "Cy")), (BD, ("Ben", "Dee"))):
            bids = [played.input["bids"][name] for name in team]
            tricks = [played.input["tricks"][name] for name in team]
            contract = sum(bids)
            counted = sum(t for b, t in zip(bids, tricks, strict=True) if b > 0)
            nil_tricks = sum(t for b, t in zip(bids, tricks, strict=True) if b == 0)
            assert info["contract"][side] == contract
            over = counted - contract if contract and counted >= contract else 0
            assert info["bags"][side] == over + nil_tricks
            carried[side] += info["bags"][side]
            if penalty:
                # Bags never reach 10 once a hand is scored; each 10 removed cost 100.
                assert 0 <= info["bags_total"][side] < 10
                assert info["bag_penalty"][side] == -100 * (
                    (carried[side] - info["bags_total"][side]) // 10
                )
                carried[side] = info["bags_total"][side]
            else:
                assert info["bag_penalty"][side] == 0
                assert info["bags_total"][side] == carried[side]
    if state.finished:
        winner = state.winners[0]
        loser = next(side for side in state.sides if side != winner)
        assert state.totals[winner] > state.totals[loser]
        assert state.totals[winner] >= target or (set_out and state.totals[loser] <= -200)
    else:
        assert state.next["bags"] == state.hands[-1].info["bags_total"]
        level = len(set(state.totals.values())) == 1
        assert max(state.totals.values()) < target or level
        if set_out:
            assert min(state.totals.values()) > -200 or level


@settings(max_examples=100, deadline=None)
@given(legal_hands())
def test_a_hand_splits_into_contract_nil_and_bag_points(entry):
    state = play([entry], set_out=False)
    played = state.hands[0]
    for side, team in ((AC, ("Ann", "Cy")), (BD, ("Ben", "Dee"))):
        bids = {name: entry["bids"][name] for name in team}
        tricks = {name: entry["tricks"][name] for name in team}
        contract = sum(bids.values())
        counted = sum(tricks[name] for name in team if bids[name] > 0)
        nil_points = sum(100 if tricks[n] == 0 else -100 for n in team if bids[n] == 0)
        if contract == 0:
            contract_points = 0
        elif counted >= contract:
            contract_points = 10 * contract + counted - contract
        else:
            contract_points = -10 * contract
        over = counted - contract if 0 < contract <= counted else 0
        bags = over + sum(tricks[n] for n in team if bids[n] == 0)
        # The first hand: no bags carried in, but a failed nil may bring 10 or more alone.
        penalty = -100 * (bags // 10)
        assert played.info["made"][side] == (None if contract == 0 else counted >= contract)
        assert played.info["bags"][side] == bags
        assert played.info["bag_penalty"][side] == penalty
        assert played.info["bags_total"][side] == bags % 10
        assert played.points[side] == contract_points + nil_points + penalty
