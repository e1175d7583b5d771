"""Idempotency keys (API.md, "Idempotency keys"): a write sent with an ``Idempotency-Key`` is
carried out once; the same key with the same request gets the first answer again, the same
key with another request is refused (422 ``idempotency_mismatch``).

One row of ``idempotency_key`` per account and key. Before the write, the request claims the
key: ``INSERT ... ON CONFLICT DO NOTHING`` in a transaction of its own, so that of two
requests with one key only one inserts (the unique constraint decides, on SQLite and
PostgreSQL alike) and carries the write out; once it is answered, its answer (status, the
headers that matter, body) is written into the row (``finish``). The other request finds the
row: answered, it replays the answer; still claimed, it waits for the answer (a few
milliseconds, the time of one save). An answer that says "try again" (a 5xx, a 409 conflict,
a 429) is not kept: the claim is given up (``release``) and the key can be sent again.

Expired rows (``LIFETIME`` after their claim) are deleted by the next claim, by any account:
one indexed ``DELETE`` beside the ``INSERT``, no scheduler. A claim left unanswered by a
worker that died is taken over after ``STALE`` seconds.

A keyed write costs three statements more than the same write without a key: the expired
rows' ``DELETE`` and the claim's ``INSERT`` (one transaction), the answer's ``UPDATE``.
"""

from __future__ import annotations

import functools
import hashlib
import time
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql
from sqlalchemy.dialects import sqlite

from scorekeeper import admission
from scorekeeper.errors import Refusal
from scorekeeper.extensions import db
from scorekeeper.games.i18n import _
from scorekeeper.models import IdempotencyKey

#: How long an answer is kept, in seconds (API.md: at least 24 hours).
LIFETIME = 24 * 3600
#: A claim unanswered for this long was left by a request that died (gunicorn ends a worker
#: after 30 s): another request with the key takes it over.
STALE = 60.0
#: How long a request waits for the answer of another with the same key, and how often it
#: looks.
WAIT = 10.0
POLL = 0.02

TABLE = IdempotencyKey.__table__
#: The time now, in seconds since the epoch (a test moves it on).
clock = time.time


@dataclass(frozen=True)
class Claim:
    """The key is this request's: its answer is to be kept (``finish``) or given up."""

    id: int


@dataclass(frozen=True)
class Answer:
    """The first answer to a request: what a repeat gets again."""

    status: int
    headers: list[tuple[str, str]]
    flashes: list[tuple[str, str]]
    body: bytes


def fingerprint(method: str, path: str, body: bytes) -> str:
    """What makes two requests the same one (the key aside): method, path and body."""
    return hashlib.sha256(b"%s %s\n%s" % (method.encode(), path.encode(), body)).hexdigest()


def _insert(dialect: str):
    return (postgresql if dialect == "postgresql" else sqlite).insert(TABLE)


# The statements of every keyed write, built once per process with their values as
# parameters (building them on each request cost more than running them).


@functools.cache
def _expired() -> sa.Delete:
    return TABLE.delete().where(TABLE.c.expires_at <= sa.bindparam("now", type_=sa.Float))


@functools.cache
def _claim(dialect: str) -> sa.Insert:
    return (
        _insert(dialect)
        .values(
            account_id=sa.bindparam("p_account"),
            key=sa.bindparam("p_key"),
            fingerprint=sa.bindparam("p_print"),
            claimed_at=sa.bindparam("p_claimed"),
            expires_at=sa.bindparam("p_expires"),
        )
        .on_conflict_do_nothing(index_elements=[TABLE.c.account_id, TABLE.c.key])
        .returning(TABLE.c.id)
    )


@functools.cache
def _answered() -> sa.Update:
    return (
        TABLE.update()
        .where(TABLE.c.id == sa.bindparam("p_id"))
        .values(
            status=sa.bindparam("p_status"),
            kept=sa.bindparam("p_kept", type_=TABLE.c.kept.type),
            body=sa.bindparam("p_body", type_=TABLE.c.body.type),
        )
    )


def claim(account_id: int, key: str, print_: str) -> Claim | Answer:
    """The key for this request (a ``Claim``), or the answer it already had (``Answer``).

    Refused: the key came with another request (422 ``idempotency_mismatch``), or the
    request that has it is still being answered after ``WAIT`` seconds (409 ``conflict``,
    Retry-After 1)."""
    engine = db.engine
    now = clock()
    deadline = now + WAIT
    with engine.begin() as connection:
        connection.execute(_expired(), {"now": now})
        claimed = _try(connection, account_id, key, print_, now)
    while claimed is None:
        with engine.connect() as connection:
            found = connection.execute(
                sa.select(TABLE).where(TABLE.c.account_id == account_id, TABLE.c.key == key)
            ).first()
        now = clock()
        if found is not None and found.fingerprint != print_:
            raise Refusal(
                "idempotency_mismatch",
                _(
                    "This Idempotency-Key came before with another request, which was "
                    "answered: nothing was changed. Send a new key with a new request."
                ),
                "Idempotency-Key",
            )
        if found is not None and found.status is not None:
            kept = found.kept or {}
            return Answer(
                found.status,
                [tuple(pair) for pair in kept.get("headers", [])],
                [tuple(pair) for pair in kept.get("flashes", [])],
                found.body or b"",
            )
        with engine.begin() as connection:
            if found is None:  # given up or expired in between: claim it now
                claimed = _try(connection, account_id, key, print_, now)
            elif found.claimed_at < now - STALE:  # its request died: take it over
                taken = connection.execute(
                    TABLE.update()
                    .where(TABLE.c.id == found.id, TABLE.c.claimed_at == found.claimed_at)
                    .values(claimed_at=now)
                )
                claimed = Claim(found.id) if taken.rowcount == 1 else None
        if claimed is None:
            if now > deadline:
                refusal = Refusal(
                    "conflict",
                    _(
                        "The first request with this Idempotency-Key is still being "
                        "answered: send it again in a moment."
                    ),
                )
                refusal.retry_after = 1
                raise refusal
            admission.idle(POLL)
    return claimed


def _try(connection, account_id: int, key: str, print_: str, now: float) -> Claim | None:
    """Insert the claim, unless the key is there already (then None)."""
    found = connection.execute(
        _claim(connection.dialect.name),
        {
            "p_account": account_id,
            "p_key": key,
            "p_print": print_,
            "p_claimed": now,
            "p_expires": now + LIFETIME,
        },
    ).scalar()
    return None if found is None else Claim(found)


def finish(claimed: Claim, answer: Answer) -> None:
    """Keep the answer of the request that claimed the key."""
    kept = {"headers": [list(pair) for pair in answer.headers]}
    if answer.flashes:
        kept["flashes"] = [list(pair) for pair in answer.flashes]
    with db.engine.begin() as connection:
        connection.execute(
            _answered(),
            {"p_id": claimed.id, "p_status": answer.status, "p_kept": kept, "p_body": answer.body},
        )


def release(claimed: Claim) -> None:
    """Give the key up: its request was not answered for good (the key may come again)."""
    with db.engine.begin() as connection:
        connection.execute(TABLE.delete().where(TABLE.c.id == claimed.id))
