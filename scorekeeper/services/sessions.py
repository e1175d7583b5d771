"""Logins: one ``LoginSession`` row per browser that logged in, named by a random token.

Flask-Login keeps ``Account.get_id()`` in the session cookie and, for "stay logged in", in the
remember-me cookie; here that id is the login's token, never the account's id (Flask-Login's
"alternative tokens"). The user loader finds the account by the token's row, so ending a
login (deleting its row) makes every copy of that browser's cookies worthless at once: after
logging out, after "log out all other devices" or "log out everywhere", after a password
change (every login but the current one). A login unused for the remember-me days is void
too.
"""

from __future__ import annotations

import functools
import hashlib
import re
import secrets
from datetime import timedelta

import sqlalchemy as sa
from flask import current_app

from scorekeeper.extensions import db
from scorekeeper.models import Account
from scorekeeper.models import ApiToken
from scorekeeper.models import LoginSession
from scorekeeper.models import as_utc
from scorekeeper.models import utcnow

#: How stale "last seen" may get before a request writes it again (not every request writes).
SEEN_EVERY = timedelta(minutes=10)
#: A token longer than this is no token of ours: refused before any hashing or query.
TOKEN_MAX = 100

#: (pattern in the User-Agent, the name shown), first match wins: product names, not words.
BROWSERS = (
    (r"\bEdg(e|A|iOS)?/", "Edge"),
    (r"\bOPR/|\bOpera\b", "Opera"),
    (r"\bSamsungBrowser/", "Samsung Internet"),
    (r"\bFirefox/|\bFxiOS/", "Firefox"),
    (r"\bChromium/", "Chromium"),
    (r"\b(Headless)?Chrome/|\bCriOS/", "Chrome"),
    (r"\bSafari/", "Safari"),
)
SYSTEMS = (
    (r"\biPhone\b", "iPhone"),
    (r"\biPad\b", "iPad"),
    (r"\bAndroid\b", "Android"),
    (r"\bCrOS\b", "ChromeOS"),
    (r"\bWindows\b", "Windows"),
    (r"\bMac OS X\b|\bMacintosh\b", "macOS"),
    (r"\bLinux\b", "Linux"),
)


def device_of(user_agent: str | None) -> tuple[str, str]:
    """The browser and the system a User-Agent names ("" for what it does not say)."""
    text = (user_agent or "")[:512]

    def first(table: tuple[tuple[str, str], ...]) -> str:
        return next((name for pattern, name in table if re.search(pattern, text)), "")

    return first(BROWSERS), first(SYSTEMS)


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def _idle_limit() -> timedelta:
    """A login unused this long is over (the remember-me cookie's own lifetime)."""
    return timedelta(days=current_app.config["REMEMBER_COOKIE_DAYS"])


def _name(account: Account, login: LoginSession, token: str) -> Account:
    account.login, account.login_token = login, token
    return account


def start(account: Account, user_agent: str | None) -> Account:
    """A new login for this browser (call before ``login_user``): its row, and the token
    ``get_id`` gives Flask-Login. The account's logins unused too long are cleared away."""
    db.session.execute(
        sa.delete(LoginSession).where(
            LoginSession.account_id == account.id,
            LoginSession.last_seen_at < utcnow() - _idle_limit(),
        )
    )
    token = secrets.token_urlsafe(32)
    browser, system = device_of(user_agent)
    login = LoginSession(
        account_id=account.id, token_hash=_hash(token), browser=browser, system=system
    )
    db.session.add(login)
    db.session.commit()
    return _name(account, login, token)


@functools.cache
def _by_token() -> sa.Select:
    """The SELECT of ``load``, built once per process (building it on every request cost
    more than running it)."""
    return (
        sa.select(LoginSession, Account)
        .join(Account, Account.id == LoginSession.account_id)
        .where(LoginSession.token_hash == sa.bindparam("token_hash"))
    )


def load(token: str) -> Account | None:
    """The account of a login that still lasts (Flask-Login's user loader), or None: one
    query, and now and then one write of "last seen"."""
    if not isinstance(token, str) or not token or len(token) > TOKEN_MAX:
        return None
    found = db.session.execute(_by_token(), {"token_hash": _hash(token)}).first()
    if found is None:
        return None
    login, account = found
    now = utcnow()
    seen = as_utc(login.last_seen_at)
    if seen < now - _idle_limit():
        return None
    if now - seen > SEEN_EVERY:
        login.last_seen_at = now
        db.session.commit()
    return _name(account, login, token)


def renew(account: Account) -> Account:
    """A new token for the current login (same row): a copy of this browser's cookies taken
    before is worthless too. Call ``login_user`` again after it."""
    token = secrets.token_urlsafe(32)
    account.login.token_hash = _hash(token)
    db.session.commit()
    return _name(account, account.login, token)


def end(account: Account) -> None:
    """Log this browser out for good: its login is deleted."""
    if account.login is not None:
        db.session.execute(sa.delete(LoginSession).where(LoginSession.id == account.login.id))
        db.session.commit()


def end_one(account: Account, login_id: int) -> bool:
    """End another login of the account (a device on the account page); False when there was
    none (already over, or not this account's)."""
    ended = db.session.execute(
        sa.delete(LoginSession).where(
            LoginSession.id == login_id, LoginSession.account_id == account.id
        )
    ).rowcount
    db.session.commit()
    return bool(ended)


def _end_logins(account: Account, keep: LoginSession | None) -> None:
    """Every login of the account but ``keep`` ends, and every API token is revoked (apps
    and scripts log in again)."""
    ended = sa.delete(LoginSession).where(LoginSession.account_id == account.id)
    if keep is not None:
        ended = ended.where(LoginSession.id != keep.id)
    db.session.execute(ended)
    db.session.execute(sa.delete(ApiToken).where(ApiToken.account_id == account.id))


def end_others(account: Account, commit: bool = True) -> None:
    """Every login of the account but this one ends, and every API token is revoked: "log
    out all other devices", and a password change."""
    _end_logins(account, account.login)
    if commit:
        db.session.commit()


def end_everywhere(account: Account) -> None:
    """Every login of the account ends, this one too, and every API token is revoked: "log
    out everywhere"."""
    _end_logins(account, None)
    db.session.commit()


def logins(account: Account) -> list[LoginSession]:
    """The account's logins that still last, this one first, then the latest seen."""
    rows = db.session.scalars(
        sa.select(LoginSession)
        .where(
            LoginSession.account_id == account.id,
            LoginSession.last_seen_at >= utcnow() - _idle_limit(),
        )
        .order_by(LoginSession.last_seen_at.desc(), LoginSession.id.desc())
    ).all()
    current = account.login.id if account.login is not None else None
    return sorted(rows, key=lambda row: row.id != current)


def api_token_count(account: Account) -> int:
    return db.session.scalar(
        sa.select(sa.func.count(ApiToken.id)).where(ApiToken.account_id == account.id)
    )
