"""Concurrent writes against a live server (real threads, one request each, released
together): never a 500, each answer one of the allowed ones, nothing duplicated afterwards.

The scenarios of the drills (issue 15, point 5): new games adding the same new players,
renames to one name, share and unshare, share or rename beside a hand. Twenty logins at
once are in test_login_throttle.py; names checked and taken at the same moment, with the
check made to wait, in test_player_races.py.
"""

from __future__ import annotations

import pytest

from scorekeeper.extensions import db
from scorekeeper.models import Game
from scorekeeper.models import HandEntry
from scorekeeper.models import Player
from scorekeeper.models import Seat
from scorekeeper.services import games
from tests.conftest import PASSWORD
from tests.conftest import new_token
from tests.live import at_once
from tests.live import send
from tests.live import serving
from tests.replay_check import check_database

pytestmark = pytest.mark.drill

NAMES = ["Ann", "Ben", "Cy"]
#: How many times each burst is sent: races are won by chance, so a few tries each.
ROUNDS = 3


@pytest.fixture
def live(app, account):
    """The app served on a local port and a token's headers."""
    token = new_token(app.test_client())
    with serving(app) as base:
        yield base + "/api/v1", {"Authorization": f"Bearer {token}"}


def _no_server_error(answers, allowed: set[int]) -> None:
    statuses = [answer.status for answer in answers]
    assert all(status < 500 for status in statuses), [a.body[:300] for a in answers]
    assert set(statuses) <= allowed, statuses
    for answer in answers:
        if answer.status >= 400:
            error = answer.json()["errors"][0]
            assert error["code"] and error["message"]


def _hand(base, headers, game: int, first: str = "Ann") -> dict:
    """The next hand of an Oh Hell game: ``first`` bids and takes every card."""
    following = send(f"{base}/games/{game}", headers=headers).json()["next"]
    cards = following["cards"]
    bids = {first: cards, "Ben": 0, "Cy": 0}
    return {"bids": bids, "tricks": dict(bids), "number": following["number"]}


def _new_game(base, headers) -> int:
    answer = send(
        f"{base}/games", "POST", json_body={"game": "oh_hell", "players": NAMES}, headers=headers
    )
    assert answer.status == 201, answer.body
    return answer.json()["id"]


def test_three_new_games_adding_the_same_new_players_at_once(app, live):
    base, headers = live
    made = 0
    for round_ in range(ROUNDS):
        names = [f"{name} {round_}" for name in NAMES]
        answers = at_once(
            3,
            lambda i, names=names: send(
                f"{base}/games",
                "POST",
                json_body={"game": "oh_hell", "players": names},
                headers=headers,
            ),
        )
        _no_server_error(answers, {201, 409})
        made += sum(answer.status == 201 for answer in answers)
        assert made >= round_ + 1  # at least one game each round
    check_database(app)
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(Player)) == 3 * ROUNDS
        assert db.session.scalar(db.select(db.func.count()).select_from(Game)) == made


def _page_cookie(base: str) -> dict:
    """The session cookie of a login through the page (CSRF is off in the tests)."""
    answer = send(f"{base}/login", "POST", data={"username": "friday-club", "password": PASSWORD})
    assert answer.status == 302
    return {"Cookie": "; ".join(cookie.split(";")[0] for cookie in answer.cookies)}


def test_three_new_game_forms_adding_the_same_new_players_at_once(app, live):
    base = live[0].removesuffix("/api/v1")
    headers = _page_cookie(base)
    for round_ in range(ROUNDS):
        form = {"game": "oh_hell"}
        for row, name in enumerate(NAMES, start=1):
            form |= {f"new-name-{row}": f"{name} {round_}", f"new-seat-{row}": str(row)}
        answers = at_once(
            3,
            lambda i, form=form: send(
                f"{base}/games/new?game=oh_hell", "POST", data=form, headers=headers
            ),
        )
        statuses = [answer.status for answer in answers]
        assert set(statuses) <= {302, 409}, statuses
        assert 302 in statuses
    check_database(app)
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(Player)) == 3 * ROUNDS


def test_two_players_renamed_to_the_same_name_at_once(app, live):
    base, headers = live
    for round_ in range(ROUNDS):
        ids = [
            send(
                f"{base}/players", "POST", json_body={"name": f"P{round_}{i}"}, headers=headers
            ).json()["id"]
            for i in range(2)
        ]
        answers = at_once(
            2,
            lambda i, ids=ids, round_=round_: send(
                f"{base}/players/{ids[i]}",
                "PATCH",
                json_body={"name": f"Same {round_}"},
                headers=headers,
            ),
        )
        _no_server_error(answers, {200, 422})
        assert sorted(answer.status for answer in answers) == [200, 422]
        assert answers[[a.status for a in answers].index(422)].json()["errors"][0]["code"] == (
            "name_taken"
        )
    check_database(app)


def test_share_and_unshare_at_once(app, live):
    base, headers = live
    game = _new_game(base, headers)
    for _ in range(ROUNDS):
        answers = at_once(
            4,
            lambda i: send(
                f"{base}/games/{game}/share", ["POST", "DELETE"][i % 2], headers=headers
            ),
        )
        _no_server_error(answers, {201, 204, 409})
    # Whatever won, the game answers and a share made now works.
    link = send(f"{base}/games/{game}/share", "POST", headers=headers)
    assert link.status == 201
    assert send(link.json()["url"]).status == 200
    check_database(app)


def test_share_beside_a_hand(app, live):
    base, headers = live
    game = _new_game(base, headers)
    for _ in range(ROUNDS):
        hand = _hand(base, headers, game)
        answers = at_once(
            2,
            lambda i, hand=hand: (
                send(f"{base}/games/{game}/hands", "POST", json_body=hand, headers=headers)
                if i == 0
                else send(f"{base}/games/{game}/share", "POST", headers=headers)
            ),
        )
        _no_server_error(answers, {201, 409})
        if answers[0].status != 201:  # the hand lost: it may be sent again
            retry = send(f"{base}/games/{game}/hands", "POST", json_body=hand, headers=headers)
            assert retry.status == 201, retry.body
        assert send(f"{base}/games/{game}/share", "DELETE", headers=headers).status == 204
    state = send(f"{base}/games/{game}", headers=headers).json()
    assert [hand["number"] for hand in state["hands"]] == list(range(1, ROUNDS + 1))
    check_database(app)
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(HandEntry)) == ROUNDS


def test_a_rename_beside_a_hand(app, live):
    base, headers = live
    game = _new_game(base, headers)
    roster = send(f"{base}/players", headers=headers).json()["players"]
    ann = next(player["id"] for player in roster if player["name"] == "Ann")
    name = "Ann"
    for round_ in range(1, ROUNDS + 1):
        new_name = f"Ann {round_}"
        hand = _hand(base, headers, game, first=name)
        answers = at_once(
            2,
            lambda i, hand=hand, new_name=new_name: (
                send(f"{base}/games/{game}/hands", "POST", json_body=hand, headers=headers)
                if i == 0
                else send(
                    f"{base}/players/{ann}", "PATCH", json_body={"name": new_name}, headers=headers
                )
            ),
        )
        # The hand names Ann as she was called when it was sent: after the rename it may be
        # refused (422, not at the table) or meet the change (409); never a 500.
        _no_server_error(answers, {200, 201, 409, 422})
        if answers[1].status == 200:
            name = new_name
        else:
            assert answers[1].json()["errors"][0]["code"] == "conflict"
        if answers[0].status != 201:
            hand = _hand(base, headers, game, first=name)
            retry = send(f"{base}/games/{game}/hands", "POST", json_body=hand, headers=headers)
            assert retry.status == 201, retry.body
    state = send(f"{base}/games/{game}", headers=headers).json()
    assert state["players"][0] == name
    assert len(state["hands"]) == ROUNDS
    check_database(app)


# The same without threads: the other request's players appear between look-up and insert ----


def _stale_look_up(monkeypatch, stale_calls: int) -> list[int]:
    """Make the first ``stale_calls`` look-ups of a new game's players miss the roster (as
    if another request added them just after), so its inserts meet the unique name key."""
    real = games._players_for
    calls = [0]

    def look_up(account, names):
        calls[0] += 1
        if calls[0] > stale_calls:
            return real(account, names)
        fresh = [
            Player(account_id=account.id, name=name, name_key=games.roster.name_key(name))
            for name in names
        ]
        db.session.add_all(fresh)
        return fresh

    monkeypatch.setattr(games, "_players_for", look_up)
    return calls


def test_a_new_game_whose_new_players_were_just_added_elsewhere_is_tried_again(
    app, api, monkeypatch
):
    assert api.post("/players", {"name": "Ann"}).status_code == 201
    calls = _stale_look_up(monkeypatch, 1)
    answer = api.post("/games", {"game": "oh_hell", "players": NAMES})
    assert answer.status_code == 201, answer.get_json()
    assert calls[0] == 2
    assert answer.get_json()["players"] == NAMES
    check_database(app)
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(Player)) == 3


def test_a_new_game_that_keeps_meeting_changed_players_is_a_conflict(app, api, monkeypatch):
    assert api.post("/players", {"name": "Ann"}).status_code == 201
    calls = _stale_look_up(monkeypatch, games.NEW_GAME_TRIES)
    answer = api.post("/games", {"game": "oh_hell", "players": NAMES})
    assert answer.status_code == 409
    assert answer.get_json()["errors"][0]["code"] == "conflict"
    assert calls[0] == games.NEW_GAME_TRIES
    with app.app_context():  # nothing half-saved: no game, no seat, Ben and Cy not added
        assert db.session.scalar(db.select(db.func.count()).select_from(Game)) == 0
        assert db.session.scalar(db.select(db.func.count()).select_from(Seat)) == 0
        assert list(db.session.scalars(db.select(Player.name))) == ["Ann"]


def test_a_game_put_into_a_night_beside_a_hand(app, live):
    base, headers = live
    page = base.removesuffix("/api/v1")
    cookie = _page_cookie(page)
    for _ in range(ROUNDS):
        game = _new_game(base, headers)
        night = send(f"{base}/nights", "POST", json_body={"name": "Late"}, headers=headers)
        assert night.status == 201
        # The game started on its own (another day): it is not in the night yet.
        with app.app_context():
            db.session.execute(db.update(Game).where(Game.id == game).values(night_id=None))
            db.session.commit()
        hand, night_id = _hand(base, headers, game), night.json()["id"]
        answers = at_once(
            2,
            lambda i, game=game, hand=hand, night=night_id: (
                send(f"{base}/games/{game}/hands", "POST", json_body=hand, headers=headers)
                if i == 0
                else send(
                    f"{page}/nights/{night}/games",
                    "POST",
                    data={"game_id": str(game)},
                    headers=cookie,
                )
            ),
        )
        assert all(answer.status < 500 for answer in answers), [a.body[:200] for a in answers]
        assert answers[0].status in (201, 409)
        assert answers[1].status == 302
    check_database(app)


def test_a_rule_set_deleted_twice_at_once(app, live):
    base, headers = live
    for round_ in range(ROUNDS):
        saved = send(
            f"{base}/rulesets",
            "POST",
            json_body={"game": "oh_hell", "name": f"Quick {round_}", "options": {"max_cards": 3}},
            headers=headers,
        )
        assert saved.status == 201, saved.body
        rule_set = saved.json()["id"]
        answers = at_once(
            2,
            lambda i, rule_set=rule_set: send(
                f"{base}/rulesets/{rule_set}", "DELETE", headers=headers
            ),
        )
        _no_server_error(answers, {204, 404})
        assert 204 in [answer.status for answer in answers]


#: A change of the game made beside a hand: (method, path under the game, body).
BESIDE = {
    "table": ("PATCH", "", {"players": ["Ben", "Ann", "Cy"]}),
    "delete": ("DELETE", "", None),
    "abandon": ("POST", "/abandon", None),
    "undo": ("DELETE", "/hands/1", None),
    "correct": ("PATCH", "/hands/1", {"bids": {"Ann": 0, "Ben": 1, "Cy": 0}}),
}


@pytest.mark.parametrize("change", list(BESIDE))
def test_a_change_of_the_game_beside_a_hand(app, live, change):
    base, headers = live
    method, path, body = BESIDE[change]
    for _ in range(ROUNDS):
        game = _new_game(base, headers)
        first = _hand(base, headers, game)
        assert send(f"{base}/games/{game}/hands", "POST", json_body=first, headers=headers).status
        hand = _hand(base, headers, game)
        answers = at_once(
            2,
            lambda i, game=game, hand=hand: (
                send(f"{base}/games/{game}/hands", "POST", json_body=hand, headers=headers)
                if i == 0
                else send(f"{base}/games/{game}{path}", method, json_body=body, headers=headers)
            ),
        )
        _no_server_error(answers, {200, 201, 204, 404, 409, 422})
    check_database(app)


# The database giving up on a request for another's sake -----------------------------------


class _Orig(Exception):
    def __init__(self, message: str, sqlstate: str | None = None) -> None:
        super().__init__(message)
        self.sqlstate = sqlstate


@pytest.mark.parametrize(
    ("orig", "status"),
    [
        (_Orig("deadlock detected", "40P01"), 409),
        (_Orig("could not serialize access", "40001"), 409),
        (_Orig("database is locked"), 409),
        (_Orig("disk I/O error"), 500),
    ],
    ids=["deadlock", "serialization", "sqlite locked", "other"],
)
def test_a_deadlock_or_lock_timeout_is_a_409(app, api, table, monkeypatch, orig, status):
    """What PostgreSQL or SQLite answers when another transaction was in the way: nothing was
    saved, try again (409 conflict); any other operational error stays a 500."""
    import sqlalchemy as sa

    game = _new_game_with(api)

    def in_the_way(*args, **kwargs):
        raise sa.exc.OperationalError("UPDATE game ...", {}, orig)

    monkeypatch.setattr(games, "record_hand", in_the_way)
    sent = {"bids": {"Ann": 1, "Ben": 0, "Cy": 0}, "tricks": {"Ann": 1, "Ben": 0, "Cy": 0}}
    # The test client itself: a 500 is in no operation's documented answers.
    answer = api.client.post(f"/api/v1/games/{game}/hands", json=sent, headers=api.headers())
    assert answer.status_code == status
    assert answer.get_json()["errors"][0]["code"] == ("conflict" if status == 409 else "error")
    page = table.post(f"/games/{game}/hands", data={"phase": "bids", "bid-0": "1"})
    assert page.status_code == status
    if status == 409:
        assert "Someone changed this at the same moment" in page.text
    assert len(api.get(f"/games/{game}").get_json()["hands"]) == 0


def _new_game_with(api) -> int:
    answer = api.post("/games", {"game": "oh_hell", "players": NAMES})
    assert answer.status_code == 201
    return answer.get_json()["id"]
