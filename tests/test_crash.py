"""The server killed with SIGKILL in the middle of a burst of hands, a few times over: every
hand it acknowledged (2xx received) is stored as sent, and every game's stored copies equal
its replay. gunicorn with the repository's gunicorn.conf.py, on the test database (SQLite
file or PostgreSQL), as in production."""

from __future__ import annotations

import http.client
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
from pathlib import Path

import pytest

from scorekeeper.extensions import db
from scorekeeper.models import Game
from scorekeeper.services import games
from tests.conftest import new_token
from tests.live import send
from tests.replay_check import check_database

pytestmark = pytest.mark.drill

ROOT = Path(__file__).resolve().parent.parent
NAMES = ["Ann", "Ben", "Cy"]
#: Kill cycles, threads sending hands (each with its own games), how long a burst runs
#: before the kill (seconds, at random between these).
CYCLES = 3
THREADS = 4
BURST = (0.4, 1.2)
#: What a thread's request may meet while the server dies or starts.
DOWN = (OSError, http.client.HTTPException)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server:
    """gunicorn serving the app in its own process group (master and workers die together)."""

    def __init__(self, uri: str, instance: Path, log: Path) -> None:
        self.port = _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = log
        self.process: subprocess.Popen | None = None
        self.env = {
            **{k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")},
            "DATABASE_URL": uri,
            "INSTANCE_PATH": str(instance),
            "SECRET_KEY": "crash-test-secret",
            "GUNICORN_BIND": f"127.0.0.1:{self.port}",
            "WEB_CONCURRENCY": "2",
            "LOGIN_ADDRESS_LIMIT": "10000 per minute",
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
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            assert self.process.poll() is None, self.log.read_text()[-2000:]
            try:
                if send(f"{self.base}/api/v1/players").status == 401:  # a worker answers
                    return
            except DOWN:
                time.sleep(0.1)
        raise AssertionError("gunicorn did not start: " + self.log.read_text()[-2000:])

    def kill(self) -> None:
        """SIGKILL to the master and its workers: no shutdown, no cleanup."""
        assert self.process is not None
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)
        self.process = None


@pytest.fixture
def server(app, tmp_path):
    made = Server(app.config["SQLALCHEMY_DATABASE_URI"], tmp_path, tmp_path / "gunicorn.log")
    yield made
    if made.process is not None:
        made.kill()


class Table:
    """One thread's games: it records the next hand of its game, starts another game when
    one ends, and notes every hand the server acknowledged."""

    def __init__(self, base: str, headers: dict, seat: int) -> None:
        self.base = base
        self.headers = headers
        self.taker = NAMES[seat % len(NAMES)]  # who bids and takes every card
        self.game: int | None = None
        self.state: dict | None = None
        self.acknowledged: list[tuple[int, int, dict]] = []
        self.answers: list[int] = []
        self.cut = 0  # requests in flight when the server died (not refused before)

    def _new_game(self) -> None:
        answer = send(
            f"{self.base}/games",
            "POST",
            json_body={"game": "oh_hell", "players": NAMES},
            headers=self.headers,
        )
        self.answers.append(answer.status)
        assert answer.status == 201, answer.body
        self.game, self.state = answer.json()["id"], answer.json()

    def play(self, stop: threading.Event) -> None:
        """Until stopped or the server goes down."""
        try:
            if self.game is None:
                self._new_game()
            else:  # after a crash: what the server kept is what counts
                answer = send(f"{self.base}/games/{self.game}", headers=self.headers)
                assert answer.status == 200, answer.body
                self.state = answer.json()
            while not stop.is_set():
                if self.state["status"] == "finished":
                    self._new_game()
                following = self.state["next"]
                bids = {name: 0 for name in NAMES} | {self.taker: following["cards"]}
                hand = {"bids": bids, "tricks": dict(bids), "number": following["number"]}
                answer = send(
                    f"{self.base}/games/{self.game}/hands",
                    "POST",
                    json_body=hand,
                    headers=self.headers,
                )
                self.answers.append(answer.status)
                assert answer.status == 201, answer.body
                self.acknowledged.append((self.game, following["number"], bids))
                self.state = answer.json()
        except ConnectionRefusedError:
            return
        except urllib.error.URLError as error:
            if not isinstance(error.reason, ConnectionRefusedError):
                self.cut += 1
        except DOWN:
            self.cut += 1


def test_sigkill_mid_burst_loses_no_acknowledged_hand(app, account, server):
    token = new_token(app.test_client())
    headers = {"Authorization": f"Bearer {token}"}
    tables = [Table(server.base + "/api/v1", headers, seat) for seat in range(THREADS)]
    errors: list[BaseException] = []

    def run(table: Table, stop: threading.Event) -> None:
        try:
            table.play(stop)
        except BaseException as error:  # noqa: BLE001 - reported below
            errors.append(error)

    chance = random.Random(15)
    for _ in range(CYCLES):
        server.start()
        stop = threading.Event()
        threads = [threading.Thread(target=run, args=(table, stop)) for table in tables]
        for thread in threads:
            thread.start()
        time.sleep(chance.uniform(*BURST))
        server.kill()  # mid-burst: requests are in flight
        stop.set()
        for thread in threads:
            thread.join(timeout=30)
        assert not errors, errors
    acknowledged = [hand for table in tables for hand in table.acknowledged]
    assert len(acknowledged) >= CYCLES * THREADS  # the bursts did record hands
    assert all(status < 500 for table in tables for status in table.answers)

    # The kills met requests in flight (not only requests refused once the server was gone).
    assert sum(table.cut for table in tables) >= 1
    checked = check_database(app)
    assert checked >= THREADS
    with app.app_context():
        for game_id, number, bids in acknowledged:
            game = db.session.get(Game, game_id)
            stored = games.played(game).state.hands[number - 1].input
            assert stored["bids"] == bids, (game_id, number)
            assert stored["tricks"] == bids, (game_id, number)
