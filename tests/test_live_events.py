"""Live updates across processes (issue 21): two gunicorn servers on one database, as two
hosts would be. A phone follows the game on one; a bid saved through the other reaches it as
a server-sent event (PostgreSQL: LISTEN/NOTIFY; SQLite: each process reads the versions of
the games it streams)."""

from __future__ import annotations

import http.client
import json
import time
import urllib.parse

import pytest

from tests.conftest import PASSWORD
from tests.conftest import basic
from tests.live import Gunicorn
from tests.live import send

PLAYERS = ["Ann", "Ben", "Cy"]


class Stream:
    """An open ``text/event-stream``: its events, read one at a time."""

    def __init__(self, base: str, path: str, token: str) -> None:
        parts = urllib.parse.urlsplit(base)
        self.connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
        self.connection.request("GET", path, headers={"Authorization": f"Bearer {token}"})
        self.response = self.connection.getresponse()
        assert self.response.status == 200, self.response.read()[:500]
        assert self.response.getheader("Content-Type").startswith("text/event-stream")

    def next_event(self) -> dict:
        fields: dict[str, str] = {}
        while True:
            line = self.response.fp.readline().decode().rstrip("\n")
            if not line:
                if "data" in fields:
                    return {"id": int(fields["id"]), "data": json.loads(fields["data"])}
                fields = {}
                continue
            if not line.startswith(":"):
                name, _, value = line.partition(": ")
                fields[name] = value

    def close(self) -> None:
        self.connection.close()


def test_a_bid_saved_on_one_server_reaches_a_phone_following_on_another(app, account, tmp_path):
    uri = app.config["SQLALCHEMY_DATABASE_URI"]
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    settings = {"WEB_CONCURRENCY": "1", "GUNICORN_THREADS": "8"}
    with (
        Gunicorn(uri, tmp_path / "a", **settings) as one,
        Gunicorn(uri, tmp_path / "b", **settings) as other,
    ):
        auth = basic("friday-club", PASSWORD)
        token = send(f"{one.base}/api/v1/tokens", "POST", headers=auth).json()["token"]
        bearer = {"Authorization": f"Bearer {token}"}
        body = {"game": "oh_hell", "players": PLAYERS}
        game = send(f"{one.base}/api/v1/games", "POST", json_body=body, headers=bearer).json()
        link = send(f"{one.base}/api/v1/games/{game['id']}/seat-link", "POST", headers=bearer)
        link_token = link.json()["url"].rsplit("/", 1)[1]
        first = game["next"]["order"][0]
        claim = send(
            f"{one.base}/api/v1/seat-links/{link_token}/seats",
            "POST",
            json_body={"player": first},
        ).json()["seat_token"]

        stream = Stream(other.base, f"/api/v1/games/{game['id']}/events", token)
        try:
            start = stream.next_event()
            assert start["data"]["draft"]["entries"] == {}
            sent = time.monotonic()
            saved = send(
                f"{one.base}/api/v1/seat/entry",
                "PUT",
                json_body={"bid": 1},
                headers={"Authorization": f"Bearer {claim}"},
            )
            assert saved.status == 200, saved.body
            event = stream.next_event()
            took = time.monotonic() - sent
        finally:
            stream.close()
    assert event["id"] > start["id"]
    assert event["data"]["draft"]["entries"] == {first: 1}
    assert took < 5, took  # pushed: the stream has no poll of its own to fall back on


def test_a_listener_cut_off_says_so_once_and_tries_again_less_and_less_often(monkeypatch, caplog):
    """The database out of reach (a test database dropped, a server restarting): one warning,
    then quiet attempts further and further apart, up to a minute; back to one second (and a
    warning for a later failure) once it listens again."""
    import types

    import psycopg
    import sqlalchemy as sa

    from scorekeeper.services import events

    attempts = {"count": 0}

    class Listening:
        def __init__(self) -> None:
            attempts["count"] += 1
            if attempts["count"] == 9:  # the database is back, then goes away again
                return
            raise psycopg.OperationalError("connection refused")

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def execute(self, *args):
            return None

        def notifies(self):
            raise psycopg.OperationalError("terminating connection")

    pauses: list[float] = []

    class Enough(BaseException):
        """Out of the listener's loop (which goes on after any Exception)."""

    def sleep(seconds: float) -> None:
        pauses.append(seconds)
        if len(pauses) == 11:
            raise Enough

    monkeypatch.setattr(psycopg, "connect", lambda *args, **kwargs: Listening())
    monkeypatch.setattr(events, "time", types.SimpleNamespace(sleep=sleep))
    hub = events.Hub()
    hub._engine = sa.create_engine("postgresql+psycopg://postgres@127.0.0.1:5432/gone")
    with caplog.at_level("DEBUG", logger=events.__name__), pytest.raises(Enough):
        hub._listen()
    assert pauses == [1, 2, 4, 8, 16, 32, 60, 60, 1, 2, 4]
    warnings = [r for r in caplog.records if r.levelname == "WARNING"]
    assert len(warnings) == 2  # the first failure, and the first after listening again
    assert sum(r.levelname == "DEBUG" for r in caplog.records) == 9
