"""Partners in the JSON API: a hand as entered (by team), what the rules derive, what comes
next."""

from __future__ import annotations

from pydantic import Field

from scorekeeper.games.schema import Closed
from scorekeeper.games.schema import NextBase


class Entry(Closed):
    """Each team's points (below zero allowed), by the team's name ("Ann & Cy"); who went out
    first, if anyone did."""

    points: dict[str, int | None] | None = None
    went_out: str | None = None


class Info(Closed):
    bonus: dict[str, int] = Field(description="By team: the going-out bonus of this hand")
    hand_winners: list[str] = Field(description="The teams with the best points of the hand")


class Next(NextBase):
    to_go: dict[str, int] = Field(description="By team: the points still needed")
