"""A whole account as one JSON document, and its restore into an account with no data.

The document holds what was entered, nothing derived::

    {"format": "scorekeeper-backup", "version": 1, "exported_at": ..., "account": {...},
     "players": [{"id", "name", "archived", "created_at"}],
     "nights":  [{"id", "date", "name", "place", "notes", "created_at"}],
     "rule_sets": [{"id", "game", "name", "options", "created_at"}],
     "games":   [{"id", "game", "options", "first_dealer", "players": [player ids by seat],
                  "night": night id | null, "locked", "abandoned", "created_at", "updated_at",
                  "finished_at", "hands": [{"number", "input", "created_at", "updated_at"}]}]}

Ids are the document's own (1, 2, 3 ... in the order rows were made), so a restored account
exports to the same document. Share links are not carried: they are live secrets of the
account they were made in. ``rule_sets`` and ``abandoned`` came later: a backup without
them restores with no saved rule sets, and no game abandoned.

A backup is written in pieces (``document_chunks``): the rows are read a batch of games at a
time from one snapshot of the database, so no whole document is ever held in memory, and
``gzipped`` compresses the pieces as they come. A restore reads a plain or gzip-compressed
file, checks the whole document first (replaying every game through the rules), then writes
it with bulk inserts in one transaction: all of it, or nothing.
"""

from __future__ import annotations

import csv
import functools
import io
import json
import re
import zlib
from array import array
from collections import defaultdict
from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Mapping
from contextlib import contextmanager
from contextlib import suppress
from datetime import UTC
from datetime import date
from datetime import datetime
from typing import Any

import sqlalchemy as sa

from scorekeeper.errors import Refusal
from scorekeeper.extensions import db
from scorekeeper.games import GAMES
from scorekeeper.games import RuleError
from scorekeeper.games import Setup
from scorekeeper.games.i18n import _
from scorekeeper.games.i18n import names as name_list
from scorekeeper.games.i18n import ngettext
from scorekeeper.models import Account
from scorekeeper.models import Game
from scorekeeper.models import HandEntry
from scorekeeper.models import HandResult
from scorekeeper.models import Night
from scorekeeper.models import Player
from scorekeeper.models import PlayerStat
from scorekeeper.models import RuleSet
from scorekeeper.models import Seat
from scorekeeper.models import utcnow
from scorekeeper.services import nights as night_service
from scorekeeper.services import players as roster
from scorekeeper.services import results
from scorekeeper.services import rule_sets as rule_set_service
from scorekeeper.services.games import Played
from scorekeeper.text import clean_line
from scorekeeper.text import text_key
from scorekeeper.web import JSON_MAX_DEPTH

FORMAT = "scorekeeper-backup"
VERSION = 1
CODE = "restore_refused"
#: Games read (and written) per batch.
BATCH = 500
#: How far a compressed backup may unpack (bytes): 10,000 games take about 30 MB.
MAX_UNPACKED = 64 * 1024 * 1024
GZIP_MAGIC = b"\x1f\x8b"

_dumps = functools.partial(json.dumps, ensure_ascii=False, separators=(",", ":"))


def _moment(value: datetime | None) -> str | None:
    """A stored moment in UTC, ISO 8601 (SQLite hands it back without its zone)."""
    if value is None:
        return None
    if value.tzinfo is None:  # as_utc(value).isoformat(), without making a new datetime
        return value.isoformat() + "+00:00"
    return value.astimezone(UTC).isoformat()


# Export ------------------------------------------------------------------------------------


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
            pieces = []
            for game in games:
                count += 1
                rules = GAMES[game.kind].rules
                seated = [names[player_id] for player_id in seats[game.id]]
                pieces.append(
                    _dumps(
                        {
                            "id": count,
                            "game": game.kind,
                            "options": dict(game.options),
                            "first_dealer": game.first_dealer,
                            "players": [player_ref[player_id] for player_id in seats[game.id]],
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


# Restore -----------------------------------------------------------------------------------


class Damaged(Exception):
    """Something in the document is missing, of the wrong kind or against the rules."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(message)
        self.where = where
        self.message = message


def refuse(message: str, field: str | None = None) -> Refusal:
    """The refusal of a restore: ``message`` (a whole sentence, in the reader's language)
    followed by the sentence that nothing was restored."""
    return Refusal(CODE, _("%(problem)s Nothing was restored.", problem=message), field)


def is_empty(account: Account) -> bool:
    """True when the account has no players, nights or games (so it may be restored into)."""
    counts = [
        sa.select(sa.func.count()).where(model.account_id == account.id)
        for model in (Player, Night, Game)
    ]
    return all(db.session.scalar(count) == 0 for count in counts)


def _gunzip(raw: bytes, limit: int) -> bytes:
    """A gzip file's content, refused beyond ``limit`` bytes (a small file may unpack to a
    huge one) or when it is damaged or cut short."""
    out: list[bytes] = []
    length = 0
    rest = raw
    try:
        while rest:
            unpacker = zlib.decompressobj(31)
            part = unpacker.decompress(rest, limit + 1 - length)
            length += len(part)
            if length > limit or unpacker.unconsumed_tail:
                raise refuse(
                    _(
                        "This backup unpacks to more than the %(size)s MB this server reads.",
                        size=round(limit / 1024 / 1024, 4),  # in the reader's digits
                    )
                )
            if not unpacker.eof:
                raise refuse(_("This compressed backup is cut short (the download did not end?)."))
            out.append(part)
            rest = unpacker.unused_data  # a file of several gzip members
            if rest and not rest.startswith(GZIP_MAGIC):
                break
    except zlib.error:
        raise refuse(
            _("This file is not a Scorekeeper backup: it is not a readable gzip file.")
        ) from None
    return b"".join(out)


#: Characters no backup holds: control characters other than tab and line breaks (NUL
#: included, which PostgreSQL cannot store), and lone surrogates (which are not text).
_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")


def _holds(char: str, key: str | None = None) -> str:
    """The whole sentence saying that the backup (or its ``key``) holds ``char``."""
    code = ord(char)
    params = {"code": f"U+{code:04X}", "key": key}
    if 0xD800 <= code <= 0xDFFF:
        if key is None:
            return _("This backup is damaged: it holds a lone surrogate (%(code)s).", **params)
        return _("This backup is damaged: “%(key)s” holds a lone surrogate (%(code)s).", **params)
    if code == 0:
        if key is None:
            return _("This backup is damaged: it holds a NUL character (%(code)s).", **params)
        return _("This backup is damaged: “%(key)s” holds a NUL character (%(code)s).", **params)
    if key is None:
        return _("This backup is damaged: it holds a control character (%(code)s).", **params)
    return _("This backup is damaged: “%(key)s” holds a control character (%(code)s).", **params)


#: In JSON text, the only ways to write such a character: an escape (``\\u0000``, ``\\b``) or
#: the raw character (control characters below U+0020 are no valid JSON).
_RAW_FORBIDDEN = re.compile("[\x7f-\x9f]")


def _too_deep() -> str:
    return _("This file is not a Scorekeeper backup: it is nested too deeply.")


def check_text(document: object, text: str | None = None, max_depth: int = JSON_MAX_DEPTH) -> None:
    """Refuse a document nested deeper than ``max_depth`` or holding, in any text or key,
    a character no backup holds. Walks iteratively, so checking cannot run out of stack.

    Given the JSON ``text`` the document was read from, and none of the escapes or raw
    characters that could write such a character in it (the usual case: a backup writes
    every character as itself), only the nesting is walked.
    """
    if (
        text is not None
        and "\\u" not in text
        and "\\b" not in text
        and "\\f" not in text
        and not _RAW_FORBIDDEN.search(text)
    ):
        _check_depth(document, max_depth)
        return
    search = _FORBIDDEN.search
    stack = [(document, 1)]
    pop, push = stack.pop, stack.append
    while stack:
        item, depth = pop()
        if isinstance(item, dict):
            if depth > max_depth:
                raise refuse(_too_deep())
            for key, inner in item.items():
                found = search(key)
                if found:
                    raise refuse(_holds(found.group()))
                if isinstance(inner, str):
                    found = search(inner)
                    if found:
                        raise refuse(_holds(found.group(), key))
                elif isinstance(inner, dict | list):
                    push((inner, depth + 1))
        elif isinstance(item, list):
            if depth > max_depth:
                raise refuse(_too_deep())
            for inner in item:
                if isinstance(inner, str):
                    found = search(inner)
                    if found:
                        raise refuse(_holds(found.group()))
                elif isinstance(inner, dict | list):
                    push((inner, depth + 1))
        elif isinstance(item, str):
            found = search(item)
            if found:
                raise refuse(_holds(found.group()))


def _check_depth(document: object, max_depth: int) -> None:
    if not isinstance(document, dict | list):
        return
    stack = [(document, 1)]
    pop, push = stack.pop, stack.append
    while stack:
        item, depth = pop()
        if depth > max_depth:
            raise refuse(_too_deep())
        values = item.values() if isinstance(item, dict) else item
        for inner in values:
            if isinstance(inner, dict | list):
                push((inner, depth + 1))


def read_document(raw: bytes | str, unpacked_limit: int = MAX_UNPACKED) -> object:
    """The JSON document in an uploaded file, plain or gzip-compressed (refused when it is
    not JSON, nested too deeply, or holds control characters or lone surrogates)."""
    if isinstance(raw, bytes) and raw.startswith(GZIP_MAGIC):
        raw = _gunzip(raw, unpacked_limit)
    try:
        text = raw.decode("utf-8-sig") if isinstance(raw, bytes) else raw
        document = json.loads(text)
    except RecursionError:
        raise refuse(_too_deep()) from None
    except (UnicodeDecodeError, ValueError):
        raise refuse(_("This file is not a Scorekeeper backup: it is not JSON.")) from None
    check_text(document, text)
    return document


def restore_account(account: Account, document: object) -> dict[str, int]:
    """Load a backup into an empty account; how many players, nights, games and hands (and
    rule sets).

    Refused (``restore_refused``, nothing changed) when the account already holds data, when
    the document is not a Scorekeeper backup of a version this app reads, or when anything in
    it is damaged: a missing or ill-typed field, an unknown game, a bad seat, or a hand the
    rules refuse.
    """
    if not isinstance(document, Mapping) or document.get("format") != FORMAT:
        raise refuse(_("This file is not a Scorekeeper backup."), "format")
    version = document.get("version")
    if version != VERSION:
        raise refuse(
            _(
                "This backup is in format version %(version)s; this app reads version %(known)s.",
                version=repr(version),
                known=VERSION,
            ),
            "version",
        )
    if not is_empty(account):
        raise refuse(
            _(
                "A backup can only be restored into an account with no players, nights or games "
                "yet; this one already has some. Sign up for a new account and restore there."
            )
        )
    try:
        plan = _Plan(document)
    except Damaged as damage:
        raise refuse(
            _("This backup is damaged: %(problem)s", problem=damage.message), damage.where
        ) from None
    try:
        counts = plan.write(account)
        db.session.commit()
    except sa.exc.IntegrityError:
        db.session.rollback()
        raise refuse(
            _("The account received other data while restoring (from another phone?).")
        ) from None
    except BaseException:
        db.session.rollback()
        raise
    return counts


def _need(container: Mapping[str, Any], key: str, kind: type | tuple, where: str, what: str):
    if key not in container:
        raise Damaged(f"{where}.{key}", _("%(what)s has no “%(key)s”.", what=what, key=key))
    value = container[key]
    if (isinstance(value, bool) and kind is not bool) or not isinstance(value, kind):
        raise Damaged(f"{where}.{key}", _NOT_OF_KIND[kind](what=what, key=key))
    return value


#: The sentence for a value not of the kind it should be, for each kind.
_NOT_OF_KIND = {
    str: lambda **p: _("%(what)s: “%(key)s” is not text.", **p),
    int: lambda **p: _("%(what)s: “%(key)s” is not a whole number.", **p),
    bool: lambda **p: _("%(what)s: “%(key)s” is not true or false.", **p),
    list: lambda **p: _("%(what)s: “%(key)s” is not a list.", **p),
    dict: lambda **p: _("%(what)s: “%(key)s” is not an object.", **p),
}

#: The sentence for a missing list of the backup, for each list.
_MISSING_LIST = {
    "players": lambda: _("the list of players is missing."),
    "nights": lambda: _("the list of nights is missing."),
    "rule_sets": lambda: _("the list of rule sets is missing."),
    "games": lambda: _("the list of games is missing."),
}


def _list(document: Mapping[str, Any], key: str, optional: bool = False) -> list:
    if optional and key not in document:
        return []
    value = document.get(key)
    if not isinstance(value, list):
        raise Damaged(key, _MISSING_LIST[key]())
    for index, item in enumerate(value):
        if not isinstance(item, Mapping):
            raise Damaged(
                f"{key}[{index}]",
                _("entry %(number)s of “%(key)s” is not an object.", number=index + 1, key=key),
            )
    return value


def _time(container: Mapping[str, Any], key: str, where: str, what: str, optional=False):
    value = container.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise Damaged(
            f"{where}.{key}",
            _("%(what)s has no valid “%(key)s” (a date and time).", what=what, key=key),
        )
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise Damaged(
            f"{where}.{key}",
            _("%(what)s: “%(value)s” is not a date and time.", what=what, value=value),
        ) from None
    if moment.tzinfo is None:
        raise Damaged(
            f"{where}.{key}", _("%(what)s: “%(value)s” has no time zone.", what=what, value=value)
        )
    return moment.astimezone(UTC)


#: Where in the backup a problem is ("Night 3"), and the sentence for two items of one id.
_LABELS = {
    "players": lambda ref: _("Player %(id)s", id=ref),
    "nights": lambda ref: _("Night %(id)s", id=ref),
    "rule_sets": lambda ref: _("Rule set %(id)s", id=ref),
    "games": lambda ref: _("Game %(id)s", id=ref),
}
_SAME_ID = {
    "players": lambda ref: _("two players have the id %(id)s.", id=ref),
    "nights": lambda ref: _("two nights have the id %(id)s.", id=ref),
    "rule_sets": lambda ref: _("two rule sets have the id %(id)s.", id=ref),
}


def _unique_ids(items: list, where: str) -> dict[int, Mapping]:
    found: dict[int, Mapping] = {}
    for index, item in enumerate(items):
        ref = _need(item, "id", int, f"{where}[{index}]", _LABELS[where](index + 1))
        if ref in found:
            raise Damaged(f"{where}[{index}].id", _SAME_ID[where](ref))
        found[ref] = item
    return found


def _at(what: str, problem: str) -> str:
    """A refusal of the app's own checks, said of one place of the backup ("Night 3")."""
    return _("%(what)s: %(problem)s", what=what, problem=str(problem))


def _hand_label(ref: int, number: int) -> str:
    return _("Game %(id)s, hand %(number)s", id=ref, number=number)


#: The sentence for a night's text beyond its limit, for each text.
_TOO_LONG = {
    "name": lambda limit, **p: ngettext(
        "%(what)s: the name is longer than %(num)s character.",
        "%(what)s: the name is longer than %(num)s characters.",
        limit,
        **p,
    ),
    "place": lambda limit, **p: ngettext(
        "%(what)s: the place is longer than %(num)s character.",
        "%(what)s: the place is longer than %(num)s characters.",
        limit,
        **p,
    ),
    "notes": lambda limit, **p: ngettext(
        "%(what)s: the notes are longer than %(num)s character.",
        "%(what)s: the notes are longer than %(num)s characters.",
        limit,
        **p,
    ),
}


class _Plan:
    """The document checked, and the rows it will become (games in a compact form: what the
    rules derived is kept, the replayed states are not)."""

    def __init__(self, document: Mapping[str, Any]) -> None:
        self.players = self._players(_list(document, "players"))
        self.nights = self._nights(_list(document, "nights"))
        self.rule_sets = self._rule_sets(_list(document, "rule_sets", optional=True))
        #: The keys of hand results, numbered (results are kept as arrays of numbers).
        self.keys: dict[str, int] = {}
        self.games = [
            self._game(index, item) for index, item in enumerate(_list(document, "games"))
        ]

    def _players(self, items: list) -> dict[int, dict]:
        by_id = _unique_ids(items, "players")
        keys: dict[str, str] = {}
        players = {}
        for index, (ref, item) in enumerate(by_id.items()):
            where, what = f"players[{index}]", _LABELS["players"](ref)
            raw = _need(item, "name", str, where, what)
            try:
                name = roster.clean_name(raw)
            except Refusal as refusal:
                raise Damaged(f"{where}.name", _at(what, refusal.message)) from None
            if name != raw:
                raise Damaged(
                    f"{where}.name",
                    _("%(what)s: “%(name)s” has extra spaces.", what=what, name=raw),
                )
            key = roster.name_key(name)
            if key in keys:
                raise Damaged(
                    f"{where}.name", _("two players are called %(name)s.", name=keys[key])
                )
            keys[key] = name
            players[ref] = {
                "name": name,
                "name_key": key,
                "archived": _need(item, "archived", bool, where, what),
                "created_at": _time(item, "created_at", where, what),
            }
        return players

    def _nights(self, items: list) -> dict[int, dict]:
        by_id = _unique_ids(items, "nights")
        nights = {}
        for index, (ref, item) in enumerate(by_id.items()):
            where, what = f"nights[{index}]", _LABELS["nights"](ref)
            raw_date = _need(item, "date", str, where, what)
            try:
                day = date.fromisoformat(raw_date)
            except ValueError:
                raise Damaged(
                    f"{where}.date",
                    _("%(what)s: “%(value)s” is not a date.", what=what, value=raw_date),
                ) from None
            values = {"date": day}
            limits = {
                "name": night_service.NAME_MAX,
                "place": night_service.PLACE_MAX,
                "notes": night_service.NOTES_MAX,
            }
            for key, limit in limits.items():
                text = _need(item, key, str, where, what)
                if len(text) > limit:
                    raise Damaged(f"{where}.{key}", _TOO_LONG[key](limit, what=what))
                try:  # what the nights service stores (no NUL, nothing invisible)
                    night_service.clean_text(text, key, limit, key == "notes")
                except Refusal as refusal:
                    raise Damaged(f"{where}.{key}", _at(what, refusal.message)) from None
                values[key] = text
            values["created_at"] = _time(item, "created_at", where, what)
            nights[ref] = values
        return nights

    def _rule_sets(self, items: list) -> list[dict]:
        by_id = _unique_ids(items, "rule_sets")
        found: list[dict] = []
        names: set[tuple[str, str]] = set()
        for index, (ref, item) in enumerate(by_id.items()):
            where, what = f"rule_sets[{index}]", _LABELS["rule_sets"](ref)
            kind = _need(item, "game", str, where, what)
            if kind not in GAMES:
                raise Damaged(
                    f"{where}.game",
                    _("%(what)s is for an unknown game “%(kind)s”.", what=what, kind=kind),
                )
            try:
                name = clean_line(
                    _need(item, "name", str, where, what),
                    _("A rule set's name"),
                    "name",
                    rule_set_service.NAME_MAX,
                    required=_("Name the rule set."),
                )
            except Refusal as refusal:
                raise Damaged(f"{where}.name", _at(what, refusal.message)) from None
            key = text_key(name)
            if (kind, key) in names:
                raise Damaged(
                    f"{where}.name", _("two rule sets of one game are called %(name)s.", name=name)
                )
            names.add((kind, key))
            options = _need(item, "options", dict, where, what)
            rules = GAMES[kind].rules
            try:
                rules.resolve_options(options, rules.min_players)
            except RuleError as error:
                raise Damaged(
                    f"{where}.options.{error.field or ''}".rstrip("."), _at(what, error.message)
                ) from None
            found.append(
                {
                    "kind": kind,
                    "name": name,
                    "name_key": key,
                    "options": dict(options),
                    "created_at": _time(item, "created_at", where, what),
                }
            )
        return found

    def _game(self, index: int, item: Mapping[str, Any]) -> dict:
        where = f"games[{index}]"
        ref = _need(item, "id", int, where, _LABELS["games"](index + 1))
        what = _LABELS["games"](ref)
        kind = _need(item, "game", str, where, what)
        if kind not in GAMES:
            known = ", ".join(GAMES)
            raise Damaged(
                f"{where}.game",
                _(
                    "%(what)s is of an unknown game “%(kind)s” (%(known)s).",
                    what=what,
                    kind=kind,
                    known=known,
                ),
            )
        plugin = GAMES[kind]
        game_rules = plugin.rules
        seat_refs = _need(item, "players", list, where, what)
        for seat, player_ref in enumerate(seat_refs):
            if isinstance(player_ref, bool) or player_ref not in self.players:
                raise Damaged(
                    f"{where}.players[{seat}]",
                    _(
                        "%(what)s: seat %(seat)s names no player of the backup (%(ref)s).",
                        what=what,
                        seat=seat + 1,
                        ref=repr(player_ref),
                    ),
                )
        if len(set(seat_refs)) != len(seat_refs):
            raise Damaged(
                f"{where}.players", _("%(what)s: a player sits at the table twice.", what=what)
            )
        names = [self.players[player_ref]["name"] for player_ref in seat_refs]
        options = _need(item, "options", dict, where, what)
        first_dealer = _need(item, "first_dealer", int, where, what)
        try:
            resolved = game_rules.resolve_options(options, len(names))
            game_rules.check_players(names, resolved)
        except RuleError as error:
            raise Damaged(f"{where}.{error.field or 'options'}", _at(what, error.message)) from None
        except ValueError:
            raise Damaged(
                f"{where}.players", _("%(what)s: wrong number of players.", what=what)
            ) from None
        if not 0 <= first_dealer < len(names):
            raise Damaged(
                f"{where}.first_dealer", _("%(what)s: the first dealer is not a seat.", what=what)
            )
        night_ref = item.get("night")
        if night_ref is not None and (isinstance(night_ref, bool) or night_ref not in self.nights):
            raise Damaged(
                f"{where}.night", _("%(what)s belongs to a night not in the backup.", what=what)
            )
        locked = _need(item, "locked", bool, where, what)
        abandoned = _need(item, "abandoned", bool, where, what) if "abandoned" in item else False

        hands = _need(item, "hands", list, where, what)
        entries = []
        for number, hand in enumerate(hands, start=1):
            hand_where = f"{where}.hands[{number - 1}]"
            if not isinstance(hand, Mapping):
                raise Damaged(
                    hand_where,
                    _("%(what)s: hand %(number)s is not an object.", what=what, number=number),
                )
            hand_what = _hand_label(ref, number)
            if _need(hand, "number", int, hand_where, hand_what) != number:
                raise Damaged(
                    f"{hand_where}.number",
                    _("%(what)s: the hands are not numbered 1, 2, 3 …", what=what),
                )
            entries.append(_need(hand, "input", dict, hand_where, hand_what))
        setup = Setup(players=tuple(names), options=resolved, first_dealer=first_dealer)
        try:
            state = game_rules.play(setup, entries)
        except RuleError as error:
            problem = str(error.message)
            if error.hand and not getattr(error, "names_hand", False):
                problem = game_rules.phrase("problem", number=error.hand, problem=problem)
            raise Damaged(
                f"{where}.hands[{(error.hand or 1) - 1}]",
                _(
                    "%(what)s (%(game)s), %(problem)s",
                    what=what,
                    game=game_rules.title,
                    problem=problem,
                ),
            ) from None
        finished_at = _time(item, "finished_at", where, what, optional=True)
        if finished_at is not None and not state.finished:
            # A game the table ended (an open-ended score pad) is ended again by its rules.
            with suppress(RuleError):
                state = game_rules.close(setup, state)
        if locked and not state.finished:
            raise Damaged(
                f"{where}.locked", _("%(what)s is marked finished but is not over.", what=what)
            )
        if finished_at is not None and not state.finished:
            raise Damaged(
                f"{where}.finished_at", _("%(what)s has an end time but is not over.", what=what)
            )
        if abandoned and state.finished:
            raise Damaged(
                f"{where}.abandoned", _("%(what)s is marked abandoned but is over.", what=what)
            )
        status = "abandoned" if abandoned else results.status_of(state)
        derived = results.derive(plugin, setup, state, status)
        keys = self.keys
        packed = array("q")
        for number, seat, key, value in derived.results:
            code = keys.get(key)
            if code is None:
                code = keys[key] = len(keys)
            packed.extend((number, seat, code, value))
        return {
            "row": {
                "kind": kind,
                "options": resolved,
                "first_dealer": first_dealer,
                "variant": game_rules.variant_of(resolved),
                "locked": locked,
                "status": status,
                "totals": derived.totals,
                "winners": derived.winners,
                "tally": derived.tally,
                "hand_count": len(state.hands),
                "version": 1,
                "created_at": _time(item, "created_at", where, what),
                "updated_at": _time(item, "updated_at", where, what),
                "finished_at": finished_at,
            },
            "night": night_ref,
            "seats": seat_refs,
            "hands": [
                (
                    hand.number,
                    game_rules.to_seats(hand.input, setup.players),
                    _time(raw, "created_at", f"{where}.hands[{i}]", _hand_label(ref, i + 1)),
                    _time(raw, "updated_at", f"{where}.hands[{i}]", _hand_label(ref, i + 1)),
                )
                for i, (hand, raw) in enumerate(zip(state.hands, hands, strict=True))
            ],
            "results": packed,
        }

    def write(self, account: Account) -> dict[str, int]:
        """Insert every row in bulk, a batch of games at a time (the caller commits).

        Rows are inserted in the document's order, so ids (and so a later export) keep it.
        """
        batch = BATCH
        session = db.session
        player_ids = dict(
            zip(
                self.players,
                _insert_returning(
                    Player.__table__,
                    [{"account_id": account.id, **values} for values in self.players.values()],
                ),
                strict=True,
            )
        )
        night_ids = dict(
            zip(
                self.nights,
                _insert_returning(
                    Night.__table__,
                    [{"account_id": account.id, **values} for values in self.nights.values()],
                ),
                strict=True,
            )
        )
        if self.rule_sets:
            session.execute(
                sa.insert(RuleSet.__table__),
                [{"account_id": account.id, **values} for values in self.rule_sets],
            )
        keys = list(self.keys)
        sums: dict[tuple, int] = defaultdict(int)
        best: dict[tuple, int] = {}
        hand_count = 0
        for start in range(0, len(self.games), batch):
            games = self.games[start : start + batch]
            game_ids = _insert_returning(
                Game.__table__,
                [
                    {
                        "account_id": account.id,
                        "night_id": night_ids.get(game["night"]),
                        "share_token": None,
                        **game["row"],
                    }
                    for game in games
                ],
            )
            seats, hands = [], []
            for game_id, game in zip(game_ids, games, strict=True):
                players = [player_ids[ref] for ref in game["seats"]]
                seats.extend(
                    {"game_id": game_id, "position": seat, "player_id": player}
                    for seat, player in enumerate(players)
                )
                hands.extend(
                    {
                        "game_id": game_id,
                        "number": number,
                        "input": entry,
                        "created_at": created,
                        "updated_at": updated,
                    }
                    for number, entry, created, updated in game["hands"]
                )
                kind, variant = game["row"]["kind"], game["row"]["variant"]
                for player, counts in zip(players, game["row"]["tally"], strict=True):
                    for key, value in counts.items():
                        where = (player, kind, variant, key)
                        if key == results.BEST:
                            best[where] = max(best.get(where, value), value)
                        else:
                            sums[where] += value
            _insert(Seat.__table__, seats)
            _insert(HandEntry.__table__, hands)
            _insert_results(_result_rows(game_ids, games, keys))
            hand_count += len(hands)
        stats = [
            {"player_id": p, "kind": k, "variant": v, "key": key, "value": value}
            for (p, k, v, key), value in [*sums.items(), *best.items()]
            if value or key == results.BEST
        ]
        if stats:
            session.execute(sa.insert(PlayerStat.__table__), stats)
        return {
            "players": len(self.players),
            "nights": len(self.nights),
            "rule_sets": len(self.rule_sets),
            "games": len(self.games),
            "hands": hand_count,
        }


def _insert_returning(table: sa.Table, rows: list[dict]) -> list[int]:
    """Insert rows in bulk; their new ids, in the rows' order."""
    if not rows:
        return []
    statement = sa.insert(table).returning(table.c.id, sort_by_parameter_order=True)
    return list(db.session.execute(statement, rows).scalars())


def _insert(table: sa.Table, rows: list[dict]) -> None:
    """Insert rows in bulk (no ids wanted), straight to the driver inside the session's
    transaction: SQLAlchemy's own executemany spends more time than the database on a
    hundred thousand rows. PostgreSQL: COPY (JSON columns sent as JSON text); SQLite: the
    values go through their columns' bind processors (JSON, dates) to one executemany."""
    if not rows:
        return
    connection = db.session.connection()
    names = list(rows[0])
    dialect = connection.dialect
    if dialect.name == "postgresql":
        quote = dialect.identifier_preparer.quote
        as_json = [isinstance(table.c[name].type, sa.JSON) for name in names]
        statement = f"COPY {table.name} ({', '.join(quote(name) for name in names)}) FROM STDIN"
        steps = list(zip(names, as_json, strict=True))
        driver = connection.connection.driver_connection
        with driver.cursor() as cursor, cursor.copy(statement) as copy:
            for row in rows:
                copy.write_row(
                    tuple(_dumps(row[name]) if is_json else row[name] for name, is_json in steps)
                )
        return
    if dialect.paramstyle != "qmark":
        connection.execute(sa.insert(table), rows)
        return
    processors = [
        table.c[name].type.dialect_impl(dialect).bind_processor(dialect) for name in names
    ]
    columns = ", ".join(connection.dialect.identifier_preparer.quote(name) for name in names)
    marks = ", ".join(["?"] * len(names))
    steps = list(zip(names, processors, strict=True))
    connection.connection.driver_connection.executemany(
        f"INSERT INTO {table.name} ({columns}) VALUES ({marks})",
        (
            tuple(row[name] if step is None else step(row[name]) for name, step in steps)
            for row in rows
        ),
    )


def _result_rows(game_ids: list[int], games: list[dict], keys: list[str]) -> Iterator[tuple]:
    """The hand results of a batch of games, unpacked, as ``RESULT_COLUMNS``."""
    for game_id, game in zip(game_ids, games, strict=True):
        packed = game["results"]
        for i in range(0, len(packed), 4):
            yield game_id, packed[i], packed[i + 1], keys[packed[i + 2]], packed[i + 3]


def _insert_results(rows: Iterable[tuple]) -> None:
    """Hand results, the most numerous rows, straight to the driver inside the session's
    transaction: COPY on PostgreSQL, one executemany on SQLite."""
    connection = db.session.connection()
    driver = connection.connection.driver_connection
    columns = ", ".join(results.RESULT_COLUMNS)
    if connection.dialect.name == "postgresql":
        statement = f"COPY hand_result ({columns}) FROM STDIN"
        with driver.cursor() as cursor, cursor.copy(statement) as copy:
            for row in rows:
                copy.write_row(row)
    elif connection.dialect.paramstyle == "qmark":
        marks = ", ".join(["?"] * len(results.RESULT_COLUMNS))
        driver.executemany(f"INSERT INTO hand_result ({columns}) VALUES ({marks})", rows)
    else:
        params = [dict(zip(results.RESULT_COLUMNS, row, strict=True)) for row in rows]
        if params:
            connection.execute(sa.insert(HandResult.__table__), params)


# One game's score sheet as CSV -------------------------------------------------------------

#: A spreadsheet runs a cell starting with one of these as a formula.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _cell(value: object) -> object:
    """A CSV cell: numbers as they are, text defused so that no name runs as a formula."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, str):
        value = str(value)  # a lazy text in the reader's language (csv writes a str's English)
        if value.startswith(FORMULA_STARTS):
            return "'" + value
    return value


def game_csv(result: Played) -> str:
    """The score sheet: a row per hand (what was entered, as the game's own columns, what it
    scored, the running totals), end-of-game bonus lines, then the totals. It starts with a
    UTF-8 byte-order mark, so spreadsheet apps read accented names right."""
    state = result.state
    rules = result.rules
    setup = result.setup
    sides = list(state.sides)
    header = [rules.phrase("word"), _("Dealer"), *rules.csv_columns(setup)]
    for side in sides:
        header += [_("%(side)s points", side=side), _("%(side)s total", side=side)]
    width = len(header)
    rows = [header]
    for hand in state.hands:
        row: list[object] = [hand.number, hand.dealer, *rules.csv_cells(setup, hand)]
        for side in sides:
            if hand.points is None:
                row += [None, None]
            else:
                row += [hand.points[side], hand.totals[side]]
        rows.append(row)
    for line in state.bonuses:
        row = [rules.bonus_word(line["kind"])] + [None] * (width - 1 - 2 * len(sides))
        for side in sides:
            row += [line["points"] if side == line["player"] else None, None]
        rows.append(row)
    total = [_("Total")] + [None] * (width - 1 - 2 * len(sides))
    for side in sides:
        total += [None, state.totals[side]]
    rows.append(total)
    if state.winners:
        rows.append(
            [
                ngettext("Winner", "Winners", len(state.winners)),
                name_list(state.winners),
            ]
            + [None] * (width - 2)
        )
    out = io.StringIO()
    out.write("\ufeff")
    writer = csv.writer(out, lineterminator="\r\n")
    for row in rows:
        writer.writerow([_cell(value) for value in row])
    return out.getvalue()
