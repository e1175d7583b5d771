"""Bench: how many instructions one save costs the server, counted by valgrind (callgrind).

On a shared machine a save's time swings from run to run: the same code, measured minutes
apart, took 9 and 14 ms a save, and the load bench's CPU per hand moved as much. The number of
instructions the interpreter executes for a save hardly moves: valgrind counts them, whatever
else the machine is doing. So a change's effect on the server's work can be told here when
the timing benches cannot, and two checkouts compared in one run (``--against``).

Each checkout and path runs in a process of its own under ``valgrind --tool=callgrind``,
counting nothing until its saves start: the app (SQLite in a temporary folder, Flask's test
client: no server, no sockets) gets an account and a 7-player Oh Hell game, saves a few hands
to warm up, and then ``--saves`` requests are counted, as bench/load.py sends them:

- ``api``: ``POST /api/v1/games/<id>/hands``, the whole hand in one request;
- ``pages``: the bids form, then the tricks form, each saved in place (``X-Fragment``,
  ``X-Sheet-Rows``, the CSRF token and the form's idempotency key): two requests a hand.

Every request asks for a compressed answer (``Accept-Encoding: br, gzip``). A finished game
is followed by a new one (its creation counted too, as in the load bench). Prints the
instructions per request and per hand, and the ratio of the checkouts. Needs valgrind and its
header (``callgrind.h``, Debian's valgrind package) and gcc, for the switch that starts the
count (a 2-function library built in a temporary folder).

``--server`` counts inside gunicorn instead: one worker (the checkout's own gunicorn.conf.py,
its worker class) under valgrind, the load bench's client sending the same requests over a
kept-alive connection, so that the server's HTTP handling is counted too. The count starts
after a request saying ``X-Count: start`` is answered and stops before one saying ``stop``
(gunicorn's request hooks, in a config file of the bench's own that reads the checkout's).
Slower (about half a second a save under valgrind), as repeatable.

    .venv/bin/python bench/instructions.py [--saves 20] [--paths api pages] [--server]
        [--root CHECKOUT] [--against OTHER_CHECKOUT]
"""

from __future__ import annotations

import argparse
import base64
import ctypes
import http.client
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from urllib.parse import urlencode

HERE = Path(__file__).resolve().parent

PASSWORD = "bench password"
#: Requests made before the count starts (the first ones fill the caches a worker keeps): as
#: many as end a game on either path (7 hands: 7 saves through the API, 14 through the pages),
#: so that the statements first made at a game's end are made, as in a worker running for a
#: while, before the count (with 4, a count of 20 saves held one game's end and its first
#: compilations: 2.5 million instructions a save more for ratings' statements that a worker
#: makes once).
WARM_UP = 16
SWITCH = """#include <valgrind/callgrind.h>
void count_start(void) { CALLGRIND_START_INSTRUMENTATION; CALLGRIND_ZERO_STATS; }
void count_stop(void) { CALLGRIND_STOP_INSTRUMENTATION; }
"""


def unpacked(response) -> str:
    """A test client's answer as text (brotli or gzip unpacked)."""
    import load

    return load.unpacked(response.data, response.headers).decode()


def child(root: str, path: str, saves: int, switch: str) -> None:
    """In the process valgrind runs: the app of ``root``, ``saves`` counted requests."""
    os.chdir(root)
    sys.path.insert(0, root)
    import scorekeeper  # this checkout's, before the load bench puts its own on the path

    sys.path.insert(0, str(HERE))
    import load  # the load bench's hands and forms: the same requests
    from flask_migrate import upgrade

    from scorekeeper import create_app
    from scorekeeper.services import accounts

    assert Path(scorekeeper.__file__).is_relative_to(root), scorekeeper.__file__
    folder = tempfile.mkdtemp(prefix="scorekeeper-instructions-")
    app = create_app(
        {
            "SECRET_KEY": "bench",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/scorekeeper.db",
            "PASSWORD_HASH_METHOD": "pbkdf2:sha256:1000",
        }
    )
    with app.app_context():
        upgrade()
        accounts.create_account("bench-club", PASSWORD)
    client = app.test_client()
    headers = {"Accept-Encoding": "br, gzip"}
    basic = base64.b64encode(f"bench-club:{PASSWORD}".encode()).decode()
    token = json.loads(
        unpacked(client.post("/api/v1/tokens", headers={"Authorization": f"Basic {basic}"}))
    )["token"]
    bearer = {**headers, "Authorization": f"Bearer {token}"}

    def new_game() -> dict:
        sent = {"game": "oh_hell", "players": load.PLAYERS}
        return json.loads(unpacked(client.post("/api/v1/games", json=sent, headers=bearer)))

    counter = ctypes.CDLL(switch)
    if path == "api":
        state = new_game()

        def step() -> None:
            nonlocal state
            if not state.get("next"):
                state = new_game()
            upcoming = state["next"]
            answer = client.post(
                f"/api/v1/games/{state['id']}/hands",
                json=load.hand_for(upcoming, upcoming["number"]),
                headers=bearer,
            )
            assert answer.status_code == 201, unpacked(answer)[:300]
            state = json.loads(unpacked(answer))
    else:
        login = client.get("/login").text
        csrf = re.search(r'name="csrf_token" value="([^"]+)"', login).group(1)
        sent = {"csrf_token": csrf, "username": "bench-club", "password": PASSWORD}
        assert client.post("/login", data=sent).status_code == 302
        game = new_game()
        html = unpacked(client.get(f"/games/{game['id']}", headers=headers))
        made = 0

        def step() -> None:
            nonlocal html, game, made
            bids = load.form_of(html, "data-bids-form")
            tricks = load.form_of(html, "data-tricks-form")
            form, prefix = (bids, "bid") if bids else (tricks, "trick")
            if form is None:  # the game is over: the next one
                game = new_game()
                html = unpacked(client.get(f"/games/{game['id']}", headers=headers))
                return step()
            cards = max(int(value) for value in form["radios"][f"{prefix}-0"])
            fields = dict(form["hidden"])
            for seat in range(len(load.PLAYERS)):
                fields[f"{prefix}-{seat}"] = str(cards if seat == made % len(load.PLAYERS) else 0)
            sent_headers = {**headers, "X-Fragment": "1",
                            "Content-Type": "application/x-www-form-urlencoded"}  # fmt: skip
            shown = load._VERSION.search(html)
            if shown:
                sent_headers["X-Sheet-Rows"] = shown.group(1)
            answer = client.post(form["action"], data=urlencode(fields), headers=sent_headers)
            assert answer.status_code == 200, unpacked(answer)[:300]
            html = unpacked(answer)
            made += prefix == "trick"

    for _ in range(WARM_UP):  # the first saves fill the caches a worker keeps
        step()
    counter.count_start()
    for _ in range(saves):
        step()
    counter.count_stop()


def counted(out: Path, missing: int | None = None) -> int:
    """The instructions of a callgrind output file (its ``totals`` line: what was collected
    while the count was on); ``missing`` for a file without one (else an error)."""
    for line in out.read_text().splitlines():
        if line.startswith("totals:"):
            return int(line.split()[1])
    if missing is not None:
        return missing
    raise RuntimeError(f"no count in {out}")


def measure(root: Path, path: str, saves: int, switch: Path, folder: Path) -> int:
    out = folder / f"callgrind-{root.name}-{path}.out"
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    env.pop("DATABASE_URL", None)
    subprocess.run(
        ["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={out}",
         sys.executable, __file__, "--child", path, "--root", str(root), "--saves", str(saves),
         "--switch", str(switch)],
        check=True, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    return counted(out)


#: The gunicorn config of ``--server``: the checkout's own, with the hooks that start and
#: stop the count around the requests between ``X-Count: start`` and ``X-Count: stop``.
HOOKS = """import ctypes
import os

__file__ = os.path.abspath("gunicorn.conf.py")
exec(compile(open(__file__).read(), __file__, "exec"))
_switch = ctypes.CDLL({switch!r})


def _said(req):
    return dict(req.headers).get("X-COUNT")


def post_request(worker, req, environ, resp):
    if _said(req) == "start":
        _switch.count_start()


def pre_request(worker, req):
    if _said(req) == "stop":
        _switch.count_stop()
"""


def measure_server(root: Path, path: str, saves: int, switch: Path, folder: Path) -> int:
    """``saves`` requests counted inside one gunicorn worker of ``root`` (``--server``)."""
    sys.path.insert(0, str(HERE))
    import load  # the load bench's server, client and loops: the same requests

    config = folder / "gunicorn-hooks.py"
    config.write_text(HOOKS.format(switch=str(switch)))
    out = folder / f"callgrind-{root.name}-{path}-server"
    wrapper = ("valgrind", "--tool=callgrind", "--instr-atstart=no",
               f"--callgrind-out-file={out}.%p")  # fmt: skip
    os.environ["PYTHONHASHSEED"] = "0"  # as the in-process count runs (the server's env)
    server = load.Server(None, 1, root, workers=1, wrapper=wrapper, config=str(config))
    done = threading.Event()
    seen = [0]

    def tell(word: str) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=300)
        connection.request("GET", "/api/v1/count", headers={"X-Count": word})
        connection.getresponse().read()
        connection.close()

    def record(_elapsed: float, _hand: float, refused_: bool = False) -> None:
        assert not refused_, "a save was refused"
        seen[0] += 1
        if seen[0] == WARM_UP:
            tell("start")
        elif seen[0] == WARM_UP + saves:
            tell("stop")
            done.set()

    loop = load.api_loop if path == "api" else load.pages_loop
    try:
        loop(load.Client(server.port, 0), done, record, lambda: None)
    finally:
        server.stop()
    # A file per process: the master's counted nothing (it never turns the count on).
    return sum(counted(file, missing=0) for file in folder.glob(f"{out.name}.*"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--saves", type=int, default=20)
    parser.add_argument("--paths", nargs="+", choices=["api", "pages"], default=["api", "pages"])
    parser.add_argument("--root", default=str(HERE.parent))
    parser.add_argument("--against", help="a second checkout, measured the same way")
    parser.add_argument("--server", action="store_true", help="count inside gunicorn")
    parser.add_argument("--child", choices=["api", "pages"], help=argparse.SUPPRESS)
    parser.add_argument("--switch", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(str(Path(args.root).resolve()), args.child, args.saves, args.switch)
        return
    roots = [Path(args.root).resolve()] + ([Path(args.against).resolve()] if args.against else [])
    with tempfile.TemporaryDirectory(prefix="scorekeeper-instructions-") as name:
        folder = Path(name)
        (folder / "switch.c").write_text(SWITCH)
        switch = folder / "switch.so"
        subprocess.run(["gcc", "-shared", "-fPIC", "-O1", "-o", str(switch),
                        str(folder / "switch.c")], check=True)  # fmt: skip
        where = "inside gunicorn (one worker)" if args.server else "in one process"
        print(
            f"Scorekeeper: instructions the server executes for a save (valgrind, callgrind), "
            f"{where}, {args.saves} requests counted after {WARM_UP} to warm up; 7-player Oh "
            f"Hell, SQLite"
        )
        count = measure_server if args.server else measure
        print(f"{'path':<7}{'checkout':<28}{'per request':>14}{'per hand':>14}{'ratio':>8}")
        for path in args.paths:
            per_hand = 1 if path == "api" else 2  # the pages: bids, then tricks
            first = None
            for root in roots:
                each = count(root, path, args.saves, switch, folder) / args.saves
                first = first or each
                print(f"{path:<7}{root.name:<28}{each:>14,.0f}{each * per_hand:>14,.0f}"
                      f"{each / first:>8.2f}")  # fmt: skip


if __name__ == "__main__":
    main()
