"""What every request goes through before a view sees it: JSON bodies and integer URL parts.

- ``Request`` reads JSON bodies for every view (``request.get_json``): a body nested deeper
  than ``JSON_MAX_DEPTH`` or holding a lone surrogate (``"\\ud800"``, which no database can
  store) is refused with 400 ``invalid_json`` instead of failing deep inside a view.
- ``BoundedIntegerConverter`` replaces the ``int`` URL converter app-wide: an id beyond what
  the database's integer columns hold (2**31 - 1 on PostgreSQL) is simply not found (404).
- ``check_url``: an address longer than ``URL_MAX`` is 414 (before gunicorn's own limit,
  whose answer is HTML); a NUL character (``%00``) in the path is not found (404), in the
  query string a 400: PostgreSQL cannot compare text holding one (a share token, a game's key).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from flask import Flask
from flask import json as flask_json
from flask import request
from flask.wrappers import Request as FlaskRequest
from werkzeug.exceptions import RequestURITooLarge
from werkzeug.routing import IntegerConverter

from scorekeeper.errors import NotFound
from scorekeeper.errors import Refusal
from scorekeeper.games.i18n import N_

#: How deeply objects and arrays may nest in a request body (a backup needs about 8).
JSON_MAX_DEPTH = 32
#: The largest value of a 32-bit signed integer column (PostgreSQL ``integer``).
DB_INT_MAX = 2**31 - 1

TOO_DEEP = N_("The request body is nested too deeply.")
SURROGATE = N_(
    "The request body holds a lone surrogate (like \\ud800): that is not text. "
    "Send the text as UTF-8."
)


def _has_surrogate(text: str) -> bool:
    return any("\ud800" <= char <= "\udfff" for char in text)


def check_json(value: Any, max_depth: int = JSON_MAX_DEPTH) -> None:
    """Refuse a parsed JSON value nested deeper than ``max_depth`` or holding lone surrogates.

    Walks iteratively, so checking cannot itself run out of stack.
    """
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            if depth > max_depth:
                raise Refusal("invalid_json", TOO_DEEP)
            if isinstance(item, dict):
                for key, inner in item.items():
                    if _has_surrogate(key):
                        raise Refusal("invalid_json", SURROGATE)
                    stack.append((inner, depth + 1))
            else:
                stack.extend((inner, depth + 1) for inner in item)
        elif isinstance(item, str) and _has_surrogate(item):
            raise Refusal("invalid_json", SURROGATE)


class _CheckedJSON:
    """A JSON module (Flask gives each request the app's provider) whose ``loads`` also
    applies ``check_json``."""

    def __init__(self, module: Any) -> None:
        self.module = module

    def loads(self, data: str | bytes, **kwargs: Any) -> Any:
        try:
            value = self.module.loads(data, **kwargs)
        except RecursionError:  # the parser itself gave up: deeper than anything we take
            raise Refusal("invalid_json", TOO_DEEP) from None
        check_json(value)
        return value

    def __getattr__(self, name: str) -> Any:
        return getattr(self.module, name)


class Request(FlaskRequest):
    """Flask's request, with JSON bodies checked for depth and lone surrogates.

    A refusal raised while parsing is not a ``ValueError``, so ``get_json(silent=True)`` does
    not swallow it: the app's error handler answers it (400, ``invalid_json``).
    """

    _checked_json: _CheckedJSON | None = None

    @property
    def json_module(self) -> _CheckedJSON:  # type: ignore[override]
        return self._checked_json or _CheckedJSON(flask_json)

    @json_module.setter
    def json_module(self, module: Any) -> None:
        # Flask sets the app's JSON provider on every request it makes (flask/ctx.py).
        self._checked_json = _CheckedJSON(module)


def digits_up_to(limit: int) -> str:
    """A regular expression for the whole numbers 0 to ``limit`` (no capturing group).

    Routing must refuse a too-large number by its pattern, not only in ``to_python``: Werkzeug
    answers 405 rather than 404 when another rule of the same path (a GET next to a POST)
    matched the pattern but not the method.
    """
    top = str(limit)
    choices = [f"[0-9]{{1,{len(top) - 1}}}"] if len(top) > 1 else []
    for i, digit in enumerate(top):
        if digit != "0":
            rest = len(top) - i - 1
            tail = f"[0-9]{{{rest}}}" if rest else ""
            choices.append(f"{top[:i]}[0-{int(digit) - 1}]{tail}")
    choices.append(top)
    return "0*(?:" + "|".join(choices) + ")"


class BoundedIntegerConverter(IntegerConverter):
    """``<int:...>`` limited to what the database's integer columns hold (else 404)."""

    regex = digits_up_to(DB_INT_MAX)

    def __init__(self, map, fixed_digits=0, min=None, max=DB_INT_MAX, signed=False) -> None:
        super().__init__(map, fixed_digits=fixed_digits, min=min, max=max, signed=signed)


NUL_IN_QUERY = N_("The address holds a NUL character (%00): remove it.")
#: The longest address (path and query string, as sent) the app answers: below gunicorn's
#: ``limit_request_line`` (gunicorn.conf.py), which would answer a page of its own in HTML.
URL_MAX = 2048


def sent_url_length() -> int:
    """The length of the path and query string as the client wrote them (percent-encoded)."""
    environ = request.environ
    raw = environ.get("RAW_URI") or environ.get("REQUEST_URI")
    if raw:
        return len(raw)
    path = quote(environ.get("PATH_INFO", "").encode("latin-1"), safe="/;:@&=+$,!~*'()")
    query = environ.get("QUERY_STRING", "")
    return len(path) + (len(query) + 1 if query else 0)


def check_url() -> None:
    """Before every view: no address longer than ``URL_MAX`` (414, in the error format of the
    API or a page), no NUL in the path (404) or the query string (400)."""
    if sent_url_length() > URL_MAX:
        raise RequestURITooLarge()
    if "\x00" in request.path:
        raise NotFound(N_("That page was not found."))
    for key, value in request.args.items(multi=True):
        if "\x00" in key or "\x00" in value:
            raise Refusal("wrong_type", NUL_IN_QUERY, None if "\x00" in key else key)


def register(app: Flask) -> None:
    """Must run before any blueprint is registered: rules take their converter when added."""
    app.request_class = Request
    app.url_map.converters["int"] = BoundedIntegerConverter
    app.before_request(check_url)
