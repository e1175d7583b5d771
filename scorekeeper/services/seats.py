"""Each player on their own phone (RULES.md, "Every game: each player on their own phone").

The scorekeeper makes a seat link (separate from the read-only share link); a phone that
opens it claims a seat and gets a seat token (only its SHA-256 is kept). A seat's phone may
enter only that seat's value for the hand being entered (a bid, a call, or points: what the
game's ``seat_entry`` says), when the rules allow. The values entered so far are the game's *draft*,
kept by seat position on the game row: it survives reloads, restarts and dropped links. Under
secret (simultaneous) bidding no reader but the seat itself sees a value until the last is
in; then the hand opens exactly as if the scorekeeper had entered every bid.

Every write here goes through the game's row (its version goes up), so the pages' ETags and
the event streams see a draft or a claim change like any other change of the game.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import attributes
from sqlalchemy.orm import joinedload

from scorekeeper.errors import NotFound
from scorekeeper.errors import Refusal
from scorekeeper.extensions import db
from scorekeeper.games.base import SeatEntry
from scorekeeper.games.errors import RuleError
from scorekeeper.games.errors import RuleErrors
from scorekeeper.games.i18n import _
from scorekeeper.models import Game
from scorekeeper.models import SeatClaim
from scorekeeper.services import games
from scorekeeper.services import kept as snapshots

#: What a hidden value reads as, to everyone but the seat that entered it.
SECRET = "secret"


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def _commit(game: Game, conflict: Refusal | None = None) -> None:
    """Commit a change that leaves the game's record as it was: what this worker keeps of the
    game (its rules' tally) stays kept for its new version."""
    games.commit(conflict)
    snapshots.carry(game, games.setup_for(game))


def _touch(game: Game) -> None:
    """Make the game's row change (its version goes up), for a change kept elsewhere."""
    attributes.flag_modified(game, "draft")


# The link and the claims ------------------------------------------------------------------


def make_link(game: Game, renew: bool = False) -> Game:
    """Give the game a seat link (a new one with ``renew``, which frees every seat)."""
    if game.seat_link is None or renew:
        if game.seat_link is not None:
            _free_all(game)
        game.seat_link = secrets.token_urlsafe(24)
        _commit(game)
    return game


def revoke_link(game: Game) -> Game:
    """The seat link answers 404 from now on, and every seat token claimed through it 401."""
    if game.seat_link is not None:
        _free_all(game)
        game.seat_link = None
        _commit(game)
    return game


def _free_all(game: Game) -> None:
    db.session.execute(sa.delete(SeatClaim).where(SeatClaim.game_id == game.id))
    _touch(game)


def game_for_link(link: str) -> Game:
    """The game of a seat link with its seats, or 404 (unknown or revoked)."""
    game = (
        db.session.execute(
            sa.select(Game).where(Game.seat_link == link).options(joinedload(Game.seats))
        )
        .unique()
        .scalar_one_or_none()
    )
    if game is None or not link:
        raise NotFound(_("That seat link was not found: ask the scorekeeper for a new one."))
    return game


def claimed(game: Game) -> set[int]:
    """The seat positions held by a phone."""
    rows = db.session.execute(sa.select(SeatClaim.position).where(SeatClaim.game_id == game.id))
    return {row.position for row in rows}


def claimable(game: Game) -> list[str]:
    """The players a phone may claim: those seated now (the hand being entered's table)."""
    return games.played(game).players


def claim(game: Game, name: object) -> str:
    """Claim ``name``'s seat for this phone: a new seat token (kept only as its hash).
    ``seat_taken`` (409) while another phone holds it."""
    if not isinstance(name, str) or name not in claimable(game):
        raise Refusal("unknown_player", _("Pick one of the players at the table."), "player")
    position = game.members.index(name)
    if position in claimed(game):
        raise Refusal(
            "seat_taken",
            _(
                "%(name)s's seat is taken by another phone: the scorekeeper can free it.",
                name=name,
            ),
            "player",
        )
    token = secrets.token_urlsafe(32)
    db.session.add(SeatClaim(game_id=game.id, position=position, token_hash=_hash(token)))
    _touch(game)
    _commit(game, Refusal("seat_taken", _("That seat was just taken by another phone.")))
    return token


def free(game: Game, name: str) -> Game:
    """Free ``name``'s seat: the phone holding it is refused (401) from now on."""
    if name not in game.members:
        raise NotFound(_("No such player in this game."))
    db.session.execute(
        sa.delete(SeatClaim).where(
            SeatClaim.game_id == game.id, SeatClaim.position == game.members.index(name)
        )
    )
    _touch(game)
    _commit(game)
    return game


def claimed_names(game: Game) -> list[str]:
    members = game.members
    held = claimed(game)
    return [name for position, name in enumerate(members) if position in held]


@dataclass
class SeatHolder:
    """A phone's seat: its game and the player in it."""

    game: Game
    name: str


def seat_for_token(token: str | None) -> SeatHolder:
    """The seat a seat token holds, or 401 (unknown, freed or revoked)."""
    row = None
    if token:
        row = db.session.execute(
            sa.select(SeatClaim).where(SeatClaim.token_hash == _hash(token))
        ).scalar_one_or_none()
    if row is None:
        raise Refusal(
            "unauthorized",
            _("This phone no longer holds a seat: open the seat link again to take one."),
        )
    game = (
        db.session.execute(
            sa.select(Game)
            .where(Game.id == row.game_id)
            .options(joinedload(Game.seats), joinedload(Game.hands))
        )
        .unique()
        .scalar_one()
    )
    return SeatHolder(game, game.members[row.position])


# The draft: the hand being entered ----------------------------------------------------------


@dataclass
class Draft:
    """The hand being entered: its number, each entered value by name, who is still to enter
    (in the hand's order), and what the game's phones enter."""

    number: int
    values: dict[str, Any]
    players: list[str]
    spec: SeatEntry
    #: Each of the entry's marks (``SeatEntry.marks``) with the names on it, in the hand's order.
    marked: dict[str, list[str]] = field(default_factory=dict)
    #: Which of ``spec.choices`` the seat whose turn it is may send now (None: any number).
    choices: list[Any] | None = None

    def entry(self) -> dict[str, Any]:
        """The values so far as the hand's entry: ``{key: {name: value}, mark: [names]}``, or
        with ``SeatEntry.turns`` ``{key: [[name, value or None], ...]}`` in the hand's order."""
        marked = {k: v for k, v in self.marked.items() if v}
        if self.spec.turns:
            turns = [[name, self.values.get(name)] for name in self.players]
            return {self.spec.key: turns, **marked}
        return {self.spec.key: dict(self.values), **marked}

    def turns(self) -> list[tuple[str, Any]]:
        """The values entered so far, in the hand's order."""
        return [(name, self.values[name]) for name in self.players if name in self.values]

    @property
    def waiting(self) -> list[str]:
        return [name for name in self.players if name not in self.values]

    @property
    def complete(self) -> bool:
        return not self.waiting

    def turn(self) -> str | None:
        """Whose turn it is under bids in turn (None: anyone still waiting may enter)."""
        if not self.spec.in_turn or not self.waiting:
            return None
        return self.waiting[0]

    def shown(self, reader: str | None = None) -> dict[str, Any]:
        """The values as ``reader`` may see them (a seat's name; None: the scorekeeper, the
        shared view): under secret bidding, every other seat's value reads ``"secret"``."""
        if self.spec.secret:
            return {
                name: value if name == reader else SECRET for name, value in self.values.items()
            }
        return dict(self.values)

    def seen_by(self, reader: str | None) -> tuple:
        """Who sees the draft as ``reader`` does (``answer`` is the same for them): every
        reader, unless the values are secret; then ``reader`` alone."""
        return ("seat", reader) if self.spec.secret else ("everyone",)

    def answer(self, reader: str | None = None) -> dict[str, Any]:
        hidden = self.spec.secret
        return {
            "number": self.number,
            "entries": self.shown(reader),
            "entered": [name for name in self.players if name in self.values],
            "waiting": self.waiting,
            "turn": self.turn(),
            "choices": self.choices,
            "marks": {
                mark: [name for name in names if not hidden or name == reader]
                for mark, names in self.marked.items()
                if names
            },
        }


def _order(played: games.Played) -> list[str]:
    """The players of the hand being entered, in the order they enter (bids from the dealer's
    left when the game says so)."""
    upcoming = played.state.next or {}
    order = upcoming.get("order")
    return list(order) if order else played.players


def draft_of(played: games.Played) -> Draft | None:
    """The hand being entered from the phones, or None when the game's phones enter nothing,
    the game is over or the hand's values are all recorded (its tricks come next)."""
    game = played.game
    spec = played.rules.seat_entry(played.setup.options)
    upcoming = played.state.next
    if spec is None or upcoming is None or played.state.finished or game.locked:
        return None
    number = upcoming["number"]
    if number <= len(played.state.hands):
        return None  # the hand is open: its values are in, the scorekeeper goes on
    players = _order(played)
    stored = game.draft or {}
    values: dict[str, Any] = {}
    marked: dict[str, list[str]] = {}
    if stored.get("number") == number:
        members = game.members
        for position, value in stored.get("entries", {}).items():
            name = members[int(position)]
            if name in players:
                values[name] = value
        for mark, positions in stored.get("marks", {}).items():
            on = {members[int(position)] for position in positions}
            if mark in spec.marks:
                marked[mark] = [name for name in players if name in on and name in values]
    # In the hand's order, however the database keeps the keys (PostgreSQL's jsonb sorts
    # them): the draft reads the same from the row as read and as just written.
    values = {name: values[name] for name in players if name in values}
    draft = Draft(number, values, players, spec, marked)
    draft.choices = _choices(played, draft)
    return draft


def _choices(played: games.Played, draft: Draft) -> list[Any] | None:
    """What the seat whose turn it is may send now (None: any whole number; nobody's turn)."""
    if draft.turn() is None:
        return None
    upcoming = played.state.next or {}
    return played.rules.seat_choices(played.setup.options, upcoming, draft.turns())


def _keep(game: Game, draft: Draft | None) -> None:
    if draft is None or not draft.values:
        game.draft = None
    else:
        members = game.members
        entries = {str(members.index(name)): value for name, value in draft.values.items()}
        game.draft = {"number": draft.number, "entries": entries}
        marks = {
            mark: [str(members.index(name)) for name in names]
            for mark, names in draft.marked.items()
            if names
        }
        if marks:
            game.draft["marks"] = marks
    _touch(game)


def _check(played: games.Played, draft: Draft) -> None:
    """The rules' word on the values so far, as the hand's entry: a set still incomplete is
    refused only for what is wrong with a value entered (not for the values still missing)."""
    game = played.game
    rules = played.rules
    entries = games.entries_of(game, played.setup)
    try:
        rules.play(played.setup, [*entries, draft.entry()])
    except RuleError as error:
        found = [
            each
            for each in error.errors
            if draft.complete or each.code not in draft.spec.incomplete
        ]
        if found:
            raise Refusal.from_rule(
                found[0] if len(found) == 1 else RuleErrors(found), rules
            ) from None


def preview(played: games.Played, draft: Draft) -> Any:
    """The game's state with the values entered so far as the hand's entry, when the rules
    take a partial hand (what the dealer may not bid under the hook is then known); the
    state as recorded otherwise, and always while the values are secret."""
    if not draft.values or draft.spec.secret:
        return played.state
    entries = games.entries_of(played.game, played.setup)
    try:
        return played.rules.play(played.setup, [*entries, draft.entry()])
    except RuleError:
        return played.state


@dataclass
class Place:
    total: int
    place: int
    of: int


def place_of(played: games.Played, name: str) -> Place | None:
    """``name``'s total (their side's, in partnerships) and place: 1 + the sides ahead."""
    state = played.state
    sides = [side for side in state.sides if side in state.totals]
    mine = next((side for side in sides if name in (side, *side.split(" & "))), None)
    if mine is None:
        return None
    sign = 1 if state.low_wins else -1
    total = state.totals[mine]
    ahead = sum(1 for side in sides if sign * state.totals[side] < sign * total)
    return Place(total, ahead + 1, len(sides))


def _not_open(played: games.Played) -> Draft:
    draft = draft_of(played)
    if draft is None:
        games.check_open(played.game)
        raise Refusal(
            "not_your_turn",
            _("Nothing to enter from the phones now: the scorekeeper goes on with this hand."),
        )
    return draft


def enter(
    played: games.Played,
    name: str,
    value: object,
    by_seat: bool = True,
    marks: Mapping[str, object] | None = None,
) -> games.Played:
    """``name``'s value for the hand being entered (from that seat's phone, or with
    ``by_seat`` False from the scorekeeper, who may enter any seat's in any order), with the
    ``marks`` it sets or clears (``{"<mark>": True}``: ``SeatEntry.marks``). The last bid
    opens the hand; under secret bidding with the hook, a full set the hook forbids is refused
    as a whole and every bid cleared."""
    game = played.game
    games.check_open(game)
    draft = _not_open(played)
    if name not in draft.players:
        raise Refusal("not_seated", _("%(name)s is not dealt into this hand.", name=name))
    spec = draft.spec
    turn = draft.turn()
    if by_seat:
        if name in draft.values and not spec.secret:
            raise Refusal(
                "not_your_turn",
                _("Your entry is in: the scorekeeper can correct it."),
                spec.field,
            )
    elif spec.turns and name in draft.values:
        # A turn taken again: the turns after it were made after it, they are taken again too.
        draft.values = dict(draft.turns()[: draft.players.index(name)])
        turn = name
    if (by_seat or spec.turns) and turn is not None and turn != name:
        raise Refusal("not_your_turn", _("It is %(name)s's turn to bid.", name=turn), spec.field)
    if spec.word(value) is not None:
        value = spec.word(value)
    elif isinstance(value, bool) or not isinstance(value, int):
        raise Refusal("wrong_type", _("Enter a whole number."), spec.field)
    for mark, on in (marks or {}).items():
        if mark not in spec.marks or not isinstance(on, bool):
            only = _("Send this seat's %(field)s only.", field=spec.field)
            raise Refusal("wrong_type", only, mark)
    draft.values[name] = value
    for mark in draft.spec.marks:
        names = [other for other in draft.marked.get(mark, []) if other != name]
        if (marks or {}).get(mark):
            names.append(name)
        draft.marked[mark] = [other for other in draft.players if other in names]
    try:
        _check(played, draft)
    except Refusal as refusal:
        if draft.complete and draft.spec.secret:
            # The table bids again: every bid is cleared (RULES.md, simultaneous bidding).
            _keep(game, None)
            _commit(game)
        raise refusal
    if _fill_forced(played, draft):
        _check(played, draft)
    if draft.complete and draft.spec.opens:
        game.draft = None
        return games.record_hand(game, draft.entry(), draft.number)
    _keep(game, draft)
    _commit(game)
    # The game's state does not hold the draft: it is the one derived before the entry.
    return games.Played(game, played.plugin, played.setup, played.state)


def _fill_forced(played: games.Played, draft: Draft) -> bool:
    """Enter the value of each seat in turn that the rules leave a single choice (after the
    highest bid there is, the others may only say the one word left): whether any was."""
    filled = False
    while draft.turn() is not None:
        choices = _choices(played, draft)
        if choices is None or len(choices) != 1:
            break
        draft.values[draft.turn()] = choices[0]
        filled = True
    return filled


def clear(played: games.Played) -> games.Played:
    """The scorekeeper clears every value entered for the hand (the table starts again)."""
    game = played.game
    games.check_open(game)
    if game.draft is not None:
        game.draft = None
        _touch(game)
        _commit(game)
    return games.played(game)
