"""The streamed restore: a backup file read a piece at a time, its games checked one at a time
as they come, their rows spooled to a temporary file a batch at a time, then written a batch
at a time in one transaction (all of it, or nothing).

Only one game's document, one batch of checked rows and one piece of the file's text are
held at once, so the memory a restore takes does not grow with the backup. The text is
unpacked (gzip) and decoded in pieces, and each value of the document is read whole by the
standard JSON decoder (``raw_decode``): the head's values, then each game of ``games``.

The checks and their sentences are the whole-document restore's (``check``), and so is which
of several problems is told: a problem of the file (gzip, then JSON, nesting, characters)
wins over a problem of its content, so once a game is refused the rest of the file is still
read through before the refusal is given. Nothing is written before the whole file is read
and checked.

A document this way cannot read in order (the head after the games, a list of games that is
no list, a document that is no object) is restored whole, as before (``restore_account``):
backups this app writes always put the head first and the games last.
"""

from __future__ import annotations

import codecs
import gc
import json
import pickle
import re
import tempfile
import zlib
from collections.abc import Callable
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from scorekeeper.errors import Refusal
from scorekeeper.games.i18n import _
from scorekeeper.models import Account
from scorekeeper.services import ratings
from scorekeeper.services.backup import check
from scorekeeper.services.backup.check import GZIP_MAGIC
from scorekeeper.services.backup.check import Damaged
from scorekeeper.services.backup.check import refuse
from scorekeeper.services.backup.checking import Checker
from scorekeeper.services.backup.checking import verified
from scorekeeper.services.backup.restore import Writer
from scorekeeper.services.backup.restore import all_or_nothing
from scorekeeper.services.backup.restore import damaged
from scorekeeper.services.backup.restore import is_empty
from scorekeeper.services.backup.restore import restore_account
from scorekeeper.web import JSON_MAX_DEPTH

#: How much of the file is unpacked or decoded at a time (bytes).
PIECE = 1 << 20
#: Games checked, kept and written together. The worker's memory peaks while a batch is
#: written: at 10,000 games, 138 MiB with 250 (148 with 500), for a few percent more time.
BATCH = 250
#: The text (unpacked, bytes) from which the games are checked in several processes: a
#: checking process takes about a second of CPU to start (it imports the rules and the
#: check), so a smaller file is checked in the worker alone, in about the same time for half
#: the CPU. On this 2-core machine, 1,000 games (2.9 MB; ``bench/backup.py --plain``, 3 runs
#: each): 3.17 s on average and 3.2 s of CPU in the worker, 3.39 s and 6.0 s of CPU with two
#: checking processes; restored in one process, 3,000 games (8.7 MB) took 6.6 s in the
#: worker and 5.8 s with two checking processes, 10,000 games (29 MB) 25.8 s and 17.0 s.
PROCESSES_FROM = 4 * 1024 * 1024
#: What the head must hold before the games for them to be checked as they come.
HEAD = ("format", "version", "players", "nights")

_decode = json.JSONDecoder().raw_decode
_SPACE = re.compile(r"[ \t\n\r]*")


class _Whole(Exception):
    """The document cannot be read in order: restore it whole."""


def _not_json() -> Refusal:
    return refuse(_("This file is not a Scorekeeper backup: it is not JSON."))


def _gunzipped(raw: bytes, limit: int) -> Iterator[bytes]:
    """A gzip file's content a piece at a time, refused as ``check._gunzip`` refuses it
    (beyond ``limit`` bytes, cut short, not gzip); members after the first are read too."""
    length = 0
    rest = memoryview(raw)
    try:
        while rest:
            unpacker = zlib.decompressobj(31)
            at = 0
            while not unpacker.eof:
                if unpacker.unconsumed_tail:
                    given = unpacker.unconsumed_tail
                elif at < len(rest):
                    given, at = rest[at : at + PIECE], at + PIECE
                else:
                    break
                part = unpacker.decompress(given, PIECE)
                length += len(part)
                if length > limit:
                    raise refuse(
                        _(
                            "This backup unpacks to more than the %(size)s MB this server reads.",
                            size=round(limit / 1024 / 1024, 4),  # in the reader's digits
                        )
                    )
                if part:
                    yield part
            if not unpacker.eof:
                raise refuse(_("This compressed backup is cut short (the download did not end?)."))
            rest = memoryview(unpacker.unused_data + bytes(rest[at:]))
            if rest and bytes(rest[:2]) != GZIP_MAGIC:
                break
    except zlib.error:
        raise refuse(
            _("This file is not a Scorekeeper backup: it is not a readable gzip file.")
        ) from None


def _pieces(raw: bytes | str, limit: int) -> Iterator[str]:
    """The file's text a piece at a time (UTF-8, a byte order mark dropped)."""
    if isinstance(raw, str):
        yield from (raw[at : at + PIECE] for at in range(0, len(raw), PIECE))
        return
    if raw.startswith(GZIP_MAGIC):
        chunks: Iterator[Any] = _gunzipped(raw, limit)
    else:
        view = memoryview(raw)
        chunks = (view[at : at + PIECE] for at in range(0, len(view), PIECE))
    decoder = codecs.getincrementaldecoder("utf-8-sig")()
    try:
        for chunk in chunks:
            text = decoder.decode(chunk)
            if text:
                yield text
        text = decoder.decode(b"", final=True)
        if text:
            yield text
    except UnicodeDecodeError:
        for _chunk in chunks:  # a problem of the gzip file further on is told first
            pass
        raise _not_json() from None


class _Text:
    """The document's text, read forward a value at a time."""

    def __init__(self, pieces: Iterator[str]) -> None:
        self.pieces = pieces
        self.text = ""
        self.at = 0

    def _grow(self) -> bool:
        """Read on (at least as much again as is left unread); False at the end."""
        left = len(self.text) - self.at
        added: list[str] = []
        size = 0
        for piece in self.pieces:
            added.append(piece)
            size += len(piece)
            if size > left:
                break
        if not added:
            return False
        self.text = self.text[self.at :] + "".join(added)
        self.at = 0
        return True

    def refused(self, refusal: Refusal) -> Refusal:
        """``refusal``, once the rest of the file is read (a gzip problem is told first)."""
        for _piece in self.pieces:
            pass
        return refusal

    def peek(self) -> str:
        """The next character that is not white space ("" at the end)."""
        while True:
            self.at = _SPACE.match(self.text, self.at).end()
            if self.at < len(self.text):
                return self.text[self.at]
            if not self._grow():
                return ""

    def take(self, char: str) -> None:
        if self.peek() != char:
            raise self.refused(_not_json())
        self.at += 1

    def closed(self, close: str) -> bool:
        """After an item of an object or list: True at its end (``close``), False at the
        comma before its next item."""
        after = self.peek()
        if after not in (close, ","):
            raise self.refused(_not_json())
        self.at += 1
        return after == close

    def value(self) -> tuple[Any, str]:
        """The next value, and its text."""
        self.peek()
        while True:
            try:
                value, end = _decode(self.text, self.at)
            except RecursionError:
                raise self.refused(refuse(check._too_deep())) from None
            except json.JSONDecodeError as error:
                cut = error.pos >= len(self.text) - 16 or error.msg.startswith("Unterminated")
                if cut and self._grow():
                    continue
                raise self.refused(_not_json()) from None
            if end == len(self.text) and self._grow():
                continue  # a number may go on in the next piece
            text = self.text[self.at : end]
            self.at = end
            return value, text


def restore_file(
    account: Account,
    raw: bytes | str,
    unpacked_limit: int = check.MAX_UNPACKED,
    whole: Callable[[object], object] = lambda document: document,
    progress: Callable[[int | None], None] = lambda games: None,
    processes: int = 1,
) -> dict[str, int]:
    """Restore an uploaded backup file (plain or gzip-compressed) into an empty account, a
    batch of games at a time; how many players, nights, games and hands (and rule sets).

    Refused (``restore_refused``, nothing changed) as ``restore_account`` refuses. A document
    that cannot be read in order is restored whole, ``whole`` applied to it first (the API
    refuses a body that is no object). ``progress`` is told how many games were checked, a
    batch at a time, then None when the writing starts (a background restore shows it).
    ``processes``: how many processes check the games (``checking.Checker``), for a file
    whose text is at least ``PROCESSES_FROM`` (a smaller one is checked in this process)."""
    if text_size(raw) < PROCESSES_FROM:
        processes = 1
    try:
        with all_or_nothing():
            return _streamed(account, _Text(_pieces(raw, unpacked_limit)), progress, processes)
    except _Whole:
        document = whole(check.read_document(raw, unpacked_limit))
        return restore_account(account, document)


def text_size(raw: bytes | str) -> int:
    """The size of the file's text (bytes; characters if given as text): as a gzip file
    says it in its end (of its last member, the whole of those this app writes; a damaged
    one may say anything, but it only chooses how many processes check it)."""
    if isinstance(raw, bytes) and raw.startswith(GZIP_MAGIC) and len(raw) >= 18:
        return int.from_bytes(raw[-4:], "little")
    return len(raw)


class _Found:
    """The first problems found: of the file's text (told first), and of its content."""

    def __init__(self) -> None:
        self.text: Refusal | None = None
        self.content: Refusal | None = None

    def check_text(self, value: object, text: str, depth: int = JSON_MAX_DEPTH) -> None:
        """Note ``value`` if nested too deeply or holding a character no backup holds."""
        if self.text is None:
            try:
                check.check_text(value, text, depth)
            except Refusal as refusal:
                self.text = refusal

    @property
    def any(self) -> Refusal | None:
        return self.text or self.content


def _streamed(
    account: Account, text: _Text, progress: Callable[[int | None], None], processes: int
) -> dict[str, int]:
    if text.peek() != "{":
        raise _Whole
    text.take("{")
    head: dict[str, Any] = {}
    counts = None
    found = _Found()
    if text.peek() == "}":
        raise _Whole
    while True:
        if text.peek() != '"':
            raise text.refused(_not_json())
        key, key_text = text.value()
        text.take(":")
        if key == "games":
            if "games" in head or text.peek() != "[" or any(k not in head for k in HEAD):
                raise _Whole
            found.check_text({key: 0}, key_text)
            counts = _games(account, head, text, found, progress, processes)
            head["games"] = []
        else:
            if "games" in head:
                raise _Whole  # the head goes on after the games
            value, value_text = text.value()
            head[key] = value
            # As in the whole document: the head is an object's values, at depth 2.
            found.check_text({key: value}, key_text + value_text)
        if text.closed("}"):
            break
    if text.peek() != "":
        raise text.refused(_not_json())
    if found.any is not None:
        raise found.any
    if counts is None:
        raise _Whole  # no list of games: refused as a whole document is
    return counts


def _games(
    account: Account,
    head: dict,
    text: _Text,
    found: _Found,
    progress: Callable[[int | None], None],
    processes: int,
) -> dict[str, int] | None:
    """Read the list of games, checking them a batch at a time (in ``processes`` processes:
    ``checking.Checker``) and keeping their rows a batch at a time in a spool (a temporary
    file); once every game is checked, write them all. The
    counts written (None once a problem is found: the rest is only read, nothing written).

    Nothing is written while the file is read, so on SQLite the database's one write lock is
    held only while the rows are inserted, not while the rules check every game."""
    plan = None
    if found.any is None:
        try:
            check.model_for(head)
            if not is_empty(account):
                raise refuse(
                    _(
                        "A backup can only be restored into an account with no players, "
                        "nights or games yet; this one already has some. Sign up for a new "
                        "account and restore there."
                    )
                )
            plan = check.plan_head({**head, "games": []})
        except Damaged as damage:
            found.content = damaged(damage)
        except Refusal as refusal:
            found.content = refusal
    text.take("[")
    with tempfile.TemporaryFile() as spool, Checker(plan, processes) as checker:
        batches = 0
        finished: list[bytes] | None = []  # the finished games, as the ratings read them

        def take(every: bool) -> None:
            nonlocal batches, finished
            for start, texts, outcome in checker.outcomes(every):
                rows = verified(found, plan, start, texts, outcome)
                if rows is not None:
                    spool.write(rows)
                    batches += 1
                    if finished is not None and outcome.finished is not None:
                        finished.append(outcome.finished)
                    else:
                        finished = None

        if text.peek() == "]":
            text.at += 1
        else:
            while True:
                checker.add(*text.value(), plan is not None and found.any is None)
                if checker.index % BATCH == 0:
                    checker.send()
                    take(every=False)
                    progress(checker.index)
                if text.closed("]"):
                    break
        checker.send()
        take(every=True)
        if plan is None or found.any is not None:
            return None
        progress(None)
        rating = checker.rate(finished)  # beside the writing, in a checking process
        with collector_spared():
            writer = Writer(plan, account)
            spool.seek(0)
            for _batch in range(batches):
                keys, games = pickle.load(spool)  # noqa: S301 - this restore's own file
                writer.games(games, keys)
            counts = writer.finish()
            if rating is None:
                ratings.rebuild(account.id)
            else:
                ratings.write_history(
                    account.id, rating.result(), writer.game_ids, writer.player_ids
                )
    return counts


@contextmanager
def collector_spared() -> Iterator[None]:
    """The rows written without Python's collector going through the process's every object
    again and again: what is there before is left out of its collections (``gc.freeze``)
    until the end. The writing makes and drops millions of objects, and each of the six
    full collections it set off went through the whole worker (the app, its modules) for
    0.1 s: 0.6 of a 10,000-game restore's 4.6 s of writing, 0.09 s with this. Objects
    dropped meanwhile are freed as ever (they hold no cycles); those made before are given
    back to the collector at the end; in a worker that had left its own objects out from its
    start (gunicorn.conf.py), what lives then is left out again, after a collection."""
    before = gc.get_freeze_count()
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()
        if before:
            gc.collect()
            gc.freeze()
