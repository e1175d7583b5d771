"""Oklahoma Gin in the JSON API: a round as entered, what the rules derive, what comes next."""

from __future__ import annotations

from scorekeeper.games.schema import Closed
from scorekeeper.games.schema import NextBase


class Entry(Closed):
    """One round: the upcard (and its suit, needed with spade_double), how it ended, who
    knocked and both players' deadwood (knocker and deadwood are left out for a draw)."""

    upcard: str | None = None
    upcard_suit: str | None = None
    result: str | None = None
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


class Next(NextBase):
    pass
