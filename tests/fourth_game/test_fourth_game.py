"""A game that lives only in this folder, played through every part of the app: the pages,
the API (checked against the generated document), statistics, leaderboards, CSV, backup and
restore, history and the shared view. Nothing outside this folder names it."""

from __future__ import annotations

import csv
import io
import re

from scorekeeper.extensions import db
from scorekeeper.models import Account
from scorekeeper.services import backup
from tests.conftest import Api
from tests.conftest import make_account
from tests.conftest import new_token
from tests.openapi_check import document
from tests.pages import game_id
from tests.pages import pack
from tests.pages import start_game


def roll(client, game: int, number: int, *rolls: int):
    data = {"number": str(number)}
    data.update({f"roll-{seat}": str(value) for seat, value in enumerate(rolls)})
    return client.post(f"/games/{game}/hands", data=data)


def test_the_race_is_offered_set_up_and_played_on_the_pages(app, table):
    assert "Race" in table.get("/games/new").text
    page = table.get("/games/new?game=race")
    assert page.status_code == 200 and 'name="opt-target"' in page.text
    assert "The first total to reach it ends the race." in page.text  # its own option help
    game = game_id(start_game(table, app, "race", {"Ann": 1, "Ben": 2}, target=10))
    shown = table.get(f"/games/{game}")
    assert "Race to 10" in shown.text
    assert "race-title" in pack(table, shown.text, "css")
    assert roll(table, game, 1, 6, 2).status_code == 302
    refused = roll(table, game, 2, 7, 1)
    assert refused.status_code == 422
    assert "Ann&#39;s roll must be from 0 to 6." in refused.text
    assert roll(table, game, 2, 5, 3).status_code == 302
    finished = table.get(f"/games/{game}").text
    assert "Ann won the race!" in finished
    assert re.search(r'<td class="roll">5 <span class="run">11</span></td>', finished)


def test_the_race_through_the_api_matches_the_generated_document(app, api):
    spec = document(app)
    assert "RaceState" in spec["components"]["schemas"]
    assert "RaceNewGame" in str(spec["components"]["schemas"]["NewGame"])
    state = api.post("/games", {"game": "race", "players": ["Ann", "Ben", "Cy"]}).get_json()
    assert state["options"] == {"target": 10}
    wrong = api.post(f"/games/{state['id']}/hands", {"rols": {"Ann": 1}})
    assert wrong.status_code == 400 and wrong.get_json()["errors"][0]["field"] == "rols"
    answer = api.post(
        f"/games/{state['id']}/hands", {"rolls": {"Ann": 7, "Ben": 1, "Cy": -1}, "number": 1}
    )
    assert answer.status_code == 422
    assert [e["field"] for e in answer.get_json()["errors"]] == ["rolls.Ann", "rolls.Cy"]
    for number, rolls in enumerate(([6, 2, 2], [6, 6, 1]), start=1):
        sent = {"rolls": dict(zip(["Ann", "Ben", "Cy"], rolls, strict=True)), "number": number}
        assert api.post(f"/games/{state['id']}/hands", sent).status_code == 201
    final = api.get(f"/games/{state['id']}").get_json()
    assert final["status"] == "finished" and final["winners"] == ["Ann"]
    assert final["hands"][1]["round_winner"] is None  # Ann and Ben both rolled 6
    assert final["hands"][1]["totals"] == {"Ann": 12, "Ben": 8, "Cy": 3}


def finished_race(api) -> dict:
    state = api.post("/games", {"game": "race", "players": ["Ann", "Ben"]}).get_json()
    for number, rolls in enumerate(({"Ann": 6, "Ben": 1}, {"Ann": 6, "Ben": 6}), start=1):
        api.post(f"/games/{state['id']}/hands", {"rolls": rolls, "number": number})
    return api.get(f"/games/{state['id']}").get_json()


def test_its_statistics_leaderboard_and_csv(app, api, logged_in):
    state = finished_race(api)
    ann = next(p for p in api.get("/players").get_json()["players"] if p["name"] == "Ann")
    figures = api.get(f"/players/{ann['id']}/stats").get_json()["games"]["race"]
    assert (figures["played"], figures["won"], figures["hands"]) == (1, 1, 2)
    assert figures["figures"] == {"rounds_won": 1, "sixes": 2}
    board = api.get("/leaderboards/race").get_json()["players"]
    assert [(line["player"]["name"], line["won"]) for line in board] == [("Ann", 1), ("Ben", 0)]
    page = re.sub(r"\s+", " ", logged_in.get(f"/stats/players/{ann['id']}").text)
    assert "Race" in page and "<dt>Sixes</dt><dd>2</dd>" in page
    assert "<dt>Rounds won</dt><dd>1 of 2" in page
    csv_text = logged_in.get(f"/games/{state['id']}/sheet.csv").text.removeprefix("\ufeff")
    rows = list(csv.reader(io.StringIO(csv_text)))
    assert rows[0][:3] == ["Round", "Dealer", "Round winner"]
    assert rows[1][2] == "Ann" and rows[-1][:2] == ["Winner", "Ann"]


def test_history_and_the_shared_view_show_it(app, api, logged_in):
    night = api.post("/nights", {"name": "Dice night"}).get_json()
    state = api.post(
        "/games", {"game": "race", "players": ["Ann", "Ben"], "night_id": night["id"]}
    ).get_json()
    api.post(f"/games/{state['id']}/hands", {"rolls": {"Ann": 4, "Ben": 2}})
    assert "Race" in logged_in.get(f"/nights/{night['id']}").text
    assert "Race" in logged_in.get("/nights/").text
    review = logged_in.get(f"/history/games/{state['id']}")
    assert review.status_code == 200 and "race-sheet" in review.text
    url = api.post(f"/games/{state['id']}/share").get_json()["url"]
    shared = app.test_client().get(url.replace("http://localhost", ""))
    assert shared.status_code == 200
    assert "race-sheet" in shared.text and "/static/games/race/game.css" in shared.text
    # Its own reminder of the round to play next, and nothing of another game's.
    assert "<li><strong>Ann</strong> rolls first</li>" in shared.text
    assert "bids first" not in shared.text and "</strong> card" not in shared.text
    upcoming = api.get(f"/games/{state['id']}").get_json()["next"]
    assert set(upcoming) == {"number", "dealer", "order", "players"}


def test_a_backup_with_races_restores_into_another_account(app, api):
    finished_race(api)
    document_before = api.get("/backup").get_json()
    assert [game["game"] for game in document_before["games"]] == ["race"]
    make_account(app, "new-club")
    client = app.test_client()
    other = Api(client, new_token(client, "new-club"))
    restored = client.post(
        "/api/v1/restore",
        data=__import__("json").dumps(document_before),
        headers={**other.headers(), "Content-Type": "application/json"},
    )
    assert restored.status_code == 201, restored.text
    assert restored.get_json()["restored"]["games"] == 1
    again = other.get("/backup").get_json()
    for key in ("players", "nights", "games"):
        assert again[key] == document_before[key]
    with app.app_context():
        account = db.session.scalar(db.select(Account).where(Account.username == "new-club"))
        assert backup.export_account(account)["games"][0]["game"] == "race"
