"""The backup writer: an account's backup document, streamed.

A backup is written in pieces (``document_chunks``): the rows are read a batch of games at a
time from one snapshot of the database, so no whole document is ever held in memory, and
``gzipped`` compresses the pieces as they come. The shape written is ``document.BackupV2``
(a test proves each written document validates there and dumps back to itself).
"""

from __future__ import annotations

import functools
import json
import zlib
from collections import defaultdict
from collections.abc import Iterable
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC
from datetime import datetime

import sqlalchemy as sa

from scorekeeper.extensions import db
from scorekeeper.games import GAMES
from scorekeeper.models import Account
from scorekeeper.models import Game
from scorekeeper.models import HandEntry
from scorekeeper.models import Night
from scorekeeper.models import Player
from scorekeeper.models import RuleSet
from scorekeeper.models import Seat
from scorekeeper.models import TableChange
from scorekeeper.models import utcnow
from scorekeeper.services.backup.document import FORMAT
from scorekeeper.services.backup.document import VERSION
from scorekeeper.services.games import change_entry

#: Games read (and written, by a restore) per batch.
BATCH = 500

_dumps = functools.partial(json.dumps, ensure_ascii=False, separators=(",", ":"))


def _moment(value: datetime | None) -> str | None:
    """A stored moment in UTC, ISO 8601 (SQLite hands it back without its zone)."""
    if value is None:
        return None
    if value.tzinfo is None:  # as_utc(value).isoformat(), without making a new datetime
        return value.isoformat() + "+00:00"
    return value.astimezone(UTC).isoformat()


def export_account(account: Account) -> dict:
    """The account's backup document as one object (small accounts, tests)."""
    return json.loads("".join(document_chunks(account)))


def document_chunks(account: Account, batch: int = BATCH) -> Iterator[str]:
    """The account's backup document as pieces of JSON text, a batch of games each.

    The generator reads through a connection of its own, in one read-only snapshot of the
    database (so a game saved meanwhile is in it whole or not at all), and needs no app
    context once made: a streamed answer can run it after the view has returned.
    """
    return _chunks(db.engine, account.id, account.username, batch)


@contextmanager
def _snapshot(engine: sa.Engine) -> Iterator[sa.Connection]:
    """A connection that sees one state of the database until it closes."""
    with engine.connect() as connection:
        if connection.dialect.name == "postgresql":
            connection.execution_options(
                isolation_level="REPEATABLE READ", postgresql_readonly=True
            )
        elif connection.dialect.name == "sqlite":
            # pysqlite starts no transaction for a SELECT: without one, each statement would
            # see the database as it is then (WAL keeps the snapshot of an open read).
            connection.exec_driver_sql("BEGIN")
        try:
            yield connection
        finally:
            connection.rollback()


def _chunks(engine: sa.Engine, account_id: int, username: str, batch: int) -> Iterator[str]:
    with _snapshot(engine) as connection:
        players = connection.execute(
            sa.select(Player.id, Player.name, Player.archived, Player.created_at)
            .where(Player.account_id == account_id)
            .order_by(Player.id)
        ).all()
        player_ref = {row.id: index for index, row in enumerate(players, start=1)}
        names = {row.id: row.name for row in players}
        head = {
            "format": FORMAT,
            "version": VERSION,
            "exported_at": utcnow().isoformat(),
            "account": {"username": username},
            "players": [
                {
                    "id": player_ref[row.id],
                    "name": row.name,
                    "archived": row.archived,
                    "created_at": _moment(row.created_at),
                }
                for row in players
            ],
        }
        yield _dumps(head)[:-1] + ',"nights":['
        nights = connection.execute(
            sa.select(Night.id, Night.date, Night.name, Night.place, Night.notes, Night.created_at)
            .where(Night.account_id == account_id)
            .order_by(Night.id)
            .execution_options(yield_per=batch)
        )
        night_ref: dict[int, int] = {}
        for rows in nights.partitions():
            pieces = []
            for row in rows:
                night_ref[row.id] = len(night_ref) + 1
                pieces.append(
                    _dumps(
                        {
                            "id": night_ref[row.id],
                            "date": row.date.isoformat(),
                            "name": row.name,
                            "place": row.place,
                            "notes": row.notes,
                            "created_at": _moment(row.created_at),
                        }
                    )
                )
            yield ("," if len(night_ref) > len(rows) else "") + ",".join(pieces)
        rule_sets = connection.execute(
            sa.select(RuleSet.kind, RuleSet.name, RuleSet.options, RuleSet.created_at)
            .where(RuleSet.account_id == account_id)
            .order_by(RuleSet.id)
        ).all()
        yield (
            "],"
            + _dumps(
                {
                    "rule_sets": [
                        {
                            "id": index,
                            "game": row.kind,
                            "name": row.name,
                            "options": dict(row.options),
                            "created_at": _moment(row.created_at),
                        }
                        for index, row in enumerate(rule_sets, start=1)
                    ]
                }
            )[1:-1]
            + ',"games":['
        )
        last, count = 0, 0
        while True:
            games = connection.execute(
                sa.select(
                    Game.id,
                    Game.kind,
                    Game.options,
                    Game.first_dealer,
                    Game.night_id,
                    Game.locked,
                    Game.status,
                    Game.created_at,
                    Game.updated_at,
                    Game.finished_at,
                    Game.table_size,
                )
                .where(Game.account_id == account_id, Game.id > last)
                .order_by(Game.id)
                .limit(batch)
            ).all()
            if not games:
                break
            ids = [game.id for game in games]
            seats: dict[int, list[int]] = defaultdict(list)
            for game_id, player_id in connection.execute(
                sa.select(Seat.game_id, Seat.player_id)
                .where(Seat.game_id.in_(ids))
                .order_by(Seat.game_id, Seat.position)
            ):
                seats[game_id].append(player_id)
            hands: dict[int, list] = defaultdict(list)
            for row in connection.execute(
                sa.select(
                    HandEntry.game_id,
                    HandEntry.number,
                    HandEntry.input,
                    HandEntry.created_at,
                    HandEntry.updated_at,
                )
                .where(HandEntry.game_id.in_(ids))
                .order_by(HandEntry.game_id, HandEntry.number)
            ):
                hands[row.game_id].append(row)
            changes: dict[int, list] = defaultdict(list)
            for row in connection.execute(
                sa.select(
                    TableChange.game_id,
                    TableChange.id,
                    TableChange.before_hand,
                    TableChange.body,
                    TableChange.created_at,
                    TableChange.updated_at,
                )
                .where(TableChange.game_id.in_(ids))
                .order_by(TableChange.game_id, TableChange.before_hand, TableChange.id)
            ):
                changes[row.game_id].append(row)
            pieces = []
            for game in games:
                count += 1
                rules = GAMES[game.kind].rules
                seated = [names[player_id] for player_id in seats[game.id]]
                table = seats[game.id][: game.table_size]
                pieces.append(
                    _dumps(
                        {
                            "id": count,
                            "game": game.kind,
                            "options": dict(game.options),
                            "first_dealer": game.first_dealer,
                            "players": [player_ref[player_id] for player_id in table],
                            "night": night_ref.get(game.night_id),
                            "locked": game.locked,
                            "abandoned": game.status == "abandoned",
                            "created_at": _moment(game.created_at),
                            "updated_at": _moment(game.updated_at),
                            "finished_at": _moment(game.finished_at),
                            "hands": [
                                {
                                    "number": hand.number,
                                    "input": rules.from_seats(hand.input, seated),
                                    "created_at": _moment(hand.created_at),
                                    "updated_at": _moment(hand.updated_at),
                                }
                                for hand in hands[game.id]
                            ],
                            "joined": [
                                player_ref[player_id] for player_id in seats[game.id][len(table) :]
                            ],
                            "changes": [
                                {
                                    "before_hand": row.before_hand,
                                    "change": change_entry(row, seated).body,
                                    "created_at": _moment(row.created_at),
                                    "updated_at": _moment(row.updated_at),
                                }
                                for row in changes[game.id]
                            ],
                        }
                    )
                )
            yield ("," if count > len(games) else "") + ",".join(pieces)
            last = ids[-1]
        yield "]}"


def gzipped(chunks: Iterable[str], level: int = 6, size: int = 64 * 1024) -> Iterator[bytes]:
    """Pieces of text, UTF-8 encoded and gzip-compressed as they come (pieces of about
    ``size`` bytes)."""
    packer = zlib.compressobj(level, zlib.DEFLATED, 31)  # 31: the gzip container
    held: list[bytes] = []
    length = 0
    for chunk in chunks:
        out = packer.compress(chunk.encode())
        if out:
            held.append(out)
            length += len(out)
            if length >= size:
                yield b"".join(held)
                held, length = [], 0
    held.append(packer.flush())
    yield b"".join(held)
