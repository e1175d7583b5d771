"""Spades when the table changes mid-game (RULES.md, "Every game: the table changes
mid-game"), worked hand by hand: a substitute renames the team by its players in seat order
while earlier hands keep the name they had, the team's bags go with it, an adjustment names
the team as it is now and counts for blind nil's "100 behind" but never ends the game, every
other change is not allowed, and a property test of random changes interleaved with hands."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from scorekeeper.games.base import RuleError
from scorekeeper.games.spades.rules import RULES
from scorekeeper.games.table import Change
from tests.games.oh_hell.test_rules_oh_hell_table import change
from tests.games.oh_hell.test_rules_oh_hell_table import hand
from tests.games.spades.test_rules_spades import AC
from tests.games.spades.test_rules_spades import BD
from tests.games.spades.test_rules_spades import FOUR
from tests.games.spades.test_rules_spades import legal_hands
from tests.games.spades.test_rules_spades import make_setup
from tests.games.wizard.test_rules_wizard import assert_sentence
from tests.games.wizard.test_rules_wizard_table import check_random_changes

EC = "Eve & Cy"


def play(entries, **options):
    return RULES.play(make_setup(FOUR, 0, **options), entries)


def refused(entries, **options) -> RuleError:
    with pytest.raises(RuleError) as caught:
        play(entries, **options)
    for error in caught.value.errors:
        assert_sentence(error.message)
    return caught.value


# Hand 1, Ann deals: Ann 3 + Cy 2 bid 5 and take 3 + 3 = 6: 50 + 1 (a bag); Ben 4 + Dee 3
# bid 7 and take 4 + 3: 70.
FIRST = hand(Ann=(3, 3), Ben=(4, 4), Cy=(2, 3), Dee=(3, 3))


def test_a_substitute_renames_the_team_by_its_players_in_seat_order():
    state = play([FIRST, change("substitute", player="Ann", by="Eve")])
    assert state.sides == [EC, BD]
    assert state.teams == [["Eve", "Cy"], ["Ben", "Dee"]]
    assert state.players == ["Eve", "Ben", "Cy", "Dee"]
    assert state.totals == {EC: 51, BD: 70}
    assert state.next["bags"] == {EC: 1, BD: 0}
    assert state.left == []
    # Hand 1 keeps the name the team had.
    assert state.hands[0].points == {AC: 51, BD: 70}
    assert state.hands[0].totals == {AC: 51, BD: 70}
    # Ben deals hand 2; Eve bids in Ann's seat, after Dee.
    assert state.next["dealer"] == "Ben"
    assert state.next["order"] == ["Cy", "Dee", "Eve", "Ben"]
    assert state.next["players"] == ["Eve", "Ben", "Cy", "Dee"]
    # Hand 2: Eve 4 + Cy 4 bid 8 and take 5 + 4 = 9: 81 (a bag, 2 now); Ben 3 + Dee 2 bid 5
    # and take 3 + 1 = 4: -50.
    second = hand(Eve=(4, 5), Ben=(3, 3), Cy=(4, 4), Dee=(2, 1))
    state = play([FIRST, change("substitute", player="Ann", by="Eve"), second])
    assert state.hands[1].players == ("Eve", "Ben", "Cy", "Dee")
    assert state.hands[1].points == {EC: 81, BD: -50}
    assert state.totals == {EC: 132, BD: 20}
    assert state.hands[1].info["bags_total"] == {EC: 2, BD: 0}
    assert state.hands[1].info["order"] == ["Cy", "Dee", "Eve", "Ben"]
    assert RULES.standing_note(state, EC) == "2 bags"


def test_the_seat_deals_whoever_holds_it():
    # Ben's seat deals hand 2; Gus has it now.
    state = play([FIRST, change("substitute", player="Ben", by="Gus")])
    assert state.sides == [AC, "Gus & Dee"]
    assert (state.next["dealer"], state.next["order"]) == ("Gus", ["Cy", "Dee", "Ann", "Gus"])


def test_a_player_who_handed_over_the_seat_is_not_dealt_in():
    record = [FIRST, change("substitute", player="Ann", by="Eve")]
    error = refused([*record, hand(Ann=(4, 5), Ben=(3, 3), Cy=(4, 4), Dee=(2, 1))])
    found = {(problem.code, problem.field) for problem in error.errors}
    assert {("not_seated", "bids.Ann"), ("missing_bid", "bids.Eve")} <= found
    assert error.hand == 2
    blind = refused(
        [*record, {**hand(Eve=(4, 5), Ben=(3, 3), Cy=(4, 4), Dee=(2, 1)), "blind_nil": ["Ann"]}],
        blind_nil=True,
    )
    assert (blind.code, blind.field) == ("not_seated", "blind_nil.0")
    stranger = refused([*record, {"bids": {"Zed": 1}}])
    assert ("unknown_player", "bids.Zed") in {(p.code, p.field) for p in stranger.errors}


def test_the_bags_a_team_carries_go_with_its_new_name():
    # Hand 1: Ann 1 + Cy 1 bid 2 and take 6 + 5 = 11: 20 + 9, 9 bags; Ben 1 + Dee 1 make 2: 20.
    first = hand(Ann=(1, 6), Ben=(1, 1), Cy=(1, 5), Dee=(1, 1))
    record = [first, change("substitute", player="Ann", by="Eve")]
    state = play(record)
    assert state.next["bags"] == {EC: 9, BD: 0}
    assert RULES.standing_note(state, EC) == "9 bags"
    # Hand 2: Eve 2 + Cy 2 bid 4 and take 3 + 3 = 6: 40 + 2, and 9 + 2 = 11 bags cost 100
    # (1 left): -58; Ben 3 + Dee 4 make 7: 70.
    state = play([*record, hand(Eve=(2, 3), Ben=(3, 3), Cy=(2, 3), Dee=(4, 4))])
    assert state.hands[1].points == {EC: -58, BD: 70}
    assert state.hands[1].info["bag_penalty"] == {EC: -100, BD: 0}
    assert state.totals == {EC: 29 - 58, BD: 20 + 70}
    assert state.hands[0].info["bags_total"] == {AC: 9, BD: 0}
    assert state.hands[1].info["bags_total"] == {EC: 1, BD: 0}
    assert "Eve & Cy reached 10 bags in hand 2: 100 points off, 1 bag carried over." in (
        state.notices
    )
    assert RULES.standing_note(state, EC) == "1 bag"


def test_an_adjustment_names_the_team_as_it_is_now():
    record = [FIRST, change("substitute", player="Ann", by="Eve", id=1)]
    state = play([*record, change("adjust", player=EC, points=-20, note="Renege", id=2)])
    assert state.totals == {EC: 31, BD: 70}
    assert state.changes[1] == {
        "id": 2,
        "before_hand": 2,
        "kind": "adjust",
        "player": EC,
        "points": -20,
        "note": "Renege",
    }
    for name in (AC, "Eve", "Ann", "Ben"):
        error = refused([*record, change("adjust", player=name, points=-20, id=2)])
        assert (error.code, error.field) == ("not_seated", "changes/2.player")


def test_blind_nil_s_100_behind_counts_the_adjustments():
    # After hand 1 Ann & Cy are 19 behind (51 to 70): no blind nil. A penalty of 100 puts them
    # 119 behind.
    assert play([FIRST], blind_nil=True).next["blind_nil_allowed"] == {AC: False, BD: False}
    record = [FIRST, change("adjust", player=AC, points=-100)]
    state = play(record, blind_nil=True)
    assert state.totals == {AC: -49, BD: 70}
    assert state.next["blind_nil_allowed"] == {AC: True, BD: False}
    # Hand 2: Ann blind nil and takes none (+200), Cy bids 5 and takes 5 (50): 250; Ben 4 +
    # Dee 3 bid 7 and take 4 + 4 = 8: 71.
    second = {**hand(Ann=(0, 0), Ben=(4, 4), Cy=(5, 5), Dee=(3, 4)), "blind_nil": ["Ann"]}
    state = play([*record, second], blind_nil=True)
    assert state.hands[1].points == {AC: 250, BD: 71}
    assert state.totals == {AC: 201, BD: 141}
    error = refused([FIRST, second], blind_nil=True)
    assert error.code == "blind_nil_not_allowed"


def test_an_adjustment_never_ends_the_game_by_itself():
    record = [FIRST, change("adjust", player=AC, points=460)]
    state = play(record)
    assert state.totals == {AC: 511, BD: 70}
    assert not state.finished and state.next["number"] == 2
    # Hand 2: Ann 4 + Cy 4 make 8 with 9 (81); Ben 3 + Dee 2 are set (-50): 592 to 20.
    state = play([*record, hand(Ann=(4, 5), Ben=(3, 3), Cy=(4, 4), Dee=(2, 1))])
    assert state.finished and state.winners == [AC]
    assert state.notices[-1] == "Ann & Cy win with 592 to 20."
    # Set out by a penalty: still the hand decides.
    state = play([FIRST, change("adjust", player=BD, points=-300)])
    assert state.totals[BD] == -230 and not state.finished
    error = refused([*record, state.hands[0].input, change("adjust", player=AC, points=5, id=2)])
    assert error.code == "game_over"


@pytest.mark.parametrize(
    "body",
    [
        {"kind": "join", "player": "Eve"},
        {"kind": "leave", "player": "Ann"},
        {"kind": "sit_out", "player": "Ann"},
        {"kind": "schedule", "sizes": [13]},
    ],
)
def test_every_other_change_is_not_allowed(body):
    error = refused([FIRST, Change(body, 1)])
    assert (error.code, error.field) == ("change_not_allowed", "changes/1.kind")


def test_a_substitute_s_own_refusals_and_the_table_s():
    seated = refused([FIRST, change("substitute", player="Ann", by="Ben")])
    assert (seated.code, seated.field) == ("already_seated", "changes/1.by")
    away = refused([FIRST, change("substitute", player="Zed", by="Eve")])
    assert (away.code, away.field) == ("not_seated", "changes/1.player")
    nobody = refused([FIRST, change("substitute", player="Ann")])
    assert (nobody.code, nobody.field) == ("required", "changes/1.by")
    bids_only = {"bids": {"Ann": 3, "Ben": 4, "Cy": 2, "Dee": 3}}
    assert refused([bids_only, change("substitute", player="Ann", by="Eve")]).code == (
        "hand_in_progress"
    )
    # Ann, who handed over, may take a seat again as a newcomer.
    record = [
        FIRST,
        change("substitute", player="Ann", by="Eve", id=1),
        change("substitute", player="Dee", by="Ann", id=2),
    ]
    state = play(record)
    assert state.sides == [EC, "Ben & Ann"]
    assert state.totals == {EC: 51, "Ben & Ann": 70}


def test_the_seats_facts_and_csv_follow_who_held_each_seat():
    second = hand(Eve=(4, 5), Ben=(3, 3), Cy=(4, 4), Dee=(2, 1))
    state = play([FIRST, change("substitute", player="Ann", by="Eve"), second])
    setup = make_setup()
    facts = RULES.hand_facts(setup, state.hands[1])
    assert facts[0] == {"contracts": 1, "contracts_made": 1, "bags": 1}  # Eve, in Ann's seat
    assert RULES.csv_cells(setup, state.hands[1]) == [
        *(4, 5, 3, 3, 4, 4, 2, 1),
        None,
        *(8, True, 1, 2),
        *(5, False, 0, 0),
    ]


def legal_hand(tally, draw) -> dict:
    """A whole hand for the four seats as they are now."""
    drawn = draw(legal_hands())
    players = tally.seated
    return {
        key: {players[seat]: drawn[key][name] for seat, name in enumerate(FOUR)}
        for key in ("bids", "tricks")
    }


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_a_game_with_random_changes_replays_to_the_same_state(data):
    setup = make_setup(FOUR, data.draw(st.integers(0, 3), label="first dealer"), target=250)
    kinds = ("substitute", "adjust", "join", "leave", "sit_out")
    check_random_changes(RULES, setup, data, legal_hand, kinds, entries=25)
