"""The backup document, declared once: each version of its format as pydantic models.

Version 2 (version 1, and each game's table changes) holds what was entered, nothing
derived::

    {"format": "scorekeeper-backup", "version": 2, "exported_at": ..., "account": {...},
     "players": [...], "nights": [...], "rule_sets": [...],
     "games": [{..., "hands": [...], "joined": [...], "changes": [...]}]}

Ids are the document's own (1, 2, 3 ... in the order rows were made), so a restored account
exports to the same document. Share links are not carried: they are live secrets of the
account they were made in. ``rule_sets`` and ``abandoned`` came later: a backup without them
restores with no saved rule sets, and no game abandoned (so they have defaults here).

The writer (``writer.py``) streams this shape a batch of games at a time; a test proves that
what it writes validates here and dumps back to the very same document. The restore check
(``check.py``) validates a file with these models, then checks what no shape can say (ids that
name each other, duplicates, each game's hands replayed by its rules). Moments are ISO 8601
with a time zone, read with ``datetime.fromisoformat`` and kept in UTC; a day is ISO 8601.
"""

from __future__ import annotations

from datetime import UTC
from datetime import date
from datetime import datetime
from typing import Annotated
from typing import Any
from typing import Literal

from pydantic import AfterValidator
from pydantic import BaseModel
from pydantic import ConfigDict
from pydantic import Field
from pydantic import PlainSerializer
from pydantic import WithJsonSchema
from pydantic_core import PydanticCustomError

from scorekeeper.services import nights as night_service

FORMAT = "scorekeeper-backup"
VERSION = 2


# A custom error's own text is never shown: the restore check words each error type itself.


def _moment(value: str) -> datetime:
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise PydanticCustomError("moment_invalid", "moment_invalid") from None
    if moment.tzinfo is None:
        raise PydanticCustomError("moment_naive", "moment_naive")
    return moment.astimezone(UTC)


def _day(value: str) -> date:
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise PydanticCustomError("day_invalid", "day_invalid") from None


#: A moment in UTC, written as ISO 8601 with its zone ("2026-11-27T20:15:00.123456+00:00").
Moment = Annotated[
    str,
    AfterValidator(_moment),
    PlainSerializer(datetime.isoformat, return_type=str, when_used="json"),
    WithJsonSchema({"type": "string", "format": "date-time"}),
]
#: A day, ISO 8601 ("2026-11-27").
Day = Annotated[
    str,
    AfterValidator(_day),
    PlainSerializer(date.isoformat, return_type=str, when_used="json"),
    WithJsonSchema({"type": "string", "format": "date"}),
]


class Item(BaseModel):
    """A part of the document: no value converted (JSON's own types only: ``1.0`` is no
    whole number, ``"true"`` no truth value); keys the version does not know are ignored."""

    model_config = ConfigDict(strict=True, extra="ignore")


class AccountV1(Item):
    username: str


class PlayerV1(Item):
    id: int
    name: str
    archived: bool
    created_at: Moment


class NightV1(Item):
    id: int
    date: Day
    name: Annotated[str, Field(max_length=night_service.NAME_MAX)]
    place: Annotated[str, Field(max_length=night_service.PLACE_MAX)]
    notes: Annotated[str, Field(max_length=night_service.NOTES_MAX)]
    created_at: Moment


class RuleSetV1(Item):
    id: int
    game: str = Field(description="The game's key (``oh_hell``)")
    name: str
    options: dict[str, Any] = Field(description="The rule set's options, as the game reads them")
    created_at: Moment


class HandV1(Item):
    number: int = Field(description="1, 2, 3 … in the order played")
    input: dict[str, Any] = Field(description="What was entered, keyed by player name")
    created_at: Moment
    updated_at: Moment


class GameV1(Item):
    id: int
    game: str = Field(description="The game's key (``oh_hell``)")
    options: dict[str, Any]
    first_dealer: int = Field(description="The seat (from 0) of the first hand's dealer")
    players: list[int] = Field(description="Player ids, by seat")
    night: int | None = Field(None, description="The id of the game's night")
    locked: bool
    abandoned: bool = False
    created_at: Moment
    updated_at: Moment
    finished_at: Moment | None = None
    hands: list[HandV1]


class BackupV1(Item):
    """A whole account, as entered: version 1 of the backup format."""

    format: Literal["scorekeeper-backup"]
    version: Literal[1]
    exported_at: Moment | None = None
    account: AccountV1 | None = None
    players: list[PlayerV1]
    nights: list[NightV1]
    rule_sets: list[RuleSetV1] = []
    games: list[GameV1]


class ChangeV2(Item):
    before_hand: int = Field(description="The hand that came after it (1: before the first)")
    change: dict[str, Any] = Field(
        description="The change as given (its kind, and players by name)"
    )
    created_at: Moment
    updated_at: Moment


class GameV2(GameV1):
    joined: list[int] = Field(
        [], description="Player ids of who came to the table later, in the order they came"
    )
    changes: list[ChangeV2] = Field([], description="The table's changes, in order with the hands")


class BackupV2(BackupV1):
    """Version 2: a game may hold the table's changes between its hands, and the players
    who came to the table later (``joined``); everything else is version 1's."""

    version: Literal[2]  # type: ignore[assignment]
    games: list[GameV2]  # type: ignore[assignment]


#: The model of each version of the format this app reads.
VERSIONS: dict[int, type[BackupV1]] = {1: BackupV1, 2: BackupV2}
#: The model of one game, for each version (a restore checks the games one at a time).
GAME_MODELS: dict[int, type[GameV1]] = {1: GameV1, 2: GameV2}
