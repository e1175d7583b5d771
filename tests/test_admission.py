"""The admission of requests under gunicorn's threads (scorekeeper/admission.py): at most
``ACTIVE_REQUESTS`` run the app at once, an event stream is let through, a request waiting
for another gives its slot back, and a slot is held until the answer's body is written."""

from __future__ import annotations

import threading
import time

import pytest

from scorekeeper import create_app
from scorekeeper.admission import Admission
from scorekeeper.admission import Slots
from scorekeeper.admission import idle
from scorekeeper.admission import turn


class Recorder:
    """A WSGI app that counts how many requests run it at once."""

    def __init__(self, hold: float = 0.05) -> None:
        self.hold = hold
        self.running = 0
        self.most = 0
        self.lock = threading.Lock()

    def __call__(self, environ, start_response):
        with self.lock:
            self.running += 1
            self.most = max(self.most, self.running)
        time.sleep(self.hold)
        with self.lock:
            self.running -= 1
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [b"ok"]


def call(app, path: str = "/games/1", method: str = "POST") -> bytes:
    environ = {"REQUEST_METHOD": method, "PATH_INFO": path}
    body = app(environ, lambda status, headers: None)
    try:
        return b"".join(body)
    finally:
        if hasattr(body, "close"):
            body.close()


def in_threads(count: int, target) -> list[threading.Thread]:
    threads = [threading.Thread(target=target) for _ in range(count)]
    for thread in threads:
        thread.start()
    return threads


def test_at_most_the_limit_run_at_once_and_every_request_is_answered():
    inner = Recorder()
    app = Admission(inner, 2)
    answers: list[bytes] = []
    threads = in_threads(8, lambda: answers.append(call(app)))
    for thread in threads:
        thread.join(5)
    assert answers == [b"ok"] * 8
    assert inner.most == 2
    # Every slot was given back: the limit's number can run again at once.
    assert app.slots.acquire(blocking=False) and app.slots.acquire(blocking=False)


def queued(slots: Slots, count: int) -> None:
    """Wait until ``count`` threads wait for a slot."""
    for _ in range(500):
        if len(slots._waiting) == count:
            return
        time.sleep(0.002)
    raise AssertionError(f"{len(slots._waiting)} threads wait, not {count}")


def test_slots_go_first_come_first_served_and_a_newcomer_never_overtakes():
    slots = Slots(1)
    slots.acquire()
    order: list[str] = []

    def waiter(name: str) -> None:
        slots.acquire()
        order.append(name)
        slots.release()

    threads = []
    for number, name in enumerate(["first", "second", "third"], start=1):
        threads.append(threading.Thread(target=waiter, args=(name,)))
        threads[-1].start()
        queued(slots, number)
    # The holder gives its slot back and at once asks again, as a new request would: a plain
    # semaphore lets it take the slot back before the first waiter wakes.
    slots.release()
    slots.acquire()
    order.append("newcomer")
    slots.release()
    for thread in threads:
        thread.join(2)
    assert order == ["first", "second", "third", "newcomer"]
    assert slots.acquire(blocking=False) and not slots.acquire(blocking=False)
    slots.release()
    with pytest.raises(ValueError):
        slots.release()


def test_an_event_stream_is_let_through_while_every_slot_is_taken():
    app = Admission(Recorder(hold=0), 1)
    app.slots.acquire()  # a long request holds the only slot
    try:
        done = threading.Event()
        stream = threading.Thread(
            target=lambda: (call(app, "/api/v1/games/1/events", "GET"), done.set())
        )
        stream.start()
        assert done.wait(2), "the stream waited for a slot"
        # A save, on the other hand, waits.
        saved = threading.Event()
        save = threading.Thread(target=lambda: (call(app), saved.set()))
        save.start()
        assert not saved.wait(0.2)
    finally:
        app.slots.release()
    assert saved.wait(2)


def test_a_request_waiting_for_another_gives_its_slot_back():
    """As a second request with one idempotency key waits for the first one's answer."""
    answered = threading.Event()

    def inner(environ, start_response):
        if environ["PATH_INFO"] == "/second":
            deadline = time.monotonic() + 3
            while not answered.is_set() and time.monotonic() < deadline:
                idle(0.01)
            body = b"replayed" if answered.is_set() else b"gave up"
        else:
            answered.set()
            body = b"first"
        start_response("200 OK", [])
        return [body]

    app = Admission(inner, 1)
    results: dict[str, bytes] = {}
    second = threading.Thread(target=lambda: results.update(second=call(app, "/second")))
    second.start()
    time.sleep(0.05)  # the second has the only slot and waits
    results["first"] = call(app, "/first")
    second.join(5)
    assert results == {"first": b"first", "second": b"replayed"}


def test_a_slot_is_held_until_the_body_is_written():
    def inner(environ, start_response):
        start_response("200 OK", [])
        return iter([b"a", b"b"])

    app = Admission(inner, 1)
    body = app({"REQUEST_METHOD": "GET", "PATH_INFO": "/backup"}, lambda *a: None)
    assert not app.slots.acquire(blocking=False)
    assert b"".join(body) == b"ab"
    body.close()
    body.close()  # closed twice (a server may): the slot is given back once
    assert app.slots.acquire(blocking=False)
    assert not app.slots.acquire(blocking=False)


def test_a_failing_request_gives_its_slot_back():
    def inner(environ, start_response):
        raise RuntimeError("broken")

    app = Admission(inner, 1)
    for _ in range(2):
        with pytest.raises(RuntimeError):
            call(app)
    assert app.slots.acquire(blocking=False)


def test_the_setting_wraps_the_app_and_is_off_by_default(tmp_path):
    plain = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path}/a.db"})
    assert not isinstance(plain.wsgi_app, Admission)
    limited = create_app(
        {"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path}/b.db", "ACTIVE_REQUESTS": 1}
    )
    assert isinstance(limited.wsgi_app, Admission)
    assert limited.test_client().get("/login").status_code == 200


def test_a_turn_waits_for_every_slot_unless_its_thread_holds_one_already():
    def inner(environ, start_response):
        with turn(app):  # a request's own work: no more slots asked for (no deadlock)
            start_response("200 OK", [("Content-Type", "text/plain")])
            return [b"ok"]

    app = Admission(inner, 2)
    assert call(app) == b"ok"
    app.slots.acquire()  # a save holds one of the two slots
    worked = threading.Event()
    let_go = threading.Event()

    def stream_work():
        with turn(app):
            worked.set()
            let_go.wait(5)

    thread = threading.Thread(target=stream_work)
    thread.start()
    assert not worked.wait(0.3), "the stream's work ran beside the save"
    app.slots.release()
    assert worked.wait(2)
    # Meanwhile no request runs: every slot is the stream's.
    assert not app.slots.acquire(blocking=False)
    let_go.set()
    thread.join(2)
    assert app.slots.acquire(blocking=False) and app.slots.acquire(blocking=False)
    with turn(None):  # no admission (the development server): nothing to wait for
        pass


def test_a_streams_event_is_worked_out_in_a_slot_of_its_process(make_app, tmp_path):
    """Under gunicorn a stream is let in without a slot, but the work of its event (reading
    the game, deriving what it sends) waits for every slot: not beside a save."""
    from tests.conftest import make_account
    from tests.conftest import new_token
    from tests.test_seats import read_events

    plain = make_app()  # the game made without admission, on the same database
    make_account(plain)
    token = new_token(plain.test_client())
    made = plain.test_client().post(
        "/api/v1/games",
        json={"game": "oh_hell", "players": ["Ann", "Ben", "Cy"]},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert made.status_code == 201, made.text
    game = made.get_json()["id"]
    app = make_app(ACTIVE_REQUESTS=2)
    client = app.test_client()
    slots = app.extensions["scorekeeper.admission"].slots
    slots.acquire()  # a save runs
    events: list[dict] = []
    arrived = threading.Event()

    def follow():
        response = client.get(
            f"/api/v1/games/{game}/events",
            headers={"Authorization": f"Bearer {token}"},
            buffered=False,
        )
        events.extend(read_events(response, 1))
        arrived.set()
        response.close()

    thread = threading.Thread(target=follow, daemon=True)
    thread.start()
    try:
        assert not arrived.wait(0.5), "the event was worked out beside the save"
    finally:
        slots.release()
    assert arrived.wait(5)
    assert events[0]["data"]["version"] >= 1
    thread.join(5)
    assert slots.acquire(blocking=False)
    slots.release()


@pytest.mark.parametrize(
    ("database", "active"),
    [(None, "1"), ("postgresql://postgres@127.0.0.1:5432/test", "2")],
)
def test_gunicorn_lets_two_requests_run_at_once_on_postgresql_and_one_on_sqlite(
    tmp_path, database, active
):
    """While a request waits for PostgreSQL's answer another may run; SQLite has no wait."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    env = {key: value for key, value in os.environ.items() if key != "ACTIVE_REQUESTS"}
    env.pop("DATABASE_URL", None)
    env["INSTANCE_PATH"] = str(tmp_path)
    if database:
        env["DATABASE_URL"] = database
    said = subprocess.run(
        [sys.executable, "-c", "import os, runpy; runpy.run_path('gunicorn.conf.py');"
         "print(os.environ['ACTIVE_REQUESTS'])"],
        cwd=root, env=env, capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert said.stdout.strip() == active


@pytest.mark.parametrize(
    ("database", "checkpoints"),
    [(None, True), ("postgresql://postgres@127.0.0.1:5432/test", False)],
)
def test_a_worker_makes_its_patterns_and_templates_and_checkpoints_sqlite(
    tmp_path, database, checkpoints
):
    """gunicorn's worker start makes every text field's pattern (a pass over every code point,
    about a second): a process's first new game or player waited for it (1,074 ms against
    5 ms for the next, measured through the API). It compiles every template, the games' own
    too (the first game page of a worker took 245 ms). On SQLite it also starts the thread
    that checkpoints the log (scorekeeper/sqlite_writer.py). Last, it leaves what it holds
    out of the collector's way (``gc.freeze``)."""
    import json
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    env = {key: value for key, value in os.environ.items() if key != "DATABASE_URL"}
    env["INSTANCE_PATH"] = str(tmp_path)
    if database:
        env["DATABASE_URL"] = database
    probe = (
        "import gc, json, runpy, threading\n"
        "hooks = runpy.run_path('gunicorn.conf.py')\n"
        "from scorekeeper import sqlite_writer\n"
        "from scorekeeper.api import schemas\n"
        "from scorekeeper.games import text\n"
        "from scorekeeper import create_app\n"
        "app = create_app({'SECRET_KEY': 'x', 'SQLALCHEMY_DATABASE_URI': 'sqlite://'})\n"
        "worker = type('Worker', (), {'wsgi': app})()\n"
        "before = text._classes.cache_info().currsize\n"
        "hooks['post_worker_init'](worker)\n"
        "frozen = gc.get_freeze_count()\n"
        "listed = app.jinja_env.list_templates(filter_func=lambda name: name.endswith('.html'))\n"
        "compiled_pages = {each.name for each in app.jinja_env.cache.values()}\n"
        "pages = [len(listed), sorted(set(listed) - compiled_pages),\n"
        "         [name for name in listed if name.startswith('games/oh_hell/')]]\n"
        "made = text._classes.cache_info()\n"
        "patterns = {each.pattern() for each in schemas.TEXTS.values()}\n"
        "compiled = schemas._compiled.cache_info().currsize\n"
        "name = next(each for each in schemas.TEXTS.values() if each.title == 'Name')\n"
        "name.check('Ann')\n"
        "after = (text._classes.cache_info().misses, schemas._compiled.cache_info().misses)\n"
        "threads = sorted(thread.name for thread in threading.enumerate())\n"
        "print(json.dumps([before, made.currsize, made.misses, len(patterns), compiled, *after,\n"
        "                  sqlite_writer.autocheckpoint(), threads, pages, frozen]))\n"
    )
    said = subprocess.run(
        [sys.executable, "-c", probe], cwd=root, env=env, capture_output=True, text=True, check=True
    )
    found = json.loads(said.stdout.strip().splitlines()[-1])
    before, made, misses, patterns, compiled, misses_after, compiled_misses = found[:7]
    pages, threads, (templates, not_compiled, oh_hell), frozen = found[7:]
    assert (before, made, misses) == (0, 1, 1)
    assert patterns >= 3 and compiled == patterns
    # A name checked afterwards makes nothing again.
    assert misses_after == 1 and compiled_misses == patterns
    assert ("sqlite-checkpoint" in threads) is checkpoints
    assert pages == (1000 * 10 if checkpoints else 1000)
    # Every template compiled, the games' own among them (found by their plug-in's name).
    assert templates > 50 and not_compiled == []
    assert {"games/oh_hell/show.html", "games/oh_hell/_sheet.html"} <= set(oh_hell)
    # Then what the worker holds is left out of the collector's full collections: the app,
    # its modules and its templates, well over 100,000 objects.
    assert frozen > 100_000
