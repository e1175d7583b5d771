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

import re
from functools import cache
from typing import Annotated
from typing import Any
from typing import Literal

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


#: The characters ``str.strip()`` takes off (the rules strip what is typed before reading it).
_SPACES = "".join(f"\\u{code:04x}" for code in range(0x3001) if chr(code).isspace())


@cache
def _folded(fold: str) -> dict[str, str]:
    """For each letter, every character the rules read as it once they fold the case with
    ``fold`` (``"lower"`` or ``"upper"``: the Kelvin sign lowered is a k), as a regex class."""
    same = getattr(str, fold)
    found: dict[str, list[str]] = {}
    for code in range(0x10000):
        folded = same(chr(code))
        if len(folded) == 1 and folded.isascii():
            found.setdefault(folded, []).append(f"\\u{code:04x}")
    return {letter: "[" + "".join(chars) + "]" for letter, chars in found.items()}


def _caseless(word: str, fold: str) -> str:
    letters = _folded(fold)
    return "".join(
        letters[getattr(c, fold)()] if c.lower() != c.upper() else re.escape(c) for c in word
    )


def choice(
    *values: str, fold: str = "lower", blank: bool = False, description: str | None = None
) -> Any:
    """A fixed-choice text field as the rules read it: one of ``values`` (the enum the
    document shows), or the same in any case with spaces around it (the pattern), as the rules
    strip and fold the case of what is typed (``fold``: ``str.lower`` or ``str.upper``, as the
    rules do); ``blank``: spaces alone mean "not given"."""
    words = "|".join(_caseless(value, fold) for value in values)
    pattern = f"^[{_SPACES}]*(?:{words}){'?' if blank else ''}[{_SPACES}]*$"
    return Annotated[
        Literal[values] | Annotated[str, Field(pattern=pattern)],
        Field(description=description),
    ]
