"""``services.bulk``: rows inserted straight to the driver (multi-row INSERTs on SQLite, COPY
on PostgreSQL) read back as SQLAlchemy would have written them, whatever their number."""

from __future__ import annotations

from datetime import UTC
from datetime import datetime

import pytest
import sqlalchemy as sa

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
