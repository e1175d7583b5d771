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
from nights import bearer_of  # noqa: E402
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
from scorekeeper.services import games as game_service  # noqa: E402
from scorekeeper.services import results  # noqa: E402

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
    batch: list = []
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
        plugin = GAMES[kind]
        setup = Setup(tuple(names), options)
        state = game_rules.play(setup, entries)
        status = results.status_of(state)
        derived = results.derive(plugin, setup, state, status)
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
            variant=game_rules.variant_of(options),
            first_dealer=0,
            status=status,
            locked=state.finished,
            totals=derived.totals,
            winners=derived.winners,
            tally=derived.tally,
            hand_count=len(state.hands),
            seats=[Seat(position=i, player=p) for i, p in enumerate(seated)],
            hands=[
                HandEntry(number=h.number, input=game_rules.to_seats(h.input, names))
                for h in state.hands
            ],
        )
        db.session.add(game)
        batch.append((game, derived))
        if len(batch) == 500:
            db.session.flush()
            results.write_many(batch)
            batch.clear()
        if kind == "oh_hell" and state.finished:
            ids.setdefault("finished", game)
        if kind == "oh_hell" and not state.finished:
            ids.setdefault("in_progress", game)
    db.session.flush()
    results.write_many(batch)
    db.session.commit()
    found = {key: game.id for key, game in ids.items() if isinstance(game, Game)}
    found["night"] = ids["night"]
    found["player"] = players[0].id
    return found


class QueryCounter:
    """SQL statements sent and games replayed by one request."""

    def __init__(self, engine) -> None:
        self.count = 0
        self.replays = 0
        event.listen(engine, "before_cursor_execute", self.hit)
        real = game_service._replay

        def replay(*args, **kwargs):
            self.replays += 1
            return real(*args, **kwargs)

        game_service._replay = replay

    def hit(self, *args) -> None:
        self.count += 1

    def reset(self) -> None:
        self.count = self.replays = 0


def p95_of(times: list[float]) -> float:
    times = sorted(times)
    return times[max(0, int(round(0.95 * len(times))) - 1)]


def measure(client, counter: QueryCounter, method: str, url: str, repeat: int, **kwargs):
    times = []
    queries = replays = 0
    for _ in range(repeat):
        counter.reset()
        start = time.perf_counter()
        response = client.open(url, method=method, **kwargs)
        response.get_data()  # the whole body: a streamed answer (the backup) is timed to its end
        times.append((time.perf_counter() - start) * 1000)
        queries, replays = counter.count, counter.replays
        assert response.status_code < 400, (url, response.status_code)
    return statistics.median(times), p95_of(times), queries, replays


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
    bearer = bearer_of(client)

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
        *((f"GET /stats/{key} (leaderboard)", "GET", f"/stats/{key}", {}) for key in GAMES),
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
    print(f"{'page':<36}{'median ms':>10}{'p95 ms':>9}{'SQL':>6}{'replays':>9}")
    for label, method, url, kwargs in pages:
        median, p95, queries, replays = measure(client, counter, method, url, args.repeat, **kwargs)
        print(f"{label:<36}{median:>10.1f}{p95:>9.1f}{queries:>6}{replays:>9}")
    # The write path: a whole hand (bids and tricks) recorded, then undone, so every round
    # starts alike; then the bids alone and the tricks completing them, through the API.
    state = client.get(f"/api/v1/games/{playing}", headers=bearer).get_json()
    number, cards = state["next"]["number"], state["next"]["cards"]
    first = state["players"][0]
    bids = {name: (cards if name == first else 0) for name in state["players"]}
    whole = {"number": number, "bids": bids, "tricks": bids}
    rows = {"POST a whole hand (API)": [], "POST bids (API)": [], "PATCH tricks (API)": []}
    costs: dict[str, tuple[int, int]] = {}
    undos = []
    for _ in range(args.repeat):
        for label, method, url, sent in (
            ("POST a whole hand (API)", "POST", f"/api/v1/games/{playing}/hands", whole),
            (None, "DELETE", f"/api/v1/games/{playing}/hands/{number}", None),
            ("POST bids (API)", "POST", f"/api/v1/games/{playing}/hands",
             {"number": number, "bids": bids}),
            ("PATCH tricks (API)", "PATCH", f"/api/v1/games/{playing}/hands/{number}",
             {"tricks": bids}),
            (None, "DELETE", f"/api/v1/games/{playing}/hands/{number}", None),
        ):  # fmt: skip
            counter.reset()
            start = time.perf_counter()
            response = client.open(url, method=method, json=sent, headers=bearer)
            elapsed = (time.perf_counter() - start) * 1000
            assert response.status_code < 400, response.text
            if label is None:
                undos.append(elapsed)
            else:
                rows[label].append(elapsed)
                costs[label] = (counter.count, counter.replays)
    for label, times in rows.items():
        queries, replays = costs[label]
        print(
            f"{label:<36}{statistics.median(times):>10.1f}{p95_of(times):>9.1f}"
            f"{queries:>6}{replays:>9}"
        )
    print(f"{'DELETE last hand (API)':<36}{statistics.median(undos):>10.1f}{p95_of(undos):>9.1f}")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory (RSS) of this process: {peak:.0f} MiB")


if __name__ == "__main__":
    main()
