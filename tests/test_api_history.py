"""The history part of the JSON API: nights, statistics, leaderboards, CSV, backup and
restore. Every answer is checked against the OpenAPI document."""

from __future__ import annotations

import csv
import io

import pytest
import sqlalchemy as sa

from scorekeeper.extensions import db
from scorekeeper.models import Night
from scorekeeper.services import nights
from tests.openapi_check import document
from tests.test_stats import build_history
from tests.test_table_changes_service import FOUR
from tests.test_table_changes_service import OPENING


def new_night(api, **body):
    response = api.post("/nights", body)
    assert response.status_code == 201, response.text
    return response.get_json()


def play_oh_hell(api, night_id=None, players=("Ann", "Ben", "Cy")) -> dict:
    """A finished two-hand Oh Hell game: Ann 22, Ben 20, Cy 11."""
    body = {"game": "oh_hell", "players": list(players),
            "options": {"sequence": "down", "max_cards": 2}, "night_id": night_id}  # fmt: skip
    state = api.post("/games", body).get_json()
    a, b, c = players
    for tricks in ({a: 1, b: 0, c: 1}, {a: 1, b: 0, c: 0}):
        hand = {"bids": {a: 1, b: 0, c: 1}, "tricks": tricks}
        response = api.post(f"/games/{state['id']}/hands", hand)
        assert response.status_code == 201, response.text
        state = response.get_json()
    return state


def error(response) -> dict:
    return response.get_json()["errors"][0]


# Nights ------------------------------------------------------------------------------------


def test_start_a_night_then_play_in_it_and_read_it_back(api):
    night = new_night(api, name="Friday", place="Ann's", notes="Pizza")
    assert night == {
        "id": night["id"], "date": nights.today().isoformat(), "name": "Friday",
        "place": "Ann's", "notes": "Pizza", "game_count": 0, "games": [],
    }  # fmt: skip
    state = play_oh_hell(api, night["id"])
    assert state["night_id"] == night["id"]
    read = api.get(f"/nights/{night['id']}").get_json()
    assert read["game_count"] == 1
    [game] = read["games"]
    assert (game["id"], game["game"], game["status"], game["winners"]) == (
        state["id"],
        "oh_hell",
        "finished",
        ["Ann"],
    )
    assert game["totals"] == {"Ann": 22, "Ben": 20, "Cy": 11}
    assert game["players"] == ["Ann", "Ben", "Cy"] and game["hands"] == 2


@pytest.mark.parametrize(
    ("body", "status", "code", "field"),
    [
        ({"date": "17-05-2024"}, 422, "date_invalid", "date"),
        ({"date": 20240517}, 400, "wrong_type", "date"),
        ({"name": "x" * 81}, 422, "text_too_long", "name"),
        ({"notes": ["a"]}, 400, "wrong_type", "notes"),
        ({"when": "tonight"}, 400, "wrong_type", "when"),
    ],
)
def test_night_refusals(app, api, body, status, code, field):
    response = api.post("/nights", body)
    assert response.status_code == status
    assert error(response)["code"] == code and error(response)["field"] == field
    assert error(response)["message"]
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count(Night.id))) == 0


def test_nights_list_newest_first_with_filters_and_pages(app, api):
    friday = new_night(api, date="2024-05-17", name="Friday")
    saturday = new_night(api, date="2024-05-18", name="Saturday")
    older = [new_night(api, date=f"2024-04-{day:02d}") for day in range(1, 11)]
    play_oh_hell(api, friday["id"])
    gin = api.post(
        "/games", {"game": "oklahoma_gin", "players": ["Dee", "Eve"], "night_id": friday["id"]}
    ).get_json()
    api.post("/games", {"game": "pitch", "players": ["Ann", "Dee"], "night_id": saturday["id"]})
    first = api.get("/nights").get_json()
    assert (first["total"], first["page"], first["per_page"], first["pages"]) == (12, 1, 10, 2)
    assert [n["name"] for n in first["nights"][:2]] == ["Saturday", "Friday"]
    second = api.get("/nights?page=2").get_json()
    assert [n["id"] for n in second["nights"]] == [older[1]["id"], older[0]["id"]]
    by_dee = api.get("/nights?player=dee").get_json()
    assert [n["name"] for n in by_dee["nights"]] == ["Saturday", "Friday"]
    assert [g["id"] for g in by_dee["nights"][1]["games"]] == [gin["id"]]
    assert by_dee["nights"][1]["game_count"] == 2
    gin_nights = api.get("/nights?game=oklahoma_gin").get_json()["nights"]
    assert [(n["name"], [g["game"] for g in n["games"]]) for n in gin_nights] == [
        ("Friday", ["oklahoma_gin"])
    ]
    assert api.get("/nights?game=pitch&player=Ben").get_json()["total"] == 0
    bad = api.get("/nights?page=0")
    assert bad.status_code == 400 and error(bad)["field"] == "page"


def test_the_list_gives_each_night_as_its_own_page_does_teams_and_joiners_included(api):
    """The list reads its games' stored columns, not whole games: each listed night is the
    night's own answer (a partnership game's teams, a late joiner's, a score pad's), and a
    filter keeps the matching games while the count stays the night's."""
    friday = new_night(api, date="2024-05-17", name="Friday")
    alone = new_night(api, date="2024-05-10", name="Alone")
    joined = api.post("/games", {"game": "oh_hell", "players": FOUR, "night_id": friday["id"]})
    joined = joined.get_json()["id"]
    for number, entry in enumerate(OPENING, start=1):
        assert api.post(f"/games/{joined}/hands", {**entry, "number": number}).status_code == 201
    join = {"kind": "join", "player": "Eve", "after": "Ann"}
    assert api.post(f"/games/{joined}/changes", join).status_code == 201
    teams = api.post(
        "/games", {"game": "spades", "players": FOUR, "night_id": friday["id"]}
    ).get_json()
    assert teams["teams"]
    play_oh_hell(api, friday["id"], players=("Cy", "Dee", "Fay"))
    play_oh_hell(api, alone["id"])
    api.post("/games", {"game": "oh_hell", "players": ["Gus", "Hal", "Ivy"]})  # in no night
    listed = api.get("/nights").get_json()["nights"]
    assert [night["id"] for night in listed] == [friday["id"], alone["id"]]
    for night in listed:
        assert night == api.get(f"/nights/{night['id']}").get_json()
    friday_games = listed[0]["games"]
    assert [game["players"] for game in friday_games] == [FOUR, FOUR, ["Cy", "Dee", "Fay"]]
    assert list(friday_games[0]["totals"]) == ["Ann", "Ben", "Cy", "Dee", "Eve"]
    assert list(friday_games[1]["totals"]) == ["Ann & Cy", "Ben & Dee"]
    [eve] = api.get("/nights?player=eve").get_json()["nights"]
    assert [game["id"] for game in eve["games"]] == [joined] and eve["game_count"] == 3
    spades = api.get("/nights?game=spades").get_json()["nights"]
    assert [(n["id"], [g["id"] for g in n["games"]], n["game_count"]) for n in spades] == [
        (friday["id"], [teams["id"]], 3)
    ]


def test_a_game_may_not_join_another_accounts_night(api, other_api):
    theirs = new_night(other_api)
    response = api.post(
        "/games", {"game": "oklahoma_gin", "players": ["Ann", "Ben"], "night_id": theirs["id"]}
    )
    assert response.status_code == 404
    assert error(response)["field"] == "night_id"


# Statistics --------------------------------------------------------------------------------


def test_player_statistics_and_leaderboards(api):
    play_oh_hell(api)
    gin = api.post("/games", {"game": "oklahoma_gin", "players": ["Ann", "Ben"],
                              "options": {"target": 50}}).get_json()  # fmt: skip
    api.post(f"/games/{gin['id']}/hands", {"upcard": "5", "result": "knock", "knocker": "Ann",
             "knocker_deadwood": 5, "opponent_deadwood": 5})  # fmt: skip
    roster = {p["name"]: p["id"] for p in api.get("/players").get_json()["players"]}
    ann = api.get(f"/players/{roster['Ann']}/stats").get_json()
    assert ann["player"]["name"] == "Ann"
    assert (ann["played"], ann["won"], ann["in_progress"], ann["win_rate"]) == (1, 1, 1, 1.0)
    oh_hell = ann["games"]["oh_hell"]
    figures = oh_hell["figures"]
    assert (figures["bids"], figures["bids_made"], oh_hell["points_per_hand"]) == (2, 2, 11.0)
    gin_stats = ann["games"]["oklahoma_gin"]
    figures = gin_stats["figures"]
    assert (gin_stats["in_progress"], figures["undercut"], figures["rounds_won"]) == (1, 1, 0)
    ben = api.get(f"/players/{roster['Ben']}/stats").get_json()["games"]["oklahoma_gin"]
    assert (ben["figures"]["undercuts"], ben["figures"]["rounds_won"], ben["points_total"]) == (
        1,
        1,
        10,
    )
    assert ann["games"]["pitch"]["played"] == 0 and ann["games"]["pitch"]["win_rate"] is None
    board = api.get("/leaderboards/oh_hell").get_json()
    assert [(line["player"]["name"], line["won"], line["average_score"]) for line in
            board["players"]] == [("Ann", 1, 22.0), ("Ben", 0, 20.0), ("Cy", 0, 11.0)]  # fmt: skip
    assert api.get("/leaderboards/oklahoma_gin").get_json()["players"] == []
    assert api.get("/leaderboards/chess").status_code == 404


# CSV -----------------------------------------------------------------------------------------


def check_csv_documented(api, response) -> None:
    """The CSV answer matches its own entry in the OpenAPI document (status and media type)."""
    operation = document(api.client.application)["paths"]["/api/v1/games/{game_id}.csv"]["get"]
    documented = operation["responses"][str(response.status_code)]
    assert response.mimetype == next(iter(documented["content"]))


def test_a_game_as_csv(api):
    state = play_oh_hell(api)
    response = api.client.get(f"/api/v1/games/{state['id']}.csv", headers=api.headers())
    check_csv_documented(api, response)
    assert response.status_code == 200 and response.mimetype == "text/csv"
    assert response.text.startswith("\ufeff")  # spreadsheets then read accents right
    rows = list(csv.reader(io.StringIO(response.text.removeprefix("\ufeff"))))
    assert rows[0][0] == "Hand" and rows[-2][0] == "Total" and rows[-1][:2] == ["Winner", "Ann"]
    assert [row[-5] for row in rows[1:3]] == ["11", "22"]  # Ann's running total
    missing = api.client.get("/api/v1/games/999.csv", headers=api.headers())
    check_csv_documented(api, missing)
    assert missing.status_code == 404 and error(missing)["code"] == "not_found"
    assert api.client.get(f"/api/v1/games/{state['id']}.csv").status_code == 401


# Backup and restore --------------------------------------------------------------------------


def test_backup_then_restore_into_an_empty_account(app, account, api, other_api):
    build_history(app, account.id, seed=21, nights_count=2, per_night=3)
    backup = api.get("/backup")
    assert backup.status_code == 200
    doc = backup.get_json()
    restored = other_api.post("/restore", doc)
    assert restored.status_code == 201
    assert restored.get_json()["restored"]["games"] == len(doc["games"]) == 9
    again = other_api.get("/backup").get_json()
    for key in ("players", "nights", "games"):
        assert again[key] == doc[key]
    assert other_api.get("/nights").get_json()["total"] == 2


def test_restore_refusals_use_restore_refused_and_change_nothing(app, account, api, other_api):
    build_history(app, account.id, seed=22, nights_count=1, per_night=3)
    doc = api.get("/backup").get_json()
    before = api.get("/backup").get_json()
    # Into an account with data.
    full = api.post("/restore", doc)
    assert full.status_code == 422 and error(full)["code"] == "restore_refused"
    assert "already has some" in error(full)["message"]
    after = api.get("/backup").get_json()
    assert {k: after[k] for k in ("players", "nights", "games")} == {
        k: before[k] for k in ("players", "nights", "games")
    }
    # Damaged, foreign, not JSON at all: refused, and the empty account stays empty.
    damaged = dict(doc, games=[dict(doc["games"][0], game="canasta")])
    for body in (damaged, {"format": "elsewhere"}, {"format": "scorekeeper-backup", "version": 9}):
        response = other_api.post("/restore", body)
        assert response.status_code == 422
        assert error(response)["code"] == "restore_refused"
        assert error(response)["message"].endswith("Nothing was restored.")
    not_json = other_api.post("/restore", data="{oops", content_type="application/json")
    assert not_json.status_code == 422 and error(not_json)["code"] == "restore_refused"
    assert other_api.get("/backup").get_json()["games"] == []
    assert other_api.get("/players").get_json()["players"] == []


def test_a_backup_larger_than_the_limit_is_refused(make_app):
    from tests.conftest import Api
    from tests.conftest import make_account
    from tests.conftest import new_token

    app = make_app(RESTORE_MAX_CONTENT_LENGTH=1000)
    make_account(app)
    client = app.test_client()
    api = Api(client, new_token(client))
    body = {"format": "scorekeeper-backup", "version": 1, "players": [], "nights": [],
            "games": [], "padding": "x" * 2000}  # fmt: skip
    response = api.post("/restore", body)
    assert response.status_code == 422
    assert error(response)["code"] == "restore_refused"
    assert "larger than the" in error(response)["message"]


# Another account ---------------------------------------------------------------------------


def test_another_account_gets_404_for_every_night_stat_and_export(api, other_api):
    night = new_night(api, name="Private")
    state = play_oh_hell(api, night["id"])
    ann = next(p for p in api.get("/players").get_json()["players"] if p["name"] == "Ann")
    for path in (f"/nights/{night['id']}", f"/players/{ann['id']}/stats"):
        response = other_api.get(path)
        assert response.status_code == 404 and error(response)["code"] == "not_found", path
        assert api.get(path).status_code == 200
    csv_response = other_api.client.get(
        f"/api/v1/games/{state['id']}.csv", headers=other_api.headers()
    )
    check_csv_documented(api, csv_response)
    assert csv_response.status_code == 404
    assert other_api.get("/nights").get_json()["nights"] == []
    assert other_api.get("/leaderboards/oh_hell").get_json()["players"] == []
    assert other_api.get("/backup").get_json()["games"] == []


def test_every_history_route_needs_a_token(client):
    from tests.conftest import Api

    anonymous = Api(client)
    for method, path in [
        ("GET", "/nights"),
        ("POST", "/nights"),
        ("GET", "/nights/1"),
        ("GET", "/players/1/stats"),
        ("GET", "/leaderboards/pitch"),
        ("GET", "/backup"),
        ("POST", "/restore"),
    ]:
        response = anonymous.request(method, path, json={})
        assert response.status_code == 401, path
        assert error(response)["code"] == "unauthorized"
