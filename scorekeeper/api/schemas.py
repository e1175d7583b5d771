"""The JSON API's request and response bodies, declared once with pydantic.

The same models validate what the API is sent (spectree, before a view runs), build what it
answers (a view returns an instance, which spectree writes out) and write the OpenAPI
document. Every object is closed and strict. What depends on the game (its options, its
hands, what its rules derive, its statistics) is built from the registered games
(``game_models``) each time the document is built, so a game registered later (a test's) is
in the document and validated like the others.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from typing import Annotated
from typing import Any
from typing import Literal
from typing import Union

from pydantic import BaseModel
from pydantic import BeforeValidator
from pydantic import ConfigDict
from pydantic import Field
from pydantic import PrivateAttr
from pydantic import RootModel
from pydantic import TypeAdapter
from pydantic import create_model
from pydantic import model_serializer
from pydantic import model_validator
from pydantic_core import PydanticCustomError
from pydantic_core import core_schema
from typing_extensions import TypedDict

from scorekeeper.errors import Refusal
from scorekeeper.games import GAMES
from scorekeeper.games import GamePlugin
from scorekeeper.games import text as rules_text
from scorekeeper.games.base import Option
from scorekeeper.games.errors import RuleError
from scorekeeper.games.i18n import _
from scorekeeper.games.i18n import english
from scorekeeper.games.schema import Bonus
from scorekeeper.games.schema import Closed
from scorekeeper.games.schema import NoExtra
from scorekeeper.games.table import NOTE_LIMIT

Count = Annotated[int, Field(ge=0)]
Rate = Annotated[float | None, Field(description="null when there is nothing to divide by")]
Moment = Annotated[str, Field(description="ISO 8601 date and time with its zone")]
Status = Literal["in_progress", "finished", "abandoned"]


# Text as people type it ---------------------------------------------------------------------


@dataclass(frozen=True)
class Text:
    """A text field as the app checks it, written into its JSON schema (``pattern``,
    ``minLength``, ``maxLength``) and checked here, on the text as sent, with the very same
    pattern: what the document says a name may be is what the API takes.

    The pattern (``scorekeeper.games.text``) refuses control characters (NUL included),
    invisible ones and a zero-width joiner anywhere but between two emoji, and takes only
    characters that stay themselves in NFKC form, so the services' own checks (which come
    after, on the normalized text) take whatever it takes. The lengths count the text as
    sent (the services count it once spaces are collapsed). A refusal has the code and the
    message the services give."""

    title: str
    pattern: Callable[[], str]
    what: Callable[[], str]
    most: int
    least: int = 0
    required: Callable[[], str] | None = None
    code: str = "name_invalid"
    too_long_code: str | None = None
    #: The one refusal of a text that is no name (a date): its message, and its description.
    message: Callable[[], str] | None = None
    description: str = ""

    def __post_init__(self) -> None:
        TEXTS[self.title] = self

    def __get_pydantic_core_schema__(self, source, handler):
        return core_schema.no_info_after_validator_function(self.check, handler(source))

    def __get_pydantic_json_schema__(self, schema, handler):
        # Under its own name in the document (its pattern is long): ``with_texts`` puts the
        # reference in (pydantic would look for it among its own definitions).
        return {TEXT_KEY: self.title}

    def json_schema(self) -> dict:
        found = {"type": "string", "pattern": self.pattern(), "maxLength": self.most}
        if self.least:
            found["minLength"] = self.least
        found["description"] = self.description or (
            f"{english(self.what())}: at most {self.most} characters as sent"
            + (f", at least {self.least}" if self.least else "")
            + "; no control (NUL included) or invisible characters, a zero-width joiner only "
            "between two emoji, and only characters that NFKC leaves one character."
        )
        return found

    def fits(self, value: str) -> bool:
        return self.least <= len(value) <= self.most and bool(
            _compiled(self.pattern()).match(value)
        )

    def check(self, value: str) -> str:
        if self.fits(value):
            return value
        code, message = self.refusal(value)
        raise PydanticCustomError(code, "{message}", {"message": message, "refusal": True})

    def refusal(self, value: str) -> tuple[str, str]:
        """The code and message of a refused text: the services' own when they refuse it."""
        if self.message is not None:
            return self.code, str(self.message())
        what = self.what()
        try:
            text = rules_text.normalize_line(value.replace("\n", " "), what, None, self.code)
        except RuleError as error:
            return error.code, str(error.message)
        if not text and self.required:
            return self.code, str(self.required())
        if len(value) > self.most:
            return self.too_long_code or self.code, _(
                "%(what)s can be at most %(most)s characters (%(given)s given).",
                what=what,
                most=self.most,
                given=len(value),
            )
        if len(value) < self.least:
            return self.code, _(
                "%(what)s must be at least %(least)s characters.", what=what, least=self.least
            )
        return self.code, _(
            "%(what)s holds a character that is written differently once normalized (a "
            "ligature, a fraction...): type it again without it.",
            what=what,
        )


#: Every kind of text, by its name in the document.
TEXTS: dict[str, Text] = {}


TEXT_KEY = "x-scorekeeper-text"


def text_schemas() -> dict[str, dict]:
    """The JSON schema of every kind of text, by name."""
    return {title: text.json_schema() for title, text in TEXTS.items()}


def with_texts(node: Any) -> Any:
    """The document with each text's place holder made a reference to the text's schema."""
    if isinstance(node, dict):
        if TEXT_KEY in node:
            return {"$ref": f"#/components/schemas/{node[TEXT_KEY]}"}
        return {key: with_texts(value) for key, value in node.items()}
    if isinstance(node, list):
        return [with_texts(each) for each in node]
    return node


@cache
def _compiled(pattern: str) -> re.Pattern:
    return re.compile(pattern)


def compile_texts() -> None:
    """Make and compile the pattern of every text field, once per process: their character
    classes come from one pass over every code point (``games.text``), about a second, which
    the process's first request with a name (a new game, a player) waited for. A gunicorn
    worker does it before it takes requests (gunicorn.conf.py)."""
    for text in TEXTS.values():
        _compiled(text.pattern())


#: A player's name (the roster's, a seat's, a dealer's): 1 to 40 characters.
Name = Annotated[
    str,
    Text("Name", rules_text.line_pattern, lambda: _("A name"), 40, 1, lambda: _("Enter a name.")),
]
RuleSetName = Annotated[
    str,
    Text(
        "RuleSetName",
        rules_text.line_pattern,
        lambda: _("A rule set's name"),
        40,
        1,
        lambda: _("Name the rule set."),
    ),
]
Username = Annotated[
    str, Text("Username", rules_text.username_pattern, lambda: _("Username"), 40, 3)
]
# The service checks the length (422 password_invalid, with its message).
Password = Annotated[str, Field(json_schema_extra={"minLength": 8, "maxLength": 200})]
Day = Annotated[
    str,
    Text(
        "Date",
        lambda: "^[0-9]{4}-[0-9]{2}-[0-9]{2}$",
        lambda: _("The date"),
        10,
        10,
        code="date_invalid",
        message=lambda: _("The date must be text like %(example)s.", example="2024-05-17"),
        description="YYYY-MM-DD. A date before 1900-01-01 or more than a year from today is "
        "422 date_invalid (what is too late depends on the day).",
    ),
]


def _night_text(title: str, what: Callable[[], str], most: int, lines: bool = False) -> Any:
    return Annotated[
        str,
        Text(
            title,
            lambda: rules_text.line_pattern(False, lines),
            what,
            most,
            too_long_code="text_too_long",
        ),
    ]


class GameKey(RootModel[str]):
    """One of the registered games' keys."""

    @model_validator(mode="after")
    def _registered(self) -> GameKey:
        if self.root not in GAMES:
            raise PydanticCustomError(
                "option_value",
                "{message}",
                {"message": _("Choose one of the games."), "refusal": True},
            )
        return self

    @classmethod
    def __get_pydantic_json_schema__(cls, core_schema, handler):
        return {"type": "string", "enum": list(GAMES)}


# Errors, accounts, tokens, players ------------------------------------------------------


class Error(Closed):
    code: str = Field(description="A stable identifier (see API.md)")
    field: str | None = Field(description="The input it concerns, if any (bids.Ann)")
    message: str = Field(description="A sentence for people")


class Errors(Closed):
    """A refusal: every problem found at once. Nothing was changed."""

    errors: list[Error] = Field(min_length=1)

    @classmethod
    def of(cls, problems: Iterable[Any]) -> Errors:
        """The answer to a refusal of these problems (each with a ``code``, a ``field`` and a
        ``message``: ``scorekeeper.errors.Problem``)."""
        return cls(
            errors=[
                Error(code=problem.code, field=problem.field, message=str(problem.message))
                for problem in problems
            ]
        )


# Idempotency keys (API.md, "Idempotency keys") ------------------------------------------

#: An ``Idempotency-Key``: 1 to 200 printable ASCII characters, no space at either end (an
#: HTTP header loses those on its way).
IDEMPOTENCY_KEY = r"^[!-~](?:[ -~]{0,198}[!-~])?$"


def idempotency_key_problem(value: str) -> str | None:
    """What is wrong with an idempotency key (the header's or a form's), or None."""
    if re.fullmatch(IDEMPOTENCY_KEY, value):
        return None
    return _(
        "The Idempotency-Key must be 1 to 200 printable ASCII characters (letters, digits, "
        "punctuation; no space at either end): a new random one, such as a UUID, for each "
        "write."
    )


def _checked_key(value: str) -> str:
    problem = idempotency_key_problem(value)
    if problem is not None:
        raise PydanticCustomError(
            "idempotency_key_invalid", "{message}", {"message": problem, "refusal": True}
        )
    return value


def _key_schema(schema: dict) -> None:
    """The header's schema: a string of the key's form (no default: a header that is not sent
    is no null)."""
    schema.pop("default", None)
    schema.pop("title", None)
    schema.update(minLength=1, maxLength=200, pattern=IDEMPOTENCY_KEY)


class KeyHeaders(BaseModel):
    """The headers of a write that may be sent twice: its ``Idempotency-Key`` (optional)."""

    model_config = ConfigDict(extra="ignore")

    idempotency_key: Annotated[
        str,
        BeforeValidator(_checked_key),
        Field(
            alias="Idempotency-Key",
            description="A key of the client's (1-200 printable ASCII characters, a UUID for "
            "example): the first answer to this request is kept for 24 hours, and the same "
            "key with the same request is answered the same again, with "
            "`Idempotent-Replayed: true`, without a second change. The same key with another "
            "request is 422 idempotency_mismatch; a key of another form is 400 "
            "idempotency_key_invalid.",
            json_schema_extra=_key_schema,
        ),
    ] = None  # type: ignore[assignment]


class Credentials(Closed):
    username: Username
    password: Password


class AccountOut(Closed):
    id: int
    username: str


class Token(Closed):
    token: str


class PlayerOut(Closed):
    id: int
    name: str
    archived: bool


class PlayerList(Closed):
    players: list[PlayerOut]


class NewPlayer(Closed):
    name: Name


class PlayerChange(Closed):
    name: Name | None = None
    archived: bool | None = None


# Lists and nights -------------------------------------------------------------------------


class NewRuleSet(Closed):
    """A named set of a game's options: one of these, by ``game``."""

    game: str
    name: RuleSetName
    options: dict[str, Any]

    @classmethod
    def __get_pydantic_json_schema__(cls, core_schema, handler):
        return one_of("rule_set", handler, "A named set of a game's options.")


class RuleSetOut(Closed):
    id: int
    game: str
    name: str
    options: dict[str, Any]


class RuleSetList(Closed):
    rule_sets: list[RuleSetOut]


class TableChange(Closed):
    """A correction of the table: the players in their true seat order, the first dealer."""

    players: list[Name] | None = None
    first_dealer: Name | None = None


# The table's changes between hands (RULES.md, "the table changes mid-game") -----------------


def _integral(value: Any) -> Any:
    """A whole number sent as ``-756.0`` (JSON's integers, as JSON Schema reads them) is the
    whole number; anything else is left to the strict check."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


#: A whole number, ``3`` or ``3.0`` (never ``true`` or ``"3"``).
Whole = Annotated[int, BeforeValidator(_integral)]

BeforeHand = Annotated[
    Whole | None,
    Field(None, description="The hand the client believes comes next (else 409 not_next_hand)"),
]
#: Who an adjustment is for: a player, or a team in partnerships by its players' names
#: ("Eve & Cy"); a line of text as every name is.
SideName = Annotated[
    str,
    Text(
        "SideName",
        rules_text.line_pattern,
        lambda: _("A name"),
        100,
        1,
        lambda: _("Name the player."),
    ),
]
#: An adjustment's note: a line of text, as a night's name is.
ChangeNote = Annotated[
    str,
    Text(
        "ChangeNote",
        lambda: rules_text.line_pattern(False),
        lambda: _("The note"),
        NOTE_LIMIT,
        too_long_code="text_too_long",
    ),
]


class JoinChange(Closed):
    """A player takes a new seat from the next hand on."""

    kind: Literal["join"]
    player: Name
    after: Name | None = Field(None, description="The seated player they sit after")
    score: (
        Literal["last", "zero", "average"]
        | Annotated[int, Field(ge=-10_000, le=10_000), BeforeValidator(_integral)]
        | None
    ) = Field(None, description="Their starting total (default: last)")
    before_hand: BeforeHand = None


class LeaveChange(Closed):
    """A player leaves the game (their total stays on the sheet)."""

    kind: Literal["leave"]
    player: Name
    before_hand: BeforeHand = None


class SitOutChange(Closed):
    """A player sits out the next hand."""

    kind: Literal["sit_out"]
    player: Name
    before_hand: BeforeHand = None


class SubstituteChange(Closed):
    """Another player takes over a seat and its total."""

    kind: Literal["substitute"]
    player: Name
    by: Name
    before_hand: BeforeHand = None


class AdjustChange(Closed):
    """A one-off bonus or penalty (a whole number, not 0), with an optional note."""

    kind: Literal["adjust"]
    player: SideName
    points: Annotated[int, Field(ge=-1000, le=1000), BeforeValidator(_integral)]
    note: ChangeNote | None = None
    before_hand: BeforeHand = None


class ScheduleChange(Closed):
    """The hands still to play: their cards (Oh Hell) or the number of rounds (score pad)."""

    kind: Literal["schedule"]
    sizes: list[Whole] | None = None
    rounds: Whole | None = None
    before_hand: BeforeHand = None


class ChangeBody(
    RootModel[
        Annotated[
            JoinChange
            | LeaveChange
            | SitOutChange
            | SubstituteChange
            | AdjustChange
            | ScheduleChange,
            Field(discriminator="kind"),
        ]
    ]
):
    """One change of the table, by its kind."""


class ListQuery(BaseModel):
    """Filters of the account's lists: by a player's roster name, by game, a page."""

    model_config = ConfigDict(extra="ignore")

    # Left out when not given (a query has no null).
    player: Name = None  # type: ignore[assignment]
    game: GameKey = None  # type: ignore[assignment]
    page: Annotated[int, Field(ge=1, le=1_000_000)] = 1


class GameSummary(Closed):
    id: int
    game: str
    players: list[str]
    status: Status
    hands: Count
    totals: dict[str, int]
    winners: list[str]
    night_id: int | None
    created_at: Moment


class GameList(Closed):
    games: list[GameSummary]
    page: int
    per_page: int
    total: int


class NewNight(Closed):
    date: Day | None = Field(None, description="default: today")
    name: _night_text("NightName", lambda: _("The name"), 80) | None = None
    place: _night_text("NightPlace", lambda: _("The place"), 80) | None = None
    notes: _night_text("NightNotes", lambda: _("The notes"), 2000, lines=True) | None = None


class NightGame(Closed):
    id: int
    game: str
    title: str
    players: list[str]
    status: Status
    hands: Count
    winners: list[str]
    totals: dict[str, int]
    created_at: Moment


class NightOut(Closed):
    id: int
    date: str
    name: str
    place: str
    notes: str
    game_count: Count
    games: list[NightGame]


class NightList(Closed):
    nights: list[NightOut]
    page: int
    per_page: int
    pages: int
    total: int


class ShareLink(Closed):
    url: str = Field(description="The absolute link of the game's read-only live view")


class SeatLink(Closed):
    url: str = Field(description="The absolute link the players open to take their seats")


class SeatClaim(Closed):
    player: Name = Field(description="The player whose seat this phone takes")


class SeatToken(Closed):
    seat_token: str = Field(
        description="The phone's seat token: Authorization: Bearer <seat token> for /seat"
    )


#: Every word a registered game's seat may send instead of a number (``GameRules.seat_words``),
#: and a seat's value: a whole number or one of those words.
SEAT_WORDS = tuple(sorted({word for plugin in GAMES.values() for word in plugin.rules.seat_words}))
SeatValue = Whole | Literal[SEAT_WORDS] if SEAT_WORDS else Whole


class Draft(Closed):
    """The hand being entered from the phones (RULES.md, "each player on their own phone")."""

    number: int = Field(description="The hand's number")
    entries: dict[str, int | Literal[(*SEAT_WORDS, "secret")]] = Field(
        description='Each entered value by player; "secret" under secret bidding, to every '
        "reader but the seat itself, until the last value is in"
    )
    entered: list[str] = Field(description="Who has entered, in the hand's order")
    waiting: list[str] = Field(description="Who is still to enter, in the hand's order")
    turn: str | None = Field(
        None, description="Whose turn it is, when the game's phones enter in turn (else null)"
    )
    choices: list[int | Literal[SEAT_WORDS]] | None = Field(
        None,
        description="What the seat whose turn it is may send now (GameRules.seat_choices); "
        "null: any whole number the rules take",
    )
    marks: dict[str, list[str]] = Field(
        default_factory=dict,
        description="The game's marks a seat set beside its value (GameRules.seat_marks), "
        "each with the names on it; under secret bidding only the reader's own",
    )


class SeatView(Closed):
    seat: str = Field(description="The player whose seat this phone holds")
    draft: Draft | None = Field(description="The hand being entered, as this seat may see it")
    state: dict[str, Any] = Field(description="The game state (as GET /games/<id> answers it)")


class GameEvent(Closed):
    """The data of one server-sent event of a game (its ``id`` is the version too)."""

    version: int = Field(description="The game's version after the change")
    state: dict[str, Any] = Field(description="The game state, as this reader may see it")
    draft: Draft | None = Field(description="The hand being entered, as this reader may see it")


class SeatEntryFields(Closed):
    """A seat's own value for the hand being entered: ``bid`` (Oh Hell, Wizard, Spades),
    ``call`` (Pitch: "pass" or a bid) or ``points`` (Hearts, score pad), as the game says, and
    the game's marks (``SeatEntryBody``)."""

    bid: Whole | None = None
    call: SeatValue | None = None
    points: Whole | None = None


#: The body of ``PUT /seat/entry``: the value, and every mark a registered game's seat may set
#: beside it (``GameRules.seat_marks``, each sent as ``"<mark>": true``).
SeatEntryBody = create_model(
    "SeatEntryBody",
    __base__=SeatEntryFields,
    **{
        mark: (bool | None, Field(None, description=f"Mark this seat: {mark} (as the game allows)"))
        for mark in sorted({mark for plugin in GAMES.values() for mark in plugin.rules.seat_marks})
    },
)


class DraftEntry(Closed):
    """The scorekeeper enters any seat's value for the hand being entered."""

    player: Name
    value: SeatValue = Field(description="A whole number, or one of the game's words")


class Restored(Closed):
    restored: dict[str, int] = Field(description="How many players, nights, games and hands")


class RestoreProblem(Closed):
    code: str = Field(description="restore_refused")
    message: str = Field(description="Why, a whole sentence in the reader's language")
    field: str | None = Field(description="Where in the backup, when known")


class RestoreJob(Closed):
    """A restore under way in the background, or its end."""

    id: int
    state: Literal["checking", "writing", "done", "refused", "failed", "stopped"] = Field(
        description="checking (games_read so far), writing, done (restored), refused "
        "(error; nothing changed), failed (nothing changed), stopped (its worker stopped; "
        "nothing changed)"
    )
    games_read: int = Field(description="How many games were checked so far")
    restored: dict[str, int] | None = Field(
        description="Once done: how many players, nights, games and hands"
    )
    error: RestoreProblem | None = Field(description="Once refused: why")
    status_url: str = Field(description="Where to ask again (GET)")


class Backup(BaseModel):
    """The whole account, as entered (versioned format; see ``services/backup.py``)."""

    model_config = ConfigDict(extra="allow")

    format: Literal["scorekeeper-backup"]
    version: int


class Standing(Closed):
    player: PlayerOut
    played: Count
    won: Count
    win_rate: Rate
    average_score: Rate
    best_score: int | None


#: A leaderboard's variant filter: a score pad's game name, a preset's key, a scoring's
#: values, or "" (a game without variants); a line of text, as the game names are.
VariantFilter = Annotated[
    str,
    Text(
        "VariantFilter",
        lambda: rules_text.line_pattern(False),
        lambda: _("The variant"),
        60,
        code="wrong_type",
    ),
]


class LeaderboardQuery(Closed):
    """One variant of a game only (a score pad's game name, an Oh Hell preset)."""

    # Left out when not given (a query has no null).
    variant: VariantFilter = None  # type: ignore[assignment]


class Variant(Closed):
    variant: str
    label: str


class Leaderboard(Closed):
    game: str
    variant: str | None = Field(description="The variant the board is of (null: all of them)")
    plays: int = Field(description="Finished games of the game (of the variant)")
    variants: list[Variant] = Field(description="The variants the account has finished games of")
    players: list[Standing]


class RatingsQuery(Closed):
    """One game's ratings (a score pad: with ``variant``, its game name); without ``game``,
    the rating over every card game."""

    # Left out when not given (a query has no null).
    game: Annotated[str, Field(min_length=1, max_length=20, pattern="^[a-z_]+$")] = None  # type: ignore[assignment]
    variant: VariantFilter = None  # type: ignore[assignment]


class RecapGame(Closed):
    game_id: int
    game: str
    title: str
    winners: list[str]


class RecapHighlight(Closed):
    kind: str = Field(description="best_hand, comeback, or one of the highlights the game declares")
    player: str
    game_id: int
    hand: int | None = Field(description="The hand it happened in (null: the whole game)")
    value: int


class Recap(Closed):
    games: list[RecapGame] = Field(description="The night's games, each with its winners")
    highlights: list[RecapHighlight]
    sentences: list[str] = Field(description="The story, in the reader's language")


class RatingPoint(TypedDict):
    """A closed JSON object like the models, but a typed dict: an answer of the ratings holds
    tens of thousands of them at a long history, checked and written by pydantic's core in
    about 25 ms where as models they took 450 ms."""

    __pydantic_config__ = ConfigDict(extra="forbid", strict=True)  # type: ignore[misc]

    game_id: int
    finished_at: Moment
    ordinal: float


class PlayerRating(Closed):
    player: str
    player_id: int
    mu: float
    sigma: float
    ordinal: float = Field(description="mu - 3 sigma: the number shown")
    games: Count
    provisional: bool = Field(description="sigma still high: few games rated")
    history: list[RatingPoint] = Field(description="The ordinal after each game, oldest first")


class Ratings(Closed):
    game: str | None = Field(description="The game rated (null: every card game)")
    variant: str | None
    ratings: list[PlayerRating] = Field(description="Best ordinal first, then by name")


class Opponent(Closed):
    id: int
    name: str


class HeadToHead(Closed):
    opponent: Opponent
    played: Count
    won: Count
    lost: Count


# What depends on the game: built from the registered games ---------------------------------


class AsGiven(Closed):
    """An object written as it was given: a field it was not given stays out of the JSON
    (not ``null``). A hand's ``input`` is as entered, what the rules derive and ``next``
    carry the keys the rules gave (Hollywood ``columns`` only with Hollywood scoring)."""

    @model_serializer(mode="wrap")
    def _as_given(self, write):
        given = self.model_fields_set
        return {key: value for key, value in write(self).items() if key in given}


def _camel(key: str) -> str:
    return "".join(part.capitalize() for part in key.split("_"))


def _option_type(spec: Option, optional: bool) -> Any:
    if spec.kind == "bool":
        kind: Any = bool
    elif spec.kind == "choice":
        kind = Literal[tuple(spec.choices)]
    elif spec.kind == "text":
        kind = Annotated[str, _option_text(spec)]
    elif spec.kind == "list":
        kind = list[Annotated[int, Field(ge=spec.minimum, le=spec.maximum)]]
    else:
        kind = Annotated[int, Field(ge=spec.minimum, le=spec.maximum)]
    described = Annotated[
        kind, Field(description=english(spec.help or spec.label), title=english(spec.label))
    ]
    return described | None if optional or spec.default is None else described


def _option_text(spec: Option) -> Text:
    return Text(
        f"OptionText{spec.minimum or 0}To{spec.maximum}",
        rules_text.line_pattern,
        lambda: _(spec.label),
        spec.maximum or 0,
        spec.minimum or 0,
        code="option_value",
    )


def refuse_option_texts(kind: object, options: object) -> None:
    """A game's text options (a score pad's name) as the document says them: the request's
    options are the game's to check, but for these the services count the text once its
    spaces are collapsed, the document as sent."""
    if not isinstance(kind, str) or kind not in GAMES or not isinstance(options, dict):
        return
    for spec in _widest_specs(GAMES[kind]):
        value = options.get(spec.key)
        if spec.kind == "text" and isinstance(value, str):
            text = _option_text(spec)
            if not text.fits(value):
                code, message = text.refusal(value)
                raise Refusal(code, message, f"options.{spec.key}")


def _widest_specs(plugin: GamePlugin) -> list[Option]:
    """The game's options with the widest ranges any table size allows."""
    rules = plugin.rules
    widest: dict[str, Option] = {}
    for count in range(rules.min_players, rules.max_players + 1):
        for spec in rules.option_specs(count):
            held = widest.get(spec.key)
            if held is None or (spec.maximum is not None and (held.maximum or 0) < spec.maximum):
                widest[spec.key] = spec
    return list(widest.values())


@cache
def game_models(plugin: GamePlugin) -> dict[str, type[BaseModel]]:
    """One game's models: its options (sent and effective), hands, state and statistics."""
    name = _camel(plugin.key)
    schema = plugin.schema
    specs = _widest_specs(plugin)
    # The game's own models, under names of their own in the document.
    entry = create_model(
        f"{name}Entry", __base__=(AsGiven, schema.Entry), __doc__=schema.Entry.__doc__
    )
    upcoming = create_model(
        f"{name}Next", __base__=(AsGiven, schema.Next), __doc__=schema.Next.__doc__
    )
    # A text option without a default (a score pad's name) must be given.
    required = {spec.key for spec in specs if spec.kind == "text" and spec.default is None}
    options_in = create_model(
        f"{name}OptionsIn",
        __base__=Closed,
        **{
            spec.key: (
                (_option_type(spec, False), ...)
                if spec.key in required
                else (_option_type(spec, True), None)
            )
            for spec in specs
        },
    )
    options_out = create_model(
        f"{name}Options",
        __base__=Closed,
        **{spec.key: (_option_type(spec, False), ...) for spec in specs},
    )
    hand_body = create_model(
        f"{name}HandBody",
        __base__=entry,
        number=(
            int | None,
            Field(None, description="The hand the client believes comes next (else 409)"),
        ),
    )
    hand = create_model(
        f"{name}Hand",
        __base__=(AsGiven, schema.Info),
        number=(int, ...),
        dealer=(str, ...),
        status=(Literal["bidding", "playing", "scored"], ...),
        input=(entry, ...),
        points=(dict[str, int] | None, ...),
        totals=(
            dict[str, int] | None,
            Field(..., description="Each side's running total after this hand"),
        ),
        players=(list[str], Field(..., description="Who was dealt in, in seat order")),
    )
    state = create_model(
        f"{name}State",
        __base__=(GameState, getattr(schema, "Extra", NoExtra)),
        id=(int, ...),
        game=(Literal[plugin.key], ...),
        night_id=(int | None, ...),
        options=(options_out, ...),
        players=(list[str], Field(..., description="The players seated now, in seat order")),
        left=(list[str], Field(..., description="Who left the game (their totals stay)")),
        changes=(list[TableChangeOut], ...),
        teams=(list[list[str]] | None, ...),
        status=(Status, ...),
        locked=(bool, ...),
        hands=(list[hand], ...),
        totals=(dict[str, int], ...),
        winners=(list[str], ...),
        bonuses=(list[Bonus], ...),
        notices=(list[str], ...),
        next=(upcoming | None, ...),
    )
    rules = plugin.rules
    new_game = create_model(
        f"{name}NewGame",
        __base__=Closed,
        game=(Literal[plugin.key], ...),
        players=(
            list[Name],
            Field(
                ...,
                description="Names in seat order, clockwise (each once, ignoring case)",
                min_length=rules.min_players,
                max_length=rules.max_players,
            ),
        ),
        options=(options_in, ...) if required else (options_in | None, None),
        first_dealer=(Name | None, None),
        night_id=(int | None, None),
    )
    rule_set = create_model(
        f"{name}RuleSet",
        __base__=Closed,
        game=(Literal[plugin.key], ...),
        name=(RuleSetName, ...),
        options=(options_in, ...),
    )
    figures = create_model(
        f"{name}Figures",
        __base__=Closed,
        **{
            fact.key: (Count, Field(..., description=english(fact.label)))
            for fact in plugin.rules.facts
        },
    )
    extra = {"head_to_head": (list[HeadToHead], ...)} if plugin.rules.head_to_head else {}
    stats = create_model(
        f"{name}Stats",
        __base__=Closed,
        game=(Literal[plugin.key], ...),
        title=(str, ...),
        played=(Count, Field(..., description="Finished games")),
        won=(Count, ...),
        in_progress=(Count, ...),
        win_rate=(Rate, ...),
        score_total=(int, Field(..., description="Sum of final scores (finished games)")),
        average_score=(Rate, ...),
        best_score=(int | None, ...),
        hands=(Count, Field(..., description="Scored hands, finished games or not")),
        points_total=(int, ...),
        points_per_hand=(Rate, ...),
        figures=(figures, ...),
        **extra,
    )
    return {
        "options_in": options_in,
        "hand_body": hand_body,
        "hand": hand,
        "state": state,
        "new_game": new_game,
        "rule_set": rule_set,
        "stats": stats,
    }


def models_of(part: str) -> list[type[BaseModel]]:
    return [game_models(plugin)[part] for plugin in GAMES.values()]


def one_of(part: str, handler, description: str = "") -> dict:
    """The JSON schema "one of every registered game's ``part`` model"."""
    models = tuple(models_of(part))
    union = models[0] if len(models) == 1 else Union[models]  # noqa: UP007
    found = handler(TypeAdapter(union).core_schema)
    return {**found, "description": description} if description else found


class TableChangeOut(Closed):
    """A change of the table, in order with the hands: as given, with the id it is stored
    under, the hand it came before and, for a join, the starting total it resolved to."""

    id: int | None
    before_hand: int
    kind: Literal["join", "leave", "sit_out", "substitute", "adjust", "schedule"]
    player: str | None = None
    after: str | None = None
    score: int | None = Field(None, description="A join's starting total, as resolved")
    by: str | None = None
    points: int | None = None
    note: str | None = None
    sizes: list[Whole] | None = None
    rounds: Whole | None = None


class GameState(AsGiven):
    """The state of one game: one of these, by ``game``.

    Every game's state model (``game_models(plugin)["state"]``) derives from this one, so an
    answer is an instance of its own game's model: spectree takes it as the documented answer
    and writes it out without checking it a second time (building it checked it).

    ``written``: the JSON of this very state, put together from each hand's JSON written
    once (``services.games.state_answer``), which ``model_dump_json`` then gives as it is:
    a long game's answer is not written out hand by hand on every save."""

    _written: str | None = PrivateAttr(default=None)

    def model_dump_json(self, **options) -> str:
        if self._written is not None and not options:
            return self._written
        return super().model_dump_json(**options)

    @classmethod
    def __get_pydantic_json_schema__(cls, core_schema, handler):
        if cls is not GameState:  # a game's own state model
            return super().__get_pydantic_json_schema__(core_schema, handler)
        return one_of("state", handler, "The state of one game: one of these, by game.")


class HandBody(RootModel[dict[str, Any]]):
    """A hand of the game (one of these, by the game's kind); checked against the game's
    own model once the game is loaded."""

    @classmethod
    def __get_pydantic_json_schema__(cls, core_schema, handler):
        return one_of("hand_body", handler, "A hand of the game, as its own model says.")


class NewGame(Closed):
    """A new game: its players in seat order (new names join the roster), its options (the
    game's defaults fill the rest), the first dealer (default: the first seat) and the
    game night it belongs to."""

    game: str
    players: list[Name]
    options: dict[str, Any] | None = None
    first_dealer: Name | None = None
    night_id: int | None = None

    @classmethod
    def __get_pydantic_json_schema__(cls, core_schema, handler):
        return one_of("new_game", handler, "A new game of one of the games.")


class StatsByGame(RootModel[dict[str, Any]]):
    """Each registered game's figures, by the game's key."""

    @model_validator(mode="after")
    def _by_game(self) -> StatsByGame:
        if set(self.root) != set(GAMES):
            raise ValueError("every registered game's figures, and only those")
        for key, figures in self.root.items():
            game_models(GAMES[key])["stats"].model_validate(figures)
        return self

    @classmethod
    def __get_pydantic_json_schema__(cls, core_schema, handler):
        properties = {
            plugin.key: handler(TypeAdapter(game_models(plugin)["stats"]).core_schema)
            for plugin in GAMES.values()
        }
        return {
            "type": "object",
            "properties": properties,
            "required": list(properties),
            "additionalProperties": False,
        }


class ScopeRating(Closed):
    mu: float
    sigma: float
    ordinal: float
    games: Count
    provisional: bool


class PlayerStatsOut(Closed):
    player: PlayerOut
    played: Count
    won: Count
    in_progress: Count
    win_rate: Rate
    games: StatsByGame
    ratings: dict[str, ScopeRating] = Field(
        default_factory=dict,
        description='The player\'s ratings by scope: a game\'s key, "score_pad/<name>", or "*" '
        "(every card game)",
    )


class OpenApi(BaseModel):
    """This document (OpenAPI 3.1)."""

    model_config = ConfigDict(extra="allow")

    openapi: str
