"""Benchmark: fill an account with a realistic history, then time the main pages.

Prints, for each page, the median and p95 server time over repeated requests and the number
of SQL queries one request makes. Run with ``make bench`` (SQLite in a temporary folder) or
``DATABASE_URL=postgresql://... make bench``. Options: ``--games N --repeat N``.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import sys
import tempfile
import time
from datetime import UTC
from datetime import date
from datetime import datetime
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from flask_migrate import upgrade  # noqa: E402
from sqlalchemy import event  # noqa: E402

from scorekeeper import create_app  # noqa: E402
from scorekeeper.config import database_uri  # noqa: E402
from scorekeeper.extensions import db  # noqa: E402
from scorekeeper.games import GAMES  # noqa: E402
from scorekeeper.games import Setup  # noqa: E402
from scorekeeper.games.oh_hell.rules import forbidden_dealer_bid  # noqa: E402
from scorekeeper.models import Game  # noqa: E402
from scorekeeper.models import HandEntry  # noqa: E402
from scorekeeper.models import Night  # noqa: E402
from scorekeeper.models import Player  # noqa: E402
from scorekeeper.models import Seat  # noqa: E402
from scorekeeper.services import accounts  # noqa: E402

NAMES = [
    "Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kit", "Lou",
    "Max", "Ned", "Oli", "Pam", "Quin", "Rae", "Sam", "Tia", "Uma", "Vic", "Wes", "Xan",
]  # fmt: skip


def oh_hell_entries(rng: random.Random, players: list[str], options: dict, upto: int) -> list:
    state = GAMES["oh_hell"].rules.play(Setup(tuple(players), options), [])
    entries = []
    while state.next and len(entries) < upto:
        upcoming = state.next
        cards, dealer = upcoming["cards"], upcoming["dealer"]
        bids = {name: rng.randint(0, min(cards, 2)) for name in players}
        if options["hook"]:
            others = [bid for name, bid in bids.items() if name != dealer]
            if bids[dealer] == forbidden_dealer_bid(cards, others):
                bids[dealer] = 0 if bids[dealer] else 1
        tricks = dict.fromkeys(players, 0)
        for _ in range(cards):
            tricks[rng.choice(players)] += 1
        entries.append({"bids": bids, "tricks": tricks})
        state = GAMES["oh_hell"].rules.play(Setup(tuple(players), options), entries)
    return entries


def pitch_entries(rng: random.Random, players: list[str], options: dict) -> list:
    game_rules = GAMES["pitch"].rules
    entries: list = []
    state = game_rules.play(Setup(tuple(players), options), entries)
    while state.next:
        pitcher = rng.choice(players)
        others = [name for name in players if name != pitcher]
        entries.append(
            {"pitcher": pitcher, "bid": 2, "high": pitcher, "low": rng.choice(players),
             "jack": None, "game": rng.choice(others)}
        )  # fmt: skip
        state = game_rules.play(Setup(tuple(players), options), entries)
    return entries


def gin_entries(rng: random.Random, players: list[str], options: dict) -> list:
    game_rules = GAMES["oklahoma_gin"].rules
    entries: list = []
    state = game_rules.play(Setup(tuple(players), options), entries)
    while state.next:
        entries.append(
            {"upcard": "10", "result": "knock", "knocker": rng.choice(players),
             "knocker_deadwood": rng.randint(1, 10), "opponent_deadwood": rng.randint(5, 40)}
        )  # fmt: skip
        state = game_rules.play(Setup(tuple(players), options), entries)
    return entries


PLACES = ["Ann's", "Ben's", "the club", "the cabin", ""]


def fill(account_id: int, games: int, rng: random.Random, nights: int = 200) -> dict:
    """Players, nights and games, inserted directly (derived copies computed by the rules).

    The games are shared out over ``nights`` weekly game nights, oldest first, each game
    created on its night's evening, so history pages see a realistic spread."""
    players = [Player(account_id=account_id, name=name, name_key=name.casefold()) for name in NAMES]
    db.session.add_all(players)
    first_night = date.today() - timedelta(weeks=max(nights, 1))
    evenings = [
        Night(
            account_id=account_id,
            date=first_night + timedelta(weeks=week),
            name=f"Week {week + 1}" if week % 3 else "",
            place=PLACES[week % len(PLACES)],
        )
        for week in range(nights)
    ]
    db.session.add_all(evenings)
    db.session.flush()
    per_night = max(1, -(-games // max(nights, 1)))
    ids = {"night": evenings[-1].id if evenings else None}
    for index in range(games):
        kind = rng.choices(["oh_hell", "pitch", "oklahoma_gin"], weights=[6, 3, 1])[0]
        game_rules = GAMES[kind].rules
        count = {"oh_hell": rng.randint(3, 7), "pitch": 4, "oklahoma_gin": 2}[kind]
        seated = rng.sample(players, count)
        names = [player.name for player in seated]
        options = game_rules.resolve_options({}, count)
        if kind == "oh_hell":
            options["hook"] = rng.random() < 0.5
            finished = index % 10 != 0
            entries = oh_hell_entries(rng, names, options, upto=99 if finished else 4)
        elif kind == "pitch":
            entries = pitch_entries(rng, names, options)
        else:
            entries = gin_entries(rng, names, options)
        state = game_rules.play(Setup(tuple(names), options), entries)
        night = evenings[index // per_night] if evenings else None
        started = datetime.combine(
            night.date if night else date.today(), datetime.min.time(), tzinfo=UTC
        ) + timedelta(hours=19, minutes=25 * (index % per_night))
        game = Game(
            account_id=account_id,
            night=night,
            created_at=started,
            updated_at=started + timedelta(minutes=20),
            finished_at=started + timedelta(minutes=20) if state.finished else None,
            kind=kind,
            options=options,
            first_dealer=0,
            status="finished" if state.finished else "in_progress",
            locked=state.finished,
            totals=state.totals,
            winners=state.winners,
            hand_count=len(state.hands),
            seats=[Seat(position=i, player=p) for i, p in enumerate(seated)],
            hands=[HandEntry(number=h.number, input=h.input, points=h.points) for h in state.hands],
        )
        db.session.add(game)
        if index % 100 == 99:
            db.session.flush()
        if kind == "oh_hell" and state.finished:
            ids.setdefault("finished", game)
        if kind == "oh_hell" and not state.finished:
            ids.setdefault("in_progress", game)
    db.session.commit()
    found = {key: game.id for key, game in ids.items() if isinstance(game, Game)}
    found["night"] = ids["night"]
    found["player"] = players[0].id
    return found


class QueryCounter:
    def __init__(self, engine) -> None:
        self.count = 0
        event.listen(engine, "before_cursor_execute", self.hit)

    def hit(self, *args) -> None:
        self.count += 1


def measure(client, counter: QueryCounter, method: str, url: str, repeat: int, **kwargs):
    times = []
    queries = 0
    for _ in range(repeat):
        counter.count = 0
        start = time.perf_counter()
        response = client.open(url, method=method, **kwargs)
        times.append((time.perf_counter() - start) * 1000)
        queries = counter.count
        assert response.status_code < 400, (url, response.status_code)
    times.sort()
    p95 = times[max(0, int(round(0.95 * len(times))) - 1)]
    return statistics.median(times), p95, queries


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=50)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--nights", type=int, default=200)
    args = parser.parse_args()

    folder = tempfile.mkdtemp(prefix="scorekeeper-bench-")
    uri = database_uri(os.environ.get("DATABASE_URL"), folder)
    app = create_app(
        {
            "SECRET_KEY": "bench",
            "SQLALCHEMY_DATABASE_URI": uri,
            "WTF_CSRF_ENABLED": False,
            "PASSWORD_HASH_METHOD": "pbkdf2:sha256:1000",
        }
    )
    with app.app_context():
        if uri.startswith("postgresql"):
            from sqlalchemy import text

            db.session.execute(text("DROP SCHEMA public CASCADE; CREATE SCHEMA public"))
            db.session.commit()
        upgrade()
        account = accounts.create_account("bench-club", "bench password")
        started = time.perf_counter()
        ids = fill(account.id, args.games, random.Random(args.seed), args.nights)
        filled = time.perf_counter() - started
        if uri.startswith("postgresql"):
            # Planner statistics, as autovacuum keeps them on a live database.
            from sqlalchemy import text

            db.session.execute(text("ANALYZE"))
            db.session.commit()
        counter = QueryCounter(db.engine)
        engine_name = db.engine.dialect.name

    client = app.test_client()
    client.post("/login", data={"username": "bench-club", "password": "bench password"})
    token = client.post(
        "/api/v1/tokens",
        headers={"Authorization": "Basic YmVuY2gtY2x1YjpiZW5jaCBwYXNzd29yZA=="},
    ).get_json()["token"]
    bearer = {"Authorization": f"Bearer {token}"}

    finished, playing = ids["finished"], ids["in_progress"]
    pages = [
        ("GET / (home)", "GET", "/", {}),
        ("GET /players/", "GET", "/players/", {}),
        ("GET /games/ (list)", "GET", "/games/", {}),
        ("GET game page, finished", "GET", f"/games/{finished}", {}),
        ("GET game page, in progress", "GET", f"/games/{playing}", {}),
        ("GET /api/v1/games", "GET", "/api/v1/games", {"headers": bearer}),
        ("GET /api/v1/games/<id>", "GET", f"/api/v1/games/{finished}", {"headers": bearer}),
        # History and statistics (issue #6).
        ("GET /nights/ (history)", "GET", "/nights/", {}),
        ("GET /nights/?page=10", "GET", "/nights/?page=10", {}),
        ("GET /nights/?player=&game=", "GET", "/nights/?player=Ann&game=oh_hell", {}),
        ("GET /nights/<id> (night)", "GET", f"/nights/{ids['night']}", {}),
        ("GET /history/games/<id> (chart)", "GET", f"/history/games/{finished}", {}),
        ("GET /games/<id>/sheet.csv", "GET", f"/games/{finished}/sheet.csv", {}),
        ("GET /stats/ (players)", "GET", "/stats/", {}),
        ("GET /stats/players/<id>", "GET", f"/stats/players/{ids['player']}", {}),
        ("GET /stats/oh_hell (leaderboard)", "GET", "/stats/oh_hell", {}),
        ("GET /stats/pitch (leaderboard)", "GET", "/stats/pitch", {}),
        ("GET /stats/oklahoma_gin (leaderb.)", "GET", "/stats/oklahoma_gin", {}),
        ("GET /api/v1/nights", "GET", "/api/v1/nights", {"headers": bearer}),
        ("GET /api/v1/nights/<id>", "GET", f"/api/v1/nights/{ids['night']}", {"headers": bearer}),
        (
            "GET /api/v1/players/<id>/stats",
            "GET",
            f"/api/v1/players/{ids['player']}/stats",
            {"headers": bearer},
        ),
        ("GET /api/v1/backup (whole account)", "GET", "/api/v1/backup", {"headers": bearer}),
    ]
    print(
        f"Scorekeeper bench: {engine_name}, {args.games} games in {args.nights} nights, "
        f"{len(NAMES)} players,"
    )
    print(f"filled in {filled:.1f} s; {args.repeat} requests per page (test client, one process)")
    print(f"{'page':<34}{'median ms':>10}{'p95 ms':>9}{'queries':>9}")
    for label, method, url, kwargs in pages:
        median, p95, queries = measure(client, counter, method, url, args.repeat, **kwargs)
        print(f"{label:<34}{median:>10.1f}{p95:>9.1f}{queries:>9}")
    # The write path: record a hand's bids, then undo it (so every round starts alike).
    state = client.get(f"/api/v1/games/{playing}", headers=bearer).get_json()
    body = {"number": state["next"]["number"], "bids": dict.fromkeys(state["players"], 0)}
    writes, undos, write_queries = [], [], 0
    for _ in range(args.repeat):
        counter.count = 0
        start = time.perf_counter()
        response = client.post(f"/api/v1/games/{playing}/hands", json=body, headers=bearer)
        writes.append((time.perf_counter() - start) * 1000)
        write_queries = counter.count
        assert response.status_code == 201, response.text
        start = time.perf_counter()
        client.delete(f"/api/v1/games/{playing}/hands/{body['number']}", headers=bearer)
        undos.append((time.perf_counter() - start) * 1000)
    for label, times in (("POST a hand (API)", writes), ("DELETE last hand (API)", undos)):
        times.sort()
        p95 = times[max(0, int(round(0.95 * len(times))) - 1)]
        queries = write_queries if times is writes else "-"
        print(f"{label:<34}{statistics.median(times):>10.1f}{p95:>9.1f}{queries:>9}")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory (RSS) of this process: {peak:.0f} MiB")


if __name__ == "__main__":
    main()
