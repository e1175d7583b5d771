"""A streamed restore's games checked a batch at a time, in this process or in several
(``Checker``): the rules' replay of every hand is most of a large restore's time, and each
game is checked on its own, so the cores of the machine can share it.

A batch is checked as the one-at-a-time check does (``Batch``: each game's text, then its
content, its rows made), without wording any problem: the batch says which games passed.
The restore then goes through the batches in the document's order (``verified``): a game's
id must not repeat an earlier one's, and the first game a batch did not pass is checked again
in the restore's own process, which words its problem in the reader's language exactly as
the one-at-a-time check would. Only batches whose every game passed are kept, as the pickled
rows their checker made (never unpacked until they are written). Once every game is checked,
a checker also rates the finished ones (``Checker.rate``) while the restore writes the rows.
"""

from __future__ import annotations

import copy
import gc
import json
import multiprocessing
import pickle
from collections import deque
from collections.abc import Iterator
from concurrent.futures import Future
from concurrent.futures import ProcessPoolExecutor
from itertools import chain
from typing import Any
from typing import NamedTuple

from scorekeeper.errors import Refusal
from scorekeeper.services import ratings
from scorekeeper.services.backup import check
from scorekeeper.services.backup.check import Damaged
from scorekeeper.services.backup.check import Plan
from scorekeeper.services.backup.restore import damaged
from scorekeeper.web import JSON_MAX_DEPTH

#: A game of the list of games is at depth 2: the list given to ``check_text`` stands for it.
GAME_DEPTH = JSON_MAX_DEPTH - 1


class Disagreed(RuntimeError):
    """A game (its place in the document) passed in one check and not in the other: a bug,
    never a refusal (the restore fails, nothing of it kept)."""


class Outcome(NamedTuple):
    """What a checker found of a batch: each game's text passed or not, the ids of the games
    whose content passed (from the first, up to the first that did not), and, when every game
    passed, the batch's rows pickled as ``(keys, games)`` (``keys``: the names of the hand
    results' key numbers) and its finished games as the ratings read them, pickled (None: one
    has no end time, the ratings are worked out from the database)."""

    text_ok: list[bool]
    ids: list[int]
    rows: bytes | None
    finished: bytes | None = None


class Batch:
    """Games checked one at a time as they come (from game ``start`` of the document on),
    against ``plan``'s head, the checker's own (it keeps the options and result keys met).
    Once a game does not pass, the ones after it have only their text checked, as the
    restore does once it has found a problem; ``content`` false: only their text. With
    ``rated``, its finished games are kept as the ratings read them (``Checker.rate``)."""

    def __init__(self, plan: Plan | None, start: int, content: bool, rated: bool) -> None:
        self.plan, self.start = plan, start
        self.content = content and plan is not None
        self.text_ok: list[bool] = []
        self.ids: list[int] = []
        self.planned: list[dict] = []
        self.finished: list[ratings.Finished] | None = [] if rated else None

    def add(self, item: Any, text: str) -> None:
        """Check the next game (its value and its text)."""
        index = self.start + len(self.text_ok)
        try:
            check.check_text([item], text, GAME_DEPTH)
        except Refusal:
            self.text_ok.append(False)
            self.content = False
        else:
            self.text_ok.append(True)
        if not self.content:
            return
        try:
            game = check.plan_game(self.plan, index, item, {"games": {index: item}})
        except Damaged:
            self.content = False
        else:
            self.ids.append(game.pop("id"))
            self.planned.append(game)
            self._rated(index, game)

    def _rated(self, index: int, game: dict) -> None:
        row = game["row"]
        if row["status"] != "finished" or self.finished is None:
            return
        if row["finished_at"] is None:
            self.finished = None
            return
        self.finished.append(
            ratings.Finished(
                row["finished_at"], index, row["kind"], row["variant"], row["standing"],
                game["seats"],
            )
        )  # fmt: skip

    def outcome(self) -> Outcome:
        if not self.content:
            return Outcome(self.text_ok, self.ids, None)
        rows = pickle.dumps((list(self.plan.keys), self.planned), pickle.HIGHEST_PROTOCOL)
        finished = None
        if self.finished is not None:
            finished = pickle.dumps(self.finished, pickle.HIGHEST_PROTOCOL)
        return Outcome(self.text_ok, self.ids, rows, finished)


_plan: Plan | None = None


def _started(plan: Plan) -> None:
    """A checking process starts: the head it checks against. Its collector leaves alone
    what was there before (the modules), and runs less often: the rules' replay makes
    millions of short-lived objects, freed as they go (no cycles), and a collection of
    everything at each few thousand of them took about a sixth of the check's time."""
    global _plan
    _plan = plan
    gc.freeze()
    gc.set_threshold(100_000, 50, 1000)


def _check_texts(start: int, texts: list[str]) -> Outcome:
    """A batch checked in a checking process, from the games' texts (each decoded, checked
    and dropped in turn)."""
    batch = Batch(_plan, start, True, rated=True)
    for text in texts:
        batch.add(json.loads(text), text)
    return batch.outcome()


def _history(finished: list[bytes]) -> list[ratings.Steps]:
    """``ratings.history`` in a checking process, of the batches' pickled finished games."""
    return ratings.history(chain.from_iterable(pickle.loads(batch) for batch in finished))


class Checker:
    """Games checked a batch at a time in ``processes`` processes (1: in this one, each game
    as it is given), the batches' outcomes gone through in order by ``verified``."""

    def __init__(self, plan: Plan | None, processes: int = 1) -> None:
        self.pool: ProcessPoolExecutor | None = None
        if plan is not None and processes > 1:
            # Fresh interpreters (as quick to start as a fork server's, which would stay
            # behind): a fork of a worker whose other threads serve requests may inherit a
            # lock one of them held.
            context = multiprocessing.get_context("spawn")
            self.pool = ProcessPoolExecutor(
                processes,
                mp_context=context,
                initializer=_started,
                initargs=(copy.deepcopy(plan),),
            )
        self.own = copy.deepcopy(plan)  # this process's checker
        #: Batches kept in work: one per process and one more (none here: each is checked as
        #: it comes).
        self.limit = processes + 1 if self.pool is not None else 0
        self.waiting: deque[tuple[int, list[str], Future | Outcome]] = deque()
        #: How many games were given so far; the first of the batch being given.
        self.index = self.start = 0
        self.texts: list[str] = []
        self.batch: Batch | None = None

    def __enter__(self) -> Checker:
        return self

    def __exit__(self, *_exc: object) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)

    def add(self, item: Any, text: str, content: bool) -> None:
        """The next game, its value and its text; ``content`` (read at the first game of a
        batch) false: check only the texts of this batch (a problem was found already)."""
        if not self.texts:
            self.start = self.index
            if self.pool is None or not content:
                # Checked here: no checking process to rate them (``rate``).
                self.batch = Batch(self.own, self.start, content, rated=False)
        self.texts.append(text)
        self.index += 1
        if self.batch is not None:
            self.batch.add(item, text)

    def send(self) -> None:
        """End the batch: its outcome, or its check under way in a checking process."""
        if not self.texts:
            return
        if self.batch is not None:
            outcome: Future | Outcome = self.batch.outcome()
        else:
            assert self.pool is not None
            outcome = self.pool.submit(_check_texts, self.start, self.texts)
        self.waiting.append((self.start, self.texts, outcome))
        self.texts, self.batch = [], None

    def rate(self, finished: list[bytes] | None) -> Future | None:
        """The ratings' steps of the finished games (the outcomes' ``finished``) worked out
        in a checking process (``ratings.history``) while this one writes the rows; None
        where there is no such process, or a game without an end time (then
        ``ratings.rebuild`` reads them back)."""
        if self.pool is None or finished is None:
            return None
        return self.pool.submit(_history, finished)

    def outcomes(self, every: bool) -> Iterator[tuple[int, list[str], Outcome]]:
        """The batches checked, in the order sent: all of them (``every``), or those beyond
        the few kept in work."""
        while self.waiting and (every or len(self.waiting) > self.limit):
            start, texts, outcome = self.waiting.popleft()
            if isinstance(outcome, Future):
                outcome = outcome.result()
            yield start, texts, outcome


def verified(
    found: Any, plan: Plan | None, start: int, texts: list[str], outcome: Outcome
) -> bytes | None:
    """Go through a checked batch in order as the restore's own check would: note the first
    problem of a game's text (``found.text``) and of its content (``found.content``), each
    worded by checking that game again here; the batch's pickled rows when every game
    passed and no problem was found before."""
    for offset, text in enumerate(texts):
        if not outcome.text_ok[offset] and found.text is None:
            found.check_text([json.loads(text)], text, GAME_DEPTH)
            if found.text is None:
                raise Disagreed(start + offset)
        if plan is None or found.any is not None:
            continue
        if offset < len(outcome.ids) and outcome.ids[offset] not in plan.game_ids:
            plan.game_ids.add(outcome.ids[offset])
            continue
        index = start + offset
        value = json.loads(text)
        try:
            check.plan_game(plan, index, value, {"games": {index: value}})
        except Damaged as damage:
            found.content = damaged(damage)
        else:
            raise Disagreed(index)
    if plan is None or found.any is not None:
        return None
    return outcome.rows
