"""Accounts, passwords, login throttling and API tokens."""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

import sqlalchemy as sa
from flask import current_app
from werkzeug.security import check_password_hash
from werkzeug.security import generate_password_hash

from scorekeeper.errors import Refusal
from scorekeeper.extensions import db
from scorekeeper.models import Account
from scorekeeper.models import ApiToken
from scorekeeper.models import LoginThrottle
from scorekeeper.models import as_utc
from scorekeeper.models import utcnow
from scorekeeper.text import normalize_line
from scorekeeper.text import text_key

USERNAME_MIN = 3
USERNAME_MAX = 40
PASSWORD_MIN = 8
PASSWORD_MAX = 200


def _hash_password(password: str) -> str:
    return generate_password_hash(password, method=current_app.config["PASSWORD_HASH_METHOD"])


def _check_unknown_user_password(password: str) -> None:
    """Spend the time a real check takes, so a missing username is not told apart."""
    check_password_hash(_hash_password("not a real password"), password)


def username_key(username: str) -> str:
    """Logins and uniqueness ignore case, width (``ｆｒｉｄａｙ``) and Unicode forms."""
    return text_key(username)


def check_username(username: object) -> str:
    """The username in NFKC form, or a refusal (length, characters, invisible ones)."""
    username = normalize_line(username, "Username", "username")
    if not USERNAME_MIN <= len(username) <= USERNAME_MAX:
        raise Refusal(
            "name_invalid",
            f"Username must be {USERNAME_MIN} to {USERNAME_MAX} characters.",
            "username",
        )
    if not all(ch.isalnum() or ch in "._-" for ch in username):
        raise Refusal(
            "name_invalid",
            "Username may use letters, digits, dots, dashes and underscores only.",
            "username",
        )
    return username


def check_password(password: object) -> str:
    if not isinstance(password, str):
        raise Refusal("wrong_type", "Password must be text.", "password")
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise Refusal(
            "password_invalid",
            f"Password must be at least {PASSWORD_MIN} characters.",
            "password",
        )
    return password


def create_account(username: object, password: object) -> Account:
    """Sign a group up; refuses a taken name or a short password."""
    if not current_app.config["SIGNUP_ENABLED"]:
        raise Refusal("signup_disabled", "Sign-up is switched off on this server.")
    username = check_username(username)
    password = check_password(password)
    key = username_key(username)
    if db.session.scalar(sa.select(Account.id).where(Account.username_key == key)):
        raise Refusal("name_taken", f"The username “{username}” is taken.", "username")
    account = Account(username=username, username_key=key, password_hash=_hash_password(password))
    db.session.add(account)
    try:
        db.session.commit()
    except sa.exc.IntegrityError:  # someone took it a moment ago
        db.session.rollback()
        raise Refusal("name_taken", f"The username “{username}” is taken.", "username") from None
    return account


def _throttle_refusal(locked_until) -> Refusal:
    minutes = max(1, int((as_utc(locked_until) - utcnow()).total_seconds() + 59) // 60)
    unit = "minute" if minutes == 1 else "minutes"
    return Refusal(
        "too_many_attempts",
        f"Too many failed logins for this username. Try again in {minutes} {unit}.",
    )


def authenticate(username: object, password: object) -> Account:
    """The account for these credentials; refuses wrong ones and locks after repeats."""
    if not isinstance(username, str) or not isinstance(password, str):
        raise Refusal("unauthorized", "Wrong username or password.")
    key = username_key(username)[:USERNAME_MAX]
    throttle = db.session.get(LoginThrottle, key)
    if throttle and throttle.locked_until and as_utc(throttle.locked_until) > utcnow():
        raise _throttle_refusal(throttle.locked_until)
    account = db.session.scalar(sa.select(Account).where(Account.username_key == key))
    if account is not None and check_password_hash(account.password_hash, password):
        if throttle is not None:
            db.session.delete(throttle)
            db.session.commit()
        return account
    if account is None:
        _check_unknown_user_password(password)
    _record_failure(key, throttle)
    raise Refusal("unauthorized", "Wrong username or password.")


def _record_failure(key: str, throttle: LoginThrottle | None) -> None:
    config = current_app.config
    if throttle is None:
        throttle = LoginThrottle(username_key=key, failures=0)
        db.session.add(throttle)
    if throttle.locked_until and as_utc(throttle.locked_until) <= utcnow():
        throttle.failures = 0
        throttle.locked_until = None
    throttle.failures += 1
    if throttle.failures >= config["LOGIN_MAX_FAILURES"]:
        throttle.locked_until = utcnow() + timedelta(minutes=config["LOGIN_LOCK_MINUTES"])
    try:
        db.session.commit()
    except sa.exc.IntegrityError:  # two failures at once: the other one counted
        db.session.rollback()


def _hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def issue_token(account: Account) -> str:
    """A new bearer token; only its hash is stored."""
    token = secrets.token_urlsafe(32)
    db.session.add(ApiToken(account_id=account.id, token_hash=_hash_token(token)))
    db.session.commit()
    return token


def account_for_token(token: str) -> Account | None:
    row = db.session.scalar(sa.select(ApiToken).where(ApiToken.token_hash == _hash_token(token)))
    return row.account if row else None


def revoke_token(token: str) -> None:
    db.session.execute(sa.delete(ApiToken).where(ApiToken.token_hash == _hash_token(token)))
    db.session.commit()
