"""Settings: defaults here, then ``instance/config.py``, then the environment."""

from __future__ import annotations

import os
import secrets
import tempfile
from pathlib import Path

#: Settings that may be given as environment variables, with how to read them.
ENVIRONMENT_SETTINGS = {
    "SECRET_KEY": str,
    "DATABASE_URL": str,
    "SIGNUP_ENABLED": "bool",
    "SESSION_COOKIE_SECURE": "bool",
    "PROXY_FIX": "bool",
    "LOGIN_MAX_FAILURES": int,
    "LOGIN_LOCK_MINUTES": int,
    "LOGIN_ADDRESS_LIMIT": str,
    "REDIS_URL": str,
    "PUBLIC_URL": str,
    "TRUSTED_HOSTS": "list",
    "PYODIDE_DIR": str,
    "ACTIVE_REQUESTS": int,
    "EVENTS_MAX_STREAMS": int,
    "RESTORE_PROCESSES": int,
}


class Defaults:
    """What a new install runs with; every value can be overridden."""

    SIGNUP_ENABLED = True
    # Flask-Login keeps a phone logged in for this many days ("remember me").
    REMEMBER_COOKIE_DAYS = 90
    REMEMBER_COOKIE_HTTPONLY = True
    REMEMBER_COOKIE_SAMESITE = "Lax"
    SESSION_COOKIE_HTTPONLY = True
    SESSION_COOKIE_SAMESITE = "Lax"
    # False means: Secure is added whenever the request itself came over https.
    SESSION_COOKIE_SECURE = False
    # Trust one proxy's X-Forwarded-* headers (set when running behind nginx or similar).
    PROXY_FIX = False
    #: Requests of one process that run the app at once (0: no limit). gunicorn.conf.py sets
    #: it for its threads; the development server and the tests let every request in.
    ACTIVE_REQUESTS = 0
    #: The address the phones open (``https://scores.example.org``): the absolute links the
    #: app writes (a share link, its QR code) are built on it, never on the request's Host
    #: header. Unset: the request's own address (a server at home, opened by its IP).
    PUBLIC_URL = None
    #: Where Pyodide's runtime is (installed from the npm registry by ``make``; served by the
    #: app at ``/offline/pyodide/``): the phone runs the rules with it for offline play.
    PYODIDE_DIR = str(Path(__file__).resolve().parent.parent / "tools/pyodide/node_modules/pyodide")
    #: The host names the app answers to (Flask's own check: any other Host is a 400).
    TRUSTED_HOSTS = None
    #: The live event streams one process holds open at most (None: no limit); a stream past
    #: it ends at once and the browser comes back later. gunicorn.conf.py sets it a little
    #: under the worker's threads, since each stream holds one (views/events.py).
    EVENTS_MAX_STREAMS = None
    #: The processes that check a large restore's games (``services/backup/checking.py``;
    #: None: one per core this process may use, 1: in the worker itself).
    RESTORE_PROCESSES = None
    # Login attempts per username (or, from a known device, per device): this many in this
    # many minutes, then the username waits (a known device does not wait for strangers).
    LOGIN_MAX_FAILURES = 5
    LOGIN_LOCK_MINUTES = 10
    # Login attempts (page and API token) per client address (IPv6: per /64), any username.
    # Flask-Limiter notation: "20 per 10 minutes", "100/hour".
    LOGIN_ADDRESS_LIMIT = "20 per 10 minutes"
    # A browser that logged in is a known device for its username for this long.
    KNOWN_DEVICE_DAYS = 365
    # Where the counters live: Redis when set (redis://host:6379/0), else the app's database
    # (shared by every worker); see scorekeeper/throttle.py. RATELIMIT_STORAGE_URI, when set
    # in instance/config.py, names another Flask-Limiter storage. RATELIMIT_ENABLED = False
    # switches every login limit off (nothing counted: for a load test, never in production).
    REDIS_URL = None
    RATELIMIT_KEY_PREFIX = "scorekeeper"
    PASSWORD_HASH_METHOD = "scrypt"
    WTF_CSRF_TIME_LIMIT = None  # a form left open at the card table must still submit
    SQLALCHEMY_ENGINE_OPTIONS = {"pool_pre_ping": True}
    SEND_FILE_MAX_AGE_DEFAULT = 365 * 24 * 3600  # static URLs carry a content hash
    GAMES_PER_PAGE = 20
    # Answers are compressed (brotli, else gzip) when the client says it reads them.
    COMPRESS_ALGORITHM = ["br", "gzip"]
    # Brotli 5 for pages: 8 % smaller than the default 4, at a fraction of a millisecond more.
    # (Static files are compressed once, at the best level: views/static_files.py.)
    COMPRESS_BR_LEVEL = 5
    COMPRESS_ALGORITHM_STREAMING = ["br", "gzip"]  # static files are streamed
    COMPRESS_MIN_SIZE = 400
    COMPRESS_MIMETYPES = [
        "text/html",
        "text/css",
        "text/csv",
        "text/javascript",
        "application/javascript",
        "application/json",
        "application/manifest+json",
        "image/svg+xml",
    ]
    MAX_CONTENT_LENGTH = 2 * 1024 * 1024  # any request but a restore
    RESTORE_MAX_CONTENT_LENGTH = 16 * 1024 * 1024  # a whole account's backup


def cores() -> int:
    """The cores this process may run on (a container's or taskset's share, not the host's)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not Linux
        return os.cpu_count() or 1


def env_overrides(environ: os._Environ | dict) -> dict:
    """The settings given in the environment, converted to their types."""
    found = {}
    for key, kind in ENVIRONMENT_SETTINGS.items():
        if key not in environ:
            continue
        raw = environ[key]
        if kind == "bool":
            found[key] = raw.strip().lower() in {"1", "true", "yes", "on"}
        elif kind == "list":
            found[key] = [part.strip() for part in raw.split(",") if part.strip()]
        else:
            found[key] = kind(raw)
    return found


def load(instance_path: str) -> dict:
    """The settings as ``create_app`` reads them (defaults, ``instance/config.py``, the
    environment), for what runs without the app: ``gunicorn.conf.py``."""
    from flask import Config

    config = Config(instance_path)
    config.from_object(Defaults)
    config.from_pyfile("config.py", silent=True)
    config.update(env_overrides(os.environ))
    return config


def database_uri(url: str | None, instance_path: str) -> str:
    """The SQLAlchemy URI: PostgreSQL through psycopg 3 when given, else SQLite in instance/."""
    if not url:
        return "sqlite:///" + str(Path(instance_path) / "scorekeeper.db")
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def instance_secret_key(instance_path: str) -> str:
    """The key kept in instance/secret_key, made on first start (never a fixed key).

    Several workers may start at once: the key is written to a private temporary file and
    linked into place, so every worker reads the same, complete key.
    """
    path = Path(instance_path) / "secret_key"
    if not path.exists():
        fd, temporary = tempfile.mkstemp(dir=instance_path, prefix=".secret_key.")
        try:
            os.write(fd, secrets.token_urlsafe(48).encode())
            os.close(fd)
            os.link(temporary, path)  # fails if another worker got there first: theirs wins
        except FileExistsError:
            pass
        finally:
            os.unlink(temporary)
    return path.read_text().strip()
