"""Accounts on the pages: sign up, log in, stay logged in, log out, throttling."""

from __future__ import annotations

import re
import time

import pytest

from scorekeeper.extensions import db
from scorekeeper.models import Account
from scorekeeper.models import LoginThrottle
from tests.conftest import PASSWORD
from tests.conftest import login
from tests.conftest import signup


def test_signup_logs_the_group_in_and_sends_it_to_the_roster(client, app):
    response = signup(client)
    assert response.status_code == 302
    assert response.headers["Location"].endswith("/players/")
    page = client.get("/players/")
    assert page.status_code == 200
    assert "Welcome, friday-club!" in page.text
    with app.app_context():
        account = db.session.scalar(db.select(Account))
        assert account.username == "friday-club"
        assert PASSWORD not in account.password_hash


@pytest.mark.parametrize(
    ("username", "password", "confirm", "message"),
    [
        ("ab", PASSWORD, PASSWORD, "Username must be 3 to 40 characters."),
        ("has space", PASSWORD, PASSWORD, "Username may use letters, digits"),
        ("friday-club", "short", "short", "Password must be at least 8 characters."),
        ("friday-club", PASSWORD, PASSWORD + "x", "The two passwords differ."),
    ],
)
def test_signup_refusals_say_why_and_keep_the_username(
    client, username, password, confirm, message
):
    response = client.post(
        "/signup", data={"username": username, "password": password, "confirm": confirm}
    )
    assert response.status_code == 422
    assert message in response.text
    assert f'value="{username}"' in response.text


def test_usernames_are_unique_ignoring_case(client, account):
    response = signup(client, "FRIDAY-CLUB")
    assert response.status_code == 422
    assert "The username “FRIDAY-CLUB” is taken." in response.text


def test_signup_can_be_switched_off(make_app):
    app = make_app(SIGNUP_ENABLED=False)
    client = app.test_client()
    assert "Sign-up is switched off" in client.get("/signup").text
    response = signup(client)
    assert response.status_code == 200
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(Account.id))) == 0


def test_login_with_wrong_password_keeps_the_username(client, account):
    response = login(client, password="wrong password")
    assert response.status_code == 401
    assert "Wrong username or password." in response.text
    assert 'value="friday-club"' in response.text


def test_login_ignores_case_and_remembers_the_phone(client, account):
    response = login(client, "Friday-Club", remember="y")
    assert response.status_code == 302
    cookies = response.headers.getlist("Set-Cookie")
    remember = next(c for c in cookies if c.startswith("remember_token="))
    assert "HttpOnly" in remember
    assert "SameSite=Lax" in remember
    assert "Expires=" in remember


def test_login_follows_next_only_within_the_site(client, account):
    response = client.post(
        "/login?next=https://evil.example/", data={"username": "friday-club", "password": PASSWORD}
    )
    assert response.headers["Location"] == "/"
    client.post("/logout")
    response = client.post(
        "/login?next=/players/", data={"username": "friday-club", "password": PASSWORD}
    )
    assert response.headers["Location"] == "/players/"


def test_pages_need_a_login(client):
    response = client.get("/players/")
    assert response.status_code == 302
    assert "/login" in response.headers["Location"]
    assert client.get("/").headers["Location"].endswith("/login")


def test_logout_ends_the_session(logged_in):
    assert logged_in.get("/players/").status_code == 200
    response = logged_in.post("/logout")
    assert response.status_code == 302
    assert logged_in.get("/players/").status_code == 302


def test_repeated_failed_logins_lock_the_name_for_a_while(client, account, app):
    for _ in range(app.config["LOGIN_MAX_FAILURES"]):
        assert login(client, password="guess").status_code == 401
    response = login(client)  # even the right password now waits
    assert response.status_code == 429
    assert re.search(
        r"Too many failed logins for this username\. Try again in \d+ minutes?\.", response.text
    )


def test_the_lock_ends_after_its_time(client, account, app):
    for _ in range(app.config["LOGIN_MAX_FAILURES"]):
        login(client, password="guess")
    assert login(client).status_code == 429
    with app.app_context():  # the window ends
        db.session.execute(db.update(LoginThrottle).values(expires_at=time.time() - 1))
        db.session.commit()
    assert login(client).status_code == 302
    with app.app_context():  # the username's counter is gone; the address's is still counting
        keys = list(db.session.scalars(db.select(LoginThrottle.key)))
        assert [key for key in keys if "login-username" in key] == []


def test_a_good_login_clears_earlier_failures(client, account, app):
    for _ in range(app.config["LOGIN_MAX_FAILURES"] - 1):
        login(client, password="guess")
    assert login(client).status_code == 302
    client.post("/logout")
    assert login(client, password="guess").status_code == 401
    assert login(client).status_code == 302


def test_create_account_command(runner, app):
    result = runner.invoke(args=["create-account", "cli-club"], input=f"{PASSWORD}\n{PASSWORD}\n")
    assert result.exit_code == 0, result.output
    assert "Created account cli-club." in result.output


def test_an_empty_sign_up_names_both_fields(client):
    import re

    response = client.post("/signup", data={"username": "", "password": "", "confirm": ""})
    assert response.status_code == 422
    errors = re.findall(r'class="error"[^>]*>([^<]*)<', response.text)
    assert any("Username" in error for error in errors)
    assert any("Password" in error for error in errors), errors
