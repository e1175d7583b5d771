"""Oh Hell when the table changes mid-game (RULES.md, "Every game: the table changes
mid-game"), worked hand by hand: a late join that drops the hands too big for five, a dealer
who sits out, a leaver with the best total who does not win, a correction that moves a `last`
starting total, the schedule, and every refusal in RULES.md's order."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from scorekeeper.games.base import RuleError
from scorekeeper.games.oh_hell.rules import RULES
from scorekeeper.games.table import Change
from tests.games.oh_hell.test_rules_oh_hell import FOUR
from tests.games.oh_hell.test_rules_oh_hell import THREE
from tests.games.oh_hell.test_rules_oh_hell import assert_sentence
from tests.games.oh_hell.test_rules_oh_hell import make_setup


def play(entries, players=FOUR, **options):
    return RULES.play(make_setup(players, 0, **options), entries)


def refused(entries, players=FOUR, **options) -> RuleError:
    with pytest.raises(RuleError) as caught:
        play(entries, players, **options)
    assert_sentence(caught.value.message)
    return caught.value


def hand(**said: tuple[int, int]) -> dict:
    """``hand(Ann=(bid, tricks), ...)``: a whole hand of the players dealt in."""
    return {
        "bids": {name: bid for name, (bid, _) in said.items()},
        "tricks": {name: tricks for name, (_, tricks) in said.items()},
    }


def change(kind: str, id: int = 1, **body) -> Change:
    return Change({"kind": kind, **body}, id)


# Four players, sequence up to 13: Ann deals hand 1; after three hands Ann 33, Ben 31, Cy 32,
# Dee 20 (Dee missed hand 3).
OPENING = [
    hand(Ann=(0, 0), Ben=(1, 1), Cy=(0, 0), Dee=(0, 0)),
    hand(Ann=(0, 0), Ben=(0, 0), Cy=(2, 2), Dee=(0, 0)),
    hand(Ann=(3, 3), Ben=(0, 0), Cy=(0, 0), Dee=(1, 0)),
]


def test_the_opening_is_as_worked_out():
    state = play(OPENING)
    assert state.totals == {"Ann": 33, "Ben": 31, "Cy": 32, "Dee": 20}
    assert [h.dealer for h in state.hands] == ["Ann", "Ben", "Cy"]
    assert state.next["cards"] == 4 and state.next["total_hands"] == 13


def test_a_late_join_starts_on_the_last_place_and_drops_the_11_to_13_card_hands():
    state = play([*OPENING, change("join", player="Eve")])
    assert state.totals["Eve"] == 20  # Dee's, the last place
    assert state.players == ["Ann", "Ben", "Cy", "Dee", "Eve"]
    assert state.changes == [
        {"id": 1, "before_hand": 4, "kind": "join", "player": "Eve", "score": 20}
    ]
    # 52 // 5 = 10: the hands of 11, 12 and 13 cards are dropped, not shrunk.
    assert state.next["total_hands"] == 10
    assert state.next["cards"] == 4
    # The deal passes on to Dee (after Cy), and Eve bids last but one, right after Dee.
    assert state.next["dealer"] == "Dee"
    assert state.next["order"] == ["Eve", "Ann", "Ben", "Cy", "Dee"]
    assert state.next["players"] == ["Ann", "Ben", "Cy", "Dee", "Eve"]

    fourth = hand(Ann=(0, 0), Ben=(0, 0), Cy=(0, 0), Dee=(2, 2), Eve=(2, 2))
    state = play([*OPENING, change("join", player="Eve"), fourth])
    assert state.hands[3].players == ("Ann", "Ben", "Cy", "Dee", "Eve")
    assert state.totals == {"Ann": 43, "Ben": 41, "Cy": 42, "Dee": 32, "Eve": 32}
    assert state.hands[3].totals == state.totals


def test_a_joiner_placed_after_a_player_sits_and_bids_right_after_them():
    state = play([*OPENING, change("join", player="Eve", after="Ann", score="average")])
    assert state.players == ["Ann", "Eve", "Ben", "Cy", "Dee"]
    assert state.totals["Eve"] == (33 + 31 + 32 + 20) // 4  # 29, rounded down
    assert state.next["order"] == ["Ann", "Eve", "Ben", "Cy", "Dee"]  # Dee deals


@pytest.mark.parametrize(("score", "start"), [("zero", 0), (-7, -7), (25, 25)])
def test_a_joiner_may_start_on_zero_or_a_typed_total(score, start):
    state = play([*OPENING, change("join", player="Eve", score=score)])
    assert state.totals["Eve"] == start


def test_a_dealer_who_sits_out_is_passed_over_and_loses_the_deal():
    # Ben would deal hand 2: he sits it out, so Cy deals it among Ann, Cy and Dee.
    first = hand(Ann=(0, 0), Ben=(1, 1), Cy=(0, 0), Dee=(0, 0))
    state = play([first, change("sit_out", player="Ben")])
    assert (state.next["dealer"], state.next["players"]) == ("Cy", ["Ann", "Cy", "Dee"])
    assert state.next["order"] == ["Dee", "Ann", "Cy"]
    second = hand(Ann=(0, 0), Cy=(2, 2), Dee=(0, 0))
    state = play([first, change("sit_out", player="Ben"), second])
    assert state.hands[1].players == ("Ann", "Cy", "Dee")
    assert state.hands[1].points == {"Ann": 10, "Cy": 12, "Dee": 10}
    assert state.totals["Ben"] == 11  # 0 for the hand he sat out
    # Back for hand 3, which Dee deals: Ben's deal is not made up.
    assert (state.next["dealer"], state.next["players"]) == ("Dee", list(FOUR))


def test_a_sitter_s_bid_is_not_taken():
    first = hand(Ann=(0, 0), Ben=(1, 1), Cy=(0, 0), Dee=(0, 0))
    error = refused(
        [first, change("sit_out", player="Ben"), hand(Ann=(0, 0), Ben=(0, 0), Cy=(2, 2))]
    )
    assert error.hand == 2
    assert {(problem.code, problem.field) for problem in error.errors} >= {
        ("not_seated", "bids.Ben")
    }
    stranger = refused([first, hand(Ann=(0, 0), Ben=(0, 0), Cy=(2, 2), Zed=(0, 0))])
    assert ("unknown_player", "bids.Zed") in {(p.code, p.field) for p in stranger.errors}


def test_a_leaver_with_the_best_total_does_not_win():
    # Hands of 13 cards and 1 card: Ann makes 13 (23) and leaves with the best total.
    opening = hand(Ann=(13, 13), Ben=(0, 0), Cy=(0, 0), Dee=(0, 0))
    last = hand(Ben=(1, 1), Cy=(0, 0), Dee=(0, 0))
    record = [opening, change("leave", player="Ann"), last]
    state = play(record, sequence="custom", custom_sizes=[13, 1])
    assert state.finished
    assert state.totals == {"Ann": 23, "Ben": 21, "Cy": 20, "Dee": 20}
    assert state.left == ["Ann"]
    assert state.players == ["Ben", "Cy", "Dee"]
    assert state.winners == ["Ben"]
    assert state.hands[1].players == ("Ben", "Cy", "Dee")
    assert state.hands[1].dealer == "Ben"  # the first dealt in after Ann, who dealt hand 1


def test_a_correction_of_hand_2_moves_a_last_starting_total():
    join = change("join", player="Eve")
    state = play([*OPENING[:2], join])
    assert state.totals["Eve"] == 20  # Ann and Dee share the last place after hand 2
    corrected = hand(Ann=(0, 1), Ben=(0, 0), Cy=(2, 1), Dee=(0, 0))  # Ann and Cy miss
    state = play([OPENING[0], corrected, join])
    assert state.totals == {"Ann": 10, "Ben": 21, "Cy": 10, "Dee": 20, "Eve": 10}
    assert state.changes[0]["score"] == 10


def test_a_substitute_takes_the_seat_and_its_total():
    state = play([*OPENING, change("substitute", player="Dee", by="Gus")])
    assert state.players == ["Ann", "Ben", "Cy", "Gus"]
    assert state.totals == {"Ann": 33, "Ben": 31, "Cy": 32, "Gus": 20}
    assert state.left == []
    assert state.next["dealer"] == "Gus"  # Dee's seat deals hand 4


def test_an_adjustment_is_added_at_that_point_with_its_note():
    state = play([*OPENING, change("adjust", player="Ann", points=-10, note="Renege")])
    assert state.totals["Ann"] == 23
    assert state.changes[0] == {
        "id": 1,
        "before_hand": 4,
        "kind": "adjust",
        "player": "Ann",
        "points": -10,
        "note": "Renege",
    }


def test_a_returning_player_rejoins_with_the_total_they_left_with():
    state = play(
        [*OPENING, change("leave", player="Dee", id=1), change("join", player="Dee", id=2)]
    )
    assert state.totals["Dee"] == 20
    assert state.left == []
    assert state.players == list(FOUR)
    error = refused(
        [
            *OPENING,
            change("leave", player="Dee", id=1),
            change("join", player="Dee", id=2, score="zero"),
        ]
    )
    assert (error.code, error.field) == ("option_value", "changes/2.score")


def test_the_schedule_adds_resizes_and_ends():
    state = play([*OPENING, change("schedule", sizes=[4, 1])])
    assert state.next["total_hands"] == 5
    after = [*OPENING, change("schedule", sizes=[4, 1])]
    state = play([*after, hand(Ann=(4, 4), Ben=(0, 0), Cy=(0, 0), Dee=(0, 0))])
    assert state.next["cards"] == 1
    # The last hand of the schedule as it stands is played without trump (the default).
    assert state.next["no_trump"] is True
    state = play([*OPENING, change("schedule", sizes=[])])
    assert state.finished and state.winners == ["Ann"]


def test_every_refusal_of_a_change_in_order():
    bids_only = {"bids": {"Ann": 0, "Ben": 0, "Cy": 0, "Dee": 0}}
    assert refused([OPENING[0], bids_only, change("leave", player="Ann")]).code == (
        "hand_in_progress"
    )
    unknown = refused([*OPENING, change("swap", player="Ann")])
    assert (unknown.code, unknown.field) == ("option_value", "changes/1.kind")
    stranger = refused([*OPENING, change("leave", player="Zed")])
    assert (stranger.code, stranger.field) == ("not_seated", "changes/1.player")
    seated = refused([*OPENING, change("join", player="Ben")])
    assert (seated.code, seated.field) == ("already_seated", "changes/1.player")
    typed = refused([*OPENING, change("join", player="Eve", score="most")])
    assert typed.code == "option_value"
    zero = refused([*OPENING, change("adjust", player="Ann", points=0)])
    assert (zero.code, zero.field) == ("option_value", "changes/1.points")
    long_note = refused([*OPENING, change("adjust", player="Ann", points=5, note="x" * 201)])
    assert long_note.code == "text_too_long"
    # Three players: one leaving leaves two to deal to.
    opening3 = hand(Ann=(0, 0), Ben=(1, 1), Cy=(0, 0))
    assert refused([opening3, change("leave", player="Ann")], THREE).code == "player_count"
    assert refused([opening3, change("sit_out", player="Ann")], THREE).code == "player_count"
    # Seven seated: an eighth may not join.
    seven = ("Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus")
    assert refused([change("join", player="Hal")], seven).code == "player_count"
    # 13-card hands only: a fifth player leaves no hand that can be dealt.
    big = refused([change("join", player="Eve")], sequence="custom", custom_sizes=[13, 13])
    assert big.code == "no_hands_left"
    assert refused([change("schedule", sizes=[])]).code == "custom_sizes_invalid"
    assert refused([*OPENING, change("schedule", sizes=[14])]).code == "custom_sizes_invalid"
    ended = [*OPENING, change("schedule", sizes=[], id=1)]
    assert refused([*ended, change("leave", player="Ann", id=2)]).code == "game_over"


def test_a_change_before_hand_1_and_a_join_while_someone_sits_out():
    state = play([change("sit_out", player="Ann")])
    # Ann was to deal hand 1: the first player dealt in after her deals it.
    assert (state.next["dealer"], state.next["players"]) == ("Ben", ["Ben", "Cy", "Dee"])
    # Six seated, one of them sitting out: a seventh fits; an eighth would not.
    six = ("Ann", "Ben", "Cy", "Dee", "Eve", "Fay")
    record = [change("sit_out", player="Ann", id=1), change("join", player="Gus", id=2)]
    state = play(record, six)
    assert state.players == [*six, "Gus"]
    assert state.next["players"] == [*six[1:], "Gus"]
    assert refused([*record, change("join", player="Hal", id=3)], six).code == "player_count"


# Property: a game with random changes replays to the same state ------------------------------

ROSTER = ("Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida")


@st.composite
def records(draw):
    """A random record the rules take, hands and changes mixed, and a random entry more
    (taken or refused)."""
    count = draw(st.integers(3, 5))
    setup = make_setup(ROSTER[:count], draw(st.integers(0, count - 1)), hook=draw(st.booleans()))
    record: list = []
    for step in range(draw(st.integers(1, 12))):
        state = RULES.play(setup, record)
        if state.finished:
            break
        candidate = draw(entries(state, step))
        try:
            RULES.play(setup, [*record, candidate])
        except RuleError:
            continue
        record.append(candidate)
    state = RULES.play(setup, record)
    extra = draw(entries(state, 99)) if not state.finished else change("leave", 99, player="Ann")
    return setup, record, extra


@st.composite
def entries(draw, state, step):
    upcoming = state.next
    seated = state.players
    if upcoming is not None and draw(st.booleans()):
        players, cards = upcoming["players"], upcoming["cards"]
        takers = draw(st.lists(st.sampled_from(players), min_size=cards, max_size=cards))
        return {
            "bids": {name: draw(st.integers(0, cards)) for name in players},
            "tricks": {name: takers.count(name) for name in players},
        }
    kind = draw(st.sampled_from(["join", "leave", "sit_out", "substitute", "adjust", "schedule"]))
    someone = draw(st.sampled_from(seated))
    newcomer = draw(st.sampled_from(ROSTER))
    if kind == "join":
        score = draw(st.sampled_from(["last", "zero", "average", 7, None]))
        body = {"player": newcomer, "after": draw(st.sampled_from([None, someone]))}
        return change("join", step, **body, **({} if score is None else {"score": score}))
    if kind == "substitute":
        return change("substitute", step, player=someone, by=newcomer)
    if kind == "adjust":
        return change("adjust", step, player=someone, points=draw(st.integers(-20, 20)))
    if kind == "schedule":
        sizes = draw(st.lists(st.integers(1, 10), max_size=4))
        return change("schedule", step, sizes=sizes)
    return change(kind, step, player=someone)


@settings(max_examples=60, deadline=None)
@given(records())
def test_a_game_with_random_changes_replays_to_the_same_state(drawn):
    setup, record, extra = drawn
    state = RULES.play(setup, record)
    # Folded one entry at a time, with the state taken on the way, the same state.
    tally = RULES.begin(setup)
    for index, entry in enumerate(record):
        RULES._fold(tally, entry, last=index == len(record) - 1)
        RULES._state(tally)
    assert RULES._state(tally) == state
    # Every hand's totals: the hand's points added to what came before it (starting totals
    # and adjustments included), and each side's total is the last hand's or a change's.
    for hand in state.hands:
        assert set(hand.points or {}) <= set(hand.players)
    # One entry more: taken, it is play of the longer record; refused, nothing changed.
    try:
        longer = RULES.replay(setup, [*record, extra], record, len(record))
    except RuleError as refused:
        assert refused.kept_state == state
    else:
        assert longer == RULES.play(setup, [*record, extra])
    # The record stored and read back by seat gives the same state.
    assert RULES.play(setup, list(record)) == state


def test_a_dealer_who_leaves_and_comes_back_before_the_next_hand():
    # Ann deals hand 1, leaves and comes back (after Dee): the deal passes on to Ben.
    first = OPENING[0]
    record = [first, change("leave", 1, player="Ann"), change("join", 2, player="Ann")]
    state = play(record)
    assert state.players == ["Ben", "Cy", "Dee", "Ann"]
    assert state.next["dealer"] == "Ben"
    assert state.totals["Ann"] == 10
