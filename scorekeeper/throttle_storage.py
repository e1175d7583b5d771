"""Rate-limit counters in the app's own database: a ``limits`` storage (``scorekeeper+db://``).

Flask-Limiter keeps its counters in a ``limits`` storage. Its in-memory storage is one per
process: with gunicorn's workers each would count on its own (four workers, four times the
limit) and a restart would forget every count. Without Redis (``REDIS_URL``), the counters live
here instead, in the ``login_throttle`` table of the database every worker and host already
shares (the SQLite file of one machine, or PostgreSQL).

Counting is one atomic statement, so concurrent attempts can never read the same count::

    INSERT INTO login_throttle (key, hits, expires_at) VALUES (:key, :n, :now + :expiry)
    ON CONFLICT (key) DO UPDATE SET
        hits = CASE WHEN expires_at <= :now THEN :n ELSE hits + :n END,
        expires_at = CASE WHEN expires_at <= :now THEN :now + :expiry ELSE expires_at END
    RETURNING hits

(SQLite 3.35+ and PostgreSQL both have it). Each call runs on a connection of its own and
commits at once: a count stands even when the request that made it is rolled back, and no
request holds the row while it checks a password.
"""

from __future__ import annotations

import random
import time

import sqlalchemy as sa
from limits.storage import Storage
from sqlalchemy.dialects import postgresql
from sqlalchemy.dialects import sqlite

from scorekeeper.extensions import db
from scorekeeper.models import LoginThrottle

#: How often (per increment) expired counters are swept away.
SWEEP_CHANCE = 0.02


class DatabaseStorage(Storage):
    """Fixed-window counters in the ``login_throttle`` table of the current app's database."""

    STORAGE_SCHEME = ["scorekeeper+db"]

    def __init__(self, uri: str | None = None, wrap_exceptions: bool = False, **options) -> None:
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)
        self.table = LoginThrottle.__table__

    @property
    def base_exceptions(self) -> type[Exception]:
        return sa.exc.SQLAlchemyError

    def _insert(self, dialect: str):
        if dialect == "postgresql":
            return postgresql.insert(self.table)
        if dialect == "sqlite":
            return sqlite.insert(self.table)
        raise NotImplementedError(f"no atomic upsert for {dialect}: set REDIS_URL")

    def incr(self, key: str, expiry: float, amount: int = 1) -> int:
        now = time.time()
        table = self.table
        engine = db.engine
        insert = self._insert(engine.dialect.name).values(
            key=key, hits=amount, expires_at=now + expiry
        )
        expired = table.c.expires_at <= now
        statement = insert.on_conflict_do_update(
            index_elements=[table.c.key],
            set_={
                "hits": sa.case(
                    (expired, insert.excluded.hits),
                    else_=table.c.hits + insert.excluded.hits,
                ),
                "expires_at": sa.case(
                    (expired, insert.excluded.expires_at), else_=table.c.expires_at
                ),
            },
        ).returning(table.c.hits)
        with engine.begin() as connection:
            count = connection.execute(statement).scalar_one()
        if random.random() < SWEEP_CHANCE:
            self.sweep(now)
        return count

    def sweep(self, now: float | None = None) -> int:
        """Delete the counters whose window has ended."""
        now = time.time() if now is None else now
        with db.engine.begin() as connection:
            return connection.execute(
                self.table.delete().where(self.table.c.expires_at <= now)
            ).rowcount

    def get(self, key: str) -> int:
        with db.engine.connect() as connection:
            count = connection.execute(
                sa.select(self.table.c.hits).where(
                    self.table.c.key == key, self.table.c.expires_at > time.time()
                )
            ).scalar()
        return count or 0

    def get_expiry(self, key: str) -> float:
        with db.engine.connect() as connection:
            expires = connection.execute(
                sa.select(self.table.c.expires_at).where(self.table.c.key == key)
            ).scalar()
        now = time.time()
        return expires if expires is not None and expires > now else now

    def check(self) -> bool:
        try:
            with db.engine.connect() as connection:
                connection.execute(sa.select(1))
        except sa.exc.SQLAlchemyError:
            return False
        return True

    def reset(self) -> int | None:
        with db.engine.begin() as connection:
            return connection.execute(self.table.delete()).rowcount

    def clear(self, key: str) -> None:
        with db.engine.begin() as connection:
            connection.execute(self.table.delete().where(self.table.c.key == key))
