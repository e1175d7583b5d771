"""Live events bench (issue 21): from a bid saved by one phone to the event on another phone.

50 tables (``--tables``) of 7 players play Oh Hell at once against gunicorn with 2 workers
(gthread, ``GUNICORN_THREADS`` 256): at each table every player's phone and the scorekeeper's
follow the game (``GET /api/v1/games/<id>/events``: 8 open streams a table, 400 in all), the
players bid in turn from their own phones (``PUT /api/v1/seat/entry``) and the scorekeeper
saves the tricks (``PATCH .../hands/<n>``). Each table saves once every ``--interval`` seconds
(a real table saves far less often), the tables out of step with each other.

Measured, for SQLite and for PostgreSQL (``--postgres URL``):

- the event delay: from sending a save to the event reaching another phone of the table
  (the next bidder's stream), p50 and p95;
- the saves' p95 with the streams open, against the same saves with no stream open (the ratio
  should stay under 1.5);
- with ``--postgres``, the same across two app processes on different ports sharing the
  database: the phones follow on one, the saves go to the other (the event crosses between
  them by LISTEN/NOTIFY).

The clients run in this process on the same 2 cores as the server, kept cheap so as not to
take the server's CPU: one thread reads every stream (epoll), one thread a table saves; each
line says the CPU (in cores) the servers and this bench used, without streams -> with them.
A stream the server ends early (its worker holds all it may: ``EVENTS_MAX_STREAMS``) is opened
again after its ``retry``, as a browser does ("sent back"). The conditions are measured in turn,
``--rounds`` times each, since the machine is shared. Prints the load average.

    .venv/bin/python bench/live_events.py [--tables 50] [--seconds 10] [--rounds 2]
        [--interval 1.0] [--postgres postgresql://postgres@127.0.0.1:5432/postgres]
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import random
import resource
import selectors
import socket
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.load import BIN  # noqa: E402
from bench.load import PLAYERS  # noqa: E402
from bench.load import Client  # noqa: E402
from bench.load import Server  # noqa: E402
from bench.load import free_port  # noqa: E402
from bench.load import quantile  # noqa: E402

THREADS = "256"
#: The server's keepalive comment on an idle stream (views/events.py KEEPALIVE).
KEEPALIVE = 15.0


class Stream:
    """One phone following its game: notes when each event arrives (read by ``Reader``)."""

    def __init__(self, port: int, game: int, token: str) -> None:
        self.port, self.game, self.token = port, game, token
        self.arrived = threading.Condition()
        self.count = 0
        self.last_at = 0.0
        self.open = threading.Event()
        self.last_id: bytes | None = None
        self.retry = 1.0
        #: How many times the server ended the stream early (its worker held all it may).
        self.sent_back = 0
        self.connect()

    def connect(self) -> None:
        """Open the stream (again, as a browser does, with the last event's id)."""
        self.buffer = b""
        resume = f"Last-Event-ID: {self.last_id.decode()}\r\n" if self.last_id else ""
        self.sock = socket.create_connection(("127.0.0.1", self.port))
        self.sock.sendall(
            f"GET /api/v1/games/{self.game}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            f"Authorization: Bearer {self.token}\r\n{resume}\r\n".encode()
        )
        self.sock.setblocking(False)

    def received(self, chunk: bytes, at: float) -> None:
        """What the socket gave: every complete line of it read; each ``data:`` line an event."""
        lines = (self.buffer + chunk).split(b"\n")
        self.buffer = lines.pop()
        events = 0
        for line in lines:
            if line.startswith(b"data: "):
                events += 1
            elif line.startswith(b"id: "):
                self.last_id = line[4:].strip()
            elif line.startswith(b"retry: "):
                self.retry = int(line[7:]) / 1000
            elif line.startswith(b"HTTP/1.1 200"):
                self.open.set()  # any other answer: never open, the run fails
        if events:
            with self.arrived:
                self.count += events
                self.last_at = at
                self.arrived.notify_all()

    def close(self) -> None:
        with contextlib.suppress(OSError):  # already closed by the server
            self.sock.shutdown(socket.SHUT_RDWR)
        self.sock.close()

    def wait_past(self, count: int, timeout: float = 5.0) -> float | None:
        """When the event after the ``count``-th arrived (None: not within ``timeout``)."""
        with self.arrived:
            if self.arrived.wait_for(lambda: self.count > count, timeout):
                return self.last_at
        return None


class Reader(threading.Thread):
    """Every open stream read by one thread (epoll), as cheap for the shared cores as can be:
    the clients run on the same 2 cores as the server."""

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.selector = selectors.DefaultSelector()
        self.added: list[Stream] = []
        self.lock = threading.Lock()
        self.stopped = False
        #: Streams the server ended, to open again (when).
        self.again: list[tuple[float, Stream]] = []

    def add(self, stream: Stream) -> None:
        with self.lock:
            self.added.append(stream)

    def run(self) -> None:
        while not self.stopped:
            with self.lock:
                added, self.added = self.added, []
            now = time.monotonic()
            due = [stream for when, stream in self.again if when <= now]
            self.again = [(when, stream) for when, stream in self.again if when > now]
            for stream in due:
                stream.connect()
            for stream in added + due:
                self.selector.register(stream.sock, selectors.EVENT_READ, stream)
            for key, _ in self.selector.select(0.05):
                stream = key.data
                try:
                    chunk = stream.sock.recv(65536)
                except BlockingIOError:
                    continue
                except OSError:
                    chunk = b""
                if not chunk:  # the server ended it: back after its retry, as a browser comes
                    self.selector.unregister(stream.sock)
                    stream.sock.close()
                    stream.sent_back += 1
                    self.again.append((time.monotonic() + stream.retry, stream))
                    continue
                stream.received(chunk, time.perf_counter())

    def stop(self) -> None:
        """Stop reading (before the streams are closed: none is opened again)."""
        self.stopped = True
        self.join(timeout=5)
        self.selector.close()


class Table:
    """A table: the scorekeeper's account, its game, its seven seat tokens."""

    def __init__(self, save_port: int, number: int) -> None:
        self.client = Client(save_port, number)
        status, self.state = self.client.api(
            "POST", "/api/v1/games", {"game": "oh_hell", "players": PLAYERS}
        )
        assert status == 201, self.state
        self.id = self.state["id"]
        status, link = self.client.api("POST", f"/api/v1/games/{self.id}/seat-link")
        assert status == 201, link
        token = link["url"].rsplit("/", 1)[1]
        self.seats = {}
        for name in PLAYERS:
            status, claim = self.client.api(
                "POST", f"/api/v1/seat-links/{token}/seats", {"player": name}
            )
            assert status == 201, claim
            self.seats[name] = claim["seat_token"]
        self.phones: dict[str, Client] = {}
        for name in PLAYERS:
            phone = Client.__new__(Client)
            phone.port = save_port
            phone.connection = http.client.HTTPConnection("127.0.0.1", save_port, timeout=120)
            phone.cookies = {}
            phone.bearer = {"Authorization": f"Bearer {self.seats[name]}"}
            self.phones[name] = phone
        self.streams: dict[str, Stream] = {}

    def follow(self, port: int, reader: Reader) -> None:
        self.streams = {name: Stream(port, self.id, token) for name, token in self.seats.items()}
        self.streams["scorekeeper"] = Stream(port, self.id, self.client.bearer["Authorization"][7:])
        for stream in self.streams.values():
            reader.add(stream)

    def saves(self):
        """The next save, again and again: each bid in turn, then the hand's tricks."""
        while True:
            upcoming = self.state["next"]
            order = upcoming["order"]
            cards = upcoming["cards"]
            for index, name in enumerate(order):
                bid = 0 if index else cards
                following = order[index + 1] if index + 1 < len(order) else "scorekeeper"
                yield (self.phones[name], "PUT", "/api/v1/seat/entry", {"bid": bid}, following)
            tricks = {name: (cards if name == order[0] else 0) for name in order}
            yield (
                self.client,
                "PATCH",
                f"/api/v1/games/{self.id}/hands/{upcoming['number']}",
                {"tricks": tricks},
                order[0],
            )
            status, self.state = self.client.api("GET", f"/api/v1/games/{self.id}")
            if not self.state.get("next"):
                status, self.state = self.client.api("POST", f"/api/v1/games/{self.id}/again", {})
                assert status == 201, self.state
                self.id = self.state["id"]
                return


def play(table: Table, stop: threading.Event, interval: float, saves: list, delays: list) -> None:
    # Tables are not in step: each starts at its own moment of the interval, and its saves
    # come every ``interval`` seconds on average (uniformly from half to one and a half).
    pace = random.Random(table.id)
    time.sleep(pace.uniform(0, interval))
    while not stop.is_set():
        for phone, method, url, body, following in table.saves():
            if stop.is_set():
                return
            stream = table.streams.get(following)
            seen = stream.count if stream else 0
            began = time.perf_counter()
            status, answer = phone.api(method, url, body)
            took = time.perf_counter() - began
            assert status == 200, (url, body, answer)
            saves.append(took)
            if stream is not None:
                arrived = stream.wait_past(seen)
                delays.append((arrived - began) if arrived else float("inf"))
            wait = pace.uniform(interval / 2, interval * 1.5)
            time.sleep(max(0.0, wait - (time.perf_counter() - began)))
        if table.streams:
            return  # a new game (play again) has no streams: this table is done


def cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) of process ``pid`` and its children (Linux's /proc)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        with open(f"/proc/{pid}/task/{pid}/children") as listed:
            children = [int(child) for child in listed.read().split()]
    except OSError:
        return 0.0
    own = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return own + sum(cpu_seconds(child) for child in children)


def bench_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_SELF)
    return used.ru_utime + used.ru_stime


def run(save_port: int, follow_port: int | None, servers: list[int], args) -> dict:
    """One run: the tables made, their phones following (``follow_port``), the saves for
    ``args.seconds``; the saves' times, the events' delays and the CPU each side used."""
    made = [Table(save_port, number) for number in range(args.tables)]
    reader = Reader()
    reader.start()
    if follow_port is not None:
        for table in made:
            table.follow(follow_port, reader)
        for table in made:
            for stream in table.streams.values():
                stream.open.wait(30)
                stream.wait_past(0)  # the first event: the game as it is
    saves: list[float] = []
    delays: list[float] = []
    stop = threading.Event()
    threads = [
        threading.Thread(target=play, args=(table, stop, args.interval, saves, delays))
        for table in made
    ]
    cpu = (sum(cpu_seconds(pid) for pid in servers), bench_cpu(), time.perf_counter())
    for thread in threads:
        thread.start()
    time.sleep(args.seconds)
    stop.set()
    for thread in threads:
        thread.join(timeout=30)
    elapsed = time.perf_counter() - cpu[2]
    server_cpu = (sum(cpu_seconds(pid) for pid in servers) - cpu[0]) / elapsed
    client_cpu = (bench_cpu() - cpu[1]) / elapsed
    unopened = sum(1 for t in made for stream in t.streams.values() if not stream.open.is_set())
    reader.stop()
    for table in made:
        for stream in table.streams.values():
            stream.close()
    assert not unopened, f"{unopened} streams were never answered"
    sent_back = sum(stream.sent_back for t in made for stream in t.streams.values())
    return {
        "saves": saves,
        "delays": delays,
        "server": server_cpu,
        "bench": client_cpu,
        "sent_back": sent_back,
    }


def extra_server(uri: str, folder: str) -> tuple[subprocess.Popen, int]:
    """A second app process on its own port, on the same database."""
    port = free_port()
    env = {
        **os.environ,
        "INSTANCE_PATH": folder,
        "SECRET_KEY": "bench",
        "DATABASE_URL": uri,
        "LOGIN_ADDRESS_LIMIT": "100000 per 1 minute",
    }
    process = subprocess.Popen(
        [str(BIN / "gunicorn"), "--workers", "2", "--bind", f"127.0.0.1:{port}", "app:app"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return process, port
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("the second gunicorn did not start")


def ms(values: list[float], q: float) -> str:
    return f"{quantile(values, q) * 1000:.0f}" if values else "-"


def report(label: str, base: dict, measured: dict) -> None:
    """One line: the saves' p95 without and with the streams, the events' delays, and the CPU
    (in cores) the servers and this bench used meanwhile, without and with the streams."""
    before, saves, delays = base["saves"], measured["saves"], measured["delays"]
    ratio = quantile(saves, 0.95) / quantile(before, 0.95) if before and saves else float("nan")
    lost = sum(1 for delay in delays if delay == float("inf"))
    print(
        f"{label:<28} saves {len(saves):>4}  save p95 {ms(before, 0.95):>4} ms without streams, "
        f"{ms(saves, 0.95):>4} ms with ({ratio:.2f}x)  event p50 {ms(delays, 0.5):>4} ms "
        f"p95 {ms(delays, 0.95):>4} ms  lost {lost}  sent back {measured['sent_back']}  "
        f"cpu server {base['server']:.2f}->"
        f"{measured['server']:.2f} bench {base['bench']:.2f}->{measured['bench']:.2f}  "
        f"load {os.getloadavg()[0]:.2f}",
        flush=True,
    )


def merged(runs: list[dict]) -> dict:
    """The runs of one condition as one: every save and event, the mean CPU."""
    return {
        "saves": [took for one in runs for took in one["saves"]],
        "delays": [delay for one in runs for delay in one["delays"]],
        "server": sum(one["server"] for one in runs) / len(runs),
        "bench": sum(one["bench"] for one in runs) / len(runs),
        "sent_back": sum(one["sent_back"] for one in runs),
    }


def bench(label: str, uri: str | None, args) -> None:
    """Each condition measured ``args.rounds`` times, in turn (without streams, with them, and
    with ``uri`` across two processes): the machine is shared, and what else runs on it
    changes from minute to minute; taken in turn, the conditions see it alike."""
    os.environ["GUNICORN_THREADS"] = THREADS
    server = Server(uri, args.tables)
    extra = None
    try:
        pids = [server.process.pid]
        if uri:
            extra, port = extra_server(uri, server.folder)
        runs: dict[str, list[dict]] = {"base": [], "streams": [], "two": []}
        for _ in range(args.rounds):
            runs["base"].append(run(server.port, None, pids, args))
            runs["streams"].append(run(server.port, server.port, pids, args))
            # The streams just closed hold their threads until the server notices they are
            # gone: its second keepalive write fails (the first is taken by the kernel).
            # Waited for, else they take the next run's threads.
            time.sleep(2 * KEEPALIVE + 1)
            if uri:
                runs["two"].append(run(port, server.port, [*pids, extra.pid], args))
                time.sleep(2 * KEEPALIVE + 1)
        base = merged(runs["base"])
        report(f"{label}, {args.tables * 8} streams", base, merged(runs["streams"]))
        if uri:
            report(f"{label}, two processes", base, merged(runs["two"]))
    finally:
        # Open streams keep a gunicorn worker busy until its graceful timeout: not waited for.
        for process in (server.process, extra):
            if process is not None:
                process.kill()
                process.wait(timeout=20)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--interval", type=float, default=1.0)
    parser.add_argument("--postgres", default=None)
    parser.add_argument("--postgres-only", action="store_true")
    args = parser.parse_args()
    print(f"{os.cpu_count()} cores; {args.tables} tables, a save every {args.interval} s each")
    if not args.postgres_only:
        bench("SQLite", None, args)
    if args.postgres:
        import sqlalchemy as sa

        name = f"scorekeeper_events_{uuid.uuid4().hex[:8]}"
        admin = sa.create_engine(args.postgres, isolation_level="AUTOCOMMIT")
        with admin.connect() as connection:
            connection.execute(sa.text(f'CREATE DATABASE "{name}"'))
        url = args.postgres.rsplit("/", 1)[0] + f"/{name}"
        try:
            bench("PostgreSQL", url, args)
        finally:
            with admin.connect() as connection:
                connection.execute(sa.text(f'DROP DATABASE "{name}" WITH (FORCE)'))
    print(json.dumps({"threads": THREADS}))


if __name__ == "__main__":
    main()
