"""Live updates: which game changed, told to every process that serves a stream of it.

Every commit that changes a game's row (its ``version`` goes up: a hand, a correction, a
draft, a claim) is noticed here, and the streams waiting for that game wake up
(``Hub.wait``). Between processes:

- PostgreSQL (several workers or hosts on one database): a trigger on the game table (the
  migration f2b8d6a4c1e9) notifies ``scorekeeper_games`` with ``<id>:<version>``, delivered
  when, and only if, the transaction commits; one thread per process ``LISTEN``s on its own
  connection. The app sends no statement of its own for it.
- SQLite (one host): one thread per process reads the versions of the games it has streams
  for, every ``POLL_SECONDS`` (one small query, whatever the number of streams).

A change made in the same process wakes its streams at once, without either.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import Counter

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.orm import Session

CHANNEL = "scorekeeper_games"
#: How often a process without LISTEN/NOTIFY reads the versions of the games it streams.
POLL_SECONDS = 0.1
#: The longest wait before listening again while the database stays out of reach.
MAX_PAUSE = 60.0

log = logging.getLogger(__name__)


class Hub:
    """The games' latest versions seen by this process, and the streams waiting on them."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        #: One condition per game streamed: a change wakes that game's streams only.
        self._changed: dict[int, threading.Condition] = {}
        self._versions: dict[int, int] = {}
        self._watched: Counter[int] = Counter()
        self._listener: threading.Thread | None = None
        self._engine: sa.Engine | None = None

    def publish(self, game_id: int, version: int, read: bool = False) -> None:
        """A change of the game to ``version``; ``read``: the version just read from the
        database, which replaces what was known (an id used again in a new database)."""
        with self._lock:
            if read and version != self._versions.get(game_id):
                self._versions[game_id] = version
            elif version > self._versions.get(game_id, -1):
                self._versions[game_id] = version
                changed = self._changed.get(game_id)
                if changed is not None:
                    changed.notify_all()

    def wait(self, game_id: int, seen: int, timeout: float) -> int | None:
        """The game's version once it is past ``seen`` (None after ``timeout`` seconds)."""
        end = time.monotonic() + timeout
        with self._lock:
            changed = self._changed.setdefault(game_id, threading.Condition(self._lock))
            self._watched[game_id] += 1
            try:
                while True:
                    version = self._versions.get(game_id, -1)
                    if version > seen:
                        return version
                    left = end - time.monotonic()
                    if left <= 0:
                        return None
                    changed.wait(left)
            finally:
                self._watched[game_id] -= 1
                if not self._watched[game_id]:
                    del self._watched[game_id]
                    del self._changed[game_id]

    def watched(self) -> list[int]:
        with self._lock:
            return list(self._watched)

    def start(self, engine: sa.Engine) -> None:
        """Start this process's listener for ``engine`` (once; after a fork, again)."""
        with self._lock:
            if self._listener is not None and self._listener.is_alive():
                return
            self._engine = engine
            postgres = engine.dialect.name == "postgresql"
            target = self._listen if postgres else self._poll
            self._listener = threading.Thread(target=target, name="game-events", daemon=True)
            self._listener.start()

    def _poll(self) -> None:
        engine = self._engine
        while True:
            time.sleep(POLL_SECONDS)
            ids = self.watched()
            if not ids:
                continue
            try:
                with engine.connect() as connection:
                    rows = connection.execute(
                        sa.text("SELECT id, version FROM game WHERE id IN :ids").bindparams(
                            sa.bindparam("ids", expanding=True)
                        ),
                        {"ids": ids},
                    ).all()
            except sa.exc.SQLAlchemyError:
                log.warning("reading the games' versions failed; trying again", exc_info=True)
                continue
            for game_id, version in rows:
                self.publish(game_id, version)

    def _listen(self) -> None:
        import psycopg

        url = self._engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        pause = 1.0
        while True:
            try:
                with psycopg.connect(url, autocommit=True) as connection:
                    connection.execute(f"LISTEN {CHANNEL}")
                    pause = 1.0  # listening again: a later failure is news again
                    # Changes made while (re)connecting: read once what is watched.
                    for game_id in self.watched():
                        row = connection.execute(
                            "SELECT version FROM game WHERE id = %s", (game_id,)
                        ).fetchone()
                        if row:
                            self.publish(game_id, row[0])
                    for note in connection.notifies():
                        game_id, _, version = note.payload.partition(":")
                        self.publish(int(game_id), int(version))
            except Exception:  # noqa: BLE001 - the database went away: listen again
                # Said once a failure; while it lasts, tried again less and less often (up to
                # once a minute), quietly.
                if pause == 1.0:
                    log.warning("listening for game changes failed; trying again", exc_info=True)
                else:
                    log.debug("listening for game changes failed again", exc_info=True)
                time.sleep(pause)
                pause = min(pause * 2, MAX_PAUSE)


HUB = Hub()


def _changed_games(session: Session) -> dict[int, int]:
    return session.info.setdefault("changed_games", {})


def _after_flush(session: Session, _context: object) -> None:
    """Note the games this flush changed, for this process's streams once it commits."""
    from scorekeeper.models import Game

    changed = _changed_games(session)
    for item in (*session.dirty, *session.new):
        if isinstance(item, Game) and item.id is not None:
            changed[item.id] = item.version


def _after_commit(session: Session) -> None:
    for game_id, version in session.info.pop("changed_games", {}).items():
        HUB.publish(game_id, version)


def _after_rollback(session: Session) -> None:
    session.info.pop("changed_games", None)


def install() -> None:
    """Watch every session's commits (once per process)."""
    if not event.contains(Session, "after_flush", _after_flush):
        event.listen(Session, "after_flush", _after_flush)
        event.listen(Session, "after_commit", _after_commit)
        event.listen(Session, "after_soft_rollback", lambda s, t: _after_rollback(s))
