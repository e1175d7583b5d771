"""Games: create, record and correct hands, undo, reopen; the state as the rules derive it.

What is stored is what was entered, normalised by the rules and keyed by seat. A view loads
the game once (``get_game``: one query with its seats, players and hands) and hands it to the
service, which replays the game once through its rules, refuses what they refuse (nothing is
changed then) and writes the entry and every derived copy in one transaction
(``results.store``), so a correction re-scores every later hand.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from collections.abc import Mapping
from collections.abc import Sequence
from contextlib import suppress
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import joinedload
from sqlalchemy.orm import selectinload
from sqlalchemy.orm.attributes import set_committed_value
from sqlalchemy.orm.exc import StaleDataError

from scorekeeper.api.schemas import GameState
from scorekeeper.api.schemas import GameSummary
from scorekeeper.api.schemas import game_models
from scorekeeper.errors import NotFound
from scorekeeper.errors import Problem
from scorekeeper.errors import Refusal
from scorekeeper.errors import as_refusal
from scorekeeper.extensions import db
from scorekeeper.games import GAMES
from scorekeeper.games import GamePlugin
from scorekeeper.games import RuleError
from scorekeeper.games import Setup
from scorekeeper.games import State
from scorekeeper.games import table_form
from scorekeeper.games.base import Entry
from scorekeeper.games.base import Problems
from scorekeeper.games.i18n import N_
from scorekeeper.games.i18n import _
from scorekeeper.games.i18n import ngettext
from scorekeeper.games.page_context import players_now
from scorekeeper.games.readers import join_names
from scorekeeper.games.table import Change
from scorekeeper.games.table import hand_index
from scorekeeper.models import UNRATED
from scorekeeper.models import Account
from scorekeeper.models import Game
from scorekeeper.models import HandEntry
from scorekeeper.models import Night
from scorekeeper.models import Player
from scorekeeper.models import Seat
from scorekeeper.models import TableChange
from scorekeeper.models import as_utc
from scorekeeper.models import utcnow
from scorekeeper.services import kept as snapshots
from scorekeeper.services import players as roster
from scorekeeper.services import ratings as rating_steps
from scorekeeper.services import results

CONFLICT = N_("Someone changed this game at the same moment. Reload it and try again.")
NEW_GAME_CONFLICT = N_(
    "Someone changed these players at the same moment. Nothing was saved: try again."
)
#: How often a new game is tried again when its new players were added elsewhere meanwhile.
NEW_GAME_TRIES = 3


@dataclass
class Played:
    """A game with the state its rules derive from the hands entered so far."""

    game: Game
    plugin: GamePlugin
    setup: Setup
    state: State
    #: What the API says of each hand, kept with the game's snapshot (``kept``): by hand
    #: number, the hand, its model and its JSON (``state_answer``); None: not kept.
    hand_json: dict[int, tuple[Any, Any, str]] | None = None

    @property
    def rules(self):
        return self.plugin.rules

    @property
    def players(self) -> list[str]:
        """The players of the hand to enter: dealt into the open hand or the next one (the
        starting table, until the table changes)."""
        return players_now(self.state, self.setup.players)


def setup_for(game: Game) -> Setup:
    return Setup(players=tuple(game.players), options=game.options, first_dealer=game.first_dealer)


#: The keys of a change that name a player (stored as the player's seat position).
CHANGE_NAMES = ("player", "after", "by")


def change_entry(row: TableChange, members: Sequence[str]) -> Change:
    """A stored change as the rules read it: every seat position named again."""
    body = dict(row.body)
    for key in CHANGE_NAMES:
        value = body.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            body[key] = members[value]
        elif isinstance(value, list):  # a team, by its players' seats
            body[key] = " & ".join(members[seat] for seat in value)
    return Change(body, row.id)


def change_by_seat(body: Mapping[str, Any], members: Sequence[str]) -> dict[str, Any]:
    """A change the rules took (names normalised), with every name by seat position (a
    team by its players' seats)."""
    stored = dict(body)
    for key in CHANGE_NAMES:
        name = stored.get(key)
        if name is None:
            continue
        if name in members:
            stored[key] = members.index(name)
        else:
            stored[key] = [members.index(part) for part in name.split(" & ")]
    return stored


def entries_of(game: Game, setup: Setup) -> list[Entry]:
    """The game's record in order: what was entered in each hand and the table's changes
    between them, with the names of the players now in the seats."""
    return record_of(game, game.members)


def record_of(game: Game, members: Sequence[str]) -> list[Entry]:
    """The game's record read with ``members`` in the seats (by position)."""
    rules = game.plugin.rules
    hands = [rules.from_seats(row.input, list(members)) for row in game.hands]
    if not game.changes:
        return hands
    record: list[Entry] = []
    changes = list(game.changes)
    for number, hand in enumerate(hands, start=1):
        while changes and changes[0].before_hand <= number:
            record.append(change_entry(changes.pop(0), members))
        record.append(hand)
    record += [change_entry(row, members) for row in changes]
    return record


def _refused(rules, error: RuleError, kept: bool) -> Refusal:
    """The rules' refusal as the services refuse (``kept``: a record was being changed)."""
    if kept and error.kept_state is None:
        _name_the_later_entry(error)
    refusal = Refusal.from_rule(error, rules)
    refusal.kept_state = error.kept_state
    return refusal


def _replay(
    plugin: GamePlugin,
    setup: Setup,
    entries: Sequence[Mapping[str, Any]],
    kept: Sequence[Mapping[str, Any]] | None = None,
    changed: int = 0,
) -> State:
    """The rules' one pass over ``entries``. With ``kept`` (the record as it stands, of which
    ``entries`` changes the entries from index ``changed`` on), a refusal of the changed
    entry carries in ``kept_state`` the state of the record as it stands, derived in the same
    pass (see ``GameRules.replay``)."""
    rules = plugin.rules
    try:
        if kept is None:
            return rules.play(setup, entries)
        return rules.replay(setup, entries, kept, changed)
    except RuleError as error:
        raise _refused(rules, error, kept is not None) from None


def _name_the_later_entry(error: RuleError) -> None:
    """A change that breaks a later hand: each problem's field names that hand first
    (``hands/5.bids.Ann``); a later change's fields name it already (``changes/7.player``)."""
    for each in error.errors:
        field = each.field or ""
        if each.hand is not None and not field.startswith("changes/"):
            each.field = f"hands/{each.hand}.{field}" if field else f"hands/{each.hand}"


def _closed(game: Game, setup: Setup, state: State) -> State:
    """A game the table ended (one that ends only when the scorekeeper says so, such as an
    open-ended score pad) still ended, by the rules' ``close``."""
    if game.status == "finished" and not state.finished:
        # Nothing left to end it with (every hand undone): the game goes on.
        with suppress(RuleError):
            state = game.plugin.rules.close(setup, state)
    return state


def _replay_game(game: Game, setup: Setup, entries: Sequence[Mapping[str, Any]]) -> State:
    """The state of a stored game: its hands replayed, and closed if the table ended it."""
    return _closed(game, setup, _replay(game.plugin, setup, entries))


def played(game: Game) -> Played:
    """The derived state of a loaded game: the state kept of it (``kept``), or one replay
    (then kept)."""
    setup = setup_for(game)
    state, snapshot = kept_state(game, setup)
    kept = snapshot.hand_json if snapshot is not None else None
    return Played(game, game.plugin, setup, _closed(game, setup, state), kept)


def kept_state(game: Game, setup: Setup) -> tuple[State, snapshots.Snapshot | None]:
    """The state of a stored game's record (not closed) and what is kept of it: the kept
    tally's, or one replay of the record, then kept."""
    rules = game.plugin.rules
    snapshot = snapshots.get(game, setup)
    if snapshot is None:
        try:
            tally, before = rules.fold(setup, entries_of(game, setup))
        except RuleError as error:
            raise _refused(rules, error, False) from None
        snapshot = snapshots.put(game, setup, tally, before=before)
        return rules.state_of(tally), snapshot
    return rules.state_of(snapshot.tally), snapshot


@dataclass
class Folded:
    """A save that went on from the kept tally: the tallies to keep once it is committed
    (``tally`` the new record's, ``before`` the one before its last entry) and the figures of
    the hands before the one saved (``results.derive``'s ``base``)."""

    tally: Any
    before: Any
    base: list[dict[str, int]] | None
    before_sums: list[dict[str, int]] | None = None
    hand_json: dict[int, tuple[Any, Any, str]] | None = None


def _fold_on(game: Game, snapshot: snapshots.Snapshot, start, entry: Entry) -> State:
    """``entry`` folded as the record's last entry onto the kept tally ``start``; a refusal
    carries the state of the record as it stands (the kept tally's)."""
    rules = game.plugin.rules
    try:
        return rules.fold_on(start, entry)
    except RuleError as error:
        error.kept_state = rules.state_of(snapshot.tally)
        raise _refused(rules, error, True) from None


def as_it_stands(game: Game, refusal: Refusal) -> Played:
    """The game a refused save loaded, as it stands: the state the refused attempt derived on
    its way (``Refusal.kept_state``: no second replay), or one replay when it derived none (a
    refusal before the rules, or of a later hand than the one changed)."""
    if refusal.kept_state is None:
        return played(game)
    setup = setup_for(game)
    return Played(game, game.plugin, setup, _closed(game, setup, refusal.kept_state))


# Reading ----------------------------------------------------------------------------------


def get_game(account: Account, game_id: int) -> Game:
    """The account's game with its seats, players, changes and night (one query), or 404 for
    anyone else's; its hands (one more query) unless this worker keeps the game (``kept``),
    whose saves and pages need none of them."""
    game = (
        db.session.execute(_game_by_id(), {"game_id": game_id, "account_id": account.id})
        .unique()
        .scalar_one_or_none()
    )
    if game is None:
        raise NotFound(_("That game was not found."))
    if snapshots.get(game, setup_for(game)) is None:
        # Not kept here: its hands will be replayed, read now with its row (as selectinload
        # would), not later when another request may have added one.
        game.hands  # noqa: B018
    return game


def game_query(account: Account, game_id: int, *also):
    """The SELECT of ``get_game`` (with ``also``: more columns or entities, outer-joined by
    the caller). The hands are not in it: they come in a statement of their own when they
    are read (joined to the seats, a 400-round game of two came back as 800 rows, each
    decoding the game's JSON columns again), and a game kept by this worker (``kept``) is
    shown and saved without reading them (bench/long_game.py)."""
    return _game_select(game_id, account.id, *also)


def _game_select(game_id, account_id, *also):
    return (
        sa.select(Game, *also)
        .where(Game.id == game_id, Game.account_id == account_id)
        .options(
            joinedload(Game.seats),
            joinedload(Game.changes),
            joinedload(Game.night),
        )
    )


@functools.cache
def _game_by_id() -> sa.Select:
    """``game_query``'s SELECT built once per process, with the game's and the account's ids
    as parameters: building it on every request cost more than running it (0.3 ms)."""
    return _game_select(sa.bindparam("game_id"), sa.bindparam("account_id"))


def whole_game() -> tuple:
    """The loader options that read a game with everything its state needs, hands included
    (two statements): an event stream's read of the game it follows."""
    return (
        joinedload(Game.seats),
        selectinload(Game.hands),
        joinedload(Game.changes),
        joinedload(Game.night),
    )


def load(account: Account, game_id: int) -> Played:
    return played(get_game(account, game_id))


def games_query(account: Account, player: str | None = None, kind: str | None = None):
    """The account's games (by a player's roster name, by game), newest first."""
    query = sa.select(Game).where(Game.account_id == account.id)
    if kind:
        query = query.where(Game.kind == kind)
    if player:
        query = query.where(
            Game.id.in_(
                sa.select(Seat.game_id)
                .join(Player, Player.id == Seat.player_id)
                .where(Player.account_id == account.id, Player.name_key == roster.name_key(player))
            )
        )
    return query.options(selectinload(Game.seats)).order_by(Game.created_at.desc(), Game.id.desc())


def list_games(
    account: Account,
    player: str | None = None,
    kind: str | None = None,
    page: int = 1,
    per_page: int = 20,
):
    """A page of the account's games (``.items``, ``.total``), newest first."""
    return db.paginate(
        games_query(account, player, kind), page=page, per_page=per_page, error_out=False
    )


# Creating ---------------------------------------------------------------------------------


def last_options(account: Account, kind: str) -> dict[str, Any]:
    """The options the account chose for its newest game of ``kind``: those that differ from
    the defaults for its table (a default that follows the player count, such as the most
    cards in a hand, is left to the next table); {} before the first game of that kind."""
    plugin = GAMES.get(kind)
    seats = sa.select(sa.func.count()).where(Seat.game_id == Game.id).scalar_subquery()
    row = db.session.execute(
        sa.select(Game.options, seats)
        .where(Game.account_id == account.id, Game.kind == plugin.key)
        .order_by(Game.created_at.desc(), Game.id.desc())
        .limit(1)
    ).first()
    if row is None:
        return {}
    options, players = row
    defaults = plugin.rules.defaults(players)
    return {
        key: value
        for key, value in (options or {}).items()
        if key in defaults and value != defaults[key]
    }


def create_game(
    account: Account,
    kind: object,
    names: object,
    options: object = None,
    first_dealer: object = None,
    night_id: object = None,
) -> Played:
    """A new game: players in seat order (new names join the roster), options, first dealer,
    and optionally the game night it belongs to. Every problem is reported at once."""
    problems: list[Problem] = []
    plugin = None
    if not isinstance(kind, str):
        problems.append(Problem("wrong_type", _("Choose a game."), "game"))
    else:
        try:
            plugin = GAMES.get(kind)
        except RuleError as error:
            problems += Refusal.from_rule(error).problems
    cleaned: list[str] = []
    if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
        problems.append(
            Problem("wrong_type", _(_("Players must be a list of names in seat order.")), "players")
        )
    else:
        for index, name in enumerate(names):
            try:
                cleaned.append(roster.clean_name(name))
            except Refusal as refusal:
                problems += [
                    Problem(p.code, p.message, f"players.{index}") for p in refusal.problems
                ]
    keys = [roster.name_key(name) for name in cleaned]
    if options is None:
        options = {}
    if not isinstance(options, Mapping):
        problems.append(
            Problem("wrong_type", _("Options must be an object of option values."), "options")
        )
        options = {}
    if len(set(keys)) != len(keys):
        problems.append(
            Problem("player_count", _(_("Each player can sit at the table only once.")), "players")
        )
    resolved: dict[str, Any] = {}
    if plugin is not None:
        found = Problems()
        with found.check():
            resolved = plugin.rules.resolve_options(options, len(cleaned))
        if isinstance(names, list) and len(set(keys)) == len(keys):
            with found.check():
                plugin.rules.check_players(cleaned, resolved or plugin.rules.defaults(len(cleaned)))
        for error in found.errors:
            problems += Refusal.from_rule(error).problems
    dealer_seat = 0
    if first_dealer is not None:
        wanted = roster.name_key(first_dealer) if isinstance(first_dealer, str) else None
        if wanted not in keys:
            problems.append(
                Problem(
                    "unknown_player",
                    _(_("The first dealer must be one of the players.")),
                    "first_dealer",
                )
            )
        else:
            dealer_seat = keys.index(wanted)
    night = None
    if night_id is not None:
        if isinstance(night_id, bool) or not isinstance(night_id, int):
            problems.append(Problem("wrong_type", "night_id must be a whole number.", "night_id"))
        else:
            night = db.session.get(Night, night_id) if 0 < night_id < 2**31 else None
            if night is None or night.account_id != account.id:
                problems.append(Problem("not_found", _("That night was not found."), "night_id"))
    if problems:
        raise Refusal.of(problems)

    setup = Setup(tuple(cleaned), resolved, dealer_seat)
    state, tally = _begun(plugin, setup)
    night_id = night.id if night is not None else None
    # A new name may be added by another request at the same moment (two phones starting
    # games with the same new players): the unique name key refuses the second insert, the
    # whole game is rolled back, and the next try finds the player the other request added.
    tries = 1
    while True:
        seated = _players_for(account, cleaned)
        spelt = tuple(player.name for player in seated)
        if spelt != setup.players:  # "ann" typed: Ann, as the roster spells her
            setup = Setup(spelt, resolved, dealer_seat)
            state, tally = _begun(plugin, setup)
        game = Game(
            account_id=account.id,
            night_id=night_id,
            kind=plugin.key,
            options=resolved,
            first_dealer=dealer_seat,
            variant=plugin.rules.variant_of(resolved),
            seats=[Seat(position=i, player=player) for i, player in enumerate(seated)],
        )
        db.session.add(game)
        try:
            derived = results.store(game, plugin, setup, state)
            db.session.commit()
            kept = snapshots.put(game, setup, tally, sums=derived.sums)
            return Played(game, plugin, setup, state, kept.hand_json if kept else None)
        except (StaleDataError, sa.exc.IntegrityError):
            db.session.rollback()
            if tries == NEW_GAME_TRIES:
                raise Refusal("conflict", NEW_GAME_CONFLICT) from None
            tries += 1


def _begun(plugin: GamePlugin, setup: Setup) -> tuple[State, Any]:
    """A new game's state and its rules' tally before the first hand."""
    try:
        tally, _before = plugin.rules.fold(setup, [])
    except RuleError as error:
        raise _refused(plugin.rules, error, False) from None
    return plugin.rules.state_of(tally), tally


def _players_for(account: Account, names: list[str]) -> list[Player]:
    """The roster's players of these names (in order), adding the new ones (one query)."""
    keys = [roster.name_key(name) for name in names]
    found = {
        player.name_key: player
        for player in db.session.scalars(
            sa.select(Player).where(Player.account_id == account.id, Player.name_key.in_(keys))
        )
    }
    players = []
    for name, key in zip(names, keys, strict=True):
        if key not in found:
            found[key] = Player(account_id=account.id, name=name, name_key=key)
            db.session.add(found[key])
        players.append(found[key])
    return players


# Playing again ----------------------------------------------------------------------------


@dataclass(frozen=True)
class NextGame:
    """A finished game's table once more: the same game, the same players in the same seats,
    the same options (every value as stored), the same night, and the first dealer one seat
    to the left (the next seat clockwise after the last game's first dealer)."""

    kind: str
    seated: tuple[Player, ...]
    options: dict[str, Any]
    first_dealer: int
    night_id: int | None

    @property
    def players(self) -> list[str]:
        return [player.name for player in self.seated]

    @property
    def dealer(self) -> Player:
        return self.seated[self.first_dealer]

    @property
    def archived(self) -> list[str]:
        """The players taken off the roster (archived) since: they cannot be seated again."""
        return [player.name for player in self.seated if player.archived]


def next_game(game: Game) -> NextGame:
    """What "Play again" starts from a finished game (its seats loaded); a game that is not
    finished is refused."""
    if game.status != "finished":
        raise Refusal(
            "not_finished", _("This game is not finished yet: play it to the end first."), None
        )
    by_name = {seat.player.name: seat.player for seat in game.seats}
    first = game.players[game.first_dealer % len(game.players)]
    # The table as it ended (joiners where they sat; no one who left).
    names = (played(game).state.players if game.changes else None) or game.players
    seated = tuple(by_name[name] for name in names)
    # One seat to the left of the last game's first dealer (or of their seat's new holder).
    start = names.index(first) if first in names else game.first_dealer % len(names) - 1
    return NextGame(
        kind=game.kind,
        seated=seated,
        options=dict(game.options),
        first_dealer=(start + 1) % len(seated),
        night_id=game.night_id,
    )


def play_again(account: Account, game: Game) -> Played:
    """A new game of a finished one's table (``next_game``), made as ``create_game`` makes
    one (the same refusals; nothing is made when anything is refused). A player archived
    since is refused by name. A second tap (a double tap, a form sent again) finds the game
    the first one made, while no hand has been entered in it, and makes no other."""
    again = next_game(game)
    if again.archived:
        raise Refusal(
            "unknown_player",
            ngettext(
                "%(names)s is no longer on the roster (archived): restore them under "
                "Players, or change the seats first.",
                "%(names)s are no longer on the roster (archived): restore them under "
                "Players, or change the seats first.",
                len(again.archived),
                names=join_names(again.archived),
            ),
            "players",
        )
    made = _made_again(account, game, again)
    if made is not None:
        return played(made)
    return create_game(
        account, again.kind, again.players, again.options, again.dealer.name, again.night_id
    )


def _made_again(account: Account, game: Game, again: NextGame) -> Game | None:
    """The game an earlier "Play again" of ``game`` made, if no hand is entered in it yet."""
    query = (
        sa.select(Game)
        .where(
            Game.account_id == account.id,
            Game.id > game.id,
            Game.kind == again.kind,
            Game.first_dealer == again.first_dealer,
            Game.night_id.is_(None) if again.night_id is None else Game.night_id == again.night_id,
            Game.status == "in_progress",
            Game.hand_count == 0,
        )
        .order_by(Game.id.desc())
        .options(selectinload(Game.seats), selectinload(Game.hands))
    )
    seated = [player.id for player in again.seated]
    for candidate in db.session.scalars(query.limit(3)):
        seats = [seat.player_id for seat in candidate.seats]
        if seats == seated and candidate.options == again.options and not candidate.hands:
            return candidate
    return None


# Changing ---------------------------------------------------------------------------------


def check_open(game: Game) -> None:
    """Refuse a save to a game that is over or abandoned (``table_form.check_open``)."""
    with as_refusal():
        table_form.check_open(game.locked, game.status)


def record_hand(game: Game, entry: object, number: object = None) -> Played:
    """Start or record the next hand. ``number`` is the hand the client thinks comes next."""
    if not isinstance(entry, Mapping):
        raise Refusal("wrong_type", _(_("A hand must be an object.")), None)
    setup = setup_for(game)
    snapshot = snapshots.get(game, setup)
    expected = _recorded(game, snapshot) + 1
    if number is not None:
        if isinstance(number, bool) or not isinstance(number, int):
            raise Refusal("wrong_type", _("The hand number must be a whole number."), "number")
        if number != expected:
            raise _not_next(game, number, expected - 1)
    check_open(game)
    snapshot = snapshot or kept_state(game, setup)[1]
    folded = None
    if snapshot is not None and snapshot.tally.open_hand is None:
        # The kept tally holds the whole record: fold the one hand onto it.
        tally = _fold_on(game, snapshot, snapshot.tally, dict(entry))
        state = game.plugin.rules.state_of(tally)
        folded = Folded(tally, snapshot.tally, snapshot.sums, snapshot.sums, snapshot.hand_json)
    else:
        kept = entries_of(game, setup)
        state = _replay(game.plugin, setup, [*kept, dict(entry)], kept, len(kept))
    row: HandEntry | HandRow
    if _hands_loaded(game):
        row = HandEntry(number=expected, input={})
        game.hands.append(row)
    else:  # the kept tally holds the record: the hands stored are not read
        row = HandRow(expected, {}, new=True)
    # What the phones entered for this hand is in it now (services.seats). Cleared only when
    # there is one: a game with no other change has its row written apart (results.store).
    if game.draft is not None:
        game.draft = None
    # Two phones sending the same hand: the second finds the game changed under it.
    return _save(
        game,
        setup,
        state,
        expected,
        conflict=functools.partial(_already_recorded, game.id, game.plugin.rules, expected),
        folded=folded,
        rows=[row],
    )


def _hands_loaded(game: Game) -> bool:
    return "hands" not in sa.inspect(game).unloaded


def _recorded(game: Game, snapshot: snapshots.Snapshot | None) -> int:
    """How many hands the game holds: the kept tally's, without reading them."""
    if snapshot is not None and not _hands_loaded(game):
        return len(snapshot.tally.hands)
    return len(game.hands)


def _hand_row(game: Game, number: int) -> HandEntry:
    """Hand ``number``'s stored row (only that row, when the hands were not read)."""
    if _hands_loaded(game):
        return game.hands[number - 1]
    return db.session.scalars(
        sa.select(HandEntry).where(HandEntry.game_id == game.id, HandEntry.number == number)
    ).one()


def _already_recorded(game_id: int, rules, number: int) -> Refusal:
    """A save of hand ``number`` that met a concurrent change: ``_not_next`` when the game
    holds that hand now (another phone saved it), else the plain conflict (another phone
    changed the game otherwise, say corrected an earlier hand). Worded only when a save meets
    it, after its rollback, not for every save."""
    held = db.session.execute(_row_statements()[0], {"p_game": game_id, "p_number": number})
    if held.first() is None:
        return Refusal("conflict", CONFLICT)
    return Refusal("not_next_hand", rules.phrase("already_recorded", number=number), "number")


@dataclass
class HandRow:
    """A hand's stored row read or written without the ORM (a kept game's save, whose hands
    are not read): ``_save`` sets its ``input`` as ``HandEntry``'s, then writes it in one
    prepared statement after the game's UPDATE (no object for the session's flush to work
    out beside the game's: the flush was a fifth of a save's time under load)."""

    number: int
    input: dict
    new: bool = False
    updated_at: datetime | None = None


@functools.cache
def _row_statements() -> tuple[sa.Select, sa.Insert, sa.Update]:
    """The SELECT, INSERT and UPDATE of ``HandRow``, built once per process."""
    table = HandEntry.__table__
    mine = sa.and_(
        table.c.game_id == sa.bindparam("p_game"), table.c.number == sa.bindparam("p_number")
    )
    return (
        sa.select(table.c.input).where(mine),
        sa.insert(table),
        table.update()
        .where(mine)
        .values(
            input=sa.bindparam("p_input", type_=table.c.input.type),
            updated_at=sa.bindparam("p_at", type_=table.c.updated_at.type),
        ),
    )


def _stored_row(game: Game, number: int) -> HandRow:
    """Hand ``number``'s stored input, read without the ORM."""
    found = db.session.execute(
        _row_statements()[0], {"p_game": game.id, "p_number": number}
    ).scalar_one()
    return HandRow(number, found)


def _write_rows(game: Game, rows: Sequence[HandEntry | HandRow], now: datetime) -> None:
    """The ``HandRow`` rows a save added or changed, written after the game's UPDATE (its
    version checked first: a stale save is refused before it writes a hand)."""
    written = [
        row for row in rows if isinstance(row, HandRow) and (row.new or row.updated_at is not None)
    ]
    if not written:
        return
    db.session.flush()
    connection = db.session.connection()
    _select, insert, update = _row_statements()
    for row in written:
        if row.new:
            values = {"game_id": game.id, "number": row.number, "input": row.input}
            connection.execute(insert, {**values, "created_at": now, "updated_at": now})
        else:
            connection.execute(
                update,
                {"p_game": game.id, "p_number": row.number, "p_input": row.input, "p_at": now},
            )


def _not_next(game: Game, number: int, recorded: int | None = None) -> Refusal:
    rules = game.plugin.rules
    recorded = len(game.hands) if recorded is None else recorded
    if number <= recorded:
        message = rules.phrase("already_recorded", number=number)
    else:
        message = rules.phrase("not_next", count=recorded, number=number)
    return Refusal("not_next_hand", message, "number")


def update_hand(
    game: Game,
    number: int,
    change: object,
    *,
    complete: bool = False,
    replace: bool = False,
) -> Played:
    """Complete or correct hand ``number``; every later hand is re-scored.

    With ``complete`` (the page's "save tricks" button) the hand must still be unfinished,
    so a second tap gets a clear answer instead of a silent re-save. With ``replace`` the
    change is the whole hand (a correction form), not a completion merged into it.
    """
    if not isinstance(change, Mapping):
        raise Refusal("wrong_type", _(_("A hand must be an object.")), None)
    rules = game.plugin.rules
    setup = setup_for(game)
    snapshot = snapshots.get(game, setup)
    recorded = _recorded(game, snapshot)
    if not (isinstance(number, int) and 1 <= number <= recorded):
        raise NotFound(rules.phrase("not_found", number=number))
    scored = max((counts.get(results.HANDS, 0) for counts in game.tally or []), default=0)
    if complete and number <= scored:
        raise Refusal(
            "not_next_hand",
            rules.phrase("already_complete", number=number),
            "number",
        )
    check_open(game)
    if number == recorded:
        snapshot = snapshot or kept_state(game, setup)[1]
    if number == recorded and snapshot is not None and snapshot.last_is_hand:
        # The last entry of the record: fold it again onto the tally kept before it.
        row = _hand_row(game, number) if _hands_loaded(game) else _stored_row(game, number)
        entered = rules.from_seats(row.input, game.members)
        entry = dict(change) if replace else rules.merge(entered, change)
        tally = _fold_on(game, snapshot, snapshot.before, entry)
        folded = Folded(
            tally, snapshot.before, snapshot.before_sums, snapshot.before_sums, snapshot.hand_json
        )
        return _save(game, setup, rules.state_of(tally), number, folded=folded, rows=[row])
    kept = entries_of(game, setup)
    at = hand_index(kept, number)
    entries = list(kept)
    entries[at] = dict(change) if replace else rules.merge(kept[at], change)
    return _save(game, setup, _replay(game.plugin, setup, entries, kept, at), number)


def undo_last_hand(game: Game, number: int | None = None) -> Played:
    """Remove the last hand (only the last one can be undone)."""
    hand_rules = game.plugin.rules
    setup = setup_for(game)
    snapshot = snapshots.get(game, setup)
    recorded = _recorded(game, snapshot)
    if not recorded:
        raise Refusal("not_found", hand_rules.phrase("nothing_to_undo"))
    last = _hand_row(game, recorded)
    if number is not None and number != last.number:
        raise Refusal(
            "not_next_hand" if number < last.number else "not_found",
            hand_rules.phrase("only_last", number=last.number),
            "number",
        )
    check_open(game)
    if game.changes and game.changes[-1].before_hand > last.number:
        raise Refusal(
            "conflict",
            _("The table changed after this hand: undo that change first."),
            "number",
        )
    snapshot = snapshot or kept_state(game, setup)[1]
    if snapshot is not None and snapshot.last_is_hand:
        # Back to the tally kept before the last hand.
        before = snapshot.before
        state = game.plugin.rules.state_of(before)
        folded = Folded(before, None, snapshot.before_sums, hand_json=snapshot.hand_json)
    else:
        state = _replay(game.plugin, setup, entries_of(game, setup)[:-1])
        folded = None
    if _hands_loaded(game):
        game.hands.remove(last)
    else:
        db.session.delete(last)
    return _save(game, setup, state, last.number, folded=folded, rows=[])


def correct_table(game: Game, names: object, first_dealer: object = None) -> Played:
    """Correct the table after the start: who sat in each seat and who dealt first.

    ``names`` are the players in their true seat order. Someone who was at the table keeps
    what was entered for them, in their true seat; someone new takes over what was entered
    for the player they replace (the wrong name picked for a seat). Every hand is then
    derived again (dealers, bidding orders, scores); a hand the rules now refuse is named and
    nothing changes.
    """
    check_open(game)
    rules = game.plugin.rules
    before = game.players
    if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
        raise Refusal(
            "wrong_type", _(_("Players must be a list of names in seat order.")), "players"
        )
    cleaned = [roster.clean_name(name) for name in names]
    keys = [roster.name_key(name) for name in cleaned]
    if len(set(keys)) != len(keys):
        raise Refusal(
            "player_count", _(_("Each player can sit at the table only once.")), "players"
        )
    if len(cleaned) != len(before):
        raise Refusal(
            "player_count",
            ngettext(
                "The table has %(num)s seat: name %(num)s player, each once.",
                "The table has %(num)s seats: name %(num)s players, each once.",
                len(before),
            ),
            "players",
        )
    dealer_seat = game.first_dealer
    if first_dealer is not None:
        wanted = roster.name_key(first_dealer) if isinstance(first_dealer, str) else None
        if wanted not in keys:
            raise Refusal(
                "unknown_player",
                _(_("The first dealer must be one of the players.")),
                "first_dealer",
            )
        dealer_seat = keys.index(wanted)
    old_keys = [roster.name_key(name) for name in before]
    gone = [name for name, key in zip(before, old_keys, strict=True) if key not in keys]
    new = [name for name, key in zip(cleaned, keys, strict=True) if key not in old_keys]
    # What was entered by name, with each replaced player's name given to who replaces them.
    renamed = dict(zip(gone, new, strict=True))
    renamed.update(
        (old, name)
        for old, key in zip(before, old_keys, strict=True)
        for name, new_key in zip(cleaned, keys, strict=True)
        if key == new_key
    )
    # Read in the old seats, each under the name of who takes it over: the game's own
    # ``from_seats`` puts the names back (a name keyed by seat, or a team's by its seats);
    # who came to the table later keeps their seat.
    later = game.members[len(before) :]
    if any(roster.name_key(name) in keys for name in later):
        raise Refusal(
            "player_count", _(_("Each player can sit at the table only once.")), "players"
        )
    members = [renamed[name] for name in before] + later
    entries = record_of(game, members)
    setup = Setup(tuple(cleaned), game.options, dealer_seat)
    state = _replay(game.plugin, setup, entries)
    seats_before = [seat.player.id for seat in game.seats]
    table = game.seats[: len(cleaned)]
    for seat, player in zip(table, _players_for(game_account(game), cleaned), strict=True):
        seat.player = player
    game.first_dealer = dealer_seat
    now = utcnow()
    seated_now = [*cleaned, *later]  # the seats as corrected (who came later keeps theirs)
    for row, hand in zip(game.hands, state.hands, strict=True):
        row.input = rules.to_seats(hand.input, seated_now)
        row.updated_at = now
    try:
        results.store(game, game.plugin, setup, state, 1, seats_before=seats_before)
    except (StaleDataError, sa.exc.IntegrityError):
        db.session.rollback()
        raise Refusal("conflict", CONFLICT) from None
    commit()
    return Played(game, game.plugin, setup, state)


def game_account(game: Game) -> Account:
    return db.session.get(Account, game.account_id)


def delete_game(game: Game) -> None:
    """Delete a game for good: its hands, results and its part in the statistics.

    The game's row goes first (its version checked, as every change of the game is), then
    its part in the statistics: every save takes its locks in that order, so a hand saved at
    the same moment waits and then finds the game gone (409) instead of PostgreSQL finding
    a deadlock between the two."""
    game_id, kind, variant, tally = game.id, game.kind, game.variant, list(game.tally or [])
    ended = game.finished_at if game.status == "finished" else None
    account_id = game.account_id
    players = [seat.player.id for seat in game.seats]
    db.session.delete(game)
    try:
        db.session.flush()
    except (StaleDataError, sa.exc.IntegrityError):
        db.session.rollback()
        raise Refusal("conflict", CONFLICT) from None
    results.forget(game_id, kind, variant, players, tally)
    rating_steps.forget(account_id, kind, variant, ended)
    commit()
    snapshots.forget(game_id)


def abandon(game: Game) -> Played:
    """An unfinished game the table will not finish: it leaves "in progress" and stays in
    history, marked as not finished."""
    if game.status == "finished":
        raise Refusal("game_over", _("This game is finished; there is nothing to abandon."))
    result = played(game)
    after = len(game.hands) + 1  # read before the change (a lazy read would flush it unchecked)
    game.status = "abandoned"
    return _save(game, result.setup, result.state, after)


def resume(game: Game) -> Played:
    """Take an abandoned game up again."""
    if game.status != "abandoned":
        raise Refusal("not_finished", _("This game was not abandoned; it is open already."))
    result = played(game)
    after = len(game.hands) + 1  # read before the change (a lazy read would flush it unchecked)
    game.status = "in_progress"
    return _save(game, result.setup, result.state, after)


def reopen(game: Game) -> Played:
    """Unlock a finished game so that a hand can be corrected. A game the table ended (an
    open-ended score pad) is taken up again: more hands can be played, then it is ended
    again."""
    if game.status != "finished":
        raise Refusal("not_finished", _("This game is still in progress; it is open already."))
    setup = setup_for(game)
    state = _replay(game.plugin, setup, entries_of(game, setup))
    after = len(game.hands) + 1  # read before the change (a lazy read would flush it unchecked)
    game.locked = False
    if not state.finished:
        return _save(game, setup, state, after)
    commit()
    return Played(game, game.plugin, setup, state)


def close(game: Game) -> Played:
    """Lock a finished game again after corrections, or end a game that only ends when the
    table says so (the rules' ``close``: an open-ended score pad)."""
    result = played(game)
    if result.state.finished:
        game.locked = True
        commit()
        return result
    check_open(game)
    with as_refusal(result.rules):
        state = result.rules.close(result.setup, result.state)
    if not state.finished:
        raise Refusal("not_finished", _("This game is not finished yet."))
    return _save(game, result.setup, state, len(game.hands) + 1)


def _save(
    game: Game,
    setup: Setup,
    state: State,
    first: int,
    conflict: Refusal | Callable[[], Refusal] | None = None,
    folded: Folded | None = None,
    rows: Sequence[HandEntry | HandRow] | None = None,
) -> Played:
    """Store the normalised entries from hand ``first`` on and every derived copy; commit.
    A save ``folded`` onto the kept tally derives the copies of the hands from ``first`` on
    only, and keeps its tally once committed. ``rows``: the stored hands from ``first`` on
    (default: read from the game; ``HandRow`` ones are written by ``_write_rows``)."""
    rules = game.plugin.rules
    now = utcnow()
    members = game.members
    rows = game.hands[first - 1 :] if rows is None else rows
    for row, hand in zip(rows, state.hands[first - 1 :], strict=True):
        stored = rules.to_seats(hand.input, members)
        if row.input != stored:
            row.input = stored
            row.updated_at = now
    base = folded.base if folded is not None else None
    try:
        derived = results.store(game, game.plugin, setup, state, first, base=base)
        _write_rows(game, rows, now)
    except (StaleDataError, sa.exc.IntegrityError):
        db.session.rollback()
        raise _conflict(conflict) from None
    commit(conflict)
    if folded is None:
        return Played(game, game.plugin, setup, state)
    kept = _still_shown(folded.hand_json, state)
    snapshots.put(
        game,
        setup,
        folded.tally,
        before=folded.before,
        sums=derived.sums,
        before_sums=folded.before_sums,
        hand_json=kept,
    )
    return Played(game, game.plugin, setup, state, kept)


def _still_shown(hand_json, state: State) -> dict:
    """The API's JSON of the hands kept, of the hands still in ``state`` (by number)."""
    if not hand_json:
        return {}
    count = len(state.hands)
    return {number: kept for number, kept in dict(hand_json).items() if number <= count}


def _conflict(conflict: Refusal | Callable[[], Refusal] | None) -> Refusal:
    """The refusal of a concurrent change: ``conflict`` (worded now when it is a function),
    or the plain one."""
    if callable(conflict):
        return conflict()
    return conflict or Refusal("conflict", CONFLICT)


def commit(conflict: Refusal | Callable[[], Refusal] | None = None) -> None:
    """Commit, or answer a concurrent change (a stale version, a broken constraint) with a
    409 refusal and nothing half-saved."""
    try:
        db.session.commit()
    except (StaleDataError, sa.exc.IntegrityError):
        db.session.rollback()
        raise _conflict(conflict) from None


# The state in the API (its "game state"), built from the game's own models -----------------


def state_answer(result: Played) -> GameState:
    """The game state as the game's state model (``game_models``): what each hand and the
    next one carry is whatever the game's rules derive, checked against the game's own
    ``Info`` and ``Next`` models."""
    game = result.game
    state = result.state
    models = game_models(result.plugin)
    hand_model = models["hand"]
    extra = {} if state.columns is None else {"columns": state.columns}
    kept = result.hand_json
    hands = []
    written = []
    for hand in state.hands:
        known = kept.get(hand.number) if kept is not None else None
        if known is None or known[0] is not hand:
            model = hand_model(
                **hand.info,
                number=hand.number,
                dealer=hand.dealer,
                status=hand.status,
                input=hand.input,
                points=hand.points,
                totals=hand.totals,
                players=list(hand.players or result.players),
            )
            known = (hand, model, model.model_dump_json())
            if kept is not None and hand.players:
                kept[hand.number] = known
        hands.append(known[1])
        written.append(known[2])
    answer = models["state"](
        **extra,
        id=game.id,
        game=game.kind,
        night_id=game.night_id,
        options=dict(game.options),
        players=state.players if state.players is not None else result.players,
        left=state.left,
        changes=state.changes,
        teams=state.teams,
        status=game.status,
        locked=game.locked,
        hands=hands,
        totals=state.totals,
        winners=state.winners,
        bonuses=state.bonuses,
        notices=state.notices,
        next=state.next,
    )
    # The state written once without its hands, and each hand's JSON put in their place.
    outline = answer.model_copy(update={"hands": []}).model_dump_json()
    at = outline.index(EMPTY_HANDS) + len(EMPTY_HANDS) - 1
    answer._written = outline[:at] + ",".join(written) + outline[at:]
    return answer


#: Where the hands go in the state's JSON written without them.
EMPTY_HANDS = '"hands":[]'


def summary_answer(game: Game) -> GameSummary:
    """A game in a list: no replay, only the stored copies."""
    return GameSummary(
        id=game.id,
        game=game.kind,
        players=game.players,
        status=game.status,
        hands=game.hand_count,
        totals=game.totals_by_side,
        winners=game.winner_names,
        night_id=game.night_id,
        created_at=as_utc(game.created_at).isoformat(),
    )


def ratings(account: Account, where: str, history: bool = True) -> list[rating_steps.Rating]:
    """The ratings of a scope (``ratings.scope``, or ``ratings.ALL``), best first; finished
    games stored before the ratings existed are given their standings first (once)."""
    _rate_unrated(account.id)
    return rating_steps.ratings(account.id, where, history)


def player_ratings(account: Account, player_id: int) -> dict[str, rating_steps.Rating]:
    _rate_unrated(account.id)
    return rating_steps.player_ratings(account.id, player_id)


def player_rating_history(account: Account, player_id: int, where: str) -> list[float]:
    """The player's ordinal after each of their games in a scope (after ``player_ratings``,
    which rates what was not rated yet)."""
    return rating_steps.player_history(account.id, player_id, where)


#: How many games the first read of the ratings replays at a time (``_rate_unrated``).
UNRATED_CHUNK = 250


def _rate_unrated(account_id: int) -> None:
    """Finished games stored before the ratings existed have no standings: derive them (one
    replay each, once) and rate the account from its first game.

    The games are read a chunk at a time with their seats, hands and changes (three more
    statements a chunk, not three a game), and their standings written in one executemany:
    bench/ratings.py's first read of 1,000 games took 2.1 s in 3,765 statements, one lazy
    load after another, each after a flush of the game before. A chunk's games are let go
    once replayed (nothing of them is changed through the session), so the memory does not
    grow with the account. The standings are derived copies: writing them is no change of
    the game (its version stays)."""
    missing = db.session.scalars(
        sa.select(Game.id)
        .where(Game.account_id == account_id, sa.text(UNRATED))  # on ix_game_unrated
        .order_by(Game.id)
    ).all()
    if not missing:
        return
    standings: dict[int, list] = {}
    with db.session.no_autoflush:
        for start in range(0, len(missing), UNRATED_CHUNK):
            chunk = db.session.scalars(
                sa.select(Game)
                .where(Game.id.in_(missing[start : start + UNRATED_CHUNK]))
                .options(
                    selectinload(Game.seats), selectinload(Game.hands), selectinload(Game.changes)
                )
            ).all()
            for game in chunk:
                setup = setup_for(game)
                state = game.plugin.rules.play(setup, entries_of(game, setup))
                derived = results.derive(game.plugin, setup, state, "finished", 1, game.members)
                standings[game.id] = derived.standing
            del chunk
    table = Game.__table__
    db.session.execute(
        table.update()
        .where(table.c.id == sa.bindparam("p_id"))
        .values(standing=sa.bindparam("p_standing")),
        [{"p_id": game_id, "p_standing": standing} for game_id, standing in standings.items()],
    )
    for held in list(db.session.identity_map.values()):  # games this request holds already
        if isinstance(held, Game) and held.id in standings:
            set_committed_value(held, "standing", standings[held.id])
    rating_steps.rebuild(account_id)
    commit()
