"""Headers, cookies and error pages."""

from __future__ import annotations

import re

from tests.conftest import login


def test_every_page_sends_security_headers(client):
    response = client.get("/login")
    csp = response.headers["Content-Security-Policy"]
    assert csp.startswith("default-src 'self';")  # scripts too: script-src falls back to it
    # Scripts: the app's own, and WebAssembly (the phone's copy of the rules), no other eval.
    assert "script-src 'self' 'wasm-unsafe-eval';" in csp
    assert "unsafe-inline" not in csp
    assert "frame-ancestors 'none'" in csp
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "same-origin"


def test_pages_have_no_inline_script(client):
    html = client.get("/login").text
    assert "<script>" not in html
    assert " onclick=" not in html


def test_session_cookie_is_httponly_lax_and_secure_over_https(client, account):
    response = client.post(
        "/login",
        data={"username": "friday-club", "password": "correct horse battery"},
        base_url="https://scores.example",
    )
    cookies = response.headers.getlist("Set-Cookie")
    session = next(c for c in cookies if c.startswith("session="))
    assert "HttpOnly" in session
    assert "SameSite=Lax" in session
    assert "Secure" in session
    assert all("Secure" in cookie for cookie in cookies)


def test_cookies_over_plain_http_are_not_marked_secure(client, account):
    response = login(client)
    session = next(c for c in response.headers.getlist("Set-Cookie") if c.startswith("session="))
    assert "Secure" not in session


def test_not_found_page_is_friendly(client):
    response = client.get("/no/such/page")
    assert response.status_code == 404
    assert "There is nothing here." in response.text
    assert "Traceback" not in response.text


def test_an_unexpected_error_shows_a_friendly_page_without_a_trace(make_app):
    # An app of its own (the worker's plain app has served requests: no route can be added).
    app = make_app(PROPAGATE_EXCEPTIONS=False)
    client = app.test_client()

    @app.get("/boom")
    def boom():
        raise RuntimeError("secret internals")

    response = client.get("/boom")
    assert response.status_code == 500
    assert "Something went wrong on our side" in response.text
    assert "secret internals" not in response.text
    assert "Traceback" not in response.text


def test_static_files_are_served_by_the_app_with_a_version(client):
    page = client.get("/login").text
    assert "/static/css/app.css?v=" in page
    with client.get("/static/css/app.css") as css:
        assert css.status_code == 200
        assert "prefers-color-scheme: dark" in css.text
    assert "http://" not in page.replace("http://localhost", "")
    assert "https://" not in page


def test_health_check(client):
    assert client.get("/healthz").get_json() == {"status": "ok"}


def test_fingerprinted_static_files_are_cached_for_a_year_and_compressed(client):
    page = client.get("/login")
    for url in set(re.findall(r'(?:href|src)="(/static/[^"]+\?v=[^"]+)"', page.text)):
        answer = client.get(url, headers={"Accept-Encoding": "gzip"})
        assert answer.status_code == 200
        assert answer.headers["Cache-Control"] == "public, max-age=31536000, immutable", url
        # The same for every reader: no Vary: Cookie (the session was read on the way: the
        # login page's cookie came with it).
        assert "Cookie" not in answer.headers.get("Vary", ""), url
        if url.split("?")[0].endswith((".css", ".js")):
            assert answer.headers["Content-Encoding"] == "gzip", url
            # Made ready by the app, never asked for again: no ETag, no date.
            assert answer.headers["Vary"] == "Accept-Encoding", url
            assert "ETag" not in answer.headers and "Last-Modified" not in answer.headers, url
        answer.close()
    unversioned = client.get("/static/css/app.css")
    assert "immutable" not in unversioned.headers.get("Cache-Control", "")
    unversioned.close()


def test_pages_are_compressed_for_clients_that_ask(client):
    plain = client.get("/login")
    packed = client.get("/login", headers={"Accept-Encoding": "br, gzip"})
    assert packed.headers["Content-Encoding"] == "br"
    assert len(packed.data) < len(plain.data) / 2
    assert "Accept-Encoding" in packed.headers["Vary"]
