"""Bench: what the API's game state costs, in the Flask test client on SQLite.

A 3-player Oh Hell game gets 20 hands through the API. Then:
- the answer alone: the state of the replayed 20-hand game built from the game's models and
  written out as JSON (what a view and spectree do once the service has replayed the game);
- a hand save through the API (``POST .../hands`` of hand 21, then its undo) and a
  ``GET`` of the state, end to end: median of 60 each.

    .venv/bin/python bench/api_state.py
"""

from __future__ import annotations

import base64
import statistics
import sys
import tempfile
import time
import timeit
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from flask_migrate import upgrade  # noqa: E402

from scorekeeper import create_app  # noqa: E402
from scorekeeper.extensions import db  # noqa: E402
from scorekeeper.models import Game  # noqa: E402
from scorekeeper.services import accounts  # noqa: E402
from scorekeeper.services import games  # noqa: E402

PASSWORD = "correct horse battery"
PLAYERS = ["Ann", "Ben", "Cy"]


def answer(result) -> bytes:
    """The game state's answer, as the API writes it."""
    return games.state_answer(result).model_dump_json().encode()


def next_hand(state: dict) -> dict:
    """The next hand, bids and tricks at once: the first in order takes every trick."""
    upcoming = state["next"]
    order = upcoming["order"] or PLAYERS
    bids = dict.fromkeys(order, 0)
    bids[order[0]] = upcoming["cards"]
    return {"number": upcoming["number"], "bids": bids, "tricks": dict(bids)}


def main() -> None:
    folder = tempfile.mkdtemp()
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "bench",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/bench.db",
            "PASSWORD_HASH_METHOD": "pbkdf2:sha256:1000",
        }
    )
    with app.app_context():
        upgrade()
        accounts.create_account("bench", PASSWORD)
    client = app.test_client()
    basic = base64.b64encode(f"bench:{PASSWORD}".encode()).decode()
    token = client.post("/api/v1/tokens", headers={"Authorization": f"Basic {basic}"})
    headers = {"Authorization": f"Bearer {token.get_json()['token']}"}
    options = {"sequence": "custom", "custom_sizes": [1, 2, 3, 4, 5] * 5}
    body = {"game": "oh_hell", "players": PLAYERS, "options": options}
    state = client.post("/api/v1/games", json=body, headers=headers).get_json()
    path = f"/api/v1/games/{state['id']}"
    for _ in range(20):
        saved = client.post(f"{path}/hands", json=next_hand(state), headers=headers)
        assert saved.status_code == 201, saved.text
        state = saved.get_json()

    with app.test_request_context():
        result = games.played(db.session.get(Game, state["id"]))
        size = len(answer(result))
        runs = 500
        best = min(timeit.repeat(lambda: answer(result), number=runs, repeat=5)) / runs
    print(f"the answer of a 20-hand game ({size} bytes): {best * 1e6:.0f} µs")

    saves, reads = [], []
    for _ in range(60):
        started = time.perf_counter()
        saved = client.post(f"{path}/hands", json=next_hand(state), headers=headers)
        saves.append(time.perf_counter() - started)
        assert saved.status_code == 201, saved.text
        undone = client.delete(f"{path}/hands/21", headers=headers)
        assert undone.status_code == 200, undone.text
        started = time.perf_counter()
        assert client.get(path, headers=headers).status_code == 200
        reads.append(time.perf_counter() - started)
    print(f"a hand save through the API (hand 21): median {statistics.median(saves) * 1e3:.1f} ms")
    print(f"GET of the state (20 hands): median {statistics.median(reads) * 1e3:.1f} ms")


if __name__ == "__main__":
    main()
