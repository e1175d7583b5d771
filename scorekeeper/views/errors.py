"""Error pages for people and JSON errors for the API; never a stack trace."""

from __future__ import annotations

import sqlalchemy as sa
from flask import Flask
from flask import jsonify
from flask import render_template
from flask import request
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException
from werkzeug.exceptions import SecurityError

from scorekeeper.api.schemas import Errors
from scorekeeper.errors import Problem
from scorekeeper.errors import Refusal
from scorekeeper.games.i18n import N_
from scorekeeper.games.i18n import _

MESSAGES = {
    400: N_("The request could not be understood."),
    401: N_("Log in first."),
    403: N_("That is not allowed."),
    404: N_("There is nothing here. The link may be old, or the page belongs to another account."),
    405: N_("That action is not available here."),
    409: N_("Someone changed this at the same moment. Reload and try again."),
    413: N_("That upload is too large."),
    414: N_("That address is too long."),
    429: N_("Too many attempts. Wait a little and try again."),
    500: N_("Something went wrong on our side. Nothing you entered was half-saved; try again."),
}

CODES = {
    400: "invalid_json",
    401: "unauthorized",
    404: "not_found",
    409: "conflict",
    414: "uri_too_long",
    429: "too_many_attempts",
}


def wants_json() -> bool:
    return request.path.startswith("/api/")


def error_response(status: int, code: str | None = None, message: str | None = None):
    message = str(message or MESSAGES.get(status) or _("That did not work."))
    if wants_json():
        code = code or CODES.get(status, "error")
        body = Errors.of([Problem(code, message)])
        return jsonify(body.model_dump(mode="json")), status
    return render_template("error.html", status=status, message=message), status


def register(app: Flask) -> None:
    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException):
        if error.response is not None:  # the exception brought its own answer
            return error.response
        body, status = error_response(error.code or 500)
        response = app.make_response((body, status))
        # Keep what the exception says in its headers: Allow on a 405, Retry-After on a 429,
        # WWW-Authenticate on a 401 (its Content-Type is the one of its own HTML page).
        for name, value in error.get_headers():
            if name.lower() != "content-type":
                response.headers[name] = value
        return response

    @app.errorhandler(SecurityError)
    def untrusted_host(error: SecurityError):
        # A Host that TRUSTED_HOSTS does not name: no link can be built for it (the error
        # page's would fail), so the answer is a short text of its own.
        message = _("This address is not served here.")
        return app.response_class(message, 400, mimetype="text/plain")

    @app.errorhandler(CSRFError)
    def csrf_error(error: CSRFError):
        message = _("This form was out of date. Go back, reload the page and submit it again.")
        return error_response(400, "csrf", message)

    @app.errorhandler(Refusal)
    def refusal(error: Refusal):
        if wants_json():
            response = jsonify(Errors.of(error.problems).model_dump(mode="json"))
            response.status_code = error.status
        else:
            response = app.make_response(error_response(error.status, error.code, error.message))
        retry_after = getattr(error, "retry_after", None)
        if retry_after is not None:  # a refusal that says how long to wait (429)
            response.headers["Retry-After"] = str(retry_after)
        return response

    @app.errorhandler(Exception)
    def unexpected(error: Exception):
        from scorekeeper.extensions import db

        app.logger.exception("Unhandled error on %s %s", request.method, request.path)
        db.session.rollback()
        return error_response(500)

    @app.errorhandler(sa.exc.OperationalError)
    def concurrent(error: sa.exc.OperationalError):
        """The database gave up on this request for another one's sake (a deadlock, a
        serialization failure, SQLite still locked after its wait): nothing of it was saved,
        and trying again will do, which is what 409 says."""
        if not is_concurrent_change(error):
            return unexpected(error)
        from scorekeeper.extensions import db

        app.logger.warning("Concurrent change on %s %s: %s", request.method, request.path, error)
        db.session.rollback()
        return error_response(409)


#: PostgreSQL's codes for "another transaction was in the way": deadlock detected,
#: serialization failure, lock not available.
CONCURRENT_SQLSTATES = frozenset({"40P01", "40001", "55P03"})


def is_concurrent_change(error: sa.exc.OperationalError) -> bool:
    if getattr(error.orig, "sqlstate", None) in CONCURRENT_SQLSTATES:
        return True
    return "database is locked" in str(error.orig)
