"""Hearts through the JSON API: a game to the target with the moon both ways, the jack of
diamonds, the passing reminder, every refusal code, corrections and undo, statistics, CSV.
Every answer is checked against the served OpenAPI document (the ``api`` client does it)."""

from __future__ import annotations

import csv
import io

import pytest

FOUR = ["Ann", "Ben", "Cy", "Dee"]


def new_game(api, players=FOUR, **options):
    response = api.post("/games", {"game": "hearts", "players": players, "options": options})
    assert response.status_code == 201, response.text
    return response.get_json()


def points(*values, players=FOUR):
    return {"points": dict(zip(players, values, strict=True))}


def play(api, state, body):
    response = api.post(f"/games/{state['id']}/hands", {"number": state["next"]["number"], **body})
    assert response.status_code == 201, response.text
    return response.get_json()


def refused(api, state, body, status=422):
    response = api.post(f"/games/{state['id']}/hands", body)
    assert response.status_code == status, response.text
    after = api.get(f"/games/{state['id']}").get_json()
    assert after["hands"] == state["hands"]  # nothing was saved
    return [(e["code"], e["field"], e["message"]) for e in response.get_json()["errors"]]


def test_options_and_the_passing_reminder(api):
    state = new_game(api)
    assert state["options"] == {
        "target": 100,
        "moon": "plus",
        "jack_of_diamonds": False,
        "passing": "standard",
    }
    passes = []
    for _ in range(5):
        passes.append(state["next"]["passing"])
        state = play(api, state, points(13, 5, 8, 0))
    assert passes == ["left", "right", "across", "none", "left"]
    assert [hand["passing"] for hand in state["hands"]] == passes
    five = new_game(api, ["Ann", "Ben", "Cy", "Dee", "Eve"], passing="none")
    assert five["next"]["passing"] == "none"


def test_a_game_to_50_with_the_moon_and_the_lowest_total_winning(api):
    state = new_game(api, target=50)
    state = play(api, state, points(13, 5, 8, 0))
    assert state["hands"][0]["points"] == {"Ann": 13, "Ben": 5, "Cy": 8, "Dee": 0}
    assert state["hands"][0]["moon"] is None
    state = play(api, state, points(26, 0, 0, 0))
    moon = state["hands"][1]
    assert (moon["moon"], moon["taken"]["Ann"]) == ("Ann", 26)
    assert moon["points"] == {"Ann": 0, "Ben": 26, "Cy": 26, "Dee": 26}
    assert "Ann shot the moon in hand 2: everyone else scores 26." in state["notices"]
    state = play(api, state, points(0, 13, 13, 0))
    assert state["status"] == "in_progress"
    state = play(api, state, points(0, 13, 13, 0))
    # Ann 13, Ben 57, Cy 60, Dee 26: Ben and Cy passed 50; the lowest wins.
    assert state["totals"] == {"Ann": 13, "Ben": 57, "Cy": 60, "Dee": 26}
    assert (state["status"], state["winners"], state["next"]) == ("finished", ["Ann"], None)
    over = api.post(f"/games/{state['id']}/hands", points(13, 13, 0, 0))
    assert over.status_code == 422
    assert over.get_json()["errors"][0]["code"] == "game_over"


def test_the_moon_minus_and_the_jack_of_diamonds(api):
    state = new_game(api, moon="minus", jack_of_diamonds=True)
    state = play(api, state, {**points(0, 26, 0, 0), "jack_of_diamonds": "Cy"})
    assert state["hands"][0]["points"] == {"Ann": 0, "Ben": -26, "Cy": -10, "Dee": 0}
    assert state["hands"][0]["jack_of_diamonds"] == "Cy"
    state = play(api, state, {**points(13, 5, 8, 0), "jack_of_diamonds": None})
    assert state["hands"][1]["points"] == {"Ann": 13, "Ben": 5, "Cy": 8, "Dee": 0}
    assert state["totals"] == {"Ann": 13, "Ben": -21, "Cy": -2, "Dee": 0}


@pytest.mark.parametrize(
    ("body", "options", "status", "expected"),
    [
        (
            {"points": {"Ann": 13, "Ben": 13, "Cy": 0}},
            {},
            422,
            [("missing_points", "points.Dee", "Hand 1: Enter the points for Dee.")],
        ),
        (
            {},
            {},
            422,
            [("missing_points", "points", "Hand 1: Enter the points for every player.")],
        ),
        (
            points(27, 0, 0, -1),
            {},
            422,
            [
                ("points_out_of_range", "points.Ann", "Hand 1: Ann's points must be from 0 to 26."),
                ("points_out_of_range", "points.Dee", "Hand 1: Dee's points must be from 0 to 26."),
            ],
        ),
        (
            points(13, 5, 8, 1),
            {},
            422,
            [
                (
                    "points_sum_mismatch",
                    "points",
                    "Hand 1: The points add up to 27, but every hand holds 26 (13 hearts and 13 "
                    "for the queen of spades).",
                )
            ],
        ),
        (
            {**points(13, 5, 8, 0), "jack_of_diamonds": "Ann"},
            {},
            422,
            [
                (
                    "jack_invalid",
                    "jack_of_diamonds",
                    "Hand 1: The jack of diamonds scores nothing in this game, so nobody is "
                    "named for it.",
                )
            ],
        ),
        (
            {**points(13, 5, 8, 0), "jack_of_diamonds": "Zed"},
            {"jack_of_diamonds": True},
            422,
            [("unknown_player", "jack_of_diamonds", "Hand 1: Zed is not playing in this game.")],
        ),
        (
            {"points": {"Ann": 13, "Ben": 5, "Cy": 8, "Dee": 0, "Zed": 0}},
            {},
            422,
            [("unknown_player", "points.Zed", "Hand 1: Zed is not playing in this game.")],
        ),
    ],
    ids=[
        "missing_points",
        "nothing",
        "points_out_of_range",
        "points_sum_mismatch",
        "jack_invalid",
        "unknown_jack",
        "unknown_player",
    ],
)
def test_every_refusal_code(api, body, options, status, expected):
    state = new_game(api, **options)
    assert refused(api, state, body, status) == expected


def test_wrong_types_are_400(api):
    state = new_game(api)
    response = api.post(f"/games/{state['id']}/hands", {"points": {"Ann": 13.0}})
    assert response.status_code == 400
    assert response.get_json()["errors"][0]["code"] == "wrong_type"
    extra = api.post(f"/games/{state['id']}/hands", {**points(13, 5, 8, 0), "moon": "Ann"})
    assert extra.status_code == 400


def test_bad_options_are_refused(api):
    response = api.post(
        "/games",
        {"game": "hearts", "players": ["Ann", "Ben"], "options": {"target": 75, "spin": 1}},
    )
    assert response.status_code == 422
    codes = {(e["code"], e["field"]) for e in response.get_json()["errors"]}
    assert codes == {
        ("player_count", "players"),
        ("option_value", "options.target"),
        ("unknown_option", "options.spin"),
    }


def test_a_hand_sent_twice_is_a_409(api):
    state = new_game(api)
    play(api, state, points(13, 5, 8, 0))
    again = api.post(f"/games/{state['id']}/hands", {"number": 1, **points(13, 5, 8, 0)})
    assert again.status_code == 409
    assert again.get_json()["errors"][0]["code"] == "not_next_hand"


def test_correct_a_hand_and_undo_the_last(api):
    state = new_game(api)
    state = play(api, state, points(13, 5, 8, 0))
    state = play(api, state, points(0, 13, 13, 0))
    bad = api.patch(f"/games/{state['id']}/hands/1", points(13, 5, 8, 2))
    assert bad.status_code == 422
    assert bad.get_json()["errors"][0]["code"] == "points_sum_mismatch"
    fixed = api.patch(f"/games/{state['id']}/hands/1", points(0, 0, 0, 26))
    assert fixed.status_code == 200
    corrected = fixed.get_json()
    assert corrected["hands"][0]["moon"] == "Dee"
    assert corrected["totals"] == {"Ann": 26, "Ben": 39, "Cy": 39, "Dee": 0}
    undone = api.delete(f"/games/{state['id']}/hands/2")
    assert undone.status_code == 200
    assert undone.get_json()["totals"] == {"Ann": 26, "Ben": 26, "Cy": 26, "Dee": 0}
    assert api.delete(f"/games/{state['id']}/hands/3").status_code == 404


def test_statistics_leaderboard_and_csv(api):
    state = new_game(api, target=50)
    for body in (points(13, 5, 8, 0), points(26, 0, 0, 0), points(0, 13, 13, 0)):
        state = play(api, state, body)
    state = play(api, state, points(0, 13, 13, 0))
    players = {p["name"]: p["id"] for p in api.get("/players").get_json()["players"]}
    figures = api.get(f"/players/{players['Ann']}/stats").get_json()["games"]["hearts"]
    assert (figures["played"], figures["won"], figures["hands"]) == (1, 1, 4)
    assert figures["figures"] == {
        "moons": 1,
        "points_taken": 39,
        "clean_hands": 2,
        "jacks": 0,
    }
    assert figures["points_total"] == 13 and figures["points_per_hand"] == 13 / 4
    board = api.get("/leaderboards/hearts").get_json()
    assert board["plays"] == 1
    assert board["players"][0]["player"]["name"] == "Ann"
    sheet = api.get(f"/games/{state['id']}.csv")
    assert sheet.status_code == 200
    rows = list(csv.reader(io.StringIO(sheet.text)))
    header = rows[0]
    for column in ("Passing", "Moon", "Ann taken", "Dee taken"):
        assert column in header
    moon = dict(zip(header, rows[2], strict=False))
    assert (moon["Moon"], moon["Ann taken"], moon["Passing"]) == ("Ann", "26", "Pass right")
