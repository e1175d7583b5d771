"""The score pad when the table changes mid-game (RULES.md, "Every game: the table changes
mid-game", and "Score pad"), worked round by round: a sitter who scores nothing and wins no
round, joins and their starting totals by the winner option, the number of rounds changed
(`schedule`, with end "rounds" only) or set to the rounds played to end the game at once, a
leaver who cannot win (closing, a target, the last round), and every refusal in RULES.md's
order. Then a property: random changes interleaved replay to the state they were folded to,
and a refused change changes nothing."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from scorekeeper.games.score_pad.rules import RULES
from scorekeeper.games.table import Change
from tests.games.hearts.test_rules_hearts_table import check_table_game
from tests.games.hearts.test_rules_hearts_table import codes
from tests.games.hearts.test_rules_hearts_table import table_games
from tests.games.score_pad.test_rules_score_pad import NAMES
from tests.games.score_pad.test_rules_score_pad import THREE
from tests.games.score_pad.test_rules_score_pad import make_setup
from tests.games.score_pad.test_rules_score_pad import play
from tests.games.score_pad.test_rules_score_pad import refusal as refused
from tests.games.score_pad.test_rules_score_pad import rnd

ROUNDS = {"end": "rounds", "rounds": 3}


def scored(**points: int) -> dict:
    """A round: the points of the players named (a player dealt in and left out counts 0)."""
    return {"points": points}


def change(kind: str, id: int = 1, **body) -> Change:
    return Change({"kind": kind, **body}, id)


# Sitting out -----------------------------------------------------------------------------------


def test_a_sitter_scores_nothing_and_wins_no_round():
    # Lowest wins: Ben's 0 in round 2 would be the best score, but it is not his round.
    setup = make_setup(winner="lowest", dealer=True)
    record = [rnd(10, 20, 5), change("sit_out", player="Ben")]
    state = RULES.play(setup, record)
    # Ben would deal round 2: he is passed over and Cy deals it to Ann and herself.
    assert state.next["players"] == ["Ann", "Cy"]
    assert (state.next["dealer"], state.next["order"]) == ("Cy", ["Ann", "Cy"])
    assert state.notices == ["The game goes on until you end it.", "Cy deals round 2."]
    state = RULES.play(setup, [*record, scored(Ann=7, Cy=3)])
    second = state.hands[1]
    assert second.players == ("Ann", "Cy")
    assert second.points == {"Ann": 7, "Cy": 3}
    assert second.info["round_winners"] == ["Cy"]
    assert RULES.hand_facts(setup, second) == [{}, {}, {"rounds_won": 1}]
    assert state.totals == {"Ann": 17, "Ben": 20, "Cy": 8}
    # Ben is back for round 3, dealt by Ann: his lost deal is not made up.
    assert state.next["players"] == list(THREE)
    assert state.next["dealer"] == "Ann"


def test_a_sitter_s_points_are_not_taken_and_a_blank_still_counts_0():
    record = [rnd(10, 20, 5), change("sit_out", player="Ben")]
    error = refused([*record, scored(Ann=7, Ben=4, Cy=3)])
    assert error.hand == 2 and codes(error) == {("not_seated", "points.Ben")}
    assert codes(refused([*record, scored(Ann=7, Zed=4)])) == {("unknown_player", "points.Zed")}
    state = play([*record, scored(Ann=7)])
    assert state.hands[1].points == {"Ann": 7, "Cy": 0}
    empty = refused([*record, {"points": {"Ann": None}}])
    assert (empty.code, empty.message) == (
        "missing_points",
        "Enter the points of at least one player for this round.",
    )


def test_a_sit_out_stays_with_the_seat_when_it_is_handed_over():
    record = [
        rnd(10, 20, 5),
        change("sit_out", player="Ben", id=1),
        change("substitute", player="Ben", by="Gus", id=2),
    ]
    state = play(record)
    assert state.players == ["Ann", "Gus", "Cy"]
    assert state.totals == {"Ann": 10, "Gus": 20, "Cy": 5}
    assert state.next["players"] == ["Ann", "Cy"]
    state = play([*record, scored(Ann=7, Cy=3), scored(Ann=1, Gus=2, Cy=3)])
    assert state.hands[2].players == ("Ann", "Gus", "Cy")
    assert state.totals == {"Ann": 18, "Gus": 22, "Cy": 11}


# Joining -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("winner", "score", "start"),
    [
        ("highest", None, 5),  # last place where the highest wins: the lowest total, Cy's
        ("lowest", None, 20),  # where the lowest wins: the highest, Ben's
        ("highest", "average", 11),  # 35 / 3 = 11.67, rounded down
        ("lowest", "zero", 0),
        ("highest", -12, -12),
    ],
)
def test_a_joiner_s_starting_total_follows_the_winner_option(winner, score, start):
    assert RULES.low_wins({"winner": winner}) is (winner == "lowest")
    join = change("join", player="Dee", score=score)
    state = play([rnd(10, 20, 5), join], winner=winner)
    assert state.totals["Dee"] == start


def test_an_average_is_rounded_down_below_zero_too():
    state = play([rnd(-10, 2, 0), change("join", player="Dee", score="average")])
    assert state.totals["Dee"] == -3  # -8 / 3 = -2.67


def test_a_joiner_after_the_dealer_deals_next_and_plays_the_rounds_from_then_on():
    record = [rnd(10, 20, 5), change("join", player="Dee", after="Ann")]
    state = play(record, dealer=True)
    assert state.players == ["Ann", "Dee", "Ben", "Cy"]
    assert (state.next["dealer"], state.next["order"]) == ("Dee", ["Ben", "Cy", "Ann", "Dee"])
    assert state.notices == ["The game goes on until you end it.", "Dee deals round 2."]
    state = play([*record, scored(Ann=1, Dee=8, Ben=2, Cy=3)], dealer=True)
    assert state.totals == {"Ann": 11, "Ben": 22, "Cy": 8, "Dee": 13}
    assert state.hands[1].info["round_winners"] == ["Dee"]


def test_a_one_player_pad_may_hand_over_by_a_join_and_a_leave():
    record = [change("join", player="Ben", id=1), change("leave", player="Ann", id=2)]
    state = play([*record, scored(Ben=3)], ("Ann",))
    assert state.players == ["Ben"] and state.left == ["Ann"]
    assert state.totals == {"Ann": 0, "Ben": 3}


# The number of rounds ------------------------------------------------------------------------

# Three rounds: Ann 20, Ben 40, Cy 10 after two of them.
TWO_ROUNDS = [rnd(10, 20, 5), rnd(10, 20, 5)]


def test_the_table_plays_more_rounds():
    record = [*TWO_ROUNDS, change("schedule", rounds=5)]
    state = play(record, **ROUNDS)
    assert state.changes == [{"id": 1, "before_hand": 3, "kind": "schedule", "rounds": 5}]
    assert state.next["total_hands"] == 5
    assert state.notices == ["Round 3 of 5."]
    state = play([*record, rnd(1, 1, 1), rnd(1, 1, 1)], **ROUNDS)
    assert not state.finished and state.notices == ["Round 5 of 5."]
    state = play([*record, *[rnd(1, 1, 1)] * 3], **ROUNDS)
    assert state.finished and state.winners == ["Ben"]
    assert state.notices == ["All 5 rounds are played: the game is over.", "Ben wins with 43."]


def test_fewer_rounds_end_the_game_sooner():
    record = [TWO_ROUNDS[0], change("schedule", rounds=2), TWO_ROUNDS[1]]
    state = play(record, **ROUNDS)
    assert state.finished and state.next is None
    assert state.notices == ["All 2 rounds are played: the game is over.", "Ben wins with 40."]


def test_the_rounds_played_end_the_game_at_once_with_the_winners_among_the_seated():
    state = play([*TWO_ROUNDS, change("schedule", rounds=2)], **ROUNDS)
    assert state.finished and state.winners == ["Ben"]
    record = [*TWO_ROUNDS, change("leave", player="Ben", id=1), change("schedule", rounds=2, id=2)]
    state = play(record, **ROUNDS)
    assert state.finished and state.left == ["Ben"]
    assert state.winners == ["Ann"]  # Ben's 40 is higher, but Ben left
    assert state.notices == ["All 2 rounds are played: the game is over.", "Ann wins with 20."]
    late = refused([*record, rnd(1, 1)], **ROUNDS)
    assert (late.code, late.hand) == ("game_over", 3)
    assert refused([*record, change("adjust", player="Ann", points=5, id=3)], **ROUNDS).code == (
        "game_over"
    )


def test_one_round_may_be_set_before_any_is_played():
    state = play([change("schedule", rounds=1)], **ROUNDS)
    assert not state.finished and state.next["total_hands"] == 1
    assert play([change("schedule", rounds=1), rnd(1, 2, 3)], **ROUNDS).finished


@pytest.mark.parametrize(
    ("played", "rounds", "low"),
    [(2, 1, 2), (0, 0, 1), (2, 101, 2), (2, "3", 2), (2, True, 2), (2, None, 2), (2, 2.0, 2)],
)
def test_rounds_run_from_the_rounds_played_to_100(played, rounds, low):
    error = refused([*TWO_ROUNDS[:played], change("schedule", rounds=rounds)], **ROUNDS)
    assert (error.code, error.field) == ("option_value", "changes/1.rounds")
    assert error.message == (f"The number of rounds must be a whole number from {low} to 100.")


@pytest.mark.parametrize("end", [{}, {"end": "target", "target": 50}])
def test_only_a_game_of_a_number_of_rounds_has_a_schedule(end):
    assert "schedule" not in RULES.table_changes(make_setup(**end).options)
    error = refused([*TWO_ROUNDS, change("schedule", rounds=5)], **end)
    assert (error.code, error.field) == ("change_not_allowed", "changes/1.kind")


# Leavers and the end -------------------------------------------------------------------------


def test_closing_an_open_game_names_the_winners_among_the_seated():
    setup = make_setup()
    record = [rnd(10, 20, 5), change("leave", player="Ben"), scored(Ann=1, Cy=2)]
    state = RULES.play(setup, record)
    assert state.totals == {"Ann": 11, "Ben": 20, "Cy": 7}
    assert state.hands[1].players == ("Ann", "Cy")
    closed = RULES.close(setup, state)
    assert closed.finished and closed.winners == ["Ann"]
    assert closed.notices == ["Ann wins with 11."]


def test_a_target_is_reached_by_a_seated_player_after_a_round_only():
    target = {"end": "target", "target": 30}
    bonus = [rnd(10, 25, 5), change("adjust", player="Ben", points=10, note="Bonus", id=1)]
    state = play(bonus, **target)
    assert state.totals["Ben"] == 35 and not state.finished
    state = play([*bonus, scored(Ann=5, Cy=5)], **target)
    assert state.finished and state.winners == ["Ben"]
    assert state.notices == ["Ben reached 30: the game is over.", "Ben wins with 35."]
    # Ben leaves with 35: the game goes on until a seated player reaches 30.
    gone = [*bonus, change("leave", player="Ben", id=2), scored(Ann=5, Cy=5)]
    state = play(gone, **target)
    assert not state.finished and state.totals == {"Ann": 15, "Ben": 35, "Cy": 10}
    state = play([*gone, scored(Ann=20, Cy=0)], **target)
    assert state.finished and state.winners == ["Ann"]
    assert state.notices == ["Ann reached 30: the game is over.", "Ann wins with 35."]


# Refusals, in RULES.md's order ---------------------------------------------------------------


def test_every_refusal_of_a_change():
    first = [rnd(10, 20, 5)]
    twice = refused(
        [*first, change("sit_out", player="Ben", id=1), change("sit_out", player="Ben", id=2)]
    )
    assert (twice.code, twice.field) == ("option_value", "changes/2.player")
    assert refused([change("sit_out", player="Ann")], ("Ann",)).code == "player_count"
    assert refused([change("leave", player="Ann")], ("Ann",)).code == "player_count"
    twenty = NAMES[:20]
    assert refused([change("join", player="Zed")], twenty).code == "player_count"
    # A join while someone sits out counts the sitter.
    record = [change("leave", player="P1", id=1), change("sit_out", player="P2", id=2)]
    assert play([*record, change("join", player="Zed", id=3)], twenty).players[-1] == "Zed"
    record = [change("sit_out", player="P2", id=1), change("join", player="Zed", id=2)]
    assert refused(record, twenty).code == "player_count"
    stranger = refused([*first, change("sit_out", player="Zed")])
    assert (stranger.code, stranger.field) == ("not_seated", "changes/1.player")
    seated = refused([*first, change("join", player="Ben")])
    assert (seated.code, seated.field) == ("already_seated", "changes/1.player")
    gone = [*first, change("leave", player="Cy", id=1)]
    adjusted = refused([*gone, change("adjust", player="Cy", points=5, id=2)])
    assert (adjusted.code, adjusted.field) == ("not_seated", "changes/2.player")
    wrong = refused([*first, change("adjust", player="Ann", points="5")])
    assert (wrong.code, wrong.field) == ("wrong_type", "changes/1.points")
    unknown = refused([*first, change("swap", player="Ann")])
    assert (unknown.code, unknown.field) == ("option_value", "changes/1.kind")
    done = [*TWO_ROUNDS, rnd(1, 1, 1)]
    assert play(done, **ROUNDS).finished
    assert refused([*done, change("sit_out", player="Zed")], **ROUNDS).code == "game_over"


# Property: random changes interleaved --------------------------------------------------------


@st.composite
def pad_setups(draw):
    count = draw(st.integers(1, 6))
    options = draw(
        st.sampled_from(
            [
                {},
                {"winner": "lowest", "end": "rounds", "rounds": 4},
                {"end": "target", "target": 60},
                {"winner": "lowest", "end": "target", "target": 40, "dealer": True},
            ]
        )
    )
    return make_setup(NAMES[:count], draw(st.integers(0, count - 1)), **options)


def rounds(players):
    return st.fixed_dictionaries(
        {"points": st.fixed_dictionaries({name: st.integers(-20, 40) for name in players})}
    )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_a_game_with_random_changes_replays_to_the_same_state(data):
    setup = data.draw(pad_setups(), label="setup")
    game = data.draw(table_games(RULES, setup, rounds), label="game")
    check_table_game(RULES, setup, game)
    state = RULES.play(setup, game[0])
    schedules = [change["rounds"] for change in state.changes if change["kind"] == "schedule"]
    if setup.options["end"] != "rounds":
        assert not schedules
    elif state.finished:
        assert len(state.hands) == (schedules or [4])[-1]
    if state.finished:
        assert state.winners and not set(state.winners) & set(state.left)
    for hand in state.hands:
        assert set(hand.info["round_winners"]) <= set(hand.players)
