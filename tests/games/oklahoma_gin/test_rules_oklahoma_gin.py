"""Oklahoma Gin rules: scoring, dealing, knock limits, variants, game end and refusals."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from scorekeeper.games.base import RuleError
from scorekeeper.games.base import Setup
from scorekeeper.games.oklahoma_gin.rules import RANKS
from scorekeeper.games.oklahoma_gin.rules import RULES
from scorekeeper.games.oklahoma_gin.rules import knock_limit

PLAYERS = ("Ann", "Ben")


def setup(first_dealer: int = 0, **options: Any) -> Setup:
    return Setup(PLAYERS, RULES.resolve_options(options, 2), first_dealer)


def play(entries: list[dict[str, Any]], first_dealer: int = 0, **options: Any):
    return RULES.play(setup(first_dealer, **options), entries)


def knock(knocker: str, mine: int, theirs: int, upcard: str = "10", **extra: Any) -> dict:
    return {
        "upcard": upcard,
        "result": "knock",
        "knocker": knocker,
        "knocker_deadwood": mine,
        "opponent_deadwood": theirs,
        **extra,
    }


def gin(knocker: str, theirs: int, upcard: str = "10", **extra: Any) -> dict:
    return {
        "upcard": upcard,
        "result": "gin",
        "knocker": knocker,
        "opponent_deadwood": theirs,
        **extra,
    }


def draw(upcard: str = "10", **extra: Any) -> dict:
    return {"upcard": upcard, "result": "draw", **extra}


def refusal(entries: list[dict[str, Any]], **options: Any) -> RuleError:
    with pytest.raises(RuleError) as caught:
        play(entries, **options)
    error = caught.value
    assert error.message.endswith(".")
    assert error.message[0].isupper() or error.message[0] == "“"
    return error


# The module itself ---------------------------------------------------------------------


def test_the_game_is_described_for_the_registry():
    assert RULES.key == "oklahoma_gin"
    assert RULES.title == "Oklahoma Gin"
    assert (RULES.min_players, RULES.max_players) == (2, 2)
    assert RULES.hand_word == "Round"


def test_options_have_the_documented_defaults():
    assert RULES.resolve_options({}, 2) == {
        "target": 100,
        "gin_bonus": 25,
        "undercut_bonus": 10,
        "spade_double": False,
        "ace_requires_gin": False,
        "game_bonus": 0,
        "box_bonus": 0,
        "shutout_double": False,
        "hollywood": False,
    }


def test_every_option_has_a_label_and_help():
    for option in RULES.option_specs(2):
        assert option.label
        assert option.help


@pytest.mark.parametrize(
    "options",
    [
        {"target": 49},
        {"target": 1001},
        {"target": "100"},
        {"gin_bonus": 30},
        {"undercut_bonus": 15},
        {"game_bonus": 50},
        {"box_bonus": 10},
        {"spade_double": "yes"},
    ],
)
def test_option_values_outside_the_allowed_ones_are_refused(options):
    with pytest.raises(RuleError) as caught:
        RULES.resolve_options(options, 2)
    assert caught.value.code == "option_value"


def test_the_game_needs_exactly_two_players():
    with pytest.raises(RuleError) as caught:
        RULES.check_players(["Ann", "Ben", "Cy"], RULES.resolve_options({}, 3))
    assert caught.value.code == "player_count"
    assert "exactly 2 players" in caught.value.message


def test_a_new_game_asks_the_first_dealer_to_deal_round_one():
    state = play([], first_dealer=1)
    assert state.hands == []
    assert state.totals == {"Ann": 0, "Ben": 0}
    assert not state.finished
    assert state.next == {
        "number": 1,
        "dealer": "Ben",
        "order": ["Ann", "Ben"],
        "knock_limit": None,
        "players": ["Ann", "Ben"],
    }


# Knock limits ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rank", "limit"),
    [
        ("A", 1),
        ("2", 2),
        ("3", 3),
        ("4", 4),
        ("5", 5),
        ("6", 6),
        ("7", 7),
        ("8", 8),
        ("9", 9),
        ("10", 10),
        ("J", 10),
        ("Q", 10),
        ("K", 10),
    ],
)
def test_the_upcard_sets_the_knock_limit(rank, limit):
    assert knock_limit(rank) == limit
    at_limit = play([knock("Ann", limit, 40, upcard=rank)])
    assert at_limit.hands[0].info["knock_limit"] == limit
    assert at_limit.hands[0].info["result"] == "knock"
    assert at_limit.hands[0].points == {"Ann": 40 - limit, "Ben": 0}
    error = refusal([knock("Ann", limit + 1, 40, upcard=rank)])
    assert error.code == "knock_above_limit"
    assert error.field == "knocker_deadwood"
    assert error.message == f"Knock with {limit} or less: Ann has {limit + 1}."


def test_ranks_run_from_ace_to_king():
    assert RANKS == ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


def test_a_knock_above_the_limit_is_refused_with_the_round_number():
    error = refusal([knock("Ann", 3, 20, upcard="5"), knock("Ann", 8, 20, upcard="6")])
    assert error.code == "knock_above_limit"
    assert error.hand == 2
    assert error.message == "Knock with 6 or less: Ann has 8."


def test_an_ace_upcard_allows_a_knock_with_one_by_default():
    state = play([knock("Ben", 1, 15, upcard="A")])
    assert state.hands[0].points == {"Ann": 0, "Ben": 14}
    assert state.hands[0].info["knock_limit"] == 1


def test_an_ace_upcard_allows_only_gin_when_ace_requires_gin():
    error = refusal([knock("Ben", 1, 15, upcard="A")], ace_requires_gin=True)
    assert error.code == "knock_above_limit"
    assert error.message == "An ace was turned up: only gin can end this round."
    assert error.hand == 1


def test_gin_on_an_ace_upcard_is_allowed_when_ace_requires_gin():
    state = play([gin("Ben", 15, upcard="A")], ace_requires_gin=True)
    assert state.hands[0].points == {"Ann": 0, "Ben": 40}


def test_a_knock_with_no_deadwood_on_an_ace_is_gin_when_ace_requires_gin():
    state = play([knock("Ben", 0, 15, upcard="A")], ace_requires_gin=True)
    assert state.hands[0].info["result"] == "gin"
    assert state.hands[0].points == {"Ann": 0, "Ben": 40}


def test_a_draw_on_an_ace_is_allowed_when_ace_requires_gin():
    state = play([draw(upcard="A")], ace_requires_gin=True)
    assert state.hands[0].info["result"] == "draw"


# Scoring ---------------------------------------------------------------------------------


def test_a_knocker_with_less_deadwood_scores_the_difference():
    state = play([knock("Ann", 4, 20, upcard="7")])
    hand = state.hands[0]
    assert hand.number == 1
    assert hand.dealer == "Ann"
    assert hand.status == "scored"
    assert hand.points == {"Ann": 16, "Ben": 0}
    assert hand.info == {
        "knock_limit": 7,
        "result": "knock",
        "winner": "Ann",
        "undercut": False,
        "doubled": False,
        "upcard": "7",
    }
    assert state.totals == {"Ann": 16, "Ben": 0}


def test_equal_deadwood_is_an_undercut():
    state = play([knock("Ann", 6, 6)])
    assert state.hands[0].points == {"Ann": 0, "Ben": 10}
    assert state.hands[0].info["undercut"] is True
    assert state.hands[0].info["winner"] == "Ben"


def test_higher_deadwood_is_an_undercut_worth_the_bonus_plus_the_difference():
    state = play([knock("Ann", 9, 2)])
    assert state.hands[0].points == {"Ann": 0, "Ben": 17}
    assert state.hands[0].info["undercut"] is True


@pytest.mark.parametrize(("bonus", "expected"), [(10, 13), (20, 23), (25, 28)])
def test_the_undercut_bonus_variant_changes_the_undercut_score(bonus, expected):
    state = play([knock("Ben", 8, 5)], undercut_bonus=bonus)
    assert state.hands[0].points == {"Ann": expected, "Ben": 0}


def test_gin_scores_the_opponents_deadwood_plus_25():
    state = play([gin("Ben", 31)])
    assert state.hands[0].points == {"Ann": 0, "Ben": 56}
    assert state.hands[0].info["result"] == "gin"
    assert state.hands[0].info["winner"] == "Ben"
    assert state.hands[0].input["knocker_deadwood"] == 0


def test_gin_against_zero_deadwood_leaves_the_opponent_with_nothing():
    state = play([gin("Ann", 0)])
    assert state.hands[0].points == {"Ann": 25, "Ben": 0}
    assert state.hands[0].info["undercut"] is False


def test_the_gin_bonus_can_be_20():
    state = play([gin("Ann", 12)], gin_bonus=20)
    assert state.hands[0].points == {"Ann": 32, "Ben": 0}


def test_a_knock_with_no_deadwood_is_recorded_and_scored_as_gin():
    state = play([knock("Ann", 0, 0)])
    hand = state.hands[0]
    assert hand.input["result"] == "gin"
    assert hand.info["result"] == "gin"
    assert hand.points == {"Ann": 25, "Ben": 0}


def test_gin_may_give_zero_knocker_deadwood_explicitly():
    state = play([gin("Ann", 7, knocker_deadwood=0)])
    assert state.hands[0].points == {"Ann": 32, "Ben": 0}


def test_gin_with_deadwood_is_refused():
    error = refusal([gin("Ann", 7, knocker_deadwood=3)])
    assert error.code == "gin_with_deadwood"
    assert error.field == "knocker_deadwood"
    assert "Ann has 3" in error.message


def test_a_draw_scores_nothing_and_the_same_dealer_deals_again():
    state = play([draw()], first_dealer=1)
    hand = state.hands[0]
    assert hand.status == "scored"
    assert hand.points == {"Ann": 0, "Ben": 0}
    assert hand.info["result"] == "draw"
    assert hand.info["winner"] is None
    assert state.next["dealer"] == "Ben"
    assert state.next["number"] == 2
    assert state.notices == ["Round 1 was a draw: Ben deals again."]


def test_a_draw_ignores_knocker_and_deadwood_sent_along():
    state = play([draw(knocker="Ann", knocker_deadwood=5, opponent_deadwood=9)])
    assert state.hands[0].input == {
        "upcard": "10",
        "upcard_suit": None,
        "result": "draw",
        "knocker": None,
        "knocker_deadwood": None,
        "opponent_deadwood": None,
    }
    assert state.hands[0].points == {"Ann": 0, "Ben": 0}


def test_the_winner_of_each_round_deals_the_next():
    state = play(
        [
            knock("Ann", 2, 10),  # Ann deals, Ann wins
            knock("Ann", 5, 3),  # Ann deals, Ben undercuts
            draw(),  # Ben deals, draw
            gin("Ann", 4),  # Ben deals again, Ann wins
        ]
    )
    assert [hand.dealer for hand in state.hands] == ["Ann", "Ann", "Ben", "Ben"]
    assert [hand.info["winner"] for hand in state.hands] == ["Ann", "Ben", None, "Ann"]
    assert state.next["dealer"] == "Ann"
    assert state.next["order"] == ["Ben", "Ann"]
    assert state.totals == {"Ann": 8 + 29, "Ben": 12}
    assert state.notices == []


def test_input_is_normalised_to_known_keys_and_canonical_values():
    entry = knock("Ann", 3, 11, upcard=" q ", upcard_suit="Hearts", note="ignored")
    state = play([entry])
    assert state.hands[0].input == {
        "upcard": "Q",
        "upcard_suit": "hearts",
        "result": "knock",
        "knocker": "Ann",
        "knocker_deadwood": 3,
        "opponent_deadwood": 11,
    }


# Spade double ----------------------------------------------------------------------------


def test_a_spade_upcard_doubles_the_score_with_spade_double():
    state = play([knock("Ann", 2, 12, upcard_suit="spades")], spade_double=True)
    assert state.hands[0].points == {"Ann": 20, "Ben": 0}
    assert state.hands[0].info["doubled"] is True


def test_a_spade_upcard_doubles_an_undercut_and_gin():
    state = play(
        [knock("Ann", 8, 5, upcard_suit="spades"), gin("Ben", 10, upcard_suit="spades")],
        spade_double=True,
    )
    assert [hand.points for hand in state.hands] == [{"Ann": 0, "Ben": 26}, {"Ann": 0, "Ben": 70}]


def test_other_suits_do_not_double():
    state = play([knock("Ann", 2, 12, upcard_suit="hearts")], spade_double=True)
    assert state.hands[0].points == {"Ann": 10, "Ben": 0}
    assert state.hands[0].info["doubled"] is False


def test_a_spade_upcard_does_not_double_without_the_variant():
    state = play([knock("Ann", 2, 12, upcard_suit="spades")])
    assert state.hands[0].points == {"Ann": 10, "Ben": 0}
    assert state.hands[0].info["doubled"] is False


def test_spade_double_requires_the_upcard_suit():
    error = refusal([knock("Ann", 2, 12)], spade_double=True)
    assert error.code == "upcard_invalid"
    assert error.field == "upcard_suit"
    assert error.message == "Spades double is on: enter the suit of the upcard."


def test_the_suit_is_optional_without_spade_double():
    state = play([knock("Ann", 2, 12)])
    assert state.hands[0].input["upcard_suit"] is None


def test_an_unknown_suit_is_refused():
    error = refusal([knock("Ann", 2, 12, upcard_suit="stars")])
    assert error.code == "upcard_invalid"
    assert error.field == "upcard_suit"


# Game end and bonuses --------------------------------------------------------------------


def test_the_game_ends_when_a_total_reaches_exactly_the_target():
    state = play([gin("Ann", 25), gin("Ann", 25)])
    assert state.totals == {"Ann": 100, "Ben": 0}
    assert state.finished
    assert state.winners == ["Ann"]
    assert state.next is None
    assert state.bonuses == []
    assert state.notices == ["Ann wins the game with 100 points."]


def test_the_game_does_not_end_one_point_short_of_the_target():
    state = play([gin("Ann", 25), gin("Ann", 24)])
    assert state.totals == {"Ann": 99, "Ben": 0}
    assert not state.finished
    assert state.winners == []
    assert state.next["number"] == 3


def test_the_game_ends_when_a_total_goes_past_the_target():
    state = play([knock("Ben", 1, 40), gin("Ann", 60), knock("Ben", 3, 60)])
    assert state.totals == {"Ann": 85, "Ben": 96}
    assert not state.finished
    state = play([knock("Ben", 1, 40), gin("Ann", 60), knock("Ben", 3, 60), gin("Ann", 10)])
    assert state.totals == {"Ann": 120, "Ben": 96}
    assert state.winners == ["Ann"]


def test_the_target_option_sets_the_finish_line():
    state = play([gin("Ben", 25)], target=50)
    assert state.finished
    assert state.winners == ["Ben"]


def test_no_round_is_taken_after_the_game_is_over():
    error = refusal([gin("Ann", 50), gin("Ann", 50), draw()])
    assert error.code == "game_over"
    assert error.message == "This game is over."
    assert error.hand == 3


def test_the_game_bonus_goes_to_the_winner():
    state = play([knock("Ben", 2, 12), gin("Ann", 60), gin("Ann", 0)], game_bonus=100)
    assert state.winners == ["Ann"]
    assert state.bonuses == [{"player": "Ann", "kind": "game", "points": 100}]
    assert state.totals == {"Ann": 85 + 25 + 100, "Ben": 10}


def test_box_bonuses_count_the_rounds_each_player_won_and_draws_count_for_nobody():
    entries = [knock("Ben", 2, 12), draw(), knock("Ben", 9, 3), gin("Ann", 75)]
    state = play(entries, box_bonus=20)
    assert state.bonuses == [
        {"player": "Ann", "kind": "box", "points": 40},
        {"player": "Ben", "kind": "box", "points": 20},
    ]
    assert state.totals == {"Ann": 16 + 100 + 40, "Ben": 10 + 20}


def test_shutout_doubles_the_winners_total():
    state = play([gin("Ann", 50), gin("Ann", 30)], shutout_double=True)
    assert state.bonuses == [{"player": "Ann", "kind": "shutout", "points": 130}]
    assert state.totals == {"Ann": 260, "Ben": 0}


def test_no_shutout_when_the_loser_scored():
    state = play([knock("Ben", 2, 3), gin("Ann", 80)], shutout_double=True)
    assert state.bonuses == []
    assert state.totals == {"Ann": 105, "Ben": 1}


def test_game_box_and_shutout_bonuses_come_in_that_order_and_the_shutout_doubles_them_all():
    entries = [gin("Ann", 20), draw(), knock("Ann", 3, 60)]
    state = play(entries, game_bonus=100, box_bonus=25, shutout_double=True)
    assert [hand.points["Ann"] for hand in state.hands] == [45, 0, 57]
    assert state.bonuses == [
        {"player": "Ann", "kind": "game", "points": 100},
        {"player": "Ann", "kind": "box", "points": 50},
        {"player": "Ann", "kind": "shutout", "points": 252},
    ]
    assert state.totals == {"Ann": 504, "Ben": 0}


def test_bonuses_are_added_only_when_the_game_ends():
    state = play([gin("Ann", 20)], game_bonus=100, box_bonus=25, shutout_double=True)
    assert state.bonuses == []
    assert state.totals == {"Ann": 45, "Ben": 0}


# Refusals --------------------------------------------------------------------------------


@pytest.mark.parametrize("upcard", ["1", "11", "T", "Joker", "0"])
def test_an_upcard_that_is_not_a_rank_is_refused(upcard):
    error = refusal([knock("Ann", 2, 9, upcard=upcard)])
    assert error.code == "upcard_invalid"
    assert error.field == "upcard"
    assert upcard in error.message


@pytest.mark.parametrize(
    ("entry", "field"),
    [
        ({"result": "draw"}, "upcard"),
        ({"upcard": "5"}, "result"),
        (
            {"upcard": "5", "result": "knock", "knocker_deadwood": 2, "opponent_deadwood": 9},
            "knocker",
        ),
        (
            {"upcard": "5", "result": "knock", "knocker": "Ann", "opponent_deadwood": 9},
            "knocker_deadwood",
        ),
        (
            {"upcard": "5", "result": "knock", "knocker": "Ann", "knocker_deadwood": 2},
            "opponent_deadwood",
        ),
        ({"upcard": "5", "result": "gin", "knocker": "Ann"}, "opponent_deadwood"),
    ],
)
def test_missing_values_are_required(entry, field):
    error = refusal([entry])
    assert error.code == "required"
    assert error.field == field
    assert error.hand == 1


def test_the_missing_deadwood_message_names_the_player():
    error = refusal([{"upcard": "5", "result": "knock", "knocker": "Ann", "knocker_deadwood": 2}])
    assert error.message == "Enter Ben's deadwood."


@pytest.mark.parametrize(
    ("entry", "field"),
    [
        (knock("Ann", 2, 9, upcard=7), "upcard"),
        (knock("Ann", 2, 9, upcard_suit=3), "upcard_suit"),
        (knock("Ann", 2, "9"), "opponent_deadwood"),
        (knock("Ann", 2.5, 9), "knocker_deadwood"),
        (knock("Ann", True, 9), "knocker_deadwood"),
        (knock(["Ann"], 2, 9), "knocker"),
        ({**knock("Ann", 2, 9), "result": "schneider"}, "result"),
        ({**knock("Ann", 2, 9), "result": 1}, "result"),
    ],
)
def test_values_of_the_wrong_type_are_refused(entry, field):
    error = refusal([entry])
    assert error.code == "wrong_type"
    assert error.field == field


def test_a_round_that_is_not_a_mapping_is_refused():
    error = refusal([["knock"]])
    assert error.code == "wrong_type"
    assert error.hand == 1


def test_a_knocker_who_is_not_at_the_table_is_refused():
    error = refusal([knock("Zed", 2, 9)])
    assert error.code == "unknown_player"
    assert error.field == "knocker"
    assert error.message == "Zed is not playing in this game."


@pytest.mark.parametrize(("mine", "theirs"), [(-1, 9), (2, -1), (2, 99), (0, 120)])
def test_deadwood_outside_0_to_98_is_refused(mine, theirs):
    error = refusal([knock("Ann", mine, theirs)])
    assert error.code == "deadwood_invalid"
    assert error.message.endswith("deadwood must be from 0 to 98.")


def test_deadwood_of_98_is_accepted():
    state = play([knock("Ann", 10, 98)])
    assert state.hands[0].points == {"Ann": 88, "Ben": 0}


def test_a_refusal_names_the_round_it_concerns():
    error = refusal([draw(), draw(), knock("Ann", 2, -4)])
    assert error.hand == 3
    assert error.field == "opponent_deadwood"
    assert error.message == "Ben's deadwood must be from 0 to 98."


# Properties ------------------------------------------------------------------------------

option_sets = st.fixed_dictionaries(
    {
        "target": st.sampled_from([50, 100, 150]),
        "gin_bonus": st.sampled_from([20, 25]),
        "undercut_bonus": st.sampled_from([10, 20, 25]),
        "spade_double": st.booleans(),
        "ace_requires_gin": st.booleans(),
        "game_bonus": st.sampled_from([0, 100]),
        "box_bonus": st.sampled_from([0, 20, 25]),
        "shutout_double": st.booleans(),
    }
)


@st.composite
def legal_rounds(draw_from, options: dict[str, Any]) -> dict[str, Any]:
    upcard = draw_from(st.sampled_from(RANKS))
    entry: dict[str, Any] = {"upcard": upcard}
    if options["spade_double"] or draw_from(st.booleans()):
        entry["upcard_suit"] = draw_from(st.sampled_from(["clubs", "diamonds", "hearts", "spades"]))
    only_gin = upcard == "A" and options["ace_requires_gin"]
    result = draw_from(st.sampled_from(["gin", "draw"] if only_gin else ["knock", "gin", "draw"]))
    entry["result"] = result
    if result == "draw":
        return entry
    entry["knocker"] = draw_from(st.sampled_from(PLAYERS))
    entry["opponent_deadwood"] = draw_from(st.integers(0, 98))
    if result == "knock":
        entry["knocker_deadwood"] = draw_from(st.integers(0, knock_limit(upcard)))
    return entry


@st.composite
def legal_games(draw_from, finish: bool = False):
    options = draw_from(option_sets)
    first_dealer = draw_from(st.integers(0, 1))
    rules_setup = Setup(PLAYERS, RULES.resolve_options(options, 2), first_dealer)
    entries: list[dict[str, Any]] = []
    state = RULES.play(rules_setup, entries)
    limit = 400 if finish else draw_from(st.integers(0, 30))
    while not state.finished and len(entries) < limit:
        if finish:
            # Keep games short: mostly decisive rounds.
            entry = draw_from(legal_rounds(options).filter(lambda e: e["result"] != "draw"))
        else:
            entry = draw_from(legal_rounds(options))
        entries.append(entry)
        state = RULES.play(rules_setup, entries)
    return rules_setup, entries, state


@settings(max_examples=150, deadline=None)
@given(legal_games())
def test_exactly_one_player_scores_in_a_decisive_round_and_nobody_in_a_draw(game):
    _setup, entries, state = game
    assert len(state.hands) == len(entries)
    for hand in state.hands:
        assert set(hand.points) == set(PLAYERS)
        scorers = [name for name, points in hand.points.items() if points > 0]
        if hand.info["result"] == "draw":
            assert scorers == []
            assert hand.info["winner"] is None
        else:
            assert scorers == [hand.info["winner"]]
        assert all(points >= 0 for points in hand.points.values())


@settings(max_examples=150, deadline=None)
@given(legal_games())
def test_totals_are_the_sum_of_the_rounds_plus_the_bonuses(game):
    _setup, _entries, state = game
    for name in PLAYERS:
        from_rounds = sum(hand.points[name] for hand in state.hands)
        from_bonuses = sum(line["points"] for line in state.bonuses if line["player"] == name)
        assert state.totals[name] == from_rounds + from_bonuses
    if not state.finished:
        assert state.bonuses == []


@settings(max_examples=150, deadline=None)
@given(legal_games())
def test_the_dealer_is_the_previous_winner_or_the_same_dealer_after_a_draw(game):
    rules_setup, _entries, state = game
    dealer = PLAYERS[rules_setup.first_dealer]
    for hand in state.hands:
        assert hand.dealer == dealer
        dealer = hand.info["winner"] or dealer
    if state.next is not None:
        assert state.next["dealer"] == dealer
        assert state.next["order"] == [name for name in PLAYERS if name != dealer] + [dealer]


@settings(max_examples=100, deadline=None)
@given(legal_games(finish=True))
def test_random_legal_games_end_with_one_winner_at_or_above_the_target(game):
    rules_setup, entries, state = game
    assert state.finished
    assert len(state.winners) == 1
    winner = state.winners[0]
    from_rounds = sum(hand.points[winner] for hand in state.hands)
    assert from_rounds >= rules_setup.options["target"]
    assert state.totals[winner] >= rules_setup.options["target"]
    loser = next(name for name in PLAYERS if name != winner)
    assert sum(hand.points[loser] for hand in state.hands) < rules_setup.options["target"]
    assert state.next is None
    with pytest.raises(RuleError) as caught:
        RULES.play(rules_setup, [*entries, {"upcard": "5", "result": "draw"}])
    assert caught.value.code == "game_over"


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(RANKS),
    st.sampled_from(PLAYERS),
    st.integers(1, 98),
    st.integers(0, 98),
)
def test_knocks_above_the_limit_are_always_refused(upcard, knocker, mine, theirs):
    entry = knock(knocker, mine, theirs, upcard=upcard)
    if mine <= knock_limit(upcard):
        assert RULES.play(setup(), [entry]).hands[0].info["result"] == "knock"
    else:
        with pytest.raises(RuleError) as caught:
            RULES.play(setup(), [entry])
        assert caught.value.code == "knock_above_limit"


@settings(max_examples=150, deadline=None)
@given(
    st.one_of(
        st.integers(max_value=-1),
        st.integers(min_value=99),
    ),
    st.booleans(),
)
def test_deadwood_outside_the_bounds_is_always_refused(value, on_knocker):
    entry = knock("Ann", value, 5) if on_knocker else knock("Ann", 5, value)
    with pytest.raises(RuleError) as caught:
        RULES.play(setup(), [entry])
    assert caught.value.code == "deadwood_invalid"


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=5).filter(lambda text: text.strip().upper() not in RANKS and text.strip()))
def test_any_other_text_as_upcard_is_refused(text):
    with pytest.raises(RuleError) as caught:
        RULES.play(setup(), [draw(upcard=text)])
    assert caught.value.code == "upcard_invalid"
