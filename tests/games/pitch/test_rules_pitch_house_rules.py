"""Auction Pitch house rules (issue 12): smudge, the dealer's steal switched off, the refusal
fixes of the auction, the lone trump in partnerships, and every problem reported at once."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from scorekeeper.games.base import RuleError
from scorekeeper.games.base import RuleErrors
from scorekeeper.games.base import Setup
from scorekeeper.games.pitch.rules import RULES
from scorekeeper.games.pitch.rules import legal_calls

THREE = ("Ann", "Ben", "Cy")
FOUR = ("Ann", "Ben", "Cy", "Dee")
NAMES = ("Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus")


def play(entries: list[Any], players=THREE, first_dealer: int = 0, **options):
    setup = Setup(tuple(players), RULES.resolve_options(options, len(players)), first_dealer)
    return RULES.play(setup, entries)


def refused(entries: list[Any], players=THREE, first_dealer: int = 0, **options) -> RuleError:
    with pytest.raises(RuleError) as caught:
        play(entries, players, first_dealer, **options)
    for error in caught.value.errors:
        assert error.message[0].isupper() and error.message.endswith("."), error.message
    return caught.value


def problems(error: RuleError) -> list[tuple[str, str | None]]:
    return [(e.code, e.field) for e in error.errors]


def pitched(pitcher: str, bid: int, high=None, low=None, jack=None, game=None, **more):
    entry: dict[str, Any] = {"pitcher": pitcher, "bid": bid}
    if high is not None or low is not None or more:
        entry.update({"high": high, "low": low, "jack": jack, "game": game, **more})
    return entry


def sweep(pitcher: str, bid: int, taker: str) -> dict[str, Any]:
    """``taker`` wins all four points of a hand ``pitcher`` pitched."""
    return pitched(pitcher, bid, high=taker, low=taker, jack=taker, game=taker)


def auction(*calls) -> dict[str, Any]:
    return {"auction": [list(call) for call in calls]}


# Options ---------------------------------------------------------------------------------


def test_the_house_rules_are_options_with_their_defaults():
    options = RULES.resolve_options({}, 4)
    assert (options["smudge"], options["dealer_may_steal"]) == (False, True)
    for option in RULES.option_specs(4):
        assert option.label and option.help
        if option.kind == "choice":
            assert set(option.choice_labels) == set(option.choices), option.key
    for raw in ({"smudge": "yes"}, {"dealer_may_steal": 0}):
        with pytest.raises(RuleError) as caught:
            RULES.resolve_options(raw, 4)
        assert problems(caught.value) == [("option_value", f"options.{next(iter(raw))}")]


def test_a_new_game_reports_a_bad_table_and_bad_options_together():
    with pytest.raises(RuleErrors) as caught:
        RULES.check_setup(THREE, {"partnerships": True, "smudge": "yes", "colour": 1})
    assert problems(caught.value) == [
        ("unknown_option", "options.colour"),
        ("option_value", "options.smudge"),
        ("partnership_count", "players"),
    ]
    assert RULES.check_setup(FOUR, {"partnerships": True})["partnerships"] is True


# Smudge ----------------------------------------------------------------------------------


def test_a_pitcher_who_wins_all_four_points_wins_at_once_with_smudge():
    state = play([sweep("Ben", 2, "Ben")], smudge=True)
    hand = state.hands[0]
    assert hand.points == {"Ann": 0, "Ben": 4, "Cy": 0}
    assert hand.info["smudge"] is True
    assert state.totals == {"Ann": 0, "Ben": 4, "Cy": 0}
    assert state.finished and state.winners == ["Ben"]
    assert state.next is None
    assert state.notices == ["Smudge! Ben wins."]
    error = refused([sweep("Ben", 2, "Ben"), pitched("Cy", 2)], smudge=True)
    assert (error.code, error.hand) == ("game_over", 2)


def test_a_player_who_did_not_pitch_wins_by_a_smudge_too():
    state = play([sweep("Ben", 3, "Cy")], smudge=True)
    assert state.hands[0].points == {"Ann": 0, "Ben": -3, "Cy": 4}
    assert state.hands[0].info["made"] is False
    assert state.finished and state.winners == ["Cy"]
    assert state.notices == ["Smudge! Cy wins."]


def test_without_smudge_all_four_points_are_just_four_points():
    state = play([sweep("Ben", 3, "Cy")])
    assert state.hands[0].info["smudge"] is False
    assert not state.finished and state.winners == []
    assert state.totals == {"Ann": 0, "Ben": -3, "Cy": 4}


def test_a_smudge_takes_precedence_over_a_pitcher_reaching_the_target():
    three_points = {"high": "Ann", "low": "Ann", "jack": "Ann", "game": None}
    hands = [
        pitched("Ben", 1, **three_points),
        pitched("Cy", 1, **three_points),
        pitched("Ben", 1, **three_points),
    ]
    before = play(hands, smudge=True)
    assert before.totals == {"Ann": 9, "Ben": -2, "Cy": -1}
    assert before.notices == ["Ann has 9 but must pitch to win."]
    # Ann pitches, is set back by Cy's four points but stays at 8, at or above 7: as the
    # pitcher she would win; Cy's smudge wins instead.
    last = sweep("Ann", 1, "Cy")
    assert play([*hands, last]).winners == ["Ann"]
    state = play([*hands, last], smudge=True)
    assert state.totals == {"Ann": 8, "Ben": -2, "Cy": 3}
    assert state.finished and state.winners == ["Cy"]
    assert state.notices == ["Smudge! Cy wins."]


def test_a_pitcher_reaching_the_target_with_a_smudge_wins_by_the_smudge():
    state = play(
        [pitched("Ben", 3, "Ben", "Ben", "Ben", "Cy"), sweep("Ben", 4, "Ben")], smudge=True
    )
    assert state.totals == {"Ann": 0, "Ben": 7, "Cy": 1}
    assert state.winners == ["Ben"]
    assert state.notices == ["Smudge! Ben wins."]


@pytest.mark.parametrize(
    "scored",
    [
        {"high": "Cy", "low": "Cy", "jack": None, "game": "Cy"},  # the jack was not played
        {"high": "Cy", "low": "Cy", "jack": "Cy", "game": None},  # Game tied
        {"high": "Cy", "low": "Cy", "jack": "Cy", "game": "Ann"},
        {"high": "Cy", "low": "Cy", "jack": "Cy", "game_points": {"Cy": 20, "Ann": 20}},
    ],
)
def test_three_points_are_no_smudge(scored):
    state = play([pitched("Ben", 2, **scored)], smudge=True)
    assert state.hands[0].info["smudge"] is False
    assert not state.finished


def test_game_decided_by_the_game_points_completes_a_smudge():
    entry = pitched("Ben", 2, "Cy", "Cy", "Cy", game_points={"Ann": 10, "Ben": 4, "Cy": 30})
    state = play([entry], smudge=True)
    assert state.hands[0].info["won"]["Cy"] == ["high", "low", "jack", "game"]
    assert state.winners == ["Cy"]


def test_a_lone_jack_of_trumps_and_game_is_a_smudge_for_the_pitcher():
    entry = pitched("Ben", 3, "Ben", "Ben", "Ben", "Ben", single_trump=True)
    state = play([entry], smudge=True)
    assert state.hands[0].points == {"Ann": 0, "Ben": 4, "Cy": 0}
    assert state.winners == ["Ben"]


def test_a_team_smudges_with_points_won_by_both_partners():
    entry = pitched("Ben", 2, high="Ann", low="Cy", jack="Ann", game="Cy")
    state = play([entry], FOUR, partnerships=True, smudge=True)
    assert state.hands[0].points == {"Ann & Cy": 4, "Ben & Dee": -2}
    assert state.hands[0].info["smudge"] is True
    assert state.winners == ["Ann & Cy"]
    assert state.notices == ["Smudge! Ann & Cy win."]


def test_a_hand_still_in_play_is_no_smudge_yet():
    state = play([pitched("Ben", 2)], smudge=True)
    assert state.hands[0].status == "playing"
    assert state.hands[0].info["smudge"] is False


# The dealer's steal ----------------------------------------------------------------------


def test_without_the_steal_the_dealer_must_bid_higher_like_everyone_else():
    error = refused([auction(("Ben", 2), ("Cy", "pass"), ("Ann", 2))], dealer_may_steal=False)
    assert (error.code, error.field) == ("bid_not_higher", "auction.2")
    assert error.message == (
        "The high bid is 2: Ann (the dealer) must bid more than 2 or pass; the dealer may not "
        "steal in this game."
    )
    state = play([auction(("Ben", 2), ("Cy", "pass"), ("Ann", 3))], dealer_may_steal=False)
    assert (state.hands[0].info["pitcher"], state.hands[0].info["stolen"]) == ("Ann", False)
    state = play([auction(("Ben", 2), ("Cy", "pass"), ("Ann", "pass"))], dealer_may_steal=False)
    assert state.hands[0].info["pitcher"] == "Ben"


def test_without_the_steal_a_dealer_everyone_passed_to_still_bids_at_least_two():
    passes = (("Ben", "pass"), ("Cy", "pass"))
    error = refused([auction(*passes, ("Ann", "pass"))], dealer_may_steal=False)
    assert error.code == "dealer_must_bid"
    state = play([auction(*passes, ("Ann", 2))], dealer_may_steal=False)
    assert state.hands[0].info["bid"] == 2


def test_without_the_steal_an_equal_pitch_by_the_dealer_is_simply_not_higher():
    error = refused([auction(("Ben", 4), ("Cy", "pass"), ("Ann", 4))], dealer_may_steal=False)
    assert (error.code, error.field) == ("bid_not_higher", "auction.2")


def test_the_dealer_is_offered_only_higher_bids_without_the_steal():
    order = ["Ben", "Cy", "Ann"]
    off = {"dealer_may_steal": False}
    assert legal_calls([["Ben", 2], ["Cy", "pass"]], "Ann", order, off) == ["pass", 3, 4]
    assert legal_calls([["Ben", 2], ["Cy", "pass"]], "Ann", order, {}) == ["pass", 2, 3, 4]
    assert legal_calls([["Ben", "pass"], ["Cy", "pass"]], "Ann", order, off) == [2, 3, 4]
    assert legal_calls([["Ben", 4], ["Cy", "pass"]], "Ann", order, off) == ["pass"]


# The refusal fixes -----------------------------------------------------------------------


@pytest.mark.parametrize("call", [None, "", "   "])
def test_a_call_left_empty_is_a_missing_bid(call):
    error = refused([auction(("Ben", 2), ("Cy", call), ("Ann", "pass"))])
    assert (error.code, error.field, error.hand) == ("missing_bid", "auction.1", 1)
    assert error.message == "Enter Cy’s call: pass or a bid."


@pytest.mark.parametrize("call", [1, 2, 3])
def test_a_dealer_bidding_below_a_pitch_of_four_is_not_higher(call):
    # Bob bids first and pitches; Ann deals.
    error = refused([auction(("Bob", 4), ("Ann", call))], ("Ann", "Bob"))
    assert (error.code, error.field) == ("bid_not_higher", "auction.1")
    assert error.message == (
        "After a bid of 4 everyone else can only pass, so Ann (the dealer) must pass."
    )


def test_only_an_equal_pitch_by_the_dealer_is_a_steal_not_allowed():
    error = refused([auction(("Bob", 4), ("Ann", 4))], ("Ann", "Bob"))
    assert (error.code, error.field) == ("steal_not_allowed", "auction.1")
    assert play([auction(("Bob", 4), ("Ann", "pass"))], ("Ann", "Bob")).hands[0].info["bid"] == 4


def test_with_a_lowest_bid_of_two_a_one_is_invalid_but_the_dealers_one_is_below_the_dealers_two():
    error = refused([auction(("Ben", 1), ("Cy", "pass"), ("Ann", 2))], min_bid=2)
    assert (error.code, error.field) == ("bid_invalid", "auction.0")
    error = refused([auction(("Ben", "pass"), ("Cy", "pass"), ("Ann", 1))], min_bid=2)
    assert (error.code, error.field) == ("dealer_min_bid", "auction.2")
    assert error.message == "Everyone else passed, so Ann (the dealer) must bid at least 2."
    # After a bid, the dealer's 1 is no bid at all at this table.
    error = refused([auction(("Ben", 2), ("Cy", "pass"), ("Ann", 1))], min_bid=2)
    assert (error.code, error.field) == ("bid_invalid", "auction.2")
    error = refused([auction(("Ben", "pass"), ("Cy", "pass"), ("Ann", 0))], min_bid=2)
    assert error.code == "bid_invalid"


# The lone trump in partnerships ------------------------------------------------------------


@pytest.mark.parametrize(
    ("holders", "points"),
    [
        ({"high": "Ben", "low": "Ben"}, {"Ann & Cy": 0, "Ben & Dee": 2}),
        ({"high": "Dee", "low": "Dee"}, {"Ann & Cy": 0, "Ben & Dee": 2}),
        ({"high": "Ben", "low": "Dee"}, {"Ann & Cy": 0, "Ben & Dee": 2}),
        ({"high": "Dee", "low": "Ben", "jack": "Dee"}, {"Ann & Cy": 0, "Ben & Dee": 3}),
        ({"high": "Dee", "low": "Dee", "game": "Cy"}, {"Ann & Cy": 1, "Ben & Dee": 2}),
    ],
)
def test_a_lone_trump_may_be_credited_to_the_pitcher_or_the_partner(holders, points):
    entry = pitched("Ben", 2, single_trump=True, **{"jack": None, "game": None, **holders})
    state = play([entry], FOUR, partnerships=True)
    assert state.hands[0].points == points
    assert state.hands[0].info["made"] is True


def test_a_lone_trump_credited_to_an_opponent_is_refused_point_by_point():
    entry = pitched("Ben", 2, high="Cy", low="Ann", jack="Dee", single_trump=True)
    error = refused([entry], FOUR, partnerships=True)
    assert problems(error) == [
        ("single_trump_mismatch", "high"),
        ("single_trump_mismatch", "low"),
    ]
    assert error.errors[0].message == (
        "Only one trump was played, the one Ben led, so High and Low both go to Ben or Dee, not Cy."
    )
    error = refused(
        [pitched("Ben", 2, "Dee", "Ben", "Ann", single_trump=True)], FOUR, partnerships=True
    )
    assert problems(error) == [("single_trump_mismatch", "jack")]
    assert error.message.endswith("Jack goes to Ben or Dee too, not Ann.")


def test_playing_alone_the_lone_trump_still_goes_to_the_pitcher_only():
    error = refused([pitched("Ben", 2, high="Cy", low="Ben", single_trump=True)])
    assert error.message == (
        "Only one trump was played, the one Ben led, so High and Low both go to Ben, not Cy."
    )


# Several problems at once ----------------------------------------------------------------


def test_every_problem_with_the_points_of_a_hand_is_reported_together():
    entry = {
        "pitcher": "Ben",
        "bid": 2,
        "low": "Zed",
        "jack": 7,
        "game_points": {"Ann": 90},
        "single_trump": "no",
    }
    error = refused([entry])
    assert problems(error) == [
        ("required", "high"),
        ("unknown_player", "low"),
        ("wrong_type", "jack"),
        ("game_points_invalid", "game_points.Ann"),
        ("wrong_type", "single_trump"),
    ]
    assert all(e.hand == 1 for e in error.errors)


def test_a_short_form_with_a_stranger_and_a_bad_bid_names_both():
    error = refused([{"pitcher": "Zed", "bid": 5}])
    assert problems(error) == [("unknown_player", "pitcher"), ("bid_invalid", "bid")]
    assert error.errors[1].message == "The bid must be from 1 to 4."
    error = refused([{"pitcher": "Zed"}])
    assert problems(error) == [("unknown_player", "pitcher"), ("required", "bid")]


def test_an_auction_problem_and_a_points_problem_come_together():
    entry = {**auction(("Ben", 2), ("Cy", "pass")), "high": "Zed", "low": "Ben"}
    error = refused([entry])
    assert problems(error) == [("bid_invalid", "auction.2"), ("unknown_player", "high")]


def test_game_by_the_game_points_waits_for_valid_holders_and_counts():
    entry = pitched("Ben", 2, high="Zed", low="Ben", game="Ann", game_points={"Ben": 30})
    error = refused([entry])
    assert problems(error) == [("unknown_player", "high")]
    entry = pitched("Ben", 2, high="Ben", low="Ben", game="Ann", game_points={"Ben": 30})
    assert problems(refused([entry])) == [("game_point_mismatch", "game")]


# Described -------------------------------------------------------------------------------


def test_plain_play_is_described():
    assert RULES.describe(RULES.resolve_options({}, 3)) == [
        "Game to 7: the first player to reach it at the end of a hand they pitched wins.",
        "Bids from 1 to 4; if everyone else passes, the dealer must bid at least 2.",
        "The dealer may steal the high bid by bidding the same (not a pitch of 4).",
        "A pitcher who falls short of the bid is set back by the bid.",
        "Low goes to whoever wins it in a trick.",
    ]


def test_every_house_rule_is_described():
    options = {
        "target": 11,
        "partnerships": True,
        "min_bid": 2,
        "low_to_player": True,
        "smudge": True,
        "dealer_may_steal": False,
    }
    assert RULES.describe(RULES.resolve_options(options, 4)) == [
        "Game to 11: the first side to reach it at the end of a hand one of them pitched wins.",
        "Bids from 2 to 4; if everyone else passes, the dealer must bid at least 2.",
        "The dealer may not steal: every bid must be higher than the last.",
        "A pitcher who falls short of the bid is set back by the bid.",
        "Partnerships: seats 1 and 3 play against seats 2 and 4.",
        "Low goes to whoever played it.",
        "Smudge: a side who wins all four points (High, Low, Jack and Game) in one hand wins "
        "the game at once.",
    ]
    assert RULES.describe({"smudge": True})[-1] == (
        "Smudge: a player who wins all four points (High, Low, Jack and Game) in one hand wins "
        "the game at once."
    )


# Properties ------------------------------------------------------------------------------


def allowed_calls(high: int, is_dealer: bool, min_bid: int, may_steal: bool) -> list[Any]:
    """The auction of RULES.md written out again, with the steal switchable."""
    if is_dealer and high == 0:
        return list(range(max(min_bid, 2), 5))
    if is_dealer and may_steal:
        return ["pass"] if high == 4 else ["pass", *range(max(min_bid, high), 5)]
    return ["pass", *range(max(min_bid, high + 1), 5)]


@st.composite
def tables(draw):
    partnerships = draw(st.booleans())
    count = 4 if partnerships else draw(st.integers(2, 7))
    options = RULES.resolve_options(
        {
            "target": draw(st.sampled_from([7, 11])),
            "partnerships": partnerships,
            "min_bid": draw(st.sampled_from([1, 2])),
            "smudge": draw(st.booleans()),
            "dealer_may_steal": draw(st.booleans()),
        },
        count,
    )
    return NAMES[:count], options, draw(st.integers(0, count - 1))


@st.composite
def auctions(draw, order, options):
    turns, high = [], 0
    for index, name in enumerate(order):
        choices = allowed_calls(
            high, index == len(order) - 1, options["min_bid"], options["dealer_may_steal"]
        )
        call = draw(st.sampled_from(choices))
        turns.append([name, call])
        if call != "pass":
            high = call
    return turns


def order_of(players, seat):
    return [players[(seat + step) % len(players)] for step in range(1, len(players) + 1)]


@settings(max_examples=150, deadline=None)
@given(tables(), st.data())
def test_legal_calls_and_the_auction_agree_with_the_rules_with_or_without_the_steal(table, data):
    players, options, first = table
    order = order_of(players, first)
    turns = data.draw(auctions(order, options))
    state = RULES.play(Setup(players, options, first), [{"auction": turns}])
    assert state.hands[0].input == {"auction": turns}
    if not options["dealer_may_steal"]:
        assert state.hands[0].info["stolen"] is False
    spot = data.draw(st.integers(0, len(turns) - 1))
    high = max((call for _, call in turns[:spot] if call != "pass"), default=0)
    dealer_turn = spot == len(order) - 1
    allowed = allowed_calls(high, dealer_turn, options["min_bid"], options["dealer_may_steal"])
    assert legal_calls(turns[:spot], order[-1], order, options) == allowed
    wrong = [call for call in ["pass", None, 0, 1, 2, 3, 4, 5] if call not in allowed]
    bad = data.draw(st.sampled_from(wrong))
    broken = [*turns[:spot], [turns[spot][0], bad], *turns[spot + 1 :]]
    with pytest.raises(RuleError) as caught:
        RULES.play(Setup(players, options, first), [{"auction": broken}])
    assert caught.value.field == f"auction.{spot}"
    if bad is None:
        assert caught.value.code == "missing_bid"
    elif high == 4 and dealer_turn and bad == 4 and options["dealer_may_steal"]:
        assert caught.value.code == "steal_not_allowed"
    elif dealer_turn and high == 0 and bad == 1:
        assert caught.value.code == "dealer_min_bid"
    elif bad in (0, 5) or (bad == 1 and options["min_bid"] == 2):
        assert caught.value.code == "bid_invalid"
    elif bad == "pass":
        assert caught.value.code == "dealer_must_bid"
    else:
        assert caught.value.code == "bid_not_higher"


@st.composite
def smudge_games(draw):
    players, options, first = draw(tables())
    entries = []
    for _ in range(draw(st.integers(1, 12))):
        pitcher = draw(st.sampled_from(players))
        entry: dict[str, Any] = {
            "pitcher": pitcher,
            "bid": draw(st.integers(options["min_bid"], 4)),
        }
        anyone = st.sampled_from(players)
        entry.update(high=draw(anyone), low=draw(anyone))
        entry.update(
            jack=draw(st.one_of(st.none(), anyone)), game=draw(st.one_of(st.none(), anyone))
        )
        entries.append(entry)
    return players, options, first, entries


@settings(max_examples=150, deadline=None)
@given(smudge_games())
def test_a_game_ends_at_the_first_smudge_or_pitcher_at_the_target(game):
    players, options, first, entries = game
    setup = Setup(players, options, first)
    sides = RULES.sides(players, options)
    seats = RULES.side_of_seat(options, len(players))
    side_of = {name: sides[seats[seat]] for seat, name in enumerate(players)}
    running = dict.fromkeys(sides, 0)
    expected_end = None
    for index, entry in enumerate(entries):
        won = {side: 0 for side in sides}
        for point in ("high", "low", "jack", "game"):
            if entry[point] is not None:
                won[side_of[entry[point]]] += 1
        pitcher_side = side_of[entry["pitcher"]]
        for side in sides:
            if side == pitcher_side and won[side] < entry["bid"]:
                running[side] -= entry["bid"]
            else:
                running[side] += won[side]
        smudger = next((side for side in sides if won[side] == 4), None)
        if options["smudge"] and smudger is not None:
            expected_end = (index, smudger, True)
            break
        if running[pitcher_side] >= options["target"]:
            expected_end = (index, pitcher_side, False)
            break
    kept = entries if expected_end is None else entries[: expected_end[0] + 1]
    state = RULES.play(setup, kept)
    assert state.totals == running
    assert [h.info["smudge"] for h in state.hands[:-1]] == [False] * (len(kept) - 1)
    if expected_end is None:
        assert not state.finished and state.winners == []
        return
    _, winner, by_smudge = expected_end
    assert state.finished and state.winners == [winner]
    assert state.hands[-1].info["smudge"] is by_smudge
    if by_smudge:
        verb = "win" if options["partnerships"] else "wins"
        assert state.notices == [f"Smudge! {winner} {verb}."]
    with pytest.raises(RuleError) as caught:
        RULES.play(setup, [*kept, {"pitcher": players[0], "bid": 4}])
    assert caught.value.code == "game_over"
