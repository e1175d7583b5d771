"""Accounts, passwords, login throttling, known devices and API tokens (the logins of each
browser are in ``sessions``)."""

from __future__ import annotations

import functools
import hashlib
import hmac
import secrets

import sqlalchemy as sa
from flask import Flask
from flask import current_app
from itsdangerous import BadData
from itsdangerous import URLSafeTimedSerializer
from werkzeug.security import check_password_hash
from werkzeug.security import generate_password_hash

from scorekeeper import throttle
from scorekeeper.errors import Problem
from scorekeeper.errors import Refusal
from scorekeeper.extensions import db
from scorekeeper.games.i18n import _
from scorekeeper.games.i18n import ngettext
from scorekeeper.i18n import duration
from scorekeeper.models import Account
from scorekeeper.models import ApiToken
from scorekeeper.services import sessions
from scorekeeper.text import normalize_line
from scorekeeper.text import text_key

USERNAME_MIN = 3
USERNAME_MAX = 40
PASSWORD_MIN = 8
PASSWORD_MAX = 200


DUMMY_HASH = "scorekeeper.dummy_password_hash"
KNOWN_DEVICE_SALT = "scorekeeper.known-device"


def init_app(app: Flask) -> None:
    """Made once: the hash that a login for an unknown username is checked against."""
    method = app.config["PASSWORD_HASH_METHOD"]
    app.extensions[DUMMY_HASH] = generate_password_hash(secrets.token_urlsafe(16), method=method)


def _hash_password(password: str) -> str:
    return generate_password_hash(password, method=current_app.config["PASSWORD_HASH_METHOD"])


def _dummy_hash() -> str:
    """A hash of the configured method and cost that no password matches."""
    found = current_app.extensions.get(DUMMY_HASH)
    if found is None:
        init_app(current_app)
        found = current_app.extensions[DUMMY_HASH]
    return found


def username_key(username: str) -> str:
    """Logins and uniqueness ignore case, width (``ｆｒｉｄａｙ``) and Unicode forms."""
    return text_key(username)


def check_username(username: object) -> str:
    """The username in NFKC form, or a refusal (length, characters, invisible ones)."""
    username = normalize_line(username, _("Username"), "username")
    if not USERNAME_MIN <= len(username) <= USERNAME_MAX:
        raise Refusal(
            "name_invalid",
            _(
                "Username must be %(low)s to %(high)s characters.",
                low=USERNAME_MIN,
                high=USERNAME_MAX,
            ),
            "username",
        )
    if not all(ch.isalnum() or ch in "._-" for ch in username):
        raise Refusal(
            "name_invalid",
            _("Username may use letters, digits, dots, dashes and underscores only."),
            "username",
        )
    return username


def check_password(password: object) -> str:
    if not isinstance(password, str):
        raise Refusal("wrong_type", _("Password must be text."), "password")
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise Refusal(
            "password_invalid",
            ngettext(
                "Password must be at least %(num)s character.",
                "Password must be at least %(num)s characters.",
                PASSWORD_MIN,
            ),
            "password",
        )
    return password


def create_account(username: object, password: object) -> Account:
    """Sign a group up; refuses a taken name or a short password."""
    if not current_app.config["SIGNUP_ENABLED"]:
        raise Refusal("signup_disabled", _("Sign-up is switched off on this server."))
    problems = []
    checked = {}
    for field, check, value in (
        ("username", check_username, username),
        ("password", check_password, password),
    ):
        try:
            checked[field] = check(value)
        except Refusal as refusal:  # every problem at once: an empty form names both fields
            problems += refusal.problems
    if problems:
        raise Refusal.of(problems)
    username, password = checked["username"], checked["password"]
    key = username_key(username)
    if db.session.scalar(sa.select(Account.id).where(Account.username_key == key)):
        raise Refusal(
            "name_taken", _("The username “%(name)s” is taken.", name=username), "username"
        )
    account = Account(username=username, username_key=key, password_hash=_hash_password(password))
    db.session.add(account)
    try:
        db.session.commit()
    except sa.exc.IntegrityError:  # someone took it a moment ago
        db.session.rollback()
        raise Refusal(
            "name_taken", _("The username “%(name)s” is taken.", name=username), "username"
        ) from None
    return account


# Logging in ---------------------------------------------------------------------------------


def _login_key(username: str) -> str:
    """The key a typed username is looked up by (it may hold anything: never refused here)."""
    return text_key(username)


def _bucket_id(text: str) -> str:
    """A counter's name for a username or device: fixed length, any characters."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def authenticate(username: object, password: object, known_device: str | None = None) -> Account:
    """The account for these credentials, or a refusal: 401 wrong ones, 429 too many attempts.

    Attempts are counted per username, or per device when ``known_device`` (the cookie a
    successful login on this browser left, see ``known_device_token``) is valid for this
    username: a stranger's guesses never slow its owner's own phone. The count is taken
    atomically *before* the password is checked, so a burst of concurrent guesses gets at most
    the limit's number of checks. Exactly one password hash is computed whether or not the
    username exists (an unknown one is checked against a dummy hash), so neither the answer
    nor its timing tells which usernames exist.
    """
    if not isinstance(username, str) or not isinstance(password, str):
        raise Refusal("unauthorized", _(_("Wrong username or password.")))
    key = _login_key(username)
    account = db.session.scalar(sa.select(Account).where(Account.username_key == key))
    device = _device_of(known_device, account)
    stored = account.password_hash if account is not None else _dummy_hash()
    # End the read before counting: the counters take a connection of their own, which this
    # request must not wait for while holding one (twenty logins at once would drain the pool).
    db.session.commit()
    if device is not None:
        bucket, ident = "device", device
    else:
        bucket, ident = "username", _bucket_id(key)
    wait = throttle.hit_login(bucket, ident)
    if wait is not None:
        if bucket == "device":
            message = _(
                "Too many failed logins on this device. Try again in %(wait)s.",
                wait=duration(wait),
            )
        else:
            message = _(
                "Too many failed logins for this username. Try again in %(wait)s.",
                wait=duration(wait),
            )
        raise throttle.TooManyAttempts(message, wait)
    if not check_password_hash(stored, password) or account is None:
        raise Refusal("unauthorized", _(_("Wrong username or password.")))
    throttle.clear_login(bucket, ident)
    return account


def change_password(account: Account, current: object, new: object, again: object) -> None:
    """A new password, given the current one: every other login and every API token ends
    (``sessions.end_others``), this one stays. Wrong guesses of the current password are
    counted per account, as logins are per username (``LOGIN_MAX_FAILURES``), in a count of
    their own: a stranger holding a stolen session cannot guess on, nor lock the login out."""
    problems = []
    try:
        check_password(new)
    except Refusal as refusal:
        problems += refusal.problems
    else:
        if again != new:
            problems.append(Problem("password_invalid", _("The two passwords differ."), "confirm"))
    ident = _bucket_id(str(account.id))
    db.session.commit()  # end the read before counting (see ``authenticate``)
    wait = throttle.hit_login("password", ident)
    if wait is not None:
        raise throttle.TooManyAttempts(
            _("Too many wrong passwords. Try again in %(wait)s.", wait=duration(wait)), wait
        )
    if not isinstance(current, str) or not check_password_hash(account.password_hash, current):
        problems.insert(
            0, Problem("wrong_password", _("That is not your current password."), "current")
        )
    else:
        throttle.clear_login("password", ident)
    if problems:
        raise Refusal.of(problems)
    account.password_hash = _hash_password(new)
    sessions.end_others(account)


# Known devices: a signed cookie a successful login leaves in the browser ----------------------


def _devices() -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(current_app.secret_key, salt=KNOWN_DEVICE_SALT)


def _password_mark(account: Account) -> str:
    """Changes with the password: a new password forgets every known device."""
    secret = current_app.secret_key.encode()
    return hmac.new(secret, account.password_hash.encode(), hashlib.sha256).hexdigest()[:16]


def _device_claims(token: str | None) -> dict | None:
    if not token:
        return None
    max_age = current_app.config["KNOWN_DEVICE_DAYS"] * 24 * 3600
    try:
        claims = _devices().loads(token, max_age=max_age)
    except BadData:
        return None
    return claims if isinstance(claims, dict) else None


def _device_of(token: str | None, account: Account | None) -> str | None:
    """The device id of a valid known-device token of this account (same password), or None."""
    claims = _device_claims(token)
    if claims is None or account is None:
        return None
    if claims.get("a") != account.id or claims.get("p") != _password_mark(account):
        return None
    device = claims.get("d")
    return device if isinstance(device, str) else None


def is_known_device(token: str | None, username: object) -> bool:
    """Whether the token is a valid known-device token for this username (signature, age and
    username only: no database look-up)."""
    claims = _device_claims(token)
    return (
        claims is not None and isinstance(username, str) and claims.get("u") == _login_key(username)
    )


def known_device_token(account: Account, previous: str | None = None) -> str:
    """The cookie value that makes this browser a known device for the account (the same
    device id again when it already was one)."""
    device = _device_of(previous, account) or secrets.token_urlsafe(12)
    claims = {"u": account.username_key, "a": account.id, "d": device, "p": _password_mark(account)}
    return _devices().dumps(claims)


def _hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def issue_token(account: Account) -> str:
    """A new bearer token; only its hash is stored."""
    token = secrets.token_urlsafe(32)
    db.session.add(ApiToken(account_id=account.id, token_hash=_hash_token(token)))
    db.session.commit()
    return token


@functools.cache
def _by_token() -> sa.Select:
    """The SELECT of ``account_for_token``, built once per process: building it on every
    request cost more than running it (about 0.1 ms a request)."""
    return (
        sa.select(Account)
        .join(ApiToken, ApiToken.account_id == Account.id)
        .where(ApiToken.token_hash == sa.bindparam("token_hash"))
    )


def account_for_token(token: str) -> Account | None:
    """The account a bearer token belongs to (one query), or None."""
    return db.session.scalar(_by_token(), {"token_hash": _hash_token(token)})


def revoke_token(token: str) -> None:
    db.session.execute(sa.delete(ApiToken).where(ApiToken.token_hash == _hash_token(token)))
    db.session.commit()
