"""Login throttling: per client address, per username (a known device has its own count),
counted atomically before any password is checked, one hash per attempt whoever it names."""

from __future__ import annotations

import os
import re
import runpy
import threading
import time
import uuid
from pathlib import Path

import pytest
import werkzeug.security

from scorekeeper import throttle
from scorekeeper.extensions import db
from scorekeeper.models import Account
from scorekeeper.models import LoginThrottle
from scorekeeper.throttle_storage import DatabaseStorage
from scorekeeper.views.auth import KNOWN_DEVICE_COOKIE
from tests.conftest import PASSWORD
from tests.conftest import Api
from tests.conftest import basic
from tests.conftest import login
from tests.conftest import make_account
from tests.live import at_once
from tests.live import send
from tests.live import serving

STRANGER = {"REMOTE_ADDR": "203.0.113.7"}
WAIT = re.compile(r"Try again in \d+ minutes?\.")


@pytest.fixture
def hashes(monkeypatch):
    """How many password hashes have been computed (generated or checked) so far."""
    real = werkzeug.security._hash_internal
    lock = threading.Lock()
    count = [0]

    def counting(*args, **kwargs):
        with lock:
            count[0] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(werkzeug.security, "_hash_internal", counting)
    return lambda: count[0]


def _max(app) -> int:
    return app.config["LOGIN_MAX_FAILURES"]


def _address_limit(app) -> int:
    return int(app.config["LOGIN_ADDRESS_LIMIT"].split()[0])


def _stranger(app):
    """A client from another address."""
    client = app.test_client()
    client.environ_base.update(STRANGER)
    return client


def _known_device(app):
    """A client that logged in once (so it holds the known-device cookie), logged out again."""
    owner = app.test_client()
    assert login(owner).status_code == 302
    assert owner.get_cookie(KNOWN_DEVICE_COOKIE, path="/login") is not None
    owner.post("/logout")
    return owner


# Per username, and the known device --------------------------------------------------------


def test_a_strangers_wrong_passwords_do_not_lock_the_owner_out(app, account):
    owner = _known_device(app)
    stranger = _stranger(app)
    answers = [login(stranger, password=f"guess {i}").status_code for i in range(_max(app) + 3)]
    assert answers == [401] * _max(app) + [429] * 3
    # The stranger waits, even with the right password...
    refused = login(stranger)
    assert refused.status_code == 429
    assert "Too many failed logins for this username." in refused.text
    assert WAIT.search(refused.text)
    assert 'value="friday-club"' in refused.text
    assert int(refused.headers["Retry-After"]) > 0
    # ...the owner's phone does not.
    assert login(owner).status_code == 302


def test_a_known_device_is_counted_on_its_own(app, account):
    owner = _known_device(app)
    answers = [login(owner, password="typo").status_code for _ in range(_max(app) + 1)]
    assert answers == [401] * _max(app) + [429]
    response = login(owner)
    assert response.status_code == 429
    assert "Too many failed logins on this device." in response.text
    # Strangers are not slowed by the owner's typos.
    assert login(_stranger(app)).status_code == 302


def test_the_known_device_cookie(app, account):
    client = app.test_client()
    response = login(client)
    cookie = next(
        c for c in response.headers.getlist("Set-Cookie") if c.startswith(KNOWN_DEVICE_COOKIE)
    )
    assert "HttpOnly" in cookie
    assert "SameSite=Lax" in cookie
    assert "Path=/login" in cookie
    assert "Max-Age=31536000" in cookie


def test_a_known_device_keeps_its_id_across_logins(app, account):
    from scorekeeper.services import accounts

    owner = _known_device(app)
    first = owner.get_cookie(KNOWN_DEVICE_COOKIE, path="/login").value
    login(owner)
    second = owner.get_cookie(KNOWN_DEVICE_COOKIE, path="/login").value
    with app.test_request_context():
        account_row = db.session.get(Account, account.id)
        assert accounts._device_of(first, account_row) == accounts._device_of(second, account_row)


@pytest.mark.parametrize("how", ["tampered", "other account", "password changed"])
def test_a_device_cookie_that_does_not_fit_is_no_pass(app, account, how):
    owner = _known_device(app)
    value = owner.get_cookie(KNOWN_DEVICE_COOKIE, path="/login").value
    if how == "tampered":
        value = value[:-2] + ("AA" if not value.endswith("AA") else "BB")
    elif how == "other account":
        make_account(app, "other-table")
        other = app.test_client()
        assert login(other, "other-table").status_code == 302
        value = other.get_cookie(KNOWN_DEVICE_COOKIE, path="/login").value
    else:
        with app.app_context():
            row = db.session.get(Account, account.id)
            row.password_hash = werkzeug.security.generate_password_hash(
                PASSWORD, method=app.config["PASSWORD_HASH_METHOD"]
            )
            db.session.commit()
    owner.set_cookie(KNOWN_DEVICE_COOKIE, value, path="/login")
    stranger = _stranger(app)
    for _ in range(_max(app)):
        login(stranger, password="guess")
    assert login(owner).status_code == 429


def test_the_api_token_endpoint_is_throttled_per_username(client, account, app):
    api = Api(client)
    statuses = [
        api.post("/tokens", headers=basic("friday-club", "guess")).status_code
        for _ in range(_max(app))
    ]
    assert statuses == [401] * _max(app)
    response = api.post("/tokens", headers=basic("friday-club", PASSWORD))
    assert response.status_code == 429
    error = response.get_json()["errors"][0]
    assert error["code"] == "too_many_attempts"
    assert WAIT.search(error["message"])
    assert int(response.headers["Retry-After"]) > 0


def test_unknown_usernames_are_throttled_like_known_ones(client, account, app):
    for username in ("friday-club", "nobody-here"):
        statuses = [login(client, username, "guess").status_code for _ in range(_max(app) + 1)]
        assert statuses == [401] * _max(app) + [429]


# Per client address ------------------------------------------------------------------------


def test_one_address_guessing_across_many_usernames_is_refused(app, client):
    limit = _address_limit(app)
    statuses = [login(client, f"user-{i % 25}", "guess").status_code for i in range(100)]
    assert statuses == [401] * limit + [429] * (100 - limit)
    response = login(client, "user-7", "guess")
    assert response.status_code == 429
    assert "Too many login attempts from your network." in response.text
    assert WAIT.search(response.text)
    assert 'value="user-7"' in response.text  # the username stays typed
    assert int(response.headers["Retry-After"]) > 0
    # The API's token endpoint shares the address's count.
    refused = Api(client).post("/tokens", headers=basic("user-8", "guess"))
    assert refused.status_code == 429
    assert refused.get_json()["errors"][0]["code"] == "too_many_attempts"
    assert "from your network" in refused.get_json()["errors"][0]["message"]
    # Another address is not concerned.
    assert login(_stranger(app), "user-1", "guess").status_code == 401


def test_the_address_limit_counts_page_and_api_together(app, client):
    api = Api(client)
    limit = _address_limit(app)
    for i in range(limit):
        if i % 2:
            assert login(client, f"user-{i}", "guess").status_code == 401
        else:
            assert api.post("/tokens", headers=basic(f"user-{i}", "guess")).status_code == 401
    assert login(client, "user-x", "guess").status_code == 429


def test_the_login_page_itself_is_not_counted(app, client):
    for _ in range(_address_limit(app) + 5):
        assert client.get("/login").status_code == 200
    assert login(client, "someone", "guess").status_code == 401


def test_the_owners_known_device_passes_the_address_limit_too(app, account, client):
    owner = _known_device(app)
    for i in range(_address_limit(app) + 2):
        login(client, f"user-{i}", "guess")
    assert login(client, "user-1", "guess").status_code == 429
    assert login(owner).status_code == 302  # same address, known device


def test_without_proxy_fix_x_forwarded_for_is_ignored(app, client):
    for i in range(_address_limit(app)):
        headers = {"X-Forwarded-For": f"198.51.100.{i}"}
        data = {"username": f"user-{i}", "password": "guess"}
        assert client.post("/login", data=data, headers=headers).status_code == 401
    response = client.post(
        "/login",
        data={"username": "someone", "password": "guess"},
        headers={"X-Forwarded-For": "198.51.100.250"},
    )
    assert response.status_code == 429
    assert "from your network" in response.text


def test_with_proxy_fix_each_forwarded_client_has_its_own_count(make_app):
    app = make_app(PROXY_FIX=True)
    client = app.test_client()

    def data(i):
        return {"username": f"user-{i}", "password": "guess"}

    for i in range(_address_limit(app)):
        client.post("/login", data=data(i), headers={"X-Forwarded-For": "198.51.100.1"})
    refused = client.post("/login", data=data(99), headers={"X-Forwarded-For": "198.51.100.1"})
    assert refused.status_code == 429
    other = client.post("/login", data=data(98), headers={"X-Forwarded-For": "198.51.100.2"})
    assert other.status_code == 401


@pytest.mark.parametrize(
    ("remote", "counted_as"),
    [
        ("192.0.2.1", "192.0.2.1"),
        ("2001:db8:1:2:aaaa::1", "2001:db8:1:2::/64"),
        ("2001:db8:1:2:bbbb::9", "2001:db8:1:2::/64"),
        ("::ffff:192.0.2.1", "192.0.2.1"),
    ],
)
def test_client_addresses_ipv6_counts_per_64(app, remote, counted_as):
    with app.test_request_context(environ_base={"REMOTE_ADDR": remote}):
        assert throttle.client_address() == counted_as


# One password hash per attempt, whoever it names ---------------------------------------------


@pytest.mark.parametrize(
    ("username", "password"),
    [
        ("friday-club", "wrong password"),
        ("nobody-here", "wrong password"),
        ("friday-club", PASSWORD),
    ],
)
def test_every_login_computes_exactly_one_hash(app, account, hashes, username, password):
    client = app.test_client()
    before = hashes()
    login(client, username, password)
    assert hashes() - before == 1
    before = hashes()
    client.post("/api/v1/tokens", headers=basic(username, password))
    assert hashes() - before == 1


def test_a_refused_attempt_computes_no_hash(app, account, hashes):
    client = app.test_client()
    for _ in range(_max(app)):
        login(client, password="guess")
    before = hashes()
    assert login(client).status_code == 429
    assert hashes() == before


# Real concurrent requests against a live server -----------------------------------------------


@pytest.mark.parametrize("where", ["page", "api"])
def test_a_burst_of_twenty_guesses_gets_at_most_the_limits_checks(make_app, hashes, where):
    app = make_app(LOGIN_ADDRESS_LIMIT="1000 per minute")
    make_account(app)
    with serving(app) as base:

        def guess(i):
            if where == "api":
                headers = basic("friday-club", f"guess {i}")
                return send(f"{base}/api/v1/tokens", "POST", headers=headers)
            data = {"username": "friday-club", "password": f"guess {i}"}
            return send(f"{base}/login", "POST", data=data)

        before = hashes()
        answers = at_once(20, guess)
        checks = hashes() - before
    statuses = [answer.status for answer in answers]
    assert sorted(set(statuses)) == [401, 429], statuses
    assert checks == _max(app)
    assert statuses.count(401) == checks
    assert statuses.count(429) == 20 - checks


def test_a_burst_from_one_address_is_cut_at_the_address_limit(make_app, hashes):
    app = make_app(LOGIN_ADDRESS_LIMIT="8 per 10 minutes")
    with serving(app) as base:
        before = hashes()
        answers = at_once(
            20,
            lambda i: send(f"{base}/api/v1/tokens", "POST", headers=basic(f"user-{i}", "guess")),
        )
        checks = hashes() - before
    statuses = [answer.status for answer in answers]
    assert statuses.count(401) == 8 == checks
    assert statuses.count(429) == 12


def test_twenty_logins_at_once_all_succeed(make_app):
    app = make_app(LOGIN_ADDRESS_LIMIT="1000 per minute")
    for i in range(20):
        make_account(app, f"club-{i:02}")
    with serving(app) as base:
        tokens = at_once(
            20,
            lambda i: send(
                f"{base}/api/v1/tokens", "POST", headers=basic(f"club-{i:02}", PASSWORD)
            ),
        )
        pages = at_once(
            20,
            lambda i: send(
                f"{base}/login", "POST", data={"username": f"club-{i:02}", "password": PASSWORD}
            ),
        )
    assert [answer.status for answer in tokens] == [201] * 20
    assert [answer.status for answer in pages] == [302] * 20


def test_twenty_logins_at_once_to_one_account_never_fail(make_app):
    app = make_app(LOGIN_ADDRESS_LIMIT="1000 per minute")
    make_account(app)
    with serving(app) as base:
        answers = at_once(
            20,
            lambda i: send(f"{base}/api/v1/tokens", "POST", headers=basic("friday-club", PASSWORD)),
        )
    statuses = [answer.status for answer in answers]
    assert set(statuses) <= {201, 429}, statuses
    assert statuses.count(201) >= 1


# Where the counters live ---------------------------------------------------------------------


def test_without_redis_the_counters_are_in_the_database_every_worker_shares(make_app):
    first, second = make_app(), make_app()  # two workers: two apps, one database
    assert isinstance(first.extensions[throttle.EXTENSION].storage, DatabaseStorage)
    client = first.test_client()
    for i in range(_address_limit(first)):
        login(client, f"user-{i}", "guess")
    assert login(second.test_client(), "user-1", "guess").status_code == 429
    with first.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(LoginThrottle)) >= 1


def test_the_database_counter_is_atomic(app):
    storage = app.extensions[throttle.EXTENSION].storage

    def hit(_):
        with app.app_context():
            return storage.incr("test/atomic", 60)

    results = []
    lock = threading.Lock()
    barrier = threading.Barrier(30)

    def run(i):
        barrier.wait()
        value = hit(i)
        with lock:
            results.append(value)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(30)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == list(range(1, 31))
    with app.app_context():
        assert storage.get("test/atomic") == 30


def test_the_database_counter_starts_again_when_its_window_ends(app):
    storage = app.extensions[throttle.EXTENSION].storage
    with app.app_context():
        assert storage.incr("test/window", 60) == 1
        assert storage.incr("test/window", 60) == 2
        assert time.time() < storage.get_expiry("test/window") <= time.time() + 60
        db.session.execute(db.update(LoginThrottle).values(expires_at=time.time() - 1))
        db.session.commit()
        assert storage.get("test/window") == 0
        assert storage.incr("test/window", 60) == 1
        storage.clear("test/window")
        assert storage.get("test/window") == 0
        storage.incr("test/old", 60)
        db.session.execute(db.update(LoginThrottle).values(expires_at=time.time() - 1))
        db.session.commit()
        assert storage.sweep() == 1
        assert storage.check() is True


@pytest.fixture
def redis_url():
    url = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/15")
    import redis

    try:
        redis.Redis.from_url(url, socket_connect_timeout=1).ping()
    except redis.RedisError as error:
        pytest.skip(f"Redis tests skipped: no Redis at {url} ({error.__class__.__name__})")
    return url


def test_with_redis_url_the_counters_live_in_redis(make_app, redis_url):
    import redis
    from limits.storage import RedisStorage

    prefix = f"scorekeeper-test-{uuid.uuid4().hex[:8]}"
    first = make_app(REDIS_URL=redis_url, RATELIMIT_KEY_PREFIX=prefix)
    second = make_app(REDIS_URL=redis_url, RATELIMIT_KEY_PREFIX=prefix)
    try:
        assert isinstance(first.extensions[throttle.EXTENSION].storage, RedisStorage)
        make_account(first)
        client = first.test_client()
        statuses = [login(client, password="guess").status_code for _ in range(_max(first) + 1)]
        assert statuses == [401] * _max(first) + [429]
        # Another worker sees the same counts.
        assert login(second.test_client()).status_code == 429
        for i in range(_address_limit(first)):
            login(client, f"user-{i}", "guess")
        assert login(second.test_client(), "user-1", "guess").status_code == 429
        with first.app_context():
            assert db.session.scalar(db.select(db.func.count()).select_from(LoginThrottle)) == 0
    finally:
        connection = redis.Redis.from_url(redis_url)
        for key in connection.scan_iter(f"*{prefix}*"):
            connection.delete(key)


# Deployment -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("environ", "allowed"),
    [
        ({}, ""),
        ({"FORWARDED_ALLOW_IPS": "10.0.0.5"}, ""),
        ({"PROXY_FIX": "1"}, "127.0.0.1,::1"),
        ({"PROXY_FIX": "1", "FORWARDED_ALLOW_IPS": "10.0.0.5"}, "10.0.0.5"),
    ],
)
def test_gunicorn_trusts_forwarded_headers_only_with_proxy_fix(
    tmp_path, monkeypatch, environ, allowed
):
    for name in ("PROXY_FIX", "FORWARDED_ALLOW_IPS"):
        monkeypatch.delenv(name, raising=False)
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("INSTANCE_PATH", str(tmp_path))
    conf = runpy.run_path(str(Path(__file__).resolve().parent.parent / "gunicorn.conf.py"))
    assert conf["forwarded_allow_ips"] == allowed
    assert conf["bind"] == "127.0.0.1:8000"


def test_with_the_limits_switched_off_logins_work_and_nothing_is_counted(make_app):
    """``RATELIMIT_ENABLED = False`` (a load test's setting): the page and the API log in, a
    wrong password is a plain 401 however often, and no counter is written."""
    app = make_app(RATELIMIT_ENABLED=False)
    make_account(app)
    client = app.test_client()
    answer = client.post("/api/v1/tokens", headers=basic("friday-club", PASSWORD))
    assert answer.status_code == 201, answer.text
    assert answer.get_json()["token"]
    for _ in range(_max(app) + 2):
        wrong = client.post("/api/v1/tokens", headers=basic("friday-club", "wrong guess"))
        assert wrong.status_code == 401, wrong.text
    assert login(client).status_code == 302
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(LoginThrottle)) == 0
