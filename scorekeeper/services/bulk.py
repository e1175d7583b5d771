"""Rows inserted in bulk straight to the driver, inside the session's transaction: for the
many rows of a restore (and a rebuild of ratings), where SQLAlchemy's own executemany spends
more time than the database. PostgreSQL: COPY; SQLite: multi-row INSERTs."""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable
from datetime import date
from datetime import datetime
from itertools import chain
from operator import itemgetter

import sqlalchemy as sa
from sqlalchemy.dialects.sqlite import DATETIME as SQLITE_DATETIME
from sqlalchemy.dialects.sqlite import dialect as sqlite_dialect

from scorekeeper.extensions import db

_dumps = functools.partial(json.dumps, ensure_ascii=False, separators=(",", ":"))


def insert(table: sa.Table, rows: list[dict], as_text: Iterable[str] = ()) -> None:
    """Insert rows in bulk (no ids wanted), straight to the driver inside the session's
    transaction: SQLAlchemy's own executemany spends more time than the database on a
    hundred thousand rows. PostgreSQL: COPY (JSON columns sent as JSON text); SQLite: the
    values go through their columns' bind processors (JSON, dates) to multi-row INSERTs.
    The columns named in ``as_text`` hold JSON already written as text (no processor)."""
    if not rows:
        return
    connection = db.session.connection()
    names = list(rows[0])
    dialect = connection.dialect
    as_text = set(as_text)
    if dialect.name == "postgresql":
        quote = dialect.identifier_preparer.quote
        as_json = [
            isinstance(table.c[name].type, sa.JSON) and name not in as_text for name in names
        ]
        statement = f"COPY {table.name} ({', '.join(quote(name) for name in names)}) FROM STDIN"
        steps = list(zip(names, as_json, strict=True))
        driver = connection.connection.driver_connection
        with driver.cursor() as cursor, cursor.copy(statement) as copy:
            for row in rows:
                copy.write_row(
                    tuple(_dumps(row[name]) if is_json else row[name] for name, is_json in steps)
                )
        return
    if dialect.paramstyle != "qmark":
        connection.execute(
            sa.insert(table),
            [{**row, **{name: json.loads(row[name]) for name in as_text}} for row in rows],
        )
        return
    # Column by column, at C speed but for the processors themselves (a row at a time, a
    # generator over its values took half of a restore's writing of its hands).
    columns = []
    for name in names:
        column = map(itemgetter(name), rows)
        if name not in as_text:
            column = _processed(table.c[name].type, dialect, column)
        columns.append(column)
    insert_sqlite(table.name, names, zip(*columns, strict=True))


def _processed(kind: sa.types.TypeEngine, dialect: sa.Dialect, values: Iterable) -> Iterable:
    """A column's values through the type's bind processor for ``dialect``; SQLite's moments
    in its usual storage format by ``stored_moment``, quicker for the same text."""
    impl = kind.dialect_impl(dialect)
    if isinstance(impl, SQLITE_DATETIME) and impl._storage_format == _STORED_MOMENT:
        return map(stored_moment, values)
    processor = impl.bind_processor(dialect)
    return values if processor is None else map(processor, values)


_STORED_MOMENT = SQLITE_DATETIME._storage_format


def stored_moment(value: datetime | date | None) -> str | None:
    """A moment as SQLAlchemy stores it in SQLite ("2026-12-07 20:15:03.000000": the fields
    as given, any time zone left out), or None: its format given a tuple, not a dict
    (SQLAlchemy's processor took 2.4 µs a moment, half a second of a 10,000-game restore's
    236,000 hands' two moments; this one takes a third of that)."""
    if value is None:
        return None
    if isinstance(value, datetime):
        return _MOMENT % (
            value.year, value.month, value.day,
            value.hour, value.minute, value.second, value.microsecond,
        )  # fmt: skip
    if isinstance(value, date):
        return _MOMENT % (value.year, value.month, value.day, 0, 0, 0, 0)
    return _theirs(value)  # refused as SQLAlchemy refuses it (a TypeError)


_MOMENT = "%04d-%02d-%02d %02d:%02d:%02d.%06d"
_theirs = SQLITE_DATETIME().bind_processor(sqlite_dialect())


#: The most values one SQLite statement is given (SQLite before 3.32 allows 999).
MAX_VALUES = 990


def insert_sqlite(table: str, names: list[str], rows: Iterable[Iterable]) -> None:
    """Rows inserted on SQLite by multi-row INSERTs of many rows each: about twice as fast as
    one executemany of single rows (each statement step costs more than a row's values)."""
    flat = list(chain.from_iterable(rows))
    if not flat:
        return
    connection = db.session.connection()
    quote = connection.dialect.identifier_preparer.quote
    driver = connection.connection.driver_connection
    width = len(names)
    per = MAX_VALUES // width
    head = f"INSERT INTO {table} ({', '.join(quote(name) for name in names)}) VALUES "
    one = "(" + ", ".join(["?"] * width) + ")"
    step = per * width
    whole = len(flat) // step * step
    if whole:
        driver.executemany(
            head + ", ".join([one] * per), (flat[at : at + step] for at in range(0, whole, step))
        )
    if whole < len(flat):
        driver.execute(head + ", ".join([one] * ((len(flat) - whole) // width)), flat[whole:])


def insert_values(head: str, width: int, rows: list[tuple], tail: str = "") -> None:
    """A save's few rows in one multi-row statement ``head VALUES (...), (...) tail`` (a
    chunk per MAX_VALUES values), sent as it is to the driver through the session's
    connection (its events see it): SQLAlchemy's executemany works out every row's
    parameters again, more time than the database takes for a hand's forty rows. On
    PostgreSQL the rows go as one array per column (``INSERT ... SELECT * FROM unnest(...)``,
    the same statement for any number of rows). What the session holds is flushed first, as
    its own statements would."""
    if not rows:
        return
    db.session.flush()
    connection = db.session.connection()
    if connection.dialect.name == "postgresql":
        columns = list(zip(*rows, strict=True))
        kinds = [_array_of(column) for column in columns]
        if all(kinds):
            # One statement whose text is the same whatever the number of rows: the driver
            # converts it once and prepares it after a few saves, and the server plans it
            # once (a VALUES list of each save's own length was converted, parsed and
            # planned again every time: above 50 values the driver keeps no copy).
            arrays = ", ".join(f"%s::{kind}" for kind in kinds)
            connection.exec_driver_sql(
                f"{head} SELECT * FROM unnest({arrays}){tail}", tuple(map(list, columns))
            )
            return
    mark = "?" if connection.dialect.paramstyle == "qmark" else "%s"
    one = "(" + ", ".join([mark] * width) + ")"
    per = MAX_VALUES // width
    for start in range(0, len(rows), per):
        chunk = rows[start : start + per]
        connection.exec_driver_sql(
            f"{head} VALUES {', '.join([one] * len(chunk))}{tail}",
            tuple(chain.from_iterable(chunk)),
        )


def _array_of(column: tuple) -> str | None:
    """The PostgreSQL array type a column of values is sent as (whole numbers, texts), or
    None for anything else (sent as a VALUES list)."""
    if all(type(value) is int for value in column):
        return "bigint[]"
    if all(type(value) is str for value in column):
        return "text[]"
    return None
