"""The JSON API's request and response bodies, declared once with pydantic.

The same models validate what the API is sent (spectree, before a view runs), build what it
answers (a view returns an instance, which spectree writes out) and write the OpenAPI
document. Every object is closed and strict. What depends on the game (its options, its
hands, what its rules derive, its statistics) is built from the registered games
(``game_models``) each time the document is built, so a game registered later (a test's) is
in the document and validated like the others.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import Annotated
from typing import Any
from typing import Literal
from typing import Union

from pydantic import BaseModel
from pydantic import ConfigDict
from pydantic import Field
from pydantic import RootModel
from pydantic import TypeAdapter
from pydantic import create_model
from pydantic import model_serializer
from pydantic import model_validator

from scorekeeper.games import GAMES
from scorekeeper.games import GamePlugin
from scorekeeper.games.base import Option
from scorekeeper.games.i18n import english
from scorekeeper.games.schema import Bonus
from scorekeeper.games.schema import Closed
from scorekeeper.games.schema import NoExtra

Count = Annotated[int, Field(ge=0)]
Rate = Annotated[float | None, Field(description="null when there is nothing to divide by")]
Moment = Annotated[str, Field(description="ISO 8601 date and time with its zone")]
Status = Literal["in_progress", "finished", "abandoned"]


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


class Credentials(Closed):
    username: str
    password: str


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
    name: str


class PlayerChange(Closed):
    name: str | None = None
    archived: bool | None = None


# Lists and nights -------------------------------------------------------------------------


class NewRuleSet(Closed):
    game: str
    name: str
    options: dict[str, Any]


class RuleSetOut(Closed):
    id: int
    game: str
    name: str
    options: dict[str, Any]


class RuleSetList(Closed):
    rule_sets: list[RuleSetOut]


class TableChange(Closed):
    """A correction of the table: the players in their true seat order, the first dealer."""

    players: list[str] | None = None
    first_dealer: str | None = None


class ListQuery(BaseModel):
    """Filters of the account's lists: by a player's roster name, by game, a page."""

    model_config = ConfigDict(extra="ignore")

    player: str | None = None
    game: str | None = None
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
    date: str | None = Field(None, description="YYYY-MM-DD; default: today")
    # Lengths are the nights service's to check (422 text_too_long, spaces collapsed first).
    name: str | None = Field(None, json_schema_extra={"maxLength": 80})
    place: str | None = Field(None, json_schema_extra={"maxLength": 80})
    notes: str | None = Field(None, json_schema_extra={"maxLength": 2000})


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


class Restored(Closed):
    restored: dict[str, int] = Field(description="How many players, nights, games and hands")


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


class LeaderboardQuery(Closed):
    """One variant of a game only (a score pad's game name, an Oh Hell preset)."""

    variant: Annotated[str, Field(max_length=60)] | None = None


class Variant(Closed):
    variant: str
    label: str


class Leaderboard(Closed):
    game: str
    variant: str | None = Field(description="The variant the board is of (null: all of them)")
    plays: int = Field(description="Finished games of the game (of the variant)")
    variants: list[Variant] = Field(description="The variants the account has finished games of")
    players: list[Standing]


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
        kind = Annotated[str, Field(min_length=spec.minimum, max_length=spec.maximum)]
    elif spec.kind == "list":
        kind = list[Annotated[int, Field(ge=spec.minimum, le=spec.maximum)]]
    else:
        kind = Annotated[int, Field(ge=spec.minimum, le=spec.maximum)]
    described = Annotated[
        kind, Field(description=english(spec.help or spec.label), title=english(spec.label))
    ]
    return described | None if optional or spec.default is None else described


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
    options_in = create_model(
        f"{name}OptionsIn",
        __base__=Closed,
        **{spec.key: (_option_type(spec, True), None) for spec in specs},
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
    )
    state = create_model(
        f"{name}State",
        __base__=(GameState, getattr(schema, "Extra", NoExtra)),
        id=(int, ...),
        game=(Literal[plugin.key], ...),
        night_id=(int | None, ...),
        options=(options_out, ...),
        players=(list[str], ...),
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
    new_game = create_model(
        f"{name}NewGame",
        __base__=Closed,
        game=(Literal[plugin.key], ...),
        players=(list[str], Field(..., description="Names in seat order, clockwise")),
        options=(options_in | None, None),
        first_dealer=(str | None, None),
        night_id=(int | None, None),
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


class GameState(AsGiven):
    """The state of one game: one of these, by ``game``.

    Every game's state model (``game_models(plugin)["state"]``) derives from this one, so an
    answer is an instance of its own game's model: spectree takes it as the documented answer
    and writes it out without checking it a second time (building it checked it)."""

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
    players: list[str]
    options: dict[str, Any] | None = None
    first_dealer: str | None = None
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


class PlayerStatsOut(Closed):
    player: PlayerOut
    played: Count
    won: Count
    in_progress: Count
    win_rate: Rate
    games: StatsByGame


class OpenApi(BaseModel):
    """This document (OpenAPI 3.1)."""

    model_config = ConfigDict(extra="allow")

    openapi: str


class GameKey(RootModel[str]):
    """One of the registered games' keys."""

    @classmethod
    def __get_pydantic_json_schema__(cls, core_schema, handler):
        return {"type": "string", "enum": list(GAMES)}
