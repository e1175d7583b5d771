"""Hearts rules: points taken, the moon both ways, the jack of diamonds, passing, the end."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from scorekeeper.games.base import RuleError
from scorekeeper.games.base import Setup
from scorekeeper.games.hearts.rules import RULES
from scorekeeper.games.hearts.rules import hand_points
from scorekeeper.games.hearts.rules import passing_for

NAMES = ("Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus")
FOUR = NAMES[:4]


def make_setup(players=FOUR, first_dealer=0, **options) -> Setup:
    return Setup(tuple(players), RULES.resolve_options(options, len(players)), first_dealer)


def play(entries, players=FOUR, first_dealer=0, **options):
    return RULES.play(make_setup(players, first_dealer, **options), entries)


def refusal(entries, players=FOUR, **options) -> RuleError:
    with pytest.raises(RuleError) as caught:
        play(entries, players, **options)
    for error in caught.value.errors:
        assert error.message[0].isupper() and error.message.endswith(".")
    return caught.value


def hand(points, players=FOUR, jack=None):
    entry = {"points": dict(zip(players, points, strict=True))}
    if jack is not None:
        entry["jack_of_diamonds"] = jack
    return entry


# The table and the options -------------------------------------------------------------------


def test_hearts_is_for_three_to_six_players_and_the_lowest_total_leads():
    assert (RULES.key, RULES.title, RULES.hand_word) == ("hearts", "Hearts", "Hand")
    assert (RULES.min_players, RULES.max_players) == (3, 6)
    for count in (2, 7):
        with pytest.raises(RuleError) as caught:
            RULES.check_players(NAMES[:count], {})
        assert caught.value.code == "player_count"
    state = play([hand([3, 13, 6, 4])])
    assert state.low_wins is True
    assert state.leaders() == ["Ann"]
    assert state.teams is None and state.sides == list(FOUR)


def test_option_defaults_match_the_api():
    assert RULES.resolve_options({}, 4) == {
        "target": 100,
        "moon": "plus",
        "jack_of_diamonds": False,
        "passing": "standard",
    }
    specs = {option.key: option for option in RULES.option_specs(4)}
    assert all(option.label and option.help for option in specs.values())
    assert set(specs["moon"].choice_labels) == {"plus", "minus"}
    with pytest.raises(RuleError) as caught:
        RULES.resolve_options({"target": 75, "moon": "up", "passing": "left"}, 4)
    assert [(e.code, e.field) for e in caught.value.errors] == [
        ("option_value", "options.target"),
        ("option_value", "options.moon"),
        ("option_value", "options.passing"),
    ]


# Points and the moon -------------------------------------------------------------------------


def test_each_player_scores_the_points_taken():
    state = play([hand([3, 13, 6, 4])])
    assert state.hands[0].points == {"Ann": 3, "Ben": 13, "Cy": 6, "Dee": 4}
    assert state.hands[0].info["moon"] is None
    assert state.hands[0].info["taken"] == {"Ann": 3, "Ben": 13, "Cy": 6, "Dee": 4}
    assert state.hands[0].status == "scored"


def test_shooting_the_moon_gives_everyone_else_26_by_default():
    assert hand_points({"A": 26, "B": 0, "C": 0}) == ({"A": 0, "B": 26, "C": 26}, "A")
    state = play([hand([0, 26, 0, 0])])
    assert state.hands[0].points == {"Ann": 26, "Ben": 0, "Cy": 26, "Dee": 26}
    assert state.hands[0].info["moon"] == "Ben"
    assert state.hands[0].info["taken"]["Ben"] == 26
    assert "Ben shot the moon in hand 1: everyone else scores 26." in state.notices


def test_with_moon_minus_the_shooter_scores_minus_26_and_the_others_nothing():
    assert hand_points({"A": 26, "B": 0, "C": 0}, "minus") == ({"A": -26, "B": 0, "C": 0}, "A")
    state = play([hand([0, 26, 0, 0])], moon="minus")
    assert state.hands[0].points == {"Ann": 0, "Ben": -26, "Cy": 0, "Dee": 0}
    assert "Ben shot the moon in hand 1: Ben scores -26." in state.notices


GAME = [
    hand([0, 13, 8, 5]),
    hand([26, 0, 0, 0]),  # Ann shoots the moon.
    hand([3, 4, 16, 3]),
    hand([2, 20, 0, 4]),
    hand([1, 5, 14, 6]),
    hand([0, 0, 0, 26]),  # Dee shoots the moon.
    hand([4, 7, 2, 13]),
]


def test_a_game_with_two_moons_shot_the_plus_way_ends_when_someone_reaches_100():
    state = play(GAME)
    assert [h.info["moon"] for h in state.hands] == [None, "Ann", None, None, None, "Dee", None]
    assert state.hands[1].points == {"Ann": 0, "Ben": 26, "Cy": 26, "Dee": 26}
    assert state.hands[5].points == {"Ann": 26, "Ben": 26, "Cy": 26, "Dee": 0}
    assert [h.totals for h in state.hands] == [
        {"Ann": 0, "Ben": 13, "Cy": 8, "Dee": 5},
        {"Ann": 0, "Ben": 39, "Cy": 34, "Dee": 31},
        {"Ann": 3, "Ben": 43, "Cy": 50, "Dee": 34},
        {"Ann": 5, "Ben": 63, "Cy": 50, "Dee": 38},
        {"Ann": 6, "Ben": 68, "Cy": 64, "Dee": 44},
        {"Ann": 32, "Ben": 94, "Cy": 90, "Dee": 44},
        {"Ann": 36, "Ben": 101, "Cy": 92, "Dee": 57},
    ]
    assert state.finished and state.winners == ["Ann"]
    assert state.next is None
    assert state.notices == ["Ben reached 100: Ann wins with the lowest total, 36."]
    error = refusal([*GAME, hand([0, 13, 8, 5])])
    assert (error.code, error.hand) == ("game_over", 8)
    six_hands = play(GAME[:6])
    assert not six_hands.finished
    assert six_hands.notices == [
        "Dee shot the moon in hand 6: everyone else scores 26.",
        "Hand 7: pass three cards across.",
    ]


def test_the_same_game_with_moon_minus_plays_on_and_ends_later():
    state = play(GAME, moon="minus")
    assert state.hands[1].points == {"Ann": -26, "Ben": 0, "Cy": 0, "Dee": 0}
    assert state.hands[5].points == {"Ann": 0, "Ben": 0, "Cy": 0, "Dee": -26}
    assert state.totals == {"Ann": -16, "Ben": 49, "Cy": 40, "Dee": 5}
    assert not state.finished and state.next["number"] == 8
    more = [hand([10, 14, 2, 0]), hand([0, 16, 6, 4]), hand([2, 22, 1, 1])]
    state = play([*GAME, *more], moon="minus")
    assert [h.totals for h in state.hands[7:]] == [
        {"Ann": -6, "Ben": 63, "Cy": 42, "Dee": 5},
        {"Ann": -6, "Ben": 79, "Cy": 48, "Dee": 9},
        {"Ann": -4, "Ben": 101, "Cy": 49, "Dee": 10},
    ]
    assert state.finished and state.winners == ["Ann"]
    assert state.notices == ["Ben reached 100: Ann wins with the lowest total, -4."]


def test_a_target_of_50_ends_the_game_sooner_and_equal_lowest_totals_share_the_win():
    entries = [hand([13, 4, 4, 5], NAMES[:4]), hand([13, 5, 5, 3]), hand([13, 3, 3, 7])]
    state = play(entries[:2], target=50)
    assert not state.finished
    state = play(entries, target=50)
    assert state.totals == {"Ann": 39, "Ben": 12, "Cy": 12, "Dee": 15}
    assert not state.finished
    state = play([*entries, hand([13, 1, 1, 11])], target=50)
    assert state.totals == {"Ann": 52, "Ben": 13, "Cy": 13, "Dee": 26}
    assert state.finished and state.winners == ["Ben", "Cy"]
    assert state.notices == ["Ann reached 50: Ben and Cy share the win with 13."]


def test_everyone_who_reached_the_target_is_named():
    state = play([hand([13, 13, 0, 0])] * 4)
    assert state.totals == {"Ann": 52, "Ben": 52, "Cy": 0, "Dee": 0}
    assert not state.finished
    state = play([hand([13, 13, 0, 0])] * 8)
    assert state.finished and state.winners == ["Cy", "Dee"]
    assert state.notices == ["Ann and Ben reached 100: Cy and Dee share the win with 0."]


# The jack of diamonds ------------------------------------------------------------------------


def test_the_jack_of_diamonds_takes_10_off_whoever_took_it():
    state = play([hand([3, 13, 6, 4], jack="Cy")], jack_of_diamonds=True)
    assert state.hands[0].points == {"Ann": 3, "Ben": 13, "Cy": -4, "Dee": 4}
    assert state.hands[0].input == {
        "points": {"Ann": 3, "Ben": 13, "Cy": 6, "Dee": 4},
        "jack_of_diamonds": "Cy",
    }
    assert state.hands[0].info["jack_of_diamonds"] == "Cy"


def test_the_jack_comes_after_the_moon_rule():
    assert hand_points({"A": 26, "B": 0}, "plus", "A") == ({"A": -10, "B": 26}, "A")
    assert hand_points({"A": 26, "B": 0}, "plus", "B") == ({"A": 0, "B": 16}, "A")
    assert hand_points({"A": 26, "B": 0}, "minus", "A") == ({"A": -36, "B": 0}, "A")
    state = play([hand([0, 26, 0, 0], jack="Ben")], jack_of_diamonds=True)
    assert state.hands[0].points == {"Ann": 26, "Ben": -10, "Cy": 26, "Dee": 26}
    state = play([hand([0, 26, 0, 0], jack="Dee")], jack_of_diamonds=True, moon="minus")
    assert state.hands[0].points == {"Ann": 0, "Ben": -26, "Cy": 0, "Dee": -10}


def test_a_jack_left_empty_adds_nothing():
    for entry in (hand([3, 13, 6, 4]), {**hand([3, 13, 6, 4]), "jack_of_diamonds": None}):
        state = play([entry], jack_of_diamonds=True)
        assert state.hands[0].points == {"Ann": 3, "Ben": 13, "Cy": 6, "Dee": 4}
        assert "jack_of_diamonds" not in state.hands[0].input


def test_naming_a_jack_with_the_option_off_is_refused():
    error = refusal([hand([3, 13, 6, 4], jack="Cy")])
    assert (error.code, error.field) == ("jack_invalid", "jack_of_diamonds")
    assert error.message == (
        "The jack of diamonds scores nothing in this game, so nobody is named for it."
    )


def test_a_jack_given_to_someone_not_at_the_table_or_not_by_name_is_refused():
    error = refusal([hand([3, 13, 6, 4], jack="Zed")], jack_of_diamonds=True)
    assert (error.code, error.field) == ("unknown_player", "jack_of_diamonds")
    error = refusal([hand([3, 13, 6, 4], jack=2)], jack_of_diamonds=True)
    assert (error.code, error.field) == ("wrong_type", "jack_of_diamonds")


# Passing -------------------------------------------------------------------------------------


def test_with_four_players_the_pass_goes_left_right_across_then_none():
    assert [passing_for(n, 4) for n in range(1, 10)] == [
        *["left", "right", "across", "none"] * 2,
        "left",
    ]
    entries = [hand([3, 13, 6, 4])] * 3
    state = play(entries)
    assert [h.info["passing"] for h in state.hands] == ["left", "right", "across"]
    assert state.next["passing"] == "none"
    assert state.notices == ["Hand 4: no passing, keep your cards."]


@pytest.mark.parametrize("count", [3, 5, 6])
def test_with_three_five_or_six_players_the_pass_goes_left_right_then_none(count):
    assert [passing_for(n, count) for n in range(1, 8)] == [
        *["left", "right", "none"] * 2,
        "left",
    ]
    players = NAMES[:count]
    points = [13] + [0] * (count - 1)
    points[1] += 13
    state = play([hand(points, players)] * 2, players)
    assert state.next["passing"] == "none"
    assert [h.info["passing"] for h in state.hands] == ["left", "right"]
    assert play([], players).notices == ["Hand 1: pass three cards left."]


def test_without_passing_every_hand_is_kept():
    assert [passing_for(n, 4, "none") for n in range(1, 5)] == ["none"] * 4
    state = play([hand([3, 13, 6, 4])] * 2, passing="none")
    assert state.next["passing"] == "none"
    assert [h.info["passing"] for h in state.hands] == ["none", "none"]


def test_the_deal_passes_to_the_left():
    state = play([hand([3, 13, 6, 4])] * 2, first_dealer=3)
    assert [h.dealer for h in state.hands] == ["Dee", "Ann"]
    assert state.next["dealer"] == "Ben"
    assert state.next["order"] == ["Cy", "Dee", "Ann", "Ben"]


# Refusals ------------------------------------------------------------------------------------


def test_every_missing_player_is_reported():
    error = refusal([{"points": {"Ann": 13, "Ben": 13}}])
    assert [(e.code, e.field, e.message) for e in error.errors] == [
        ("missing_points", "points.Cy", "Enter the points for Cy."),
        ("missing_points", "points.Dee", "Enter the points for Dee."),
    ]
    for entry in ({}, {"points": None}, {"points": {}}):
        error = refusal([entry])
        assert (error.code, error.field) == ("missing_points", "points")
        assert error.message == "Enter the points for every player."


def test_points_outside_0_to_26_are_refused_together():
    error = refusal([hand([27, 0, -1, 0])])
    assert [(e.code, e.field) for e in error.errors] == [
        ("points_out_of_range", "points.Ann"),
        ("points_out_of_range", "points.Cy"),
    ]
    assert error.errors[0].message == "Ann's points must be from 0 to 26."


def test_points_that_do_not_add_up_to_26_are_refused():
    error = refusal([hand([3, 13, 6, 3])])
    assert (error.code, error.field) == ("points_sum_mismatch", "points")
    assert error.message == (
        "The points add up to 25, but every hand holds 26 (13 hearts and 13 for the queen "
        "of spades)."
    )


def test_points_with_nobody_holding_the_queen_are_refused():
    error = refusal([hand([9, 9, 8, 0])])
    assert (error.code, error.field) == ("points_sum_mismatch", "points")
    assert "nobody has 13 or more" in error.message


def test_wrong_kinds_of_points_are_refused():
    error = refusal([hand(["3", 13, 6.0, 4])])
    assert [(e.code, e.field) for e in error.errors] == [
        ("wrong_type", "points.Ann"),
        ("wrong_type", "points.Cy"),
    ]
    assert refusal([[3, 13, 6, 4]]).code == "wrong_type"
    assert refusal([{"points": [3, 13, 6, 4]}]).field == "points"
    error = refusal([{"points": {**hand([3, 13, 6, 4])["points"], "Zed": 0}}])
    assert (error.code, error.field) == ("unknown_player", "points.Zed")


def test_a_bad_point_and_a_jack_named_without_the_option_are_reported_together():
    error = refusal([hand([30, 13, 6, 4], jack="Ann")])
    assert [e.code for e in error.errors] == ["points_out_of_range", "jack_invalid"]
    assert {e.hand for e in error.errors} == {1}


def test_a_refusal_names_the_hand():
    error = refusal([hand([3, 13, 6, 4]), hand([3, 13, 6, 5])])
    assert (error.code, error.hand) == ("points_sum_mismatch", 2)


# Storage, facts, CSV -------------------------------------------------------------------------


def test_points_and_the_jack_are_stored_by_seat():
    entry = hand([3, 13, 6, 4], jack="Cy")
    normalised = play([entry], jack_of_diamonds=True).hands[0].input
    stored = RULES.to_seats(normalised, FOUR)
    assert stored == {"points": [3, 13, 6, 4], "jack_of_diamonds": 2}
    renamed = ["Ann", "Ben", "Cyd", "Dee"]
    read = RULES.from_seats(stored, renamed)
    assert read == {"points": {"Ann": 3, "Ben": 13, "Cyd": 6, "Dee": 4}, "jack_of_diamonds": "Cyd"}
    state = RULES.play(make_setup(renamed, jack_of_diamonds=True), [read])
    assert state.totals == {"Ann": 3, "Ben": 13, "Cyd": -4, "Dee": 4}


def test_each_seat_counts_moons_points_taken_clean_hands_and_jacks():
    setup = make_setup(jack_of_diamonds=True)
    state = RULES.play(setup, [hand([3, 13, 10, 0], jack="Dee"), hand([0, 0, 26, 0])])
    assert RULES.hand_facts(setup, state.hands[0]) == [
        {"points_taken": 3},
        {"points_taken": 13},
        {"points_taken": 10},
        {"clean_hands": 1, "jacks": 1},
    ]
    assert RULES.hand_facts(setup, state.hands[1]) == [
        {"clean_hands": 1},
        {"clean_hands": 1},
        {"moons": 1, "points_taken": 26},
        {"clean_hands": 1},
    ]
    keys = {fact.key for fact in RULES.facts} | {"hands", "points", "played", "won"}
    for stat in RULES.stats:
        assert {stat.count, stat.out_of or "hands", stat.per or "hands"} <= keys
    assert any(stat.count == "moons" for stat in RULES.stats)


def test_the_csv_shows_passing_the_moon_the_jack_and_the_points_taken():
    setup = make_setup(jack_of_diamonds=True)
    state = RULES.play(setup, [hand([3, 13, 10, 0], jack="Dee"), hand([0, 0, 26, 0])])
    assert RULES.csv_columns(setup) == [
        "Passing",
        "Moon",
        "Jack of diamonds",
        "Ann taken",
        "Ben taken",
        "Cy taken",
        "Dee taken",
    ]
    assert RULES.csv_cells(setup, state.hands[0]) == ["Pass left", None, "Dee", 3, 13, 10, 0]
    assert RULES.csv_cells(setup, state.hands[1]) == ["Pass right", "Cy", None, 0, 0, 26, 0]
    plain = make_setup()
    assert "Jack of diamonds" not in RULES.csv_columns(plain)
    state = RULES.play(plain, [hand([3, 13, 10, 0])])
    assert RULES.csv_cells(plain, state.hands[0]) == ["Pass left", None, 3, 13, 10, 0]


# Properties ----------------------------------------------------------------------------------


@st.composite
def legal_hands(draw, players):
    """A hand as the cards can fall: one player takes the queen, the 13 hearts go anywhere."""
    queen = draw(st.sampled_from(players))
    hearts = draw(st.lists(st.sampled_from(players), min_size=13, max_size=13))
    points = {name: hearts.count(name) + (13 if name == queen else 0) for name in players}
    jack = draw(st.one_of(st.none(), st.sampled_from(players)))
    return {"points": points, "jack_of_diamonds": jack}


@st.composite
def games(draw):
    count = draw(st.integers(3, 6))
    players = NAMES[:count]
    options = {
        "target": draw(st.sampled_from([50, 100])),
        "moon": draw(st.sampled_from(["plus", "minus"])),
        "jack_of_diamonds": draw(st.booleans()),
        "passing": draw(st.sampled_from(["standard", "none"])),
    }
    entries = draw(st.lists(legal_hands(players), min_size=1, max_size=15))
    if not options["jack_of_diamonds"]:
        entries = [{"points": entry["points"]} for entry in entries]
    return make_setup(players, **options), entries


@settings(max_examples=150, deadline=None)
@given(games())
def test_points_add_to_26_before_the_moon_and_totals_are_the_sum_of_the_hands(game):
    setup, entries = game
    target = setup.options["target"]
    kept = []
    for entry in entries:
        kept.append(entry)
        if max(RULES.play(setup, kept).totals.values()) >= target:
            break
    state = RULES.play(setup, kept)
    count = len(setup.players)
    for played, entry in zip(state.hands, kept, strict=True):
        taken = played.info["taken"]
        assert taken == entry["points"]
        assert sum(taken.values()) == 26
        taker = played.info["jack_of_diamonds"]
        assert taker == entry.get("jack_of_diamonds")
        jack = {name: -10 if name == taker else 0 for name in setup.players}
        shooter = played.info["moon"]
        assert shooter == next((n for n in setup.players if taken[n] == 26), None)
        for name in setup.players:
            if shooter is None:
                expected = taken[name]
            elif setup.options["moon"] == "plus":
                expected = 0 if name == shooter else 26
            else:
                expected = -26 if name == shooter else 0
            assert played.points[name] == expected + jack[name]
    for name in setup.players:
        assert state.totals[name] == sum(h.points[name] for h in state.hands)
    reached = [max(h.totals.values()) >= target for h in state.hands]
    assert state.finished == reached[-1]
    assert not any(reached[:-1])
    if state.finished:
        low = min(state.totals.values())
        assert state.winners == [n for n in setup.players if state.totals[n] == low]
        assert state.next is None
    else:
        assert state.winners == []
        assert state.next["passing"] == passing_for(
            len(state.hands) + 1, count, setup.options["passing"]
        )
