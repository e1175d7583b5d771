"""Bench: does a save cost more as the game grows? A save at round 400 against one at round 4.

Two 2-player Oklahoma Gin games (to 1,000 points, 2 points a round, so neither ends), one at
round 3 and one at round 399, in the Flask test client on SQLite. Each repetition saves the
next round of each, interleaved, through the API (``POST .../hands``, the whole state back)
and through the game page's form saved in place as its script does (``X-Fragment`` and
``X-Sheet-Rows``: the answer's sheet holds the new round's line only), and undoes it again
(untimed), so every timed save is the save of the same round. Prints the median and p95 of
each, the ratio of round 400 to round 4, the answer's size, and the load average.

Issue 22's target: a save at hand 400 costs at most 1.5 times a save at hand 4.

    .venv/bin/python bench/long_game.py [--rounds 400] [--repeat 30]
"""

from __future__ import annotations

import argparse
import base64
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from flask_migrate import upgrade  # noqa: E402

from scorekeeper import create_app  # noqa: E402
from scorekeeper.extensions import db  # noqa: E402
from scorekeeper.services import accounts  # noqa: E402
from scorekeeper.services import games  # noqa: E402

PASSWORD = "bench password"
SETTINGS = {"SECRET_KEY": "bench", "WTF_CSRF_ENABLED": False,
            "PASSWORD_HASH_METHOD": "pbkdf2:sha256:1000"}  # fmt: skip
ROUND = {"upcard": "7", "result": "knock", "knocker_deadwood": 2, "opponent_deadwood": 4}
FORM = {"upcard": "7", "result": "knock", "knocker": "0", "knocker_deadwood": "2",
        "opponent_deadwood": "4"}  # fmt: skip
HIDDEN = re.compile(r'<input type="hidden" name="([^"]+)" value="([^"]*)"')
ACTION = re.compile(r'<form[^>]*action="([^"]*/hands)"')
VERSION = re.compile(r'data-game-page data-version="(\d+)"')


def a_round(number: int) -> dict:
    return {**ROUND, "knocker": "Ann" if number % 2 else "Ben"}


def timed(call, *args, **kwargs) -> tuple[float, object]:
    started = time.perf_counter()
    answer = call(*args, **kwargs)
    return (time.perf_counter() - started) * 1000, answer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=400, help="the long game's timed round")
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="scorekeeper-long-game-")
    app = create_app({**SETTINGS, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/bench.db"})
    lengths = {"round 4": 3, f"round {args.rounds}": args.rounds - 1}
    ids = {}
    with app.app_context():
        upgrade()
        account = accounts.create_account("bench-club", PASSWORD)
        for label, played in lengths.items():
            game = games.create_game(account, "oklahoma_gin", ["Ann", "Ben"], {"target": 1000})
            for number in range(played):
                games.record_hand(games.get_game(account, game.game.id), a_round(number))
            ids[label] = game.game.id
        db.session.remove()
    client = app.test_client()
    basic = base64.b64encode(f"bench-club:{PASSWORD}".encode()).decode()
    token = client.post("/api/v1/tokens", headers={"Authorization": f"Basic {basic}"})
    bearer = {"Authorization": f"Bearer {token.get_json()['token']}"}
    client.post("/login", data={"username": "bench-club", "password": PASSWORD})

    times: dict[tuple[str, str], list[float]] = {}
    sizes: dict[tuple[str, str], int] = {}
    for _ in range(args.repeat):
        for label, game_id in ids.items():
            number = lengths[label] + 1
            path = f"/api/v1/games/{game_id}/hands"
            spent, answer = timed(client.post, path, json=a_round(number), headers=bearer)
            assert answer.status_code == 201, answer.text
            times.setdefault(("API", label), []).append(spent)
            sizes["API", label] = len(answer.data)
            undone = client.delete(f"{path}/{number}", headers=bearer)
            assert undone.status_code == 200, undone.text

            page = client.get(f"/games/{game_id}").text
            fields = {**dict(HIDDEN.findall(page)), **FORM}
            action = ACTION.search(page).group(1)
            # As the page's script sends it (static/js/app.js): the version the page shows,
            # so that the answer's sheet holds the lines from the round saved on only.
            headers = {"X-Fragment": "1", "X-Sheet-Rows": VERSION.search(page).group(1)}
            spent, answer = timed(client.post, action, data=fields, headers=headers)
            assert answer.status_code == 200, answer.text[:300]
            times.setdefault(("page, in place", label), []).append(spent)
            sizes["page, in place", label] = len(answer.data)
            undone = client.delete(f"{path}/{number}", headers=bearer)
            assert undone.status_code == 200, undone.text

    short, long = lengths
    print(f"2-player Oklahoma Gin, {args.repeat} saves each, SQLite, Flask test client")
    for path in ("API", "page, in place"):
        medians = {}
        for label in (short, long):
            spent = sorted(times[path, label])
            medians[label] = statistics.median(spent)
            p95 = spent[max(0, round(0.95 * len(spent)) - 1)]
            print(f"  {path:15} {label:10} median {medians[label]:6.1f} ms  p95 {p95:6.1f} ms"
                  f"  answer {sizes[path, label]:,} B")  # fmt: skip
        print(f"  {path:15} ratio {long} / {short}: {medians[long] / medians[short]:.2f}x")
    print("load average: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))


if __name__ == "__main__":
    main()
