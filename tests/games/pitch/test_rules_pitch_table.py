"""Auction Pitch when the table changes mid-game (RULES.md, "Every game: the table changes
mid-game"), worked hand by hand: playing alone a joiner bids and deals in turn, a dealer who
sits out is passed over (and the dealer after them is stuck), a leaver drops out of the
notices, a joiner or an adjustment at the target still has to pitch to win; in partnerships
only a substitute (the team renamed by its current players) and an adjustment of the current
team. Every refusal in RULES.md's order, and a property test: random changes interleaved with
hands replay to the same state, and a refused one changes nothing."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from scorekeeper.games.base import RuleError
from scorekeeper.games.base import Setup
from scorekeeper.games.pitch.rules import RULES
from scorekeeper.games.table import Change
from tests.games.pitch.table_checks import assert_refused_changes_change_nothing
from tests.games.pitch.table_checks import folded
from tests.games.pitch.test_rules_pitch import FOUR
from tests.games.pitch.test_rules_pitch import NAMES
from tests.games.pitch.test_rules_pitch import THREE
from tests.games.pitch.test_rules_pitch import auction
from tests.games.pitch.test_rules_pitch import auctions
from tests.games.pitch.test_rules_pitch import high_bidder
from tests.games.pitch.test_rules_pitch import pitched
from tests.games.pitch.test_rules_pitch import play
from tests.games.pitch.test_rules_pitch import points
from tests.games.pitch.test_rules_pitch import refused
from tests.games.pitch.test_rules_pitch import scored_points
from tests.games.pitch.test_rules_pitch import tables


def change(kind: str, id: int = 1, **body: Any) -> Change:
    return Change({"kind": kind, **body}, id)


def teams(*entries: Any):
    return play(list(entries), FOUR, partnerships=True)


def teams_refused(*entries: Any) -> RuleError:
    return refused(list(entries), FOUR, partnerships=True)


# Three players, Ann deals hand 1 (Ben, Cy, Ann bid). Ben pitches 2 and takes High and Low,
# Cy the Jack, Ann the Game: Ann 1, Ben 2, Cy 1.
FIRST = pitched("Ben", 2, high="Ben", low="Ben", jack="Cy", game="Ann")


# Playing alone ------------------------------------------------------------------------------


def test_a_joiner_starts_on_the_last_place_and_bids_in_turn_after_the_last_seat():
    state = play([FIRST, change("join", player="Dee")])
    assert state.totals == {"Ann": 1, "Ben": 2, "Cy": 1, "Dee": 1}  # Dee: the last place's
    assert state.changes == [
        {"id": 1, "before_hand": 2, "kind": "join", "player": "Dee", "score": 1}
    ]
    assert state.players == ["Ann", "Ben", "Cy", "Dee"]
    # The deal passes to Ben; Dee sits after Cy, so bids second.
    assert state.next["dealer"] == "Ben"
    assert state.next["order"] == ["Cy", "Dee", "Ann", "Ben"]
    assert state.next["players"] == ["Ann", "Ben", "Cy", "Dee"]
    # Hand 2: Cy passes, Dee bids 2, Ann passes, Ben (the dealer) steals at 2; Dee takes
    # High, Ben Low and Game: Ben makes 2 (4), Dee 1 (2).
    second = {
        **auction(("Cy", "pass"), ("Dee", 2), ("Ann", "pass"), ("Ben", 2)),
        **points(high="Dee", low="Ben", game="Ben"),
    }
    state = play([FIRST, change("join", player="Dee"), second])
    hand = state.hands[1]
    assert hand.players == ("Ann", "Ben", "Cy", "Dee")
    assert (hand.dealer, hand.info["pitcher"], hand.info["stolen"]) == ("Ben", "Ben", True)
    assert hand.points == {"Ann": 0, "Ben": 2, "Cy": 0, "Dee": 1}
    assert state.totals == {"Ann": 1, "Ben": 4, "Cy": 1, "Dee": 2}
    assert hand.totals == state.totals
    assert (state.next["dealer"], state.next["order"]) == ("Cy", ["Dee", "Ann", "Ben", "Cy"])


def test_a_joiner_placed_after_a_player_bids_right_after_them():
    state = play([FIRST, change("join", player="Dee", after="Ann", score="average")])
    assert state.players == ["Ann", "Dee", "Ben", "Cy"]
    assert state.totals["Dee"] == (1 + 2 + 1) // 3  # 1, rounded down
    # Ann dealt hand 1: the first dealt in after her is Dee, who deals hand 2 (bids last).
    assert (state.next["dealer"], state.next["order"]) == ("Dee", ["Ben", "Cy", "Ann", "Dee"])
    # An auction in the order without Dee (Ben dealing) is out of turn now.
    error = refused(
        [
            FIRST,
            change("join", player="Dee", after="Ann"),
            auction(("Cy", "pass"), ("Ann", 2), ("Dee", "pass"), ("Ben", "pass")),
        ]
    )
    assert (error.code, error.field, error.hand) == ("bid_invalid", "auction.0", 2)


@pytest.mark.parametrize(("score", "start"), [("zero", 0), ("last", 1), (-3, -3), (12, 12)])
def test_a_joiner_may_start_on_zero_the_last_place_or_a_typed_total(score, start):
    state = play([FIRST, change("join", player="Dee", score=score)])
    assert state.totals["Dee"] == start


def test_the_cards_in_play_grow_with_a_joiner_and_shrink_with_a_sitter():
    # Three dealt in hold 18 cards, at most 78 game points; four hold all 80.
    counts = {"Ann": 40, "Ben": 39}
    hand = pitched("Ben", 2, high="Ben", low="Ben", game_points=counts)
    assert refused([hand]).code == "game_points_invalid"
    state = play([change("join", player="Dee"), hand])
    assert state.hands[0].info["won"]["Ben"] == ["high", "low"]  # Ann's 40 take Game
    assert state.hands[0].points == {"Ann": 1, "Ben": 2, "Cy": 0, "Dee": 0}
    error = refused([change("sit_out", player="Cy"), hand], FOUR)
    assert (error.code, error.hand) == ("game_points_invalid", 1)


def test_a_dealer_who_sits_out_is_passed_over_and_the_next_dealer_is_stuck():
    # Four players: Ann deals hand 1; Ben would deal hand 2 but sits it out.
    first = pitched("Ben", 2, high="Ben", low="Ben")
    record = [first, change("sit_out", player="Ben")]
    state = play(record, FOUR)
    assert state.next["dealer"] == "Cy"
    assert state.next["players"] == ["Ann", "Cy", "Dee"]
    assert state.next["order"] == ["Dee", "Ann", "Cy"]
    # Everyone passes to Cy, who deals: stick the dealer.
    stuck = refused([*record, auction(("Dee", "pass"), ("Ann", "pass"), ("Cy", "pass"))], FOUR)
    assert (stuck.code, stuck.field, stuck.hand) == ("dealer_must_bid", "auction.2", 2)
    # Dee bids 2, Ann passes, Cy steals: Cy takes High and Low (2), Dee the Game (1).
    second = {
        **auction(("Dee", 2), ("Ann", "pass"), ("Cy", 2)),
        **points(high="Cy", low="Cy", game="Dee"),
    }
    state = play([*record, second], FOUR)
    hand = state.hands[1]
    assert hand.players == ("Ann", "Cy", "Dee")
    assert hand.points == {"Ann": 0, "Cy": 2, "Dee": 1}
    assert state.totals == {"Ann": 0, "Ben": 2, "Cy": 2, "Dee": 1}  # Ben: 0 for hand 2
    # Ben is back for hand 3, dealt by Dee: his lost deal is not made up.
    assert state.next["dealer"] == "Dee"
    assert state.next["order"] == ["Ann", "Ben", "Cy", "Dee"]


def test_a_sitter_named_in_the_hand_is_not_seated_and_a_stranger_unknown():
    record = [pitched("Ben", 2, high="Ben", low="Ben"), change("sit_out", player="Ben")]
    error = refused([*record, pitched("Cy", 2, high="Ben", low="Cy", jack="Zed")], FOUR)
    assert error.hand == 2
    assert {(p.code, p.field) for p in error.errors} == {
        ("not_seated", "high"),
        ("unknown_player", "jack"),
    }
    for entry, field in [
        (pitched("Ben", 2), "pitcher"),
        (auction(("Ben", "pass"), ("Dee", 2), ("Ann", "pass"), ("Cy", 2)), "auction.0"),
        (pitched("Cy", 2, high="Cy", game_points={"Ben": 10, "Cy": 20}), "game_points.Ben"),
    ]:
        error = refused([*record, entry], FOUR)
        assert (error.code, error.field) == ("not_seated", field)


def test_a_leaver_keeps_the_total_and_the_deal_passes_over_the_empty_seat():
    # Dee, at 10 after an adjustment, leaves: her total stays; she is no longer told to pitch.
    record = [
        pitched("Ben", 2, high="Ben", low="Ben"),
        change("adjust", id=1, player="Dee", points=10, note="Bet"),
    ]
    state = play(record, FOUR)
    assert state.notices == ["Dee has 10 but must pitch to win."]
    record.append(change("leave", id=2, player="Dee"))
    state = play(record, FOUR)
    assert state.left == ["Dee"]
    assert state.players == ["Ann", "Ben", "Cy"]
    assert state.totals == {"Ann": 0, "Ben": 2, "Cy": 0, "Dee": 10}
    assert state.notices == []
    assert (state.next["dealer"], state.next["order"]) == ("Ben", ["Cy", "Ann", "Ben"])
    # Ben deals hand 2 and Cy hand 3; Ann, after the empty seat, deals hand 4.
    hands = [pitched("Cy", 1, high="Cy", low="Ann"), pitched("Ann", 1, high="Ann", low="Ann")]
    state = play([*record, *hands], FOUR)
    assert [hand.dealer for hand in state.hands] == ["Ann", "Ben", "Cy"]
    assert state.next["dealer"] == "Ann"
    # A leaver's name in a later hand is not_seated; they come back with the total they had.
    error = refused([*record, pitched("Dee", 2)], FOUR)
    assert (error.code, error.field) == ("not_seated", "pitcher")
    state = play([*record, change("join", id=3, player="Dee")], FOUR)
    assert (state.totals["Dee"], state.left, state.players) == (10, [], list(FOUR))


def test_a_substitute_takes_over_the_seat_its_total_and_its_deal():
    state = play([FIRST, change("substitute", player="Ben", by="Eve")])
    assert state.players == ["Ann", "Eve", "Cy"]
    assert state.totals == {"Ann": 1, "Eve": 2, "Cy": 1}
    assert state.sides == ["Ann", "Eve", "Cy"]
    assert state.hands[0].points == {"Ann": 1, "Ben": 2, "Cy": 1}  # hand 1 keeps Ben
    assert (state.next["dealer"], state.next["order"]) == ("Eve", ["Cy", "Ann", "Eve"])
    assert state.left == []


def test_an_adjustment_at_the_target_wins_nothing_until_the_player_pitches():
    # Cy is adjusted to 7, the target: not the end; a set back below it, then a pitch made.
    record = [FIRST, change("adjust", player="Cy", points=6)]
    state = play(record)
    assert (state.finished, state.totals["Cy"]) == (False, 7)
    assert state.notices == ["Cy has 7 but must pitch to win."]
    # Hand 2 (Ben deals): Cy pitches 2 and takes only High: set back to 5; Ann takes Low.
    record.append(pitched("Cy", 2, high="Cy", low="Ann"))
    state = play(record)
    assert (state.finished, state.totals) == (False, {"Ann": 2, "Ben": 2, "Cy": 5})
    # Hand 3 (Cy deals): Cy pitches 2 and takes High and Low: 7, the pitcher at the target.
    record.append(pitched("Cy", 2, high="Cy", low="Cy"))
    state = play(record)
    assert (state.finished, state.winners, state.totals["Cy"]) == (True, ["Cy"], 7)


def test_a_joiner_above_the_target_wins_only_as_the_pitcher_even_when_set_back():
    # Dee joins before hand 1 on a typed 10 (target 7): not the end.
    record = [change("join", player="Dee", score=10)]
    state = play(record)
    assert not state.finished
    assert state.notices == ["Dee has 10 but must pitch to win."]
    # Hand 1 (Ann deals; Ben, Cy, Dee, Ann bid): Ben makes 2.
    record.append(pitched("Ben", 2, high="Ben", low="Ben"))
    assert not play(record).finished
    # Hand 2 (Ben deals): Dee pitches 2, takes only Low: set back to 8, still at the target.
    record.append(pitched("Dee", 2, high="Ann", low="Dee"))
    state = play(record)
    assert (state.finished, state.winners) == (True, ["Dee"])
    assert state.totals == {"Ann": 1, "Ben": 2, "Cy": 0, "Dee": 8}
    assert state.notices == ["Dee was set back but still has 8, enough to win as the pitcher."]


# Partnerships -------------------------------------------------------------------------------

# Ann & Cy against Ben & Dee; Ann deals hand 1. Ben pitches 2: Dee takes High, Ben Low (2 for
# Ben & Dee, made), Cy the Jack and Ann the Game (2 for Ann & Cy).
TEAM_FIRST = pitched("Ben", 2, high="Dee", low="Ben", jack="Cy", game="Ann")


def test_a_substitute_renames_the_team_and_earlier_hands_keep_their_name():
    state = teams(TEAM_FIRST, change("substitute", player="Cy", by="Eve"))
    assert state.sides == ["Ann & Eve", "Ben & Dee"]
    assert state.teams == [["Ann", "Eve"], ["Ben", "Dee"]]
    assert state.totals == {"Ann & Eve": 2, "Ben & Dee": 2}
    assert state.hands[0].points == {"Ann & Cy": 2, "Ben & Dee": 2}
    assert state.hands[0].totals == {"Ann & Cy": 2, "Ben & Dee": 2}
    assert state.players == ["Ann", "Ben", "Eve", "Dee"]
    assert (state.next["dealer"], state.next["order"]) == ("Ben", ["Eve", "Dee", "Ann", "Ben"])
    # Hand 2 (Ben deals): Eve pitches 3 and her side takes High, Low and Jack: 3 more.
    second = pitched("Eve", 3, high="Eve", low="Ann", jack="Eve", game="Dee")
    state = teams(TEAM_FIRST, change("substitute", player="Cy", by="Eve"), second)
    assert state.hands[1].points == {"Ann & Eve": 3, "Ben & Dee": 1}
    assert state.hands[1].info["pitcher_side"] == "Ann & Eve"
    assert state.totals == {"Ann & Eve": 5, "Ben & Dee": 3}
    # Cy is no longer dealt in.
    error = teams_refused(TEAM_FIRST, change("substitute", player="Cy", by="Eve"), pitched("Cy", 2))
    assert (error.code, error.field) == ("not_seated", "pitcher")


def test_a_team_is_named_by_its_players_in_seat_order():
    # Zed takes Ann's seat (seat 1): "Zed & Cy", not "Cy & Zed".
    state = teams(TEAM_FIRST, change("substitute", player="Ann", by="Zed"))
    assert state.sides == ["Zed & Cy", "Ben & Dee"]
    assert state.totals == {"Zed & Cy": 2, "Ben & Dee": 2}


def test_an_adjustment_names_the_current_team_and_never_wins_by_itself():
    swap = change("substitute", id=1, player="Cy", by="Eve")
    state = teams(TEAM_FIRST, swap, change("adjust", id=2, player="Ann & Eve", points=10))
    assert state.totals == {"Ann & Eve": 12, "Ben & Dee": 2}
    assert not state.finished
    assert state.notices == ["Ann & Eve have 12 but one of them must pitch to win."]
    for name in ("Ann & Cy", "Eve", "Ann"):
        error = teams_refused(TEAM_FIRST, swap, change("adjust", id=2, player=name, points=10))
        assert (error.code, error.field) == ("not_seated", "changes/2.player")


@pytest.mark.parametrize(
    "body",
    [
        {"kind": "join", "player": "Eve"},
        {"kind": "leave", "player": "Ann"},
        {"kind": "sit_out", "player": "Ann"},
        {"kind": "schedule", "sizes": [6]},
    ],
)
def test_partnerships_take_no_roster_change_but_a_substitute(body):
    error = teams_refused(TEAM_FIRST, Change(body, 4))
    assert (error.code, error.field) == ("change_not_allowed", "changes/4.kind")


def test_the_changes_allowed_depend_on_the_partnerships():
    assert RULES.table_changes({"partnerships": True}) == ("substitute", "adjust")
    assert RULES.table_changes({"partnerships": False}) == (
        "join",
        "leave",
        "sit_out",
        "substitute",
        "adjust",
    )


# Every refusal, in RULES.md's order -----------------------------------------------------------


def test_every_refusal_of_a_change():
    bidding = pitched("Ben", 2)
    assert refused([bidding, change("leave", player="Ann")]).code == "hand_in_progress"
    # Ben pitches 4 and takes all four (4), is adjusted to 7 (not the end), then wins hand 2.
    sweep = pitched("Ben", 4, high="Ben", low="Ben", jack="Ben", game="Ben")
    over = [sweep, change("adjust", player="Ben", points=3, id=1)]
    assert not play(over).finished
    over.append(sweep)
    assert (play(over).finished, play(over).totals["Ben"]) == (True, 11)
    assert refused([*over, change("leave", player="Ann", id=2)]).code == "game_over"
    assert refused([FIRST, change("schedule", sizes=[6])]).code == "change_not_allowed"
    unknown = refused([FIRST, change("swap", player="Ann")])
    assert (unknown.code, unknown.field) == ("option_value", "changes/1.kind")
    stranger = refused([FIRST, change("leave", player="Zed")])
    assert (stranger.code, stranger.field) == ("not_seated", "changes/1.player")
    assert refused([FIRST, change("join", player="Ben")]).code == "already_seated"
    by_seated = refused([FIRST, change("substitute", player="Ann", by="Cy")])
    assert (by_seated.code, by_seated.field) == ("already_seated", "changes/1.by")
    twice = [change("sit_out", player="Ann", id=1), change("sit_out", player="Ann", id=2)]
    assert refused(twice).code == "option_value"
    assert refused([FIRST, change("adjust", player="Ann", points=0)]).code == "option_value"
    assert refused([FIRST, change("adjust", player="Ann", points="3")]).code == "wrong_type"
    two = ("Ann", "Ben")
    assert refused([change("leave", player="Ann")], two).code == "player_count"
    assert refused([change("sit_out", player="Ann")], two).code == "player_count"
    assert refused([change("join", player="Hal")], NAMES).code == "player_count"
    # Six seated, one sitting out: a seventh fits; an eighth would not.
    six = NAMES[:6]
    record = [change("sit_out", player="Ann", id=1), change("join", player="Hal", id=2)]
    assert play(record, six).next["players"] == [*six[1:], "Hal"]
    assert refused([*record, change("join", player="Ivy", id=3)], six).code == "player_count"


def test_a_refused_change_derives_the_record_as_it_stands():
    kept = [FIRST, change("join", player="Dee", id=1)]
    attempt = [*kept, change("join", player="Dee", id=2)]
    with pytest.raises(RuleError) as caught:
        RULES.replay(_setup(THREE), attempt, kept, 2)
    assert caught.value.code == "already_seated"
    assert caught.value.kept_state == RULES.play(_setup(THREE), kept)


def _setup(players, **options) -> Setup:
    return Setup(tuple(players), RULES.resolve_options(options, len(players)), 0)


# Random changes interleaved with hands --------------------------------------------------------

NEWCOMERS = ("Hal", "Ivy", "Jo")


@st.composite
def changes(draw, state, id: int) -> Change:
    """Any change, legal or not, naming the players of ``state`` (or strangers)."""
    known = [*state.players, *state.left, *NEWCOMERS, "Zed"]
    # Mostly names that fit the kind, so that most changes are taken; any name now and then.
    seated = st.sampled_from(state.players) | st.sampled_from(known)
    coming = st.sampled_from([*state.left, *NEWCOMERS]) | st.sampled_from(known)
    kind = draw(st.sampled_from(["join", "leave", "sit_out", "substitute", "adjust", "swap"]))
    body: dict[str, Any] = {"kind": kind, "player": draw(coming if kind == "join" else seated)}
    if kind == "join":
        if draw(st.booleans()):
            body["after"] = draw(seated)
        body["score"] = draw(st.sampled_from([None, "last", "zero", "average", -4, 9]))
    elif kind == "substitute":
        body["by"] = draw(coming)
    elif kind == "adjust":
        if state.teams is not None and draw(st.booleans()):
            body["player"] = draw(st.sampled_from(state.sides))
        body["points"] = draw(st.sampled_from([-3, 2, 5, 0, 2000]))
    return Change(body, id)


@st.composite
def games_with_changes(draw):
    """A game of legal hands with random changes between them: the setup, the record (the
    changes the rules took) and the refused ones, each with where it was tried."""
    players, options, first_dealer = draw(tables())
    setup = Setup(players, RULES.resolve_options(options, len(players)), first_dealer)
    record: list[Any] = []
    tried: list[tuple[int, Change]] = []
    state = RULES.play(setup, record)
    for id in range(draw(st.integers(0, 12))):
        if state.finished:
            break
        if draw(st.booleans()):
            attempt = draw(changes(state, id))
            try:
                state = RULES.play(setup, [*record, attempt])
            except RuleError:
                tried.append((len(record), attempt))
                continue
            record.append(attempt)
            continue
        order = state.next["order"]
        dealt = state.next.get("players") or order
        if draw(st.booleans()):
            entry: dict[str, Any] = {"auction": draw(auctions(order, options["min_bid"]))}
            pitcher = high_bidder(entry["auction"])[0]
        else:
            pitcher = draw(st.sampled_from(dealt))
            entry = {"pitcher": pitcher, "bid": draw(st.integers(options["min_bid"], 4))}
        entry.update(draw(scored_points(tuple(dealt), pitcher)))
        record.append(entry)
        state = RULES.play(setup, record)
    return setup, record, tried


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games_with_changes())
def test_random_changes_replay_to_the_same_state_and_a_refused_one_changes_nothing(game):
    setup, record, tried = game
    state = folded(RULES, setup, record)
    for hand in state.hands:
        assert hand.info["order"][-1] == hand.dealer
        assert sorted(hand.info["order"]) == sorted(hand.players)
    # Nothing but hands and starting totals and adjustments moves the totals.
    given_points = sum(sum(hand.points.values()) for hand in state.hands)
    left: set[str] = set()
    for shown in state.changes:
        if shown["kind"] == "adjust":
            given_points += shown["points"]
        elif shown["kind"] == "leave":
            left.add(shown["player"])
        elif shown["kind"] == "join" and shown["player"] in left:
            left.discard(shown["player"])
        elif shown["kind"] == "join":
            given_points += shown["score"]
    assert sum(state.totals.values()) == given_points
    assert_refused_changes_change_nothing(RULES, setup, record, tried)
