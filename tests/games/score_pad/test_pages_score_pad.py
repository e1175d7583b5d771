"""The score pad on the pages (Flask test client): any game by name, one number per player,
negative and blank, highest or lowest, open-ended (End the game) / target / rounds, the
dealer reminder, refusals beside their fields, corrections and undo, history grouped by the
game's name, statistics and CSV."""

from __future__ import annotations

import csv
import io
import re

from tests.pages import error_beside
from tests.pages import game_id
from tests.pages import html_text
from tests.pages import roster_ids
from tests.pages import start_game
from tests.pages import text
from tests.pages import totals
from tests.pages import value_of

SEATS = {"Ann": 1, "Ben": 2, "Cy": 3}


def start(client, app, seats=None, night=None, **options):
    """The new-game form (the score pad's ``dealer`` option is sent by hand: ``start_game``
    takes ``dealer`` for the first dealer)."""
    show_dealer = options.pop("show_dealer", False)
    if not show_dealer and not night:
        return start_game(client, app, "score_pad", seats or SEATS, **options)
    ids = roster_ids(app)
    data = {"game": "score_pad"}
    for name, seat in (seats or SEATS).items():
        data[f"seat-{ids[name]}"] = str(seat)
    if show_dealer:
        data["opt-dealer"] = "y"
    data.update({f"opt-{key}": str(value) for key, value in options.items()})
    where = "/games/new?game=score_pad" + (f"&night={night}" if night else "")
    return client.post(where, data=data)


def new_game(client, app, seats=None, name="Catan", **options) -> int:
    return game_id(start(client, app, seats, name=name, **options))


def round_(client, game: int, number: int | None, points, path=None):
    data = {"phase": "points"}
    for seat, value in enumerate(points):
        data[f"point-{seat}"] = str(value)
    if number is not None:
        data["number"] = str(number)
    return client.post(path or f"/games/{game}/hands", data=data)


def end_game(client, game: int):
    return client.post(f"/games/{game}/close")


def test_the_new_game_form_asks_for_the_game_s_name(table, app):
    page = table.get("/games/new?game=score_pad")
    assert page.status_code == 200
    for field in ("opt-name", "opt-winner", "opt-end", "opt-target", "opt-rounds", "opt-dealer"):
        assert f'name="{field}"' in page.text
    refused = start_game(table, app, "score_pad", SEATS, winner="lowest")
    assert refused.status_code == 422
    assert "Enter the game name (1 to 60 characters)." in html_text(refused.text)
    assert re.search(r'value="lowest"[^>]*selected', refused.text)
    no_target = start_game(table, app, "score_pad", SEATS, name="Darts", end="target")
    assert no_target.status_code == 422
    assert "Enter the target: this game ends when a total reaches it." in html_text(no_target.text)
    assert 'value="Darts"' in no_target.text


def test_one_player_is_enough(table, app):
    game = new_game(table, app, {"Ann": 1}, name="Solitaire")
    round_(table, game, 1, [42])
    assert totals(table.get(f"/games/{game}").text) == {"Ann": "42"}


def test_rounds_with_negative_and_blank_points(table, app):
    game = new_game(table, app)
    page = table.get(f"/games/{game}")
    assert 'Catan <span class="sub">round 1</span>' in page.text
    assert "No points yet · a blank counts 0" in page.text
    assert "Save round 1" in page.text
    assert round_(table, game, 1, [5, -3, ""]).status_code == 302
    assert round_(table, game, 2, ["−2", 4, 7]).status_code == 302
    page = table.get(f"/games/{game}")
    assert totals(page.text) == {"Cy": "7", "Ann": "3", "Ben": "1"}
    assert "round 3</span>" in page.text
    # The sheet: the round's points and the running total.
    row = text(re.search(r'data-round="1"[^>]*>(.*?)</tr>', page.text, re.S).group(1))
    assert row.split() == ["1", "edit", "5", "5", "−3", "−3", "0", "0"]


def test_refusals_are_shown_beside_their_field_keeping_what_was_typed(table, app):
    game = new_game(table, app)
    refused = round_(table, game, 1, ["7", "x1", "2.5"])
    assert refused.status_code == 400
    assert error_beside(refused.text, "Ben") == "Ben's points must be a whole number."
    assert error_beside(refused.text, "Cy") == "Cy's points must be a whole number."
    assert [value_of(refused.text, seat) for seat in range(3)] == ["7", "x1", "2.5"]
    empty = round_(table, game, 1, ["", "", ""])
    assert empty.status_code == 422
    assert "Round 1: Enter the points of at least one player for this round." in html_text(
        empty.text
    )
    assert 'class="status bad"' in empty.text
    assert "No rounds yet." in table.get(f"/games/{game}").text


def test_an_open_game_ends_when_the_table_says_so(table, app):
    game = new_game(table, app)
    page = table.get(f"/games/{game}")
    assert "End the game" not in page.text  # nothing to end before a round
    round_(table, game, 1, [10, 20, 5])
    round_(table, game, 2, [10, 0, 5])
    page = table.get(f"/games/{game}")
    assert "End the game" in page.text and "until you end it" in page.text
    assert end_game(table, game).status_code == 302
    page = table.get(f"/games/{game}")
    assert "Catan: game over" in page.text
    assert "Ann and Ben share the win!" in page.text
    assert 'name="point-0"' not in page.text and "End the game" not in page.text
    assert "This game is finished and read-only." in page.text
    # Reopened, it is taken up again: a round corrected, another played, then ended again.
    table.post(f"/games/{game}/reopen")
    page = table.get(f"/games/{game}")
    assert "round 3" in page.text and "End the game" in page.text
    fixed = table.post(
        f"/games/{game}/hands/2",
        data={"phase": "both", "point-0": "11", "point-1": "0", "point-2": "5"},
    )
    assert fixed.status_code == 302
    assert round_(table, game, 3, [1, 1, 1]).status_code == 302
    end_game(table, game)
    page = table.get(f"/games/{game}")
    assert "Ann wins!" in page.text
    assert totals(page.text) == {"Ann": "22", "Ben": "21", "Cy": "11"}
    assert "This game is finished and read-only." in page.text


def test_lowest_wins_to_a_target(table, app):
    game = new_game(table, app, name="Golf", winner="lowest", end="target", target=20)
    page = table.get(f"/games/{game}")
    assert "game to 20" in page.text and "lowest wins" in page.text
    assert "End the game" not in page.text
    round_(table, game, 1, [4, 9, 6])
    round_(table, game, 2, [5, 12, 6])
    page = table.get(f"/games/{game}")
    assert "Golf: game over" in page.text and "Ann wins!" in page.text


def test_a_fixed_number_of_rounds_and_the_dealer(table, app):
    game = new_game(table, app, name="Yahtzee", end="rounds", rounds=2, show_dealer=True)
    page = table.get(f"/games/{game}")
    assert "round 1 of 2" in page.text
    assert "Ann deals" in page.text
    round_(table, game, 1, [100, 150, 120])
    assert "Ben deals" in table.get(f"/games/{game}").text
    round_(table, game, 2, [100, 150, 120])
    page = table.get(f"/games/{game}")
    assert "Ben wins!" in page.text


def test_no_dealer_is_shown_without_the_option(table, app):
    game = new_game(table, app)
    assert "deals" not in text(table.get(f"/games/{game}").text.split('id="entry"')[0])


def test_correct_a_round_and_undo_the_last(table, app):
    game = new_game(table, app)
    round_(table, game, 1, [5, 5, 5])
    round_(table, game, 2, [1, 2, 3])
    edit = table.get(f"/games/{game}/hands/1/edit")
    assert [value_of(edit.text, seat) for seat in range(3)] == ["5", "5", "5"]
    refused = table.post(
        f"/games/{game}/hands/1",
        data={"phase": "both", "point-0": "5", "point-1": "five", "point-2": "5"},
    )
    assert refused.status_code == 400 and "Correct round 1" in refused.text
    assert value_of(refused.text, 1) == "five"
    assert error_beside(refused.text, "Ben") == "Ben's points must be a whole number."
    table.post(
        f"/games/{game}/hands/1",
        data={"phase": "both", "point-0": "-5", "point-1": "5", "point-2": ""},
    )
    page = table.get(f"/games/{game}")
    assert totals(page.text) == {"Ben": "7", "Cy": "3", "Ann": "−4"}
    table.post(f"/games/{game}/hands/2/undo")
    page = table.get(f"/games/{game}")
    assert totals(page.text) == {"Ben": "5", "Cy": "0", "Ann": "−5"}


def finish(table, app, name, points) -> int:
    game = new_game(table, app, name=name)
    round_(table, game, 1, points)
    end_game(table, game)
    return game


def test_plays_of_one_game_are_grouped_by_name(table, app):
    finish(table, app, "Catan", [10, 8, 7])
    finish(table, app, "Catan ", [10, 8, 7])
    finish(table, app, "Catan", [6, 8, 7])
    finish(table, app, "Dominoes", [1, 2, 30])
    games = text(table.get("/games/").text)
    assert "Catan (score pad)" in games and "Dominoes (score pad)" in games
    night = table.post("/nights/tonight")
    night_id = int(re.search(r"/nights/(\d+)", night.headers["Location"]).group(1))
    tonight = game_id(start(table, app, night=night_id, name="Catan"))
    round_(table, tonight, 1, [1, 2, 3])
    history = text(table.get("/nights/").text)
    assert "Catan (score pad)" in history
    assert "Catan (score pad)" in text(table.get(f"/history/games/{tonight}").text)
    board = table.get("/stats/score_pad")
    # The filter: every named game, as links that work without a script.
    assert re.search(r'href="/stats/score_pad\?variant=Catan"', board.text)
    assert re.search(r'href="/stats/score_pad\?variant=Dominoes"', board.text)
    catan = table.get("/stats/score_pad?variant=Catan")
    assert "Catan: 3 plays, Ann won 2" in text(catan.text)
    rows = re.findall(
        r'<a href="/stats/players/\d+">([^<]+)</a>.*?<td>(\d+)</td>\s*<td>(\d+)</td>',
        catan.text,
        re.S,
    )
    assert rows[0] == ("Ann", "3", "2")
    dominoes = table.get("/stats/score_pad?variant=Dominoes")
    assert "Dominoes: 1 play, Cy won 1" in text(dominoes.text)
    # A player's statistics say the same, game by game, each to its leaderboard.
    ids = {name: int(i) for i, name in re.findall(r'/stats/players/(\d+)">([^<]+)<', board.text)}
    ann = table.get(f"/stats/players/{ids['Ann']}").text
    assert '<a href="/stats/score_pad?variant=Catan">Catan</a>: 3 games, 2 won' in ann
    assert '<a href="/stats/score_pad?variant=Dominoes">Dominoes</a>: 1 game, 0 won' in ann


def test_statistics_and_csv(table, app):
    game = new_game(table, app)
    round_(table, game, 1, [10, 20, 5])
    round_(table, game, 2, [10, 0, 5])
    end_game(table, game)
    board = table.get("/stats/score_pad")
    ids = {name: int(i) for i, name in re.findall(r'/stats/players/(\d+)">([^<]+)<', board.text)}
    ann = text(table.get(f"/stats/players/{ids['Ann']}").text)
    assert "Rounds won 1 of 2" in ann
    assert "Games won 1 of 1" in ann
    assert "Rounds per game 2 2.0 a game" in ann
    assert "Points per round 20 10.0 a round" in ann
    exported = table.get(f"/games/{game}/sheet.csv")
    assert exported.status_code == 200
    rows = list(csv.reader(io.StringIO(exported.text.lstrip("\ufeff"))))
    assert rows[0] == [
        "Round",
        "Dealer",
        "Round winners",
        "Ann points",
        "Ann total",
        "Ben points",
        "Ben total",
        "Cy points",
        "Cy total",
    ]
    assert rows[1] == ["1", "Ann", "Ben", "10", "10", "20", "20", "5", "5"]
    assert rows[2] == ["2", "Ben", "Ann", "10", "20", "0", "20", "5", "10"]
    assert rows[3] == ["Total", "", "", "", "20", "", "20", "", "10"]
