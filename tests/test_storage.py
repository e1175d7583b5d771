"""Configuration, the database connection and the migrations."""

from __future__ import annotations

import os

import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask_migrate import upgrade

from scorekeeper import create_app
from scorekeeper.config import database_uri
from scorekeeper.config import env_overrides
from scorekeeper.extensions import db
from tests.conftest import settings_for


def test_database_url_selects_postgresql_through_psycopg():
    assert database_uri("postgres://u@h/db", "/x") == "postgresql+psycopg://u@h/db"
    assert database_uri("postgresql://u@h/db", "/x") == "postgresql+psycopg://u@h/db"
    assert database_uri(None, "/srv/instance") == "sqlite:////srv/instance/scorekeeper.db"


def test_environment_settings_are_typed():
    found = env_overrides(
        {"SIGNUP_ENABLED": "false", "LOGIN_MAX_FAILURES": "3", "SECRET_KEY": "k", "OTHER": "x"}
    )
    assert found == {"SIGNUP_ENABLED": False, "LOGIN_MAX_FAILURES": 3, "SECRET_KEY": "k"}


def test_without_a_configured_key_one_is_made_once_and_kept(tmp_path, monkeypatch):
    monkeypatch.setenv("INSTANCE_PATH", str(tmp_path))
    monkeypatch.delenv("SECRET_KEY", raising=False)
    monkeypatch.delenv("DATABASE_URL", raising=False)
    first = create_app()
    second = create_app()
    key = first.config["SECRET_KEY"]
    assert len(key) >= 40
    assert second.config["SECRET_KEY"] == key
    assert (tmp_path / "secret_key").read_text() == key
    assert oct((tmp_path / "secret_key").stat().st_mode & 0o777) == "0o600"
    assert first.config["SQLALCHEMY_DATABASE_URI"] == f"sqlite:///{tmp_path}/scorekeeper.db"


def test_instance_config_file_and_environment_override_defaults(tmp_path, monkeypatch):
    monkeypatch.setenv("INSTANCE_PATH", str(tmp_path))
    (tmp_path / "config.py").write_text("SIGNUP_ENABLED = False\nSECRET_KEY = 'from-file'\n")
    assert create_app().config["SIGNUP_ENABLED"] is False
    monkeypatch.setenv("SIGNUP_ENABLED", "1")
    app = create_app()
    assert app.config["SIGNUP_ENABLED"] is True
    assert app.config["SECRET_KEY"] == "from-file"


def test_sqlite_connections_use_wal_and_enforce_foreign_keys(tmp_path):
    uri = f"sqlite:///{tmp_path}/pragma.db"
    app = create_app(settings_for(uri, str(tmp_path)))
    with app.app_context():
        with db.engine.connect() as connection:
            assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
            assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        db.engine.dispose()


def test_migrations_build_exactly_the_models_on_an_empty_database(empty_database, tmp_path):
    app = create_app(settings_for(empty_database, str(tmp_path)))
    with app.app_context():
        upgrade()
        with db.engine.connect() as connection:
            differences = compare_metadata(
                MigrationContext.configure(connection, opts={"compare_type": True}), db.metadata
            )
            tables = set(sa.inspect(connection).get_table_names())
        db.engine.dispose()
    assert differences == []
    assert {table.name for table in db.metadata.sorted_tables} <= tables
    assert "alembic_version" in tables


def test_migrations_run_from_the_command_line(tmp_path):
    import subprocess
    import sys

    env = {**os.environ, "INSTANCE_PATH": str(tmp_path), "FLASK_APP": "app"}
    env.pop("DATABASE_URL", None)
    result = subprocess.run(
        [sys.executable, "-m", "flask", "db", "upgrade"],
        env=env,
        capture_output=True,
        text=True,
        cwd=os.path.dirname(os.path.dirname(__file__)),
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    engine = sa.create_engine(f"sqlite:///{tmp_path}/scorekeeper.db")
    with engine.connect() as connection:
        assert "player" in sa.inspect(connection).get_table_names()
    engine.dispose()


def test_workers_starting_together_share_one_complete_key(tmp_path):
    from concurrent.futures import ThreadPoolExecutor

    from scorekeeper.config import instance_secret_key

    with ThreadPoolExecutor(max_workers=8) as pool:
        keys = set(pool.map(lambda _: instance_secret_key(str(tmp_path)), range(32)))
    assert len(keys) == 1
    assert len(keys.pop()) >= 40
    assert [p.name for p in tmp_path.iterdir()] == ["secret_key"]


def test_the_seat_migration_converts_games_stored_by_name(empty_database, tmp_path):
    """Games stored the old way (entries, totals and points by player name) come out of the
    migration keyed by seat, with the copies and statistics a replay gives."""
    from datetime import UTC
    from datetime import datetime

    from flask_migrate import upgrade as upgrade_to

    from scorekeeper.models import Account
    from scorekeeper.services import games
    from scorekeeper.services import stats

    app = create_app(settings_for(empty_database, str(tmp_path)))
    now = datetime(2024, 5, 17, 20, 0, tzinfo=UTC)
    with app.app_context():
        upgrade_to(revision="221a387d2506")
        rows = {
            "account": [{"id": 1, "username": "club", "username_key": "club",
                         "password_hash": "x", "created_at": now}],
            "player": [{"id": i, "account_id": 1, "name": n, "name_key": n.lower(),
                        "archived": False, "created_at": now}
                       for i, n in ((1, "Ann"), (2, "Ben"), (3, "Cy"))],
            "game": [{"id": 1, "account_id": 1, "kind": "oh_hell", "first_dealer": 0,
                      "options": {"sequence": "up", "max_cards": 2, "hook": False,
                                  "simultaneous": False, "miss_scoring": "zero",
                                  "zero_bid_bonus": False, "must_trump": False},
                      "locked": True, "version": 3, "status": "finished",
                      "totals": {"Ann": 23, "Ben": 0, "Cy": 10}, "winners": ["Ann"],
                      "hand_count": 2, "created_at": now, "updated_at": now,
                      "finished_at": now}],
            "seat": [{"game_id": 1, "position": i, "player_id": i + 1} for i in range(3)],
            "hand_entry": [
                {"id": 1, "game_id": 1, "number": 1, "created_at": now, "updated_at": now,
                 "input": {"bids": {"Ann": 1, "Ben": 1, "Cy": 0},
                           "tricks": {"Ann": 1, "Ben": 0, "Cy": 0}},
                 "points": {"Ann": 11, "Ben": 0, "Cy": 10}},
                {"id": 2, "game_id": 1, "number": 2, "created_at": now, "updated_at": now,
                 "input": {"bids": {"Ann": 2, "Ben": 1, "Cy": 1},
                           "tricks": {"Ann": 2, "Ben": 0, "Cy": 0}},
                 "points": {"Ann": 12, "Ben": 0, "Cy": 0}},
            ],
        }  # fmt: skip
        metadata = sa.MetaData()
        metadata.reflect(bind=db.engine)
        with db.engine.begin() as connection:
            for table in ("account", "player", "game", "seat", "hand_entry"):
                connection.execute(metadata.tables[table].insert(), rows[table])
        upgrade_to()
        with db.engine.connect() as connection:
            stored = connection.execute(
                sa.text("SELECT input FROM hand_entry ORDER BY number")
            ).scalars()
            inputs = [value if isinstance(value, dict) else __import__("json").loads(value)
                      for value in stored]  # fmt: skip
        assert inputs[0] == {"bids": [1, 1, 0], "tricks": [1, 0, 0]}
        account = db.session.get(Account, 1)
        game = games.get_game(account, 1)
        assert game.totals == [23, 0, 10] and game.winners == [0]
        assert game.totals_by_side == {"Ann": 23, "Ben": 0, "Cy": 10}
        assert games.played(game).state.totals == {"Ann": 23, "Ben": 0, "Cy": 10}
        ann = stats.player_stats(account, 1).kinds["oh_hell"]
        assert (ann.played, ann.won, ann.hands, ann.figure("bids_made"), ann.best) == (
            1, 1, 2, 2, 23,
        )  # fmt: skip
        cy = stats.player_stats(account, 3).kinds["oh_hell"]
        assert (cy.won, cy.score_total, cy.figure("zero_bids_made")) == (0, 10, 1)
        db.session.remove()
        db.engine.dispose()


def test_hand_results_are_kept_by_their_key_on_sqlite_and_survive_the_rebuild(
    empty_database, tmp_path
):
    """The hand results' migration builds the table again WITHOUT ROWID on SQLite (and back on
    downgrade) with every row as it was; PostgreSQL's table is left as it is."""
    from flask_migrate import downgrade as downgrade_to

    from scorekeeper.services import accounts
    from scorekeeper.services import games

    app = create_app(settings_for(empty_database, str(tmp_path)))
    everything = sa.text(
        "SELECT game_id, number, seat, key, value FROM hand_result ORDER BY 1, 2, 3, 4"
    )
    made = sa.text("SELECT sql FROM sqlite_master WHERE name = 'hand_result'")
    sqlite = empty_database.startswith("sqlite")

    def stored() -> tuple[list, str | None]:
        db.session.remove()
        with db.engine.connect() as connection:
            rows = [tuple(row) for row in connection.execute(everything)]
            sql = connection.execute(made).scalar() if sqlite else None
        return rows, sql

    with app.app_context():
        upgrade()
        account = accounts.create_account("club", "correct horse battery")
        game_id = games.create_game(account, "oh_hell", ["Ann", "Ben", "Cy"]).game.id
        for cards in (1, 2):  # Ann bids 1 and takes every trick: made, then missed
            hand = {
                "bids": {"Ann": 1, "Ben": 0, "Cy": 0},
                "tricks": {"Ann": cards, "Ben": 0, "Cy": 0},
            }
            games.record_hand(games.get_game(account, game_id), hand)
        rows, sql = stored()
        assert len(rows) > 12 and {row[1] for row in rows} >= {1, 2}
        if sqlite:
            assert sql.rstrip().endswith("WITHOUT ROWID")

        downgrade_to(revision="b7e3c1d5a924")
        before, sql = stored()
        assert before == rows
        if sqlite:
            assert "WITHOUT ROWID" not in sql and "pk_hand_result" in sql

        upgrade()
        after, sql = stored()
        assert after == rows
        if sqlite:
            assert sql.rstrip().endswith("WITHOUT ROWID") and "fk_hand_result_game_id_game" in sql
        db.session.remove()
        db.engine.dispose()
