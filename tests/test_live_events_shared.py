"""What the event streams of one game share in a process (issue 21, the bench item): the game
read and its state written once per version for every stream (none at all when the request
that made the change handed it over), each event's text once per version and what its reader
may see, and never a payload handed to a reader who may see less (a secret bid)."""

from __future__ import annotations

import re
import threading
import time

import pytest

from scorekeeper.services import live
from scorekeeper.services.events import Shared
from scorekeeper.views import events as events_view
from tests.test_seats import new_game
from tests.test_seats import read_events
from tests.test_seats import seats_for


class Phone(threading.Thread):
    """A phone following the game in a thread of its own (as a server's thread serves each
    stream): its first event (the game as it is), then ``more`` events."""

    def __init__(self, app, game: int, token: str, more: int = 1) -> None:
        super().__init__(daemon=True)
        self.app, self.game, self.token, self.more = app, game, token, more
        self.ready = threading.Event()
        self.events: list[dict] = []

    def run(self) -> None:
        response = self.app.test_client().get(
            f"/api/v1/games/{self.game}/events",
            headers={"Authorization": f"Bearer {self.token}"},
            buffered=False,
        )
        assert response.status_code == 200
        self.events = read_events(response, 1)
        self.ready.set()
        self.events += read_events(response, self.more)
        response.close()

    def following(self) -> Phone:
        self.start()
        assert self.ready.wait(10)
        return self

    def then(self) -> list[dict]:
        """The events after the first."""
        self.join(10)
        return self.events[1:]


def test_one_computation_answers_every_thread_asking_for_the_same_key_at_once():
    shared = Shared()
    started = threading.Event()
    calls = []

    def compute():
        calls.append(1)
        started.set()
        time.sleep(0.2)  # the others ask meanwhile
        return "state of version 3"

    answers = []
    threads = [
        threading.Thread(target=lambda: answers.append(shared.get(("game", 3), compute)))
        for _ in range(8)
    ]
    threads[0].start()
    started.wait(5)
    for thread in threads[1:]:
        thread.start()
    for thread in threads:
        thread.join(5)
    assert calls == [1]
    assert answers == ["state of version 3"] * 8
    assert shared.get(("game", 3), lambda: "read again") == "state of version 3"
    assert shared.get(("game", 4), lambda: "version 4") == "version 4"


def test_a_failed_computation_is_not_kept_and_the_next_asker_computes_again():
    shared = Shared()

    def fails():
        raise RuntimeError("the database went away")

    with pytest.raises(RuntimeError):
        shared.get("key", fails)
    assert shared.get("key", lambda: "read") == "read"


def test_a_value_found_for_another_key_is_kept_under_that_one_and_none_is_not_kept():
    shared = Shared()
    assert shared.get(("game", 3), lambda: (4, "state 4"), keep_as=lambda v: ("game", v[0])) == (
        4,
        "state 4",
    )
    assert shared.get(("game", 4), lambda: "not asked") == (4, "state 4")
    assert shared.get(("game", 3), lambda: None, keep_as=lambda v: None) is None
    assert shared.get(("game", 3), lambda: "asked again") == "asked again"


def test_the_latest_values_only_are_kept():
    shared = Shared(kept=2)
    for key in range(3):
        shared.get(key, lambda key=key: f"value {key}")
    assert shared.get(0, lambda: "read again") == "read again"
    assert shared.get(2, lambda: "not asked") == "value 2"


@pytest.fixture(params=["handed over", "read by the streams"])
def reads(request, monkeypatch) -> int:
    """How many times the streams of the process read the game for a change: none when the
    request that made it hands the state over (``live.offer``), once for all of them when it
    does not (the change was made by another process)."""
    if request.param == "read by the streams":
        monkeypatch.setattr(live, "offer", lambda game, version: False)
        return 1
    return 0


def test_a_secret_bid_never_reaches_another_reader_through_a_shared_event(app, api, reads):
    """Simultaneous bidding: the seat that bid, another seat and the scorekeeper follow the
    game in one process; each gets its own text of the new version, the bid hidden from all
    but its seat, and the game is read once at most for the three."""
    app.config.update(EVENTS_LIFETIME=5, EVENTS_KEEPALIVE=1)
    game = new_game(api, simultaneous=True)
    phones = seats_for(app, api, game)
    readers = {name: phones[name].api.token for name in ("Ann", "Ben")} | {"keeper": api.token}
    streams = {name: Phone(app, game, token).following() for name, token in readers.items()}
    before, texts = live.STATES.computed, live.PAYLOADS.computed
    phones["Ann"].bid(1)
    seen = {name: stream.then()[0] for name, stream in streams.items()}
    assert len({event["id"] for event in seen.values()}) == 1
    assert seen["Ann"]["data"]["draft"]["entries"] == {"Ann": 1}
    assert seen["Ben"]["data"]["draft"]["entries"] == {"Ann": "secret"}
    assert seen["keeper"]["data"]["draft"]["entries"] == {"Ann": "secret"}
    assert seen["Ben"]["data"]["draft"]["entered"] == ["Ann"]
    assert live.STATES.computed - before == reads  # at most one read for three streams
    assert live.PAYLOADS.computed - texts == 3  # a text for each who may see otherwise


def test_readers_who_may_see_the_same_share_one_event_text(app, api, reads):
    """Bids in turn (nothing secret): the seats and the scorekeeper see the same draft, so one
    text serves them all, and it says the bid."""
    app.config.update(EVENTS_LIFETIME=5, EVENTS_KEEPALIVE=1)
    game = new_game(api)
    phones = seats_for(app, api, game)
    order = api.get(f"/games/{game}").get_json()["next"]["order"]
    tokens = [phones[name].api.token for name in order[1:3]] + [api.token]
    streams = [Phone(app, game, token).following() for token in tokens]
    before, texts = live.STATES.computed, live.PAYLOADS.computed
    phones[order[0]].bid(1)
    seen = [stream.then()[0] for stream in streams]
    assert all(event == seen[0] for event in seen)
    assert seen[0]["data"]["draft"]["entries"] == {order[0]: 1}
    assert live.STATES.computed - before == reads
    assert live.PAYLOADS.computed - texts == 1


def test_events_keep_coming_after_a_claim_change_and_a_draft_change(app, api):
    """A seat freed by the scorekeeper and claimed again, the scorekeeper's own draft entry
    and a phone's bid: each is a new version of the game, and each reaches a phone that
    follows it with what changed."""
    app.config.update(EVENTS_LIFETIME=5, EVENTS_KEEPALIVE=1)
    game = new_game(api, simultaneous=True)
    ben = seats_for(app, api, game, ["Ann", "Ben"])["Ben"]
    changes = []

    def change(step) -> dict:
        """The event that reaches Ben's phone after ``step``."""
        phone = Phone(app, game, ben.api.token).following()
        step()
        changes.append(phone.then()[0])
        return changes[-1]

    def free():
        assert api.delete(f"/games/{game}/seats/Ann/claim").status_code == 204

    def draft():
        sent = api.request("PUT", f"/games/{game}/draft", json={"player": "Cy", "value": 1})
        assert sent.status_code == 200, sent.text

    change(free)
    again = []
    change(lambda: again.append(seats_for(app, api, game, ["Ann"])["Ann"]))
    drafted = change(draft)
    assert drafted["data"]["draft"]["entered"] == ["Cy"]
    bid = change(lambda: again[0].bid(0))
    assert bid["data"]["draft"]["entries"] == {"Ann": "secret", "Cy": "secret"}
    versions = [event["id"] for event in changes]
    assert versions == sorted(set(versions)), versions


def test_a_stream_past_the_most_a_process_holds_ends_at_once_and_asks_to_come_back(app, api):
    """Each stream holds a server thread: past ``EVENTS_MAX_STREAMS`` open in the process, a
    new stream ends at once with a later ``retry`` (the browser reconnects, likely to another
    worker) instead of taking the thread a save needs; once one closes, a stream opens again."""
    app.config.update(EVENTS_LIFETIME=5, EVENTS_KEEPALIVE=1)
    game = new_game(api)
    app.config["EVENTS_MAX_STREAMS"] = events_view.OPEN.count + 1
    phone = Phone(app, game, api.token).following()
    headers = {"Authorization": f"Bearer {api.token}"}
    refused = app.test_client().get(f"/api/v1/games/{game}/events", headers=headers)
    assert refused.status_code == 200
    retry = re.fullmatch(r"retry: (\d+)\n\n", refused.text)
    assert retry, refused.text  # no event: nothing read, nothing said
    assert 1000 <= int(retry.group(1)) <= 3000
    assert api.post(f"/games/{game}/seat-link").status_code == 201  # a change: an event
    changed = phone.then()[0]
    again = Phone(app, game, api.token).following()
    assert again.events[0]["id"] == changed["id"]
    assert api.delete(f"/games/{game}/seat-link").status_code == 204
    assert again.then()[0]["id"] > changed["id"]
