"""Benchmark: what one phone following a shared game costs the server.

A waiting view asks every 2 seconds with If-None-Match and gets 304 until a hand is entered.
Prints the server time and SQL queries of the 304 and of a full view, the cost of one idle
viewer per minute, and how many idle viewers one single-threaded process can serve.
Run with ``make bench`` (after bench/run.py) or ``python bench/shared_view.py``.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from flask_migrate import upgrade  # noqa: E402
from sqlalchemy import event  # noqa: E402

from scorekeeper import create_app  # noqa: E402
from scorekeeper.config import database_uri  # noqa: E402
from scorekeeper.extensions import db  # noqa: E402
from scorekeeper.services import accounts  # noqa: E402
from scorekeeper.services import games  # noqa: E402
from scorekeeper.services import sharing  # noqa: E402

POLL_SECONDS = 2
REPEAT = 300


def timed(client, path, headers, counter):
    times, queries = [], 0
    for _ in range(REPEAT):
        counter[0] = 0
        start = time.perf_counter()
        response = client.get(path, headers=headers)
        times.append((time.perf_counter() - start) * 1000)
        queries = counter[0]
    times.sort()
    return statistics.median(times), times[int(0.95 * len(times)) - 1], queries, response


def main() -> None:
    folder = tempfile.mkdtemp(prefix="scorekeeper-bench-view-")
    uri = database_uri(os.environ.get("DATABASE_URL"), folder)
    app = create_app({"SECRET_KEY": "bench", "SQLALCHEMY_DATABASE_URI": uri})
    with app.app_context():
        if uri.startswith("postgresql"):
            from sqlalchemy import text

            db.session.execute(text("DROP SCHEMA public CASCADE; CREATE SCHEMA public"))
            db.session.commit()
        upgrade()
        account = accounts.create_account("bench-club", "bench password")
        played = games.create_game(account, "oh_hell", ["Ann", "Ben", "Cy", "Dee", "Eve"])
        game_id = played.game.id
        for number in range(1, 6):
            state = games.load(account, game_id).state
            cards = state.next["cards"]
            bids = {name: 0 for name in played.players}
            tricks = dict(bids)
            tricks[played.players[0]] = cards
            games.record_hand(
                games.get_game(account, game_id), {"bids": bids, "tricks": tricks}, number
            )
        token = sharing.share(games.get_game(account, game_id)).share_token
        counter = [0]

        def count(*_args):
            counter[0] += 1

        event.listen(db.engine, "before_cursor_execute", count)
    client = app.test_client()
    path = f"/view/{token}"
    full_median, full_p95, full_queries, response = timed(client, path, {}, counter)
    etag = response.headers["ETag"]
    median, p95, queries, response = timed(client, path, {"If-None-Match": etag}, counter)
    assert response.status_code == 304, response.status_code
    per_minute_ms = median * 60 / POLL_SECONDS
    viewers = int(POLL_SECONDS * 1000 / median)
    print(f"Shared view bench ({uri.split(':')[0]}):")
    print(f"{'request':<28}{'median ms':>10}{'p95 ms':>9}{'queries':>9}")
    print(f"{'full view (200)':<28}{full_median:>10.2f}{full_p95:>9.2f}{full_queries:>9}")
    print(f"{'unchanged (304)':<28}{median:>10.2f}{p95:>9.2f}{queries:>9}")
    print(
        f"one idle viewer polls every {POLL_SECONDS} s: {per_minute_ms:.0f} ms of server time "
        f"and {queries * 60 // POLL_SECONDS} queries per minute"
    )
    print(f"one single-threaded process keeps up with about {viewers} idle viewers")


if __name__ == "__main__":
    main()
