"""Make or drop a throw-away PostgreSQL database for one test run.

``create`` prints the new database's URL, or nothing (exit 0) when no server answers, so that
``make test`` can say PostgreSQL was skipped. ``drop URL`` removes it again, and the databases
the test workers made beside it (``<name>_gw0`` ..., see tests/conftest.py) if any was left.
The server is PG_ADMIN_URL (default: postgres@127.0.0.1:5432, trust auth).
"""

from __future__ import annotations

import os
import sys
import uuid

ADMIN_URL = os.environ.get("PG_ADMIN_URL", "postgresql://postgres@127.0.0.1:5432/postgres")


def connect():
    import psycopg

    return psycopg.connect(ADMIN_URL, autocommit=True, connect_timeout=3)


def create() -> int:
    try:
        connection = connect()
    except Exception as error:  # noqa: BLE001 - any failure means "no PostgreSQL here"
        print(f"(no PostgreSQL: {error.__class__.__name__})", file=sys.stderr)
        return 0
    name = f"scorekeeper_test_{uuid.uuid4().hex[:10]}"
    with connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    base = ADMIN_URL.rsplit("/", 1)[0]
    print(f"{base}/{name}")
    return 0


def drop(url: str) -> int:
    name = url.rsplit("/", 1)[1]
    if not name.startswith("scorekeeper_test_"):
        print(f"refusing to drop {name}: not a test database", file=sys.stderr)
        return 1
    with connect() as connection:
        workers = connection.execute(
            "SELECT datname FROM pg_database WHERE datname LIKE %s", (f"{name}\\_gw%",)
        ).fetchall()
        for (each,) in [(name,), *workers]:
            connection.execute(f'DROP DATABASE IF EXISTS "{each}" WITH (FORCE)')
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["create"]:
        sys.exit(create())
    if sys.argv[1:2] == ["drop"] and len(sys.argv) == 3:
        sys.exit(drop(sys.argv[2]))
    sys.exit("usage: pg_test_db.py create | drop URL")
