"""Score pad in the JSON API: a round as entered, what the rules derive, what comes next."""

from __future__ import annotations

from pydantic import Field

from scorekeeper.games.schema import Closed
from scorekeeper.games.schema import NextBase


class Entry(Closed):
    """One whole number per player (negative allowed); a player left out counts 0."""

    points: dict[str, int | None] | None = None


class Info(Closed):
    round_winners: list[str] = Field(description="Who had the best score of the round")
    order: list[str] | None


class Next(NextBase):
    show_dealer: bool = Field(description="Whether the table asked to be reminded who deals")
    total_hands: int | None = Field(description="With a fixed number of rounds: how many")
    target: int | None = Field(description="With a target: the total that ends the game")
