"""The table's changes between hands (RULES.md, "the table changes mid-game"): record one,
correct it, remove it. Like a hand, a change is checked by the game's rules in one replay of
the record (``games._replay``); nothing is stored when they refuse it; every derived copy is
rewritten with it (``results.store``).

A change is stored as given, with every player by seat position: a player who comes to the
table (a join, a substitute) takes the next seat after the starting table's (``Seat``), so
the hands they play are stored by seat like everyone's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import sqlalchemy as sa

from scorekeeper.errors import NotFound
from scorekeeper.errors import Refusal
from scorekeeper.errors import as_refusal
from scorekeeper.extensions import db
from scorekeeper.games import table_form
from scorekeeper.games.i18n import _
from scorekeeper.games.table import Change
from scorekeeper.models import Account
from scorekeeper.models import Game
from scorekeeper.models import Player
from scorekeeper.models import Seat
from scorekeeper.models import TableChange
from scorekeeper.models import utcnow
from scorekeeper.services import games
from scorekeeper.services import players as roster

#: ``known`` when the roster was not looked at with the game (``game_for``).
UNKNOWN = object()


def game_for(account: Account, game_id: int, body: object) -> tuple[Game, Player | None]:
    """The account's game (404 for anyone else's) and, when the change brings a newcomer,
    the roster's player of that name or None: one query, the game's own (``known`` for
    ``record_change`` and ``correct_change``)."""
    name = _newcomer_name(body)
    if name is None:
        return games.get_game(account, game_id), None
    same_name = sa.and_(
        Player.account_id == Game.account_id, Player.name_key == roster.name_key(name)
    )
    query = games.game_query(account, game_id, Player).outerjoin(Player, same_name)
    found = db.session.execute(query).unique().one_or_none()
    if found is None:
        raise NotFound(_("That game was not found."))
    return found[0], found[1]


def _newcomer_name(body: object) -> str | None:
    """The name a change brings to the table, as typed (None when it brings none or the
    name is no name: ``_given`` refuses it)."""
    return table_form.newcomer_name(body)


def _given(
    game: Game, body: object, known: Player | None | object = UNKNOWN
) -> tuple[dict[str, Any], Player | None]:
    """The change as sent (``table_form.given_change``: its names matched to who is at the
    table however they are spelt, a newcomer's name made a roster name); and the newcomer's
    roster player (``known``, found, or a new one), when the change brings one."""
    newcomers: list[Player] = []

    def roster_name(name: str) -> str:
        newcomers.append(_roster_player(game, name, known))
        return newcomers[-1].name

    with as_refusal():
        given = table_form.given_change(body, game.members, roster_name)
    return given, (newcomers[-1] if newcomers else None)


def _roster_player(game: Game, name: str, known: Player | None | object) -> Player:
    """The roster's player of a newcomer's name ("eve" typed: Eve, as the roster spells
    her), or a new one (stored only with the change's seat)."""
    key = roster.name_key(name)
    if known is UNKNOWN:
        with db.session.no_autoflush:
            known = db.session.scalar(
                sa.select(Player).where(
                    Player.account_id == game.account_id, Player.name_key == key
                )
            )
    if isinstance(known, Player) and known.name_key == key:
        return known
    return Player(account_id=game.account_id, name=name, name_key=key)


def _where(game: Game, change_id: int) -> TableChange:
    for row in game.changes:
        if row.id == change_id:
            return row
    raise NotFound(_("That change was not found."))


def _store(game: Game, row: TableChange, given: Mapping[str, Any], newcomer: Player | None) -> int:
    """The change stored by seat; a newcomer takes the next seat first. Returns how many
    seats the starting table has (``_keep_table_size``)."""
    starting = game.table_size if game.table_size is not None else len(game.seats)
    if newcomer is not None and newcomer.name not in game.members:
        game.seats.append(Seat(position=len(game.seats), player=newcomer))
    row.body = games.change_by_seat(given, game.members)
    row.updated_at = utcnow()
    return starting


def _keep_table_size(game: Game, starting: int) -> None:
    """Once someone came later, the starting table's size (set after the flush that stored
    the newcomer's seat, so that it goes with the game's own UPDATE)."""
    if game.table_size is None and len(game.seats) > starting:
        game.table_size = starting


def record_change(
    game: Game, body: object, before_hand: object = None, known: Player | None | object = UNKNOWN
) -> games.Played:
    """Record one change before the next hand. ``before_hand`` is the hand the client thinks
    comes next (``409 not_next_hand`` otherwise, like a hand's number); ``known``: the
    newcomer's roster player from ``game_for``."""
    expected = len(game.hands) + 1
    if before_hand is not None:
        if isinstance(before_hand, bool) or not isinstance(before_hand, int):
            raise Refusal("wrong_type", _("The hand number must be a whole number."), "before_hand")
        if before_hand != expected:
            raise games._not_next(game, before_hand)
    games.check_open(game)
    given, newcomer = _given(game, body, known)
    setup = games.setup_for(game)
    kept = games.entries_of(game, setup)
    state = games._replay(game.plugin, setup, [*kept, Change(given)], kept, len(kept))
    row = TableChange(before_hand=expected, body={})
    starting = _store(game, row, given, newcomer)
    game.changes.append(row)
    db.session.flush()  # the change's id, which the state shows
    _keep_table_size(game, starting)
    state.changes[-1]["id"] = row.id
    return games._save(game, setup, state, expected)


def correct_change(
    game: Game, change_id: int, body: object, known: Player | None | object = UNKNOWN
) -> games.Played:
    """Correct a change: the record is replayed with it; a later hand or change it would
    break is refused with that entry's codes, and nothing changes."""
    row = _where(game, change_id)
    games.check_open(game)
    given, newcomer = _given(game, body, known)
    setup = games.setup_for(game)
    kept = games.entries_of(game, setup)
    at = _record_index(kept, change_id)
    entries = list(kept)
    entries[at] = Change(given, change_id)
    state = games._replay(game.plugin, setup, entries, kept, at)
    _refuse_open_hand(state)
    _keep_table_size(game, _store(game, row, given, newcomer))
    return games._save(game, setup, state, 1)


def remove_change(game: Game, change_id: int) -> games.Played:
    """Remove a change (the last entry's undo, or one further back): the record is replayed
    without it; a later entry it would break is refused, and nothing changes."""
    row = _where(game, change_id)
    games.check_open(game)
    setup = games.setup_for(game)
    kept = games.entries_of(game, setup)
    at = _record_index(kept, change_id)
    state = games._replay(game.plugin, setup, kept[:at] + kept[at + 1 :], kept, at)
    _refuse_open_hand(state)
    game.changes.remove(row)
    return games._save(game, setup, state, 1)


def _record_index(record, change_id: int) -> int:
    return next(
        index
        for index, entry in enumerate(record)
        if isinstance(entry, Change) and entry.id == change_id
    )


def _refuse_open_hand(state) -> None:
    """Corrections and removals wait until the hand being played is finished."""
    if state.current is not None:
        raise Refusal(
            "hand_in_progress",
            _("Finish the hand being played before changing the table."),
            None,
        )
