"""What a game's event streams send (views/events.py, views/api_seats.py), worked out once per
process and game version (``services.events.Shared``), and handed over by the request that
made the change.

A change wakes every phone of the table at once: in each process the first stream to ask
reads the game and derives its state (``derived``), the others wait for its answer. In the
process that made the change the request already holds the game as it committed it, and the
rules' tally of it (``services.kept``): at the end of that request its changes are told to
the streams only after the state they will send is derived from the game it holds
(``offer``), so that its streams read nothing (measured with 400 streams open, reading the
game again was two thirds of a stream's work).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from flask import Flask

from scorekeeper.api import schemas as s
from scorekeeper.extensions import db
from scorekeeper.models import Game
from scorekeeper.models import as_utc
from scorekeeper.services import events
from scorekeeper.services import games
from scorekeeper.services import seats

log = logging.getLogger(__name__)

#: The state and draft of recent game versions, read and derived once per process for every
#: stream of the game (a change wakes each phone of the table at once).
STATES = events.Shared(kept=256, at_once=2)
#: Each event's text, by game version and what its reader may see.
PAYLOADS = events.Shared(kept=2048, at_once=8)

#: What a stream sends of a game version: the version as read, when the game was created (ids
#: start again in a new database), its state (JSON text) and its draft.
Derived = tuple[int, Any, str, seats.Draft | None]


def key(game_id: int, version: int, created: Any) -> tuple:
    """What a game version's state is kept under: its id, its version and when it was created
    (as read, or as written by the request that created it: the same instant)."""
    return game_id, version, as_utc(created)


def derive(game: Game) -> Derived:
    """What the streams send of ``game`` as loaded."""
    played = games.played(game)
    state = games.state_answer(played).model_dump_json()
    return game.version, game.created_at, state, seats.draft_of(played)


def derived(load: Callable[[], Game | None]) -> Derived | None:
    """``derive`` of the game ``load`` reads (None: the game is gone)."""
    game = load()
    return None if game is None else derive(game)


def event_text(version: int, state: str, draft: seats.Draft | None, reader: str | None) -> str:
    """An event's data: the version, the state and the draft as ``reader`` may see it."""
    answer = "null" if draft is None else s.Draft(**draft.answer(reader)).model_dump_json()
    return f'{{"version": {version}, "state": {state}, "draft": {answer}}}'


def offer(game: Game, version: int) -> bool:
    """Keep what the streams of this process will send of ``version`` of ``game``, derived
    from the game as this request committed it, when a stream here follows the game and the
    game is unchanged since (otherwise the streams read it themselves)."""
    if not events.HUB.watching(game.id) or game.version != version:
        return False
    session = db.session()
    if game in session.dirty or game not in session:
        return False
    found = derive(game)
    STATES.put(key(game.id, version, found[1]), found)
    return True


def _tell(error: BaseException | None) -> None:
    """At the end of a request: the changes it committed, told to this process's streams once
    what they send is kept, when it may be (the changes are told whatever happens)."""
    try:
        for game_id, (version, game) in events.pending().items():
            if error is None:
                try:
                    offer(game, version)
                except Exception:  # noqa: BLE001 - the streams read the game themselves
                    log.warning("deriving game %s for its streams failed", game_id, exc_info=True)
    finally:
        events.release_held(db.session())


def install(app: Flask) -> None:
    """Tell the changes a request commits at its end (``_tell``)."""
    events.install()
    app.extensions["scorekeeper.live"] = True
    app.teardown_request(_tell)
