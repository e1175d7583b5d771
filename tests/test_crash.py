"""The server killed with SIGKILL in the middle of a burst of hands, a few times over: every
hand it acknowledged (2xx received) is stored as sent, and every game's stored copies equal
its replay. gunicorn with the repository's gunicorn.conf.py, on the test database (SQLite
file or PostgreSQL), as in production."""

from __future__ import annotations

import random
import threading
import time
import urllib.error

import pytest

from scorekeeper.extensions import db
from scorekeeper.models import Game
from scorekeeper.services import games
from tests.conftest import new_token
from tests.live import DOWN
from tests.live import Gunicorn
from tests.live import send
from tests.replay_check import check_database

pytestmark = pytest.mark.drill

NAMES = ["Ann", "Ben", "Cy"]
#: Kill cycles, threads sending hands (each with its own games), how long a burst runs on
#: (seconds, at random between these) once the server has acknowledged a hand per thread in
#: that cycle, so a loaded machine (a slow start) still kills mid-burst, never before it.
CYCLES = 3
THREADS = 4
BURST = (0.1, 0.8)
#: How long a cycle waits for those first acknowledgements at most.
WARM_UP = 60


@pytest.fixture
def server(app, tmp_path):
    made = Gunicorn(app.config["SQLALCHEMY_DATABASE_URI"], tmp_path)
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
        before = [len(table.acknowledged) for table in tables]
        for thread in threads:
            thread.start()
        # A hand acknowledged for every thread (not four in all: with two workers, three busy
        # threads could have them while the fourth still waited to start its game).
        deadline = time.monotonic() + WARM_UP
        while time.monotonic() < deadline and any(
            len(table.acknowledged) == count for table, count in zip(tables, before, strict=True)
        ):
            time.sleep(0.02)
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
