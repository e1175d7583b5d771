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
