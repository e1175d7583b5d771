"""Login throttling: how many login attempts a client address, a username, a device may make.

Two layers, both counted before any password is checked, in one storage that every gunicorn
worker (and host) shares:

- **Per client address** (IPv6: per /64), any username, on the login page and on the API's
  ``POST /api/v1/tokens`` together: ``LOGIN_ADDRESS_LIMIT`` ("20 per 10 minutes"). It is a
  Flask-Limiter shared limit that ``init_app`` attaches to those two views; a breach answers
  429 ``too_many_attempts`` (the page: the login form again, with the message and the username
  typed). Behind a proxy the address is the proxy's unless ``PROXY_FIX=1``.
- **Per username**, any address: ``LOGIN_MAX_FAILURES`` in ``LOGIN_LOCK_MINUTES``, counted by
  ``services.accounts.authenticate``. An attempt from a *known device* (a browser holding the
  signed cookie a successful login left for that username) is counted per device instead: a
  stranger's wrong guesses slow the username down for strangers only, never its owner's phone.

Storage: Redis when ``REDIS_URL`` is set (Flask-Limiter's redis storage: one atomic Lua
INCR+EXPIRE per hit), else the app's own database (``scorekeeper+db://``, one atomic upsert
per hit, see ``throttle_storage``). Never the in-memory storage: each worker would count alone.
"""

from __future__ import annotations

import ipaddress
import math
import time
from collections.abc import Callable

from flask import Flask
from flask import Response
from flask import current_app
from flask import jsonify
from flask import make_response
from flask import request
from flask_limiter import Limiter
from limits import RateLimitItemPerMinute

from scorekeeper import throttle_storage  # noqa: F401 - registers the scorekeeper+db:// storage
from scorekeeper.errors import Problem
from scorekeeper.errors import Refusal

EXTENSION = "scorekeeper.limiter"
REFUSED_PAGE = "scorekeeper.limiter.refused_page"
#: The views that check passwords: one shared address limit for both.
LOGIN_ENDPOINTS = ("auth.login", "api.create_token")
#: Flask-Limiter's settings that would limit views besides the login ones (none is set by the
#: app; an instance's config.py could).
LIMITS_FOR_EVERY_VIEW = ("RATELIMIT_DEFAULT", "RATELIMIT_APPLICATION", "RATELIMIT_META")
DATABASE_STORAGE = "scorekeeper+db://"


class TooManyAttempts(Refusal):
    """429 ``too_many_attempts``; ``retry_after`` (seconds) becomes the Retry-After header."""

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__("too_many_attempts", message)
        self.retry_after = max(1, math.ceil(retry_after))


def wait_words(seconds: float) -> str:
    """ "1 minute", "7 minutes": how long to wait, rounded up to whole minutes."""
    minutes = max(1, math.ceil(seconds / 60))
    return f"{minutes} minute" if minutes == 1 else f"{minutes} minutes"


def storage_uri(config) -> str:
    """Redis when REDIS_URL is set, else RATELIMIT_STORAGE_URI, else the app's database."""
    return config.get("REDIS_URL") or config.get("RATELIMIT_STORAGE_URI") or DATABASE_STORAGE


def client_address() -> str:
    """The client's address as the app sees it (the proxy's own, unless PROXY_FIX is on).

    An IPv6 client usually holds a whole /64: it counts as one address.
    """
    raw = request.remote_addr or "unknown"
    try:
        address = ipaddress.ip_address(raw)
    except ValueError:
        return raw
    if address.version == 6:
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


def limiter() -> Limiter:
    return current_app.extensions[EXTENSION]


def _login_item() -> RateLimitItemPerMinute:
    config = current_app.config
    return RateLimitItemPerMinute(config["LOGIN_MAX_FAILURES"], config["LOGIN_LOCK_MINUTES"])


def _identifiers(bucket: str, ident: str) -> tuple[str, ...]:
    return (current_app.config["RATELIMIT_KEY_PREFIX"], f"login-{bucket}", ident)


def hit_login(bucket: str, ident: str) -> float | None:
    """Count one attempt for a username or device (atomically, before the password is
    checked). None when it may go on, else the seconds until it may try again; always None
    when the limits are switched off (``RATELIMIT_ENABLED = False``: nothing is counted)."""
    if not limiter().enabled:
        return None
    strategy = limiter().limiter
    item = _login_item()
    if strategy.hit(item, *_identifiers(bucket, ident)):
        return None
    reset, _remaining = strategy.get_window_stats(item, *_identifiers(bucket, ident))
    return max(1.0, reset - time.time())


def clear_login(bucket: str, ident: str) -> None:
    """A successful login: the username's (or device's) earlier attempts are forgotten."""
    if limiter().enabled:
        limiter().limiter.clear(_login_item(), *_identifiers(bucket, ident))


def _address_refused(limit):
    """The answer to a client address over its limit: JSON for the API, else the page's
    answer (the login form again: ``init_app``'s ``refused_page``)."""
    wait = max(1.0, limit.reset_at - time.time())
    from scorekeeper.games.i18n import _
    from scorekeeper.i18n import duration

    message = _(
        "Too many login attempts from your network. Try again in %(wait)s.", wait=duration(wait)
    )
    if request.path.startswith("/api/"):
        from scorekeeper.api.schemas import Errors

        response = jsonify(
            Errors.of([Problem("too_many_attempts", message)]).model_dump(mode="json")
        )
        response.status_code = 429
    else:
        response = current_app.extensions[REFUSED_PAGE](message)
    response.headers["Retry-After"] = str(math.ceil(wait))
    return response


def _plain_refused(message: str) -> Response:
    return make_response(message, 429)


def init_app(
    app: Flask,
    *,
    exempt_when: Callable[[], bool] = lambda: False,
    refused_page: Callable[[str], Response] | None = None,
) -> None:
    """The limiter and its storage; the address limit on the login views (registered
    already: this runs after the blueprints). ``exempt_when`` tells a request the address
    limit does not apply to (a known device logging in to its own username) and
    ``refused_page(message)`` answers a page over the limit with status 429 (both given by the
    views: this module imports none of them)."""
    app.extensions[REFUSED_PAGE] = refused_page or _plain_refused
    extension = Limiter(
        key_func=client_address,
        storage_uri=storage_uri(app.config),
        strategy="fixed-window",
        key_prefix=app.config["RATELIMIT_KEY_PREFIX"],
        headers_enabled=False,
    )
    extension.init_app(app)
    app.extensions[EXTENSION] = extension
    address_limit = extension.shared_limit(
        lambda: current_app.config["LOGIN_ADDRESS_LIMIT"],
        scope="login",
        methods=["POST"],
        exempt_when=exempt_when,
        on_breach=_address_refused,
    )
    for endpoint in LOGIN_ENDPOINTS:
        view = app.view_functions.get(endpoint)
        if view is not None:
            app.view_functions[endpoint] = address_limit(view)
    if not any(app.config.get(name) for name in LIMITS_FOR_EVERY_VIEW):
        # Only the login views have a limit: every other request skips the limiter's lookup
        # of its view's limits at once (about 0.2 ms a request, every save).
        extension.request_filter(lambda: request.endpoint not in LOGIN_ENDPOINTS)
