"""At most a few requests of one worker process run the app at once (``ACTIVE_REQUESTS``).

gunicorn's ``gthread`` worker gives every connection a thread (a phone following a game holds
one open for its event stream, gunicorn.conf.py). A request is CPU-bound and the interpreter
runs one thread at a time, so fifty saves let in together only take turns in 5 ms slices:
each of them then takes fifty times longer, and a save holding SQLite's write lock keeps it
that much longer while the others wait for it, past SQLite's busy timeout (a 409). Measured
with bench/load.py (50 clients, 2 workers, 100 threads each): 147 hands/s at p99 2.3 s with
every request let in, against the sync worker's 290 hands/s at p99 213 ms. Letting in a few
at a time gives back the sync worker's throughput and keeps the threads for the streams.

An event stream (``GET .../events``) is let through: it waits for its game without CPU. When
its game changes, the work of its event (reading the game, deriving what it sends) takes every
slot of its process (``turn``): run beside a save, that work took the interpreter from it at each of
its queries (bench/live_events.py, PostgreSQL, 400 streams: the saves' p95 was 2.02x its figure
with no stream open). A
request that waits for another (``idle``: a second request with the same idempotency key
waits for the first one's answer) gives its slot back meanwhile, so that the one it waits for
can run in the same process.

The slots are handed out in the order they were asked for (``Slots``): a request that arrives
while the slots are taken waits behind those already waiting, never overtakes them. With a
plain semaphore a newcomer took a slot freed before the first waiter woke, and that waiter
queued again at the back: bench/load.py (50 clients, SQLite, the API) saw p50 65 ms but p99
447 ms, some saves overtaken again and again.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections import deque
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Iterator
from typing import Any

from werkzeug.wsgi import ClosingIterator

#: The slots of the admission the current thread's request holds one of (if any).
_held = threading.local()


def idle(seconds: float) -> None:
    """Sleep, with this thread's slot given back meanwhile (taken again before returning)."""
    slots = getattr(_held, "slots", None)
    if slots is None:
        time.sleep(seconds)
        return
    slots.release()
    try:
        time.sleep(seconds)
    finally:
        slots.acquire()


def _is_stream(environ: dict[str, Any]) -> bool:
    return environ.get("REQUEST_METHOD") == "GET" and environ.get("PATH_INFO", "").endswith(
        "/events"
    )


@contextlib.contextmanager
def turn(admission: Admission | None) -> Iterator[None]:
    """Every slot of ``admission`` held meanwhile: no request of the process runs beside
    (nothing to hold: None, or this thread's request holds a slot)."""
    if admission is None or getattr(_held, "slots", None) is not None:
        yield
        return
    with admission.alone:  # one such turn at a time: two never hold a part of the slots each
        for _ in range(admission.limit):
            admission.slots.acquire()
    _held.slots = admission.slots
    try:
        yield
    finally:
        _held.slots = None
        for _ in range(admission.limit):
            admission.slots.release()


class Slots:
    """``limit`` slots, handed out first come, first served: ``acquire`` takes a free slot or
    waits behind every thread already waiting; ``release`` hands its slot straight to the
    first of them (so a thread arriving meanwhile cannot take it), or frees it."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._free = limit
        self._lock = threading.Lock()
        self._waiting: deque[threading.Lock] = deque()

    def acquire(self, blocking: bool = True) -> bool:
        """Take a slot (True); with ``blocking`` false, only a free one (else False)."""
        with self._lock:
            if self._free:
                self._free -= 1
                return True
            if not blocking:
                return False
            handed = threading.Lock()
            handed.acquire()
            self._waiting.append(handed)
        handed.acquire()  # released by the release() that hands this thread its slot
        return True

    def release(self) -> None:
        with self._lock:
            if self._waiting:
                self._waiting.popleft().release()
            elif self._free < self.limit:
                self._free += 1
            else:
                raise ValueError("a slot released that was not taken")


class Admission:
    """WSGI middleware: ``limit`` requests at a time run the app, the others wait their turn
    (a slot is held until the answer's body is written, then given to the next)."""

    def __init__(self, wsgi_app: Callable, limit: int) -> None:
        self.wsgi_app = wsgi_app
        self.limit = limit
        self.slots = Slots(limit)
        #: Held while a ``turn`` takes every slot.
        self.alone = threading.Lock()

    def __call__(self, environ: dict[str, Any], start_response: Callable) -> Iterable[bytes]:
        if _is_stream(environ):
            return self.wsgi_app(environ, start_response)
        self.slots.acquire()
        _held.slots = self.slots
        released = threading.Event()

        def release() -> None:
            if not released.is_set():
                released.set()
                _held.slots = None
                self.slots.release()

        try:
            body = self.wsgi_app(environ, start_response)
        except BaseException:
            release()
            raise
        return ClosingIterator(body, release)
