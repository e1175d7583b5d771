"""Pieces every game's ``schema.py`` builds on (pydantic; no Flask, no database).

A game's ``schema.py`` declares, once, the shapes the JSON API takes and gives for it:
- ``Entry``: one hand as entered (the request body of a hand, and each hand's ``input`` in
  the game state);
- ``Info``: what the rules derive for each hand (``Hand.info``), flat on each hand;
- ``Next``: the game's own keys of ``next`` besides those every game has (``NextBase``),
  exactly the keys its rules put in ``State.next``;
- ``Extra`` (optional): the game's own keys of the state (Hollywood ``columns``, ...).

Every model is closed (``additionalProperties: false``) and strict (``2.0`` is no ``2``).
"""

from __future__ import annotations

from pydantic import BaseModel
from pydantic import ConfigDict
from pydantic import Field


class Closed(BaseModel):
    """A closed, strict JSON object."""

    model_config = ConfigDict(extra="forbid", strict=True)


class NextBase(Closed):
    """What every game says about the hand to play next; a game's ``Next`` adds its own
    reminders (the cards dealt, the trump ...), and only those: no game carries another's."""

    number: int
    dealer: str
    order: list[str] | None
    players: list[str] = Field(description="Who will be dealt in, in seat order")


class NoExtra(Closed):
    """A game whose state has no keys of its own."""


class Bonus(Closed):
    """An end-of-game line (Oklahoma Gin): the game bonus, box bonuses, a shutout."""

    player: str
    kind: str
    points: int
