"""Idempotency keys (API.md, "Idempotency keys"; issue 26): a write sent twice with one key is
made once and answered the same twice; the same key with another request is refused; the
answers are kept per account for 24 hours, then swept away by a later write. The pages' save
forms carry a fresh key each, so a double tap or a resend after a lost answer replays the
first answer. Game pages are never kept by the browser (``Cache-Control: no-store``)."""

from __future__ import annotations

import html
import re
import uuid

import pytest
import sqlalchemy as sa

from scorekeeper.extensions import db
from scorekeeper.models import IdempotencyKey
from scorekeeper.services import idempotency
from tests.conftest import Api
from tests.conftest import login
from tests.conftest import new_token
from tests.live import at_once
from tests.live import send
from tests.live import serving
from tests.pages import game_id
from tests.pages import start_game
from tests.test_query_budget import measured

PLAYERS = ["Ann", "Ben", "Cy"]
BIDS = {"bids": {"Ann": 1, "Ben": 0, "Cy": 0}, "number": 1}


def keyed(key: str) -> dict:
    return {"headers": {"Idempotency-Key": key}}


def new_game(api, **kwargs) -> int:
    answer = api.post("/games", {"game": "oh_hell", "players": PLAYERS}, **kwargs)
    assert answer.status_code == 201, answer.text
    return answer.get_json()["id"]


def rows(app) -> list[IdempotencyKey]:
    with app.app_context():
        return list(db.session.scalars(sa.select(IdempotencyKey).order_by(IdempotencyKey.id)))


def test_every_write_of_a_game_sent_twice_is_made_once_and_answered_the_same(app, api):
    """Each write, sent twice with its key: the same status and body (and Location, ETag,
    Content-Type), the second marked ``Idempotent-Replayed: true``; the game as after one."""
    sent = [
        ("POST", "/games", {"game": "oh_hell", "players": PLAYERS}),
        ("POST", "/games/{id}/hands", BIDS),
        ("PATCH", "/games/{id}/hands/1", {"tricks": {"Ann": 1, "Ben": 0, "Cy": 0}}),
        ("POST", "/games/{id}/changes", {"kind": "adjust", "player": "Ann", "points": 5}),
        ("DELETE", "/games/{id}/changes/{change}", None),
        ("DELETE", "/games/{id}/hands/1", None),
        ("POST", "/games/{id}/share", None),
        ("POST", "/games/{id}/abandon", None),
        ("POST", "/games/{id}/resume", None),
        ("DELETE", "/games/{id}", None),
    ]
    ids = {}
    for method, path, body in sent:
        path = path.format(**ids)
        key = str(uuid.uuid4())
        first = api.request(method, path, json=body, **keyed(key))
        again = api.request(method, path, json=body, **keyed(key))
        assert first.status_code < 300, (path, first.text)
        assert "Idempotent-Replayed" not in first.headers
        assert again.headers["Idempotent-Replayed"] == "true"
        assert (again.status_code, again.data) == (first.status_code, first.data), path
        for header in ("Content-Type", "Location", "ETag"):
            assert again.headers.get(header) == first.headers.get(header)
        if method == "POST" and path == "/games":
            ids["id"] = first.get_json()["id"]
            # Sent twice: one game.
            assert api.get("/games").get_json()["total"] == 1
        elif path.endswith("/changes"):
            ids["change"] = first.get_json()["changes"][-1]["id"]
            state = api.get(f"/games/{ids['id']}").get_json()
            assert len(state["changes"]) == 1 and state["totals"]["Ann"] == 16
        elif path.endswith("/hands") and method == "POST":
            assert len(api.get(f"/games/{ids['id']}").get_json()["hands"]) == 1
    # Undone once each (a second undo would have been refused), then deleted once.
    assert api.get(f"/games/{ids['id']}").status_code == 404
    assert {row.status for row in rows(app)} == {200, 201, 204}


def test_the_same_key_with_another_request_is_refused_and_changes_nothing(app, api):
    game = new_game(api)
    assert api.post(f"/games/{game}/hands", BIDS, **keyed("k-1")).status_code == 201
    other_bids = {"bids": {"Ann": 0, "Ben": 1, "Cy": 0}, "number": 2}
    for method, path, body in [
        ("POST", f"/games/{game}/hands", {**BIDS, "bids": {"Ann": 0, "Ben": 1, "Cy": 0}}),
        ("POST", f"/games/{game}/hands", other_bids),  # what the rules would refuse, too
        ("PATCH", f"/games/{game}/hands/1", {"tricks": {"Ann": 1, "Ben": 0, "Cy": 0}}),
        ("POST", f"/games/{game}/close", None),
    ]:
        answer = api.request(method, path, json=body, **keyed("k-1"))
        assert answer.status_code == 422, answer.text
        assert answer.get_json()["errors"] == [
            {
                "code": "idempotency_mismatch",
                "field": "Idempotency-Key",
                "message": "This Idempotency-Key came before with another request, which was "
                "answered: nothing was changed. Send a new key with a new request.",
            }
        ]
    state = api.get(f"/games/{game}").get_json()
    assert [hand["input"]["bids"] for hand in state["hands"]] == [BIDS["bids"]]
    assert "tricks" not in state["hands"][0]["input"]
    # Spelt otherwise, the same JSON is the same request: replayed.
    spelt = b'{"number": 1,  "bids": {"Cy": 0, "Ben": 0, "Ann": 1}}'
    again = api.client.post(
        f"/api/v1/games/{game}/hands",
        data=spelt,
        content_type="application/json",
        headers={**api.headers(), "Idempotency-Key": "k-1"},
    )
    assert (again.status_code, again.headers["Idempotent-Replayed"]) == (201, "true")


@pytest.mark.parametrize(
    "key",
    ["", " ", " lead", "trail ", "x" * 201, "ключ", "tab\there", "nul\x7f"],
    ids=["empty", "space", "leading", "trailing", "201", "cyrillic", "tab", "del"],
)
def test_a_key_of_another_form_is_refused_before_anything(app, api, key):
    game = new_game(api)
    answer = api.post(f"/games/{game}/hands", BIDS, **keyed(key))
    assert answer.status_code == 400
    (error,) = answer.get_json()["errors"]
    assert (error["code"], error["field"]) == ("idempotency_key_invalid", "Idempotency-Key")
    assert "1 to 200 printable ASCII characters" in error["message"]
    assert api.get(f"/games/{game}").get_json()["hands"] == []
    assert rows(app) == []


def test_a_key_of_200_printable_characters_with_spaces_inside_is_taken(app, api):
    game = new_game(api)
    key = ("a ~!\"#$%&'()*+,-./0-9:;<=>?@[\\]^_`{|}" * 6)[:199] + "z"
    assert len(key) == 200
    assert api.post(f"/games/{game}/hands", BIDS, **keyed(key)).status_code == 201
    assert api.post(f"/games/{game}/hands", BIDS, **keyed(key)).headers["Idempotent-Replayed"]


def test_answers_are_kept_for_24_hours_and_swept_away_by_a_later_write(app, api, monkeypatch):
    game = new_game(api, **keyed("new-game"))
    clock = {"now": 1_000_000.0}
    monkeypatch.setattr(idempotency, "clock", lambda: clock["now"])
    assert api.post(f"/games/{game}/hands", BIDS, **keyed("bids")).status_code == 201
    clock["now"] += 24 * 3600 - 1  # still kept: replayed
    assert api.post(f"/games/{game}/hands", BIDS, **keyed("bids")).headers["Idempotent-Replayed"]
    assert [row.key for row in rows(app)] == ["new-game", "bids"]
    clock["now"] += 2  # a day and a second: gone with the next keyed write, whatever its key
    tricks = {"tricks": {"Ann": 1, "Ben": 0, "Cy": 0}}
    assert api.patch(f"/games/{game}/hands/1", tricks, **keyed("tricks")).status_code == 200
    assert [row.key for row in rows(app)] == ["new-game", "tricks"]
    # The key is free again: a new request with it is made (the game says no to the old one).
    resent = api.post(f"/games/{game}/hands", BIDS, **keyed("bids"))
    assert resent.status_code == 409 and "Idempotent-Replayed" not in resent.headers


def test_each_account_has_keys_of_its_own(app, api, other_api):
    mine, theirs = new_game(api), new_game(other_api)
    first = api.post(f"/games/{mine}/hands", BIDS, **keyed("same"))
    other = other_api.post(f"/games/{theirs}/hands", BIDS, **keyed("same"))
    assert first.status_code == other.status_code == 201
    assert "Idempotent-Replayed" not in other.headers
    assert other.get_json()["id"] == theirs
    # Another account's game under my key: not found, not their answer replayed.
    stranger = other_api.post(f"/games/{mine}/hands", BIDS, **keyed("never-used"))
    assert stranger.status_code == 404
    assert len(api.get(f"/games/{mine}").get_json()["hands"]) == 1
    assert len(other_api.get(f"/games/{theirs}").get_json()["hands"]) == 1


def test_a_refusal_is_kept_and_a_try_again_is_not(app, api):
    """A refusal of the rules is the answer (kept and replayed); a 409 says "try again", so
    the key stays free for that."""
    game = new_game(api)
    too_many = {"bids": {"Ann": 5, "Ben": 0, "Cy": 0}, "number": 1}
    refused = api.post(f"/games/{game}/hands", too_many, **keyed("bad-bid"))
    assert refused.status_code == 422
    again = api.post(f"/games/{game}/hands", too_many, **keyed("bad-bid"))
    assert (again.status_code, again.data) == (422, refused.data)
    early = api.post(f"/games/{game}/hands", {**BIDS, "number": 2}, **keyed("early"))
    assert early.status_code == 409
    assert [row.key for row in rows(app)] == ["bad-bid"]


def test_a_keyed_save_costs_three_statements_more_and_a_save_without_a_key_none(
    app, api, monkeypatch
):
    """The claim (the expired rows' DELETE and the INSERT) and the answer's UPDATE; a repeat
    reads the token, claims and reads the kept answer."""
    game = new_game(api)
    with measured(app, monkeypatch) as plain:
        assert api.post(f"/games/{game}/hands", BIDS).status_code == 201
    tricks = {"tricks": {"Ann": 1, "Ben": 0, "Cy": 0}}
    with measured(app, monkeypatch) as plain_tricks:
        assert api.patch(f"/games/{game}/hands/1", tricks).status_code == 200
    second = {"bids": {"Ann": 2, "Ben": 0, "Cy": 0}, "number": 2}
    with measured(app, monkeypatch) as with_key:
        assert api.post(f"/games/{game}/hands", second, **keyed("b2")).status_code == 201
    with measured(app, monkeypatch) as with_key_tricks:
        answer = api.patch(
            f"/games/{game}/hands/2", {"tricks": {"Ann": 2, "Ben": 0, "Cy": 0}}, **keyed("t2")
        )
        assert answer.status_code == 200
    with measured(app, monkeypatch) as replayed:
        assert api.post(f"/games/{game}/hands", second, **keyed("b2")).status_code == 201
    assert len(with_key["statements"]) == len(plain["statements"]) + 3
    assert len(with_key_tricks["statements"]) == len(plain_tricks["statements"]) + 3
    assert len(with_key_tricks["statements"]) <= 10
    assert len(replayed["statements"]) == 4 and replayed["replays"] == 0
    print(
        f"hand save: {len(plain['statements'])} statements, keyed "
        f"{len(with_key['statements'])}; completing it: {len(plain_tricks['statements'])}, "
        f"keyed {len(with_key_tricks['statements'])}; a repeat {len(replayed['statements'])}"
    )


# Two at once ------------------------------------------------------------------------------


@pytest.mark.drill
def test_two_identical_keyed_requests_at_once_make_one_change_and_two_equal_answers(app, account):
    """Real threads against a live server, released together, a few rounds: one hand, both
    answered 201 with the same body (one of them replayed). On PostgreSQL too."""
    token = new_token(app.test_client())
    headers = {"Authorization": f"Bearer {token}"}
    with serving(app) as base:
        base += "/api/v1"
        for round_ in range(4):
            game = send(
                f"{base}/games",
                "POST",
                json_body={"game": "oh_hell", "players": PLAYERS},
                headers=headers,
            ).json()["id"]
            key = {**headers, "Idempotency-Key": f"race-{round_}"}
            answers = at_once(
                2,
                lambda i, game=game, key=key: send(
                    f"{base}/games/{game}/hands", "POST", json_body=BIDS, headers=key
                ),
            )
            assert [answer.status for answer in answers] == [201, 201], answers
            assert answers[0].json() == answers[1].json()
            state = send(f"{base}/games/{game}", headers=headers).json()
            assert len(state["hands"]) == 1
    kept = rows(app)
    assert len(kept) == 4 and {row.status for row in kept} == {201}


# Pages --------------------------------------------------------------------------------------


def form_fields(page: str, action: str) -> dict[str, str]:
    """The hidden fields of the page's form that posts to ``action``."""
    for attributes, body in re.findall(r"<form\b([^>]*)>(.*?)</form>", page, re.S):
        if f'action="{action}"' in html.unescape(attributes):
            return {
                html.unescape(name): html.unescape(value)
                for name, value in re.findall(
                    r'<input type="hidden" name="([^"]+)" value="([^"]*)"', body
                )
            }
    raise AssertionError(f"no form posts to {action}")


def test_a_hand_form_sent_twice_is_saved_once_and_answered_the_same(app, table, api):
    game = game_id(start_game(table, app, "oh_hell", {"Ann": 1, "Ben": 2, "Cy": 3}))
    page = table.get(f"/games/{game}")
    assert page.headers["Cache-Control"] == "no-store"
    fields = form_fields(page.text, f"/games/{game}/hands")
    key = fields["idempotency_key"]
    # Each form of the page has a key of its own.
    assert len(set(re.findall(r'name="idempotency_key" value="([^"]+)"', page.text))) > 1
    form = {**fields, "phase": "bids", "number": "1", "bid-0": "1", "bid-1": "0", "bid-2": "0"}
    first = table.post(f"/games/{game}/hands", data=form)
    again = table.post(f"/games/{game}/hands", data=form)  # a double tap, or a resend
    assert first.status_code == again.status_code == 302
    assert again.headers["Location"] == first.headers["Location"]
    assert again.headers["Idempotent-Replayed"] == "true"
    shown = table.get(again.headers["Location"])
    assert "is already recorded" not in shown.text  # not "someone else saved"
    assert shown.headers["Cache-Control"] == "no-store"
    state = api.get(f"/games/{game}").get_json()
    assert len(state["hands"]) == 1
    # The same form changed and sent again with its key: not saved, and the page says so.
    changed = table.post(f"/games/{game}/hands", data={**form, "bid-0": "0", "bid-1": "1"})
    assert changed.status_code == 302
    said = html.unescape(table.get(changed.headers["Location"]).text)
    assert "These values were not saved: this form had been sent already" in said
    assert api.get(f"/games/{game}").get_json()["hands"] == state["hands"]
    # A form shown again after a refusal carries a new key: corrected, it is saved.
    tricks = form_fields(table.get(f"/games/{game}").text, f"/games/{game}/hands/1")
    wrong = {**tricks, "phase": "tricks", "trick-0": "1", "trick-1": "1", "trick-2": "0"}
    refused = table.post(f"/games/{game}/hands/1", data=wrong)
    assert refused.status_code == 422
    retyped = form_fields(refused.text, f"/games/{game}/hands/1")
    assert retyped["idempotency_key"] not in (key, tricks["idempotency_key"])
    fixed = {**wrong, **retyped, "trick-1": "0"}
    assert table.post(f"/games/{game}/hands/1", data=fixed).status_code == 302
    assert "tricks" in api.get(f"/games/{game}").get_json()["hands"][0]["input"]


def test_a_form_saved_in_place_sent_twice_gets_the_same_part_of_the_page(app, table, api):
    """A script's save (``X-Fragment``) resent after a lost answer: the same main part,
    with what the first save said ("... saved"), and one change of the table."""
    game = game_id(start_game(table, app, "oh_hell", {"Ann": 1, "Ben": 2, "Cy": 3}))
    panel = table.get(f"/games/{game}/table/changes?kind=adjust")
    assert panel.headers["Cache-Control"] == "no-store"
    fields = form_fields(panel.text, f"/games/{game}/table/changes")
    form = {**fields, "kind": "adjust", "player": "Ann", "points": "5", "note": "Renege"}
    first = table.post(f"/games/{game}/table/changes", data=form)
    again = table.post(f"/games/{game}/table/changes", data=form)
    assert (again.status_code, again.headers["Location"]) == (302, first.headers["Location"])
    said = re.findall(
        r'<p class="flash flash-(\w+)">(.*?)</p>', table.get(again.headers["Location"]).text
    )
    assert len(said) == 1 and said[0][0] == "success" and "Renege" in said[0][1], said
    # The first answer lost on its way (here: another browser of the account resends the form):
    # the resend says what the first answer said.
    resender = app.test_client()
    assert login(resender).status_code == 302
    resent = resender.post(f"/games/{game}/table/changes", data=form)
    assert resent.headers["Idempotent-Replayed"] == "true"
    shown = re.findall(
        r'<p class="flash flash-(\w+)">(.*?)</p>', resender.get(resent.headers["Location"]).text
    )
    assert shown == said
    assert len(api.get(f"/games/{game}").get_json()["changes"]) == 1
    # In place: the fragment, twice the same.
    hand = form_fields(table.get(f"/games/{game}").text, f"/games/{game}/hands")
    bids = {**hand, "phase": "bids", "number": "1", "bid-0": "1", "bid-1": "0", "bid-2": "0"}
    in_place = {"X-Fragment": "1"}
    one = table.post(f"/games/{game}/hands", data=bids, headers=in_place)
    two = table.post(f"/games/{game}/hands", data=bids, headers=in_place)
    assert one.status_code == two.status_code == 200
    assert one.data == two.data and "data-game-page" in two.text
    assert len(api.get(f"/games/{game}").get_json()["hands"]) == 1


def test_game_pages_are_never_kept_by_the_browser(app, table):
    game = game_id(start_game(table, app, "oh_hell", {"Ann": 1, "Ben": 2, "Cy": 3}))
    for path in ("", "/table", "/table/changes", "/hands/1/undo"):
        if path == "/hands/1/undo":
            form = {"phase": "bids", "number": "1", "bid-0": "1", "bid-1": "0", "bid-2": "0"}
            assert table.post(f"/games/{game}/hands", data=form).status_code == 302
        answer = table.get(f"/games/{game}{path}")
        assert answer.status_code == 200, path
        assert answer.headers["Cache-Control"] == "no-store", path


# The document --------------------------------------------------------------------------------


def test_every_write_of_a_game_declares_the_key_and_its_refusals(app, api):
    document = api.get("/openapi.json").get_json()
    writes = 0
    for path, item in document["paths"].items():
        for method, operation in item.items():
            if method not in ("post", "patch", "delete") or not path.startswith("/api/v1/games"):
                continue
            writes += 1
            (header,) = [p for p in operation["parameters"] if p["in"] == "header"]
            assert header["name"] == "Idempotency-Key" and header["required"] is False
            assert header["schema"]["maxLength"] == 200
            assert re.fullmatch(header["schema"]["pattern"], "8e03978e-40d5-43e8-bc93-6894a57f9324")
            assert "idempotency_mismatch" in operation["responses"]["422"]["description"]
            assert "idempotency_key_invalid" in operation["responses"]["400"]["description"]
            success = next(
                answer for status, answer in operation["responses"].items() if status < "300"
            )
            assert "Idempotent-Replayed" in success["headers"]
    # hands, changes, close, reopen, share ...; the seat link, a seat's claim and the draft
    assert writes == 20
    # A write of something else takes no key.
    players = document["paths"]["/api/v1/players"]["post"]
    assert not [p for p in players.get("parameters", []) if p["in"] == "header"]


def test_a_page_key_of_another_form_is_refused_with_a_message(app, table, api):
    game = game_id(start_game(table, app, "oh_hell", {"Ann": 1, "Ben": 2, "Cy": 3}))
    form = {"phase": "bids", "number": "1", "bid-0": "1", "bid-1": "0", "bid-2": "0"}
    answer = table.post(f"/games/{game}/hands", data={**form, "idempotency_key": "é"})
    assert answer.status_code == 400
    assert "1 to 200 printable ASCII characters" in html.unescape(answer.text)
    assert api.get(f"/games/{game}").get_json()["hands"] == []


def test_a_second_client_of_the_same_account_shares_the_keys(app, api, account):
    """One account, two phones (two tokens): a key is the account's, so the other phone's
    resend is the same request, replayed."""
    game = new_game(api)
    other = Api(app.test_client(), new_token(app.test_client()))
    first = api.post(f"/games/{game}/hands", BIDS, **keyed("phone"))
    again = other.post(f"/games/{game}/hands", BIDS, **keyed("phone"))
    assert again.headers["Idempotent-Replayed"] == "true" and again.data == first.data
