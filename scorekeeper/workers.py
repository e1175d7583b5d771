"""gunicorn's ``gthread`` worker, with the kept-alive connections shared out evenly between
the workers (``worker_class`` in gunicorn.conf.py).

A kept-alive connection stays with the worker that accepted it, for as long as its client
keeps it open: a proxy's pooled connections (nginx's ``keepalive``), a phone's following of a
game, a busy client's saves. Which worker accepts a connection is chance: each waits on the
same listening socket and the first awake takes it. bench/load.py's 50 clients, all
connecting at once, fell 35/15 and 24/34 between two workers; the worker holding most
connections then had more work than a core while the other idled (the workers' CPU 0.9 of
a core instead of 1.5, half the hands per second on one row).

Here each worker says how many connections it holds and whether it accepts (``Shares``: a
few numbers shared by every worker of one gunicorn, made before the workers are forked). A
worker holding more than ``SLACK`` more than the worker holding fewest steps aside (stops
accepting) while another worker accepts: the others take the next ones. It steps aside only
while another accepts, decided under one lock, so that two workers never both step aside
and leave new connections waiting. A worker that has not said anything for ``STALE`` seconds
(it died or hangs) is left out, so that the others never wait for it.

Connections already held stay where they are until their client sends its next request. A
worker that started after its clients connected (the other one took them all) would
otherwise never get its share: so as a request ends on a worker holding more than an even
share while another accepts, its answer says ``Connection: close`` (the client opens a new
connection for its next request, which the other worker takes), for the excess only. The
share is exact (no ``SLACK``): a few clients, or a proxy's small pool of kept connections,
would otherwise stay on one worker (bench/load.py, 4 clients through the API with a slack
of 2 above the share: all 4 on one worker, the cores idle 46%, 130.6 hands a second;
shared 2/2, 188.4). No request is refused or cut: only the answer's keep-alive is declined, as
gthread itself declines it when too many connections wait.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from multiprocessing.sharedctypes import RawArray
from pathlib import Path

from gunicorn.workers.gthread import ThreadWorker

#: How many connections more than the worker holding fewest a worker may hold and still
#: accept (a little room: the counts are read as they were at each worker's last look).
SLACK = 1
#: Seconds after which a worker's count no longer counts (a worker looks at least every
#: second: gthread's loop waits for its sockets one second at most).
STALE = 5.0
#: Seconds a worker waits for the shares' lock before it gives up stepping aside.
LOCK_WAIT = 0.05


class Shares:
    """The connections each worker of one gunicorn holds, in memory shared by its workers:
    a slot per worker (its pid, its count, when it last said it), claimed as it starts."""

    def __init__(self, slots: int) -> None:
        self._lock = multiprocessing.Lock()
        self._pids = RawArray("q", slots)
        self._counts = RawArray("q", slots)
        self._seen = RawArray("d", slots)
        self._accepting = RawArray("b", slots)

    def claim(self, pid: int) -> int | None:
        """A slot for the worker ``pid``: a free one, or one whose worker went quiet (it died:
        gunicorn starts another in its place). None when every slot is in use."""
        now = time.monotonic()
        with self._lock:
            for index, owner in enumerate(self._pids):
                if owner == 0 or now - self._seen[index] > STALE:
                    self._pids[index] = pid
                    self._counts[index] = 0
                    self._seen[index] = now
                    self._accepting[index] = 0
                    return index
        return None

    def say(self, index: int, count: int) -> None:
        """Worker ``index`` holds ``count`` connections now."""
        self._counts[index] = count
        self._seen[index] = time.monotonic()

    def accepting(self, index: int, accepting: bool) -> None:
        """Worker ``index`` accepts new connections now, or no longer does."""
        self._accepting[index] = accepting

    def _others(self, index: int) -> list[int]:
        now = time.monotonic()
        return [
            other
            for other, pid in enumerate(self._pids)
            if other != index and pid and now - self._seen[other] <= STALE
        ]

    def elsewhere(self, index: int) -> list[int]:
        """The connections each other worker holds (of those heard from lately)."""
        return [self._counts[other] for other in self._others(index)]

    def others_accept(self, index: int) -> bool:
        """Whether another worker accepts new connections now."""
        return any(self._accepting[other] for other in self._others(index))

    def step_aside(self, index: int) -> bool:
        """Worker ``index`` stops accepting if another worker accepts (True), else keeps
        accepting (False): decided under the lock, as the others decide it. A lock not had
        within ``LOCK_WAIT`` (a worker killed while it held it) keeps this one accepting."""
        if not self._lock.acquire(timeout=LOCK_WAIT):
            return False
        try:
            if not self.others_accept(index):
                return False
            self._accepting[index] = 0
            return True
        finally:
            self._lock.release()


#: This gunicorn's shares (``share_out``, in the master before it forks its workers).
SHARES: Shares | None = None


def share_out(workers: int) -> None:
    """Make the shares for ``workers`` workers (and as many again: a worker that replaces a
    dead one claims a slot before the dead one's goes quiet)."""
    global SHARES  # noqa: PLW0603 - made once in the master, inherited by every worker
    SHARES = Shares(2 * workers + 2)


class BalancedThreadWorker(ThreadWorker):
    """gthread, stepping aside while it holds more than ``SLACK`` connections beyond the
    worker holding fewest (gthread's loop accepts while ``nr_conns < worker_connections``,
    looked at on every turn of its loop: here that limit also says this worker's count, and
    is this count when it steps aside)."""

    _slot: int | None = None
    _most: int = 1000
    _most_kept: int = 900
    #: Answers told to close their connection whose closing gthread has not counted yet
    #: (those answers end together, in several threads: without it, every one of them would
    #: close its connection, not only the excess).
    _closing: int = 0
    _closing_lock = threading.Lock()  # one worker per process

    @property
    def worker_connections(self) -> int:
        if SHARES is None or self._slot is None:
            return self._most
        SHARES.say(self._slot, self.nr_conns)
        elsewhere = SHARES.elsewhere(self._slot)
        if not elsewhere or self.nr_conns <= min(elsewhere) + SLACK:
            return self._most
        return self.nr_conns if SHARES.step_aside(self._slot) else self._most

    @worker_connections.setter
    def worker_connections(self, value: int) -> None:  # gthread sets it from the settings
        self._most = value

    @property
    def max_keepalived(self) -> int:
        """How many connections may wait kept alive (looked at as each request is taken
        up: when as many wait, its answer says ``Connection: close``). 0 while this worker
        holds more than its share and another accepts: the client's next request opens a new
        connection, which the other worker takes (a worker that started after the clients
        connected gets its share of them)."""
        with self._closing_lock:
            if self._over_share():
                self._closing += 1
                return 0
        return self._most_kept

    @max_keepalived.setter
    def max_keepalived(self, value: int) -> None:  # gthread sets it from the settings
        self._most_kept = value

    def _over_share(self) -> bool:
        if SHARES is None or self._slot is None or self._accepting:
            return False
        elsewhere = SHARES.elsewhere(self._slot)
        if not elsewhere:
            return False
        share = -(-(self.nr_conns + sum(elsewhere)) // (len(elsewhere) + 1))  # rounded up
        return self.nr_conns - self._closing > share and SHARES.others_accept(self._slot)

    def finish_request(self, conn, fs) -> None:
        """gthread's end of a request (in its loop): a connection closed here is one fewer
        being closed."""
        held = self.nr_conns
        super().finish_request(conn, fs)
        if self.nr_conns < held and self._closing:
            with self._closing_lock:
                self._closing = max(0, self._closing - 1)

    def set_accept_enabled(self, enabled: bool) -> None:
        super().set_accept_enabled(enabled)
        if SHARES is not None and self._slot is not None:
            SHARES.accepting(self._slot, enabled)

    def init_process(self) -> None:
        if SHARES is not None:
            self._slot = SHARES.claim(os.getpid())
        super().init_process()


def held(pids: list[int], port: int) -> dict[int, int]:
    """The established TCP connections to ``port`` each process of ``pids`` holds, read from
    Linux's /proc (bench/load.py reports them; a test checks them)."""
    established = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()  # local address, remote address, state ... inode
            if fields[3] == "01" and int(fields[1].rsplit(":", 1)[1], 16) == port:
                established.add(f"socket:[{fields[9]}]")
    counts = {}
    for pid in pids:
        count = 0
        for descriptor in Path(f"/proc/{pid}/fd").iterdir():
            try:
                count += os.readlink(descriptor) in established
            except OSError:  # closed meanwhile
                continue
        counts[pid] = count
    return counts
