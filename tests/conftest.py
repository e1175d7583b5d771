"""Shared fixtures: a fresh database per test, clients, a logged-in client, an API token.

The database is the SQLite file of a temporary instance folder, or the PostgreSQL database
named by DATABASE_URL when it is set (``make test`` does both). The schema is made once per
run by the migrations; each test then starts from empty tables. Run in parallel
(pytest-xdist, ``-n``), each worker has its own: its own temporary folder, and on PostgreSQL
its own database beside DATABASE_URL's (``<name>_gw0`` ...), made and dropped by the worker.

Markers given here, from what a test asks for: ``browser`` to every test that uses the
browser (or is in a ``test_phone_*`` module), ``pure`` to every test that uses no database
fixture (the PostgreSQL pass leaves those out: they would run the same again).
"""

from __future__ import annotations

import base64
import os
import time
import uuid
from contextlib import ExitStack
from contextlib import contextmanager
from types import SimpleNamespace

import pytest
import sqlalchemy as sa

from scorekeeper import create_app
from scorekeeper.config import database_uri
from scorekeeper.extensions import db
from scorekeeper.i18n import speak_to_the_rules
from tests.openapi_check import check_response

pytest_plugins = ["tests.browser"]

PASSWORD = "correct horse battery"


def settings_for(uri: str, instance_path: str, **overrides) -> dict:
    config = {
        "TESTING": True,
        "SECRET_KEY": "test-only-secret",
        "SQLALCHEMY_DATABASE_URI": uri,
        "WTF_CSRF_ENABLED": False,
        "SIGNUP_ENABLED": True,
        "PASSWORD_HASH_METHOD": "pbkdf2:sha256:1000",  # fast in tests only
        # An event stream ends after a few seconds (the browser reconnects by itself): a
        # test client that reads one to its end does not wait five minutes.
        "EVENTS_LIFETIME": 1,
    }
    config.update(overrides)
    return config


#: The slowest tests that are neither browser tests nor drills (each over 10 s in a run of
#: the suite on two cores), marked ``slow``: ``make test-fast`` leaves them out.
SLOW = {
    "tests/test_nights.py::test_history_and_night_pages_make_the_same_queries_for_any_history_size",
    "tests/test_stats.py::test_stats_pages_make_the_same_queries_for_a_small_and_a_larger_history",
    "tests/test_stats.py::test_every_player_figure_equals_a_replay_of_the_recorded_hands",
    "tests/test_login_throttle.py::test_one_address_guessing_across_many_usernames_is_refused",
    "tests/test_storage.py::test_migrations_run_from_the_command_line",
}


DRILL = "tests/test_api_schemathesis.py::test_every_check_passes_"
#: The longest tests, longest first (from --durations of make test on two cores; a prefix names
#: every test it starts): they are started first, then the other drills, browser and slow
#: tests, then the rest. pytest-xdist hands tests out in collection order, one at a time
#: (``--maxschedchunk 1`` in the Makefile), so the short tests fill in at the end and both
#: workers finish together, instead of one running a long test started last while the other
#: waits. Only the order changes: every test still runs.
FIRST = [
    DRILL + "on_every_operation[create_game]",
    DRILL + "on_every_operation[save_rule_set]",
    "tests/test_crash.py",
    "tests/test_input_sweep.py",
    DRILL + "on_random_requests_to_every_operation[create_night]",
    "tests/test_nights.py::test_history_and_night_pages_make_the_same_queries_for_any_history_size",
    DRILL + "in_stateful_sequences",
    DRILL + "on_every_operation[list_games]",
    DRILL + "on_every_operation[add_player]",
    DRILL + "on_every_operation[correct_table]",
    DRILL + "on_every_operation[list_nights]",
    DRILL + "on_every_operation[create_account]",
    DRILL + "on_every_operation[update_player]",
    DRILL + "on_every_operation[create_night]",
    "tests/test_api_schemathesis.py",
    "tests/test_stats.py::test_every_player_figure_equals_a_replay_of_the_recorded_hands",
    "tests/test_stats.py::test_stats_pages_make_the_same_queries_for_a_small_and_a_larger_history",
]


def start_order(item) -> int:
    """Where ``item`` starts: its place in FIRST, then the drill, browser and slow tests."""
    for place, prefix in enumerate(FIRST):
        if item.nodeid.startswith(prefix):
            return place
    if any(item.get_closest_marker(name) for name in ("drill", "browser", "slow")):
        return len(FIRST)
    return len(FIRST) + 1


def pytest_collection_modifyitems(items):
    for item in items:
        if item.nodeid.partition("[")[0] in SLOW:
            item.add_marker(pytest.mark.slow)
        names = getattr(item, "fixturenames", ())
        if "browser" in names or item.path.name.startswith("test_phone_"):
            item.add_marker(pytest.mark.browser)
        if "database" not in names:
            item.add_marker(pytest.mark.pure)
    items.sort(key=start_order)  # stable: collection order within each group


@contextmanager
def worker_database(url: str, worker: str):
    """A database of this worker's own on DATABASE_URL's server: made empty, dropped after."""
    own = sa.engine.make_url(url).set(database=f"{sa.engine.make_url(url).database}_{worker}")
    engine = sa.create_engine(url, isolation_level="AUTOCOMMIT")
    drop = sa.text(f'DROP DATABASE IF EXISTS "{own.database}" WITH (FORCE)')
    with engine.connect() as connection:
        connection.execute(drop)
        connection.execute(sa.text(f'CREATE DATABASE "{own.database}"'))
    try:
        yield own.render_as_string(hide_password=False)
    finally:
        with engine.connect() as connection:
            connection.execute(drop)
        engine.dispose()


def fast_commits(uri: str) -> None:
    """A test database answers a commit before its WAL is on disk (``synchronous_commit``
    off, for every later connection, the app's and a served subprocess's alike): 1 ms a
    commit instead of 5 here. Nothing a test sees changes: only a crash of PostgreSQL itself
    could lose the last commits, and a test database is dropped anyway."""
    url = sa.engine.make_url(uri)
    engine = sa.create_engine(url, isolation_level="AUTOCOMMIT")
    with engine.connect() as connection:
        connection.execute(sa.text(f'ALTER DATABASE "{url.database}" SET synchronous_commit = off'))
    engine.dispose()


@pytest.fixture(scope="session")
def database(tmp_path_factory):
    """The URI of the test database, upgraded to the newest migration once per run (once per
    worker)."""
    instance = tmp_path_factory.mktemp("instance")
    url = os.environ.get("DATABASE_URL")
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    with ExitStack() as stack:
        if url and url.startswith("postgresql") and worker:
            url = stack.enter_context(worker_database(url, worker))
        uri = database_uri(url, str(instance))
        if uri.startswith("postgresql"):
            fast_commits(uri)
        os.environ["INSTANCE_PATH"] = str(instance)
        app = create_app(settings_for(uri, str(instance)))
        with app.app_context():
            from flask_migrate import upgrade

            if uri.startswith("postgresql"):
                # Start from an empty schema: the database may hold an earlier run's tables.
                db.session.execute(sa.text("DROP SCHEMA public CASCADE; CREATE SCHEMA public"))
                db.session.commit()
            upgrade()
            db.engine.dispose()
        yield {"uri": uri, "instance": str(instance)}


@pytest.fixture
def empty_database(database, tmp_path):
    """An empty database of the kind under test: a new SQLite file or a PostgreSQL schema."""
    uri = database["uri"]
    if not uri.startswith("postgresql"):
        yield f"sqlite:///{tmp_path}/empty.db"
        return
    schema = f"migration_{uuid.uuid4().hex[:8]}"
    engine = sa.create_engine(uri)
    with engine.begin() as connection:
        connection.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    separator = "&" if "?" in uri else "?"
    yield f"{uri}{separator}options=-csearch_path%3D{schema}"
    with engine.begin() as connection:
        connection.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
    engine.dispose()


#: Every sequence of the current schema back to 1 (as TRUNCATE ... RESTART IDENTITY would).
RESTART_SEQUENCES = sa.text(
    "SELECT setval(c.oid, 1, false) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
    " WHERE c.relkind = 'S' AND n.nspname = current_schema()"
)


def empty_tables() -> None:
    """Every table emptied, children first; on PostgreSQL the ids start at 1 again. (DELETE,
    not TRUNCATE: on tables this small TRUNCATE costs 250-350 ms a test, DELETE 10.)"""
    for table in reversed(db.metadata.sorted_tables):
        db.session.execute(table.delete())
    if db.engine.dialect.name == "postgresql":
        db.session.execute(RESTART_SEQUENCES)
    db.session.commit()


@pytest.fixture(scope="session")
def plain_app(database):
    """The app with the test settings and nothing else, built once per worker: most tests ask
    for no settings of their own, and building an app (its 79 URL rules compiled) costs more
    than many a test. ``make_app`` hands it out with its configuration as it was built."""
    app = create_app(settings_for(database["uri"], database["instance"]))
    yield app, dict(app.config)
    with app.app_context():
        db.engine.dispose()


@pytest.fixture
def make_app(database, plain_app):
    """Build an app on the test database with extra settings; tables are emptied after.

    Without settings, the first app of a test is the worker's plain app (see ``plain_app``),
    its configuration reset to the one it was built with."""
    made = []

    def build(**overrides):
        shared, config = plain_app
        if not overrides and shared not in made:
            shared.config.clear()
            shared.config.update(config)
            speak_to_the_rules()  # as building it did (a rules test may have unplugged them)
            app = shared
        else:
            app = create_app(settings_for(database["uri"], database["instance"], **overrides))
        made.append(app)
        return app

    yield build
    for app in made:
        with app.app_context():
            db.session.remove()
            unanswered_requests_done()
            empty_tables()
            if app is not plain_app[0]:
                db.engine.dispose()


def unanswered_requests_done(patience: float = 10) -> None:
    """Wait (at most ``patience`` seconds) for the requests a live server still answers after
    its test ended (a browser closed while the page's last requests were out): each holds a
    connection of the app's pool, which ``dispose`` would leave to the garbage collector (a
    ResourceWarning in whichever test runs then), and its rows would be emptied under it."""
    pool = db.engine.pool
    deadline = time.monotonic() + patience
    while getattr(pool, "checkedout", lambda: 0)() and time.monotonic() < deadline:
        time.sleep(0.02)


@pytest.fixture
def app(make_app):
    """The app on an empty database.

    No app context stays pushed during a test: each request gets its own, as in production
    (a shared one would share ``g`` and the session between requests and hide bugs). Tests
    that look into the database open ``with app.app_context():``.
    """
    return make_app()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


def signup(client, username: str = "friday-club", password: str = PASSWORD):
    return client.post(
        "/signup",
        data={"username": username, "password": password, "confirm": password},
        follow_redirects=False,
    )


def login(client, username: str = "friday-club", password: str = PASSWORD, **extra):
    data = {"username": username, "password": password, **extra}
    return client.post("/login", data=data)


def make_account(app, username: str = "friday-club") -> SimpleNamespace:
    """An account made through the service (as the sign-up page would)."""
    from scorekeeper.services import accounts

    with app.app_context():
        account = accounts.create_account(username, PASSWORD)
        return SimpleNamespace(id=account.id, username=account.username)


@pytest.fixture
def account(app):
    return make_account(app)


@pytest.fixture
def logged_in(app, account):
    """A client logged in as ``account``."""
    client = app.test_client()
    response = login(client)
    assert response.status_code == 302, response.text
    return client


@pytest.fixture
def table(logged_in):
    """A logged-in client with Ann, Ben, Cy and Dee on the roster."""
    for name in ("Ann", "Ben", "Cy", "Dee"):
        response = logged_in.post("/players/", data={"name": name})
        assert response.status_code == 302
    return logged_in


class Api:
    """A small JSON client for /api/v1 with a bearer token."""

    def __init__(self, client, token: str | None = None) -> None:
        self.client = client
        self.token = token

    def headers(self) -> dict:
        return {"Authorization": f"Bearer {self.token}"} if self.token else {}

    def request(self, method: str, path: str, json=None, **kwargs):
        """Send a request; every answer is checked against the OpenAPI document."""
        headers = {**self.headers(), **kwargs.pop("headers", {})}
        response = self.client.open(
            "/api/v1" + path, method=method, json=json, headers=headers, **kwargs
        )
        check_response(self.client.application, method, "/api/v1" + path, response)
        return response

    def get(self, path, **kwargs):
        return self.request("GET", path, **kwargs)

    def post(self, path, json=None, **kwargs):
        return self.request("POST", path, json=json, **kwargs)

    def patch(self, path, json=None, **kwargs):
        return self.request("PATCH", path, json=json, **kwargs)

    def delete(self, path, **kwargs):
        return self.request("DELETE", path, **kwargs)


def basic(username: str, password: str) -> dict:
    raw = base64.b64encode(f"{username}:{password}".encode()).decode()
    return {"Authorization": f"Basic {raw}"}


def new_token(client, username: str = "friday-club", password: str = PASSWORD) -> str:
    response = client.post("/api/v1/tokens", headers=basic(username, password))
    assert response.status_code == 201, response.text
    return response.get_json()["token"]


@pytest.fixture
def api(app, account):
    """An API client with a token for ``account``."""
    client = app.test_client()
    return Api(client, new_token(client))


@pytest.fixture
def other_api(app, account):
    """An API client of a second, unrelated account."""
    make_account(app, "other-table")
    client = app.test_client()
    return Api(client, new_token(client, "other-table"))
