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


def stream(game_id: int, data: Callable[[Game], dict[str, Any]]) -> Response:
    """The game's events, each carrying ``data(game)`` (what this reader may see)."""
    HUB.start(db.engine)
    seen = last_event_id()
    lifetime = current_app.config.get("EVENTS_LIFETIME", LIFETIME)
    keepalive = current_app.config.get("EVENTS_KEEPALIVE", KEEPALIVE)

    def events() -> Iterator[str]:
        yield f"retry: {RETRY_MS}\n\n"
        version = seen if seen is not None else -1
        end = time.monotonic() + lifetime
        while time.monotonic() < end:
            game = db.session.get(Game, game_id)
            if game is None:
                return
            if game.version != version:
                version = game.version
                yield f"id: {version}\nevent: game\ndata: {json.dumps(data(game))}\n\n"
            db.session.close()  # no connection held while waiting
            if HUB.wait(game_id, version, min(keepalive, max(0.0, end - time.monotonic()))) is None:
                yield ": still here\n\n"

    response = Response(stream_with_context(events()), mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response
