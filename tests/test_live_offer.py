"""The state a request hands over to its process's event streams (``services.live.offer``)
is exactly what a stream reading the game afresh would send: after every kind of change
(a seat's bid, the scorekeeper's draft entry, the last bid that opens the hand, the tricks,
a correction, an undo, a change of the table, a page's save, abandon and resume), for every
reader (the scorekeeper and each seat, secret bids included)."""

from __future__ import annotations

import pytest

from scorekeeper.extensions import db
from scorekeeper.models import Game
from scorekeeper.services import events
from scorekeeper.services import games
from scorekeeper.services import kept as snapshots
from scorekeeper.services import live
from tests.pages import game_id
from tests.pages import start_game
from tests.test_seats import PLAYERS
from tests.test_seats import new_game
from tests.test_seats import seats_for


@pytest.fixture
def watched(monkeypatch):
    """Every game followed by a stream of this process (so each change is handed over)."""
    monkeypatch.setattr(events.HUB, "watching", lambda game_id: True)
    live.STATES.clear()


def handed_over(app, game: int) -> tuple[int, dict]:
    """The state the last change handed over, beside the one a fresh read derives: each event
    text, by reader."""
    with app.app_context():
        snapshots.forget(game)  # a whole replay, not what the requests kept
        fresh = live.derived(lambda: db.session.get(Game, game, options=games.whole_game()))
        version, created = fresh[0], fresh[1]
        before = live.STATES.computed
        kept = live.STATES.get(live.key(game, version, created), lambda: None)
        assert live.STATES.computed == before, f"version {version} was not handed over"
        db.session.close()
    for reader in (None, *PLAYERS):
        assert live.event_text(*kept[:1], *kept[2:], reader) == live.event_text(
            *fresh[:1], *fresh[2:], reader
        ), (version, reader)
    return version, kept


@pytest.mark.parametrize("simultaneous", [False, True], ids=["in turn", "secret"])
def test_every_kind_of_change_hands_over_what_a_fresh_read_sends(app, api, watched, simultaneous):
    options = {"simultaneous": True, "hook": True} if simultaneous else {}
    game = new_game(api, **options)
    phones = seats_for(app, api, game)
    state = api.get(f"/games/{game}").get_json()
    seen = [handed_over(app, game)[0]]

    def step(send) -> None:
        send()
        version, _ = handed_over(app, game)
        assert version > seen[-1]
        seen.append(version)

    for number in (1, 2):
        upcoming = api.get(f"/games/{game}").get_json()["next"]
        order, cards = upcoming["order"] or upcoming["players"], upcoming["cards"]
        # The scorekeeper enters the first bid, the phones the others; the last opens the hand.
        sent = api.request("PUT", f"/games/{game}/draft", json={"player": order[0], "value": 0})
        assert sent.status_code == 200, sent.text
        step(lambda: None)
        for index, name in enumerate(order[1:], 1):
            bid = cards if index == len(order) - 1 and not simultaneous else 0
            step(lambda name=name, bid=bid: phones[name].bid(bid))
        tricks = {name: (cards if name == order[-1] else 0) for name in order}
        where = f"/games/{game}/hands/{number}"
        step(lambda where=where, tricks=tricks: check(api.patch(where, {"tricks": tricks})))
    first = state["next"]["order"] or state["next"]["players"]
    corrected = {name: (1 if name == first[0] else 0) for name in first}
    step(lambda: check(api.patch(f"/games/{game}/hands/1", {"tricks": corrected})))
    step(lambda: check(api.delete(f"/games/{game}/hands/2")))
    change = {"kind": "sit_out", "player": PLAYERS[-1], "before_hand": 2}
    step(lambda: check(api.post(f"/games/{game}/changes", change), 201))
    step(lambda: check(api.post(f"/games/{game}/abandon")))
    step(lambda: check(api.post(f"/games/{game}/resume")))


def test_a_page_save_hands_over_what_a_fresh_read_sends(app, table, watched):
    game = game_id(start_game(table, app, "score_pad", {"Ann": 1, "Ben": 2, "Cy": 3}, name="Catan"))
    first = handed_over(app, game)[0]
    saved = table.post(
        f"/games/{game}/hands",
        data={"phase": "points", "point-0": "5", "point-1": "-2", "point-2": "0"},
    )
    assert saved.status_code in (200, 302, 303), saved.text
    assert handed_over(app, game)[0] > first


def check(answer, status: int = 200):
    assert answer.status_code == status, answer.text
    return answer


def test_a_version_held_by_its_request_is_told_by_it_and_a_rolled_back_one_is_forgotten():
    """The database may tell a process of a commit (NOTIFY) before the request that made it
    ends: the streams wait for that request (which hands over the state), and a version whose
    transaction rolled back holds nothing back."""
    hub = events.Hub()
    hub.hold(7, 5)
    hub.publish(7, 5)  # told by the database first: held back
    assert hub.wait(7, 4, timeout=0) is None
    hub.release(7, 5)
    assert hub.wait(7, 4, timeout=0) == 5
    hub.hold(7, 6)
    hub.release(7, 6, committed=False)  # rolled back: nothing told, nothing held
    assert hub.wait(7, 5, timeout=0) is None
    hub.publish(7, 6)  # the next commit of another process, with that version
    assert hub.wait(7, 5, timeout=0) == 6
    hub.hold(7, 8)
    hub.publish(7, 9)  # a later version made elsewhere is told at once
    assert hub.wait(7, 6, timeout=0) == 9


def test_a_version_told_by_the_database_while_held_by_a_request_that_failed_is_told():
    """A request flushed version 3 but another process committed its own version 3 first (the
    request's commit fails, 409): the database's word of that commit, held back meanwhile, is
    told once the request rolls back."""
    hub = events.Hub()
    hub.hold(4, 3)
    hub.publish(4, 3)  # NOTIFY of the other process's commit
    assert hub.wait(4, 2, timeout=0) is None
    hub.release(4, 3, committed=False)
    assert hub.wait(4, 2, timeout=0) == 3


def test_a_change_that_leaves_the_record_keeps_the_tally_for_the_new_version(app, api):
    """A phone's bid (the draft) and a seat claimed change the game's version, not its record:
    the worker keeps its tally for the new version, so neither the next request nor a stream
    replays the record."""
    game = new_game(api)
    phones = seats_for(app, api, game)
    order = api.get(f"/games/{game}").get_json()["next"]["order"]
    phones[order[0]].bid(1)
    with app.app_context():
        row = db.session.get(Game, game)
        snapshot = snapshots.get(row, games.setup_for(row))
        assert snapshot is not None
        assert snapshot.key[2] == row.version
        assert row.version > 1
