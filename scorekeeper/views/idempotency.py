"""Idempotency keys on the writes of a game, for the JSON API and the pages' save forms alike
(API.md, "Idempotency keys"; the service: scorekeeper/services/idempotency.py).

``keyed`` wraps a view: a request with a key (the ``Idempotency-Key`` header, or a form's
``idempotency_key`` field: each game page's form carries a fresh one, ``forms.HandForm``)
claims it, then the view runs; the hook (``register``) keeps the answer once it is made,
whatever made it (the view, or the error handler of its refusal). A repeat gets that answer
again with ``Idempotent-Replayed: true`` (a page's messages, its flashes, said again); the
same key with another request is 422 ``idempotency_mismatch`` for the API, and on a page the
game as it stands with a message saying that those values were not saved. A request without
a key is left alone: it costs what it did.
"""

from __future__ import annotations

import json
from functools import wraps

from flask import Flask
from flask import Response
from flask import current_app
from flask import flash
from flask import g
from flask import redirect
from flask import request
from flask import session
from flask import url_for
from flask_login import current_user

from scorekeeper.api.schemas import idempotency_key_problem
from scorekeeper.errors import Refusal
from scorekeeper.extensions import db
from scorekeeper.games.i18n import _
from scorekeeper.services import idempotency

HEADER = "Idempotency-Key"
FIELD = "idempotency_key"
REPLAYED = "Idempotent-Replayed"
#: The headers an answer is kept with (the others are the app's, written on every answer).
KEPT_HEADERS = ("Content-Type", "Location", "ETag", "Last-Modified", "Content-Language")
#: Form fields that are no part of what a form says: its CSRF token, its key.
NOT_SAID = ("csrf_token", FIELD)
#: Answers that say "try again": not kept, the key may come again.
AGAIN = (408, 409, 425, 429)


def _key() -> tuple[str, str] | None:
    """The request's key and where it came from (header or form field), or None."""
    if request.method not in ("POST", "PATCH", "PUT", "DELETE"):
        return None
    if HEADER in request.headers:
        return request.headers[HEADER], HEADER
    if request.mimetype in ("application/x-www-form-urlencoded", "multipart/form-data"):
        raw = request.form.get(FIELD)
        if raw is not None:
            return raw, FIELD
    return None


def _said() -> bytes:
    """The request as it counts for the key: a form's fields (in order, but its token and
    key), a JSON body in one canonical spelling, any other body as sent."""
    if request.mimetype in ("application/x-www-form-urlencoded", "multipart/form-data"):
        fields = sorted(
            (name, value) for name, value in request.form.items(multi=True) if name not in NOT_SAID
        )
        return json.dumps(fields, ensure_ascii=False).encode()
    raw = request.get_data(cache=True)
    try:
        return json.dumps(json.loads(raw), sort_keys=True, ensure_ascii=False).encode()
    except ValueError:
        return raw


def _account_id() -> int:
    return g.account.id if "account" in g else current_user.id


def keyed(view):
    """The view's answer kept per idempotency key (see the module's words)."""

    @wraps(view)
    def wrapper(*args, **kwargs):
        found = _key()
        if found is None:
            return view(*args, **kwargs)
        key, source = found
        problem = idempotency_key_problem(key)
        if problem is not None:
            raise Refusal("idempotency_key_invalid", problem, source)
        path = request.path + (f"?{request.query_string.decode()}" if request.query_string else "")
        print_ = idempotency.fingerprint(request.method, path, _said())
        try:
            claimed = idempotency.claim(_account_id(), key, print_)
        except Refusal as refusal:
            if refusal.code == "idempotency_mismatch" and not _is_api():
                return _not_saved()
            raise
        if isinstance(claimed, idempotency.Answer):
            return _replay(claimed)
        g.idempotency = (claimed, [] if _is_api() else list(session.get("_flashes", [])))
        return view(*args, **kwargs)

    return wrapper


def _is_api() -> bool:
    return request.path.startswith("/api/")


def _replay(answer: idempotency.Answer) -> Response:
    waiting = [tuple(each) for each in session.get("_flashes", [])] if answer.flashes else []
    for category, message in answer.flashes:
        if (category, message) not in waiting:  # the first answer's, not shown yet: once
            flash(message, category)
    response = current_app.response_class(answer.body, answer.status, answer.headers)
    response.headers[REPLAYED] = "true"
    return response


def _not_saved():
    """A page's form sent again with other values after the first was saved: the game as it
    stands, saying so (a form saved in place follows the redirect with its header)."""
    flash(
        _(
            "These values were not saved: this form had been sent already with other values, "
            "and those were saved. Here is the game as it stands; correct the hand if needed."
        ),
        "warning",
    )
    game_id = (request.view_args or {}).get("game_id")
    return redirect(url_for("games.show", game_id=game_id, _anchor="now"))


def register(app: Flask) -> None:
    """Keep each keyed request's answer (its claim given up when it says "try again")."""

    @app.after_request
    def keep_answer(response: Response) -> Response:
        found = g.pop("idempotency", None)
        if found is None:
            return response
        claimed, flashes_before = found
        status = response.status_code
        if status >= 500 or status in AGAIN:
            idempotency.release(claimed)
            return response
        if status >= 400:
            # A refusal: whatever it left uncommitted goes (as it would at the request's end),
            # so that nothing of it holds a lock while the answer is written.
            db.session.rollback()
        flashes = [] if _is_api() else session.get("_flashes", [])
        if flashes[: len(flashes_before)] == flashes_before:
            said = flashes[len(flashes_before) :]
        else:  # the page showed the earlier ones: these are all its own
            said = [each for each in flashes if each not in flashes_before]
        headers = [
            (name, response.headers[name]) for name in KEPT_HEADERS if name in response.headers
        ]
        answer = idempotency.Answer(
            status, headers, [tuple(each) for each in said], response.get_data()
        )
        idempotency.finish(claimed, answer)
        return response

    @app.teardown_request
    def give_up(_error=None) -> None:
        found = g.pop("idempotency", None)
        if found is not None:  # no answer was made (an error after the view)
            idempotency.release(found[0])
