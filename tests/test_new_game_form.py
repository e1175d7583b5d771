"""The new-game page without its script (issue 27, items 15 and 17): the seats it counts and
numbers, the refusal of one player more than the game has seats (in the words the page gives
its script), the options folded under the line that says them, and the options of the
account's last game of that kind filled in."""

from __future__ import annotations

import json
import re

from markupsafe import Markup

from tests.conftest import login
from tests.conftest import make_account
from tests.pages import game_id
from tests.pages import html_text
from tests.pages import roster_ids
from tests.pages import start_game


def seat_words(page: str) -> dict:
    found = re.search(r'data-seat-words="([^"]*)"', page)
    assert found, "the form carries no seat words"
    return json.loads(Markup(found.group(1)).unescape())


def options_card(page: str) -> str:
    found = re.search(r'<details class="card options-card" id="options"[^>]*>', page)
    assert found, "no folded options"
    return found.group(0)


def summary(page: str) -> str:
    found = re.search(r"data-options-summary>([^<]*)<", page)
    assert found
    return html_text(found.group(1))


def field_value(page: str, key: str) -> str:
    found = re.search(rf'name="opt-{key}"[^>]*value="([^"]*)"', page)
    assert found, key
    return found.group(1)


def selected(page: str, key: str) -> str:
    select = re.search(rf'<select id="opt-{key}".*?</select>', page, re.S).group(0)
    return re.search(r'<option value="([^"]*)" selected', select).group(1)


def test_one_player_more_than_the_seats_is_refused_as_the_page_refuses_a_tap(table, app):
    ids = roster_ids(app)
    data = {"game": "oklahoma_gin", f"seat-{ids['Ann']}": "1", f"seat-{ids['Ben']}": "2"}
    data[f"seat-{ids['Cy']}"] = "1"
    answer = table.post("/games/new?game=oklahoma_gin", data=data)
    assert answer.status_code == 422
    said = "All 2 seats are taken: Oklahoma Gin is played by 2 players. Free a seat first."
    assert said in html_text(answer.text)
    assert seat_words(answer.text)["full"] == said
    assert "are both in seat" not in answer.text  # the reason, not its consequence
    # Seven for a game of 3 to 6: the roster's four and three new players.
    data = {"game": "wizard", "new-name-1": "Eve", "new-name-2": "Fay", "new-name-3": "Gus"}
    for seat, name in enumerate(["Ann", "Ben", "Cy", "Dee"], start=1):
        data[f"seat-{ids[name]}"] = str(seat)
    data |= {"new-seat-1": "5", "new-seat-2": "6", "new-seat-3": "6"}
    answer = table.post("/games/new?game=wizard", data=data)
    said = "All 6 seats are taken: Wizard is played by 3 to 6 players. Free a seat first."
    assert answer.status_code == 422
    assert said in html_text(answer.text)
    assert seat_words(answer.text)["full"] == said
    assert 'value="Gus"' in answer.text  # what was typed stays


def test_the_page_counts_the_seated_and_numbers_each_seat(table, app):
    page = table.get("/games/new?game=wizard").text
    words = seat_words(page)
    assert words["seated"] == [f"{count} of 3–6 seated" for count in range(7)]
    assert '<p class="seat-count" data-seat-count aria-live="polite">0 of 3–6 seated</p>' in page
    ids = roster_ids(app)
    data = {"game": "wizard", f"seat-{ids['Ann']}": "2", f"seat-{ids['Cy']}": "1"}
    refused = table.post("/games/new?game=wizard", data=data).text  # 2 players: too few
    assert "This game needs 3 to 6 players; 2 chosen." in html_text(refused)
    assert "2 of 3–6 seated</p>" in refused
    badges = dict(
        re.findall(r'data-seat-no>([^<]*)</span><span class="name">([^<]+)</span>', refused)
    )
    assert badges == {"2": "Ann", "1": "Cy"}
    assert refused.count("data-seat-no hidden") == 5  # Ben, Dee and the three new rows
    # A game of one table size says so.
    assert seat_words(table.get("/games/new?game=spades").text)["seated"][4] == "4 of 4 seated"


def test_the_deals_first_radios_sit_in_a_thumb_sized_label(table):
    page = table.get("/games/new?game=oh_hell").text
    radios = re.findall(
        r'<td><label class="radio-tap"><input type="radio" name="first_dealer"', page
    )
    assert len(radios) == 4 + 3  # the roster and the new-player rows


def test_the_options_are_folded_under_the_line_that_says_them(table, app):
    page = table.get("/games/new?game=oh_hell").text
    assert " open" not in options_card(page)
    assert summary(page) == "Standard"
    assert page.index('id="options"') < page.index('class="start-bar"')
    assert re.search(r'<div class="start-bar">.*Start the game</button>', page, re.S)
    # A value refused: the options open at it.
    ids = roster_ids(app)
    data = {"game": "oh_hell", "opt-made_bonus": "x", "opt-hook": "y"}
    data |= {f"seat-{ids[name]}": str(seat) for seat, name in enumerate(["Ann", "Ben", "Cy"], 1)}
    refused = table.post("/games/new?game=oh_hell", data=data).text
    assert " open" in options_card(refused)
    assert "Exact-bid bonus must be a whole number." in refused
    assert summary(refused) == "Standard · Hook"
    # A name the score pad must be given: open until it is.
    assert " open" in options_card(table.get("/games/new?game=score_pad").text)


def test_the_line_names_the_preset_and_every_option_changed(table):
    answer = table.get(
        "/games/new/example?game=oh_hell&opt-made_bonus=20&opt-trick_value=10&opt-miss_penalty=10"
        "&opt-miss_scoring=zero&opt-sequence=down&opt-max_cards=5&opt-simultaneous=y"
    ).get_json()
    assert answer["summary"] == (
        "Wizard scoring · Cards per hand: Down: the most, then one fewer each hand to 1 · "
        "Most cards in a hand: 5 · Simultaneous bidding"
    )
    # An option on by default, switched off; a choice among numbers.
    answer = table.get("/games/new/example?game=pitch&opt-target=11").get_json()
    assert answer["summary"] == "Points to win: 11 points · The dealer may steal: off"
    table.post("/language", data={"code": "bn", "next": "/"})
    answer = table.get("/games/new/example?game=oh_hell&opt-max_cards=12").get_json()
    assert "১২" in answer["summary"] and not re.search("[0-9]", answer["summary"])


def test_the_last_options_of_that_game_are_filled_in(table, app):
    four = {"Ann": 1, "Ben": 2, "Cy": 3, "Dee": 4}
    fresh = table.get("/games/new?game=oh_hell").text
    assert "As in your last game" not in fresh
    game_id(start_game(table, app, "oh_hell", four, hook=True, sequence="down", max_cards=5))
    page = table.get("/games/new?game=oh_hell").text
    assert "As in your last game of Oh Hell." in page
    assert re.search(r'name="opt-hook" value="y"\s+checked', page)
    assert selected(page, "sequence") == "down"
    assert field_value(page, "max_cards") == "5"
    assert field_value(page, "made_bonus") == "10"  # the rest at their defaults
    assert summary(page) == (
        "Standard · Cards per hand: Down: the most, then one fewer each hand to 1 · "
        "Most cards in a hand: 5 · Hook"
    )
    assert " open" not in options_card(page)
    # Another game, another account: their own.
    assert "As in your last game" not in table.get("/games/new?game=wizard").text
    make_account(app, "other-club")
    other = app.test_client()
    login(other, "other-club")
    assert "As in your last game" not in other.get("/games/new?game=oh_hell").text
    # A default that follows the table (13 cards for four) is not carried to the next table.
    game_id(start_game(table, app, "oh_hell", four, hook=True))
    page = table.get("/games/new?game=oh_hell").text
    assert field_value(page, "max_cards") == ""
    assert selected(page, "sequence") == "up"
    assert summary(page) == "Standard · Hook"
    # A rule set asked for wins over the last game.
    saved = table.post(
        "/games/new?game=oh_hell",
        data={"game": "oh_hell", "opt-miss_penalty": "5", "save_rule_set": "1"}
        | {"rule_set_name": "Friday rules"},
    )
    assert saved.status_code == 200
    set_id = re.search(r'name="rule_set" value="(\d+)"', saved.text).group(1)
    page = table.get(f"/games/new?game=oh_hell&rule_set={set_id}").text
    assert field_value(page, "miss_penalty") == "5" and "As in your last game" not in page


def test_a_preset_filled_in_without_the_script_leaves_the_table_size_defaults_blank(table, app):
    page = table.post("/games/new?game=oh_hell", data={"game": "oh_hell", "preset": "penalty"})
    assert page.status_code == 200
    assert field_value(page.text, "miss_penalty") == "5"
    assert field_value(page.text, "max_cards") == ""  # 15 is three players' most, not four's
    ids = roster_ids(app)
    data = {"game": "oh_hell", "opt-miss_penalty": "5", "opt-made_bonus": "10"}
    data |= {"opt-trick_value": "1", "opt-max_cards": field_value(page.text, "max_cards")}
    data |= {
        f"seat-{ids[name]}": str(seat) for seat, name in enumerate(["Ann", "Ben", "Cy", "Dee"], 1)
    }
    game_id(table.post("/games/new?game=oh_hell", data=data))
