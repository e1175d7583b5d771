"""On SQLite, the turn to write, handed to the next writer the moment the last one is done.

SQLite lets one connection write at a time. A connection that finds the database locked
sleeps and tries again on SQLite's own schedule (its busy handler waits 1, 2, 5, 10, 15, 20,
25 ms ... between tries), so a save waiting for another worker's save to commit sleeps past
the moment it could have gone on, and its worker's core idles meanwhile. Here a connection
takes its turn to write (``Turn``) before the statement that starts its writing (the driver
begins the transaction with the first INSERT, UPDATE or DELETE), and gives it back when it
returns to the pool, after its commit or rollback. The turn is a lock of the process for its
threads, and an ``flock`` on a file beside the database for the processes: a waiter is woken
by the kernel when it is free. bench/load.py (50 clients through the API, 2 workers), 8 runs
against the commit before, 4 each way round: 1.06x the hands per second on average (0.89x to
1.29x), p99 319 against 356 ms on average, the cores idle 11% of the time against 16%.

SQLite's own locking still guards the data: a statement not seen here (a restore's rows sent
to the driver directly) waits on SQLite's schedule as before. A connection that has waited
``WAIT`` seconds for the turn, or whose thread already holds it through another connection,
goes on without it: SQLite's busy timeout then decides, with its "database is locked" (a 409)
as before.

A server's worker also checkpoints the write-ahead log in a thread of its own
(``checkpoint_in_background``, started by gunicorn.conf.py), a passive checkpoint every
second, which copies the log's pages into the database without holding up readers or
writers. Otherwise the commit that takes the log past 1,000 pages does it (SQLite's default)
while its connection still holds the turn to write: the other worker's saves waited for it,
their cores idle (bench/load.py, 50 clients through the API: with no checkpoint at all in the
run, 306 hands/s against 273, p99 202 against 231 ms, the cores idle 6.8% against 11.3%).
A commit still checkpoints past ``BEHIND`` pages, should that thread fall behind.
"""

from __future__ import annotations

import fcntl
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Callable

from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.pool import Pool

#: Seconds a connection waits for the turn before it leaves the wait to SQLite's busy timeout.
WAIT = 5.0
#: The statements that make a connection a writer.
WRITES = ("INSERT", "UPDATE", "DELETE", "REPLACE")
#: Where a pooled SQLite connection keeps its database's turn, and whether it holds it.
_KEY = "scorekeeper.writer"
#: Seconds between a worker's background checkpoints (``checkpoint_in_background``).
CHECKPOINT_EVERY = 1.0
#: SQLite's own threshold (pages of log) for a commit to checkpoint, and the threshold once a
#: thread checkpoints in the background (a commit does it only if that thread falls behind).
AUTOCHECKPOINT = 1000
BEHIND = 10_000

log = logging.getLogger(__name__)


class Turn:
    """The turn to write to one database file, in this process: ``take`` it (True; False
    after ``WAIT`` seconds, or when this thread holds it already), then ``give`` it back."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._threads = threading.Lock()
        self._holder: int | None = None  # the thread holding it
        self._fd: int | None = None  # the file whose lock the processes share

    def take(self) -> bool:
        if self._holder == threading.get_ident():
            return False
        end = time.monotonic() + WAIT
        if not self._threads.acquire(timeout=WAIT):
            return False
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError:  # a database in a folder this process may not write to
            self._threads.release()
            return False
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if not _waited(fd, end - time.monotonic()):
                self._threads.release()
                return False
        except OSError:
            os.close(fd)
            self._threads.release()
            return False
        self._fd = fd
        self._holder = threading.get_ident()
        return True

    def give(self) -> None:
        fd, self._fd, self._holder = self._fd, None, None
        if fd is not None:
            os.close(fd)  # the lock goes with the file
        self._threads.release()


def _waited(fd: int, seconds: float) -> bool:
    """Whether the lock of ``fd`` came within ``seconds``. A thread of its own waits for it in
    the kernel; if it comes too late, that thread closes ``fd`` (letting the lock go)."""
    came = threading.Event()
    late = threading.Lock()
    given_up: list[bool] = []

    def wait() -> None:
        fcntl.flock(fd, fcntl.LOCK_EX)
        with late:
            if given_up:
                os.close(fd)
            else:
                came.set()

    threading.Thread(target=wait, daemon=True, name="sqlite-writer").start()
    if came.wait(max(seconds, 0.0)):
        return True
    with late:
        if came.is_set():
            return True
        given_up.append(True)
    return False


_turns: dict[str, Turn] = {}
_made = threading.Lock()
#: Set while a thread of this process checkpoints in the background.
_background = threading.Event()


def _forked() -> None:
    """A process forked from this one starts with turns of its own (none held: a lock held
    by a thread of the parent would never be given back in the child), and with no thread
    checkpointing (threads do not survive a fork)."""
    global _made
    _turns.clear()
    _made = threading.Lock()
    _background.clear()


os.register_at_fork(after_in_child=_forked)


def turn_for(path: str) -> Turn:
    """This process's ``Turn`` for the database file ``path`` (its lock file beside it)."""
    with _made:
        found = _turns.get(path)
        if found is None:
            found = _turns[path] = Turn(path + "-writer")
        return found


def note_file(dbapi_connection, record) -> None:
    """A new SQLite connection: it takes the turn of its database file (none in memory)."""
    rows = dbapi_connection.execute("PRAGMA database_list").fetchall()
    path = next((row[2] for row in rows if row[1] == "main"), "")
    if path:
        record.info[_KEY] = [turn_for(path), False]


def autocheckpoint() -> int:
    """The pages of log past which a new connection's commit checkpoints it."""
    return BEHIND if _background.is_set() else AUTOCHECKPOINT


def checkpoint_in_background(every: float = CHECKPOINT_EVERY) -> Callable[[], None]:
    """Checkpoint the log of every database file this process writes to (those with a
    ``Turn``), passively, every ``every`` seconds, in a thread of its own; the connections made
    from now on leave it to that thread (``autocheckpoint``). Call it before the process's
    first connection (a gunicorn worker's start). The function returned stops the thread."""
    stop = threading.Event()
    _background.set()

    def run() -> None:
        opened: dict[str, sqlite3.Connection] = {}
        try:
            while not stop.wait(every):
                with _made:
                    paths = list(_turns)
                for path in paths:
                    _checkpoint(opened, path)
        finally:
            for connection in opened.values():
                connection.close()

    def stopped() -> None:
        stop.set()
        thread.join()
        _background.clear()

    thread = threading.Thread(target=run, daemon=True, name="sqlite-checkpoint")
    thread.start()
    return stopped


def _checkpoint(opened: dict[str, sqlite3.Connection], path: str) -> None:
    """A passive checkpoint of ``path``'s log, on the thread's own connection to it: what it
    cannot copy now (a reader still needs the pages it would overwrite) waits for the next."""
    try:
        connection = opened.get(path)
        if connection is None:
            connection = opened[path] = sqlite3.connect(path, isolation_level=None)
        connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
    except sqlite3.Error:
        log.warning("could not checkpoint %s", path, exc_info=True)
        dropped = opened.pop(path, None)
        if dropped is not None:
            dropped.close()


@event.listens_for(Engine, "before_cursor_execute")
def _before_write(conn, _cursor, statement, _parameters, _context, _executemany) -> None:
    held = conn.info.get(_KEY)  # noted on SQLite's file connections only (note_file)
    if held is None or held[1]:
        return
    if statement.lstrip()[:7].upper().startswith(WRITES):
        held[1] = held[0].take()


def _give_back(record) -> None:
    held = record.info.get(_KEY) if record is not None else None
    if held is not None and held[1]:
        held[1] = False
        held[0].give()


@event.listens_for(Pool, "checkin")
def _checked_in(_dbapi_connection, record) -> None:
    _give_back(record)


@event.listens_for(Pool, "invalidate")
def _invalidated(_dbapi_connection, record, _exception) -> None:
    _give_back(record)


@event.listens_for(Pool, "close")
def _closed(_dbapi_connection, record) -> None:
    _give_back(record)
