"""Small helpers the views share: form checks, the page-number reader, API tokens."""

from __future__ import annotations

import unicodedata
from functools import wraps
from urllib.parse import urlsplit

from flask import Response
from flask import abort
from flask import current_app
from flask import g
from flask import request
from flask import url_for

from scorekeeper.errors import Refusal
from scorekeeper.forms import ActionForm
from scorekeeper.games.i18n import _
from scorekeeper.services import accounts

#: A script saving a form in place asks for the page's main part only (``X-Fragment: 1``).
FRAGMENT_HEADER = "X-Fragment"
#: ... and, saving a hand, the version of the game its page shows: the answer's sheet then
#: holds the lines from that hand on only, which the script merges (``views.games.saved``).
SHEET_ROWS_HEADER = "X-Sheet-Rows"


def wants_fragment() -> bool:
    return request.headers.get(FRAGMENT_HEADER) == "1"


def absolute_url(endpoint: str, **values) -> str:
    """A link to give away (a share link, its QR code): on ``PUBLIC_URL`` when it is set, so
    a forged Host header can never put another site in it; else the request's address."""
    public = current_app.config.get("PUBLIC_URL")
    if public:
        return public.rstrip("/") + url_for(endpoint, **values)
    return url_for(endpoint, **values, _external=True)


def safe_next(target: str | None) -> str:
    """Where a ``next`` may lead: a path on this site, as it was given; anything else (another
    host, ``//host``, a backslash, which browsers read as a slash, or a control character,
    which the browser or the header writer drops, so ``/%09/evil.example`` (a tab) would become
    ``//evil.example``) leads home instead. The one check for every ``next`` in the app."""
    if (
        isinstance(target, str)
        and target.startswith("/")
        and not any(unicodedata.category(char) in ("Cc", "Cf", "Zl", "Zp") for char in target)
        and "\\" not in target
        and not target.startswith("//")
    ):
        parts = urlsplit(target)
        if not parts.scheme and not parts.netloc:
            return target
    return url_for("main.home")


#: The highest page number a list accepts (a larger one would overflow the query's offset).
MAX_PAGE = 1_000_000


def check_action() -> None:
    """Refuse a forged or expired form (the CSRF token of a one-button form).

    A request whose token Flask-WTF's CSRFProtect has checked already (every form of the
    pages, before the view: it marks the request ``g.csrf_valid``) is not checked again:
    the form's own check would take that mark as its answer, after building the form and its
    token (about 2% of a game page's save)."""
    if g.get("csrf_valid"):
        return
    if not ActionForm().validate_on_submit():
        abort(400)


def page_number() -> int:
    """The ``page`` query argument (1 when absent); ASCII digits from 1 to ``MAX_PAGE`` only,
    else a 400 refusal (the same for pages and the API)."""
    raw = request.args.get("page", "1").strip()
    if not (raw.isascii() and raw.isdigit()) or not 1 <= int(raw) <= MAX_PAGE:
        raise Refusal(
            "wrong_type",
            _("page must be a whole number from %(low)s to %(high)s.", low=1, high=MAX_PAGE),
            "page",
        )
    return int(raw)


def bearer_token() -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() == "bearer" and token.strip():
        return token.strip()
    return None


def token_required(view):
    """The view needs ``Authorization: Bearer <token>``; the account lands in ``g.account``."""

    @wraps(view)
    def wrapper(*args, **kwargs):
        token = bearer_token()
        account = accounts.account_for_token(token) if token else None
        if account is None:
            raise Refusal("unauthorized", _("Send a valid token: Authorization: Bearer <token>."))
        g.account = account
        return view(*args, **kwargs)

    return wrapper


def never_kept(response: Response) -> Response:
    """A game's page is never kept by the browser (nor its back-forward cache): Back after a
    save asks for the game again instead of showing the hand just saved as still open."""
    response.headers.setdefault("Cache-Control", "no-store")
    return response


def no_store(response: Response) -> Response:
    """API answers are never cached; a 401 says which scheme to use."""
    response.headers.setdefault("Cache-Control", "no-store")
    if response.status_code == 401:
        response.headers["WWW-Authenticate"] = 'Bearer realm="scorekeeper"'
    return response
