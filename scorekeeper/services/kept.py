"""What a worker keeps of the games it read or saved last, so that a save costs the same at
hand 400 as at hand 4 (issue 22).

For each game: the rules' tally after the record's last entry and a copy of the tally before
that entry (``GameRules.fold``), each side's statistics summed over the scored hands of each
(``results.Derived.sums``), and what the API answers of each hand (``hand_json``). Appending a
hand folds it onto the kept tally (``GameRules.fold_on``); completing or correcting the last
hand folds it onto the tally before it; undoing it goes back to that tally. Anything else (a
correction of an earlier hand, a change of the table, a table corrected) replays the record.

A snapshot is used only for the game exactly as it was kept: the same row (id and creation
time), the same ``version`` (it goes up with every change of the game, by any worker), the
same players in the seats (a roster rename changes no game row) and the same options. Any
other game replays its whole record and is kept again. Nothing kept is ever changed: a save
folds onto a copy, so two requests of one worker may read one snapshot at once.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from dataclasses import field
from dataclasses import replace
from typing import Any

from scorekeeper.games import Setup
from scorekeeper.games.base import Hand
from scorekeeper.games.base import Tally
from scorekeeper.models import Game
from scorekeeper.models import as_utc

#: How many games a worker keeps (the least recently used goes first): the tables playing
#: at once, with room to spare; a 400-round game kept (its API JSON included) takes about
#: 2 MB, a game of 20 hands about a twentieth of that.
LIMIT = 256


@dataclass(frozen=True)
class Snapshot:
    key: tuple
    options: dict[str, Any]
    #: The rules' tally after every entry of the record, and the one before its last entry
    #: (None: the record is empty, or that tally was not kept).
    tally: Tally
    before: Tally | None = None
    #: Each seat's statistics summed over the scored hands of ``tally`` and of ``before``
    #: (``results.Derived.sums``; None until a save derived them).
    sums: list[dict[str, int]] | None = None
    before_sums: list[dict[str, int]] | None = None
    #: What the API says of each hand, by hand number: the hand it was written for (the same
    #: object while it is in the tally), its model and its JSON (``games.state_answer``).
    hand_json: dict[int, tuple[Hand, Any, str]] = field(default_factory=dict)

    @property
    def last_is_hand(self) -> bool:
        """Whether the record's last entry is a hand (not a change of the table)."""
        return self.before is not None and len(self.before.hands) == len(self.tally.hands) - 1


_KEPT: OrderedDict[int, Snapshot] = OrderedDict()
_LOCK = threading.Lock()


def key_of(game: Game, setup: Setup) -> tuple:
    return (
        game.id,
        None if game.created_at is None else as_utc(game.created_at),
        game.version,
        tuple(game.members),
        tuple(setup.players),
        setup.first_dealer,
        game.hand_count,
    )


#: Where a loaded game holds the snapshot that matched it: the request goes on with that one
#: (consistent with the row it read) even if another request of the worker keeps a newer one
#: meanwhile; a save from a stale row then meets the version check (409), as it always did.
HELD = "_kept_snapshot"


def get(game: Game, setup: Setup) -> Snapshot | None:
    """The snapshot of ``game`` as it is loaded now, or None."""
    if game.id is None:
        return None
    key = key_of(game, setup)
    held = game.__dict__.get(HELD)
    if held is not None and held.key == key and held.options == dict(setup.options):
        return held
    with _LOCK:
        snapshot = _KEPT.get(game.id)
        if snapshot is not None:
            _KEPT.move_to_end(game.id)
    if snapshot is None or snapshot.key != key or snapshot.options != dict(setup.options):
        return None
    setattr(game, HELD, snapshot)
    return snapshot


def put(game: Game, setup: Setup, tally: Tally, **kept: Any) -> Snapshot | None:
    """Keep ``game`` as it is now (after its commit): ``tally`` is its record folded."""
    if game.id is None:
        return None
    return _keep(game, Snapshot(key_of(game, setup), dict(setup.options), tally, **kept))


def carry(game: Game, setup: Setup) -> Snapshot | None:
    """Keep what ``game`` was read with under its key as it is now, after a change committed
    that left its record as it was (a seat claimed, a value of the hand being entered, the
    seat link): its version went up, its tally did not change. None: nothing was held."""
    held = game.__dict__.get(HELD)
    if held is None:
        return None
    return _keep(game, replace(held, key=key_of(game, setup)))


def _keep(game: Game, snapshot: Snapshot) -> Snapshot:
    setattr(game, HELD, snapshot)
    with _LOCK:
        _KEPT[game.id] = snapshot
        _KEPT.move_to_end(game.id)
        while len(_KEPT) > LIMIT:
            _KEPT.popitem(last=False)
    return snapshot


def forget(game_id: int | None = None) -> None:
    """Drop what is kept of one game (None: of every game)."""
    with _LOCK:
        if game_id is None:
            _KEPT.clear()
        else:
            _KEPT.pop(game_id, None)
