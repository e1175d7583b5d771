"""The table as it is at each hand: who sits where, who is dealt in and who deals, and the
changes a table makes between two hands (RULES.md, "Every game: the table changes
mid-game"): ``join``, ``leave``, ``sit_out``, ``substitute``, ``adjust`` and ``schedule``.

Pure Python like every module of ``scorekeeper.games``. A game's record is a list of entries
in order: a hand is a mapping (what was entered), a change is a ``Change``. ``GameRules``
folds both (``base.GameRules._fold``); a game says which changes it allows
(``GameRules.table_changes``) and reads each hand's ``Deal`` (the players dealt in, the
dealer) from the tally instead of counting seats itself.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from typing import Any

from scorekeeper.games.errors import Problems
from scorekeeper.games.errors import RuleError
from scorekeeper.games.i18n import _
from scorekeeper.games.i18n import ngettext
from scorekeeper.games.i18n import number
from scorekeeper.games.text import normalize_line

#: Every kind of change, in the order the pages offer them.
KINDS = ("join", "leave", "sit_out", "substitute", "adjust", "schedule")
#: The starting totals a joiner may be given by name (else a whole number).
STARTS = ("last", "zero", "average")
#: A typed starting total, an adjustment's points and its note: the limits RULES.md sets.
START_LIMIT = 10_000
ADJUST_LIMIT = 1000
NOTE_LIMIT = 200


@dataclass(frozen=True)
class Change:
    """One change of the table, as given (``{"kind": "join", "player": "Dee", ...}``), and the
    id it is stored under (a refusal of a later entry names it: ``changes/<id>``)."""

    body: Mapping[str, Any]
    id: int | None = None

    @property
    def kind(self) -> Any:
        return self.body.get("kind")

    @property
    def where(self) -> str | None:
        """What a refusal of the whole change names: the stored change (``changes/7``), or
        nothing for a change being sent (its body is the request's)."""
        return f"changes/{self.id}" if self.id is not None else None

    def field(self, key: str) -> str:
        """What a refusal of one of its values names: ``changes/7.player``, or ``player``
        in the change being sent."""
        return key if self.id is None else f"changes/{self.id}.{key}"


def hand_index(record: Sequence[Any], number: int) -> int:
    """Where hand ``number`` is in a game's record (its changes of the table between hands
    not counted): ``IndexError`` when it has fewer hands."""
    seen = 0
    for index, entry in enumerate(record):
        if not isinstance(entry, Change):
            seen += 1
            if seen == number:
                return index
    raise IndexError(number)


@dataclass
class Place:
    """A place in the circle: its player, and whether that player left (an empty place kept
    only to find the next dealer)."""

    player: str
    gone: bool = False


@dataclass(frozen=True)
class Deal:
    """One hand's table: the players dealt in, in seat order, and the dealer among them."""

    number: int
    players: tuple[str, ...]
    dealer_seat: int
    options: Mapping[str, Any] = field(default_factory=dict)
    #: Everyone who has been at the table so far (a name among them who is not dealt in is
    #: refused as ``not_seated``, a stranger as ``unknown_player``).
    members: tuple[str, ...] = ()

    @property
    def dealer(self) -> str:
        return self.players[self.dealer_seat]

    @property
    def order(self) -> list[str]:
        """The players from the dealer's left round to the dealer (who acts last)."""
        seat = self.dealer_seat
        return list(self.players[seat + 1 :] + self.players[: seat + 1])


class Seating:
    """The circle of places as it stands after the entries folded so far."""

    def __init__(self, players: Sequence[str], first_dealer: int) -> None:
        self.places = [Place(name) for name in players]
        self.first = self.places[first_dealer % len(self.places)] if self.places else None
        self.last_dealer: Place | None = None
        #: Who sits out the next hand (a sit-out stays with the seat on a substitute).
        self.out_next: list[str] = []
        #: Who left, in the order they left (their totals stay on the sheet).
        self.left: list[str] = []
        #: Everyone who has been at the table, in the order they came.
        self.members: list[str] = list(players)

    @property
    def seated(self) -> list[str]:
        """The players at the table now, in seat order (sitters included)."""
        return [place.player for place in self.places if not place.gone]

    def place_of(self, player: str) -> Place | None:
        return next((p for p in self.places if p.player == player and not p.gone), None)

    def deal(self, number: int, options: Mapping[str, Any]) -> Deal:
        """Hand ``number``'s deal: the first player dealt in clockwise after the last hand's
        dealer deals (hand 1: the chosen first dealer, or the first dealt in after them)."""
        dealt = [p for p in self.places if not p.gone and p.player not in self.out_next]
        members = tuple(self.members)
        if not dealt:
            return Deal(number, (), 0, options, members)
        if self.last_dealer is None:
            start = self.places.index(self.first) if self.first in self.places else 0
        else:
            start = self.places.index(self.last_dealer) + 1
        count = len(self.places)
        dealer = next(
            place for k in range(count) if (place := self.places[(start + k) % count]) in dealt
        )
        players = tuple(p.player for p in dealt)
        return Deal(number, players, dealt.index(dealer), options, members)

    def dealt(self, deal: Deal) -> None:
        """Hand ``deal.number`` was played: its dealer is the last dealer; sit-outs are over."""
        self.last_dealer = next(p for p in self.places if p.player == deal.dealer and not p.gone)
        self.out_next = []


def check_change(
    change: Change,
    seating: Seating,
    allowed: Sequence[str],
    sides: Sequence[str],
) -> dict[str, Any]:
    """The change's own problems, all at once (``RuleErrors``), after the checks every
    change has (``change_not_allowed``); the change normalised (names trimmed, numbers
    whole). ``sides``: who may be adjusted (the seated players, or the teams)."""
    body = change.body
    where = change.where
    kind = change.kind
    if not isinstance(body, Mapping):
        raise RuleError("wrong_type", _("A change must be an object."), where)
    if kind not in KINDS:
        raise RuleError(
            "option_value",
            _("A change is one of: %(kinds)s.", kinds=", ".join(KINDS)),
            change.field("kind"),
        )
    if kind not in allowed:
        raise RuleError(
            "change_not_allowed", _("This game does not allow that change."), change.field("kind")
        )
    problems = Problems()
    normal: dict[str, Any] = {"kind": kind}
    seated = seating.seated

    def name(key: str) -> str | None:
        value = body.get(key)
        if value is None:
            problems.add(RuleError("required", _("Name the player."), change.field(key)))
            return None
        if not isinstance(value, str) or not value.strip():
            problems.add(
                RuleError("wrong_type", _("A player is given by name."), change.field(key))
            )
            return None
        return value.strip()

    def at_table(key: str) -> str | None:
        player = name(key)
        if player is not None and player not in seated:
            problems.add(
                RuleError(
                    "not_seated",
                    _("%(name)s is not at the table.", name=player),
                    change.field(key),
                )
            )
            return None
        return player

    if kind == "join":
        player = name("player")
        if player is not None and player in seated:
            problems.add(
                RuleError(
                    "already_seated",
                    _("%(name)s is already at the table.", name=player),
                    change.field("player"),
                )
            )
        normal["player"] = player
        if body.get("after") is not None:
            normal["after"] = at_table("after")
        score = body.get("score")
        returning = player is not None and player in seating.left
        if returning and score is not None:
            problems.add(
                RuleError(
                    "option_value",
                    _(
                        "%(name)s comes back with the total they left with: give no "
                        "starting total.",
                        name=player,
                    ),
                    change.field("score"),
                )
            )
        elif score is None:
            normal["score"] = None if returning else "last"
        elif score in STARTS or (
            isinstance(score, int)
            and not isinstance(score, bool)
            and -START_LIMIT <= score <= START_LIMIT
        ):
            normal["score"] = score
        else:
            problems.add(
                RuleError(
                    "option_value",
                    _(
                        "The starting total is the last place's, zero, the average or a whole "
                        "number from %(low)s to %(high)s.",
                        low=-START_LIMIT,
                        high=START_LIMIT,
                    ),
                    change.field("score"),
                )
            )
    elif kind in ("leave", "sit_out"):
        player = normal["player"] = at_table("player")
        if kind == "sit_out" and player is not None and player in seating.out_next:
            problems.add(
                RuleError(
                    "option_value",
                    _("%(name)s already sits out the next hand.", name=player),
                    change.field("player"),
                )
            )
    elif kind == "substitute":
        normal["player"] = at_table("player")
        by = normal["by"] = name("by")
        if by is not None and by in seated:
            problems.add(
                RuleError(
                    "already_seated",
                    _("%(name)s is already at the table.", name=by),
                    change.field("by"),
                )
            )
        elif by is not None and by in seating.left:
            problems.add(
                RuleError(
                    "option_value",
                    _("%(name)s left the game: they come back by joining.", name=by),
                    change.field("by"),
                )
            )
    elif kind == "adjust":
        side = body.get("player")
        if side is None:
            problems.add(RuleError("required", _("Name the player."), change.field("player")))
        elif not isinstance(side, str) or side.strip() not in sides:
            problems.add(
                RuleError(
                    "not_seated",
                    _("%(name)s is not at the table.", name=str(side)),
                    change.field("player"),
                )
            )
        else:
            normal["player"] = side.strip()
        points = body.get("points")
        if points is None:
            problems.add(RuleError("required", _("Enter the points."), change.field("points")))
        elif isinstance(points, bool) or not isinstance(points, int):
            problems.add(
                RuleError(
                    "wrong_type", _("The points must be a whole number."), change.field("points")
                )
            )
        elif points == 0 or abs(points) > ADJUST_LIMIT:
            problems.add(
                RuleError(
                    "option_value",
                    _(
                        "The points are a whole number from %(low)s to %(high)s, not 0.",
                        low=-ADJUST_LIMIT,
                        high=ADJUST_LIMIT,
                    ),
                    change.field("points"),
                )
            )
        else:
            normal["points"] = points
        note = body.get("note")
        if note is not None:
            with problems.check():
                text = _note(note, change.field("note"))
                if text:
                    normal["note"] = text
    problems.raise_any()
    return normal


def _note(note: object, field: str) -> str:
    """An adjustment's note as a line of text (trimmed, spaces collapsed), refused when it
    is no text, too long, or holds a control (NUL included) or invisible character."""
    if not isinstance(note, str):
        raise RuleError("wrong_type", _("The note must be text."), field)
    text = normalize_line(note, _("The note"), field)
    if len(text) > NOTE_LIMIT:
        raise RuleError(
            "text_too_long",
            _("The note may be at most %(count)s characters.", count=NOTE_LIMIT),
            field,
        )
    return text


def starting_total(
    how: str | int, totals: Mapping[str, int], seated: Sequence[str], low_wins: bool
) -> int:
    """A joiner's starting total: the last place's (the lowest, or the highest where the
    lowest wins), zero, the average of the seated players rounded down, or a typed number."""
    if isinstance(how, int):
        return how
    values = [totals[name] for name in seated if name in totals]
    if how == "zero" or not values:
        return 0
    if how == "average":
        return math.floor(sum(values) / len(values))
    return max(values) if low_wins else min(values)


def check_counts(seated: int, dealt: int, low: int, high: int, where: str) -> None:
    """``player_count`` when the seated players would exceed the game's maximum, or the
    players of the next hand be fewer than its minimum."""
    if seated > high:
        raise RuleError(
            "player_count",
            _("At most %(count)s players can play this game.", count=high),
            where,
        )
    if dealt < low:
        raise RuleError(
            "player_count",
            _("At least %(count)s players must be dealt in.", count=low),
            where,
        )


def describe(change: Mapping[str, Any]) -> str:
    """A change as the state shows it (``State.changes``), as one sentence in the reader's
    language: for the score sheet, the shared view and the CSV."""
    kind = change.get("kind")
    name = change.get("player")
    if kind == "join":
        if change.get("after"):
            return _(
                "%(name)s joins after %(after)s, starting on %(score)s.",
                name=name,
                after=change["after"],
                score=number(change.get("score", 0)),
            )
        return _(
            "%(name)s joins, starting on %(score)s.", name=name, score=number(change.get("score"))
        )
    if kind == "leave":
        return _("%(name)s leaves the game.", name=name)
    if kind == "sit_out":
        return _(
            "%(name)s sits out hand %(number)s.",
            name=name,
            number=number(change.get("before_hand")),
        )
    if kind == "substitute":
        return _("%(by)s takes over from %(name)s.", by=change.get("by"), name=name)
    if kind == "adjust":
        points = change.get("points") or 0
        signed = ("+" if points > 0 else "−") + number(abs(points))
        if change.get("note"):
            return _(
                "%(name)s: %(points)s points (%(note)s).",
                name=name,
                points=signed,
                note=change["note"],
            )
        return _("%(name)s: %(points)s points.", name=name, points=signed)
    if kind == "schedule" and change.get("sizes") is not None:
        sizes = change["sizes"]
        if not sizes:
            return _("The game ends here.")
        return ngettext(
            "%(num)s hand still to play: %(sizes)s cards.",
            "%(num)s hands still to play: %(sizes)s cards.",
            len(sizes),
            sizes=", ".join(number(cards) for cards in sizes),
        )
    if kind == "schedule":
        return ngettext(
            "The game is now %(num)s round.",
            "The game is now %(num)s rounds.",
            change.get("rounds") or 0,
        )
    return str(kind)
