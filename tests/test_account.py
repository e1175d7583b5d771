"""Logins that end for good, and the account page (issue 27, item 7; item 22's "Log out").

Each browser's login is a row (``LoginSession``) that its cookies name by a token: logging
out, "log out all other devices" and a password change delete rows, and a cookie copied
before then logs in no more, whether the session cookie or the remember-me cookie alone.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest

from scorekeeper.extensions import db
from scorekeeper.models import LoginSession
from scorekeeper.models import utcnow
from scorekeeper.services.sessions import device_of
from tests.conftest import PASSWORD
from tests.conftest import Api
from tests.conftest import login
from tests.conftest import new_token

IPHONE = (
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 "
    "(KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1"
)
ANDROID = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/126.0.0.0 Mobile Safari/537.36"
)
WINDOWS_FIREFOX = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0"
NEW_PASSWORD = "a brand new passphrase"


def phone(app, user_agent: str | None = None, remember: str | None = "y"):
    """A client that logged in (as another phone, when given its User-Agent)."""
    client = app.test_client()
    if user_agent:
        client.environ_base["HTTP_USER_AGENT"] = user_agent
    extra = {"remember": remember} if remember else {}
    assert login(client, **extra).status_code == 302
    return client


def copy_of(client, *names: str):
    """Another browser holding copies of ``client``'s cookies (only those named)."""
    thief = client.application.test_client()
    for name in names:
        cookie = client.get_cookie(name)
        assert cookie is not None, name
        thief.set_cookie(name, cookie.value)
    return thief


def is_logged_in(client) -> bool:
    response = client.get("/players/")
    assert response.status_code in (200, 302)
    return response.status_code == 200


def change_password(client, current=PASSWORD, new=NEW_PASSWORD, again=None):
    return client.post(
        "/account/password",
        data={"current": current, "password": new, "confirm": new if again is None else again},
    )


@pytest.mark.parametrize(
    "cookies", [("session",), ("remember_token",), ("session", "remember_token")]
)
def test_cookies_copied_before_logout_no_longer_log_in(app, account, cookies):
    owner = phone(app)
    before = copy_of(owner, *cookies)
    assert is_logged_in(copy_of(owner, *cookies))  # a copy works while the login lasts
    assert owner.post("/logout").status_code == 302
    assert not is_logged_in(owner)
    assert not is_logged_in(before)
    assert not is_logged_in(copy_of(owner, *[n for n in cookies if owner.get_cookie(n)]))
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(LoginSession.id))) == 0


def test_the_cookies_carry_a_token_not_the_account_id(app, account):
    owner = phone(app)
    remember = owner.get_cookie("remember_token").value
    token = remember.partition("|")[0]
    assert token != str(account.id)
    assert len(token) >= 40


def test_a_password_change_ends_every_other_login_but_keeps_this_one(app, account):
    here, elsewhere = phone(app), phone(app, ANDROID)
    copied_here = copy_of(here, "remember_token")
    copied_elsewhere = copy_of(elsewhere, "session", "remember_token")
    token = new_token(app.test_client())
    response = change_password(here)
    assert response.status_code == 302
    assert response.headers["Location"].endswith("/account")
    page = here.get("/account")
    assert page.status_code == 200
    assert "Password changed. Every other device is logged out." in page.text
    assert is_logged_in(here)
    assert not is_logged_in(elsewhere)
    assert not is_logged_in(copied_elsewhere)
    # This phone got a new token: a copy of its cookies taken before the change is over too.
    assert not is_logged_in(copied_here)
    assert is_logged_in(copy_of(here, "remember_token"))
    # API tokens were made with the old password: they are revoked.
    assert Api(app.test_client(), token).get("/players").status_code == 401
    assert login(app.test_client()).status_code == 401
    assert login(app.test_client(), password=NEW_PASSWORD).status_code == 302


def test_a_password_change_keeps_this_browser_a_known_device(app, account):
    here = phone(app)
    response = change_password(here)
    known = [c for c in response.headers.getlist("Set-Cookie") if c.startswith("known_device=")]
    assert known and "Path=/login" in known[0]


def test_a_wrong_current_password_changes_nothing_and_says_so(app, account):
    here, elsewhere = phone(app), phone(app, ANDROID)
    response = change_password(here, current="not my password")
    assert response.status_code == 422
    assert "That is not your current password." in response.text
    # No password typed comes back in the page.
    assert "not my password" not in response.text
    assert NEW_PASSWORD not in response.text
    assert re.findall(r'<input[^>]+type="password"[^>]*>', response.text)
    for field in re.findall(r'<input[^>]+type="password"[^>]*>', response.text):
        assert 'value="' not in field or 'value=""' in field, field
    assert is_logged_in(here) and is_logged_in(elsewhere)
    assert login(app.test_client()).status_code == 302


@pytest.mark.parametrize(
    ("new", "again", "message"),
    [
        ("short", "short", "Password must be at least 8 characters."),
        (NEW_PASSWORD, NEW_PASSWORD + "x", "The two passwords differ."),
    ],
)
def test_the_new_password_follows_the_sign_up_rules(app, account, new, again, message):
    here, elsewhere = phone(app), phone(app, ANDROID)
    response = change_password(here, new=new, again=again)
    assert response.status_code == 422
    assert message in response.text
    assert is_logged_in(elsewhere)
    assert login(app.test_client()).status_code == 302


def test_a_password_change_without_its_fields_is_refused_not_a_500(app, account):
    here = phone(app)
    response = here.post("/account/password", data={})
    assert response.status_code in (400, 422)
    assert "That is not your current password." in response.text


def test_guessing_the_current_password_is_stopped(app, account):
    here = phone(app)
    for _ in range(app.config["LOGIN_MAX_FAILURES"]):
        assert change_password(here, current="guess").status_code == 422
    response = change_password(here)  # even the right one now waits
    assert response.status_code == 429
    assert "Too many wrong passwords. Try again in" in response.text
    assert response.headers["Retry-After"]
    # The login page is not locked by it: the owner's other phones still log in.
    assert login(app.test_client()).status_code == 302


def test_log_out_all_other_devices(app, account):
    here, second, third = phone(app), phone(app, ANDROID), phone(app, IPHONE, remember=None)
    token = new_token(app.test_client())
    response = here.post("/account/logout-others")
    assert response.status_code == 302
    assert "Every other device is logged out." in here.get("/account").text
    assert is_logged_in(here)
    assert not is_logged_in(second)
    assert not is_logged_in(third)
    assert Api(app.test_client(), token).get("/players").status_code == 401
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(LoginSession.id))) == 1


def test_log_out_everywhere_ends_every_login_this_one_too(app, account):
    here, second = phone(app), phone(app, ANDROID)
    copied_here = copy_of(here, "session", "remember_token")
    token = new_token(app.test_client())
    assert "Log out everywhere" in here.get("/account").text
    response = here.post("/account/logout-everywhere")
    assert response.status_code == 302
    assert response.headers["Location"].endswith("/login")
    assert "Logged out everywhere." in here.get("/login").text
    for client in (here, second, copied_here):
        assert not is_logged_in(client)
    assert Api(app.test_client(), token).get("/players").status_code == 401
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(LoginSession.id))) == 0
    assert is_logged_in(phone(app))  # the password still logs in


def test_the_account_page_lists_the_devices_and_marks_this_one(app, account):
    phone(app, ANDROID)
    phone(app, WINDOWS_FIREFOX)
    here = phone(app, IPHONE)
    page = here.get("/account")
    assert page.status_code == 200
    devices = re.search(r'<ul class="roster devices">.*?</ul>', page.text, re.S).group(0)
    rows = re.findall(r"<li[ >].*?</li>", devices, re.S)
    names = [re.search(r'class="name"[^>]*>([^<]*)<', row).group(1) for row in rows]
    # This phone first, then the others, the last used first.
    assert names == ["Safari on iPhone", "Firefox on Windows", "Chrome on Android"]
    assert "This phone" in rows[0] and 'aria-current="true"' in rows[0]
    assert all("This phone" not in row for row in rows[1:])
    assert "Logged in as friday-club." in page.text
    # This phone's row has no button; each other one has its own.
    assert "/logout" not in rows[0]
    assert all("/account/devices/" in row for row in rows[1:])
    assert "Log out all other devices" in page.text
    assert "Change password" in page.text


def test_one_other_device_can_be_logged_out(app, account):
    here, lost = phone(app), phone(app, ANDROID)
    with app.app_context():
        lost_id = db.session.scalar(
            db.select(LoginSession.id).where(LoginSession.system == "Android")
        )
    response = here.post(f"/account/devices/{lost_id}/logout")
    assert response.status_code == 302
    assert "That device is logged out." in here.get("/account").text
    assert not is_logged_in(lost)
    assert is_logged_in(here)
    # Again (or another account's device): nothing to end, and it says so.
    here.post(f"/account/devices/{lost_id}/logout")
    assert "That device is no longer logged in." in here.get("/account").text


def test_another_accounts_device_cannot_be_logged_out(app, account):
    from tests.conftest import make_account

    make_account(app, "other-table")
    stranger = app.test_client()
    assert login(stranger, "other-table").status_code == 302
    with app.app_context():
        theirs = db.session.scalar(db.select(LoginSession.id))
    here = phone(app)
    here.post(f"/account/devices/{theirs}/logout")
    assert is_logged_in(stranger)


def test_a_login_unused_for_the_remember_days_is_over(app, account):
    owner = phone(app)
    with app.app_context():
        days = app.config["REMEMBER_COOKIE_DAYS"]
        db.session.execute(
            db.update(LoginSession).values(last_seen_at=utcnow() - timedelta(days=days, hours=1))
        )
        db.session.commit()
    assert not is_logged_in(owner)


def test_last_used_is_written_now_and_then(app, account):
    owner = phone(app)
    long_ago = utcnow() - timedelta(days=3)
    with app.app_context():
        db.session.execute(db.update(LoginSession).values(last_seen_at=long_ago))
        db.session.commit()
    assert is_logged_in(owner)
    with app.app_context():
        seen = db.session.scalar(db.select(LoginSession.last_seen_at))
        assert seen.replace(tzinfo=None) > (utcnow() - timedelta(minutes=1)).replace(tzinfo=None)


def test_the_top_bar_links_the_account_page_instead_of_logging_out(app, account):
    owner = phone(app)
    home = owner.get("/")
    bar = re.search(r'<header class="topbar">.*?</header>', home.text, re.S).group(0)
    assert 'href="/account"' in bar
    assert "/logout" not in bar
    assert "Log out" not in bar


def test_every_account_form_needs_its_csrf_token(make_app):
    from tests.conftest import make_account

    app = make_app(WTF_CSRF_ENABLED=True)
    make_account(app)

    def with_token(user_agent=None):
        client = app.test_client()
        client.environ_base["HTTP_USER_AGENT"] = user_agent or "test"
        page = client.get("/login").text
        token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
        assert login(client, csrf_token=token.group(1)).status_code == 302
        return client

    here, elsewhere = with_token(), with_token(ANDROID)
    for action, data in [
        ("/logout", {}),
        ("/account/logout-others", {}),
        ("/account/logout-everywhere", {}),
        (
            "/account/password",
            {"current": PASSWORD, "password": NEW_PASSWORD, "confirm": NEW_PASSWORD},
        ),
        ("/account/devices/1/logout", {}),
        ("/account/devices/2/logout", {}),
    ]:
        assert here.post(action, data=data).status_code == 400, action
    assert is_logged_in(here) and is_logged_in(elsewhere)


@pytest.mark.parametrize(
    ("user_agent", "device"),
    [
        (IPHONE, ("Safari", "iPhone")),
        (ANDROID, ("Chrome", "Android")),
        (WINDOWS_FIREFOX, ("Firefox", "Windows")),
        (
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
            "Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0",
            ("Edge", "Windows"),
        ),
        (
            "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0",
            ("Firefox", "Linux"),
        ),
        (
            "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
            "HeadlessChrome/120.0.6099.28 Safari/537.36",
            ("Chrome", "Linux"),
        ),
        ("curl/8.5.0", ("", "")),
        ("", ("", "")),
        (None, ("", "")),
    ],
)
def test_the_device_names_come_from_the_user_agent(user_agent, device):
    assert device_of(user_agent) == device
