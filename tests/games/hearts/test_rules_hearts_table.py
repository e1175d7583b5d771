"""Hearts when the table changes mid-game (RULES.md, "Every game: the table changes
mid-game", and "Hearts"), worked hand by hand: a join that changes the passing cycle (issue
20), a leave that shortens it, a leaver with the lowest total who does not win, a joiner's
`last` starting total (the highest: the lowest total wins), a substitute, an adjustment that
never ends the game, and every refusal in RULES.md's order. Then a property: a game with
random changes interleaved replays to the state it was folded to, and a refused change
changes nothing."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from scorekeeper.games.base import RuleError
from scorekeeper.games.hearts.rules import RULES
from scorekeeper.games.hearts.rules import passing_for
from scorekeeper.games.table import KINDS
from scorekeeper.games.table import Change
from tests.games.hearts.test_rules_hearts import FOUR
from tests.games.hearts.test_rules_hearts import NAMES
from tests.games.hearts.test_rules_hearts import legal_hands
from tests.games.hearts.test_rules_hearts import make_setup
from tests.games.hearts.test_rules_hearts import play
from tests.games.hearts.test_rules_hearts import refusal as refused

THREE = FOUR[:3]


def codes(error: RuleError) -> set[tuple[str, str]]:
    return {(problem.code, problem.field) for problem in error.errors}


def taken(**points: int) -> dict:
    """A hand: the points each player dealt in took."""
    return {"points": points}


def change(kind: str, id: int = 1, **body) -> Change:
    return Change({"kind": kind, **body}, id)


# The passing cycle follows the players in the hand, counted by hand number ----------------

# Three players, Ann deals hand 1: Ann 5, Ben 19, Cy 28 after two hands.
THREE_OPENING = [taken(Ann=5, Ben=13, Cy=8), taken(Ann=0, Ben=6, Cy=20)]


def test_a_join_before_hand_3_of_three_makes_hand_3_across():
    """Issue 20: a Hearts join that changes the passing cycle."""
    state = play(THREE_OPENING, THREE)
    # Three players: left, right, none.
    assert [h.info["passing"] for h in state.hands] == ["left", "right"]
    assert state.next["passing"] == "none"
    assert state.notices == ["Hand 3: no passing, keep your cards."]

    record = [*THREE_OPENING, change("join", player="Dee")]
    state = play(record, THREE)
    # `last` where the lowest total wins: the highest total, Cy's 28.
    assert state.totals == {"Ann": 5, "Ben": 19, "Cy": 28, "Dee": 28}
    assert state.changes == [
        {"id": 1, "before_hand": 3, "kind": "join", "player": "Dee", "score": 28}
    ]
    # Four players in hand 3: place 2 of left, right, across, none.
    assert state.next == {
        "number": 3,
        "dealer": "Cy",  # after Ben, who dealt hand 2
        "order": ["Dee", "Ann", "Ben", "Cy"],
        "passing": "across",
        "players": ["Ann", "Ben", "Cy", "Dee"],
    }
    assert state.notices == ["Hand 3: pass three cards across."]

    record += [taken(Ann=1, Ben=2, Cy=3, Dee=20), taken(Ann=13, Ben=4, Cy=4, Dee=5)]
    state = play(record, THREE)
    third, fourth = state.hands[2:]
    assert (third.players, third.dealer, third.info["passing"]) == (
        ("Ann", "Ben", "Cy", "Dee"),
        "Cy",
        "across",
    )
    assert (fourth.dealer, fourth.info["passing"]) == ("Dee", "none")
    assert third.totals == {"Ann": 6, "Ben": 21, "Cy": 31, "Dee": 48}
    assert state.totals == {"Ann": 19, "Ben": 25, "Cy": 35, "Dee": 53}
    assert (state.next["number"], state.next["dealer"], state.next["passing"]) == (5, "Ann", "left")


def test_a_leave_before_hand_3_of_four_makes_hand_3_a_keeper():
    opening = [taken(Ann=3, Ben=13, Cy=6, Dee=4), taken(Ann=0, Ben=20, Cy=1, Dee=5)]
    assert play(opening).next["passing"] == "across"
    state = play([*opening, change("leave", player="Dee")])
    # Three players in hand 3: place 2 of left, right, none.
    assert state.next["passing"] == "none"
    assert state.next["players"] == ["Ann", "Ben", "Cy"]
    state = play([*opening, change("leave", player="Dee"), taken(Ann=13, Ben=0, Cy=13)])
    assert state.hands[2].info["passing"] == "none"
    assert state.hands[2].players == ("Ann", "Ben", "Cy")
    assert state.hands[2].dealer == "Cy"
    # Hand 4 with three players is place 0 of their cycle: left; the deal skips Dee's place.
    assert (state.next["passing"], state.next["dealer"]) == ("left", "Ann")


def test_the_points_of_a_hand_add_to_26_for_five_and_six_players():
    five = [change("join", player="Eve", id=1)]
    state = play([*five, taken(Ann=13, Ben=4, Cy=4, Dee=4, Eve=1)])
    assert state.hands[0].players == ("Ann", "Ben", "Cy", "Dee", "Eve")
    assert state.totals["Eve"] == 1  # joined before hand 1 with `last`: 0
    short = refused([*five, taken(Ann=13, Ben=4, Cy=4, Dee=4, Eve=0)])
    assert (short.code, short.hand) == ("points_sum_mismatch", 1)
    missing = refused([*five, taken(Ann=13, Ben=4, Cy=5, Dee=4)])
    assert codes(missing) == {("missing_points", "points.Eve")}
    six = [*five, change("join", player="Fay", id=2)]
    # Fay takes all 26: the moon, shot among six.
    state = play([*six, taken(Ann=0, Ben=0, Cy=0, Dee=0, Eve=0, Fay=26)])
    assert state.hands[0].points == {"Ann": 26, "Ben": 26, "Cy": 26, "Dee": 26, "Eve": 26, "Fay": 0}
    assert state.hands[0].info["passing"] == "left"


# The end and the winners among the seated ----------------------------------------------------


def test_a_leaver_with_the_lowest_total_does_not_win():
    record = [
        taken(Ann=0, Ben=13, Cy=6, Dee=7),
        change("leave", player="Ann"),
        taken(Ben=13, Cy=13, Dee=0),  # dealt by Ben, passed right (three players)
        taken(Ben=24, Cy=2, Dee=0),  # Ben reaches 50
    ]
    state = play(record, target=50)
    assert [h.dealer for h in state.hands] == ["Ann", "Ben", "Cy"]
    assert [h.info["passing"] for h in state.hands] == ["left", "right", "none"]
    assert state.totals == {"Ann": 0, "Ben": 50, "Cy": 21, "Dee": 7}
    assert state.finished and state.left == ["Ann"]
    assert state.players == ["Ben", "Cy", "Dee"]
    assert state.winners == ["Dee"]  # Ann's 0 is lower, but Ann left
    assert state.notices == ["Ben reached 50: Dee wins with the lowest total, 7."]


def test_an_adjustment_never_ends_the_game_and_a_leaver_over_the_target_ends_nothing():
    first = taken(Ann=0, Ben=13, Cy=6, Dee=7)
    penalty = change("adjust", player="Ben", points=40, note="Renege", id=1)
    state = play([first, penalty], target=50)
    assert state.totals["Ben"] == 53 and not state.finished
    assert state.next["number"] == 2
    # Checked after hand 2: Ben, seated, is over 50.
    state = play([first, penalty, taken(Ann=3, Ben=0, Cy=10, Dee=13)], target=50)
    assert state.finished and state.winners == ["Ann"]
    assert state.totals == {"Ann": 3, "Ben": 53, "Cy": 16, "Dee": 20}
    assert state.notices == ["Ben reached 50: Ann wins with the lowest total, 3."]
    # Ben leaves with 53: nobody seated reached 50, the game goes on.
    record = [first, penalty, change("leave", player="Ben", id=2), taken(Ann=3, Cy=10, Dee=13)]
    state = play(record, target=50)
    assert not state.finished and state.winners == []
    assert state.totals == {"Ann": 3, "Ben": 53, "Cy": 16, "Dee": 20}
    assert state.next["number"] == 3


# Joins, substitutes, returns -----------------------------------------------------------------

# Four players: Ann 3, Ben 33, Cy 7, Dee 9 after two hands (Ben dealt hand 2).
FOUR_OPENING = [taken(Ann=3, Ben=13, Cy=6, Dee=4), taken(Ann=0, Ben=20, Cy=1, Dee=5)]


def test_a_joiner_s_last_starting_total_is_the_highest():
    assert RULES.low_wins({}) is True
    state = play([*FOUR_OPENING, change("join", player="Eve")])
    assert state.totals["Eve"] == 33  # Ben's, the last place where the lowest wins
    assert state.low_wins is True and state.leaders() == ["Ann"]


def test_a_joiner_on_the_average_counts_the_adjustments_and_sits_after_the_named_player():
    record = [
        *FOUR_OPENING,
        change("adjust", player="Cy", points=-3, id=1),  # Cy 4: the totals add to 49
        change("join", player="Eve", after="Ann", score="average", id=2),
    ]
    state = play(record)
    assert state.totals["Eve"] == 12  # 49 / 4 = 12.25, rounded down
    assert state.players == ["Ann", "Eve", "Ben", "Cy", "Dee"]
    # Cy deals hand 3 (after Ben); five players: place 2 of left, right, none.
    assert state.next["dealer"] == "Cy"
    assert state.next["order"] == ["Dee", "Ann", "Eve", "Ben", "Cy"]
    assert state.next["passing"] == "none"


@pytest.mark.parametrize(("score", "start"), [("zero", 0), (-7, -7), (120, 120)])
def test_a_joiner_may_start_on_zero_or_a_typed_total_which_ends_nothing(score, start):
    state = play([*FOUR_OPENING, change("join", player="Eve", score=score)])
    assert state.totals["Eve"] == start
    assert not state.finished


def test_a_joiner_placed_after_the_last_dealer_deals_next():
    record = [FOUR_OPENING[0], change("join", player="Eve", after="Ann")]
    state = play(record)
    assert state.next["dealer"] == "Eve"
    assert state.next["order"] == ["Ben", "Cy", "Dee", "Ann", "Eve"]
    assert state.next["passing"] == "right"


def test_a_correction_of_hand_1_moves_a_last_starting_total():
    join = change("join", player="Eve")
    assert play([FOUR_OPENING[0], join]).totals["Eve"] == 13  # Ben's
    state = play([taken(Ann=16, Ben=0, Cy=6, Dee=4), join])
    assert state.totals["Eve"] == 16  # now Ann's
    assert state.changes[0]["score"] == 16


def test_a_substitute_takes_the_seat_and_its_total():
    first = taken(Ann=3, Ben=13, Cy=6, Dee=4)
    record = [first, change("substitute", player="Dee", by="Gus")]
    state = play(record)
    assert state.totals == {"Ann": 3, "Ben": 13, "Cy": 6, "Gus": 4}
    assert state.sides == state.players == ["Ann", "Ben", "Cy", "Gus"]
    assert state.left == []
    assert (state.next["dealer"], state.next["order"]) == ("Ben", ["Cy", "Gus", "Ann", "Ben"])
    state = play([*record, taken(Ann=0, Ben=13, Cy=0, Gus=13)])
    assert state.totals["Gus"] == 17
    # Dee, who handed the seat over, may come back as a newcomer.
    state = play([*record, change("join", player="Dee", score="zero", id=2)])
    assert state.totals["Dee"] == 0
    assert state.players == ["Ann", "Ben", "Cy", "Gus", "Dee"]


def test_a_returning_player_rejoins_with_the_total_they_left_with():
    record = [*FOUR_OPENING, change("leave", player="Dee", id=1)]
    state = play([*record, change("join", player="Dee", id=2)])
    assert state.totals["Dee"] == 9
    assert state.left == [] and state.players == list(FOUR)
    error = refused([*record, change("join", player="Dee", id=2, score="last")])
    assert (error.code, error.field) == ("option_value", "changes/2.score")


def test_a_hand_names_only_the_players_dealt_in():
    first = taken(Ann=3, Ben=13, Cy=6, Dee=4)
    record = [first, change("substitute", player="Dee", by="Gus")]
    error = refused([*record, taken(Ann=0, Ben=13, Cy=0, Dee=13)])
    assert error.hand == 2
    assert codes(error) == {("not_seated", "points.Dee"), ("missing_points", "points.Gus")}
    stranger = refused([*record, taken(Ann=0, Ben=13, Cy=0, Gus=13, Zed=0)])
    assert codes(stranger) == {("unknown_player", "points.Zed")}
    # The jack of diamonds named for Dee, who is no longer dealt in.
    jack = {**taken(Ann=0, Ben=13, Cy=0, Gus=13), "jack_of_diamonds": "Dee"}
    error = refused([*record, jack], jack_of_diamonds=True)
    assert codes(error) == {("not_seated", "jack_of_diamonds")}
    jack["jack_of_diamonds"] = "Zed"
    error = refused([*record, jack], jack_of_diamonds=True)
    assert codes(error) == {("unknown_player", "jack_of_diamonds")}


def test_a_leaver_s_statistics_and_csv_cells_skip_the_hands_they_were_not_dealt():
    setup = make_setup(FOUR)
    record = [FOUR_OPENING[0], change("leave", player="Ann"), taken(Ben=13, Cy=13, Dee=0)]
    state = RULES.play(setup, record)
    assert RULES.hand_facts(setup, state.hands[1]) == [
        {},
        {"points_taken": 13},
        {"points_taken": 13},
        {"clean_hands": 1},
    ]
    assert RULES.csv_cells(setup, state.hands[1]) == ["Pass right", None, None, 13, 13, 0]


# Refusals, in RULES.md's order ---------------------------------------------------------------


def test_every_refusal_of_a_change():
    for kind in ("sit_out", "schedule"):
        error = refused([*FOUR_OPENING, change(kind, player="Ann", rounds=3)])
        assert (error.code, error.field) == ("change_not_allowed", "changes/1.kind")
    # change_not_allowed comes before the change's own problems.
    assert refused([change("sit_out", player="Zed")]).code == "change_not_allowed"
    unknown = refused([*FOUR_OPENING, change("swap", player="Ann")])
    assert (unknown.code, unknown.field) == ("option_value", "changes/1.kind")
    stranger = refused([*FOUR_OPENING, change("leave", player="Zed")])
    assert (stranger.code, stranger.field) == ("not_seated", "changes/1.player")
    seated = refused([*FOUR_OPENING, change("join", player="Ben")])
    assert (seated.code, seated.field) == ("already_seated", "changes/1.player")
    taken_over = refused([*FOUR_OPENING, change("substitute", player="Ann", by="Ben")])
    assert (taken_over.code, taken_over.field) == ("already_seated", "changes/1.by")
    gone = [*FOUR_OPENING, change("leave", player="Dee", id=1)]
    back_in = refused([*gone, change("substitute", player="Ann", by="Dee", id=2)])
    assert (back_in.code, back_in.field) == ("option_value", "changes/2.by")
    adjusted = refused([*gone, change("adjust", player="Dee", points=5, id=2)])
    assert (adjusted.code, adjusted.field) == ("not_seated", "changes/2.player")
    for points, code in ((0, "option_value"), (1001, "option_value"), ("5", "wrong_type")):
        error = refused([*FOUR_OPENING, change("adjust", player="Ann", points=points)])
        assert (error.code, error.field) == (code, "changes/1.points")
    long_note = refused([*FOUR_OPENING, change("adjust", player="Ann", points=5, note="x" * 201)])
    assert long_note.code == "text_too_long"
    # Three players: one leaving leaves two; six seated: a seventh may not join.
    assert refused([change("leave", player="Ann")], THREE).code == "player_count"
    six = NAMES[:6]
    assert refused([change("join", player="Gus")], six).code == "player_count"
    # The change's own problems come before player_count.
    assert refused([change("join", player="Ann")], six).code == "already_seated"
    # A finished game takes no change (game_over first of all).
    over = [taken(Ann=0, Ben=26, Cy=0, Dee=0)] * 2  # Ben shoots twice: 52 for the others
    assert play(over, target=50).winners == ["Ben"]
    for late in (change("join", player="Eve"), change("sit_out", player="Zed")):
        assert refused([*over, late], target=50).code == "game_over"


def test_a_dealer_who_leaves_and_comes_back_before_the_next_hand():
    record = [
        FOUR_OPENING[0],  # Ann deals
        change("leave", player="Ann", id=1),
        change("join", player="Ann", id=2),
    ]
    state = play(record)
    # Ann sits at the end again: Ben, after Ann's old place, deals hand 2.
    assert state.players == ["Ben", "Cy", "Dee", "Ann"]
    assert state.next["dealer"] == "Ben"


# Property: random changes interleaved --------------------------------------------------------

#: Everyone a random change may name: the players of the largest table, two more, a stranger.
POOL = (*NAMES, "Hal", "Zed")


def someone(tally, seated: bool):
    """Mostly a seated player (``seated``) or mostly someone not seated (a newcomer, a
    player who left); anyone now and then."""
    pool = sorted({*POOL, *tally.seating.members})
    likely = [name for name in pool if (name in tally.seated) == seated]
    return st.one_of(st.sampled_from(likely or pool), st.sampled_from(pool))


@st.composite
def changes(draw, tally, id: int) -> Change:
    """Any change (allowed or not, sound or not), mostly naming whom it could name."""
    kind = draw(st.sampled_from([*KINDS, "swap"]), label="kind")
    body = {"kind": kind, "player": draw(someone(tally, kind != "join"), label="player")}
    if kind == "join":
        body["score"] = draw(st.sampled_from([None, "last", "zero", "average", -40, 75]))
        body["after"] = draw(st.sampled_from([None, *tally.seated, "Zed"]))
    elif kind == "substitute":
        body["by"] = draw(someone(tally, False), label="by")
    elif kind == "adjust":
        body["points"] = draw(st.sampled_from([-30, -1, 0, 1, 13, 1001]))
    elif kind == "schedule":
        body["rounds"] = draw(st.integers(0, 12))
    return Change(body, id)


@st.composite
def table_games(draw, rules, setup, hands, length: int = 14):
    """A record of ``setup`` folded entry by entry: each entry a hand for the players dealt in
    (``hands(players)``) or a random change; the changes the rules refused are kept apart as
    ``(position, change)``. Returns the record, the refused changes and the folded tally."""
    tally = rules.begin(setup)
    record: list = []
    refusals: list = []
    for id in range(draw(st.integers(0, length), label="length")):
        if tally.finished:
            break
        if draw(st.booleans(), label="a change"):
            entry = draw(changes(tally, id))
        else:
            entry = draw(hands(list(tally.next_deal().players)))
        try:
            rules._fold(tally, entry, last=True)
        except RuleError:
            assert isinstance(entry, Change), entry
            refusals.append((len(record), entry))
            continue
        record.append(entry)
    return record, refusals, tally


def check_table_game(rules, setup, game) -> None:
    """``play`` of the record is its fold one entry at a time, and each refused change, put
    back where it was tried, is refused again with the state of the record without it."""
    record, refusals, tally = game
    state = rules.play(setup, record)
    assert state == rules._state(tally)
    for position, entry in refusals:
        attempt = [*record[:position], entry, *record[position:]]
        with pytest.raises(RuleError) as caught:
            rules.replay(setup, attempt, record, position)
        assert caught.value.kept_state == rules.play(setup, record)
    for hand in state.hands:
        assert set(hand.points) == set(hand.players)
    assert set(state.totals) == set(state.sides)
    assert set(state.players) | set(state.left) <= set(state.sides)


@st.composite
def hearts_setups(draw):
    count = draw(st.integers(3, 6))
    options = {
        "target": draw(st.sampled_from([50, 100])),
        "jack_of_diamonds": draw(st.booleans()),
        "passing": draw(st.sampled_from(["standard", "none"])),
    }
    return make_setup(NAMES[:count], draw(st.integers(0, count - 1)), **options)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_a_game_with_random_changes_replays_to_the_same_state(data):
    setup = data.draw(hearts_setups(), label="setup")

    def hands(players):
        drawn = legal_hands(players)
        if setup.options["jack_of_diamonds"]:
            return drawn
        return drawn.map(lambda entry: {"points": entry["points"]})

    game = data.draw(table_games(RULES, setup, hands), label="game")
    check_table_game(RULES, setup, game)
    state = RULES.play(setup, game[0])
    for hand in state.hands:
        assert sum(hand.info["taken"].values()) == 26
        assert hand.info["passing"] == passing_for(
            hand.number, len(hand.players), setup.options["passing"]
        )
    assert all(change["kind"] not in ("sit_out", "schedule") for change in state.changes)
    if state.finished:
        assert state.winners and not set(state.winners) & set(state.left)
