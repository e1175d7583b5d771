"""A live server (Werkzeug, one thread per request) and a small HTTP client, for tests that
need real concurrent requests rather than the test client's one-at-a-time calls."""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass

from werkzeug.serving import make_server


@contextmanager
def serving(app):
    """The app on a free local port; yields its base URL."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=5)
        server.server_close()


@dataclass
class Answer:
    status: int
    body: bytes

    def json(self):
        return json.loads(self.body)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """A redirect is the answer (302 after a login), not something to follow."""

    def redirect_request(self, *args, **kwargs):
        return None


_opener = urllib.request.build_opener(_NoRedirect)


def send(
    url: str, method: str = "GET", data: dict | None = None, json_body=None, headers=None
) -> Answer:
    """One HTTP request; a 4xx or 5xx is an answer like any other."""
    headers = dict(headers or {})
    body = None
    if json_body is not None:
        body = json.dumps(json_body).encode()
        headers["Content-Type"] = "application/json"
    elif data is not None:
        body = urllib.parse.urlencode(data).encode()
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    request = urllib.request.Request(url, data=body, method=method, headers=headers)
    try:
        with _opener.open(request, timeout=60) as response:
            return Answer(response.status, response.read())
    except urllib.error.HTTPError as error:
        return Answer(error.code, error.read())


def at_once(count: int, action: Callable[[int], Answer]) -> list[Answer]:
    """Run ``action(i)`` in ``count`` threads released together; their answers in order."""
    barrier = threading.Barrier(count)
    answers: list[Answer | None] = [None] * count
    errors: list[BaseException] = []

    def run(i: int) -> None:
        try:
            barrier.wait(timeout=30)
            answers[i] = action(i)
        except BaseException as error:  # noqa: BLE001 - reported below
            errors.append(error)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors, errors
    return answers  # type: ignore[return-value]
