"""Server-sent events: a game's changes pushed to the phones that follow it.

One stream per phone: an event (``id``: the game's version) as soon as the game changes
(``services.events.HUB``), a comment line every ``KEEPALIVE`` seconds so that proxies keep the
connection, and the end after ``LIFETIME`` seconds (the browser's ``EventSource`` reconnects by
itself, with ``Last-Event-ID``: a change made meanwhile is sent at once). A stream holds no
database connection while it waits. Polling with ``ETag``/``304`` keeps working beside it.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from collections.abc import Iterator
from typing import Any

from flask import Response
from flask import current_app
from flask import request
from flask import stream_with_context

from scorekeeper.extensions import db
from scorekeeper.models import Game
from scorekeeper.services.events import HUB

KEEPALIVE = 15.0
LIFETIME = 300.0
#: What the browser waits before reconnecting a stream that ended (milliseconds).
RETRY_MS = 1000


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
        return db.session.get(Game, game_id)

    def events() -> Iterator[str]:
        yield f"retry: {RETRY_MS}\n\n"
        game = load()
        if game is None:
            return
        created, current = game.created_at, game.version
        db.session.close()
        HUB.publish(game_id, current, read=True)
        sent = seen if seen is not None else -1
        end = time.monotonic() + lifetime
        while time.monotonic() < end:
            if current != sent:
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
