"""Wizard when the table changes mid-game (RULES.md, "Every game: the table changes
mid-game"), worked round by round: a late join that drops the rounds too big for four (and
one that would leave none), a leave that keeps the rounds and the last round's trump, a
dealer who sits out under the hook, a leaver with the best total who does not win, a
substitute and an adjustment, every refusal in RULES.md's order, and a property test that a
game with random changes folds one entry at a time to what ``play`` derives."""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from scorekeeper.games.base import GameRules
from scorekeeper.games.base import RuleError
from scorekeeper.games.base import Setup
from scorekeeper.games.base import Tally
from scorekeeper.games.table import Change
from scorekeeper.games.wizard.rules import RULES
from scorekeeper.games.wizard.rules import hook_applies
from scorekeeper.games.wizard.rules import no_trump_reason
from tests.games.oh_hell.test_rules_oh_hell_table import change
from tests.games.oh_hell.test_rules_oh_hell_table import hand as rnd
from tests.games.pitch.table_checks import assert_refused_changes_change_nothing
from tests.games.pitch.table_checks import folded
from tests.games.wizard.test_rules_wizard import FOUR
from tests.games.wizard.test_rules_wizard import NAMES
from tests.games.wizard.test_rules_wizard import THREE
from tests.games.wizard.test_rules_wizard import assert_sentence
from tests.games.wizard.test_rules_wizard import make_setup
from tests.games.wizard.test_rules_wizard import scored_rounds

FIVE = NAMES[:5]
SIX = NAMES[:6]


def play(entries, players=THREE, **options):
    return RULES.play(make_setup(players, 0, **options), entries)


def refused(entries, players=THREE, **options) -> RuleError:
    with pytest.raises(RuleError) as caught:
        play(entries, players, **options)
    for error in caught.value.errors:
        assert_sentence(error.message)
    return caught.value


# Three players (20 rounds), Ann deals round 1. Round 1: Ann makes 1 (30), Ben and Cy make 0
# (20). Round 2: Ben makes 2 (40), Ann and Cy 0 (20). Round 3: Ann makes 1 (30), Ben bids 1
# and takes 2 (-10), Cy makes 0 (20). Totals: Ann 80, Ben 50, Cy 60.
OPENING = [
    rnd(Ann=(1, 1), Ben=(0, 0), Cy=(0, 0)),
    rnd(Ann=(0, 0), Ben=(2, 2), Cy=(0, 0)),
    rnd(Ann=(1, 1), Ben=(1, 2), Cy=(0, 0)),
]


def test_the_opening_is_as_worked_out():
    state = play(OPENING)
    assert state.totals == {"Ann": 80, "Ben": 50, "Cy": 60}
    assert [h.dealer for h in state.hands] == ["Ann", "Ben", "Cy"]
    assert state.next["cards"] == 4 and state.next["total_hands"] == 20


def test_a_late_join_starts_on_the_last_place_and_drops_the_16_to_20_card_rounds():
    state = play([*OPENING, change("join", player="Dee")])
    assert state.totals["Dee"] == 50  # Ben's, the last place
    assert state.players == ["Ann", "Ben", "Cy", "Dee"]
    assert state.changes == [
        {"id": 1, "before_hand": 4, "kind": "join", "player": "Dee", "score": 50}
    ]
    # 60 // 4 = 15: the rounds of 16 to 20 cards are dropped, not shrunk.
    assert state.next["total_hands"] == 15
    assert (state.next["number"], state.next["cards"]) == (4, 4)
    # Cy dealt round 3: Dee sits after him and deals round 4; Ann bids first.
    assert state.next["dealer"] == "Dee"
    assert state.next["order"] == ["Ann", "Ben", "Cy", "Dee"]
    assert state.next["players"] == ["Ann", "Ben", "Cy", "Dee"]
    fourth = rnd(Ann=(0, 0), Ben=(0, 0), Cy=(0, 0), Dee=(4, 4))
    state = play([*OPENING, change("join", player="Dee"), fourth])
    assert state.hands[3].players == ("Ann", "Ben", "Cy", "Dee")
    assert state.hands[3].info["total_hands"] == 15
    # 20 each for the zeros made, 20 + 40 for Dee's four.
    assert state.totals == {"Ann": 100, "Ben": 70, "Cy": 80, "Dee": 110}
    assert state.hands[3].totals == state.totals
    # The three rounds before the join keep the schedule they were played with.
    assert state.hands[2].info["total_hands"] == 20


def test_a_joiner_placed_after_a_player_bids_right_after_them():
    state = play([*OPENING, change("join", player="Dee", after="Ann", score="average")])
    assert state.players == ["Ann", "Dee", "Ben", "Cy"]
    assert state.totals["Dee"] == (80 + 50 + 60) // 3  # 63, rounded down
    # Cy dealt round 3; the next after him in the circle is Ann.
    assert state.next["dealer"] == "Ann"
    assert state.next["order"] == ["Dee", "Ben", "Cy", "Ann"]


def test_after_a_join_the_last_round_deals_all_60_cards_and_has_no_trump():
    # 14 rounds with three, then Dee joins: only round 15 is left (4 x 15 = 60 cards).
    record = [*scored_rounds(14), change("join", player="Dee")]
    state = play(record)
    assert (state.next["number"], state.next["cards"], state.next["total_hands"]) == (15, 15, 15)
    assert state.next["no_trump"] is True
    assert "Round 15 is the last: every card is dealt, so there is no trump." in state.notices
    last = rnd(Ann=(15, 15), Ben=(0, 0), Cy=(0, 0), Dee=(0, 0))
    error = refused([*record, {**last, "trump": "hearts"}])
    assert (error.code, error.field, error.hand) == ("trump_invalid", "trump", 15)
    assert error.message == (
        "Every card is dealt in the last round (round 15), so no card is turned and there is "
        "no trump."
    )
    state = play([*record, last])
    assert state.finished and state.hands[14].info["no_trump"] is True


def test_joins_drop_rounds_until_one_would_leave_none():
    # After 10 rounds with three: a fourth keeps rounds 11 to 15, a fifth 11 and 12 (60 // 5),
    # a sixth none at all (60 // 6 = 10).
    record = [*scored_rounds(10), change("join", player="Dee", id=1)]
    assert play(record).next["total_hands"] == 15
    record.append(change("join", player="Eve", id=2))
    assert play(record).next["total_hands"] == 12
    error = refused([*record, change("join", player="Fay", id=3)])
    assert (error.code, error.field) == ("no_hands_left", None)
    assert error.message == "With 6 players no round still to play can be dealt."
    # After 15 rounds with three, even a fourth leaves nothing to deal.
    assert refused([*scored_rounds(15), change("join", player="Dee")]).code == "no_hands_left"


def test_after_a_leave_wizard_keeps_its_rounds_and_the_last_has_no_trump():
    # Three, Dee joins after round 3 (15 rounds), then leaves after round 13: three again,
    # still 15 rounds (a leave never adds any); round 15 deals 45 cards, yet has no trump.
    record = [*scored_rounds(3), change("join", player="Dee", id=1)]
    for cards in range(4, 14):
        record.append(rnd(Ann=(cards, cards), Ben=(0, 0), Cy=(0, 0), Dee=(0, 0)))
    record.append(change("leave", player="Dee", id=2))
    state = play(record)
    assert state.left == ["Dee"]
    assert (state.next["number"], state.next["total_hands"]) == (14, 15)
    assert state.next["no_trump"] is False  # 3 x 14 = 42 cards: a card is turned
    fourteenth = rnd(Ann=(14, 14), Ben=(0, 0), Cy=(0, 0))
    state = play([*record, {**fourteenth, "trump": "clubs"}])
    assert state.hands[13].info["trump"] == "clubs"
    assert state.next["no_trump"] is True
    assert "Round 15 is the last: it is played without trump." in state.notices
    last = rnd(Ann=(15, 15), Ben=(0, 0), Cy=(0, 0))
    error = refused([*record, fourteenth, {**last, "trump": "spades"}])
    assert (error.code, error.hand) == ("trump_invalid", 15)
    assert error.message == "Round 15 is the last round, which is played without trump."
    state = play([*record, fourteenth, last])
    assert state.finished and state.hands[14].info["no_trump"] is True


def test_the_reasons_for_no_trump():
    sizes = list(range(1, 16))
    assert no_trump_reason(4, sizes, 14) == "last_deck"  # 4 x 15 = 60, the last round
    assert no_trump_reason(3, sizes, 14) == "last"  # 45 cards, still the last round
    assert no_trump_reason(4, [*sizes, 1], 14) == "deck"  # 60 cards, a round still to come
    assert no_trump_reason(4, sizes, 13) is None


def test_a_leaver_with_the_best_total_does_not_win():
    # Four players, 15 rounds. After 13: Ann 13 x 20 + 10 x 91 = 1170, Ben -130, Cy and Dee
    # 260. Ann, who dealt round 13, leaves; Ben deals round 14, Cy round 15.
    record = [*scored_rounds(13, FOUR), change("leave", player="Ann")]
    record += [
        rnd(Ben=(0, 0), Cy=(0, 0), Dee=(14, 14)),  # Dee 20 + 140
        rnd(Ben=(0, 0), Cy=(0, 0), Dee=(15, 15)),  # Dee 20 + 150
    ]
    state = play(record, FOUR)
    assert [h.dealer for h in state.hands[12:]] == ["Ann", "Ben", "Cy"]
    assert state.hands[13].info["order"] == ["Cy", "Dee", "Ben"]
    assert state.finished
    assert state.totals == {"Ann": 1170, "Ben": -90, "Cy": 300, "Dee": 590}
    assert state.left == ["Ann"] and state.players == ["Ben", "Cy", "Dee"]
    assert state.winners == ["Dee"]
    assert state.notices == ["Dee wins with 590."]


def test_a_dealer_who_sits_out_is_passed_over_and_the_hook_follows_the_players_dealt_in():
    # Four with the hook. Round 1: everyone bids 0 (Ann, the dealer, may not bid 1) and Ben
    # takes the trick: Ben -10, the others 20. Ben would deal round 2; he sits it out, so Cy
    # deals to Ann, Cy and Dee, bidding from Dee.
    first = rnd(Ann=(0, 0), Ben=(0, 1), Cy=(0, 0), Dee=(0, 0))
    record = [first, change("sit_out", player="Ben")]
    state = play([*record, {"bids": {"Dee": 1, "Ann": 1}}], FOUR, bids_may_not_equal=True)
    assert (state.next["dealer"], state.next["players"]) == ("Cy", ["Ann", "Cy", "Dee"])
    assert state.next["order"] == ["Dee", "Ann", "Cy"]
    # Dee 1 + Ann 1 of 2 cards: Cy may not bid 0.
    assert state.next["forbidden_dealer_bid"] == 0
    assert "Cy is the dealer and may not bid 0." in state.notices
    hooked = {"bids": {"Dee": 1, "Ann": 1, "Cy": 0}}
    error = refused([*record, hooked], FOUR, bids_may_not_equal=True)
    assert (error.code, error.field, error.hand) == ("hook_violation", "bids.Cy", 2)
    # The sitter's bid is not taken; a stranger's is unknown.
    sitter = refused([*record, {"bids": {"Ben": 0, "Dee": 1}}], FOUR)
    assert (sitter.code, sitter.field) == ("not_seated", "bids.Ben")
    assert sitter.message == "Ben is not dealt into this round."
    second = rnd(Ann=(1, 1), Cy=(1, 0), Dee=(1, 1))
    stranger = refused([*record, {**second, "tricks": {**second["tricks"], "Zed": 0}}], FOUR)
    assert ("unknown_player", "tricks.Zed") in {(e.code, e.field) for e in stranger.errors}
    state = play([*record, second], FOUR, bids_may_not_equal=True)
    assert state.hands[1].players == ("Ann", "Cy", "Dee")
    assert state.hands[1].points == {"Ann": 30, "Cy": -10, "Dee": 30}
    assert state.totals == {"Ann": 50, "Ben": -10, "Cy": 10, "Dee": 50}
    # Ben is back for round 3, which Dee deals: his deal is not made up.
    assert (state.next["dealer"], state.next["players"]) == ("Dee", list(FOUR))
    assert RULES.hand_facts(make_setup(FOUR), state.hands[1])[1] == {}


def test_a_substitute_takes_the_seat_its_total_and_its_deal():
    # Three rounds of four: Ann 30 + 40 + 50 = 120, Ben -30, Cy and Dee 60.
    state = play([*scored_rounds(3, FOUR), change("substitute", player="Dee", by="Gus")], FOUR)
    assert state.players == ["Ann", "Ben", "Cy", "Gus"]
    assert state.totals == {"Ann": 120, "Ben": -30, "Cy": 60, "Gus": 60}
    assert state.left == []
    assert state.next["dealer"] == "Gus"  # Dee's seat deals round 4
    assert state.next["total_hands"] == 15


def test_an_adjustment_is_added_at_that_point_with_its_note():
    state = play([*OPENING, change("adjust", player="Cy", points=-30, note="Renege")])
    assert state.totals == {"Ann": 80, "Ben": 50, "Cy": 30}
    assert state.changes[0] == {
        "id": 1,
        "before_hand": 4,
        "kind": "adjust",
        "player": "Cy",
        "points": -30,
        "note": "Renege",
    }
    # The adjusted total is the last place a joiner starts on.
    record = [*OPENING, change("adjust", player="Cy", points=-30, id=1)]
    assert play([*record, change("join", player="Dee", id=2)]).totals["Dee"] == 30


def test_a_returning_player_rejoins_with_the_total_they_left_with():
    record = [*scored_rounds(3, FOUR), change("leave", player="Dee", id=1)]
    record.append(rnd(Ann=(4, 4), Ben=(0, 0), Cy=(0, 0)))  # Ann 60, Ben and Cy 20
    state = play([*record, change("join", player="Dee", id=2)], FOUR)
    assert state.totals == {"Ann": 180, "Ben": -10, "Cy": 80, "Dee": 60}
    assert state.left == [] and state.players == list(FOUR)
    assert state.next["total_hands"] == 15
    error = refused([*record, change("join", player="Dee", id=2, score=0)], FOUR)
    assert (error.code, error.field) == ("option_value", "changes/2.score")


@pytest.mark.parametrize(
    ("body", "code", "field"),
    [
        ({"kind": "schedule", "sizes": [4]}, "change_not_allowed", "changes/1.kind"),
        ({"kind": "swap", "player": "Ann"}, "option_value", "changes/1.kind"),
        ({"kind": "leave", "player": "Zed"}, "not_seated", "changes/1.player"),
        ({"kind": "sit_out"}, "required", "changes/1.player"),
        ({"kind": "join", "player": "Ben"}, "already_seated", "changes/1.player"),
        ({"kind": "join", "player": "Dee", "score": "most"}, "option_value", "changes/1.score"),
        ({"kind": "join", "player": "Dee", "after": "Zed"}, "not_seated", "changes/1.after"),
        ({"kind": "substitute", "player": "Ann", "by": "Cy"}, "already_seated", "changes/1.by"),
        ({"kind": "adjust", "player": "Ann", "points": 0}, "option_value", "changes/1.points"),
        ({"kind": "adjust", "player": "Ann", "points": 1.5}, "wrong_type", "changes/1.points"),
        ({"kind": "adjust", "player": "Zed", "points": 5}, "not_seated", "changes/1.player"),
        (
            {"kind": "adjust", "player": "Ann", "points": 5, "note": "x" * 201},
            "text_too_long",
            "changes/1.note",
        ),
    ],
)
def test_a_change_with_a_problem_of_its_own_is_refused(body, code, field):
    error = refused([*OPENING, Change(body, 1)])
    assert (error.code, error.field) == (code, field)


def test_the_table_s_own_refusals_in_order():
    bids_only = {"bids": {"Ann": 0, "Ben": 0, "Cy": 0}}
    assert refused([OPENING[0], bids_only, change("leave", player="Ann")]).code == (
        "hand_in_progress"
    )
    # Three players: one leaving or sitting out leaves two to deal to.
    assert refused([*OPENING, change("leave", player="Ann")]).code == "player_count"
    assert refused([*OPENING, change("sit_out", player="Ann")]).code == "player_count"
    # Six seated: a seventh may not join, even while one of them sits out.
    assert refused([change("join", player="Gus")], SIX).code == "player_count"
    record = [change("sit_out", player="Ann", id=1), change("join", player="Fay", id=2)]
    state = play(record, FIVE)
    assert state.next["players"] == ["Ben", "Cy", "Dee", "Eve", "Fay"]
    assert state.next["total_hands"] == 10  # 60 // 6, the sitter counted
    assert refused([*record, change("join", player="Gus", id=3)], FIVE).code == "player_count"
    ended = scored_rounds(20)
    assert play(ended).finished
    assert refused([*ended, change("adjust", player="Ann", points=5)]).code == "game_over"


# Property: random changes interleaved ---------------------------------------------------------

#: The players a random change may name: the table's, and two newcomers.
POOL = (*NAMES, "Hal", "Ivy")


def random_change(draw: Callable[[Any], Any], kinds: Sequence[str], sides: Sequence[str]) -> dict:
    """A change of one of ``kinds`` naming anyone of ``POOL`` (or, for an adjustment, a side
    of ``sides``): often refused, which is the point."""
    kind = draw(st.sampled_from(kinds))
    player = draw(st.sampled_from(POOL))
    if kind == "join":
        score = draw(st.sampled_from([None, "last", "zero", "average", -40, 75]))
        after = draw(st.sampled_from([None, *POOL]))
        return {"kind": kind, "player": player, "score": score, "after": after}
    if kind == "substitute":
        return {"kind": kind, "player": player, "by": draw(st.sampled_from(POOL))}
    if kind == "adjust":
        side = draw(st.sampled_from([*sides, player]))
        return {"kind": kind, "player": side, "points": draw(st.sampled_from([-50, 10, 0]))}
    return {"kind": kind, "player": player}


def check_random_changes(
    rules: GameRules,
    setup: Setup,
    data: st.DataObject,
    legal_hand: Callable[[Tally, Callable[[Any], Any]], dict],
    kinds: Sequence[str],
    entries: int,
) -> None:
    """Build a record of whole hands and random changes, one entry at a time: a refused
    change leaves the tally's state as it was and stays out of the record. The record folded
    one entry at a time is what ``play`` derives, and each refused change, put back where it
    was tried, leaves the record as it stood (``table_checks``)."""
    tally = rules.begin(setup)
    record: list[Any] = []
    tried: list[tuple[int, Change]] = []
    for id in range(1, entries + 1):
        if tally.finished:
            break
        if data.draw(st.booleans(), label="a change"):
            body = random_change(data.draw, kinds, rules.sides_now(tally))
            entry: Any = Change({k: v for k, v in body.items() if v is not None}, id)
            before = rules._state(tally)
            try:
                rules._fold(tally, entry, last=True)
            except RuleError:
                assert rules._state(tally) == before
                tried.append((len(record), entry))
                continue
        else:
            entry = legal_hand(tally, data.draw)
            rules._fold(tally, entry, last=True)
        record.append(entry)
    assert folded(rules, setup, record) == rules._state(tally)
    assert_refused_changes_change_nothing(rules, setup, record, tried[-3:])


def legal_round(tally: Tally, draw: Callable[[Any], Any]) -> dict:
    """A whole round for the players dealt in (the hook kept when it applies)."""
    deal = tally.seating.deal(len(tally.hands) + 1, tally.options)
    cards = tally.sizes[len(tally.hands)]
    players = deal.players
    bids = {name: draw(st.integers(0, cards)) for name in players}
    if hook_applies(tally.options, cards) and sum(bids.values()) == cards:
        bids[deal.dealer] = draw(
            st.sampled_from([bid for bid in range(cards + 1) if bid != bids[deal.dealer]])
        )
    takers = draw(st.lists(st.sampled_from(players), min_size=cards, max_size=cards))
    return {"bids": bids, "tricks": {name: takers.count(name) for name in players}}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_a_game_with_random_changes_replays_to_the_same_state(data):
    count = data.draw(st.integers(3, 6), label="players")
    players = NAMES[:count]
    setup = make_setup(
        players,
        data.draw(st.integers(0, count - 1), label="first dealer"),
        bids_may_not_equal=data.draw(st.booleans(), label="hook"),
    )
    kinds = ("join", "leave", "sit_out", "substitute", "adjust", "schedule")
    check_random_changes(RULES, setup, data, legal_round, kinds, entries=30)
