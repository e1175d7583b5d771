"""gunicorn's settings: ``gunicorn app:app`` reads this file from the working directory.

``GUNICORN_BIND`` (default 127.0.0.1:8000), ``WEB_CONCURRENCY`` (workers: by default one per
core this process may use, at least 2), ``GUNICORN_THREADS`` (threads per worker, default
100), ``ACTIVE_REQUESTS`` (of those, how many run a request at once, default 1 on SQLite and
2 on PostgreSQL) and
``GUNICORN_KEEPALIVE`` (seconds an idle kept-alive connection waits, default 2) change where
and how it serves. A request is CPU-bound (rendering, the rules), so more
workers than cores only queue behind each other (measured: 8 workers on 2 cores served fewer
hands per second than 2); at least 2 keep one free while the other runs a long request (a
restore).

The worker is ``gthread``: every phone that follows a game holds a server-sent events stream
open (views/events.py), and a stream waits in a thread of its own, costing no CPU until its
game changes. A kept-alive connection stays with the worker that accepted it, so the workers
share them out (scorekeeper/workers.py): a worker holding more than its share steps aside while
another accepts, and asks the excess of its clients to reconnect. Threads, not gevent or an
ASGI server: the app, SQLAlchemy and psycopg stay plain blocking code (no monkey-patching), and
a waiting stream holds no database connection. 100 threads per worker hold 174 phones on the
default two workers (87 each, the rest kept for the other requests: ``EVENTS_MAX_STREAMS``);
raise GUNICORN_THREADS for more (bench/live_events.py runs 400 streams on 2 workers with 256:
224 each at most).

Which client addresses may set ``X-Forwarded-*`` is set here explicitly, never left to
gunicorn's default (which trusts 127.0.0.1 whatever the app thinks):

- ``PROXY_FIX`` off (no proxy): nobody. A client's own ``X-Forwarded-Proto`` is ignored, and
  the app (without ProxyFix) ignores ``X-Forwarded-For``: the login limits count the real peer.
- ``PROXY_FIX=1`` (behind nginx or similar): the proxy only, on this machine by default;
  ``FORWARDED_ALLOW_IPS`` names it when it runs elsewhere (``10.0.0.5``, or a network).
"""

from __future__ import annotations

import os
from pathlib import Path

from scorekeeper import config as settings

_instance = os.environ.get("INSTANCE_PATH", str(Path(__file__).resolve().parent / "instance"))
_settings = settings.load(_instance)
_proxy_fix = bool(_settings["PROXY_FIX"])
_postgres = settings.database_uri(_settings.get("DATABASE_URL"), _instance).startswith("postgresql")


bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("WEB_CONCURRENCY") or max(2, settings.cores()))
threads = int(os.environ.get("GUNICORN_THREADS") or 100)
# gthread, with the kept-alive connections shared out evenly between the workers
# (scorekeeper/workers.py).
worker_class = "scorekeeper.workers.BalancedThreadWorker"
# Of a worker's threads, this many run a request at once; the others wait their turn (event
# streams apart: they wait without CPU). A request is CPU-bound: see scorekeeper/admission.py.
# On PostgreSQL two: while one waits for the database's answer (its server runs on a core of
# its own), the other runs. bench/load.py, 50 clients through the API (load 1.8-3.2): 158
# hands/s with one, 226 with two; on SQLite (no wait: the database is in the process) two
# only lengthened the tail (p95 318 -> 603 ms).
os.environ.setdefault("ACTIVE_REQUESTS", "2" if _postgres else "1")
# Each open event stream holds a thread, and the kernel may hand one worker far more than its
# share of the phones: the app keeps an eighth of the threads (at least 4) for the other
# requests, so that a save never waits behind the streams (a stream past it ends at once and
# the browser comes back later, likely to another worker).
os.environ.setdefault("EVENTS_MAX_STREAMS", str(max(1, threads - max(4, threads // 8))))
# How long a thread keeps the interpreter before another may take it (Python's default: 5 ms,
# GUNICORN_SWITCH_INTERVAL in seconds). A save gives it up at each of its queries and waits for
# it again while a stream's thread works out an event: with 400 streams on 2 workers
# (bench/live_events.py, SQLite) the saves' p95 was 1.26x its figure with no stream open at
# 1 ms (load 2.6), 5.79x at 5 ms (load 7.3, the machine shared).
switch_interval = float(os.environ.get("GUNICORN_SWITCH_INTERVAL") or 0.001)
# Behind a proxy that keeps connections to gunicorn open (nginx: ``keepalive`` in the upstream
# block), this must be longer than the proxy's own idle timeout for them, else gunicorn may
# close a connection the proxy is reusing (a 502). The sync worker closes every connection
# after its answer, so this counts only with threads (gthread).
keepalive = int(os.environ.get("GUNICORN_KEEPALIVE") or 2)
forwarded_allow_ips = (
    (os.environ.get("FORWARDED_ALLOW_IPS") or "127.0.0.1,::1") if _proxy_fix else ""
)
# The longest request line gunicorn reads (its default, said here): the app itself answers an
# address longer than scorekeeper.web.URL_MAX (2048) with 414 in its error format; only a
# request line beyond this limit gets gunicorn's own 414, an HTML page (the OpenAPI document
# describes both: scorekeeper.api.spec.EVERY).
limit_request_line = 4094


def on_starting(server) -> None:
    """The master, before it starts its workers: the memory where each says how many
    connections it holds (scorekeeper/workers.py)."""
    from scorekeeper import workers as balanced

    balanced.share_out(server.cfg.workers)


def post_worker_init(worker) -> None:
    """Each worker, before it takes requests: the thread switch interval above, the text
    fields' patterns made and the app's templates compiled (about a second each, which its
    first request with a name, and the first page of each kind, waited for), and on SQLite,
    the log checkpointed by a thread of its own, not by the commit of a save holding the turn
    to write (scorekeeper/sqlite_writer.py); then what it holds is left out of the
    collector's full collections."""
    import gc
    import sys

    from scorekeeper import sqlite_writer
    from scorekeeper.api import schemas
    from scorekeeper.views import game_assets

    sys.setswitchinterval(switch_interval)
    schemas.compile_texts()
    app = getattr(worker, "wsgi", None)  # the app gunicorn loaded (app:app)
    if hasattr(app, "jinja_env"):
        game_assets.compile_templates(app)
    if not _postgres:
        sqlite_writer.checkpoint_in_background()
    # Last: what the worker holds now (the app, its modules, the templates just compiled)
    # stays, and is left out of Python's collector (``gc.freeze``, after a collection): a
    # full collection went through all of it, 172,000 objects, for about 0.1 s of a request
    # every thousand or so (measured on a game page's saves: 101 ms, and 3 ms with it).
    gc.collect()
    gc.freeze()
