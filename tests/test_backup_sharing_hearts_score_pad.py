"""Hearts and the score pad in a backup (restored into an empty account with nothing lost,
an ended open score pad still ended) and in the shared live view for the other phones."""

from __future__ import annotations

import re

from scorekeeper.extensions import db
from scorekeeper.models import Account
from scorekeeper.services import backup
from scorekeeper.services import games
from tests.conftest import make_account
from tests.test_backup import all_stats
from tests.test_backup import comparable
from tests.test_backup import derived
from tests.test_backup import export
from tests.test_backup import restore

FOUR = ["Ann", "Ben", "Cy", "Dee"]


def new_game(api, kind, players=FOUR, **options):
    response = api.post("/games", {"game": kind, "players": players, "options": options})
    assert response.status_code == 201, response.text
    return response.get_json()


def play(api, state, body):
    response = api.post(f"/games/{state['id']}/hands", body)
    assert response.status_code == 201, response.text
    return response.get_json()


def hearts(*values):
    return {"points": dict(zip(FOUR, values, strict=True))}


def a_history(api) -> dict[str, int]:
    """A finished Hearts game with a moon and the jack, one in progress, an open score pad
    the table ended, one ended and taken up again, one to a target, one in progress."""
    made = {}
    game = new_game(api, "hearts", target=50, jack_of_diamonds=True)
    for body in (
        {**hearts(13, 5, 8, 0), "jack_of_diamonds": "Dee"},
        hearts(26, 0, 0, 0),
        hearts(0, 13, 13, 0),
        hearts(0, 13, 13, 0),
    ):
        game = play(api, game, body)
    assert game["status"] == "finished"
    made["hearts_finished"] = game["id"]
    game = new_game(api, "hearts", moon="minus", players=["Ann", "Ben", "Cy"])
    game = play(api, game, {"points": {"Ann": 0, "Ben": 26, "Cy": 0}})
    made["hearts_playing"] = game["id"]
    pad = new_game(api, "score_pad", name="Catan")
    pad = play(api, pad, {"points": {"Ann": 10, "Ben": 8}})
    pad = play(api, pad, {"points": {"Cy": 12, "Dee": -2}})
    assert api.post(f"/games/{pad['id']}/close").status_code == 200
    made["pad_ended"] = pad["id"]
    pad = new_game(api, "score_pad", name="Catan")
    pad = play(api, pad, {"points": {"Ann": 3}})
    api.post(f"/games/{pad['id']}/close")
    api.post(f"/games/{pad['id']}/reopen")
    made["pad_reopened"] = pad["id"]
    pad = new_game(api, "score_pad", name="Golf", winner="lowest", end="target", target=10)
    pad = play(api, pad, {"points": {"Ann": 4, "Ben": 11, "Cy": 5, "Dee": 6}})
    assert pad["status"] == "finished"
    pad = new_game(api, "score_pad", name="Darts", dealer=True, players=["Ann"])
    play(api, pad, {"points": {"Ann": 60}})
    made["pad_playing"] = pad["id"]
    return made


def test_a_backup_restores_hearts_and_score_pads_with_nothing_lost(app, api, account):
    made = a_history(api)
    document = export(app, account.id)
    assert {game["game"] for game in document["games"]} == {"hearts", "score_pad"}
    ended = next(game for game in document["games"] if game["id"] == made["pad_ended"])
    assert ended["locked"] is True and ended["finished_at"]
    original = all_stats(app, account.id)
    target = make_account(app, "new-club")
    restored = restore(app, target.id, document)
    assert restored["games"] == 6
    assert comparable(export(app, target.id)) == comparable(document)
    assert derived(app, target.id) == derived(app, account.id)
    assert all_stats(app, target.id) == original
    with app.app_context():
        new_account = db.session.get(Account, target.id)
        ids = [game.id for game in games.list_games(new_account, per_page=50).items][::-1]
        states = [games.load(new_account, game_id).state for game_id in ids]
    # The open score pad the table ended is still ended, with its winner, after the restore.
    assert (states[2].finished, states[2].winners) == (True, ["Cy"])
    assert not states[3].finished
    assert not states[5].finished and not states[1].finished


def test_the_csv_of_a_restored_game_is_the_same(app, api, account):
    made = a_history(api)
    document = export(app, account.id)
    target = make_account(app, "new-club")
    restore(app, target.id, document)
    with app.app_context():
        before = backup.game_csv(
            games.load(db.session.get(Account, account.id), made["hearts_finished"])
        )
        restored = db.session.get(Account, target.id)
        first = games.list_games(restored, kind="hearts", per_page=50).items[-1]
        after = backup.game_csv(games.load(restored, first.id))
    assert after == before and "Jack of diamonds" in before


def share(api, game_id) -> str:
    response = api.post(f"/games/{game_id}/share")
    assert response.status_code == 201
    return response.get_json()["url"].removeprefix("http://localhost")


def test_the_shared_view_of_a_hearts_game(app, api):
    game = new_game(api, "hearts")
    game = play(api, game, hearts(13, 5, 8, 0))
    path = share(api, game["id"])
    viewer = app.test_client()
    page = viewer.get(path)
    assert page.status_code == 200
    assert "Hand 2" in page.text and "Hand 2: pass three cards right." in page.text
    assert "Score sheet" in page.text and "right" in page.text
    assert page.text.count("/static/games/hearts/game.css") == 1
    assert 'name="point-0"' not in page.text and "/edit" not in page.text  # read-only
    etag = page.headers["ETag"]
    assert viewer.get(path, headers={"If-None-Match": etag}).status_code == 304
    play(api, game, hearts(0, 0, 0, 26))
    changed = viewer.get(path, headers={"If-None-Match": etag})
    assert changed.status_code == 200
    assert "Hand 3: pass three cards across." in changed.text
    assert "☾" in changed.text


def test_the_shared_view_of_a_score_pad(app, api):
    pad = new_game(api, "score_pad", name="Rummikub", players=["Ann", "Ben"])
    pad = play(api, pad, {"points": {"Ann": 12, "Ben": -4}})
    path = share(api, pad["id"])
    viewer = app.test_client()
    page = viewer.get(path)
    assert page.status_code == 200
    assert "<title>Rummikub (score pad) · live</title>" in page.text
    assert "Round 2" in page.text
    assert re.search(r"−4", page.text)
    api.post(f"/games/{pad['id']}/close")
    over = viewer.get(path)
    assert "Game over" in over.text and "Ann wins!" in over.text
