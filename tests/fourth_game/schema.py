"""Race in the JSON API."""

from __future__ import annotations

from scorekeeper.games.schema import Closed
from scorekeeper.games.schema import NextBase


class Entry(Closed):
    """Every player's roll, 0 (a miss) to 6."""

    rolls: dict[str, int | None] | None = None


class Info(Closed):
    round_winner: str | None


class Next(NextBase):
    pass
