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

What a stream sends for a change is worked out once per process, not once per stream
(``Shared``): a change wakes every phone of the table at once, and the first to ask reads the
game while the others wait for its answer (measured, 400 streams on 2 workers: each waking
stream reading the game itself held the connection pool from the saves).
"""

from __future__ import annotations

import logging
import threading
import time
from collections import Counter
from collections import OrderedDict
from collections.abc import Callable
from collections.abc import Hashable
from typing import Any

import sqlalchemy as sa
from flask import current_app
from flask import g
from flask import has_request_context
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
        #: Versions committed by requests of this process, told when each request ends.
        self._held: dict[int, list[int]] = {}
        #: The latest version the database told of a game while a request held it.
        self._held_back: dict[int, int] = {}
        self._listener: threading.Thread | None = None
        self._engine: sa.Engine | None = None

    def hold(self, game_id: int, version: int) -> None:
        """A request of this process committed ``version`` of the game and tells it itself
        (``release``) once what the streams send of it is ready: the same change told by the
        database meanwhile (NOTIFY, or the versions read) waits for it."""
        with self._lock:
            self._held.setdefault(game_id, []).append(version)

    def release(self, game_id: int, version: int, committed: bool = True) -> None:
        """The request that held ``version`` tells it once ``committed`` (always, whatever
        became of the request), or forgets it (rolled back)."""
        with self._lock:
            held = self._held.get(game_id, [])
            if version in held:
                held.remove(version)
            if not held:
                self._held.pop(game_id, None)
            # A version told meanwhile by the database and held back (another process's
            # commit of the version this request failed to commit, say) is told now.
            told = self._held_back.pop(game_id, -1) if not held else -1
        if committed:
            self.publish(game_id, version)
        if told >= 0:
            self.publish(game_id, told)

    def publish(self, game_id: int, version: int, read: bool = False) -> None:
        """A change of the game to ``version``; ``read``: the version just read from the
        database, which replaces what was known (an id used again in a new database)."""
        with self._lock:
            held = self._held.get(game_id)
            if held and not read and version <= max(held):
                # Told by the request of this process that made it (``release``).
                self._held_back[game_id] = max(version, self._held_back.get(game_id, -1))
                return
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

    def watching(self, game_id: int) -> bool:
        """Whether a stream of this process waits for the game."""
        with self._lock:
            return game_id in self._watched

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


class _Flight:
    """One computation under way: the threads asking for the same key wait for its result."""

    def __init__(self) -> None:
        self.done = threading.Event()
        self.value: Any = None
        self.failed = False


class Shared:
    """Values computed once per key for every thread of this process that asks for them: the
    first asks ``compute``, the others asking meanwhile wait for its answer (one computation
    per key at a time), and the latest ``kept`` answers are kept. At most ``at_once``
    computations run at a time (they read the database: the saves keep their connections).

    The key says everything the value depends on (for an event: the game, its version and
    what the reader may see), so a value is never handed to a reader it was not made for."""

    def __init__(self, kept: int = 256, at_once: int = 2) -> None:
        self._lock = threading.Lock()
        self._kept: OrderedDict[Hashable, Any] = OrderedDict()
        self._flights: dict[Hashable, _Flight] = {}
        self._slots = threading.BoundedSemaphore(at_once)
        self.limit = kept
        #: How many times ``compute`` ran (the tests count the reads), and how many values
        #: were answered from those kept.
        self.computed = 0
        self.hits = 0

    def get(
        self,
        key: Hashable,
        compute: Callable[[], Any],
        keep_as: Callable[[Any], Hashable | None] | None = None,
    ) -> Any:
        """The value for ``key``. ``keep_as``: the key a computed value is kept under when it
        may not be ``key`` (the value turned out to be for another one), None: not kept."""
        with self._lock:
            if key in self._kept:
                self._kept.move_to_end(key)
                self.hits += 1
                return self._kept[key]
            flight = self._flights.get(key)
            leader = flight is None
            if leader:
                flight = self._flights[key] = _Flight()
        if not leader:
            flight.done.wait()
            if not flight.failed:
                return flight.value
            return self.get(key, compute, keep_as)  # its computation failed: try again
        try:
            with self._slots:
                self.computed += 1
                value = compute()
        except BaseException:
            flight.failed = True
            raise
        else:
            flight.value = value
            kept_as = key if keep_as is None else keep_as(value)
            if kept_as is not None:
                self.put(kept_as, value)
        finally:
            with self._lock:
                del self._flights[key]
            flight.done.set()
        return value

    def put(self, key: Hashable, value: Any) -> None:
        """Keep ``value`` for ``key``, computed elsewhere (it must be what ``compute`` gives)."""
        with self._lock:
            self._kept[key] = value
            self._kept.move_to_end(key)
            while len(self._kept) > self.limit:
                self._kept.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()

    def __len__(self) -> int:
        """How many values are kept."""
        with self._lock:
            return len(self._kept)


def _changed_games(session: Session) -> dict[int, Any]:
    return session.info.setdefault("changed_games", {})


def _told_later() -> bool:
    """Whether the changes committed now are told at the end of the request (services.live)."""
    return has_request_context() and "scorekeeper.live" in current_app.extensions


def _after_flush(session: Session, _context: object) -> None:
    """Note the games this flush changed, for this process's streams once it commits. In a
    request, each version is held back from them already (``Hub.hold``): the database may tell
    this process of the commit (NOTIFY) before the request gets to it."""
    from scorekeeper.models import Game

    later = _told_later()
    for item in (*session.dirty, *session.new):
        if isinstance(item, Game) and item.id is not None:
            note_changed(session, item, later)


def note_changed(session: Session, game: Any, later: bool | None = None) -> None:
    """Note ``game`` (as it is now, its new version) as changed by ``session``: told to this
    process's streams once the session commits (a flush notes the games it wrote; a game
    written by a statement of its own, ``results.store``, is noted by its writer)."""
    _changed_games(session)[game.id] = game
    if later if later is not None else _told_later():
        held = session.info.setdefault(HELD, [])
        if (game.id, game.version) not in held:
            HUB.hold(game.id, game.version)
            held.append((game.id, game.version))


#: Where a request keeps the changes it committed, told at its end (``services.live``).
PENDING = "games_changed"
#: And the versions it holds back from this process's streams meanwhile (``Hub.hold``).
HELD = "games_held"


def _after_commit(session: Session) -> None:
    changed = {
        game_id: (game.version, game)
        for game_id, game in session.info.pop("changed_games", {}).items()
    }
    held = session.info.pop(HELD, [])
    if held:
        g.setdefault(HELD, []).extend(held)
    if not changed:
        return
    if _told_later():
        # Told when the request ends, with what its streams send (services.live); the game
        # as committed is held till then (the session holds its objects weakly).
        pending = g.setdefault(PENDING, {})
        for game_id, (version, game) in changed.items():
            if version >= pending.get(game_id, (version,))[0]:
                pending[game_id] = (version, game)
        return
    for game_id, (version, _game) in changed.items():
        HUB.publish(game_id, version)


def pending() -> dict[int, tuple[int, Any]]:
    """The games the request committed changes of, taken: by id, the last version committed
    and the game object as it was committed."""
    return g.pop(PENDING, None) or {}


def release_held(session: Session) -> None:
    """Every version the request held back, told to this process's streams; any flushed and
    neither committed nor rolled back, forgotten."""
    for game_id, version in g.pop(HELD, None) or []:
        HUB.release(game_id, version)
    for game_id, version in session.info.pop(HELD, []):
        HUB.release(game_id, version, committed=False)


def _after_rollback(session: Session) -> None:
    session.info.pop("changed_games", None)
    for game_id, version in session.info.pop(HELD, []):
        HUB.release(game_id, version, committed=False)


def install() -> None:
    """Watch every session's commits (once per process)."""
    if not event.contains(Session, "after_flush", _after_flush):
        event.listen(Session, "after_flush", _after_flush)
        event.listen(Session, "after_commit", _after_commit)
        event.listen(Session, "after_soft_rollback", lambda s, t: _after_rollback(s))
