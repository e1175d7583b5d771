"""The pages' one-button forms and hand saves need their CSRF token (``views.common.
check_action``): checked once, by Flask-WTF's CSRFProtect before the view, and by the form
itself where CSRFProtect did not check the request (its check turned off by default)."""

from __future__ import annotations

import re

import sqlalchemy as sa

from scorekeeper.extensions import db
from scorekeeper.models import HandEntry
from scorekeeper.models import Night
from tests.conftest import Api
from tests.conftest import login
from tests.conftest import new_token
from tests.pages import csrf_token

PLAYERS = ["Ann", "Ben", "Cy", "Dee"]


def _client(make_app, **settings):
    app = make_app(WTF_CSRF_ENABLED=True, **settings)
    client = app.test_client()
    login(client, csrf_token=csrf_token(client.get("/login").text))
    return app, client


def _page_token(client) -> str:
    """The token of the home page's forms (its language switch, "Start tonight")."""
    return re.search(r'name="csrf_token" value="([^"]+)"', client.get("/").text).group(1)


def _count(app, model) -> int:
    with app.app_context():
        return db.session.scalar(sa.select(sa.func.count()).select_from(model))


def _bids(client, game: int, **extra):
    page = client.get(f"/games/{game}").text
    fields = {"phase": "bids", "number": "1", **{f"bid-{seat}": "0" for seat in range(4)}}
    seats = re.search(r'name="seats" type="hidden" value="([^"]*)"', page)
    if seats:
        fields["seats"] = seats.group(1)
    return client.post(f"/games/{game}/hands", data={**fields, **extra}), csrf_token(page)


def test_a_hand_save_without_its_token_is_refused_and_saves_nothing(make_app, account):
    app, client = _client(make_app)
    api = Api(app.test_client(), new_token(app.test_client()))
    game = api.post("/games", {"game": "oh_hell", "players": PLAYERS}).get_json()["id"]
    refused, token = _bids(client, game)
    assert refused.status_code == 400
    forged, _ = _bids(client, game, csrf_token="not-the-token")
    assert forged.status_code == 400
    assert _count(app, HandEntry) == 0
    saved, _ = _bids(client, game, csrf_token=token)
    assert saved.status_code == 302, saved.text
    assert _count(app, HandEntry) > 0


def test_the_form_checks_its_token_where_csrfprotect_does_not(make_app, account):
    """With CSRFProtect's check off by default, the view's own check still refuses a
    one-button form without its token (and takes it with the token)."""
    app, client = _client(make_app, WTF_CSRF_CHECK_DEFAULT=False)
    refused = client.post("/nights/tonight")
    assert refused.status_code == 400
    assert _count(app, Night) == 0
    token = _page_token(client)
    started = client.post("/nights/tonight", data={"csrf_token": token})
    assert started.status_code == 302, started.text
    assert _count(app, Night) == 1


def test_a_one_button_form_checked_by_csrfprotect_is_taken_once(make_app, account):
    app, client = _client(make_app)
    assert client.post("/nights/tonight").status_code == 400
    assert _count(app, Night) == 0
    token = _page_token(client)
    assert client.post("/nights/tonight", data={"csrf_token": token}).status_code == 302
    assert _count(app, Night) == 1
