"""Server-sent events: a game's changes pushed to the phones that follow it.

One stream per phone: an event (``id``: the game's version) as soon as the game changes
(``services.events.HUB``), a comment line every ``KEEPALIVE`` seconds so that proxies keep the
connection, and the end after ``LIFETIME`` seconds (the browser's ``EventSource`` reconnects by
itself, with ``Last-Event-ID``: a change made meanwhile is sent at once). A stream holds no
database connection while it waits. Polling with ``ETag``/``304`` keeps working beside it.

A process holds at most ``EVENTS_MAX_STREAMS`` streams (gunicorn.conf.py sets it a little
under the worker's threads): each stream holds a thread, and a worker whose every thread held
one would leave the saves waiting behind them (the kernel may hand one worker far more than
its share of the phones). A stream past it ends at once, asking the browser to come back a
little later (``retry``): it reconnects as after any stream's end, likely to another worker.
"""

from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Callable
from collections.abc import Iterator
from typing import Any

import sqlalchemy as sa
from flask import Response
from flask import current_app
from flask import request
from flask import stream_with_context

from scorekeeper.admission import turn
from scorekeeper.extensions import db
from scorekeeper.models import Game
from scorekeeper.services import games
from scorekeeper.services.events import HUB

KEEPALIVE = 15.0
LIFETIME = 300.0
#: What the browser waits before reconnecting a stream that ended (milliseconds).
RETRY_MS = 1000


class Open:
    """The streams this process holds open."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.count = 0

    def take(self, most: int | None) -> bool:
        """One more stream, unless ``most`` are open (None: no limit)."""
        with self._lock:
            if most is not None and self.count >= most:
                return False
            self.count += 1
            return True

    def give_back(self) -> None:
        with self._lock:
            self.count -= 1


OPEN = Open()


def last_event_id() -> int | None:
    raw = request.headers.get("Last-Event-ID", "")
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 12 else None


#: What an event carries, from the game's version, when its row was created (ids start again
#: in a new database) and a way to read the game when it is needed: the version the data is
#: for, and the data (a dict, or JSON text already written); None once the game is gone.
Data = Callable[[int, Any, Callable[[], Game | None]], tuple[int, dict | str] | None]


def version_only(version: int, _created: Any, _load: Callable) -> tuple[int, dict]:
    """A page's stream: the version; the page asks for itself again (with its ETag)."""
    return version, {"version": version}


def stream(game_id: int, data: Data = version_only) -> Response:
    """The game's events, each carrying what ``data`` says for this reader. The game is read
    when the stream opens; after that, a wake-up reads it only if ``data`` needs it."""
    HUB.start(db.engine)
    seen = last_event_id()
    lifetime = current_app.config.get("EVENTS_LIFETIME", LIFETIME)
    keepalive = current_app.config.get("EVENTS_KEEPALIVE", KEEPALIVE)

    def load() -> Game | None:
        """The whole game (its seats, hands, changes: two queries), for its state."""
        return db.session.get(Game, game_id, options=games.whole_game())

    most = current_app.config.get("EVENTS_MAX_STREAMS")
    # The work of an event runs with no request beside it (scorekeeper/admission.py).
    admission = current_app.extensions.get("scorekeeper.admission")

    def events() -> Iterator[str]:
        if not OPEN.take(most):
            # Every stream this process may hold is open: come back a little later (spread
            # out, so that the phones sent back do not all come back at once).
            yield f"retry: {random.randint(RETRY_MS, 3 * RETRY_MS)}\n\n"
            return
        try:
            yield from following()
        finally:
            OPEN.give_back()

    def following() -> Iterator[str]:
        yield f"retry: {RETRY_MS}\n\n"
        found = db.session.execute(
            sa.select(Game.created_at, Game.version).where(Game.id == game_id)
        ).first()
        db.session.close()
        if found is None:
            return
        created, current = found
        HUB.publish(game_id, current, read=True)
        sent = seen if seen is not None else -1
        end = time.monotonic() + lifetime
        while time.monotonic() < end:
            if current != sent:
                with turn(admission):
                    found = data(current, created, load)
                # No connection held while the event is written out (a slow phone) nor after.
                db.session.close()
                if found is None:
                    return
                version, said = found
                if version < current:  # what was known is ahead of the database: it is not
                    HUB.publish(game_id, version, read=True)
                current = version
                if version != sent:
                    sent = version
                    said = said if isinstance(said, str) else json.dumps(said)
                    yield f"id: {sent}\nevent: game\ndata: {said}\n\n"
            changed = HUB.wait(game_id, sent, min(keepalive, max(0.0, end - time.monotonic())))
            if changed is None:
                yield ": still here\n\n"
            else:
                current = changed

    response = Response(stream_with_context(events()), mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response
