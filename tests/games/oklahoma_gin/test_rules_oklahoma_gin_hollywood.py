"""Oklahoma Gin with Hollywood scoring (issue 12): three games on one sheet, worked by hand;
the game described in sentences; every problem of a round reported at once."""

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


def draw(upcard: str = "10") -> dict:
    return {"upcard": upcard, "result": "draw"}


def wins(player: str, score: int) -> dict:
    """A knock that ``player`` wins by exactly ``score`` (deadwood 0 would be gin)."""
    return knock(player, 1, score + 1)


def column(number, ann, ben, closed=False, winner=None, bonuses=()):
    return {
        "number": number,
        "totals": {"Ann": ann, "Ben": ben},
        "closed": closed,
        "winner": winner,
        "bonuses": list(bonuses),
    }


def line(player, kind, points):
    return {"player": player, "kind": kind, "points": points}


# A whole game worked by hand -------------------------------------------------------------

BONUSES = {"target": 50, "game_bonus": 100, "box_bonus": 25, "shutout_double": True}
WORKED = [
    wins("Ann", 30),  # 1: Ann opens game 1: 30.
    wins("Ann", 20),  # 2: Ann opens game 2. Game 1 reaches 50 and closes; Ben never opened it.
    wins("Ben", 10),  # 3: Ben opens game 2 (game 1 is over).
    draw(),  # 4: opens nothing; Ben deals again.
    wins("Ben", 45),  # 5: Ben opens game 3; game 2 reaches 55 and closes for Ben.
    wins("Ann", 15),  # 6: Ann opens game 3 (her games 1 and 2 are over).
    wins("Ann", 40),  # 7: game 3 reaches 55 and closes for Ann: two games to one.
]


def test_a_hand_worked_hollywood_game_round_by_round():
    state = play(WORKED, hollywood=True, **BONUSES)
    assert [hand.points for hand in state.hands] == [
        {"Ann": 30, "Ben": 0},
        {"Ann": 20, "Ben": 0},
        {"Ann": 0, "Ben": 10},
        {"Ann": 0, "Ben": 0},
        {"Ann": 0, "Ben": 45},
        {"Ann": 15, "Ben": 0},
        {"Ann": 40, "Ben": 0},
    ]
    assert [hand.info["columns"] for hand in state.hands] == [
        [1],
        [1, 2],
        [2],
        [],
        [2, 3],
        [3],
        [3],
    ]
    assert [hand.dealer for hand in state.hands] == [
        "Ann",
        "Ann",
        "Ann",
        "Ben",
        "Ben",
        "Ben",
        "Ann",
    ]
    assert state.columns == [
        # Game 1: Ann 50 from two rounds, Ben shut out: 50 + 100 + 2 x 25 = 200, doubled.
        column(
            1,
            400,
            0,
            True,
            "Ann",
            [line("Ann", "game", 100), line("Ann", "box", 50), line("Ann", "shutout", 200)],
        ),
        # Game 2: Ann 20 (round 2), Ben 10 + 45 (rounds 3 and 5). No shutout: Ann scored.
        column(
            2,
            20 + 25,
            55 + 100 + 50,
            True,
            "Ben",
            [line("Ben", "game", 100), line("Ann", "box", 25), line("Ben", "box", 50)],
        ),
        # Game 3: Ben 45 (round 5), Ann 15 + 40 (rounds 6 and 7).
        column(
            3,
            55 + 100 + 50,
            45 + 25,
            True,
            "Ann",
            [line("Ann", "game", 100), line("Ann", "box", 50), line("Ben", "box", 25)],
        ),
    ]
    assert state.finished
    assert state.winners == ["Ann"]
    assert state.totals == {"Ann": 400 + 45 + 205, "Ben": 0 + 205 + 70}
    assert state.bonuses == []  # each column carries its own
    assert state.next is None
    assert state.notices == [
        "Ann wins game 3 with 205 points.",
        "Ann wins 2 of the 3 games, with 650 points in all.",
    ]
    # Each hand's running totals are the sums over the columns after it.
    assert [hand.totals for hand in state.hands] == [
        {"Ann": 30, "Ben": 0},
        {"Ann": 420, "Ben": 0},
        {"Ann": 420, "Ben": 10},
        {"Ann": 420, "Ben": 10},
        {"Ann": 445, "Ben": 250},
        {"Ann": 460, "Ben": 250},
        {"Ann": 650, "Ben": 275},
    ]


def test_a_column_closes_while_the_other_player_has_not_opened_it():
    state = play(WORKED[:2], hollywood=True, **BONUSES)
    assert not state.finished
    assert state.columns[0]["closed"] and state.columns[0]["winner"] == "Ann"
    assert state.columns[0]["totals"] == {"Ann": 400, "Ben": 0}
    assert state.columns[1] == column(2, 20, 0)
    assert state.columns[2] == column(3, 0, 0)
    assert state.totals == {"Ann": 420, "Ben": 0}
    assert state.notices == ["Ann wins game 1 with 400 points."]
    assert state.next["number"] == 3 and state.next["dealer"] == "Ann"
    # Ben's first win then counts in game 2 only.
    state = play(WORKED[:3], hollywood=True, **BONUSES)
    assert state.hands[-1].info["columns"] == [2]
    assert state.columns[1]["totals"] == {"Ann": 20, "Ben": 10}
    assert state.notices == []


def test_a_draw_opens_nothing_and_the_same_dealer_deals_again():
    state = play(WORKED[:4], hollywood=True, **BONUSES)
    assert state.hands[-1].info["columns"] == []
    assert state.notices == ["Round 4 was a draw: Ben deals again."]
    assert state.next["dealer"] == "Ben"


def test_without_bonuses_the_columns_hold_only_the_rounds():
    state = play(WORKED, hollywood=True, target=50)
    assert [c["totals"] for c in state.columns] == [
        {"Ann": 50, "Ben": 0},
        {"Ann": 20, "Ben": 55},
        {"Ann": 55, "Ben": 45},
    ]
    assert [c["bonuses"] for c in state.columns] == [[], [], []]
    assert [c["winner"] for c in state.columns] == ["Ann", "Ben", "Ann"]
    assert state.totals == {"Ann": 125, "Ben": 100}
    assert state.winners == ["Ann"]


STACKED = [
    wins("Ann", 10),  # game 1
    wins("Ann", 10),  # games 1 and 2
    wins("Ann", 10),  # games 1, 2 and 3
    wins("Ann", 10),  # all three again: 40, 30, 20
    wins("Ben", 60),  # Ben opens game 1 and closes it at once
    wins("Ben", 5),  # Ben opens game 2
    wins("Ann", 30),  # games 2 and 3 both reach the target and close in this round
]


def test_wins_stack_up_into_all_three_columns_and_two_may_close_together():
    state = play(STACKED, hollywood=True, target=50)
    assert [h.info["columns"] for h in state.hands] == [
        [1],
        [1, 2],
        [1, 2, 3],
        [1, 2, 3],
        [1],
        [2],
        [2, 3],
    ]
    assert [(c["winner"], c["totals"]) for c in state.columns] == [
        ("Ben", {"Ann": 40, "Ben": 60}),
        ("Ann", {"Ann": 60, "Ben": 5}),
        ("Ann", {"Ann": 50, "Ben": 0}),
    ]
    assert state.finished and state.winners == ["Ann"]
    assert state.totals == {"Ann": 150, "Ben": 65}
    assert state.notices == [
        "Ann wins game 2 with 60 points.",
        "Ann wins game 3 with 50 points.",
        "Ann wins 2 of the 3 games, with 150 points in all.",
    ]


def test_a_shutout_doubles_only_the_column_where_the_loser_has_nothing():
    state = play(STACKED, hollywood=True, target=50, shutout_double=True)
    assert [c["bonuses"] for c in state.columns] == [
        [],  # Ben won game 1, and Ann has 40 in it
        [],  # Ben has 5 in game 2
        [line("Ann", "shutout", 50)],
    ]
    assert state.columns[2]["totals"] == {"Ann": 100, "Ben": 0}
    assert state.totals == {"Ann": 40 + 60 + 100, "Ben": 65}


def test_box_bonuses_count_only_the_rounds_that_counted_in_that_column():
    state = play(STACKED, hollywood=True, target=50, box_bonus=20)
    assert [c["bonuses"] for c in state.columns] == [
        [line("Ann", "box", 80), line("Ben", "box", 20)],  # Ann's rounds 1-4, Ben's round 5
        [line("Ann", "box", 80), line("Ben", "box", 20)],  # Ann's rounds 2, 3, 4, 7; Ben's 6
        [line("Ann", "box", 60)],  # Ann's rounds 3, 4 and 7
    ]
    assert state.totals == {"Ann": 40 + 80 + 60 + 80 + 50 + 60, "Ben": 60 + 20 + 5 + 20}


def test_the_winner_of_one_game_only_loses_even_with_more_points():
    big_gin = {"upcard": "10", "result": "gin", "knocker": "Ben", "opponent_deadwood": 98}
    entries = [big_gin, wins("Ann", 50), wins("Ann", 50)]
    state = play(entries, hollywood=True, target=50)
    # Ben's 123 closes game 1 at once; Ann then opens game 2, closing it, then game 3.
    assert [h.info["columns"] for h in state.hands] == [[1], [2], [3]]
    assert [c["winner"] for c in state.columns] == ["Ben", "Ann", "Ann"]
    assert state.totals == {"Ann": 100, "Ben": 123}
    assert state.finished and state.winners == ["Ann"]
    assert state.notices[-1] == "Ann wins 2 of the 3 games, with 100 points in all."


def test_nothing_is_entered_after_the_third_column_closes():
    with pytest.raises(RuleError) as caught:
        play([*STACKED, draw()], hollywood=True, target=50)
    assert (caught.value.code, caught.value.hand) == ("game_over", 8)


def test_hollywood_scores_rounds_like_any_game_with_spades_double_and_undercuts():
    entries = [
        knock("Ann", 8, 5, upcard_suit="spades"),  # Ben undercuts: (10 + 3) x 2
        knock("Ann", 2, 12, upcard_suit="hearts"),
    ]
    state = play(entries, hollywood=True, spade_double=True)
    assert [h.points for h in state.hands] == [{"Ann": 0, "Ben": 26}, {"Ann": 10, "Ben": 0}]
    assert [h.info["columns"] for h in state.hands] == [[1], [1]]
    assert state.columns[0]["totals"] == {"Ann": 10, "Ben": 26}
    assert not state.finished and state.winners == []


def test_a_new_hollywood_game_has_three_empty_columns():
    state = play([], hollywood=True)
    assert state.columns == [column(1, 0, 0), column(2, 0, 0), column(3, 0, 0)]
    assert state.totals == {"Ann": 0, "Ben": 0}
    assert state.next["number"] == 1
    assert play([]).columns is None


def test_the_csv_lists_the_games_a_round_counted_in():
    rules_setup = setup(hollywood=True, target=50)
    state = RULES.play(rules_setup, STACKED)
    assert RULES.csv_columns(rules_setup)[-1] == "Games"
    assert [RULES.csv_cells(rules_setup, h)[-1] for h in state.hands] == [
        "1",
        "1 2",
        "1 2 3",
        "1 2 3",
        "1",
        "2",
        "2 3",
    ]
    assert "Games" not in RULES.csv_columns(setup())


def test_rounds_won_still_count_once_each_in_the_statistics():
    rules_setup = setup(hollywood=True, target=50)
    state = RULES.play(rules_setup, STACKED)
    won = [RULES.hand_facts(rules_setup, h) for h in state.hands]
    assert sum(facts[0]["rounds_won"] for facts in won) == 5
    assert sum(facts[1]["rounds_won"] for facts in won) == 2


def test_options_stored_before_hollywood_existed_play_a_single_game():
    old = dict(RULES.resolve_options({}, 2))
    del old["hollywood"]
    state = RULES.play(Setup(PLAYERS, old, 0), [wins("Ann", 60), wins("Ann", 40)])
    assert state.finished and state.columns is None
    assert state.totals == {"Ann": 100, "Ben": 0}


# Described -------------------------------------------------------------------------------


def test_plain_play_is_described():
    assert RULES.describe(RULES.resolve_options({}, 2)) == [
        "Game to 100: the first to reach it wins.",
        "Knock with deadwood up to the upcard's value (10 for a 10 or a face card, 1 for an ace).",
        "Knock: the difference in deadwood. Gin: the opponent's deadwood + 25. "
        "Undercut: 10 + the difference.",
    ]


def test_hollywood_and_every_variant_is_described():
    options = {
        "target": 150,
        "gin_bonus": 20,
        "undercut_bonus": 25,
        "spade_double": True,
        "ace_requires_gin": True,
        "game_bonus": 100,
        "box_bonus": 25,
        "shutout_double": True,
        "hollywood": True,
    }
    assert RULES.describe(RULES.resolve_options(options, 2)) == [
        "Hollywood: three games on one sheet, each to 150. A player's first win counts in "
        "game 1, the second in games 1 and 2, every later one in all three (games already "
        "over are skipped); two games of three win.",
        "Knock with deadwood up to the upcard's value (10 for a 10 or a face card, 1 for an ace).",
        "An ace upcard means only gin can end the round.",
        "Knock: the difference in deadwood. Gin: the opponent's deadwood + 20. "
        "Undercut: 25 + the difference.",
        "A spade upcard doubles every score of the round.",
        "The winner of each game scores 100 more.",
        "At the end of each game, every round won that counted in it scores 25 more.",
        "If the loser of each game scored nothing in it, the winner's total is doubled.",
    ]
    assert RULES.describe({"box_bonus": 20})[-1] == (
        "At the end of the game, every round won scores 20 more."
    )


def test_every_option_has_a_label_and_help():
    specs = {option.key: option for option in RULES.option_specs(2)}
    assert specs["hollywood"].default is False
    for option in specs.values():
        assert option.label and option.help
        if option.choices:
            assert set(option.choice_labels) == set(option.choices), option.key
    assert specs["box_bonus"].choice_labels[25] == "25 a round won"


# Several problems at once ----------------------------------------------------------------


def problems(entry: dict[str, Any], **options: Any) -> list[tuple[str, str | None]]:
    with pytest.raises(RuleError) as caught:
        play([entry], **options)
    for error in caught.value.errors:
        assert error.message[0].isupper() or error.message[0] == "“", error.message
        assert error.message.endswith("."), error.message
        assert error.hand == 1
    return [(error.code, error.field) for error in caught.value.errors]


def test_a_bad_upcard_and_a_bad_result_are_reported_together():
    entry = {"upcard": "Z", "upcard_suit": "stars", "result": "schneider"}
    assert problems(entry) == [
        ("upcard_invalid", "upcard"),
        ("upcard_invalid", "upcard_suit"),
        ("wrong_type", "result"),
    ]


def test_a_stranger_and_bad_deadwood_are_reported_together():
    assert problems(knock("Zed", 3, -1)) == [
        ("unknown_player", "knocker"),
        ("deadwood_invalid", "opponent_deadwood"),
    ]
    with pytest.raises(RuleError) as caught:
        play([knock("Zed", None, -1)])
    assert [error.message for error in caught.value.errors] == [
        "Zed is not playing in this game.",
        "Enter the knocker's deadwood.",
        "The opponent's deadwood must be from 0 to 98.",
    ]


def test_the_knock_limit_waits_for_a_valid_upcard():
    assert problems(knock("Ann", 9, 20, upcard="Z")) == [("upcard_invalid", "upcard")]
    assert problems(knock("Ann", 9, 120, upcard="5")) == [
        ("deadwood_invalid", "opponent_deadwood"),
        ("knock_above_limit", "knocker_deadwood"),
    ]


def test_a_missing_suit_under_spades_double_comes_with_a_knock_above_the_limit():
    assert problems(knock("Ann", 9, 20, upcard="5"), spade_double=True) == [
        ("upcard_invalid", "upcard_suit"),
        ("knock_above_limit", "knocker_deadwood"),
    ]


# Properties ------------------------------------------------------------------------------


@st.composite
def rounds(draw_from, options: dict[str, Any]) -> dict[str, Any]:
    upcard = draw_from(st.sampled_from(RANKS))
    entry: dict[str, Any] = {"upcard": upcard}
    if options["spade_double"]:
        entry["upcard_suit"] = draw_from(st.sampled_from(["clubs", "hearts", "spades"]))
    only_gin = upcard == "A" and options["ace_requires_gin"]
    entry["result"] = draw_from(
        st.sampled_from(["gin", "draw"] if only_gin else ["knock", "knock", "gin", "draw"])
    )
    if entry["result"] == "draw":
        return entry
    entry["knocker"] = draw_from(st.sampled_from(PLAYERS))
    entry["opponent_deadwood"] = draw_from(st.integers(0, 60))
    if entry["result"] == "knock":
        entry["knocker_deadwood"] = draw_from(st.integers(0, knock_limit(upcard)))
    return entry


@st.composite
def hollywood_games(draw_from):
    options = RULES.resolve_options(
        {
            "target": draw_from(st.sampled_from([50, 100])),
            "spade_double": draw_from(st.booleans()),
            "ace_requires_gin": draw_from(st.booleans()),
            "game_bonus": draw_from(st.sampled_from([0, 100])),
            "box_bonus": draw_from(st.sampled_from([0, 20, 25])),
            "shutout_double": draw_from(st.booleans()),
            "hollywood": True,
        },
        2,
    )
    rules_setup = Setup(PLAYERS, options, draw_from(st.integers(0, 1)))
    entries: list[dict[str, Any]] = []
    state = RULES.play(rules_setup, entries)
    limit = draw_from(st.integers(0, 60))
    while not state.finished and len(entries) < limit:
        entries.append(draw_from(rounds(options)))
        state = RULES.play(rules_setup, entries)
    return rules_setup, entries, state


@settings(max_examples=150, deadline=None)
@given(hollywood_games())
def test_any_hollywood_game_keeps_its_columns_by_the_rules(game):
    rules_setup, entries, state = game
    options = rules_setup.options
    target = options["target"]
    # Replay the columns from the rounds alone: who opened what, where each score went.
    opened: dict[str, list[int]] = {name: [] for name in PLAYERS}
    sums = [dict.fromkeys(PLAYERS, 0) for _ in range(3)]
    won_in = [dict.fromkeys(PLAYERS, 0) for _ in range(3)]
    closed_by: dict[int, str] = {}
    dealer = PLAYERS[rules_setup.first_dealer]
    for hand in state.hands:
        assert hand.dealer == dealer
        winner = hand.info["winner"]
        scorers = [name for name, points in hand.points.items() if points]
        if winner is None:
            assert hand.info["columns"] == [] and scorers == []
            continue
        dealer = winner
        assert scorers == [winner]
        open_now = [n for n in (1, 2, 3) if n not in closed_by]
        fresh = [n for n in open_now if n not in opened[winner]]
        if fresh:
            opened[winner].append(fresh[0])
        counted = [n for n in open_now if n in opened[winner]]
        assert hand.info["columns"] == counted and counted
        for n in counted:
            sums[n - 1][winner] += hand.points[winner]
            won_in[n - 1][winner] += 1
            if sums[n - 1][winner] >= target:
                closed_by[n] = winner
    for n, col in enumerate(state.columns, 1):
        assert col["number"] == n
        assert col["closed"] is (n in closed_by)
        assert col["winner"] == closed_by.get(n)
        for name in PLAYERS:
            extra = sum(b["points"] for b in col["bonuses"] if b["player"] == name)
            assert col["totals"][name] == sums[n - 1][name] + extra
        if not col["closed"]:
            assert col["bonuses"] == []
            assert all(sums[n - 1][name] < target for name in PLAYERS)
            continue
        winner = col["winner"]
        loser = next(name for name in PLAYERS if name != winner)
        assert sums[n - 1][winner] >= target > sums[n - 1][loser]
        expected = []
        if options["game_bonus"]:
            expected.append(line(winner, "game", options["game_bonus"]))
        for name in PLAYERS:
            if options["box_bonus"] and won_in[n - 1][name]:
                expected.append(line(name, "box", options["box_bonus"] * won_in[n - 1][name]))
        if options["shutout_double"] and sums[n - 1][loser] == 0:
            before = sums[n - 1][winner] + sum(
                b["points"] for b in expected if b["player"] == winner
            )
            expected.append(line(winner, "shutout", before))
        assert col["bonuses"] == expected
    for name in PLAYERS:
        assert state.totals[name] == sum(col["totals"][name] for col in state.columns)
    if state.hands:
        assert state.hands[-1].totals == state.totals
    assert state.finished is (len(closed_by) == 3)
    if state.finished:
        tally = {name: list(closed_by.values()).count(name) for name in PLAYERS}
        assert state.winners == [name for name in PLAYERS if tally[name] >= 2]
        assert state.next is None
        with pytest.raises(RuleError) as caught:
            RULES.play(rules_setup, [*entries, draw()])
        assert caught.value.code == "game_over"
    else:
        assert state.winners == [] and state.next["dealer"] == dealer
