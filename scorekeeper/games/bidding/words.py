"""What the rules of the bid-then-take-tricks games say about bids (pure Python, no form).

``made_note`` is the few words beside a total ("made 9 of 11"), ``balance_words`` how the bids
compare with the cards ("2 over").
"""

from __future__ import annotations

from typing import Any

from scorekeeper.games.base import Highlight
from scorekeeper.games.base import SeatEntry
from scorekeeper.games.i18n import N_
from scorekeeper.games.i18n import _

#: The night's story in the bidding games: a run of made bids, a game with every bid made.
BID_HIGHLIGHTS = (
    Highlight(
        "made_run", "bids_made", "run", N_("%(name)s made %(value)s bids in a row in %(game)s.")
    ),
    Highlight(
        "perfect_game", "bids_made", "every", N_("%(name)s made every bid of %(game)s."), of="bids"
    ),
)


def bid_entry(simultaneous: bool = False, marks: tuple[str, ...] = ()) -> SeatEntry:
    """Each player's phone enters its own bid: in turn from the dealer's left (the default),
    or all at once and secret until the last is in (simultaneous bidding). The last bid opens
    the hand. ``marks``: the lists a bid may put its seat on (``SeatEntry.marks``)."""
    return SeatEntry(
        "bids",
        "bid",
        in_turn=not simultaneous,
        secret=simultaneous,
        incomplete=("missing_bid",),
        marks=marks,
    )


def made_note(state: Any, side: str) -> str | None:
    """How many of a player's scored bids were made: "made 9 of 11" (the hands they were
    dealt into: a late arrival, a sitter)."""
    scored = [hand for hand in state.hands if side in (hand.info.get("made") or {})]
    if not scored:
        return None
    made = sum(1 for hand in scored if hand.info["made"][side])
    return _("made %(made)s of %(hands)s", made=made, hands=len(scored))


def balance_words(total: int, cards: int) -> str:
    """How the bids compare with the cards, in the reader's language: "2 over", "1 under" or
    "even" (the API's ``info.balance`` stays in English)."""
    if total > cards:
        return _("%(count)s over", count=total - cards)
    if total < cards:
        return _("%(count)s under", count=cards - total)
    return _("even")
