"""A second test-only game, of another shape than the fourth (Race): Partners is played in teams
of two (4 or 6 seats), a hand has no fixed size and is entered per team (below zero allowed)
with an optional per-player fact (who went out first), and what is stored is keyed by team and
seat through the game's own ``to_seats``. Played through every part of the app (the pages, the
API checked against the served document, statistics, leaderboards, CSV, backup and restore,
history and the shared view, renames and table corrections); nothing outside this folder names
it. Every score below is worked out by hand in the comments beside it.
"""

from __future__ import annotations

import csv
import io
import json
import re

from scorekeeper.extensions import db
from scorekeeper.models import Account
from scorekeeper.models import Game
from scorekeeper.services import backup
from tests.conftest import Api
from tests.conftest import make_account
from tests.conftest import new_token
from tests.openapi_check import document
from tests.pages import game_id
from tests.pages import pack
from tests.pages import roster_ids
from tests.pages import start_game
from tests.pages import text
from tests.test_input_sweep import BAD
from tests.test_input_sweep import post_forms

AC, BD = "Ann & Cy", "Ben & Dee"
FOUR = ["Ann", "Ben", "Cy", "Dee"]


def hand(client, game: int, number: int, *points, went_out: int | str = ""):
    """Post a hand on the game page: one field per team, the seat that went out first."""
    data = {"number": str(number), "went_out": str(went_out)}
    data.update({f"team-{index}": str(value) for index, value in enumerate(points)})
    return client.post(f"/games/{game}/hands", data=data)


def cells(html: str) -> dict[tuple[int, str], str]:
    """The score sheet's team cells: ``{(hand, team): "points (bonus) total"}``."""
    found = {}
    for number, row in re.findall(r'<tr data-hand="(\d+)">(.*?)</tr>', html, re.S):
        for team, cell in re.findall(r'<td class="team" data-team="([^"]+)">(.*?)</td>', row):
            found[(int(number), text(team))] = text(cell).strip()
    return found


def test_partners_is_offered_set_up_and_played_on_the_pages(app, table):
    assert "Partners" in table.get("/games/new").text
    page = table.get("/games/new?game=partners")
    assert page.status_code == 200
    assert 'name="opt-target"' in page.text and 'name="opt-going_out"' in page.text
    three = start_game(table, app, "partners", {"Ann": 1, "Ben": 2, "Cy": 3}, target=500)
    assert three.status_code == 422
    assert "This game needs 4 to 6 players; 3 chosen." in text(three.text)
    game = game_id(
        start_game(table, app, "partners", {"Ann": 1, "Ben": 2, "Cy": 3, "Dee": 4}, target=500)
    )
    shown = table.get(f"/games/{game}")
    assert "Partners to 500" in shown.text
    assert "500 to go" in shown.text  # both teams, nothing scored yet
    for extension in ("css", "js"):
        assert "partners" in pack(table, shown.text, extension), extension

    # Hand 1: Ann & Cy 120, Ben & Dee -30, Cy (seat 2) went out: +100 for Ann & Cy.
    assert hand(table, game, 1, 120, -30, went_out=2).status_code == 302
    # A team left blank is refused beside its field, the other one's points kept.
    refused = hand(table, game, 2, 150, "")
    assert refused.status_code == 422
    assert "Enter the points of Ben &amp; Dee." in refused.text
    assert 'name="team-0" value="150"' in refused.text
    wrong = hand(table, game, 2, "lots", 10)
    assert wrong.status_code == 400
    assert "The points of Ann &amp; Cy must be a whole number." in wrong.text
    # Hand 2: 150 and 90, Ben (seat 1) went out: Ben & Dee 190.
    assert hand(table, game, 2, 150, 90, went_out=1).status_code == 302
    sheet = cells(table.get(f"/games/{game}").text)
    assert sheet[(1, AC)] == "220 (+100) 220" and sheet[(1, BD)] == "−30 −30"
    assert sheet[(2, AC)] == "150 370" and sheet[(2, BD)] == "190 (+100) 160"

    # Correct hand 1: it was Ben who went out, not Cy. Ann & Cy 120, Ben & Dee 70; hand 2 is
    # scored again on top: 270 and 260.
    edit = table.get(f"/games/{game}/hands/1/edit")
    assert edit.status_code == 200
    assert 'name="team-0" value="120"' in edit.text and 'name="team-1" value="-30"' in edit.text
    assert re.search(r'name="went_out" value="2" checked', edit.text)
    corrected = table.post(
        f"/games/{game}/hands/1",
        data={"phase": "both", "team-0": "120", "team-1": "-30", "went_out": "1"},
    )
    assert corrected.status_code == 302
    page = table.get(f"/games/{game}").text
    assert "Hand 1 corrected; later hands re-scored." in page
    sheet = cells(page)
    assert sheet[(1, AC)] == "120 120" and sheet[(1, BD)] == "70 (+100) 70"
    assert sheet[(2, AC)] == "150 270" and sheet[(2, BD)] == "190 (+100) 260"
    assert "230 to go" in page and "240 to go" in page

    # Hand 3: 230 and 40, Ann (seat 0) went out: Ann & Cy 330, 600 in all, past 500: they win.
    assert hand(table, game, 3, 230, 40, went_out=0).status_code == 302
    finished = table.get(f"/games/{game}").text
    assert "Ann &amp; Cy win the game!" in finished
    assert "Ann &amp; Cy win with 600." in finished
    sheet = cells(finished)
    assert sheet[(3, AC)] == "330 (+100) 600" and sheet[(3, BD)] == "40 300"
    assert "This game is finished and read-only." in finished
    late = hand(table, game, 4, 10, 10)
    assert late.status_code == 422
    assert "This game is over. Reopen it first to correct a hand." in late.text
    assert "Ann &amp; Cy win the game!" in table.get(f"/games/{game}").text


def test_partners_through_the_api_matches_the_generated_document(app, api):
    spec = document(app)
    schemas = spec["components"]["schemas"]
    assert "PartnersState" in schemas and "PartnersNext" in schemas
    assert "PartnersNewGame" in str(schemas["NewGame"])
    assert "to_go" in schemas["PartnersNext"]["properties"]
    five = api.post("/games", {"game": "partners", "players": ["Ann", "Ben", "Cy", "Dee", "Eve"]})
    assert five.status_code == 422
    assert five.get_json()["errors"][0]["code"] == "player_count"
    six = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"]
    state = api.post(
        "/games", {"game": "partners", "players": six, "options": {"target": 500}}
    ).get_json()
    assert state["options"] == {"target": 500, "going_out": True}
    # Partners opposite: seats 1+4, 2+5, 3+6.
    assert state["teams"] == [["Ann", "Dee"], ["Ben", "Eve"], ["Cy", "Fay"]]
    ad, be, cf = "Ann & Dee", "Ben & Eve", "Cy & Fay"
    assert state["next"]["to_go"] == {ad: 500, be: 500, cf: 500}
    assert state["next"]["dealer"] == "Ann" and state["next"]["order"][0] == "Ben"
    url = f"/games/{state['id']}/hands"

    wrong = api.post(url, {"pts": {ad: 1}})
    assert wrong.status_code == 400 and wrong.get_json()["errors"][0]["field"] == "pts"
    answer = api.post(url, {"points": {ad: 10, "Ann & Ben": 5, cf: 0.5}, "went_out": "Zed"})
    assert answer.status_code in (400, 422)
    fields = {e["field"] for e in answer.get_json()["errors"]}
    assert {"points.Ann & Ben", f"points.{be}", "went_out"} <= fields

    # Hand 1: 300, 300, -50: Ann & Dee and Ben & Eve share the best hand.
    first = api.post(url, {"points": {ad: 300, be: 300, cf: -50}, "number": 1})
    assert first.status_code == 201
    assert first.get_json()["hands"][0]["hand_winners"] == [ad, be]
    # Hand 2: 200, 200, 100: Ann & Dee and Ben & Eve both reach 500, level: play on.
    level = api.post(url, {"points": {ad: 200, be: 200, cf: 100}, "number": 2}).get_json()
    assert level["status"] == "in_progress" and level["winners"] == []
    assert level["totals"] == {ad: 500, be: 500, cf: 50}
    assert level["next"]["to_go"] == {ad: 0, be: 0, cf: 450}
    assert level["notices"] == [f"{ad} and {be} are level: another hand decides."]
    assert level["next"]["dealer"] == "Cy"  # the deal passes to the left: Ann, Ben, Cy
    # Hand 3: 10, 0, 0 and Fay went out: Cy & Fay 100 (best hand); Ann & Dee 510 win.
    final = api.post(
        url, {"points": {ad: 10, be: 0, cf: 0}, "went_out": "Fay", "number": 3}
    ).get_json()
    assert final["status"] == "finished" and final["winners"] == [ad]
    assert final["next"] is None
    last = final["hands"][2]
    assert last["points"] == {ad: 10, be: 0, cf: 100}
    assert last["bonus"] == {ad: 0, be: 0, cf: 100}
    assert last["hand_winners"] == [cf]
    assert last["input"] == {"points": {ad: 10, be: 0, cf: 0}, "went_out": "Fay"}
    assert last["totals"] == {ad: 510, be: 500, cf: 150}

    # A correction through the API names only the team whose points change: Ben & Eve had
    # 20 in hand 3, so 520 beat Ann & Dee's 510.
    assert api.post(f"/games/{state['id']}/reopen").status_code == 200
    fixed = api.patch(f"{url}/3", {"points": {be: 20}})
    assert fixed.status_code == 200, fixed.text
    fixed = fixed.get_json()
    assert fixed["hands"][2]["input"]["points"] == {ad: 10, be: 20, cf: 0}
    assert fixed["totals"] == {ad: 510, be: 520, cf: 150} and fixed["winners"] == [be]
    summary = api.get("/games").get_json()["games"][0]
    assert summary["totals"] == {ad: 510, be: 520, cf: 150} and summary["winners"] == [be]


def finished_partners(api) -> dict:
    """Ann & Cy against Ben & Dee to 500 (going out +100), three hands:
    1. 120 / -30, Cy went out: 220 / -30;
    2. 150 / 90, Ben went out: 150 / 190 (totals 370 / 160);
    3. 200 / 40, Cy went out: 300 / 40 (totals 670 / 200): Ann & Cy win."""
    state = api.post(
        "/games", {"game": "partners", "players": FOUR, "options": {"target": 500}}
    ).get_json()
    for number, (points, went_out) in enumerate(
        (({AC: 120, BD: -30}, "Cy"), ({AC: 150, BD: 90}, "Ben"), ({AC: 200, BD: 40}, "Cy")),
        start=1,
    ):
        sent = {"points": points, "went_out": went_out, "number": number}
        assert api.post(f"/games/{state['id']}/hands", sent).status_code == 201
    return api.get(f"/games/{state['id']}").get_json()


def test_its_statistics_leaderboard_and_csv(app, api, logged_in):
    state = finished_partners(api)
    assert state["totals"] == {AC: 670, BD: 200} and state["winners"] == [AC]
    ids = {p["name"]: p["id"] for p in api.get("/players").get_json()["players"]}
    cy = api.get(f"/players/{ids['Cy']}/stats").get_json()["games"]["partners"]
    # Cy went out twice; Ann & Cy had the best hand in hands 1 and 3.
    assert (cy["played"], cy["won"], cy["hands"]) == (1, 1, 3)
    assert cy["figures"] == {"went_out": 2, "hands_won": 2}
    assert cy["points_total"] == 670 and cy["best_score"] == 670
    ann = api.get(f"/players/{ids['Ann']}/stats").get_json()["games"]["partners"]
    assert ann["figures"] == {"went_out": 0, "hands_won": 2}  # the partner's result, shared
    dee = api.get(f"/players/{ids['Dee']}/stats").get_json()["games"]["partners"]
    assert (dee["won"], dee["figures"]) == (0, {"went_out": 0, "hands_won": 1})
    assert dee["points_total"] == 200

    board = api.get("/leaderboards/partners").get_json()
    assert board["plays"] == 1
    won = {line["player"]["name"]: line["won"] for line in board["players"]}
    assert won == {"Ann": 1, "Cy": 1, "Ben": 0, "Dee": 0}
    page = logged_in.get("/stats/partners")
    assert page.status_code == 200
    assert "In partnerships each partner shares the team's result and score." in text(page.text)

    stats_page = re.sub(r"\s+", " ", logged_in.get(f"/stats/players/{ids['Cy']}").text)
    assert "Partners" in stats_page
    assert "<dt>Went out first</dt><dd>2 of 3" in stats_page
    assert "<dt>Hands won</dt><dd>2 of 3" in stats_page

    sheet = logged_in.get(f"/games/{state['id']}/sheet.csv").text.removeprefix("\ufeff")
    rows = list(csv.reader(io.StringIO(sheet)))
    assert rows[0] == [
        "Hand",
        "Dealer",
        "Went out",
        "Hand won by",
        f"{AC} points",
        f"{AC} total",
        f"{BD} points",
        f"{BD} total",
    ]
    assert rows[1] == ["1", "Ann", "Cy", AC, "220", "220", "-30", "-30"]
    assert rows[2] == ["2", "Ben", "Ben", BD, "150", "370", "190", "160"]
    assert rows[3] == ["3", "Cy", "Cy", AC, "300", "670", "40", "200"]
    assert rows[4] == ["Total", "", "", "", "", "670", "", "200"]
    assert rows[5][:2] == ["Winner", AC]
    same = api.get(f"/games/{state['id']}.csv")
    assert same.status_code == 200 and same.text.removeprefix("\ufeff") == sheet


def test_history_and_the_shared_view_show_it(app, api, logged_in):
    night = api.post("/nights", {"name": "Meld night"}).get_json()
    state = api.post(
        "/games",
        {"game": "partners", "players": FOUR, "night_id": night["id"], "options": {"target": 500}},
    ).get_json()
    api.post(f"/games/{state['id']}/hands", {"points": {AC: 80, BD: 45}, "went_out": "Dee"})
    assert "Partners" in logged_in.get(f"/nights/{night['id']}").text
    assert "Partners" in logged_in.get("/nights/").text
    review = logged_in.get(f"/history/games/{state['id']}")
    assert review.status_code == 200 and "partners-sheet" in review.text
    assert cells(review.text)[(1, BD)] == "145 (+100) 145"  # 45 + 100 for Dee going out

    url = api.post(f"/games/{state['id']}/share").get_json()["url"]
    viewer = app.test_client()
    shared = viewer.get(url.replace("http://localhost", ""))
    assert shared.status_code == 200
    assert "partners-sheet" in shared.text and "/static/games/partners/game.css" in shared.text
    assert "/static/games/partners/game.js" not in shared.text  # the view runs no game script
    assert "Dealer <strong>Ben</strong>" in shared.text
    assert "<li><strong>Cy</strong> plays first</li>" in shared.text
    # The game's own part of the view: what each team still needs (500 - 80, 500 - 145).
    assert f"{AC}: 420 to go" in text(shared.text) and f"{BD}: 355 to go" in text(shared.text)
    assert "/games/" not in re.sub(r"/static/games/[^\"]+", "", shared.text)  # no edit links

    api.post(f"/games/{state['id']}/hands", {"points": {AC: 400, BD: 0}})  # 480 / 145
    api.post(f"/games/{state['id']}/hands", {"points": {AC: 20, BD: 0}})  # 500: they win
    over = text(viewer.get(url.replace("http://localhost", "")).text)
    assert "Game over" in over and f"{AC} win!" in over


def test_the_shared_view_writes_who_plays_first_safely(app, api):
    """The name in bold is the player's, escaped; the sentence around it is the game's."""
    players = ["Ann", "Ben", "Bo <i>", "Dee"]
    state = api.post("/games", {"game": "partners", "players": players}).get_json()
    url = api.post(f"/games/{state['id']}/share").get_json()["url"]
    shared = app.test_client().get(url.replace("http://localhost", "")).text
    assert "Dealer <strong>Ann</strong>" in shared
    assert "<li><strong>Ben</strong> plays first</li>" in shared
    api.post(f"/games/{state['id']}/hands", {"points": {"Ann & Bo <i>": 5, "Ben & Dee": 5}})
    shared = app.test_client().get(url.replace("http://localhost", "")).text
    assert "<li><strong>Bo &lt;i&gt;</strong> plays first</li>" in shared
    assert "<i>" not in shared


def test_a_rename_and_a_table_correction_follow_the_teams(app, api, table):
    state = api.post(
        "/games", {"game": "partners", "players": FOUR, "options": {"target": 1000}}
    ).get_json()
    url = f"/games/{state['id']}"
    api.post(f"{url}/hands", {"points": {AC: 60, BD: 25}, "went_out": "Cy"})  # 160 / 25
    with app.app_context():
        stored = db.session.get(Game, state["id"]).hands[0].input
    assert stored == {"points": [60, 25], "went_out": 2}  # by team and seat: no name kept

    ids = roster_ids(app)
    assert api.patch(f"/players/{ids['Cy']}", {"name": "Cyd"}).status_code == 200
    renamed = api.get(url).get_json()
    assert renamed["teams"] == [["Ann", "Cyd"], ["Ben", "Dee"]]
    assert renamed["totals"] == {"Ann & Cyd": 160, BD: 25}
    assert renamed["hands"][0]["input"] == {"points": {"Ann & Cyd": 60, BD: 25}, "went_out": "Cyd"}

    # Eve sat in Dee's seat: she takes over what was entered for Dee's team.
    assert table.post("/players/", data={"name": "Eve"}).status_code == 302
    ids = roster_ids(app)
    seats = {
        f"seat-{seat}": str(ids[name]) for seat, name in enumerate(["Ann", "Ben", "Cyd", "Eve"])
    }
    form = table.get(f"{url}/table")
    assert form.status_code == 200
    assert "Eve" in form.text
    corrected = table.post(f"{url}/table", data={**seats, "first_dealer": "0"})
    assert corrected.status_code == 302, corrected.text
    after = api.get(url).get_json()
    assert after["teams"] == [["Ann", "Cyd"], ["Ben", "Eve"]]
    assert after["totals"] == {"Ann & Cyd": 160, "Ben & Eve": 25}
    assert after["hands"][0]["input"]["points"] == {"Ann & Cyd": 60, "Ben & Eve": 25}

    # Swapping partners across the teams would leave hand 1's team points to nobody: refused,
    # nothing changed.
    swapped = api.patch(url, {"players": ["Ann", "Cyd", "Ben", "Eve"]})
    assert swapped.status_code == 422
    assert api.get(url).get_json()["teams"] == [["Ann", "Cyd"], ["Ben", "Eve"]]


def test_a_backup_with_partners_restores_into_another_account(app, api):
    finished_partners(api)
    open_game = api.post("/games", {"game": "partners", "players": FOUR}).get_json()
    api.post(f"/games/{open_game['id']}/hands", {"points": {AC: -40, BD: 5}})
    before = api.get("/backup").get_json()
    assert [game["game"] for game in before["games"]] == ["partners", "partners"]
    first = next(game for game in before["games"] if len(game["hands"]) == 3)
    # A backup says what was entered by name, as the API does: the team's name, the player.
    assert first["hands"][0]["input"] == {"points": {AC: 120, BD: -30}, "went_out": "Cy"}

    make_account(app, "new-club")
    client = app.test_client()
    other = Api(client, new_token(client, "new-club"))
    restored = client.post(
        "/api/v1/restore",
        data=json.dumps(before),
        headers={**other.headers(), "Content-Type": "application/json"},
    )
    assert restored.status_code == 201, restored.text
    assert restored.get_json()["restored"]["games"] == 2
    assert restored.get_json()["restored"]["hands"] == 4
    again = other.get("/backup").get_json()
    for key in ("players", "nights", "games"):
        assert again[key] == before[key]
    listed = {game["status"]: game for game in other.get("/games").get_json()["games"]}
    assert listed["finished"]["totals"] == {AC: 670, BD: 200}
    assert listed["finished"]["winners"] == [AC]
    assert listed["in_progress"]["totals"] == {AC: -40, BD: 5}
    ids = {p["name"]: p["id"] for p in other.get("/players").get_json()["players"]}
    cy = other.get(f"/players/{ids['Cy']}/stats").get_json()["games"]["partners"]
    assert cy["figures"] == {"went_out": 2, "hands_won": 2} and cy["in_progress"] == 1
    with app.app_context():
        account = db.session.scalar(db.select(Account).where(Account.username == "new-club"))
        assert {game["game"] for game in backup.export_account(account)["games"]} == {"partners"}


def test_undo_abandon_resume_and_a_rule_set(app, api, table):
    saved = api.post("/rulesets", {"game": "partners", "name": "Short", "options": {"target": 200}})
    assert saved.status_code == 201
    bad = api.post("/rulesets", {"game": "partners", "name": "Huge", "options": {"target": 1}})
    assert bad.status_code == 422
    assert bad.get_json()["errors"][0]["field"] == "options.target"
    form = table.get(f"/games/new?game=partners&rule_set={saved.get_json()['id']}")
    assert 'id="opt-target" name="opt-target" min="100" max="10000" value="200"' in form.text
    game = game_id(
        start_game(table, app, "partners", {"Ann": 1, "Ben": 2, "Cy": 3, "Dee": 4}, target=200)
    )
    assert hand(table, game, 1, 50, 60).status_code == 302  # 50 / 60
    assert hand(table, game, 2, 30, 20, went_out=3).status_code == 302  # 80 / 180
    asked = table.get(f"/games/{game}/hands/2/undo")
    assert "Undo hand 2?" in asked.text
    assert table.post(f"/games/{game}/hands/2/undo").status_code == 302
    page = table.get(f"/games/{game}").text
    assert "Hand 2 removed." in page
    assert "150 to go" in page and "140 to go" in page  # back to 50 / 60
    assert table.post(f"/games/{game}/abandon").status_code == 302
    assert api.get(f"/games/{game}").get_json()["status"] == "abandoned"
    assert hand(table, game, 2, 10, 10).status_code == 422  # abandoned: resume it first
    assert table.post(f"/games/{game}/resume").status_code == 302
    # 50 + 150 + 100 for Ann going out: 300, past the target of 200.
    assert hand(table, game, 2, 150, 0, went_out=0).status_code == 302
    state = api.get(f"/games/{game}").get_json()
    assert state["status"] == "finished" and state["totals"] == {AC: 300, BD: 60}
    assert state["winners"] == [AC]


def test_its_forms_and_pages_take_bad_values_without_a_server_error(app, api, table):
    """Every field of the game's own forms, sent with the values that gave 500s in the drills,
    and every page of a six-seat game (three teams) in the app's lists."""
    for name in ("Eve", "Fay"):
        assert table.post("/players/", data={"name": name}).status_code == 302
    seats = {name: seat for seat, name in enumerate(["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"], 1)}
    game = game_id(start_game(table, app, "partners", seats, target=500))
    teams = ("Ann & Dee", "Ben & Eve", "Cy & Fay")
    assert hand(table, game, 1, 40, -10, 5, went_out=4).status_code == 302  # Eve: +100
    failures = []
    for page in (f"/games/{game}", f"/games/{game}/hands/1/edit", "/games/new?game=partners"):
        answer = table.get(page)
        assert answer.status_code == 200, page
        for action, fields in post_forms(answer.text):
            if (action or page).endswith(("/logout", "/delete")):
                continue
            for name in fields:
                for bad in BAD:
                    status = table.post(action or page, data={**fields, name: bad}).status_code
                    if status >= 500:
                        failures.append((action, name, bad, status))
    assert not failures
    state = api.get(f"/games/{game}").get_json()
    # Every bad number was refused: one hand, its points as entered. (A bad seat for who went
    # out reads as nobody, so the correction form may have saved hand 1 without the bonus.)
    assert len(state["hands"]) == 1
    assert state["hands"][0]["input"]["points"] == dict(zip(teams, (40, -10, 5), strict=True))
    assert state["totals"]["Ben & Eve"] in (-10, 90)
    for page in ("/games/", "/", "/nights/", "/stats/", f"/history/games/{game}", "/backup"):
        answer = table.get(page)
        assert answer.status_code == 200, page
    assert "Ben &amp; Eve" in table.get(f"/history/games/{game}").text
    assert "Partners" in table.get("/games/").text


def test_both_test_games_at_once(app, api):
    """Race (the fourth game) and Partners registered together: one document, both games'
    hands validated against their own models, one player's statistics for both."""
    from scorekeeper.games import GAMES
    from tests.fourth_game import GAME as RACE

    GAMES.add(RACE)
    try:
        spec = document(app)
        assert {"RaceState", "PartnersState"} <= set(spec["components"]["schemas"])
        race = api.post("/games", {"game": "race", "players": ["Ann", "Ben"]}).get_json()
        answer = api.post(f"/games/{race['id']}/hands", {"points": {AC: 1}})
        assert answer.status_code == 409  # a Partners hand is no Race hand (its field: conflict)
        assert answer.get_json()["errors"][0]["field"] == "points"
        api.post(f"/games/{race['id']}/hands", {"rolls": {"Ann": 6, "Ben": 6}})
        finished_partners(api)
        ann = next(p for p in api.get("/players").get_json()["players"] if p["name"] == "Ann")
        figures = api.get(f"/players/{ann['id']}/stats").get_json()["games"]
        assert figures["race"]["figures"] == {"rounds_won": 0, "sixes": 1}
        assert figures["race"]["in_progress"] == 1
        assert figures["partners"]["won"] == 1 and figures["partners"]["hands"] == 3
    finally:
        GAMES.remove(RACE.key)
