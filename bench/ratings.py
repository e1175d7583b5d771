"""Bench: the ratings and the night's story at scale (issue 23).

Fills an account with ``bench/run.py``'s realistic history (``bench/nights.py``'s filler, its
databases reused with ``--keep``), then times, through the test client, with the number of SQL
statements of each request:

- ``GET /api/v1/ratings`` (every card game, and Oh Hell), ``/stats/ratings``, a player's
  statistics (API, and the page with the rating chart), head to head of two players, a
  night's recap (API and page): median and p95;
- re-rating after a correction of the oldest finished game (every later game rated again):
  ``ratings.rerate`` from that game on, and the same from the newest game;
- a save that ends a game (the usual one that rates): a one-card Oh Hell game of four of the
  history's players, its one hand saved through the API (``POST .../hands``, the game made
  before the clock starts): median and p95, and its SQL statements.

    .venv/bin/python bench/ratings.py [--games 1000 10000] [--keep FOLDER]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import sqlalchemy as sa  # noqa: E402
from flask_migrate import upgrade  # noqa: E402
from nights import app_for  # noqa: E402
from nights import bearer_of  # noqa: E402
from nights import filled  # noqa: E402
from nights import p95_of  # noqa: E402
from nights import timed  # noqa: E402
from sqlalchemy import event  # noqa: E402

from scorekeeper.extensions import db  # noqa: E402
from scorekeeper.models import Account  # noqa: E402
from scorekeeper.models import Game  # noqa: E402
from scorekeeper.models import Night  # noqa: E402
from scorekeeper.models import Player  # noqa: E402
from scorekeeper.services import games as game_service  # noqa: E402
from scorekeeper.services import ratings  # noqa: E402


def time_pages(path: Path, repeat: int) -> tuple[dict, dict]:
    app = app_for(path)
    statements = [0]
    with app.app_context():
        upgrade()
        event.listen(
            db.engine,
            "before_cursor_execute",
            lambda *a: statements.__setitem__(0, statements[0] + 1),
        )
        account = db.session.scalar(sa.select(Account).where(Account.username == "bench-club"))
        started = time.perf_counter()
        game_service.ratings(account, ratings.ALL)  # the first read rates the old games
        first = time.perf_counter() - started
        night = db.session.scalar(
            sa.select(Night.id).where(Night.account_id == account.id).order_by(Night.id.desc())
        )
        player, other = db.session.scalars(
            sa.select(Player.id).where(Player.account_id == account.id).order_by(Player.id).limit(2)
        ).all()
        oldest = db.session.scalar(
            sa.select(Game)
            .where(Game.account_id == account.id, Game.status == "finished")
            .order_by(Game.finished_at, Game.id)
        )
        kind = oldest.kind
        rerates = {}
        for label, since in (
            ("from the oldest game on", oldest.finished_at),
            ("the newest game", None),
        ):
            where = ratings.scope(kind, oldest.variant)
            if since is None:
                since = db.session.scalar(
                    sa.select(sa.func.max(Game.finished_at)).where(Game.account_id == account.id)
                )
            started = time.perf_counter()
            ratings.rerate(account.id, where, since)
            ratings.rerate(account.id, ratings.ALL, since)
            db.session.commit()
            rerates[label] = time.perf_counter() - started
        rerates["first read: every game rated"] = first
    urls = [
        "/api/v1/ratings",
        "/api/v1/ratings?game=oh_hell",
        "/stats/ratings",
        f"/api/v1/players/{player}/stats",
        f"/stats/players/{player}",
        f"/stats/players/{player}/versus?other={other}",
        f"/api/v1/nights/{night}/recap",
        f"/nights/{night}",
    ]
    found = timed(app, urls, repeat, statements)
    found["POST a hand that ends a game"] = game_ends(app, repeat, statements)
    return found, rerates


def game_ends(app, repeat: int, statements: list[int]) -> tuple[float, float, int, float]:
    """``repeat`` one-card Oh Hell games of the account's first four players (each with a
    long history of ratings), each ended by its one hand through the API: the save's median
    and p95 in ms, its statements and its answer's size (KiB)."""
    client = app.test_client()
    bearer = bearer_of(client)
    with app.app_context():
        account = db.session.scalar(sa.select(Account.id).where(Account.username == "bench-club"))
        names = db.session.scalars(
            sa.select(Player.name).where(Player.account_id == account).order_by(Player.id).limit(4)
        ).all()
    options = {"sequence": "up", "max_cards": 1}
    times = []
    for number in range(repeat):
        made = client.post(
            "/api/v1/games", json={"game": "oh_hell", "players": names, "options": options},
            headers=bearer,
        )  # fmt: skip
        assert made.status_code == 201, made.get_data(as_text=True)
        taker = names[number % len(names)]
        said = {name: int(name == taker) for name in names}
        statements[0] = 0
        started = time.perf_counter()
        answer = client.post(
            f"/api/v1/games/{made.get_json()['id']}/hands",
            json={"number": 1, "bids": said, "tricks": said},
            headers=bearer,
        )
        answer.get_data()
        times.append((time.perf_counter() - started) * 1000)
        assert answer.status_code == 201 and answer.get_json()["status"] == "finished"
    return statistics.median(times), p95_of(times), statements[0], len(answer.get_data()) / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[1000, 10_000])
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--keep", help="a folder for the filled databases (reused)")
    args = parser.parse_args()
    folder = Path(args.keep or tempfile.mkdtemp(prefix="scorekeeper-ratings-bench-"))
    folder.mkdir(parents=True, exist_ok=True)
    print(f"load average (1 min) at the start: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    for games in args.games:
        pages, rerates = time_pages(filled(folder, games, args.seed), args.repeat)
        print(f"{games} games ({args.repeat} requests each, test client)")
        print(f"  {'page':<40}{'median ms':>11}{'p95 ms':>9}{'SQL':>6}")
        for url, (median, p95, count, _size) in pages.items():
            print(f"  {url:<40}{median:>11.1f}{p95:>9.1f}{count:>6}")
        for label, seconds in rerates.items():
            print(f"  ratings, {label}: {seconds * 1000:.1f} ms")
    print(f"load average (1 min) at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
