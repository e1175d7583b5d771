"""The migration that recomputes name keys: duplicates it reveals are renamed and reported."""

from __future__ import annotations

import unicodedata
from datetime import UTC
from datetime import datetime

import sqlalchemy as sa
from flask_migrate import downgrade
from flask_migrate import upgrade
from sqlalchemy.dialects import postgresql

from scorekeeper import create_app
from scorekeeper.extensions import db
from tests.conftest import settings_for

BEFORE = "221a387d2506"
#: This migration (later ones convert the games' entries again: see test_storage).
THIS = "2606f977b239"
NOW = datetime(2026, 11, 30, 20, 0, tzinfo=UTC)
JSONType = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")

account = sa.table(
    "account",
    sa.column("id"),
    sa.column("username"),
    sa.column("username_key"),
    sa.column("password_hash"),
    sa.column("created_at"),
)
player = sa.table(
    "player",
    sa.column("id"),
    sa.column("account_id"),
    sa.column("name"),
    sa.column("name_key"),
    sa.column("archived"),
    sa.column("created_at"),
)
game = sa.table(
    "game",
    sa.column("id"),
    sa.column("account_id"),
    sa.column("kind"),
    sa.column("options", JSONType),
    sa.column("first_dealer"),
    sa.column("locked"),
    sa.column("version"),
    sa.column("status"),
    sa.column("totals", JSONType),
    sa.column("winners", JSONType),
    sa.column("hand_count"),
    sa.column("created_at"),
    sa.column("updated_at"),
)
seat = sa.table("seat", sa.column("game_id"), sa.column("position"), sa.column("player_id"))
hand = sa.table(
    "hand_entry",
    sa.column("id"),
    sa.column("game_id"),
    sa.column("number"),
    sa.column("input", JSONType),
    sa.column("points", JSONType),
    sa.column("created_at"),
    sa.column("updated_at"),
)

NFD_ASA = unicodedata.normalize("NFD", "Åsa")
NFC_ASA = unicodedata.normalize("NFC", "Åsa")


def _old_key(name: str) -> str:
    return " ".join(name.split()).casefold()


def _seed(connection) -> None:
    """What the old keys let in: names told apart only by width, form or a hidden character."""
    rows = [
        (1, "friday-club"),
        (2, "ＦＲＩＤＡＹ-club"),
        (3, "Ｓａｔ-club"),
    ]
    connection.execute(
        account.insert(),
        [
            {
                "id": i,
                "username": name,
                "username_key": _old_key(name),
                "password_hash": "x",
                "created_at": NOW,
            }
            for i, name in rows
        ],
    )
    players = [
        (1, 1, "Ann"),
        (2, 1, "Ann (2)"),
        (3, 1, "Ben"),
        (4, 1, "Ａｎｎ"),  # the later "Ann": becomes "Ann (3)", "Ann (2)" being taken
        (5, 1, NFD_ASA),
        (6, 1, NFC_ASA),  # the later Åsa
        (7, 1, "Ben\u200b"),  # a hidden character: the later Ben
        (8, 2, "Ａｎｎ"),  # another account: no clash with account 1's Ann
    ]
    connection.execute(
        player.insert(),
        [
            {
                "id": i,
                "account_id": a,
                "name": name,
                "name_key": _old_key(name),
                "archived": False,
                "created_at": NOW,
            }
            for i, a, name in players
        ],
    )
    connection.execute(
        game.insert(),
        {
            "id": 1,
            "account_id": 1,
            "kind": "oh_hell",
            "options": {},
            "first_dealer": 0,
            "locked": False,
            "version": 1,
            "status": "in_progress",
            "totals": {"Ann": 10, "Ａｎｎ": 11, "Ben": 0},
            "winners": ["Ａｎｎ"],
            "hand_count": 1,
            "created_at": NOW,
            "updated_at": NOW,
        },
    )
    connection.execute(
        seat.insert(),
        [
            {"game_id": 1, "position": 0, "player_id": 1},
            {"game_id": 1, "position": 1, "player_id": 4},
            {"game_id": 1, "position": 2, "player_id": 3},
        ],
    )
    connection.execute(
        hand.insert(),
        {
            "id": 1,
            "game_id": 1,
            "number": 1,
            "input": {"bids": {"Ann": 0, "Ａｎｎ": 1, "Ben": 0}, "high": "Ａｎｎ"},
            "points": {"Ann": 10, "Ａｎｎ & Ben": 11},
            "created_at": NOW,
            "updated_at": NOW,
        },
    )


def _rows(connection, table, *columns):
    return {
        row[0]: tuple(row[1:])
        for row in connection.execute(sa.select(table.c.id, *[table.c[c] for c in columns]))
    }


def test_the_migration_recomputes_keys_and_renames_revealed_duplicates(
    empty_database, tmp_path, capsys
):
    app = create_app(settings_for(empty_database, str(tmp_path)))
    with app.app_context():
        upgrade(revision=BEFORE)
        with db.engine.begin() as connection:
            _seed(connection)
        capsys.readouterr()
        upgrade(revision=THIS)
        printed = capsys.readouterr().out
        with db.engine.connect() as connection:
            players = _rows(connection, player, "name", "name_key")
            accounts = _rows(connection, account, "username", "username_key")
            totals, winners = connection.execute(sa.select(game.c.totals, game.c.winners)).one()
            entry = connection.execute(sa.select(hand.c.input, hand.c.points)).one()

        assert players == {
            1: ("Ann", "ann"),
            2: ("Ann (2)", "ann (2)"),
            3: ("Ben", "ben"),
            4: ("Ann (3)", "ann (3)"),
            5: (NFD_ASA, NFC_ASA.casefold()),
            6: (f"{NFC_ASA} (2)", f"{NFC_ASA.casefold()} (2)"),
            7: ("Ben (2)", "ben (2)"),
            8: ("Ａｎｎ", "ann"),
        }
        assert accounts == {
            1: ("friday-club", "friday-club"),
            2: ("FRIDAY-club-2", "friday-club-2"),
            3: ("Sat-club", "sat-club"),
        }
        # The renamed player is renamed in its game too; the other Ann is left alone.
        assert totals == {"Ann": 10, "Ann (3)": 11, "Ben": 0}
        assert winners == ["Ann (3)"]
        assert entry.input == {"bids": {"Ann": 0, "Ann (3)": 1, "Ben": 0}, "high": "Ann (3)"}
        assert entry.points == {"Ann": 10, "Ann (3) & Ben": 11}

        assert "player 4 of account 1: “Ａｎｎ” had the same name as “Ann”; renamed “Ann (3)”" in (
            printed
        )
        assert "in 1 game)" in printed
        assert f"player 6 of account 1: “{NFC_ASA}” had the same name as “{NFD_ASA}”" in printed
        assert "player 7 of account 1: “Ben\u200b” had the same name as “Ben”" in printed
        assert "account 2: username “ＦＲＩＤＡＹ-club” is now the same as “friday-club”" in printed
        assert "renamed “FRIDAY-club-2”" in printed
        assert "player 8" not in printed

        # And back: the old keys again, the columns as they were.
        downgrade(revision=BEFORE)
        with db.engine.connect() as connection:
            keys = _rows(connection, player, "name_key")
        assert keys[4] == ("ann (3)",)
        assert keys[8] == ("ａｎｎ",)
        upgrade(revision=THIS)
        db.engine.dispose()


def test_the_migration_has_nothing_to_say_about_clean_names(empty_database, tmp_path, capsys):
    app = create_app(settings_for(empty_database, str(tmp_path)))
    with app.app_context():
        upgrade(revision=BEFORE)
        with db.engine.begin() as connection:
            connection.execute(
                account.insert(),
                {
                    "id": 1,
                    "username": "friday-club",
                    "username_key": "friday-club",
                    "password_hash": "x",
                    "created_at": NOW,
                },
            )
            connection.execute(
                player.insert(),
                [
                    {
                        "id": i,
                        "account_id": 1,
                        "name": name,
                        "name_key": _old_key(name),
                        "archived": False,
                        "created_at": NOW,
                    }
                    for i, name in enumerate(["Ann", "Ben", "Straße"], start=1)
                ],
            )
        capsys.readouterr()
        upgrade()
        assert "name keys:" not in capsys.readouterr().out
        with db.engine.connect() as connection:
            assert _rows(connection, player, "name_key")[3] == ("strasse",)
        db.engine.dispose()
