"""``services.bulk``: rows inserted straight to the driver (multi-row INSERTs on SQLite, COPY
on PostgreSQL) read back as SQLAlchemy would have written them, whatever their number."""

from __future__ import annotations

from datetime import UTC
from datetime import datetime

import pytest
import sqlalchemy as sa
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from sqlalchemy.dialects import sqlite

from scorekeeper.extensions import db
from scorekeeper.models import Account
from scorekeeper.models import Game
from scorekeeper.models import HandEntry
from scorekeeper.services import bulk
from scorekeeper.services import games as game_service


@pytest.mark.parametrize("count", [0, 1, bulk.MAX_VALUES // 5, bulk.MAX_VALUES // 5 + 1, 1000])
def test_rows_read_back_as_given(app, account, count):
    """Row counts around a statement's share (198 rows of 5 values) all arrive, in order, and
    a JSON column given as text reads back as the value it writes."""
    moment = datetime(2026, 3, 4, 5, 6, 7, 890000, tzinfo=UTC)
    with app.app_context():
        owner = db.session.get(Account, account.id)
        game_id = game_service.create_game(owner, "pitch", ["Ann", "Ben"]).game.id
        rows = [
            {
                "game_id": game_id,
                "number": number,
                "input": f'{{"scores":{{"0":{number},"1":-1}},"note":"ñ"}}',
                "created_at": moment,
                "updated_at": moment,
            }
            for number in range(1, count + 1)
        ]
        bulk.insert(HandEntry.__table__, rows, as_text=("input",))
        db.session.commit()
        stored = db.session.execute(
            sa.select(HandEntry.number, HandEntry.input, HandEntry.created_at)
            .where(HandEntry.game_id == game_id)
            .order_by(HandEntry.id)
        ).all()
        assert [row.number for row in stored] == list(range(1, count + 1))
        assert all(
            row.input == {"scores": {"0": row.number, "1": -1}, "note": "ñ"} for row in stored
        )
        assert all(row.created_at.replace(tzinfo=UTC) == moment for row in stored)
        assert db.session.get(Game, game_id) is not None


@pytest.mark.parametrize("count", [1, bulk.MAX_VALUES // 5 + 1, 700])
def test_a_saves_rows_and_its_upsert_arrive_whatever_their_number(app, account, count):
    """``insert_values`` (a save's hand results, its statistics' upsert): every row arrives
    (one array per column on PostgreSQL, VALUES lists in chunks on SQLite), and the upsert's
    tail adds to the rows already there."""
    from scorekeeper.models import HandResult
    from scorekeeper.models import PlayerStat
    from scorekeeper.services import results

    with app.app_context():
        owner = db.session.get(Account, account.id)
        game = game_service.create_game(owner, "pitch", ["Ann", "Ben"]).game
        player = game.seats[0].player.id
        rows = [(game.id, number, number % 2, "points", number - 3) for number in range(count)]
        bulk.insert_values(results.RESULTS_HEAD, 5, rows)
        stats = [(player, "pitch", "", f"key{n}", n) for n in range(count)]
        bulk.insert_values(results.UPSERT_HEAD, 5, stats, results.UPSERT_TAIL)
        bulk.insert_values(results.UPSERT_HEAD, 5, stats[:3], results.UPSERT_TAIL)
        db.session.commit()
        stored = db.session.execute(
            sa.select(HandResult.number, HandResult.seat, HandResult.key, HandResult.value)
            .where(HandResult.game_id == game.id)
            .order_by(HandResult.number)
        ).all()
        assert [tuple(row) for row in stored] == [row[1:] for row in rows]
        summed = dict(
            db.session.execute(
                sa.select(PlayerStat.key, PlayerStat.value).where(
                    PlayerStat.player_id == player, PlayerStat.key.startswith("key")
                )
            ).all()
        )
        assert summed == {f"key{n}": n * (2 if n < 3 else 1) for n in range(count)}


def test_only_whole_numbers_and_texts_go_as_arrays():
    """A column of anything else (a missing value, a number with a fraction, a mix) goes as
    a VALUES list on PostgreSQL too."""
    assert bulk._array_of((1, -2, 2**40)) == "bigint[]"
    assert bulk._array_of(("a", "ñ")) == "text[]"
    assert bulk._array_of((1, None)) is None
    assert bulk._array_of((1, "a")) is None
    assert bulk._array_of((True, 1)) is None
    assert bulk._array_of((1.5,)) is None


MOMENTS = st.one_of(
    st.datetimes(timezones=st.none() | st.timezones() | st.just(UTC)),
    st.dates(),
    st.none(),
)


@settings(max_examples=300, deadline=None)
@given(MOMENTS)
def test_a_moment_is_stored_in_sqlite_as_sqlalchemy_stores_it(moment):
    """``bulk``'s quicker writer of SQLite's moments writes the very text of SQLAlchemy's own
    (any year, any zone, none, a date), so rows it wrote compare with rows the ORM wrote."""
    dialect = sqlite.dialect()
    kind = sa.DateTime(timezone=True)
    theirs = kind.dialect_impl(dialect).bind_processor(dialect)
    assert bulk.stored_moment(moment) == theirs(moment)
    assert list(bulk._processed(kind, dialect, [moment, None])) == [theirs(moment), None]


def test_a_moment_stored_in_another_format_keeps_sqlalchemy_s_writer():
    dialect = sqlite.dialect()
    kind = sqlite.DATETIME(storage_format="%(year)04d/%(month)02d/%(day)02d")
    assert list(bulk._processed(kind, dialect, [datetime(2026, 1, 2, 3, 4)])) == ["2026/01/02"]
    with pytest.raises(TypeError):
        bulk.stored_moment("2026-01-02")
