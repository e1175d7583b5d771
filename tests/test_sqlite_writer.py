"""On SQLite a writer takes its turn before its first write and gives it back with its
connection (scorekeeper/sqlite_writer.py): a writer waiting for another process's turn goes on
the moment it is given back, a reader never waits for it, and a turn not given within ``WAIT``
seconds is left to SQLite's own busy timeout, as before."""

from __future__ import annotations

import fcntl
import os
import threading
import time

import pytest
import sqlalchemy as sa

from scorekeeper import sqlite_writer
from scorekeeper.extensions import db
from scorekeeper.models import Game

PLAYERS = ["Ann", "Ben", "Cy"]


class OtherProcess:
    """The lock of another process on ``path``: a file opened on its own (``flock`` locks
    belong to the open file, so this one stands in the turn's way as another process would)."""

    def __init__(self, path: str) -> None:
        self.fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)

    def take(self) -> bool:
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True

    def give(self) -> None:
        fcntl.flock(self.fd, fcntl.LOCK_UN)

    def close(self) -> None:
        os.close(self.fd)


def in_thread(work) -> tuple[threading.Thread, list]:
    done: list = []
    thread = threading.Thread(target=lambda: done.append(work()), daemon=True)
    thread.start()
    return thread, done


def free_soon(other: OtherProcess, seconds: float = 2.0) -> bool:
    """Whether ``other`` can take the lock within ``seconds`` (given it back at once)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if other.take():
            other.give()
            return True
        time.sleep(0.01)
    return False


def test_a_turn_waits_while_another_process_writes_and_goes_on_once_it_is_done(tmp_path):
    turn = sqlite_writer.Turn(str(tmp_path / "db-writer"))
    other = OtherProcess(turn.path)
    assert other.take()
    thread, taken = in_thread(turn.take)
    thread.join(0.3)
    assert thread.is_alive() and not taken  # waiting for the other process
    other.give()
    thread.join(2)
    assert taken == [True]
    assert not other.take()  # now this process writes
    turn.give()
    assert other.take()
    other.give()
    other.close()


def test_the_threads_of_a_process_take_their_turns_one_at_a_time(tmp_path):
    turn = sqlite_writer.Turn(str(tmp_path / "db-writer"))
    assert turn.take()
    thread, taken = in_thread(turn.take)
    thread.join(0.3)
    assert thread.is_alive() and not taken
    turn.give()
    thread.join(2)
    assert taken == [True]
    turn.give()


def test_a_thread_holding_the_turn_does_not_wait_for_itself(tmp_path):
    """A second connection of the same thread goes on without the turn (SQLite decides)."""
    turn = sqlite_writer.Turn(str(tmp_path / "db-writer"))
    assert turn.take()
    started = time.monotonic()
    assert turn.take() is False
    assert time.monotonic() - started < 0.5
    turn.give()
    assert turn.take()
    turn.give()


def test_a_turn_that_does_not_come_is_left_to_sqlite_and_let_go_when_it_comes(
    tmp_path, monkeypatch
):
    monkeypatch.setattr(sqlite_writer, "WAIT", 0.2)
    turn = sqlite_writer.Turn(str(tmp_path / "db-writer"))
    other = OtherProcess(turn.path)
    assert other.take()
    started = time.monotonic()
    assert turn.take() is False
    assert 0.2 <= time.monotonic() - started < 2
    other.give()
    # The thread that waited for it gets it late and lets it go: nobody is left holding it.
    assert free_soon(other)
    thread, taken = in_thread(turn.take)  # and this process's threads may take it again
    thread.join(2)
    assert taken == [True]
    turn.give()
    other.close()


def _take_in_child(path: str, results) -> None:
    turn = sqlite_writer.turn_for(path)
    results.put(turn.take())


def test_a_forked_process_starts_with_turns_of_its_own(tmp_path, monkeypatch):
    """A turn held by a thread of the parent when it forks is not the child's to wait for."""
    import multiprocessing

    monkeypatch.setattr(sqlite_writer, "WAIT", 1.0)
    path = str(tmp_path / "db")
    mine = sqlite_writer.turn_for(path)
    assert mine.take()
    mine._fd, fd = None, mine._fd
    os.close(fd)  # the other processes' lock let go: only this process's threads' turn is held
    context = multiprocessing.get_context("fork")
    results = context.Queue()
    child = context.Process(target=_take_in_child, args=(path, results))
    child.start()
    child.join(10)
    assert results.get(timeout=1) is True
    mine.give()


@pytest.fixture
def writer_file(app, database):
    url = sa.engine.make_url(database["uri"])
    if url.get_backend_name() != "sqlite":
        pytest.skip("SQLite's turn to write: PostgreSQL has writers of its own")
    return url.database + "-writer"


def new_game(api) -> int:
    answer = api.post("/games", {"game": "oh_hell", "players": PLAYERS})
    assert answer.status_code == 201, answer.text
    return answer.get_json()["id"]


def test_a_save_waits_for_another_writer_and_a_read_does_not(app, api, writer_file):
    game = new_game(api)
    other = OtherProcess(writer_file)
    assert free_soon(other)  # the game's creation gave its turn back
    assert other.take()
    bids = {"number": 1, "bids": {"Ann": 1, "Ben": 0, "Cy": 0}}
    thread, answers = in_thread(lambda: api.post(f"/games/{game}/hands", bids))
    thread.join(0.5)
    assert thread.is_alive() and not answers  # the save waits for its turn
    read = api.get(f"/games/{game}")  # a reader goes on meanwhile
    assert read.status_code == 200 and read.get_json()["hands"] == []
    other.give()
    thread.join(5)
    assert answers and answers[0].status_code == 201, answers
    hand = answers[0].get_json()["hands"][0]
    assert hand["status"] == "playing" and hand["input"]["bids"] == bids["bids"]
    assert free_soon(other, 0.5)  # given back with the connection
    other.close()


def test_a_writer_that_fails_or_whose_connection_is_lost_gives_its_turn_back(app, api, writer_file):
    game = new_game(api)
    other = OtherProcess(writer_file)
    with app.app_context():
        db.session.execute(sa.update(Game).where(Game.id == game).values(locked=True))
        assert not other.take()  # the turn is this connection's, until...
        db.session.rollback()  # ... its rollback hands the connection back
        assert other.take()
        other.give()
        db.session.execute(sa.update(Game).where(Game.id == game).values(locked=True))
        assert not other.take()
        db.session.connection().invalidate()  # a connection lost mid-write
        assert other.take()
        other.give()
        db.session.rollback()
        assert db.session.get(Game, game).locked is False
    other.close()


def test_a_worker_checkpoints_the_log_in_a_thread_of_its_own(tmp_path):
    """Once a thread checkpoints in the background, a new connection leaves the log to it (a
    commit checkpoints only past ``BEHIND`` pages), and the thread copies the log's pages into
    the database while the connection stays open; stopped, the default comes back."""
    path = tmp_path / "log.db"
    engine = sa.create_engine(f"sqlite:///{path}")
    rows = [{"text": "x" * 1000} for _ in range(400)]  # about a hundred pages of log

    def written() -> None:
        with engine.begin() as connection:
            connection.execute(sa.text("CREATE TABLE IF NOT EXISTS t (text TEXT)"))
            connection.execute(sa.text("INSERT INTO t (text) VALUES (:text)"), rows)

    def settled(at_least: int, seconds: float = 3.0) -> int:
        """The database file's size, once it holds ``at_least`` bytes (or the time is up)."""
        end = time.monotonic() + seconds
        while path.stat().st_size < at_least and time.monotonic() < end:
            time.sleep(0.02)
        return path.stat().st_size

    written()  # no checkpointing thread: the rows stay in the log, below SQLite's threshold
    with engine.connect() as connection:
        assert connection.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() == 1000
    time.sleep(0.2)
    assert path.stat().st_size < 100_000
    engine.dispose()  # its last connection closed: SQLite checkpoints the log into the file
    kept = path.stat().st_size
    assert kept > 400_000

    stop = sqlite_writer.checkpoint_in_background(every=0.05)
    try:
        with engine.connect() as connection:  # a connection made from now on
            pages = connection.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar()
            assert pages == sqlite_writer.BEHIND
            written()  # the connection stays open in the pool: only the thread checkpoints
            assert settled(kept + 400_000) > kept + 400_000
    finally:
        stop()
    assert sqlite_writer.autocheckpoint() == 1000
    assert "sqlite-checkpoint" not in [thread.name for thread in threading.enumerate()]
    engine.dispose()
