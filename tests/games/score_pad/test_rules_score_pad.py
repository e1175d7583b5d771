"""Score pad rules: the game name (a text option), winner and end options, rounds, closing."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from scorekeeper.games.base import GameRules
from scorekeeper.games.base import Option
from scorekeeper.games.base import RuleError
from scorekeeper.games.base import Setup
from scorekeeper.games.base import check_option_value
from scorekeeper.games.base import resolve_options
from scorekeeper.games.score_pad.rules import RULES
from scorekeeper.games.score_pad.rules import round_winners

NAMES = tuple(f"P{n}" for n in range(1, 22))
THREE = ("Ann", "Ben", "Cy")


def make_setup(players=THREE, first_dealer=0, **options) -> Setup:
    options.setdefault("name", "Rummikub")
    return Setup(tuple(players), RULES.resolve_options(options, len(players)), first_dealer)


def play(entries, players=THREE, first_dealer=0, **options):
    return RULES.play(make_setup(players, first_dealer, **options), entries)


def refusal(entries, players=THREE, **options) -> RuleError:
    with pytest.raises(RuleError) as caught:
        play(entries, players, **options)
    for error in caught.value.errors:
        assert error.message[0].isupper() and error.message.endswith(".")
    return caught.value


def option_errors(raw, count=3):
    with pytest.raises(RuleError) as caught:
        RULES.resolve_options(raw, count)
    return [(e.code, e.field, e.message) for e in caught.value.errors]


def rnd(*points, players=THREE):
    return {"points": dict(zip(players, points, strict=False))}


# The text option kind (base) -----------------------------------------------------------------

TITLE = Option("title", "Title", "text", None, minimum=1, maximum=5)


def test_a_text_option_is_trimmed_and_kept_within_its_length():
    assert check_option_value(TITLE, "  Hi  ") == "Hi"
    assert check_option_value(TITLE, "Hello") == "Hello"
    with pytest.raises(RuleError) as caught:
        check_option_value(TITLE, "Hello!")
    assert (caught.value.code, caught.value.field) == ("option_value", "options.title")
    assert caught.value.message == "Title must be 1 to 5 characters long; it has 6."


def test_a_required_text_option_left_empty_is_refused():
    for value in (None, "", "   "):
        with pytest.raises(RuleError) as caught:
            check_option_value(TITLE, value)
        assert caught.value.code == "option_value"
        assert caught.value.message == "Enter the title (1 to 5 characters)."
    with pytest.raises(RuleError) as caught:
        resolve_options([TITLE], {})
    assert caught.value.field == "options.title"


def test_a_text_option_must_be_text():
    for value in (5, ["a"], True):
        with pytest.raises(RuleError) as caught:
            check_option_value(TITLE, value)
        assert caught.value.message == "Title must be text (1 to 5 characters)."


def test_an_optional_text_option_may_be_empty():
    note = Option("note", "Note", "text", "", maximum=10)
    assert resolve_options([note], {}) == {"note": ""}
    assert resolve_options([note], {"note": " x "}) == {"note": "x"}


def test_games_that_end_by_their_own_rules_are_not_closed_early():
    state = object()
    assert GameRules().close(Setup(("A",), {}), state) is state


# Options -------------------------------------------------------------------------------------


def test_score_pad_is_for_one_to_twenty_players_and_counts_rounds():
    assert (RULES.key, RULES.title, RULES.hand_word) == ("score_pad", "Score pad", "Round")
    assert (RULES.min_players, RULES.max_players) == (1, 20)
    assert play([rnd(5, players=("Solo",))], ["Solo"]).totals == {"Solo": 5}
    assert len(play([], NAMES[:20]).sides) == 20
    for count in (0, 21):
        with pytest.raises(RuleError) as caught:
            RULES.check_players(NAMES[:count], {})
        assert caught.value.code == "player_count"


def test_option_defaults_match_the_api():
    assert RULES.resolve_options({"name": " Phase 10 "}, 3) == {
        "name": "Phase 10",
        "winner": "highest",
        "end": "open",
        "target": None,
        "rounds": None,
        "dealer": False,
    }
    specs = {option.key: option for option in RULES.option_specs(3)}
    assert specs["name"].kind == "text"
    assert (specs["name"].minimum, specs["name"].maximum) == (1, 60)
    assert all(option.label and option.help for option in specs.values())
    assert set(specs["end"].choice_labels) == {"open", "target", "rounds"}


def test_the_game_name_is_required_and_at_most_60_characters():
    assert option_errors({}) == [
        ("option_value", "options.name", "Enter the game name (1 to 60 characters)."),
    ]
    assert option_errors({"name": "x" * 61})[0][2] == (
        "Game name must be 1 to 60 characters long; it has 61."
    )
    assert RULES.resolve_options({"name": "x" * 60}, 3)["name"] == "x" * 60


def test_a_target_is_needed_with_end_target_and_rounds_with_end_rounds():
    assert option_errors({"name": "Golf", "end": "target"}) == [
        (
            "option_value",
            "options.target",
            "Enter the target: this game ends when a total reaches it.",
        ),
    ]
    assert option_errors({"name": "Golf", "end": "rounds"}) == [
        (
            "option_value",
            "options.rounds",
            "Enter the number of rounds: this game ends after them.",
        ),
    ]
    resolved = RULES.resolve_options({"name": "Golf", "end": "rounds", "rounds": 9}, 3)
    assert (resolved["rounds"], resolved["target"]) == (9, None)
    resolved = RULES.resolve_options({"name": "Golf", "end": "target", "target": 500}, 3)
    assert (resolved["rounds"], resolved["target"]) == (None, 500)


def test_rounds_run_from_1_to_100_and_a_target_is_a_whole_number_from_1():
    for rounds in (0, 101, "9", 9.0):
        errors = option_errors({"name": "Golf", "end": "rounds", "rounds": rounds})
        assert [(code, field) for code, field, _ in errors] == [("option_value", "options.rounds")]
    for target in (0, -5, "100"):
        errors = option_errors({"name": "Golf", "end": "target", "target": target})
        assert [(code, field) for code, field, _ in errors] == [("option_value", "options.target")]


def test_a_target_or_rounds_given_with_another_end_are_ignored():
    resolved = RULES.resolve_options(
        {"name": "Golf", "end": "open", "target": "lots", "rounds": 500}, 3
    )
    assert (resolved["end"], resolved["target"], resolved["rounds"]) == ("open", None, None)
    resolved = RULES.resolve_options({"name": "Golf", "end": "rounds", "rounds": 3, "target": 9}, 3)
    assert resolved["target"] is None


def test_every_option_problem_is_reported_at_once():
    errors = option_errors({"colour": "red", "winner": "most", "end": "target"})
    assert [(code, field) for code, field, _ in errors] == [
        ("unknown_option", "options.colour"),
        ("option_value", "options.name"),
        ("option_value", "options.winner"),
        ("option_value", "options.target"),
    ]


# Rounds --------------------------------------------------------------------------------------


def test_each_round_adds_every_players_points_and_a_blank_counts_zero():
    state = play([rnd(10, -5, 3), {"points": {"Ben": 7}}, {"points": {"Ann": None, "Cy": 2}}])
    assert [h.points for h in state.hands] == [
        {"Ann": 10, "Ben": -5, "Cy": 3},
        {"Ann": 0, "Ben": 7, "Cy": 0},
        {"Ann": 0, "Ben": 0, "Cy": 2},
    ]
    assert state.hands[1].input == {"points": {"Ann": 0, "Ben": 7, "Cy": 0}}
    assert state.totals == {"Ann": 10, "Ben": 2, "Cy": 5}
    assert all(h.status == "scored" for h in state.hands)
    assert not state.finished


def test_a_round_with_no_points_at_all_is_refused():
    for entry in ({}, {"points": None}, {"points": {}}, {"points": {"Ann": None, "Ben": None}}):
        error = refusal([entry])
        assert (error.code, error.field) == ("missing_points", "points")
        assert error.message == "Enter the points of at least one player for this round."


def test_points_that_are_not_whole_numbers_are_refused_together():
    error = refusal([rnd("10", 2.5, True)])
    assert [(e.code, e.field) for e in error.errors] == [
        ("wrong_type", "points.Ann"),
        ("wrong_type", "points.Ben"),
        ("wrong_type", "points.Cy"),
    ]
    assert error.errors[0].message == "Ann's points must be a whole number."
    assert refusal([[1, 2, 3]]).code == "wrong_type"
    assert refusal([{"points": [1, 2, 3]}]).field == "points"
    error = refusal([{"points": {"Ann": 1, "Zed": 2}}])
    assert (error.code, error.field) == ("unknown_player", "points.Zed")


def test_the_dealer_rotates_and_is_shown_only_when_asked_for():
    state = play([rnd(1, 2, 3)] * 2, first_dealer=1)
    assert [h.dealer for h in state.hands] == ["Ben", "Cy"]
    assert state.next["dealer"] == "Ann"
    assert state.next["show_dealer"] is False
    assert state.notices == ["The game goes on until you end it."]
    state = play([rnd(1, 2, 3)] * 2, first_dealer=1, dealer=True)
    assert state.next["show_dealer"] is True
    assert state.next["order"] == ["Ben", "Cy", "Ann"]
    assert "Ann deals round 3." in state.notices


# Ending the game -----------------------------------------------------------------------------


def test_an_open_game_ends_only_when_the_scorekeeper_closes_it():
    setup = make_setup()
    state = RULES.play(setup, [rnd(10, 20, 5)] * 30)
    assert not state.finished and state.next["number"] == 31
    closed = RULES.close(setup, state)
    assert closed.finished and closed.winners == ["Ben"]
    assert closed.next is None
    assert closed.totals == {"Ann": 300, "Ben": 600, "Cy": 150}
    assert closed.hands[-1].totals == closed.totals
    assert closed.notices == ["Ben wins with 600."]
    assert RULES.close(setup, closed) is closed


def test_closing_an_open_game_with_winner_lowest_gives_the_lowest_the_win():
    setup = make_setup(winner="lowest")
    state = RULES.play(setup, [rnd(10, 20, 5), rnd(3, -4, 9)])
    assert state.low_wins is True and state.leaders() == ["Ann"]
    closed = RULES.close(setup, state)
    assert closed.winners == ["Ann"]
    assert closed.notices == ["Ann wins with 13 (lowest total)."]


def test_equal_winning_totals_share_the_win():
    setup = make_setup()
    closed = RULES.close(setup, RULES.play(setup, [rnd(10, 4, 10)]))
    assert closed.winners == ["Ann", "Cy"]
    assert closed.notices == ["Ann and Cy share the win with 10."]


def test_an_open_game_without_a_round_cannot_be_closed():
    setup = make_setup()
    with pytest.raises(RuleError) as caught:
        RULES.close(setup, RULES.play(setup, []))
    assert caught.value.code == "not_finished"
    assert caught.value.message == "Enter at least one round before ending the game."


def test_a_game_with_a_target_or_rounds_is_not_closed_early():
    for options in ({"end": "target", "target": 100}, {"end": "rounds", "rounds": 5}):
        setup = make_setup(**options)
        state = RULES.play(setup, [rnd(10, 20, 5)])
        assert RULES.close(setup, state) is state
        assert not state.finished


def test_highest_to_a_target_ends_the_round_someone_reaches_it():
    entries = [rnd(40, 30, 45), rnd(30, 60, 50), rnd(35, 20, 10)]
    state = play(entries[:2], end="target", target=100)
    assert state.totals == {"Ann": 70, "Ben": 90, "Cy": 95}
    assert not state.finished
    assert state.next["target"] == 100
    state = play(entries, end="target", target=100)
    # Ben reached 110 and Ann 105, Cy 105: the highest total wins.
    assert state.totals == {"Ann": 105, "Ben": 110, "Cy": 105}
    assert state.finished and state.winners == ["Ben"]
    assert state.notices == [
        "Ann, Ben and Cy reached 100: the game is over.",
        "Ben wins with 110.",
    ]
    error = refusal([*entries, rnd(1, 1, 1)], end="target", target=100)
    assert (error.code, error.hand, error.message) == ("game_over", 4, "This game is over.")


def test_lowest_wins_to_a_target_ends_when_someone_reaches_it_and_the_lowest_total_wins():
    # Golf-like: strokes add up, the game ends when someone reaches 100.
    entries = [rnd(30, 25, 40), rnd(35, 28, 38), rnd(20, 30, 25)]
    state = play(entries, end="target", target=100, winner="lowest")
    assert [h.totals for h in state.hands] == [
        {"Ann": 30, "Ben": 25, "Cy": 40},
        {"Ann": 65, "Ben": 53, "Cy": 78},
        {"Ann": 85, "Ben": 83, "Cy": 103},
    ]
    assert state.finished and state.low_wins is True
    assert state.winners == ["Ben"]
    assert state.notices == [
        "Cy reached 100: the game is over.",
        "Ben wins with 83 (lowest total).",
    ]


def test_a_fixed_number_of_rounds_ends_the_game():
    entries = [rnd(5, 3, 1), rnd(2, 2, 9), rnd(0, 4, 1)]
    state = play(entries[:2], end="rounds", rounds=3)
    assert not state.finished
    assert state.next["total_hands"] == 3
    assert state.notices == ["Round 3 of 3."]
    state = play(entries, end="rounds", rounds=3)
    assert state.finished and state.winners == ["Cy"]
    assert state.totals == {"Ann": 7, "Ben": 9, "Cy": 11}
    assert state.notices == ["All 3 rounds are played: the game is over.", "Cy wins with 11."]
    error = refusal([*entries, rnd(1)], end="rounds", rounds=3)
    assert (error.code, error.hand) == ("game_over", 4)


# Facts, storage, CSV -------------------------------------------------------------------------


def test_the_round_is_won_by_the_best_score_by_the_winner_option():
    assert round_winners({"A": 5, "B": 9, "C": 9}, lowest=False) == ["B", "C"]
    assert round_winners({"A": 5, "B": 9, "C": 9}, lowest=True) == ["A"]
    assert round_winners({"A": 4, "B": 4}, lowest=False) == []
    assert round_winners({"A": 4}, lowest=False) == []
    setup = make_setup(winner="lowest")
    state = RULES.play(setup, [rnd(5, 9, 2), rnd(3, 3, 3)])
    assert RULES.hand_facts(setup, state.hands[0]) == [{}, {}, {"rounds_won": 1}]
    assert RULES.hand_facts(setup, state.hands[1]) == [{}, {}, {}]
    keys = {fact.key for fact in RULES.facts} | {"hands", "points", "played", "won"}
    for stat in RULES.stats:
        assert {stat.count, stat.out_of or "hands", stat.per or "hands"} <= keys
    assert RULES.csv_columns(setup) == ["Round winners"]
    assert RULES.csv_cells(setup, state.hands[0]) == [setup.players[2]]
    assert RULES.csv_cells(setup, state.hands[1]) == [""]  # everyone scored the same


def test_points_are_stored_by_seat():
    normalised = play([{"points": {"Ben": 7, "Ann": -2}}]).hands[0].input
    stored = RULES.to_seats(normalised, THREE)
    assert stored == {"points": [-2, 7, 0]}
    read = RULES.from_seats(stored, ["Ann", "Bea", "Cy"])
    assert read == {"points": {"Ann": -2, "Bea": 7, "Cy": 0}}
    assert play([read], ["Ann", "Bea", "Cy"]).totals == {"Ann": -2, "Bea": 7, "Cy": 0}


# Properties ----------------------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(
    st.integers(1, 8),
    st.lists(st.lists(st.integers(-50, 100), min_size=8, max_size=8), min_size=1, max_size=12),
    st.sampled_from(["highest", "lowest"]),
    st.sampled_from(["open", "target", "rounds"]),
    st.integers(1, 300),
    st.integers(1, 12),
)
def test_totals_are_the_sum_of_the_rounds_and_the_game_ends_by_its_option(
    count, rows, winner, end, target, rounds
):
    players = NAMES[:count]
    setup = make_setup(players, winner=winner, end=end, target=target, rounds=rounds)
    entries = []
    for row in rows:
        entries.append({"points": dict(zip(players, row, strict=False))})
        if RULES.play(setup, entries).finished:
            break
    state = RULES.play(setup, entries)
    for name in players:
        assert state.totals[name] == sum(entry["points"][name] for entry in entries)
        assert state.hands[-1].totals[name] == state.totals[name]
    if end == "open":
        assert not state.finished
        state = RULES.close(setup, state)
    elif end == "rounds":
        assert state.finished == (len(entries) == rounds)
    else:
        reached = [max(h.totals.values()) >= target for h in state.hands]
        assert state.finished == reached[-1] and not any(reached[:-1])
    if state.finished:
        best = (min if winner == "lowest" else max)(state.totals.values())
        assert state.winners == [n for n in players if state.totals[n] == best]
        assert state.next is None
    else:
        assert state.winners == [] and state.next["number"] == len(entries) + 1
