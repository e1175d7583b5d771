"""One load, at most one pass of the rules over the record and a handful of SQL statements
per request, whatever the game's length: recording a hand (pages and API) takes at most 7
statements, a game page at most 5. (A game is read in one statement: its row with its seats,
changes and night; its hands in a second one when they are needed, so that a long game's
hands do not come back once per seat: services/games.py, ``game_query``. A game this worker
keeps (services/kept.py) is saved from its kept tally: no pass over the record at all, and
its hands are not read.)"""

from __future__ import annotations

import html
from contextlib import contextmanager

import pytest
from sqlalchemy import event

from scorekeeper.extensions import db
from scorekeeper.games import GAMES
from scorekeeper.services import games
from scorekeeper.services import kept
from tests.pages import game_id
from tests.pages import start_game


@contextmanager
def measured(app, monkeypatch):
    """What one request costs: the SQL statements it sends and the games it replays."""
    with app.app_context():
        engine = db.engine
    seen = {"statements": [], "replays": 0}

    def statement(conn, cursor, sql, *args):
        seen["statements"].append(sql)

    real = games._replay

    def replay(*args, **kwargs):
        seen["replays"] += 1
        return real(*args, **kwargs)

    # Every pass the rules begin over a game's record, whoever asks for it.
    seen["passes"] = 0
    begins = {}
    for plugin in GAMES.values():
        kind = type(plugin.rules)
        if kind not in begins:
            begins[kind] = kind.begin

            def begin(self, setup, _real=begins[kind]):
                seen["passes"] += 1
                return _real(self, setup)

            monkeypatch.setattr(kind, "begin", begin)

    monkeypatch.setattr(games, "_replay", replay)
    event.listen(engine, "before_cursor_execute", statement)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", statement)
        monkeypatch.setattr(games, "_replay", real)
        for kind, begin in begins.items():
            monkeypatch.setattr(kind, "begin", begin)


def oh_hell_hand(number: int) -> dict:
    """Hand ``number`` deals ``number`` cards (sequence up); Ann bids and takes them all."""
    said = {"Ann": number, "Ben": 0, "Cy": 0}
    return {"bids": said, "tricks": said}


@pytest.mark.parametrize("played_before", [0, 6])
def test_recording_a_hand_through_the_api(app, api, monkeypatch, played_before):
    state = api.post(
        "/games", {"game": "oh_hell", "players": ["Ann", "Ben", "Cy"], "options": {}}
    ).get_json()
    for number in range(1, played_before + 1):
        sent = {**oh_hell_hand(number), "number": number}
        assert api.post(f"/games/{state['id']}/hands", sent).status_code == 201
    number = played_before + 1
    hand = oh_hell_hand(number)
    with measured(app, monkeypatch) as seen:
        bids = api.post(f"/games/{state['id']}/hands", {"bids": hand["bids"], "number": number})
    assert bids.status_code == 201
    assert seen["passes"] <= 1
    assert len(seen["statements"]) <= 7, seen["statements"]
    with measured(app, monkeypatch) as seen:
        tricks = api.patch(f"/games/{state['id']}/hands/{number}", {"tricks": hand["tricks"]})
    assert tricks.status_code == 200
    assert seen["passes"] <= 1
    assert len(seen["statements"]) <= 7, seen["statements"]


def test_recording_a_hand_and_showing_the_game_on_the_pages(app, table, monkeypatch):
    game = game_id(start_game(table, app, "pitch", {"Ann": 1, "Ben": 2, "Cy": 3}))
    table.get(f"/games/{game}")  # warm up
    with measured(app, monkeypatch) as seen:
        page = table.get(f"/games/{game}")
    assert page.status_code == 200
    assert seen["passes"] <= 1
    assert len(seen["statements"]) <= 5, seen["statements"]
    form = {"number": "1", "phase": "auction", "quick": "1", "pitcher": "0", "bid": "2"}
    with measured(app, monkeypatch) as seen:
        answer = table.post(f"/games/{game}/hands", data=form)
    assert answer.status_code == 302
    assert seen["passes"] <= 1
    assert len(seen["statements"]) <= 7, seen["statements"]
    points = {"phase": "points", "pitcher_seat": "0", "high": "0", "low": "1", "game": "2"}
    with measured(app, monkeypatch) as seen:
        answer = table.post(f"/games/{game}/hands/1", data=points)
    assert answer.status_code == 302
    assert seen["passes"] <= 1
    assert len(seen["statements"]) <= 7, seen["statements"]


def test_the_finishing_hand_stays_within_the_budget(app, api, monkeypatch):
    state = api.post(
        "/games", {"game": "oklahoma_gin", "players": ["Ann", "Ben"], "options": {"target": 50}}
    ).get_json()
    with measured(app, monkeypatch) as seen:
        answer = api.post(
            f"/games/{state['id']}/hands",
            {"upcard": "9", "result": "gin", "knocker": "Ann", "opponent_deadwood": 30},
        )
    assert answer.get_json()["status"] == "finished"
    assert seen["passes"] <= 1
    # The save's 7, and the ratings of the finished game (services/ratings.py: where it
    # stands among the finished games, its players' ratings before it, the new ones).
    assert len(seen["statements"]) <= 10, seen["statements"]


def game_loads(statements: list[str]) -> int:
    """How many times a request read the game itself (its row with its seats)."""
    return sum(
        1
        for sql in statements
        if sql.lstrip().upper().startswith("SELECT") and "FROM game" in sql and "seat" in sql
    )


def hands_reads(statements: list[str]) -> int:
    """How many times a request read every hand of a game."""
    return sum(
        1
        for sql in statements
        if sql.lstrip().upper().startswith("SELECT")
        and "FROM hand_entry" in sql
        and "hand_entry.number =" not in sql
    )


@pytest.mark.parametrize(
    ("options", "typed", "message"),
    [
        (  # refused by the rules: the hook
            {"simultaneous": True, "hook": True},
            {"bid-0": "1", "bid-1": "0", "bid-2": "0"},
            "The bids add up to the 1 card dealt, which the hook forbids",
        ),
        ({}, {"bid-0": "x", "bid-1": "0", "bid-2": "0"}, "Ann's bid must be a whole number."),
    ],
)
def test_a_refused_save_on_the_pages_reads_the_game_once(
    app, table, monkeypatch, options, typed, message
):
    """A save the rules (or the form reader) refuse shows the game as it stands, with the
    message and what was typed, from the game the save loaded: one read of the game (it was
    two) and no more statements than a save that lands."""
    game = game_id(start_game(table, app, "oh_hell", {"Ann": 1, "Ben": 2, "Cy": 3}, **options))
    form = {"phase": "bids", "number": "1", **typed}
    with measured(app, monkeypatch) as seen:
        answer = table.post(f"/games/{game}/hands", data=form)
    assert answer.status_code in (400, 422)
    assert message in html.unescape(answer.text)
    assert game_loads(seen["statements"]) == 1, "\n".join(seen["statements"])
    assert hands_reads(seen["statements"]) <= 1, "\n".join(seen["statements"])
    assert len(seen["statements"]) <= 7, seen["statements"]
    # The refused attempt derived the game as it stands on its way: one pass in all (none
    # when the worker kept the game).
    assert seen["passes"] <= 1


@pytest.mark.parametrize(
    ("phase", "typed", "path", "message"),
    [
        (  # completing hand 2: the tricks do not add up to the 2 cards dealt
            "tricks",
            {"trick-0": "2", "trick-1": "1", "trick-2": "0"},
            "/hands/2",
            "add up to 3",
        ),
        (  # correcting hand 1: the hook refuses the dealer's bid
            "both",
            {"bid-0": "1", "bid-1": "0", "bid-2": "0", "trick-0": "1", "trick-1": "0"}
            | {"trick-2": "0"},
            "/hands/1",
            "may not bid 1",
        ),
        (  # the next hand while hand 2 is being played
            "bids",
            {"bid-0": "0", "bid-1": "0", "bid-2": "0"},
            "/hands",
            "Hand 2 has no tricks yet",
        ),
    ],
)
def test_a_refused_completion_or_correction_is_one_pass(
    app, table, monkeypatch, phase, typed, path, message
):
    """Hand 1 played, hand 2 bid: a refused save of its tricks, a refused correction of
    hand 1 and a hand recorded too early each show the game as it stands from one pass."""
    game = game_id(start_game(table, app, "oh_hell", {"Ann": 1, "Ben": 2, "Cy": 3}, hook=True))
    played = {"bid-0": "1", "bid-1": "1", "bid-2": "0"}
    assert table.post(f"/games/{game}/hands", data={"phase": "bids", "number": "1"} | played)
    tricks = {"phase": "tricks", "trick-0": "1", "trick-1": "0", "trick-2": "0"}
    assert table.post(f"/games/{game}/hands/1", data=tricks).status_code == 302
    bids = {"phase": "bids", "number": "2", "bid-0": "1", "bid-1": "0", "bid-2": "0"}
    assert table.post(f"/games/{game}/hands", data=bids).status_code == 302
    form = {"phase": phase, "number": "3" if path == "/hands" else "", **typed}
    with measured(app, monkeypatch) as seen:
        answer = table.post(f"/games/{game}{path}", data=form)
    assert answer.status_code == 422
    assert message in html.unescape(answer.text)
    assert game_loads(seen["statements"]) == 1, "\n".join(seen["statements"])
    assert hands_reads(seen["statements"]) <= 1, "\n".join(seen["statements"])
    assert seen["passes"] <= 1


@pytest.mark.parametrize(
    ("change", "budget"),
    [
        ({"kind": "adjust", "player": "Ann", "points": 5, "note": "Renege"}, 7),
        ({"kind": "leave", "player": "Ben"}, 7),
        ({"kind": "join", "player": "dee", "score": "zero"}, 7),  # on the roster already
        ({"kind": "substitute", "player": "Ben", "by": "Dee"}, 7),
        # A name new to the roster adds its roster entry too (what POST /players would).
        ({"kind": "join", "player": "Ann B", "score": "zero"}, 8),
        ({"kind": "substitute", "player": "Ben", "by": "Eve"}, 8),
    ],
)
def test_recording_a_change_stays_within_the_budget(app, api, monkeypatch, change, budget):
    """A change of the table costs what a hand costs, at most 6 statements and one replay
    with four hands before it, a newcomer's seat included (the roster is read with the
    game); a name new to the roster is one more row."""
    api.post("/players", {"name": "Dee"})
    players = ["Ann", "Ben", "Cy", "Fay"]
    state = api.post("/games", {"game": "oh_hell", "players": players}).get_json()
    for number in range(1, 5):
        said = {**oh_hell_hand(number)["bids"], "Fay": 0}
        sent = {"bids": said, "tricks": said, "number": number}
        assert api.post(f"/games/{state['id']}/hands", sent).status_code == 201
    with measured(app, monkeypatch) as seen:
        answer = api.post(f"/games/{state['id']}/changes", change)
    assert answer.status_code == 201, answer.text
    assert seen["passes"] == 1
    assert len(seen["statements"]) <= budget, "\n".join(sql[:90] for sql in seen["statements"])
    newcomer = change.get("by") or (change["player"] if change["kind"] == "join" else None)
    if newcomer:  # spelt as the roster spells it ("dee" is Dee)
        assert newcomer.title() in answer.get_json()["players"]


def gin_round(number: int) -> dict:
    """A round of Oklahoma Gin worth 2 points to its knocker (Ann, then Ben, in turn)."""
    knocker = "Ann" if number % 2 else "Ben"
    return {"upcard": "7", "result": "knock", "knocker": knocker, "knocker_deadwood": 2}


def test_a_long_game_is_saved_from_the_tally_the_worker_kept(app, api, monkeypatch):
    """Round 41 of a Gin game is folded onto the tally this worker kept after round 40: no
    pass over the record, none of its hands read, and the answer carries every round; its
    undo goes back to the tally kept before it, and the correction of the last round folds
    it again onto that one."""
    options = {"target": 1000}
    state = api.post(
        "/games", {"game": "oklahoma_gin", "players": ["Ann", "Ben"], "options": options}
    ).get_json()
    path = f"/games/{state['id']}/hands"
    for number in range(1, 41):
        sent = {**gin_round(number), "opponent_deadwood": 4, "number": number}
        assert api.post(path, sent).status_code == 201
    with measured(app, monkeypatch) as seen:
        answer = api.post(path, {**gin_round(41), "opponent_deadwood": 4, "number": 41})
    assert answer.status_code == 201
    assert len(answer.get_json()["hands"]) == 41
    assert answer.get_json()["totals"] == {"Ann": 42, "Ben": 40}
    assert seen["passes"] == 0
    assert hands_reads(seen["statements"]) == 0, "\n".join(seen["statements"])
    assert len(seen["statements"]) <= 7, seen["statements"]
    with measured(app, monkeypatch) as seen:
        corrected = api.patch(f"{path}/41", {"opponent_deadwood": 12})
    assert corrected.status_code == 200
    assert corrected.get_json()["totals"] == {"Ann": 50, "Ben": 40}
    assert seen["passes"] == 0
    assert hands_reads(seen["statements"]) == 0, "\n".join(seen["statements"])
    with measured(app, monkeypatch) as seen:
        undone = api.delete(f"{path}/41")
    assert undone.status_code == 200
    assert len(undone.get_json()["hands"]) == 40
    assert undone.get_json()["totals"] == {"Ann": 40, "Ben": 40}
    assert seen["passes"] == 0
    assert hands_reads(seen["statements"]) == 0, "\n".join(seen["statements"])
    # What the worker kept is what a replay of the stored game derives.
    kept.forget()
    with measured(app, monkeypatch) as seen:
        replayed = api.get(f"/games/{state['id']}").get_json()
    assert seen["passes"] == 1
    assert replayed == undone.get_json()
