"""Load bench: many clients saving hands at once, against gunicorn with 2 workers.

Each client is a table of its own (an account, a 7-player Oh Hell game) saving hand after hand
as fast as the server answers, for ``--seconds`` after a short warm-up, either

- through the API (``POST /api/v1/games/<id>/hands``, the whole hand in one request), or
- through the pages as the phone does (the bids form, then the tricks form, each saved in
  place with the page's ``X-Fragment`` header and CSRF token: two requests a hand; with
  ``X-Sheet-Rows``, the game's version the page shows, as static/js/app.js sends it: the
  answer holds the sheet's lines from the saved hand on).

Every request asks for a compressed answer (``Accept-Encoding: br, gzip``), as a phone's
browser does, so the server's time counts the compression it does for the phones.

Prints, for each database and path, the hands saved per second and the p50/p95/p99 time of
one save request (ms), with the load average. SQLite in a temporary folder, and PostgreSQL
when ``--postgres URL`` names a server (a database is created there and dropped after).

The clients are threads of this process on the same machine: they take CPU from the server
(on 2 shared cores, noticeably): compare runs made the same way, not with other machines.

    .venv/bin/python bench/load.py [--clients 50] [--seconds 20] [--paths api pages]
        [--postgres postgresql://postgres@127.0.0.1:5432/postgres]
        [--root CHECKOUT] [--against OTHER_CHECKOUT]

``--against`` measures a second checkout (say, an older commit in a second folder, with
its translations compiled) right after each row, so both see the same load: the ratio column
is the first checkout's hands per second over the second's. A save refused with 409 (the
database stayed locked past its busy timeout) is counted in its own column, not as a save.
The workers' CPU time per hand saved (user and system, from /proc) is the steadier figure on a
shared machine: it does not count the time a worker waited for a core. ``client`` is this
process's own CPU time per hand (the clients building requests and reading the answers): on 2
shared cores, a checkout whose answers cost the clients more to read gets fewer hands a second
for the same work of its own. ``idle %`` is the share
of the machine's cores that nobody used meanwhile (/proc/stat): where it is well above zero the
server was not held back by the CPU alone (its workers waited, for a lock or for the clients).
The last column says how the clients' kept-alive connections fell between the workers at the
end (``23/27``; a worker holding most of them works for the others while they idle:
scorekeeper/workers.py).
"""

from __future__ import annotations

import argparse
import base64
import gzip
import http.client
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from html import unescape
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
import brotli  # noqa: E402 - Flask-Compress's own (the app's answers)

from scorekeeper import workers  # noqa: E402 - the checkout's package, once on the path

BIN = Path(sys.executable).parent
PASSWORD = "bench password"
PLAYERS = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus"]
WARM_UP = 3.0
#: The server's log (its warnings, such as a refused concurrent change) when BENCH_SERVER_LOG
#: names a file.
_LOG_FILE = os.environ.get("BENCH_SERVER_LOG")
LOG = open(_LOG_FILE, "a") if _LOG_FILE else subprocess.DEVNULL  # noqa: SIM115


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def unpacked(data: bytes, headers) -> bytes:
    """An answer's body as the server wrote it (compressed with brotli or gzip, or not)."""
    coding = headers.get("Content-Encoding")
    if coding == "br":
        return brotli.decompress(data)
    return gzip.decompress(data) if coding == "gzip" else data


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(round(q * len(ordered))) - 1))]


class Server:
    """gunicorn with 2 workers on a fresh database, and the accounts of the clients."""

    def __init__(
        self,
        uri: str | None,
        clients: int,
        root: Path = ROOT,
        workers: int = 2,
        wrapper: tuple[str, ...] = (),
        config: str | None = None,
    ) -> None:
        """``wrapper``: a command gunicorn runs under (valgrind); ``config``: a gunicorn
        config file in place of the checkout's own."""
        self.root = root
        self.folder = tempfile.mkdtemp(prefix="scorekeeper-load-")
        self.port = free_port()
        self.env = {
            **os.environ,
            "INSTANCE_PATH": self.folder,
            "SECRET_KEY": "bench",
            "FLASK_APP": "app",
            "LOGIN_ADDRESS_LIMIT": "100000 per 1 minute",
            "PYTHONPATH": str(root),
        }
        self.env.pop("DATABASE_URL", None)
        if uri:
            self.env["DATABASE_URL"] = uri
        subprocess.run([str(BIN / "flask"), "db", "upgrade"], cwd=root, env=self.env,
                       check=True, capture_output=True)  # fmt: skip
        self._accounts(clients)
        self.process = subprocess.Popen(
            [*wrapper, str(BIN / "gunicorn"), *(["-c", config] if config else []),
             "--workers", str(workers), "--bind", f"127.0.0.1:{self.port}", "app:app"],
            cwd=root, env=self.env, stdout=subprocess.DEVNULL, stderr=LOG,
        )  # fmt: skip
        for _ in range(600 if wrapper else 200):
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("gunicorn did not start")

    def _accounts(self, clients: int) -> None:
        code = (
            "import os\n"
            "from scorekeeper import create_app\n"
            "from scorekeeper.config import database_uri\n"
            "from scorekeeper.services import accounts\n"
            "uri = database_uri(os.environ.get('DATABASE_URL'), os.environ['INSTANCE_PATH'])\n"
            "app = create_app({'PASSWORD_HASH_METHOD': 'pbkdf2:sha256:1000',\n"
            "                  'SQLALCHEMY_DATABASE_URI': uri})\n"
            "with app.app_context():\n"
            f"    for n in range({clients}):\n"
            f"        accounts.create_account(f'load-club-{{n}}', {PASSWORD!r})\n"
        )
        subprocess.run([sys.executable, "-c", code], cwd=self.root, env=self.env, check=True,
                       capture_output=True)  # fmt: skip

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=20)


class Client:
    """One table: a keep-alive connection, its account, its game."""

    def __init__(self, port: int, number: int) -> None:
        self.port = port
        self.name = f"load-club-{number}"
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        self.cookies: dict[str, str] = {}
        basic = base64.b64encode(f"{self.name}:{PASSWORD}".encode()).decode()
        status, body = self.setup(
            "POST", "/api/v1/tokens", headers={"Authorization": f"Basic {basic}"}
        )
        assert status == 201, body[:300]
        self.bearer = {"Authorization": f"Bearer {json.loads(body)['token']}"}

    def setup(self, method: str, url: str, body: bytes | None = None, headers=None):
        """A request of the clients' setup (not measured), tried again while the server
        answers 409: fifty sign-ins at once can wait longer than SQLite's busy timeout."""
        for _ in range(50):
            status, text = self.request(method, url, body, headers)
            if status != 409:
                break
            time.sleep(0.2)
        return status, text

    def request(self, method: str, url: str, body: bytes | None = None, headers=None):
        # Compressed answers, as a phone's browser asks for them: the server's work counts the
        # compression (brotli, the app's first choice) as it does for the phones.
        headers = {"Accept-Encoding": "br, gzip", **(headers or {})}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        for attempt in range(2):
            try:
                self.connection.request(method, url, body=body, headers=headers)
                response = self.connection.getresponse()
                data = response.read()
                break
            except (http.client.HTTPException, OSError):
                self.connection.close()
                if attempt:
                    raise
        for value in response.headers.get_all("Set-Cookie") or []:
            pair = value.split(";", 1)[0]
            key, _, val = pair.partition("=")
            self.cookies[key.strip()] = val
        return response.status, unpacked(data, response.headers).decode("utf-8", "replace")

    def api(self, method: str, url: str, sent: dict | None = None, setup: bool = False):
        body = json.dumps(sent).encode() if sent is not None else None
        headers = {**self.bearer, "Content-Type": "application/json"}
        status, text = (self.setup if setup else self.request)(method, url, body, headers)
        return status, json.loads(text) if text.startswith(("{", "[")) else text

    def new_game(self) -> dict:
        status, state = self.api(
            "POST", "/api/v1/games", {"game": "oh_hell", "players": PLAYERS}, setup=True
        )
        assert status == 201, state
        return state


def hand_for(upcoming: dict, number: int) -> dict:
    """A whole hand: one player bids and takes every trick, the others none."""
    first = PLAYERS[number % len(PLAYERS)]
    said = {name: (upcoming["cards"] if name == first else 0) for name in PLAYERS}
    return {"number": upcoming["number"], "bids": said, "tricks": said}


def api_loop(client: Client, stop: threading.Event, record, ready) -> None:
    state = client.new_game()
    ready()
    while not stop.is_set():
        upcoming = state.get("next")
        if not upcoming:
            state = client.new_game()
            continue
        started = time.perf_counter()
        status, state = client.api(
            "POST", f"/api/v1/games/{state['id']}/hands", hand_for(upcoming, upcoming["number"])
        )
        if status == 409:  # refused (the database stayed locked): counted, state read again
            record(time.perf_counter() - started, 0, refused_=True)
            status, state = client.api("GET", f"/api/v1/games/{state['id']}", setup=True)
            continue
        record(time.perf_counter() - started, 1)
        assert status == 201, state


_FORM = re.compile(r"<form\b([^>]*)>(.*?)</form>", re.S)
_INPUT = re.compile(r"<input\b([^>]*)>")
_ATTR = re.compile(r'([\w-]+)(?:="([^"]*)")?')
#: The game's version the page shows (``data-version`` of ``data-game-page``).
_VERSION = re.compile(r'data-game-page data-version="(\d+)"')


def form_of(html: str, marker: str) -> dict | None:
    """The first form with the attribute ``marker``: its action, hidden fields and radio
    buttons (name: values)."""
    for head, inner in _FORM.findall(html):
        attrs = dict(_ATTR.findall(head))
        if marker not in attrs:
            continue
        found: dict = {"action": unescape(attrs["action"]), "hidden": {}, "radios": {}}
        for tag in _INPUT.findall(inner):
            field = dict(_ATTR.findall(tag))
            if field.get("type") == "hidden" and field.get("name"):
                found["hidden"][field["name"]] = unescape(field.get("value", ""))
            elif field.get("type") == "radio":
                found["radios"].setdefault(field["name"], []).append(field["value"])
        return found
    return None


def pages_loop(client: Client, stop: threading.Event, record, ready) -> None:
    status, page = client.request("GET", "/login")
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    sent = urlencode({"csrf_token": token, "username": client.name, "password": PASSWORD})
    status, _page = client.setup(
        "POST", "/login", sent.encode(), {"Content-Type": "application/x-www-form-urlencoded"}
    )
    assert status == 302, status
    game = client.new_game()
    status, html = client.request("GET", f"/games/{game['id']}")
    saves = 0
    ready()
    while not stop.is_set():
        bids = form_of(html, "data-bids-form")
        tricks = form_of(html, "data-tricks-form")
        form, prefix = (bids, "bid") if bids else (tricks, "trick")
        if form is None:  # the game is over: the next one
            game = client.new_game()
            status, html = client.request("GET", f"/games/{game['id']}")
            continue
        cards = max(int(value) for value in form["radios"][f"{prefix}-0"])
        first = saves % len(PLAYERS)
        fields = dict(form["hidden"])
        for seat in range(len(PLAYERS)):
            fields[f"{prefix}-{seat}"] = str(cards if seat == first else 0)
        headers = {"Content-Type": "application/x-www-form-urlencoded", "X-Fragment": "1"}
        shown = _VERSION.search(html)
        if shown:  # as the page's script does (static/js/app.js): the sheet's new lines only
            headers["X-Sheet-Rows"] = shown.group(1)
        started = time.perf_counter()
        status, html = client.request("POST", form["action"], urlencode(fields).encode(),
                                      headers)  # fmt: skip
        if status == 409:  # refused (the database stayed locked): counted, page read again
            record(time.perf_counter() - started, 0, refused_=True)
            status, html = client.setup("GET", f"/games/{game['id']}")
            continue
        record(time.perf_counter() - started, 0.5)
        assert status in (200, 201), (status, html[:300])
        if prefix == "trick":
            saves += 1


def server_workers(pid: int) -> list[int]:
    """The worker processes of the gunicorn whose master is ``pid``."""
    found = []
    for child in Path("/proc").iterdir():
        if not child.name.isdigit():
            continue
        try:
            parent = (child / "stat").read_text().rsplit(")", 1)[1].split()[1]
        except OSError:  # ended meanwhile
            continue
        if int(parent) == pid:
            found.append(int(child.name))
    return sorted(found)


def server_cpu(pid: int) -> float:
    """CPU seconds (user and system) the server's worker processes have used so far."""
    total = 0
    for worker in server_workers(pid):
        try:
            fields = Path(f"/proc/{worker}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / os.sysconf("SC_CLK_TCK")


def machine_times() -> tuple[int, int]:
    """The machine's idle time and its whole time so far (all cores, in clock ticks)."""
    ticks = [int(field) for field in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return ticks[3], sum(ticks)


def run(port: int, clients: int, seconds: float, loop, pid: int) -> dict:
    times: list[float] = []
    hands = [0.0]
    counting = threading.Event()
    lock = threading.Lock()

    refused = [0]

    def record(elapsed: float, hand: float, refused_: bool = False) -> None:
        if counting.is_set():
            with lock:
                if refused_:
                    refused[0] += 1
                else:
                    times.append(elapsed)
                hands[0] += hand

    stop = threading.Event()
    failures: list[BaseException] = []
    started_up = threading.Semaphore(0)

    def work(number: int) -> None:
        try:
            loop(Client(port, number), stop, record, started_up.release)
        except BaseException as error:  # noqa: BLE001 - reported below
            failures.append(error)
            stop.set()
            started_up.release()

    threads = [threading.Thread(target=work, args=(n,), daemon=True) for n in range(clients)]
    for thread in threads:
        thread.start()
    for _ in threads:  # every client signed in with its game open, then a warm-up
        started_up.acquire()
    time.sleep(WARM_UP)
    cpu = server_cpu(pid)
    own = time.process_time()
    idle = machine_times()
    counting.set()
    started = time.perf_counter()
    stop.wait(seconds)
    counting.clear()
    elapsed = time.perf_counter() - started
    cpu = server_cpu(pid) - cpu
    own = time.process_time() - own
    idle_after = machine_times()
    idle_share = (idle_after[0] - idle[0]) / max(idle_after[1] - idle[1], 1)
    load = os.getloadavg()[0]
    # The clients' kept-alive connections each worker holds at the end (scorekeeper/workers.py),
    # read once the figures are taken, before the clients stop.
    held = workers.held(server_workers(pid), port) if Path("/proc/net/tcp").exists() else {}
    stop.set()
    for thread in threads:
        thread.join(timeout=120)
    if failures:
        raise failures[0]
    ms = [t * 1000 for t in times]
    return {
        "hands/s": hands[0] / elapsed,
        "cpu/hand": cpu * 1000 / hands[0] if hands[0] else float("nan"),
        "client/hand": own * 1000 / hands[0] if hands[0] else float("nan"),
        "requests": len(ms),
        "refused": refused[0],
        "p50": statistics.median(ms),
        "p95": quantile(ms, 0.95),
        "p99": quantile(ms, 0.99),
        "load": load,
        "idle": 100 * idle_share,
        "connections": "/".join(str(count) for count in held.values()) or "-",
    }


def postgres_database(admin: str) -> tuple[str, str]:
    import psycopg

    name = f"load_bench_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    return name, admin.rsplit("/", 1)[0] + "/" + name


def drop_postgres(admin: str, name: str) -> None:
    import psycopg

    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def measure(engine: str, admin: str | None, path: str, root: Path, args) -> dict:
    """One row: a fresh server of ``root`` on a fresh database, its clients, their figures."""
    name = uri = None
    if admin:
        name, uri = postgres_database(admin)
    try:
        server = Server(uri, args.clients, root)
    except BaseException:
        if name:
            drop_postgres(admin, name)
        raise
    try:
        return run(server.port, args.clients, args.seconds, LOOPS[path], server.process.pid)
    finally:
        server.stop()
        if name:
            drop_postgres(admin, name)


LOOPS = {"api": api_loop, "pages": pages_loop}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--paths", nargs="+", choices=["api", "pages"], default=["api", "pages"])
    parser.add_argument("--postgres", help="an admin URL of a PostgreSQL server (else SQLite only)")
    parser.add_argument(
        "--root",
        type=Path,
        default=ROOT,
        help="the checkout to serve (another commit's, in a second folder)",
    )
    parser.add_argument(
        "--against",
        type=Path,
        help="a second checkout, measured in the same run right after each row of --root's "
        "(the ratio column: --root's hands/s over this one's)",
    )
    args = parser.parse_args()
    databases = [("sqlite", None)]
    if args.postgres:
        databases.append(("postgresql", args.postgres))
    roots = [args.root.resolve()] + ([args.against.resolve()] if args.against else [])
    rows = []
    for engine, admin in databases:
        for path in args.paths:
            found = [measure(engine, admin, path, root, args) for root in roots]
            rows += [
                (engine, path, root, each, found[0])
                for root, each in zip(roots, found, strict=True)
            ]
    print(
        f"Scorekeeper load bench: {args.clients} clients, gunicorn 2 workers (each checkout's "
        f"gunicorn.conf.py), {args.seconds:.0f} s each, {os.cpu_count()} cores; 7-player Oh Hell"
    )
    print(f"{'database':<12}{'path':<7}{'checkout':<16}{'hands/s':>9}{'ratio':>7}{'p50 ms':>9}"
          f"{'p95 ms':>9}{'p99 ms':>9}{'cpu ms/hand':>12}{'client':>8}{'saves':>8}{'409':>6}"
          f"{'load':>6}{'idle %':>7}  connections per worker")  # fmt: skip
    for engine, path, root, found, first in rows:
        ratio = first["hands/s"] / found["hands/s"] if found["hands/s"] else float("nan")
        print(
            f"{engine:<12}{path:<7}{root.name[:15]:<16}{found['hands/s']:>9.1f}{ratio:>7.2f}"
            f"{found['p50']:>9.1f}{found['p95']:>9.1f}{found['p99']:>9.1f}{found['cpu/hand']:>12.2f}"
            f"{found['client/hand']:>8.2f}{found['requests']:>8}{found['refused']:>6}{found['load']:>6.1f}"
            f"{found['idle']:>7.1f}  {found['connections']}"
        )


if __name__ == "__main__":
    main()
