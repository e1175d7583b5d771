"""Security headers and cookie flags for every response."""

from __future__ import annotations

from flask import Flask
from flask import request
from flask.sessions import SecureCookieSessionInterface

#: The app's own scripts, stylesheets, fetches, service worker and web manifest, nothing else:
#: ``default-src`` says it for all of them (style-src, connect-src, worker-src and manifest-src
#: fall back to it; script-src adds WebAssembly), so the header, sent with every page, says it
#: once (it costs each first load its length). What does not fall back to it is said: images
#: (also data:), plug-ins, the base URL, where forms go, who may frame the page.
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        # wasm-unsafe-eval: the phone's copy of the rules runs in WebAssembly (Pyodide, served
        # by the app: views/offline_rules.py); no other eval.
        "script-src 'self' 'wasm-unsafe-eval'",
        "img-src 'self' data:",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)


#: The Cache-Control of a file whose URL names its version: kept a year, never asked again.
KEPT_A_YEAR = "public, max-age=31536000, immutable"
#: Endpoints serving static files (their URLs carry a content hash, ``?v=``).
STATIC_ENDPOINTS = {"static", "game_assets.static", "pack"}
#: Static files a browser may open as a document of their own (an SVG can hold a script).
DOCUMENT_TYPES = {"image/svg+xml", "text/html"}


def register(app: Flask) -> None:
    @app.after_request
    def secure_headers(response):
        headers = response.headers
        hashed = request.endpoint in STATIC_ENDPOINTS and bool(request.args.get("v"))
        headers.setdefault("X-Content-Type-Options", "nosniff")
        if not hashed or response.mimetype in DOCUMENT_TYPES:
            # What a document obeys (a stylesheet, a script or a PNG is none: a browser reads
            # these headers on pages, frames and workers only, so a file goes without them and
            # a page's first load stays small).
            headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
            headers.setdefault("X-Frame-Options", "DENY")
            headers.setdefault("Referrer-Policy", "same-origin")
        if request.is_secure:
            headers.setdefault("Strict-Transport-Security", "max-age=31536000")
        if hashed:
            # The URL carries the file's content hash: it never changes under this name.
            headers["Cache-Control"] = KEPT_A_YEAR
        return response

    app.wsgi_app = SecureCookies(app.wsgi_app, always=app.config["SESSION_COOKIE_SECURE"])
    app.session_interface = Sessions()


class Sessions(SecureCookieSessionInterface):
    """Flask's cookie sessions, but a static file by its hashed URL does not vary with the
    cookie (Flask adds ``Vary: Cookie`` to any answer whose request touched the session): it
    is the same for everyone, cached for a year, and the header only costs a first load."""

    def save_session(self, app, session, response) -> None:
        super().save_session(app, session, response)
        if request.endpoint in STATIC_ENDPOINTS and request.args.get("v"):
            response.vary.discard("cookie")  # lower case: HeaderSet.remove compares so


class SecureCookies:
    """WSGI middleware: every cookie set on a request that came over https gets Secure.

    It sits outside Flask, so it also sees the session and remember-me cookies, which are
    written after the app's own after-request hooks have run.
    """

    def __init__(self, wsgi_app, always: bool = False) -> None:
        self.wsgi_app = wsgi_app
        self.always = always

    def __call__(self, environ, start_response):
        secure = self.always or environ.get("wsgi.url_scheme") == "https"
        if not secure:
            return self.wsgi_app(environ, start_response)

        def start(status, headers, exc_info=None):
            headers = [
                (name, value + "; Secure")
                if name.lower() == "set-cookie" and "; secure" not in value.lower()
                else (name, value)
                for name, value in headers
            ]
            return start_response(status, headers, exc_info)

        return self.wsgi_app(environ, start)
