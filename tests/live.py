"""A live server (Werkzeug, one thread per request, or gunicorn in its own processes) and a
small HTTP client, for tests that need real concurrent requests rather than the test
client's one-at-a-time calls."""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path

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
    cookies: list[str] = field(default_factory=list)  # the Set-Cookie headers
    media: str = ""  # the Content-Type's media type

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
            cookies = response.headers.get_all("Set-Cookie") or []
            media = response.headers.get_content_type()
            return Answer(response.status, response.read(), cookies, media)
    except urllib.error.HTTPError as error:
        cookies = error.headers.get_all("Set-Cookie") or []
        return Answer(error.code, error.read(), cookies, error.headers.get_content_type())


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


# gunicorn, as in production ------------------------------------------------------------------

ROOT = Path(__file__).resolve().parent.parent
#: What a request may meet while a server dies or starts.
DOWN = (OSError, http.client.HTTPException)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Gunicorn:
    """The app under gunicorn with the repository's gunicorn.conf.py, as in production, on
    the database ``uri``, in its own process group (master and workers die together).

    ``instance`` is its instance folder (an empty one: no config.py) and holds its log;
    ``settings`` are more environment settings (``PROXY_FIX``, ``WEB_CONCURRENCY`` ...).
    """

    def __init__(self, uri: str, instance: Path, **settings: str) -> None:
        self.port = _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = instance / "gunicorn.log"
        self.process: subprocess.Popen | None = None
        unset = ("DATABASE_URL", "REDIS_URL", "PROXY_FIX", "FORWARDED_ALLOW_IPS")
        self.env = {
            **{k: v for k, v in os.environ.items() if k not in unset},
            "DATABASE_URL": uri,
            "INSTANCE_PATH": str(instance),
            "SECRET_KEY": "gunicorn-test-secret",
            "GUNICORN_BIND": f"127.0.0.1:{self.port}",
            "WEB_CONCURRENCY": "2",
            "LOGIN_ADDRESS_LIMIT": "10000 per minute",
            **settings,
        }

    def start(self) -> None:
        gunicorn = Path(sys.executable).with_name("gunicorn")
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                [str(gunicorn), "-c", "gunicorn.conf.py", "app:app"],
                cwd=ROOT,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = time.monotonic() + 40
        while time.monotonic() < deadline:
            assert self.process.poll() is None, self.log.read_text()[-2000:]
            try:
                if send(f"{self.base}/api/v1/players").status == 401:  # a worker answers
                    return
            except DOWN:
                time.sleep(0.1)
        raise AssertionError("gunicorn did not start: " + self.log.read_text()[-2000:])

    def __enter__(self) -> Gunicorn:
        self.start()
        return self

    def __exit__(self, *exc_info) -> None:
        if self.process is not None:
            self.kill()

    def kill(self) -> None:
        """SIGKILL to the master and its workers: no shutdown, no cleanup."""
        assert self.process is not None
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)
        self.process = None
