"""Wizard in the JSON API: a round as entered, what the rules derive, what comes next."""

from __future__ import annotations

from pydantic import Field

from scorekeeper.games.base import SUITS
from scorekeeper.games.schema import Closed
from scorekeeper.games.schema import NextBase
from scorekeeper.games.schema import choice
from scorekeeper.games.wizard.rules import NO_TRUMP


class Entry(Closed):
    """Bids open the round (some may still be missing while the table bids); tricks complete
    it; both together record it at once. The trump is an optional reminder: a suit, or "none"
    for a turned Jester; ``trump_chosen`` says a Wizard was turned and the dealer chose it."""

    bids: dict[str, int | None] | None = None
    tricks: dict[str, int | None] | None = None
    trump: choice(*SUITS, NO_TRUMP) | None = None
    trump_chosen: bool | None = None


class Info(Closed):
    cards: int
    no_trump: bool = Field(description="No trump: the last round, or a turned Jester")
    trump: str | None
    trump_chosen: bool
    order: list[str]
    leader: str
    bids_total: int
    balance: str
    made: dict[str, bool] | None
    total_hands: int
    hook: bool = Field(description="Whether the bids of this round may not equal the cards")


class Next(NextBase):
    cards: int
    no_trump: bool = Field(description="The last round is played without trump")
    forbidden_dealer_bid: int | None = Field(
        description="With the hook, once every other bid is in: the bid the dealer may not make"
    )
    leader: str
    total_hands: int
    hook: bool
