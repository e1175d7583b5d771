"""Oh Hell in the JSON API: a hand as entered, what the rules derive, what comes next."""

from __future__ import annotations

from pydantic import Field

from scorekeeper.games.base import SUITS
from scorekeeper.games.schema import Closed
from scorekeeper.games.schema import NextBase
from scorekeeper.games.schema import choice


class Entry(Closed):
    """Bids open the hand (some may still be missing while the table bids); tricks complete
    it; both together record it at once. The trump is an optional reminder."""

    bids: dict[str, int | None] | None = None
    tricks: dict[str, int | None] | None = None
    trump: choice(*SUITS) | None = None


class Info(Closed):
    cards: int
    no_trump: bool
    trump: str | None
    order: list[str] | None
    leader: str
    bids_total: int
    balance: str
    made: dict[str, bool] | None
    total_hands: int


class Next(NextBase):
    cards: int
    no_trump: bool
    forbidden_dealer_bid: int | None = Field(
        description="With the hook, once every other bid is in: the bid the dealer may not make"
    )
    leader: str
    total_hands: int
    schedule: list[int] = Field(
        description="The cards of every hand still to play, the next (or open) hand first"
    )
