"""The app factory: ``create_app`` builds the Flask app (``from scorekeeper import create_app``
finds it here, so that importing the package, and the rules in it, imports no Flask)."""

from __future__ import annotations

import gc
import os
import sqlite3
from datetime import timedelta
from pathlib import Path

from flask import Flask
from jinja2 import ChoiceLoader
from sqlalchemy import event
from sqlalchemy.engine import Engine

from scorekeeper import config as settings
from scorekeeper import sqlite_writer
from scorekeeper import templating

ROOT = Path(__file__).resolve().parent.parent


def settled(app: Flask) -> Flask:
    """The app, its own objects (modules, catalogs, schemas, templates: about 140,000) moved
    out of the garbage collector's reach for the worker's life (``gc.freeze``). Otherwise
    every dozen requests or so a full collection walks them all and stops that request for
    40-60 ms (bench/ratings.py at 10,000 games: a night's recap at 20 ms median had a p95 of
    74 ms; frozen, 25 ms). Called where a worker builds its app (app.py, the benches)."""
    gc.collect()
    gc.freeze()
    return app


def create_app(test_config: dict | None = None) -> Flask:
    """Build the app: configuration, extensions, blueprints, error pages, CLI."""
    app = Flask(
        "scorekeeper",  # the package: its name and root path, as before the factory moved
        instance_path=os.environ.get("INSTANCE_PATH", str(ROOT / "instance")),
        instance_relative_config=True,
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "static"),
    )
    app.jinja_environment = templating.Environment  # before the app's templates are read
    configure(app, test_config)
    register_request_handling(app)
    register_extensions(app)
    register_blueprints(app)
    register_login_protection(app)
    register_errorhandlers(app)
    register_security(app)
    register_idempotency(app)
    register_static_files(app)
    register_i18n(app)
    register_template_helpers(app)
    worked_out_per_request(app)
    register_commands(app)
    register_proxy(app)
    return app


def worked_out_per_request(app: Flask) -> None:
    """Every filter of the app's own (and of its extensions) is worked out when the page is
    shown. Jinja works out a filter of constants (``{{ 0|num }}``) once, when it compiles
    the template, unless the filter takes the context: the number, date or word would then be
    written in the language of whoever asked first, for every reader after."""
    from functools import wraps

    from jinja2 import pass_context
    from jinja2.filters import FILTERS

    def per_request(func):
        @pass_context
        @wraps(func)
        def shown(_context, *args, **kwargs):
            return func(*args, **kwargs)

        return shown

    for name, func in list(app.jinja_env.filters.items()):
        if FILTERS.get(name) is not func and not hasattr(func, "jinja_pass_arg"):
            app.jinja_env.filters[name] = per_request(func)


def configure(app: Flask, test_config: dict | None) -> None:
    """Defaults, then instance/config.py, then the environment (tests pass theirs directly)."""
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    app.config.from_object(settings.Defaults)
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
        app.config.update(settings.env_overrides(os.environ))
    else:
        app.config.update(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = settings.instance_secret_key(app.instance_path)
    if "SQLALCHEMY_DATABASE_URI" not in app.config:
        app.config["SQLALCHEMY_DATABASE_URI"] = settings.database_uri(
            app.config.get("DATABASE_URL"), app.instance_path
        )
    app.config["REMEMBER_COOKIE_DURATION"] = timedelta(days=app.config["REMEMBER_COOKIE_DAYS"])


@event.listens_for(Engine, "connect")
def _sqlite_pragmas(dbapi_connection, record) -> None:
    """Every SQLite connection: WAL journal, foreign keys enforced, wait instead of failing
    (a writer's turn handed on at once: scorekeeper/sqlite_writer.py), and the log left to
    a server's background checkpoints (``sqlite_writer.autocheckpoint``)."""
    if isinstance(dbapi_connection, sqlite3.Connection):
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=5000")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute(f"PRAGMA wal_autocheckpoint={sqlite_writer.autocheckpoint()}")
        cursor.close()
        sqlite_writer.note_file(dbapi_connection, record)


def register_request_handling(app: Flask) -> None:
    """JSON bodies checked for depth and lone surrogates; ``<int:...>`` bounded to the
    database's integers (before the blueprints: rules take their converter when added)."""
    from scorekeeper.web import register

    register(app)


def register_extensions(app: Flask) -> None:
    """Database, migrations, CSRF protection, compressed answers and logins."""
    from flask_migrate import Migrate

    from scorekeeper.compression import Compress
    from scorekeeper.extensions import csrf
    from scorekeeper.extensions import db
    from scorekeeper.extensions import login_manager

    db.init_app(app)
    from scorekeeper.services import live

    live.install(app)
    Migrate(
        app,
        db,
        directory=str(Path(__file__).parent / "migrations"),
        render_as_batch=True,
        compare_type=True,
    )
    csrf.init_app(app)
    Compress(app)
    login_manager.init_app(app)
    login_manager.login_view = "auth.login"
    from flask_babel import lazy_gettext

    login_manager.login_message = lazy_gettext("Log in to keep score.")
    login_manager.login_message_category = "info"
    login_manager.session_protection = "basic"

    from scorekeeper.services import sessions

    # The cookies carry a login's token (Account.get_id), not the account's id: a login that
    # ended (logged out, ended from another device, a password change) loads no one.
    login_manager.user_loader(sessions.load)


def register_blueprints(app: Flask) -> None:
    """Pages and the JSON API."""
    from scorekeeper.views import api
    from scorekeeper.views import api_history
    from scorekeeper.views import api_seats
    from scorekeeper.views import app_shell
    from scorekeeper.views import auth
    from scorekeeper.views import game_assets
    from scorekeeper.views import games
    from scorekeeper.views import history
    from scorekeeper.views import main
    from scorekeeper.views import offline_rules
    from scorekeeper.views import players
    from scorekeeper.views import seats
    from scorekeeper.views import share
    from scorekeeper.views import table_panel

    app.register_blueprint(main.bp)
    app.register_blueprint(app_shell.bp)
    app.register_blueprint(game_assets.bp)
    app.jinja_loader = ChoiceLoader([app.jinja_loader, game_assets.GameTemplateLoader()])
    app.register_blueprint(auth.bp)
    app.register_blueprint(players.bp)
    app.register_blueprint(games.bp)
    app.register_blueprint(table_panel.bp)
    app.register_blueprint(history.bp)
    app.register_blueprint(share.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(api_history.bp)
    app.register_blueprint(api_seats.bp)
    app.register_blueprint(seats.bp)
    app.register_blueprint(offline_rules.bp)


def register_login_protection(app: Flask) -> None:
    """Login throttling per address, username and known device (after the blueprints: it
    wraps the login page's and the API token's views)."""
    from scorekeeper import throttle
    from scorekeeper.services import accounts
    from scorekeeper.views import auth

    throttle.init_app(
        app, exempt_when=auth.known_device_login, refused_page=auth.address_refused_page
    )
    accounts.init_app(app)


def register_errorhandlers(app: Flask) -> None:
    """Friendly pages (or JSON errors under /api/) instead of stack traces."""
    from scorekeeper.views.errors import register

    register(app)


def register_security(app: Flask) -> None:
    """Security headers on every response; Secure cookies over https."""
    from scorekeeper.views.security import register

    register(app)


def register_idempotency(app: Flask) -> None:
    """The answers to writes sent with an Idempotency-Key, kept (after the hooks that
    compress answers and add the security headers: it runs before them, on the answer as the
    view and the error handlers made it)."""
    from scorekeeper.views.idempotency import register

    register(app)


def register_static_files(app: Flask) -> None:
    """Static files shrunk and compressed once, at the best level (after the extensions:
    Flask-Compress then leaves them as they are)."""
    from scorekeeper.views.static_files import register

    register(app)


def register_proxy(app: Flask) -> None:
    """Behind a reverse proxy, trust its X-Forwarded-* headers (PROXY_FIX=1); under gunicorn,
    let ``ACTIVE_REQUESTS`` requests at a time run the app (scorekeeper/admission.py)."""
    if app.config["ACTIVE_REQUESTS"]:
        from scorekeeper.admission import Admission

        app.wsgi_app = admitted = Admission(app.wsgi_app, app.config["ACTIVE_REQUESTS"])
        app.extensions["scorekeeper.admission"] = admitted
    if app.config["PROXY_FIX"]:
        from werkzeug.middleware.proxy_fix import ProxyFix

        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=1, x_proto=1, x_host=1)


def register_i18n(app: Flask) -> None:
    """The reader's language (Flask-Babel), for the pages, the rules and the API."""
    from scorekeeper.i18n import register

    register(app)


def register_template_helpers(app: Flask) -> None:
    """Cache-busted static URLs and small filters for the templates."""
    from scorekeeper.views.helpers import register

    register(app)


def register_commands(app: Flask) -> None:
    """CLI commands (``flask db ...`` comes from Flask-Migrate)."""
    from scorekeeper.commands import register

    register(app)
