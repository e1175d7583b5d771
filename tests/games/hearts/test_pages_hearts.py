"""Hearts on the pages (Flask test client): set-up, hands, every refusal beside its field,
the moon both ways, the jack of diamonds, corrections and undo, the end, history, statistics
and CSV."""

from __future__ import annotations

import csv
import io
import re

import pytest

from tests.pages import error_beside
from tests.pages import game_id
from tests.pages import html_text
from tests.pages import start_game
from tests.pages import text
from tests.pages import totals
from tests.pages import value_of

SEATS = {"Ann": 1, "Ben": 2, "Cy": 3, "Dee": 4}
PLAYERS = list(SEATS)


def new_game(client, app, seats=None, **options) -> int:
    return game_id(start_game(client, app, "hearts", seats or SEATS, **options))


def hand(client, game: int, number: int | None, points, jack=None, path=None):
    """Post a hand as the page's form does: the points by seat as typed, the jack as a seat."""
    data = {"phase": "points"}
    for seat, value in enumerate(points):
        data[f"point-{seat}"] = str(value)
    if jack is not None:
        data["jack_of_diamonds"] = str(jack)
    if number is not None:
        data["number"] = str(number)
    return client.post(path or f"/games/{game}/hands", data=data)


def test_the_new_game_form_offers_hearts_with_its_options(table):
    choose = table.get("/games/new")
    assert "Hearts" in choose.text and "?game=hearts" in choose.text
    page = table.get("/games/new?game=hearts")
    assert page.status_code == 200
    for field in ("opt-target", "opt-moon", "opt-jack_of_diamonds", "opt-passing"):
        assert f'name="{field}"' in page.text
    assert "Everyone else scores 26" in page.text


def test_a_table_of_two_is_refused_keeping_the_choices(table, app):
    refused = start_game(table, app, "hearts", {"Ann": 1, "Ben": 2}, moon="minus")
    assert refused.status_code == 422
    assert "This game needs 3 to 6 players; 2 chosen." in refused.text
    assert re.search(r'value="minus"[^>]*selected', refused.text)


def test_the_page_shows_the_hand_passing_and_status_then_scores_it(table, app):
    game = new_game(table, app)
    page = table.get(f"/games/{game}")
    assert "Hand 1" in page.text
    assert "Pass three cards to the left" in page.text
    assert "No points yet · 26 to share" in page.text
    assert 'class="save-bar"' in page.text and "Save hand 1" in page.text
    saved = hand(table, game, 1, [13, 5, 8, 0])
    assert saved.status_code == 302
    page = table.get(f"/games/{game}")
    assert "Hand 2" in page.text and "Pass three cards to the right" in page.text
    assert totals(page.text) == {"Dee": "0", "Ben": "5", "Cy": "8", "Ann": "13"}
    hand(table, game, 2, [0, 0, 26 - 3, 3])
    assert "Pass three cards across" in table.get(f"/games/{game}").text
    hand(table, game, 3, [1, 1, 1, 23])
    page = table.get(f"/games/{game}")
    assert "No passing: keep your cards" in page.text
    # The sheet: each hand's passing direction beside its number.
    sheet = text(page.text.split('id="sheet-title"')[1])
    assert "1 left" in sheet and "2 right" in sheet and "3 across" in sheet


def test_three_players_pass_left_right_keep(table, app):
    game = new_game(table, app, {"Ann": 1, "Ben": 2, "Cy": 3})
    hand(table, game, 1, [13, 13, 0])
    hand(table, game, 2, [13, 13, 0])
    assert "No passing: keep your cards" in table.get(f"/games/{game}").text


def test_the_moon_is_scored_by_itself_plus(table, app):
    game = new_game(table, app)
    hand(table, game, 1, [26, 0, 0, 0])
    page = table.get(f"/games/{game}")
    assert totals(page.text) == {"Ann": "0", "Ben": "26", "Cy": "26", "Dee": "26"}
    assert "Ann shot the moon in hand 1: everyone else scores 26." in page.text
    assert "☾" in page.text.split('id="sheet-title"')[1]


def test_the_moon_is_scored_by_itself_minus(table, app):
    game = new_game(table, app, moon="minus")
    hand(table, game, 1, [0, 26, 0, 0])
    page = table.get(f"/games/{game}")
    assert totals(page.text) == {"Ben": "−26", "Ann": "0", "Cy": "0", "Dee": "0"}
    assert "Ben shot the moon in hand 1: Ben scores −26." in page.text


def test_the_jack_of_diamonds_takes_ten_off(table, app):
    game = new_game(table, app, jack_of_diamonds=True)
    page = table.get(f"/games/{game}")
    assert 'name="jack_of_diamonds"' in page.text
    hand(table, game, 1, [13, 5, 8, 0], jack=3)
    page = table.get(f"/games/{game}")
    assert totals(page.text)["Dee"] == "−10"
    assert "J♦" in page.text.split('id="sheet-title"')[1]


@pytest.mark.parametrize(
    ("points", "jack", "options", "where", "message"),
    [
        (
            [13, 5, 8, ""],
            None,
            {},
            "Dee",
            "Hand 1: Enter the points for Dee.",
        ),
        (
            [27, 0, 0, 0],
            None,
            {},
            "Ann",
            "Hand 1: Ann's points must be from 0 to 26.",
        ),
        (
            ["abc", 5, 8, 13],
            None,
            {},
            "Ann",
            "Ann's points must be a whole number.",
        ),
    ],
    ids=["missing_points", "points_out_of_range", "wrong_type"],
)
def test_a_refused_point_is_shown_beside_its_field_keeping_what_was_typed(
    table, app, points, jack, options, where, message
):
    game = new_game(table, app, **options)
    refused = hand(table, game, 1, points, jack)
    assert refused.status_code in (400, 422)
    assert error_beside(refused.text, where) == message
    for seat, value in enumerate(points):
        assert value_of(refused.text, seat) == str(value)
    assert "Hand 1" in table.get(f"/games/{game}").text  # nothing was saved
    assert "No hands yet." in table.get(f"/games/{game}").text


def test_points_that_do_not_add_up_are_refused_at_the_top(table, app):
    game = new_game(table, app)
    refused = hand(table, game, 1, [13, 5, 8, 1])
    assert refused.status_code == 422
    assert "The points add up to 27, but every hand holds 26" in refused.text
    assert 'class="status bad"' in refused.text
    assert "Points so far 27 of 26" in refused.text
    assert [value_of(refused.text, seat) for seat in range(4)] == ["13", "5", "8", "1"]
    nobody_queen = hand(table, game, 1, [7, 7, 6, 6])
    assert "Whoever took the queen of spades has at least 13 points" in nobody_queen.text


def test_a_jack_named_with_the_option_off_is_refused(table, app):
    game = new_game(table, app)
    refused = hand(table, game, 1, [13, 5, 8, 0], jack=2)
    assert refused.status_code == 422
    assert "The jack of diamonds scores nothing in this game" in refused.text
    assert [value_of(refused.text, seat) for seat in range(4)] == ["13", "5", "8", "0"]
    assert "No hands yet." in refused.text


def test_a_jack_that_is_no_seat_is_refused_beside_the_field(table, app):
    game = new_game(table, app, jack_of_diamonds=True)
    refused = hand(table, game, 1, [13, 5, 8, 0], jack=9)
    assert refused.status_code == 422
    field = refused.text.split('class="field jack-field')[1].split("</div>")[0]
    assert "Choose who took the jack of diamonds." in field
    assert value_of(refused.text, 0) == "13"


def test_a_double_tap_records_the_hand_once(table, app):
    game = new_game(table, app)
    assert hand(table, game, 1, [13, 5, 8, 0]).status_code == 302
    again = hand(table, game, 1, [13, 5, 8, 0])
    assert again.status_code == 302
    page = table.get(f"/games/{game}")
    assert "Hand 1 is already recorded" in page.text
    assert totals(page.text)["Ann"] == "13"


def test_correct_an_earlier_hand_and_undo_the_last(table, app):
    game = new_game(table, app)
    hand(table, game, 1, [13, 5, 8, 0])
    hand(table, game, 2, [0, 13, 13, 0])
    edit = table.get(f"/games/{game}/hands/1/edit")
    assert edit.status_code == 200
    assert [value_of(edit.text, seat) for seat in range(4)] == ["13", "5", "8", "0"]
    # A correction that does not add up comes back on the correction page, as typed.
    refused = table.post(
        f"/games/{game}/hands/1",
        data={"phase": "both", "point-0": "13", "point-1": "5", "point-2": "8", "point-3": "9"},
    )
    assert refused.status_code == 422 and "Correct hand 1" in refused.text
    assert value_of(refused.text, 3) == "9"
    fixed = table.post(
        f"/games/{game}/hands/1",
        data={"phase": "both", "point-0": "0", "point-1": "5", "point-2": "8", "point-3": "13"},
    )
    assert fixed.status_code == 302
    page = table.get(f"/games/{game}")
    assert totals(page.text) == {"Ann": "0", "Dee": "13", "Ben": "18", "Cy": "21"}
    undone = table.post(f"/games/{game}/hands/2/undo")
    assert undone.status_code == 302
    page = table.get(f"/games/{game}")
    assert "Hand 2" in page.text and totals(page.text)["Ben"] == "5"


def play_to_the_end(table, app) -> int:
    game = new_game(table, app, target=50)
    hand(table, game, 1, [13, 5, 8, 0])
    hand(table, game, 2, [26, 0, 0, 0])  # Ann shoots the moon: 26 to everyone else
    hand(table, game, 3, [0, 13, 13, 0])
    return game


def test_the_game_ends_at_the_target_and_the_lowest_total_wins(table, app):
    game = play_to_the_end(table, app)
    page = table.get(f"/games/{game}")
    # Ann 13, Ben 5+26+13 = 44, Cy 8+26+13 = 47, Dee 26; nobody at 50 yet.
    assert "Hand 4" in page.text
    hand(table, game, 4, [0, 13, 13, 0])
    page = table.get(f"/games/{game}")
    assert "Game over" in page.text
    assert "Ann wins with the lowest total!" in page.text
    assert 'name="point-0"' not in page.text
    assert "This game is finished and read-only." in page.text
    refused = hand(table, game, 5, [13, 13, 0, 0])
    assert refused.status_code == 422
    assert "This game is over. Reopen it first to correct a hand." in html_text(refused.text)


def test_history_statistics_and_csv(table, app):
    game = play_to_the_end(table, app)
    hand(table, game, 4, [0, 13, 13, 0])
    history = table.get("/nights/")
    assert "Hearts" in history.text
    sheet = table.get(f"/history/games/{game}")
    assert sheet.status_code == 200 and "Ann" in sheet.text
    board = table.get("/stats/hearts")
    assert board.status_code == 200 and "Ann" in board.text
    ids = {name: int(i) for i, name in re.findall(r'/stats/players/(\d+)">([^<]+)<', board.text)}
    ann = text(table.get(f"/stats/players/{ids['Ann']}").text)
    assert "Moons shot 1 of 4" in ann
    assert "Hands without a point 2 of 4" in ann
    # Ann took 13 + 26 points in 4 hands; she scored 13 (the moon gave her 0).
    assert "Points taken per hand 39 9.8 a hand" in ann
    assert "Points per hand 13 3.2 a hand" in ann
    exported = table.get(f"/games/{game}/sheet.csv")
    assert exported.status_code == 200 and exported.mimetype == "text/csv"
    rows = list(csv.reader(io.StringIO(exported.text)))
    header = rows[0]
    assert "Passing" in header and "Moon" in header and "Ann taken" in header
    second = dict(zip(header, rows[2], strict=False))
    assert (second["Passing"], second["Moon"], second["Ann taken"]) == ("Pass right", "Ann", "26")


@pytest.mark.parametrize(
    ("hands", "said"),
    [(0, "pass three cards left"), (3, "no passing, keep your cards")],
    ids=["left", "no passing"],
)
def test_the_shared_view_says_the_passing_once(table, app, hands, said):
    game = new_game(table, app)
    for number in range(1, hands + 1):
        hand(table, game, number, [13, 13, 0, 0])
    table.post(f"/games/{game}/share")
    link = re.search(r"/view/[\w-]+", table.get(f"/games/{game}/share").text).group(0)
    view = text(table.get(link).text).lower()
    assert said in view
    assert view.count("passing") + view.count("pass three") == 1, view
