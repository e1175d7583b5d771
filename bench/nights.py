"""Benchmark: the history list ``/nights/`` (and the other paginated lists: the API's nights,
the games) at 1,000 and 10,000 games, to show whether their cost grows with the history.

For each size, an account is filled with ``bench/run.py``'s realistic history (games shared
out over 200 weekly nights, so a night holds more games as the history grows), then each list
is requested ``--repeat`` times through the test client (one process, the full body read):
median and p95 in ms, the SQL statements of one request and its body's size (the API's
list of nights gives every game of each night, and the nights hold more games as the history
grows: its body grows with them). ``--per-night N`` shares the games out over as many
nights as hold N games each instead (2,000 nights of 5 games at 10,000 games, 200 at
1,000): the nights stay the same size whatever the history, so what a list's time does
between the two sizes is the history's doing alone. The filled databases are kept under
``--keep`` (SQLite files, reused by the next run: filling 10,000 games takes a minute or
more), so two checkouts can be timed on the very same data.

    .venv/bin/python bench/nights.py [--games 1000 10000] [--repeat 60] [--keep DIR]
        [--per-night N]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from flask_migrate import upgrade  # noqa: E402
from sqlalchemy import event  # noqa: E402

from scorekeeper import create_app  # noqa: E402
from scorekeeper.extensions import db  # noqa: E402
from scorekeeper.factory import settled  # noqa: E402
from scorekeeper.services import accounts  # noqa: E402

PASSWORD = "bench password"
URLS = [
    "/nights/",
    "/nights/?page=10",
    "/nights/?player=Ann&game=oh_hell",
    "/nights/?player=Ann",
    "/api/v1/nights",
    "/api/v1/nights?player=Ann",
    "/games/",
    "/api/v1/games",
]


def p95_of(times: list[float]) -> float:
    times = sorted(times)
    return times[max(0, int(round(0.95 * len(times))) - 1)]


def app_for(path: Path):
    return settled(
        create_app(
            {
                "SECRET_KEY": "bench",
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}",
                "WTF_CSRF_ENABLED": False,
                "PASSWORD_HASH_METHOD": "pbkdf2:sha256:1000",
            }
        )
    )


def filled(folder: Path, games: int, seed: int, per_night: int | None = None) -> Path:
    """The SQLite file of an account with ``games`` games (made once, then reused), over
    200 nights, or over nights of ``per_night`` games each."""
    import run as filler  # bench/run.py: the realistic history

    nights = 200 if per_night is None else max(1, games // per_night)
    path = folder / (f"nights-{games}.db" if per_night is None else f"nights-{games}-{nights}.db")
    if path.exists():
        return path
    part = path.with_suffix(".part")
    part.unlink(missing_ok=True)
    app = app_for(part)
    with app.app_context():
        upgrade()
        account = accounts.create_account("bench-club", PASSWORD)
        filler.fill(account.id, games, random.Random(seed), nights)
        db.session.remove()
        db.engine.dispose()
    part.rename(path)
    return path


def time_lists(path: Path, repeat: int) -> dict[str, tuple[float, float, int, float]]:
    app = app_for(path)
    statements = [0]
    with app.app_context():
        upgrade()  # a database kept from an older checkout gets this one's indexes
        event.listen(
            db.engine,
            "before_cursor_execute",
            lambda *a: statements.__setitem__(0, statements[0] + 1),
        )
    return timed(app, URLS, repeat, statements)


def bearer_of(client) -> dict[str, str]:
    """The bench account's API token, as the header that sends it."""
    token = client.post(
        "/api/v1/tokens",
        headers={"Authorization": "Basic YmVuY2gtY2x1YjpiZW5jaCBwYXNzd29yZA=="},
    ).get_json()["token"]
    return {"Authorization": f"Bearer {token}"}


def timed(app, urls: list[str], repeat: int, statements: list[int]) -> dict:
    """Each URL asked ``repeat`` times by the bench account (the API with its token), read
    to its last byte: median and p95 in ms, and the SQL statements of one request (counted
    in ``statements[0]`` by the caller's engine listener)."""
    client = app.test_client()
    client.post("/login", data={"username": "bench-club", "password": PASSWORD})
    bearer = bearer_of(client)
    found = {}
    for url in urls:
        headers = bearer if url.startswith("/api/") else {}
        times = []
        for _ in range(repeat):
            statements[0] = 0
            start = time.perf_counter()
            response = client.get(url, headers=headers)
            response.get_data()
            times.append((time.perf_counter() - start) * 1000)
            assert response.status_code == 200, (url, response.status_code)
        found[url] = (
            statistics.median(times),
            p95_of(times),
            statements[0],
            len(response.get_data()) / 1024,
        )
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[1000, 10_000])
    parser.add_argument("--repeat", type=int, default=60)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--keep", help="a folder for the filled databases (reused)")
    parser.add_argument("--per-night", type=int, help="games per night (default: 200 nights)")
    parser.add_argument("--fill-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    folder = Path(args.keep or tempfile.mkdtemp(prefix="scorekeeper-nights-bench-"))
    folder.mkdir(parents=True, exist_ok=True)
    if args.per_night is not None and args.per_night < 1:
        parser.error("--per-night must be at least 1")
    paths = {games: filled(folder, games, args.seed, args.per_night) for games in args.games}
    if args.fill_only:
        return
    results = {games: time_lists(path, args.repeat) for games, path in paths.items()}
    spread = "200 nights" if args.per_night is None else f"nights of {args.per_night} games each"
    print(
        f"Scorekeeper /nights/ bench: sqlite, {args.repeat} requests per list (test client); "
        f"the games over {spread}"
    )
    print(f"  load average (1 min): {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"{'list':<36}{'games':>7}{'median ms':>11}{'p95 ms':>9}{'SQL':>6}{'KiB':>8}")
    for url in URLS:
        for games in args.games:
            median, p95, count, size = results[games][url]
            print(f"{url:<36}{games:>7}{median:>11.1f}{p95:>9.1f}{count:>6}{size:>8.1f}")
    if len(args.games) > 1:
        small, large = min(args.games), max(args.games)
        for url in URLS:
            ratio = results[large][url][1] / results[small][url][1]
            print(f"  {url}: p95 at {large} / at {small} = {ratio:.2f}x")


if __name__ == "__main__":
    main()
