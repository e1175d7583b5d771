"""gunicorn's workers share out the kept-alive connections (scorekeeper/workers.py): a worker
holding more than its share steps aside while another accepts, and tells the excess of its
clients to close their connection, so that their next requests land on the others."""

from __future__ import annotations

import http.client
import os
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest

from scorekeeper import workers
from scorekeeper.workers import SLACK
from scorekeeper.workers import BalancedThreadWorker
from scorekeeper.workers import Shares
from tests.live import Gunicorn


def test_a_worker_steps_aside_only_while_another_accepts():
    shares = Shares(4)
    first, second = shares.claim(101), shares.claim(102)
    assert (first, second) == (0, 1)
    shares.say(first, 9)
    shares.say(second, 1)
    assert shares.elsewhere(first) == [1]
    assert shares.elsewhere(second) == [9]
    # The other one is not accepting yet (it is still starting): this one keeps accepting.
    assert shares.step_aside(first) is False
    shares.accepting(first, True)
    shares.accepting(second, True)
    assert shares.step_aside(first) is True
    # Both over a share at once: only one may step aside, never both.
    assert shares.step_aside(second) is False


def test_a_lock_left_held_by_a_killed_worker_keeps_the_others_accepting():
    shares = Shares(2)
    first, second = shares.claim(101), shares.claim(102)
    shares.accepting(first, True)
    shares.accepting(second, True)
    shares._lock.acquire()  # as a worker killed while it held it leaves it
    assert shares.step_aside(first) is False
    assert list(shares._accepting) == [1, 1]


def test_a_quiet_worker_is_left_out_and_its_slot_taken_again(monkeypatch):
    clock = [1000.0]
    monkeypatch.setattr(workers.time, "monotonic", lambda: clock[0])
    shares = Shares(2)
    first, second = shares.claim(101), shares.claim(102)
    assert shares.claim(103) is None  # every slot in use
    shares.say(second, 40)
    shares.accepting(second, True)
    clock[0] += workers.STALE + 1
    shares.say(first, 3)
    assert shares.elsewhere(first) == []  # the second went quiet (it died, or hangs)
    assert shares.step_aside(first) is False
    assert shares.claim(104) == second  # the worker started in its place


def _worker(shares: Shares, slot: int, connections: int, accepting: bool):
    worker = BalancedThreadWorker.__new__(BalancedThreadWorker)  # gunicorn's settings unused
    worker.worker_connections = 1000
    worker.max_keepalived = 900
    worker._slot = slot
    worker.nr_conns = connections
    worker._accepting = accepting
    shares.accepting(slot, accepting)
    shares.say(slot, connections)
    return worker


def test_a_worker_over_its_share_steps_aside_while_the_other_accepts(monkeypatch):
    shares = Shares(4)
    monkeypatch.setattr(workers, "SHARES", shares)
    crowded = _worker(shares, shares.claim(101), 9, accepting=True)
    _worker(shares, shares.claim(102), 2, accepting=True)
    # 9 against 2: more than SLACK over the other, which accepts: its limit is its count.
    assert crowded.worker_connections == 9
    # Within SLACK of the other: it accepts up to gthread's own limit.
    crowded.nr_conns = 2 + SLACK
    assert crowded.worker_connections == 1000


@pytest.mark.parametrize(("held", "share"), [(50, 25), (4, 2), (3, 2)])
def test_the_excess_over_a_share_is_told_to_close_and_no_more(monkeypatch, held, share):
    """Answers ending on a worker holding every connection while the other accepts: the
    excess over its even share close their connections, the others stay kept alive. A few
    clients (a proxy's small pool) are shared out too: 4 end up 2 and 2, not all on one."""
    shares = Shares(4)
    monkeypatch.setattr(workers, "SHARES", shares)
    crowded = _worker(shares, shares.claim(101), held, accepting=False)
    _worker(shares, shares.claim(102), 0, accepting=True)
    kept = [crowded.max_keepalived for _ in range(40)]
    assert kept == [0] * (held - share) + [900] * (40 - (held - share))


def test_nothing_is_closed_while_no_other_worker_accepts(monkeypatch):
    shares = Shares(4)
    monkeypatch.setattr(workers, "SHARES", shares)
    alone = _worker(shares, shares.claim(101), 50, accepting=False)
    _worker(shares, shares.claim(102), 0, accepting=False)  # still starting
    assert alone.max_keepalived == 900
    assert alone.worker_connections == 1000


@pytest.mark.drill
@pytest.mark.once
@pytest.mark.skipif(not Path("/proc/net/tcp").exists(), reason="reads Linux's /proc")
def test_under_gunicorn_kept_alive_connections_end_up_shared_out(app, tmp_path):
    """Forty clients connected while the second worker was not there (stopped, until it went
    quiet: as a worker still starting, or one started later): their next requests spread
    them over both workers, and every request is answered. Stock gthread keeps them 40/0."""
    # Kept alive longer than the test's pauses (by default 2 s: they would end by themselves).
    uri = app.config["SQLALCHEMY_DATABASE_URI"]
    with Gunicorn(uri, tmp_path, GUNICORN_KEEPALIVE="60") as server:
        pids = [int(pid) for pid in subprocess.run(
            ["pgrep", "-P", str(server.process.pid)], capture_output=True, text=True, check=True
        ).stdout.split()]  # fmt: skip
        assert len(pids) == 2
        time.sleep(3)  # both workers loaded and running their loops
        os.kill(pids[1], signal.SIGSTOP)
        try:
            time.sleep(workers.STALE + 1)  # the second one went quiet: left out
            connections = [http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
                           for _ in range(40)]  # fmt: skip
            for connection in connections:
                connection.request("GET", "/api/v1/players")
                assert connection.getresponse().read()
            assert workers.held(pids, server.port) == {pids[0]: 40, pids[1]: 0}
        finally:
            os.kill(pids[1], signal.SIGCONT)
        time.sleep(2)  # the second worker says again that it is there, and accepts
        statuses: dict[int, list[int]] = {}

        def again(connection):
            # Three requests, and more (at most ten in all) while the last answer closed the
            # connection (a worker over its share asks some to reconnect): each client ends
            # connected, as a phone that goes on saving would be.
            answered = statuses.setdefault(id(connection), [])
            for sent in range(10):
                connection.request("GET", "/api/v1/players")
                answer = connection.getresponse()
                answer.read()
                answered.append(answer.status)
                if sent >= 2 and not answer.will_close:
                    break

        threads = [threading.Thread(target=again, args=(c,)) for c in connections]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        held = workers.held(pids, server.port)
        for connection in connections:
            connection.close()
        assert len(statuses) == 40, statuses  # every client, each at least 3 times, all answered
        for answered in statuses.values():
            assert len(answered) >= 3 and answered == [401] * len(answered), answered
        assert sum(held.values()) == 40, held
        assert min(held.values()) >= 40 // 2 - SLACK - 2, held
