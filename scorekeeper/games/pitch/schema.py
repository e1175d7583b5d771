"""Auction Pitch in the JSON API: a hand as entered, what the rules derive, what comes next."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from scorekeeper.games.schema import Closed
from scorekeeper.games.schema import NextBase
from scorekeeper.games.schema import choice


class Entry(Closed):
    """The bidding (the whole auction in bidding order, or just the pitcher and the bid),
    then who won each point; ``game_points`` per player decide Game when given."""

    #: Each turn: the player and the call ("pass" or a bid of 1 to 4).
    auction: (
        list[Annotated[tuple[str, choice("pass") | int | None], Field(strict=False)]] | None
    ) = None
    pitcher: str | None = None
    bid: int | None = None
    high: str | None = None
    low: str | None = None
    jack: str | None = None
    game: str | None = None
    game_points: dict[str, int | None] | None = None
    single_trump: bool | None = None


class Info(Closed):
    pitcher: str
    pitcher_side: str
    bid: int
    stolen: bool
    made: bool | None
    won: dict[str, list[str]] | None
    order: list[str]
    smudge: bool = Field(description="The side won all four points (with the smudge option)")


class Next(NextBase):
    pitcher: str | None = None
    bid: int | None = None
