"""At phone size in Chromium: start tonight's game night from home, play a quick Oh Hell game,
put it in the night, find the night in history and open the game's score chart."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from scorekeeper.extensions import db
from scorekeeper.models import Account
from scorekeeper.services import games
from scorekeeper.services import nights
from tests.browser import PHONE
from tests.browser import add_players
from tests.browser import in_view
from tests.browser import log_in
from tests.browser import open_options
from tests.browser import screenshot
from tests.browser import seat_players
from tests.browser import sign_up
from tests.conftest import make_account

PLAYERS = ["Ann", "Ben", "Cy"]


def tap(page, form: str, player: str, value: int):
    row = page.locator(f'form[{form}] li.row[data-player="{player}"]')
    row.locator("label.chip span").get_by_text(str(value), exact=True).click()


def play_hand(page, bids: dict[str, int], tricks: dict[str, int]):
    for name, value in bids.items():
        tap(page, "data-bids-form", name, value)
    page.get_by_role("button", name="Save bids").click()
    for name, value in tricks.items():
        tap(page, "data-tricks-form", name, value)
    page.get_by_role("button", name="Save tricks").click()


def test_a_night_its_game_and_the_chart_on_a_phone(phone):
    sign_up(phone)
    add_players(phone, *PLAYERS)

    # One tap from home starts tonight's night.
    phone.goto("/")
    phone.get_by_role("button", name="Start tonight's game night").click()
    expect(phone.get_by_text("Tonight's game night started.")).to_be_visible()
    night_url = phone.url
    assert re.search(r"/nights/\d+$", night_url)
    expect(phone.get_by_role("link", name="Oh Hell")).to_have_attribute(
        "href", re.compile(r"/games/new\?game=oh_hell&night=\d+")
    )

    # A quick Oh Hell game: 2 cards, then 1.
    phone.goto("/games/new?game=oh_hell")
    seat_players(phone, PLAYERS)
    open_options(phone)
    phone.get_by_label("Cards per hand").select_option("down")
    phone.get_by_label("Most cards in a hand").fill("2")
    phone.get_by_role("button", name="Start the game").click()
    expect(phone.get_by_text("Hand 1 of 2")).to_be_visible()
    play_hand(phone, {"Ben": 1, "Cy": 0, "Ann": 1}, {"Ben": 1, "Cy": 0, "Ann": 1})
    play_hand(phone, {"Cy": 0, "Ann": 1, "Ben": 0}, {"Cy": 0, "Ann": 1, "Ben": 0})
    expect(phone.locator(".winner")).to_have_text("Ann wins!")

    # Back at the night: the game, started on its own, joins it.
    phone.goto(night_url)
    phone.get_by_role("button", name=re.compile("Add Oh Hell .* to this night")).click()
    expect(phone.get_by_text("Oh Hell added to this night.")).to_be_visible()

    # Later: find the night in history, then the game and its chart.
    phone.get_by_role("navigation", name="Main").get_by_role("link", name="History").click()
    expect(phone.get_by_role("heading", name="Game nights")).to_be_visible()
    night_card = phone.locator(".night-card").first
    expect(night_card).to_contain_text("1 game")
    night_card.get_by_role("heading").get_by_role("link").click()
    game = phone.locator(".night-game").first
    expect(game).to_contain_text("won by Ann")
    expect(game.locator(".mini-standings li")).to_have_text(
        [re.compile(r"Ann\s*22"), re.compile(r"Ben\s*21"), re.compile(r"Cy\s*20")]
    )
    game.click()

    chart = phone.get_by_role("img", name="Score progression")
    expect(chart).to_be_visible()
    box = chart.bounding_box()
    assert box["width"] <= PHONE["width"] and box["width"] > PHONE["width"] * 0.7
    expect(phone.locator(".chart-svg polyline")).to_have_count(3)
    expect(phone.locator(".legend li")).to_have_text(
        [re.compile(r"Ann\s*22"), re.compile(r"Ben\s*21"), re.compile(r"Cy\s*20")]
    )
    phone.get_by_text("The chart as a table").click()
    rows = phone.locator(".chart-table tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(1)).to_have_text(re.compile(r"2\s*22\s*21\s*20"))
    # Nothing on the page is wider than the phone.
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], width


def tonight_of_twelve_games(app) -> None:
    """Tonight's night with 12 games, started one after the other: 9 Oklahoma Gin games
    finished (a gin to 50), then 3 Oh Hell games still played."""
    with app.app_context():
        account = db.session.scalar(db.select(Account))
        night = nights.create_night(account, name="Friday")
        for number in range(12):
            kind = "oklahoma_gin" if number < 9 else "oh_hell"
            names = ["Ann", "Ben"] if number < 9 else ["Ann", "Ben", "Cy"]
            options = {"target": 50} if number < 9 else {}
            game = games.create_game(account, kind, names, options, night_id=night.id).game
            if number < 9:
                win = {"upcard": "9", "result": "gin", "knocker": "Ann", "opponent_deadwood": 30}
                games.record_hand(game, win)


def test_home_puts_tonight_s_games_in_progress_first_and_folds_the_finished(phone, make_app):
    app = make_app()
    make_account(app)
    tonight_of_twelve_games(app)
    log_in(phone)
    phone.goto("/")
    tonight = phone.locator("section.tonight")
    expect(tonight.locator("> .game-list .game-link")).to_have_count(3)
    expect(tonight.locator("> .game-list .game-link").first).to_contain_text("Oh Hell")
    folded = tonight.locator("details.finished-tonight")
    expect(folded.locator("summary")).to_have_text("Finished 9")
    expect(folded.locator(".game-link").first).to_be_hidden()
    # Both lists of the games still played are on the first screen.
    assert in_view(phone, phone.get_by_role("heading", name="Games in progress"))
    assert in_view(phone, tonight.locator("> .game-list .game-link").last)
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot(phone, "home-twelve-games")
    folded.locator("summary").click()
    expect(folded.locator(".game-link")).to_have_count(9)
    expect(folded.locator(".game-link").first).to_contain_text("Won by Ann")


def test_the_leaderboard_s_names_are_thumb_sized_links(phone, make_app):
    app = make_app()
    make_account(app)
    with app.app_context():
        account = db.session.scalar(db.select(Account))
        for pair in (["Al", "Bo"], ["Al", "Bo"]):
            game = games.create_game(account, "oklahoma_gin", pair, {"target": 50}).game
            games.record_hand(
                game, {"upcard": "9", "result": "gin", "knocker": "Al", "opponent_deadwood": 30}
            )
    log_in(phone)
    phone.goto("/stats/oklahoma_gin")
    links = phone.locator(".board th[scope=row] a")
    expect(links).to_have_count(2)
    for link in links.all():
        box = link.bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44, box
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot(phone, "leaderboard")
