"""Bench: the server's CPU per online save of a game kept on a phone ("Keep this game on this
phone" on), in process (Flask's test client, SQLite), over a whole 7-player Oh Hell game of 7
hands (14 saves):

- before (the phone asked ``ahead.json`` after every save): the save, ``play.json`` and
  ``ahead.json`` made anew (each save moves the game's version: nothing kept is reused);
- after (the phone asks only when the steps it keeps no longer cover offline play: for this
  game the ask when the switch was turned on covers every save): the save and ``play.json``;
- beside them: one ``ahead.json`` made, one from what is kept (the same version asked again),
  one 304 (the phone's If-None-Match).

CPU is the process's (``time.process_time``), the median over the saves. Run with
``.venv/bin/python bench/ahead_cost.py``; say the load average (printed)."""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper import create_app  # noqa: E402
from scorekeeper.extensions import db  # noqa: E402
from scorekeeper.models import Account  # noqa: E402
from scorekeeper.models import Game  # noqa: E402
from scorekeeper.services import games  # noqa: E402
from scorekeeper.views import offline_rules  # noqa: E402
from tests.conftest import login  # noqa: E402
from tests.conftest import make_account  # noqa: E402
from tests.test_offline_save import SEVEN  # noqa: E402
from tests.test_offline_save import bid_form  # noqa: E402
from tests.test_offline_save import server_state  # noqa: E402
from tests.test_offline_save import trick_form  # noqa: E402


def cpu(call) -> tuple[float, object]:
    started = time.process_time()
    found = call()
    return (time.process_time() - started) * 1000, found


def new_game(app) -> int:
    with app.app_context():
        account = db.session.scalar(db.select(Account))
        return games.create_game(account, "oh_hell", SEVEN, {"hook": True}).game.id


def forms(app, game: int):
    """Each save of the game, in order: (its address, its form)."""
    for number in range(1, 8):
        yield f"/games/{game}/hands", bid_form(server_state(app, game), number)
        yield f"/games/{game}/hands/{number}", trick_form(server_state(app, game))


PARTS: dict[str, list[float]] = {"save": [], "play.json": [], "needs": []}
LAST = [0]  # the last game played (what play.json's ``needs`` is timed on)


def play(app, client, ask_ahead: bool) -> list[float]:
    game = new_game(app)
    client.get(f"/offline/play/{game}/ahead.json")  # the switch turned on
    times = []
    for url, form in forms(app, game):
        spent, answer = cpu(
            lambda url=url, form=form: client.post(url, data=form, headers={"X-Fragment": "1"})
        )
        assert answer.status_code == 200, answer.status_code
        PARTS["save"].append(spent)
        asked = cpu(lambda: client.get(f"/offline/play/{game}.json"))[0]
        PARTS["play.json"].append(asked)
        spent += asked
        if ask_ahead:
            spent += cpu(lambda: client.get(f"/offline/play/{game}/ahead.json"))[0]
        times.append(spent)
    LAST[0] = game
    return times


def main() -> None:
    folder = tempfile.mkdtemp(prefix="scorekeeper-ahead-bench-")
    app = create_app({"SECRET_KEY": "bench", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/b.db",
                      "WTF_CSRF_ENABLED": False})  # fmt: skip
    with app.app_context():
        db.create_all()
    make_account(app)
    client = app.test_client()
    assert login(client).status_code == 302
    play(app, client, ask_ahead=False)  # warm up: templates compiled, rules imported
    before = play(app, client, ask_ahead=True)
    after = play(app, client, ask_ahead=False)
    game = new_game(app)
    url = f"/offline/play/{game}/ahead.json"
    made, first = cpu(lambda: client.get(url))
    reused = cpu(lambda: client.get(url))[0]
    unchanged, answer = cpu(
        lambda: client.get(url, headers={"If-None-Match": first.headers["ETag"]})
    )
    assert answer.status_code == 304
    print(f"load average: {' '.join(f'{each:.2f}' for each in os.getloadavg())}")
    print(f"per online save, before (save + play.json + ahead.json): "
          f"median {statistics.median(before):.1f} ms CPU, max {max(before):.1f}")  # fmt: skip
    print(f"per online save, after (save + play.json): "
          f"median {statistics.median(after):.1f} ms CPU, max {max(after):.1f}")  # fmt: skip
    print(f"ahead.json made {made:.1f} ms ({len(first.data) // 1024} KB), "
          f"kept {reused:.2f} ms, 304 {unchanged:.2f} ms")  # fmt: skip
    with app.app_context():
        played = games.played(db.session.get(Game, LAST[0]))
        record = [
            offline_rules._plain_entry(each) for each in games.entries_of(played.game, played.setup)
        ]
        for _ in range(14):
            PARTS["needs"].append(cpu(lambda: offline_rules._needs(played, record))[0])
    for name, times in PARTS.items():
        print(f"  {name}: median {statistics.median(times):.1f} ms CPU")
    with app.app_context():
        kept = offline_rules.ahead_kept()
        print(f"kept answers: {len(kept)}, made {kept.computed}, reused {kept.hits}")


if __name__ == "__main__":
    main()
