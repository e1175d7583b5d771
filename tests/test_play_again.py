"""Play again (issue 20): a finished game's table once more, in one tap or through the
new-game page filled in (to change the seats first), for every game: the same players in the
same seats, the same options as stored, the same night, the first dealer one seat to the left
(from the last seat round to the first). Pages through the Flask test client; the games are
played to their end through the API of the same account."""

from __future__ import annotations

import re

import pytest

from scorekeeper.extensions import db
from scorekeeper.models import Game
from tests.games.oh_hell.test_api_oh_hell import play_hand
from tests.pages import html_text
from tests.pages import roster_ids
from tests.pages import text

FOUR = ["Ann", "Ben", "Cy", "Dee"]


def new_game(api, kind, players=FOUR, first_dealer=None, night=None, **options) -> dict:
    body = {"game": kind, "players": players, "options": options}
    if first_dealer:
        body["first_dealer"] = first_dealer
    if night:
        body["night_id"] = night
    response = api.post("/games", body)
    assert response.status_code == 201, response.text
    return response.get_json()


def finished_oh_hell(api, first_dealer="Dee", night=None) -> dict:
    """Two hands (2 cards, then 1) of Oh Hell with the hook, to the end."""
    state = new_game(
        api, "oh_hell", first_dealer=first_dealer, night=night, hook=True, sequence="down",
        max_cards=2,
    )  # fmt: skip
    while state["next"]:
        state = play_hand(api, state)
    assert state["status"] == "finished"
    return state


def finished_pitch(api, night=None) -> dict:
    """Pitch in partnerships, Ben dealing first, to 11: Ann & Cy take every point."""
    state = new_game(api, "pitch", first_dealer="Ben", night=night, partnerships=True, target=11)
    while state["next"]:
        order = state["next"]["order"]
        body = {
            "number": state["next"]["number"],
            "auction": [[name, 4 if name == "Cy" else "pass"] for name in order],
            "high": "Cy",
            "low": "Cy",
            "jack": "Ann",
            "game": "Ann",
        }
        response = api.post(f"/games/{state['id']}/hands", body)
        assert response.status_code == 201, response.text
        state = response.get_json()
    assert state["status"] == "finished"
    return state


def finished_score_pad(api, night=None) -> dict:
    """A score pad of Catan that shows the dealer, three rounds, ended by the table."""
    players = ["Ann", "Ben", "Cy"]
    state = new_game(
        api, "score_pad", players, "Cy", night, name="Catan", winner="lowest", dealer=True
    )
    for points in ({"Ann": 3, "Ben": 5}, {"Cy": 2}):
        body = {"number": state["next"]["number"], "points": points}
        state = api.post(f"/games/{state['id']}/hands", body).get_json()
    state = api.post(f"/games/{state['id']}/close").get_json()
    assert (state["status"], state["locked"]) == ("finished", True)
    return state


def first_dealer(api, game: int) -> str:
    return api.get(f"/games/{game}").get_json()["next"]["dealer"]


def game_count(app) -> int:
    with app.app_context():
        return db.session.scalar(db.select(db.func.count()).select_from(Game))


def again(client, game: int):
    return client.post(f"/games/{game}/again")


def new_id(response) -> int:
    assert response.status_code == 302, response.text
    return int(re.search(r"/games/(\d+)#now$", response.headers["Location"]).group(1))


def flashes(client, response) -> str:
    return text(client.get(response.headers["Location"]).text)


FINISHED = {
    "oh_hell": (finished_oh_hell, "Ann"),  # Dee dealt first: round from the last seat
    "pitch": (finished_pitch, "Cy"),
    "score_pad": (finished_score_pad, "Ann"),  # Cy (the last of three) dealt first
}


@pytest.mark.parametrize("kind", FINISHED)
def test_play_again_makes_the_same_table_with_the_next_dealer_in_the_same_night(
    app, api, table, kind
):
    finish, next_dealer = FINISHED[kind]
    night = api.post("/nights", {"name": "Friday"}).get_json()["id"]
    old = finish(api, night=night)
    page = table.get(f"/games/{old['id']}")
    assert page.status_code == 200
    assert f'action="/games/{old["id"]}/again"' in page.text
    assert f"The same seats and options; {next_dealer} deals first." in text(page.text)

    response = again(table, old["id"])
    made = new_id(response)
    assert made != old["id"]
    assert f"{next_dealer} deals first." in flashes(table, response)
    state = api.get(f"/games/{made}").get_json()
    assert state["game"] == old["game"]
    assert state["players"] == old["players"]
    assert state["options"] == old["options"]
    assert state["teams"] == old["teams"]
    assert state["night_id"] == night
    assert (state["status"], state["hands"]) == ("in_progress", [])
    assert first_dealer(api, made) == next_dealer
    # The new game's own page is the first hand's entry.
    assert 'id="entry"' in table.get(f"/games/{made}").text


def test_again_and_again_the_deal_goes_round_the_table(app, api, table):
    game = finished_oh_hell(api, first_dealer="Ann")
    dealers = []
    for _round in range(4):
        made = new_id(again(table, game["id"]))
        dealers.append(first_dealer(api, made))
        state = api.get(f"/games/{made}").get_json()
        while state["next"]:
            state = play_hand(api, state)
        game = state
    assert dealers == ["Ben", "Cy", "Dee", "Ann"]


def test_a_game_outside_any_night_stays_outside(app, api, table):
    old = finished_pitch(api)
    made = new_id(again(table, old["id"]))
    assert api.get(f"/games/{made}").get_json()["night_id"] is None


def test_a_double_tap_makes_one_game(app, api, table):
    old = finished_score_pad(api)
    first = new_id(again(table, old["id"]))
    count = game_count(app)
    assert new_id(again(table, old["id"])) == first
    assert game_count(app) == count
    # Once a hand is entered in it, another tap is another game.
    api.post(f"/games/{first}/hands", {"number": 1, "points": {"Ann": 1}})
    assert new_id(again(table, old["id"])) != first


def test_a_game_not_finished_offers_no_play_again_and_refuses_it(app, api, table):
    state = new_game(api, "pitch", partnerships=True)
    page = table.get(f"/games/{state['id']}")
    assert "/again" not in page.text and "Play again" not in page.text
    count = game_count(app)
    response = again(table, state["id"])
    assert response.status_code == 302
    assert response.headers["Location"].endswith(f"/games/{state['id']}")
    assert "This game is not finished yet: play it to the end first." in flashes(table, response)
    assert game_count(app) == count
    # Abandoned is not finished either.
    api.post(f"/games/{state['id']}/abandon")
    assert "Play again" not in table.get(f"/games/{state['id']}").text
    assert again(table, state["id"]).status_code == 302
    assert game_count(app) == count


def test_a_reopened_game_offers_no_play_again_until_it_is_closed(app, api, table):
    old = finished_oh_hell(api)
    api.post(f"/games/{old['id']}/reopen")
    assert "Play again" not in table.get(f"/games/{old['id']}").text
    api.post(f"/games/{old['id']}/close")
    assert "Play again" in table.get(f"/games/{old['id']}").text


def test_a_player_archived_since_is_named_and_nothing_is_made(app, api, table):
    old = finished_pitch(api)
    cy = roster_ids(app)["Cy"]
    assert api.patch(f"/players/{cy}", {"archived": True}).status_code == 200
    count = game_count(app)
    response = again(table, old["id"])
    assert response.headers["Location"].endswith(f"/games/{old['id']}")
    assert (
        "Cy is no longer on the roster (archived): restore them under Players, or change the "
        "seats first." in flashes(table, response)
    )
    assert game_count(app) == count
    # Changing seats first: Cy's seat is left free, and the page says so.
    page = table.get(f"/games/new?game=pitch&again={old['id']}")
    assert page.status_code == 200
    said = text(page.text)
    assert "Cy is no longer on the roster (archived): the seat is free." in said
    assert seats_of(page.text, app) == {"Ann": "1", "Ben": "2", "Dee": "4"}


def test_another_accounts_game_is_not_found(app, api, other_api, table):
    theirs = other_api.post(
        "/games", {"game": "score_pad", "players": FOUR, "options": {"name": "Darts"}}
    ).get_json()
    other_api.post(f"/games/{theirs['id']}/hands", {"number": 1, "points": {"Ann": 1}})
    other_api.post(f"/games/{theirs['id']}/close")
    assert again(table, theirs["id"]).status_code == 404
    # The new-game page opens as it always does, filled with nothing of theirs.
    page = table.get(f"/games/new?game=score_pad&again={theirs['id']}")
    assert page.status_code == 200
    assert "That game was not found." in text(page.text)
    assert seats_of(page.text, app) == {}


def seats_of(page: str, app) -> dict[str, str]:
    """The seat each roster player has on the new-game form."""
    by_id = {str(player_id): name for name, player_id in roster_ids(app).items()}
    found = re.findall(
        r'name="seat-(\d+)"[^>]*>.*?<option value="(\d+)" selected', page, re.S | re.M
    )
    seats = {}
    for player_id, seat in found:
        block = page[page.index(f'name="seat-{player_id}"') :]
        block = block[: block.index("</select>")]
        if f'value="{seat}" selected' in block:
            seats[by_id[player_id]] = seat
    return seats


def dealer_of(page: str, app) -> str | None:
    by_id = {str(player_id): name for name, player_id in roster_ids(app).items()}
    found = re.search(r'name="first_dealer" value="(\d+)"[^>]*checked', page)
    return by_id[found.group(1)] if found else None


def test_change_seats_first_fills_the_new_game_page_in(app, api, table):
    night = api.post("/nights", {"name": "Friday"}).get_json()["id"]
    old = finished_pitch(api, night=night)
    page = table.get(f"/games/{old['id']}")
    link = re.search(r'href="([^"]*again=[^"]*)"[^>]*>Change seats first<', page.text)
    assert link, "no Change seats first link"
    url = html_text(link.group(1))
    assert f"night={night}" in url
    form = table.get(url)
    assert form.status_code == 200
    assert seats_of(form.text, app) == {"Ann": "1", "Ben": "2", "Cy": "3", "Dee": "4"}
    assert dealer_of(form.text, app) == "Cy"
    assert re.search(r'name="opt-partnerships" value="y"\s+checked', form.text)
    target = form.text[form.text.index('name="opt-target"') :]
    assert '<option value="11" selected' in target[: target.index("</select>")]
    assert "Part of the night of" in text(form.text)
    # Ann and Ben change places, then Start: the same night and options.
    ids = roster_ids(app)
    data = {"game": "pitch", "first_dealer": str(ids["Cy"])}
    for key, value in old["options"].items():
        if value not in (False, None):
            data[f"opt-{key}"] = "y" if value is True else str(value)
    for name, seat in {"Ben": 1, "Ann": 2, "Cy": 3, "Dee": 4}.items():
        data[f"seat-{ids[name]}"] = str(seat)
    started = table.post(url, data=data)
    assert started.status_code == 302, started.text
    made = int(re.search(r"/games/(\d+)$", started.headers["Location"]).group(1))
    state = api.get(f"/games/{made}").get_json()
    assert state["players"] == ["Ben", "Ann", "Cy", "Dee"]
    assert (state["night_id"], state["options"]) == (night, old["options"])
    assert state["next"]["dealer"] == "Cy"


def field_value(page: str, key: str) -> str | None:
    """What the new-game form's option field says: a checkbox "y" when ticked (else None),
    a select's chosen value, an input's value."""
    found = re.search(rf'<(input|select)[^>]*name="opt-{key}"[^>]*>', page)
    assert found, f"no field for {key}"
    tag = found.group(0)
    if found.group(1) == "select":
        rest = page[found.end() : page.index("</select>", found.end())]
        chosen = re.search(r'<option value="([^"]*)" selected', rest)
        return chosen.group(1) if chosen else None
    if 'type="checkbox"' in tag:
        return "y" if re.search(r"\schecked", tag) else None
    value = re.search(r'value="([^"]*)"', tag)
    return html_text(value.group(1)) if value else None


@pytest.mark.parametrize("kind", FINISHED)
def test_the_filled_in_page_carries_every_option_as_stored(app, api, table, kind):
    old = FINISHED[kind][0](api)
    page = table.get(f"/games/new?game={kind}&again={old['id']}").text
    for key, value in old["options"].items():
        if isinstance(value, bool):
            expected = "y" if value else None
        elif value is None:
            expected = None  # blank: its default
        else:
            expected = ", ".join(map(str, value)) if isinstance(value, list) else str(value)
        assert field_value(page, key) in (expected, "" if expected is None else expected), key
    assert dealer_of(page, app) == FINISHED[kind][1]


@pytest.mark.parametrize(
    "query",
    ["again=0", "again=abc", "again=%C2%B2", "again=99999999999999999999", "again=-1"],
)
def test_any_again_in_the_address_gets_the_page(app, api, table, query):
    response = table.get(f"/games/new?game=pitch&{query}")
    assert response.status_code == 200
    assert "That game was not found." in text(response.text)


def test_the_filled_in_page_of_a_game_not_finished_fills_nothing_in(app, api, table):
    state = new_game(api, "pitch")
    page = table.get(f"/games/new?game=pitch&again={state['id']}")
    assert page.status_code == 200
    assert "This game is not finished yet" in text(page.text)
    assert seats_of(page.text, app) == {}
    # Of another game: the page of the game asked for, as it always is.
    old = finished_score_pad(api)
    assert seats_of(table.get(f"/games/new?game=pitch&again={old['id']}").text, app) == {}
