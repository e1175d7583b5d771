"""Oklahoma Gin in the JSON API: a round as entered, what the rules derive, what comes next."""

from __future__ import annotations

from pydantic import Field

from scorekeeper.games.base import SUITS
from scorekeeper.games.oklahoma_gin.rules import RANKS
from scorekeeper.games.oklahoma_gin.rules import RESULTS
from scorekeeper.games.schema import Bonus
from scorekeeper.games.schema import Closed
from scorekeeper.games.schema import NextBase
from scorekeeper.games.schema import choice


class Entry(Closed):
    """One round: the upcard (and its suit, needed with spade_double), how it ended, who
    knocked and both players' deadwood (knocker and deadwood are left out for a draw)."""

    upcard: choice(*RANKS, fold="upper") | None = None
    upcard_suit: choice(*SUITS, blank=True) | None = None
    result: choice(*RESULTS) | None = None
    knocker: str | None = None
    knocker_deadwood: int | None = None
    opponent_deadwood: int | None = None


class Info(Closed):
    knock_limit: int
    result: str
    winner: str | None
    undercut: bool
    doubled: bool
    upcard: str
    columns: list[int] | None = Field(
        None, description="Hollywood: the game columns the round's score went into"
    )


class Next(NextBase):
    knock_limit: int | None = Field(
        description="Set by the upcard once the round is dealt: null until then (always, here)"
    )


class Column(Closed):
    """One of the three games of a Hollywood sheet."""

    number: int
    totals: dict[str, int] = Field(description="Bonuses included once the column is closed")
    closed: bool
    winner: str | None
    bonuses: list[Bonus]


class Extra(Closed):
    columns: list[Column] | None = Field(None, description="Hollywood scoring only")
