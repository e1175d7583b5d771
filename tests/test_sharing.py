"""The read-only view for the other phones: token access, revocation, no writes, no leaks,
ETag / 304, QR code, and the same through the API."""

from __future__ import annotations

import re

import pytest

from tests.conftest import signup

THREE = ["Ann", "Ben", "Cy"]


@pytest.fixture
def game(api):
    state = api.post("/games", {"game": "oh_hell", "players": THREE}).get_json()
    api.post(f"/games/{state['id']}/hands", {"number": 1, "bids": {"Ann": 1, "Ben": 0, "Cy": 0}})
    return state["id"]


def share(api, game_id) -> str:
    response = api.post(f"/games/{game_id}/share")
    assert response.status_code == 201
    url = response.get_json()["url"]
    assert url.startswith("http://localhost/view/")
    return url.removeprefix("http://localhost")


def test_the_link_opens_without_login_and_shows_bids_and_totals(app, api, game):
    path = share(api, game)
    token = path.rsplit("/", 1)[1]
    assert len(token) >= 32
    viewer = app.test_client()
    page = viewer.get(path)
    assert page.status_code == 200
    assert "Hand 1" in page.text
    assert re.search(r'<span class="who">Ann</span><span class="bid">1</span>', page.text)
    assert "Bids total <strong>1</strong> for 1: <strong>even</strong>" in page.text
    assert "Score sheet" in page.text
    assert page.headers["ETag"]
    assert "no-cache" in page.headers["Cache-Control"]


def test_the_same_link_comes_back_until_revoked(api, game):
    assert share(api, game) == share(api, game)


def test_an_unchanged_game_answers_304_and_a_change_a_new_page(app, api, game):
    path = share(api, game)
    viewer = app.test_client()
    first = viewer.get(path)
    etag = first.headers["ETag"]
    again = viewer.get(path, headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert again.data == b""
    api.patch(f"/games/{game}/hands/1", {"tricks": {"Ann": 1, "Ben": 0, "Cy": 0}})
    changed = viewer.get(path, headers={"If-None-Match": etag})
    assert changed.status_code == 200
    assert changed.headers["ETag"] != etag
    assert "Hand 2" in changed.text


def test_a_viewer_who_changes_language_gets_the_page_in_it_not_a_304(app, api, game):
    path = share(api, game)
    viewer = app.test_client()
    english = viewer.get(path)
    etag = english.headers["ETag"]
    assert viewer.get(path, headers={"If-None-Match": etag}).status_code == 304
    viewer.set_cookie("lang", "lo")
    lao = viewer.get(path, headers={"If-None-Match": etag})
    assert lao.status_code == 200
    assert '<html lang="lo"' in lao.text and lao.headers["ETag"] != etag
    assert viewer.get(path, headers={"If-None-Match": lao.headers["ETag"]}).status_code == 304
    bengali = app.test_client().get(path, headers={"If-None-Match": etag, "Accept-Language": "bn"})
    assert bengali.status_code == 200 and '<html lang="bn"' in bengali.text


def test_the_view_has_the_score_chart_once_a_hand_is_scored(app, api, game):
    path = share(api, game)
    viewer = app.test_client()
    assert 'id="chart-fold"' not in viewer.get(path).text  # hand 1 is bid, not scored
    api.patch(f"/games/{game}/hands/1", {"tricks": {"Ann": 1, "Ben": 0, "Cy": 0}})
    page = viewer.get(path).text
    fold = re.search(r'<details class="card chart-fold" id="chart-fold">.*?</figure>', page, re.S)
    assert fold and "<polyline" in fold[0]
    # The chart's table: the running totals after hand 1, as the API's state says them.
    totals = api.get(f"/games/{game}").get_json()["totals"]
    cells = re.findall(r"<td>([^<]+)</td>", fold[0].split("<tbody>")[1])
    assert cells == [str(totals[name]) for name in THREE]


def test_revoking_ends_the_link_and_a_new_link_replaces_it(app, api, game):
    path = share(api, game)
    viewer = app.test_client()
    assert api.delete(f"/games/{game}/share").status_code == 204
    assert viewer.get(path).status_code == 404
    new_path = share(api, game)
    assert new_path != path
    assert viewer.get(new_path).status_code == 200
    assert viewer.get(path).status_code == 404


def test_the_view_allows_no_change_and_leaks_nothing(app, api, game):
    other = api.post("/games", {"game": "pitch", "players": ["Dee", "Eve", "Fay"]}).get_json()
    path = share(api, game)
    viewer = app.test_client()
    page = viewer.get(path).text
    # The one form is the reader's own language switch (it changes no game).
    switch = re.search(
        r'<form method="post" action="/language" class="languages".*?</form>', page, re.S
    )
    assert switch
    assert "<form" not in page.replace(switch.group(0), "")
    assert "/edit" not in page and "/undo" not in page and "/reopen" not in page
    assert "friday-club" not in page  # the account's name
    assert "Dee" not in page and f"/games/{other['id']}" not in page
    assert "Log out" not in page
    for method in ("post", "put", "patch", "delete"):
        assert getattr(viewer, method)(path).status_code == 405
    # The token of one game never opens another: no other id can be guessed from it.
    assert viewer.get(path + "x").status_code == 404
    assert viewer.get("/view/").status_code == 404
    assert viewer.get(f"/games/{game}").status_code == 302  # the real page needs a login


def test_the_scorekeeper_shares_from_the_page_with_a_qr_code(app, logged_in):
    from scorekeeper.extensions import db
    from scorekeeper.models import Account
    from scorekeeper.services import games

    with app.app_context():
        account = db.session.scalar(db.select(Account))
        game_id = games.create_game(account, "oh_hell", THREE).game.id
    page = logged_in.get(f"/games/{game_id}")
    assert f"/games/{game_id}/share" in page.text
    manage = logged_in.get(f"/games/{game_id}/share")
    assert "This game is not shared." in manage.text
    assert logged_in.get(f"/games/{game_id}/share/qr.svg").status_code == 404
    logged_in.post(f"/games/{game_id}/share")
    manage = logged_in.get(f"/games/{game_id}/share")
    link = re.search(r'<p class="share-url"><a href="([^"]+)">', manage.text).group(1)
    qr = logged_in.get(f"/games/{game_id}/share/qr.svg")
    assert qr.status_code == 200
    assert qr.mimetype == "image/svg+xml"
    assert qr.data.startswith(b"<svg")
    viewer = app.test_client()
    assert viewer.get(link.removeprefix("http://localhost")).status_code == 200
    renewed = logged_in.post(f"/games/{game_id}/share", data={"renew": "1"}, follow_redirects=True)
    assert "New link made: the old one no longer works." in renewed.text
    assert viewer.get(link.removeprefix("http://localhost")).status_code == 404
    logged_in.post(f"/games/{game_id}/share/revoke")
    assert "This game is not shared." in logged_in.get(f"/games/{game_id}/share").text


def test_another_account_cannot_share_or_revoke(app, api, other_api, game):
    assert other_api.post(f"/games/{game}/share").status_code == 404
    path = share(api, game)
    assert other_api.delete(f"/games/{game}/share").status_code == 404
    assert app.test_client().get(path).status_code == 200
    other = app.test_client()
    signup(other, "third-table")
    assert other.get(f"/games/{game}/share").status_code == 404
    assert other.post(f"/games/{game}/share/revoke").status_code == 404
    assert other.get(f"/games/{game}/share/qr.svg").status_code == 404


def test_a_shared_gin_game_loads_its_own_stylesheet_once(app, api):
    state = api.post("/games", {"game": "oklahoma_gin", "players": ["Ann", "Ben"]}).get_json()
    path = share(api, state["id"])
    page = app.test_client().get(path).text
    assert page.count("/static/games/oklahoma_gin/game.css") == 1
    assert page.index("oklahoma_gin/game.css") < page.index("</head>")
