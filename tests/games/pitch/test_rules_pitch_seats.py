"""Auction Pitch describes what a player's own phone may call (the rules layer, no Flask): its
``SeatEntry`` (the auction, in turn, pass or a bid) and ``seat_choices``, the calls the player
whose turn it is may make, which always agree with the rules that check the auction."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from scorekeeper.games.base import RuleError
from scorekeeper.games.base import Setup
from scorekeeper.games.pitch.rules import RULES

FOUR = ("Ann", "Ben", "Cy", "Dee")


def setup_for(players=FOUR, **options) -> Setup:
    return Setup(tuple(players), RULES.resolve_options(options, len(players)), 0)


def upcoming(setup: Setup) -> dict[str, Any]:
    return RULES.play(setup, []).next


def choices(setup: Setup, *calls) -> list[Any]:
    """What the next player may call after ``calls`` (in the hand's order)."""
    order = upcoming(setup)["order"]
    return RULES.seat_choices(setup.options, upcoming(setup), list(zip(order, calls, strict=False)))


def test_the_seat_entry_is_the_auction_in_turn_pass_or_a_bid():
    spec = RULES.seat_entry(setup_for().options)
    assert (spec.key, spec.field) == ("auction", "call")
    assert spec.in_turn and spec.turns and spec.opens and not spec.secret
    assert spec.incomplete == ("missing_bid",)
    assert spec.choices == ("pass", 1, 2, 3, 4)
    assert RULES.seat_entry(setup_for(min_bid=2).options).choices == ("pass", 2, 3, 4)
    assert RULES.seat_words == ("pass",)
    # The word, however it is written, and what a person reads for it.
    assert spec.word(" Pass ") == "pass" and spec.word("fold") is None and spec.word(2) is None
    assert str(spec.label("pass")) == "Pass" and spec.label(3) is None


def test_the_calls_a_player_may_make_now_worked_by_hand():
    plain = setup_for()
    assert upcoming(plain)["order"] == ["Ben", "Cy", "Dee", "Ann"]  # Ann deals, bids last
    assert choices(plain) == ["pass", 1, 2, 3, 4]
    assert choices(plain, 2) == ["pass", 3, 4]  # above the high bid of 2
    assert choices(plain, 2, "pass", 3) == ["pass", 3, 4]  # the dealer may steal at 3
    assert choices(plain, "pass", "pass", "pass") == [2, 3, 4]  # the dealer must bid 2
    assert choices(plain, 4) == ["pass"]  # after a pitch of 4 only a pass
    assert choices(plain, "pass", "pass", 4) == ["pass"]  # the dealer cannot steal a 4
    strict = setup_for(min_bid=2, dealer_may_steal=False)
    assert choices(strict) == ["pass", 2, 3, 4]
    assert choices(strict, 2, "pass", "pass") == ["pass", 3, 4]  # no steal
    assert choices(strict, "pass", "pass", "pass") == [2, 3, 4]


def checked(setup: Setup, calls: list[Any]) -> list[str]:
    """The codes the rules refuse the auction so far with (a turn still to come is None)."""
    order = upcoming(setup)["order"]
    auction = [
        [name, calls[index] if index < len(calls) else None] for index, name in enumerate(order)
    ]
    try:
        RULES.play(setup, [{"auction": auction}])
    except RuleError as error:
        return [each.code for each in error.errors]
    return []


@settings(max_examples=150, deadline=None)
@given(
    players=st.integers(min_value=2, max_value=7),
    min_bid=st.sampled_from([1, 2]),
    may_steal=st.booleans(),
    picks=st.lists(st.integers(min_value=0, max_value=4), max_size=7),
)
def test_the_choices_are_exactly_the_calls_the_rules_take(players, min_bid, may_steal, picks):
    """After any legal start of an auction, a call is among the choices exactly when the rules
    take it (a turn still to come is only ``missing_bid``), and a whole auction made of the
    choices plays."""
    names = ("Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus")[:players]
    setup = setup_for(names, min_bid=min_bid, dealer_may_steal=may_steal)
    spec = RULES.seat_entry(setup.options)
    calls: list[Any] = []
    for pick in picks[: players - 1]:
        offered = choices(setup, *calls)
        calls.append(offered[pick % len(offered)])
    offered = choices(setup, *calls)
    assert offered, calls
    for call in spec.choices:
        codes = checked(setup, [*calls, call])
        taken = set(codes) <= set(spec.incomplete)
        assert (call in offered) == taken, (calls, call, codes)
    while len(calls) < players:
        calls.append(choices(setup, *calls)[-1])
    assert checked(setup, calls) == []
