"""Spades in the JSON API: a hand as entered, what the rules derive, what comes next."""

from __future__ import annotations

from pydantic import Field

from scorekeeper.games.schema import Closed
from scorekeeper.games.schema import NextBase


class Entry(Closed):
    """Every player's bid (0 is nil) opens the hand; the tricks complete it; both together
    record it at once. ``blind_nil`` lists who bid blind nil (each bids 0)."""

    bids: dict[str, int | None] | None = None
    blind_nil: list[str] | None = None
    tricks: dict[str, int | None] | None = None


class Nil(Closed):
    player: str
    blind: bool
    made: bool | None = Field(description="null until the hand is scored")


class Info(Closed):
    order: list[str]
    leader: str
    blind_nil_allowed: dict[str, bool] = Field(
        description="By team: whether its players could bid blind nil in this hand"
    )
    contract: dict[str, int] = Field(description="By team: the sum of its players' bids")
    nil: dict[str, list[Nil]] = Field(description="By team: its nil bids and how they went")
    tricks: dict[str, int] | None = Field(
        description="By team: the tricks counted toward the contract (a nil bidder's are not)"
    )
    made: dict[str, bool | None] | None = Field(
        description="By team: contract made, set, or null for a contract of 0"
    )
    bags: dict[str, int] | None = Field(description="By team: the bags of this hand")
    bag_penalty: dict[str, int] | None = Field(description="By team: points lost for 10 bags")
    bags_total: dict[str, int] = Field(description="By team: the bags carried after this hand")


class Next(NextBase):
    cards: int
    leader: str
    trump: str
    bags: dict[str, int] = Field(description="By team: the bags so far")
    blind_nil_allowed: dict[str, bool]
