"""Game nights on the pages: start one (from home in one tap, or with a name and place), its
page, the history list with filters and pages, a game's review page with its chart, the CSV
score sheet, another account's 404 and a fixed number of queries."""

from __future__ import annotations

import csv
import io
import re
from datetime import date
from datetime import datetime
from datetime import timedelta
from html import unescape

import pytest
import sqlalchemy as sa
from markupsafe import escape

from scorekeeper.extensions import db
from scorekeeper.games import GAMES
from scorekeeper.models import Account
from scorekeeper.models import Game
from scorekeeper.models import Night
from scorekeeper.services import games
from scorekeeper.services import nights
from scorekeeper.views.static_files import SHRINK
from tests.conftest import login
from tests.conftest import make_account
from tests.pages import pack
from tests.test_stats import build_history
from tests.test_stats import counting
from tests.test_stats import query_plan


def text_of(html: str) -> str:
    """The page's text with tags removed and spaces collapsed."""
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html))).strip()


def count_nights(app) -> int:
    with app.app_context():
        return db.session.scalar(sa.select(sa.func.count(Night.id)))


def with_account(app, account_id, action):
    with app.app_context():
        return action(db.session.get(Account, account_id))


def quick_oh_hell(account, night_id=None, names=("Ann", "Ben", "Cy")) -> int:
    """A finished two-hand Oh Hell game: Ann 22, Ben 20, Cy 11."""
    result = games.create_game(
        account, "oh_hell", list(names), {"sequence": "down", "max_cards": 2}, None, night_id
    )
    a, b, c = names
    games.record_hand(
        games.get_game(account, result.game.id),
        {"bids": {a: 1, b: 0, c: 1}, "tricks": {a: 1, b: 0, c: 1}},
    )
    games.record_hand(
        games.get_game(account, result.game.id),
        {"bids": {a: 1, b: 0, c: 1}, "tricks": {a: 1, b: 0, c: 0}},
    )
    return result.game.id


# Starting a night --------------------------------------------------------------------------


def test_the_form_starts_a_night_dated_today_by_default(app, logged_in):
    form = logged_in.get("/nights/new")
    assert form.status_code == 200
    assert f'value="{nights.today().isoformat()}"' in form.text
    response = logged_in.post(
        "/nights/new",
        data={"date": "", "name": " Friday  cards ", "place": "At Ann's", "notes": "Bring chips"},
    )
    assert response.status_code == 302
    page = logged_in.get(response.headers["Location"])
    assert "Friday cards: game night started." in page.text
    assert "<h1>Friday cards</h1>" in page.text
    assert "At Ann&#39;s" in page.text and "Bring chips" in page.text
    with app.app_context():
        night = db.session.scalar(sa.select(Night))
        assert (night.date, night.name, night.place) == (nights.today(), "Friday cards", "At Ann's")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"date": "2024-13-45"}, "“2024-13-45” is not a date: enter it as YYYY-MM-DD"),
        ({"date": "1850-01-01"}, "The date must be from 1900-01-01 to a year from now"),
        ({"name": "x" * 81}, "The name can be at most 80 characters (81 given)."),
        ({"place": "y" * 90}, "The place can be at most 80 characters (90 given)."),
    ],
)
def test_a_refused_night_keeps_what_was_typed(app, logged_in, data, message):
    typed = {"date": "2024-05-17", "name": "Cards", "place": "Ben's", "notes": "Pizza", **data}
    response = logged_in.post("/nights/new", data=typed)
    assert response.status_code == 422
    assert message in response.text
    for key in ("date", "name", "place"):
        assert f'value="{escape(typed[key])}"' in response.text
    assert "Pizza</textarea>" in response.text
    assert 'aria-invalid="true"' in response.text
    assert count_nights(app) == 0


def test_one_tap_from_home_starts_tonight_and_a_second_tap_reuses_it(app, logged_in):
    home = logged_in.get("/")
    assert "Start tonight's game night" in home.text
    first = logged_in.post("/nights/tonight")
    assert first.status_code == 302
    second = logged_in.post("/nights/tonight")
    assert second.headers["Location"] == first.headers["Location"]
    assert count_nights(app) == 1
    home = logged_in.get("/")
    assert "Start tonight" not in home.text
    assert "Open tonight's night" in home.text
    assert first.headers["Location"] in home.text


def test_home_shows_tonights_games_and_every_game_in_progress(app, account, logged_in):
    def setup(acct):
        night = nights.create_night(acct, name="Poker face")
        quick_oh_hell(acct, night.id)
        # An old game in progress, then six newer finished ones: it must still be offered.
        old = games.create_game(acct, "oklahoma_gin", ["Dee", "Eve"], {"target": 50})
        for _ in range(6):
            quick_oh_hell(acct)
        return old.game.id

    old = with_account(app, account.id, setup)
    home = logged_in.get("/")
    text = text_of(home.text)
    assert "Tonight: Poker face" in text
    assert "Oh Hell Ann, Ben, Cy Won by Ann" in text
    assert f'href="/games/{old}"' in home.text


def test_in_the_small_hours_last_evenings_night_is_still_tonight(app, account):
    def check(acct):
        night = nights.create_night(acct, date(2024, 5, 17))
        late = datetime(2024, 5, 18, 1, 30).astimezone()
        morning = datetime(2024, 5, 18, 9, 0).astimezone()
        assert nights.tonight(acct, late).id == night.id
        assert nights.tonight(acct, morning) is None
        assert nights.tonight(acct, datetime(2024, 5, 17, 20, 0).astimezone()).id == night.id

    with_account(app, account.id, check)


def test_editing_a_night(app, account, logged_in):
    night_id = with_account(app, account.id, lambda a: nights.create_night(a, "2024-05-17").id)
    form = logged_in.get(f"/nights/{night_id}/edit")
    assert 'value="2024-05-17"' in form.text and "Save the night" in form.text
    refused = logged_in.post(f"/nights/{night_id}/edit", data={"date": "17/05/2024", "name": "X"})
    assert refused.status_code == 422 and 'value="17/05/2024"' in refused.text
    saved = logged_in.post(
        f"/nights/{night_id}/edit", data={"date": "2024-05-18", "name": "Saturday", "notes": ""}
    )
    assert saved.status_code == 302
    with app.app_context():
        night = db.session.get(Night, night_id)
        assert (night.date, night.name) == (date(2024, 5, 18), "Saturday")


# A night's page ----------------------------------------------------------------------------


def test_the_night_page_lists_each_game_with_winner_and_standings(app, account, logged_in):
    def setup(acct):
        night = nights.create_night(acct, "2024-05-17", "Friday", "Ann's")
        game = quick_oh_hell(acct, night.id)
        gin = games.create_game(acct, "oklahoma_gin", ["Ann", "Ben"], None, None, night.id)
        return night.id, game, gin.game.id

    night_id, game_id, gin_id = with_account(app, account.id, setup)
    page = logged_in.get(f"/nights/{night_id}")
    assert page.status_code == 200
    text = text_of(page.text)
    assert "Friday Friday, 17 May 2024 · Ann's" in text
    assert "Oh Hell won by Ann Ann 22 Ben 20 Cy 11" in text
    assert "Oklahoma Gin in progress · 0 rounds" in text
    assert f'href="/history/games/{game_id}"' in page.text
    assert f'href="/history/games/{gin_id}"' in page.text
    for kind in ("oh_hell", "pitch", "oklahoma_gin"):
        assert f'href="/games/new?game={kind}&amp;night={night_id}"' in page.text


def test_a_game_started_on_its_own_can_join_the_night(app, account, logged_in):
    def setup(acct):
        night = nights.create_night(acct)
        other = nights.create_night(acct, name="Other")
        loose = quick_oh_hell(acct)
        taken = quick_oh_hell(acct, other.id)
        return night.id, loose, taken

    night_id, loose, taken = with_account(app, account.id, setup)
    page = logged_in.get(f"/nights/{night_id}")
    assert "Games that day outside a night" in page.text
    assert f'name="game_id" value="{loose}"' in page.text
    assert f'value="{taken}"' not in page.text
    response = logged_in.post(f"/nights/{night_id}/games", data={"game_id": str(loose)})
    assert response.status_code == 302
    page = logged_in.get(f"/nights/{night_id}")
    assert "Oh Hell added to this night." in page.text
    assert "Games that day outside a night" not in page.text
    refused = logged_in.post(f"/nights/{night_id}/games", data={"game_id": str(taken)})
    assert (
        "That game already belongs to another night."
        in logged_in.get(refused.headers["Location"]).text
    )
    with app.app_context():
        assert db.session.get(Game, loose).night_id == night_id
        assert db.session.get(Game, taken).night_id != night_id


# History -----------------------------------------------------------------------------------


def test_history_lists_nights_newest_first_a_page_at_a_time(app, account, logged_in):
    def setup(acct):
        for day in range(12):
            nights.create_night(acct, date(2024, 1, 1) + timedelta(days=day), f"N{day + 1}")

    with_account(app, account.id, setup)
    first = logged_in.get("/nights/")
    names = re.findall(r'<h2><a href="/nights/\d+">(N\d+)</a></h2>', first.text)
    assert names == [f"N{n}" for n in range(12, 2, -1)]
    assert "12 nights · page 1 of 2" in text_of(first.text)
    second = logged_in.get("/nights/?page=2")
    assert re.findall(r'<h2><a href="/nights/\d+">(N\d+)</a></h2>', second.text) == ["N2", "N1"]
    assert 'rel="prev"' in second.text and 'rel="next"' not in second.text
    # A page that is no page number is refused, on the pages as in the API.
    assert logged_in.get("/nights/?page=abc").status_code == 400


def test_history_filters_by_player_and_by_game(app, account, logged_in):
    def setup(acct):
        friday = nights.create_night(acct, "2024-05-17", "Friday")
        saturday = nights.create_night(acct, "2024-05-18", "Saturday")
        quick_oh_hell(acct, friday.id)
        games.create_game(acct, "oklahoma_gin", ["Dee", "Eve"], None, None, friday.id)
        games.create_game(acct, "pitch", ["Ann", "Dee", "Fay"], None, None, saturday.id)

    with_account(app, account.id, setup)
    everything = text_of(logged_in.get("/nights/").text)
    assert "Saturday" in everything and "Friday" in everything
    dee = text_of(logged_in.get("/nights/?player=dee").text)
    assert "2 nights with games played by dee" in dee
    ben = logged_in.get("/nights/?player=Ben").text
    assert "Friday" in ben and "Saturday</a>" not in ben
    assert "1 of 2 games" in text_of(ben)
    gin = text_of(logged_in.get("/nights/?game=oklahoma_gin").text)
    assert "1 night with Oklahoma Gin" in gin and "Oh Hell" not in gin.split("1 night")[1]
    both = text_of(logged_in.get("/nights/?game=pitch&player=Ben").text)
    assert "0 nights" in both and "No night matches." in both


# A game's review page: chart and score sheet ----------------------------------------------


def test_the_game_page_draws_the_progression_chart_with_a_text_alternative(app, account, logged_in):
    game_id = with_account(app, account.id, lambda a: quick_oh_hell(a))
    page = logged_in.get(f"/history/games/{game_id}")
    assert page.status_code == 200
    svg = re.search(r"<svg class=\"chart-svg\" viewBox=\"0 0 300 200\".*?</svg>", page.text, re.S)
    assert svg, "the chart is drawn by the server"
    assert 'role="img" aria-labelledby="chart-title chart-desc"' in svg.group(0)
    assert '<title id="chart-title">Score progression</title>' in svg.group(0)
    assert "Final: Ann 22, Ben 20, Cy 11." in svg.group(0)
    assert svg.group(0).count("<polyline") == 3
    table = re.search(r"The chart as a table.*?</table>", page.text, re.S).group(0)
    rows = re.findall(r"<tr><th scope=\"row\">(\d+)</th>((?:<td>.*?</td>)+)</tr>", table)
    assert [(n, re.findall(r"<td>(.*?)</td>", cells)) for n, cells in rows] == [
        ("1", ["11", "10", "11"]),
        ("2", ["22", "20", "11"]),
    ]
    assert "Score sheet" in page.text and "Ann won" in page.text
    assert f'href="/games/{game_id}/sheet.csv"' in page.text


def test_a_game_without_a_score_shows_no_chart_yet(app, account, logged_in):
    game_id = with_account(
        app, account.id, lambda a: games.create_game(a, "pitch", ["Ann", "Ben"]).game.id
    )
    page = logged_in.get(f"/history/games/{game_id}")
    assert "The chart appears once a hand is scored." in page.text
    assert "<svg" not in page.text


def test_a_gin_chart_ends_with_the_bonuses(app, account, logged_in):
    def setup(acct):
        result = games.create_game(acct, "oklahoma_gin", ["Ann", "Ben"], {"target": 50,
                                   "box_bonus": 25, "shutout_double": True})  # fmt: skip
        games.record_hand(
            games.get_game(acct, result.game.id),
            {
                "upcard": "9",
                "result": "gin",
                "knocker": "Ann",
                "opponent_deadwood": 30,
            },  # fmt: skip
        )
        return result.game.id

    game_id = with_account(app, account.id, setup)
    page = logged_in.get(f"/history/games/{game_id}")
    assert "Final: Ann 160, Ben 0." in page.text  # (55 + 25 box) doubled
    assert '<th scope="row">Bonuses</th><td>160</td><td>0</td>' in page.text
    assert "The last point, +, adds the end-of-game bonuses." in page.text


# CSV ----------------------------------------------------------------------------------------


def read_csv(response) -> list[list[str]]:
    assert response.status_code == 200
    assert response.mimetype == "text/csv"
    assert response.headers["Content-Disposition"].startswith("attachment; filename=")
    assert response.text.startswith("\ufeff")  # spreadsheets then read accents right
    return list(csv.reader(io.StringIO(response.text.removeprefix("\ufeff"))))


def test_the_csv_score_sheet_of_an_oh_hell_game(app, account, logged_in):
    game_id = with_account(app, account.id, lambda a: quick_oh_hell(a))
    rows = read_csv(logged_in.get(f"/games/{game_id}/sheet.csv"))
    assert rows[0][:6] == ["Hand", "Dealer", "Cards", "Trump", "Ann bid", "Ann tricks"]
    assert rows[0][-2:] == ["Cy points", "Cy total"]
    assert rows[1] == ["1", "Ann", "2", "", "1", "1", "0", "0", "1", "1",
                       "11", "11", "10", "10", "11", "11"]  # fmt: skip
    assert rows[2][-6:] == ["11", "22", "10", "20", "0", "11"]
    assert rows[3][0] == "Total" and rows[3][-6:] == ["", "22", "", "20", "", "11"]
    assert rows[4][:2] == ["Winner", "Ann"]


def test_the_csv_of_pitch_and_gin_games(app, account, logged_in):
    def setup(acct):
        pitch = games.create_game(acct, "pitch", ["Ann", "Ben", "Cy"])
        games.record_hand(
            games.get_game(acct, pitch.game.id),
            {"auction": [["Ben", "pass"], ["Cy", 2], ["Ann", 2]],
             "high": "Ben", "low": "Ben", "jack": None, "game": "Cy"},
        )  # fmt: skip
        gin = games.create_game(acct, "oklahoma_gin", ["Ann", "Ben"], {"target": 50,
                                "game_bonus": 100})  # fmt: skip
        games.record_hand(
            games.get_game(acct, gin.game.id),
            {"upcard": "7", "result": "knock", "knocker": "Ann",
             "knocker_deadwood": 6, "opponent_deadwood": 2},
        )  # fmt: skip
        games.record_hand(
            games.get_game(acct, gin.game.id),
            {"upcard": "Q", "result": "gin", "knocker": "Ben", "opponent_deadwood": 40},
        )
        return pitch.game.id, gin.game.id

    pitch_id, gin_id = with_account(app, account.id, setup)
    pitch = read_csv(logged_in.get(f"/games/{pitch_id}/sheet.csv"))
    assert pitch[0][:9] == ["Hand", "Dealer", "Pitcher", "Bid", "Made", "High", "Low", "Jack",
                            "Game"]  # fmt: skip
    # Ann (dealer) stole at 2 and won nothing: set back 2.
    assert pitch[1] == ["1", "Ann", "Ann", "2", "no", "Ben", "Ben", "", "Cy",
                        "-2", "-2", "2", "2", "1", "1"]  # fmt: skip
    gin = read_csv(logged_in.get(f"/games/{gin_id}/sheet.csv"))
    assert gin[1][:9] == ["1", "Ann", "7", "7", "undercut", "Ann", "6", "2", "Ben"]
    assert gin[1][-4:] == ["0", "0", "14", "14"]
    assert gin[2][4] == "gin" and gin[2][-4:] == ["0", "0", "65", "79"]
    assert gin[3][0] == "Game bonus" and gin[3][-4:] == ["", "", "100", ""]
    assert gin[4][0] == "Total" and gin[4][-4:] == ["", "0", "", "179"]


def test_csv_cells_never_run_as_spreadsheet_formulas(app, account, logged_in):
    game_id = with_account(
        app, account.id, lambda a: quick_oh_hell(a, names=("=SUM(A1)", "+Ben", "Cy"))
    )
    rows = read_csv(logged_in.get(f"/games/{game_id}/sheet.csv"))
    assert rows[0][4] == "'=SUM(A1) bid"
    assert rows[1][1] == "'=SUM(A1)"
    assert all(not cell.startswith(("=", "+", "@")) for row in rows for cell in row)


# Another account, logins -------------------------------------------------------------------


def test_another_account_gets_404_for_every_night_game_page_and_csv(app, account, logged_in):
    def setup(acct):
        night = nights.create_night(acct, name="Private")
        loose = quick_oh_hell(acct)
        return night.id, quick_oh_hell(acct, night.id), loose

    night_id, game_id, loose = with_account(app, account.id, setup)
    make_account(app, "other-table")
    other = app.test_client()
    assert login(other, "other-table").status_code == 302
    for url in (
        f"/nights/{night_id}",
        f"/nights/{night_id}/edit",
        f"/history/games/{game_id}",
        f"/games/{game_id}/sheet.csv",
    ):
        assert other.get(url).status_code == 404, url
        assert logged_in.get(url).status_code == 200, url
    assert other.post(f"/nights/{night_id}/edit", data={"name": "Hacked"}).status_code == 404
    assert other.post(f"/nights/{night_id}/games", data={"game_id": loose}).status_code == 404
    # Their own night cannot take our game either.
    listing = other.get("/nights/")
    assert "Private" not in listing.text and "0 nights" in text_of(listing.text)
    with app.app_context():
        other_id = db.session.scalar(sa.select(Account.id).where(Account.username == "other-table"))
    theirs = with_account(app, other_id, lambda a: nights.create_night(a).id)
    assert other.post(f"/nights/{theirs}/games", data={"game_id": loose}).status_code == 404
    with app.app_context():
        assert db.session.get(Night, night_id).name == "Private"
        assert db.session.get(Game, loose).night_id is None


def test_history_pages_need_a_login(client):
    for url in ("/nights/", "/nights/new", "/nights/1", "/history/games/1", "/games/1/sheet.csv"):
        response = client.get(url)
        assert response.status_code == 302 and "/login" in response.headers["Location"], url


# A fixed number of queries, whatever the history's size -----------------------------------


def test_history_and_night_pages_make_the_same_queries_for_any_history_size(app):
    counts = []
    for name, size in (("small-club", (11, 1)), ("big-club", (24, 3))):
        acct = make_account(app, name)
        made = build_history(app, acct.id, seed=9, nights_count=size[0], per_night=size[1])
        client = app.test_client()
        assert login(client, name).status_code == 302
        night, game = made["nights"][-1], made["games"][-4]
        with app.app_context():
            played = db.session.get(Game, game)
            kind, player = played.kind, played.seats[0].player.name
        urls = [
            "/nights/",
            "/nights/?page=2",
            f"/nights/?player={player}",
            f"/nights/?game={kind}&player={player}",
            f"/nights/{night}",
            f"/history/games/{game}",
            "/",
        ]
        found = []
        for url in urls:
            client.get(url)
            with counting(app) as seen:
                response = client.get(url)
            assert response.status_code == 200, url
            assert "history/games/" in response.text or url in urls[-2:], url
            found.append(len(seen))
        counts.append(found)
    assert counts[0] == counts[1]
    assert max(counts[0]) <= 9, counts[0]


def test_a_page_of_nights_seeks_its_nights_games_and_puts_them_in_play_order(app):
    """The games of a page of nights are read by their nights (the index of the account's
    nights), not from the account's every game by creation time, which grew with the
    history (bench/nights.py, 5-game nights: 4.4 ms at 10,000 games against 1.0 at 1,000);
    the order they are listed in is still the order they were played."""
    acct = make_account(app, "seek-club")
    made = build_history(app, acct.id, seed=9, nights_count=4, per_night=3)
    with app.app_context():
        in_night = db.session.scalars(
            sa.select(Game).where(Game.id.in_(made["games"]), Game.night_id.is_not(None))
        ).first()
        name = in_night.seats[0].player.name
        sqlite = db.engine.dialect.name == "sqlite"
    for filters in ({}, {"player": name}):
        with counting(app, parameters=True) as seen, app.app_context():
            account = db.session.get(Account, acct.id)
            answers, _total = nights.list_night_answers(account, **filters)
            rows, _total = nights.list_nights(account, **filters)
            night_ids = [night.id for night in answers]
            played = {
                night_id: [
                    game.id
                    for game in db.session.scalars(
                        sa.select(Game)
                        .where(Game.night_id == night_id)
                        .order_by(Game.created_at, Game.id)
                    )
                ]
                for night_id in night_ids
            }
        assert answers and [row.night.id for row in rows] == night_ids
        for answer, row in zip(answers, rows, strict=True):
            listed = [game.id for game in answer.games]
            assert listed == [game for game in played[answer.id] if game in listed]
            assert [line.id for line in row.games] == listed
        reads = [
            (sql, given)
            for sql, given in seen
            if sql.lstrip().startswith("SELECT game.id") and "night_id IN" in sql
        ]
        assert reads, filters
        if sqlite:
            for sql, given in reads:
                plan = " ".join(query_plan(app, sql, given))
                assert "ix_game_account_created" not in plan, plan
                assert "ix_game_account_night" in plan or "ix_game_night_id" in plan, plan


def test_the_history_page_of_a_gin_game_loads_the_gin_stylesheet(app, logged_in, api):
    state = api.post("/games", {"game": "oklahoma_gin", "players": ["Ann", "Ben"]}).get_json()
    page = logged_in.get(f"/history/games/{state['id']}").text
    own = SHRINK["text/css"]((GAMES["oklahoma_gin"].static_folder / "game.css").read_text())
    assert pack(logged_in, page, "css").count(own) == 1
    assert "/static/css/history.css" in page
