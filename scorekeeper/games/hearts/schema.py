"""Hearts in the JSON API: a hand as entered, what the rules derive, what comes next."""

from __future__ import annotations

from pydantic import Field

from scorekeeper.games.schema import Closed
from scorekeeper.games.schema import NextBase


class Entry(Closed):
    """The points each player took (they add up to 26) and, with the ``jack_of_diamonds``
    option, who took the jack of diamonds."""

    points: dict[str, int | None] | None = None
    jack_of_diamonds: str | None = None


class Info(Closed):
    taken: dict[str, int] = Field(description="The points each player took, before the moon rule")
    moon: str | None = Field(description="Who shot the moon in this hand, if anyone")
    jack_of_diamonds: str | None
    passing: str = Field(description="left, right, across or none")
    order: list[str] | None


class Next(NextBase):
    passing: str = Field(description="Where the cards are passed before the hand")
