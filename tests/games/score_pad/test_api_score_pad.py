"""The score pad through the JSON API: options, rounds (negative, missing names count 0),
open-ended games ended with POST /close, target and rounds, the dealer reminder, every
refusal code, corrections and undo, plays grouped by name on the leaderboard, CSV. Every
answer is checked against the served OpenAPI document (the ``api`` client does it)."""

from __future__ import annotations

import csv
import io

import pytest

THREE = ["Ann", "Ben", "Cy"]


def new_game(api, players=THREE, name="Catan", **options):
    body = {"game": "score_pad", "players": players, "options": {"name": name, **options}}
    response = api.post("/games", body)
    assert response.status_code == 201, response.text
    return response.get_json()


def play(api, state, **points):
    response = api.post(
        f"/games/{state['id']}/hands", {"number": state["next"]["number"], "points": points}
    )
    assert response.status_code == 201, response.text
    return response.get_json()


def close(api, state, status=200):
    response = api.post(f"/games/{state['id']}/close")
    assert response.status_code == status, response.text
    return response.get_json()


def test_options_and_an_open_game_ended_by_the_table(api):
    state = new_game(api)
    assert state["options"] == {
        "name": "Catan",
        "winner": "highest",
        "end": "open",
        "target": None,
        "rounds": None,
        "dealer": False,
    }
    assert state["next"]["show_dealer"] is False
    # Nothing to end before a round.
    errors = close(api, state, 422)["errors"]
    assert [e["code"] for e in errors] == ["not_finished"]
    state = play(api, state, Ann=5, Ben=-3)
    assert state["hands"][0]["points"] == {"Ann": 5, "Ben": -3, "Cy": 0}
    assert state["hands"][0]["round_winners"] == ["Ann"]
    state = play(api, state, Ann=1, Ben=9, Cy=7)
    assert state["status"] == "in_progress"
    ended = close(api, state)
    assert (ended["status"], ended["locked"], ended["winners"]) == ("finished", True, ["Cy"])
    assert ended["next"] is None
    assert ended["totals"] == {"Ann": 6, "Ben": 6, "Cy": 7}
    # It stays ended when read again, and takes no more rounds.
    assert api.get(f"/games/{state['id']}").get_json()["winners"] == ended["winners"]
    more = api.post(f"/games/{state['id']}/hands", {"points": {"Ann": 1}})
    assert more.status_code == 422
    assert more.get_json()["errors"][0]["code"] == "game_over"


def test_a_reopened_ended_game_is_taken_up_again_and_ended_again(api):
    state = new_game(api)
    state = play(api, state, Ann=10, Ben=20, Cy=5)
    assert close(api, state)["winners"] == ["Ben"]
    reopened = api.post(f"/games/{state['id']}/reopen").get_json()
    assert (reopened["status"], reopened["locked"], reopened["winners"]) == (
        "in_progress",
        False,
        [],
    )
    assert reopened["next"]["number"] == 2
    fixed = api.patch(f"/games/{state['id']}/hands/1", {"points": {"Ann": 30}})
    assert fixed.status_code == 200
    assert fixed.get_json()["status"] == "in_progress"
    state = play(api, fixed.get_json(), Cy=40)
    ended = close(api, state)
    assert (ended["status"], ended["locked"], ended["winners"]) == ("finished", True, ["Cy"])
    players = {p["name"]: p["id"] for p in api.get("/players").get_json()["players"]}
    cy = api.get(f"/players/{players['Cy']}/stats").get_json()["games"]["score_pad"]
    assert (cy["played"], cy["won"], cy["in_progress"]) == (1, 1, 0)


def test_a_closed_game_takes_no_more_rounds(api):
    state = new_game(api)
    state = play(api, state, Ann=1)
    close(api, state)
    more = api.post(f"/games/{state['id']}/hands", {"number": 2, "points": {"Ann": 1}})
    assert more.status_code == 422
    assert more.get_json()["errors"][0]["code"] == "game_over"


def test_lowest_wins_to_a_target(api):
    state = new_game(api, name="Golf", winner="lowest", end="target", target=20, rounds=5)
    assert (state["options"]["target"], state["options"]["rounds"]) == (20, None)
    assert state["next"]["target"] == 20
    state = play(api, state, Ann=4, Ben=9, Cy=6)
    state = play(api, state, Ann=5, Ben=12, Cy=6)
    assert (state["status"], state["winners"]) == ("finished", ["Ann"])
    # A game that ends by its own rule is only locked again by /close.
    assert close(api, state)["winners"] == ["Ann"]


def test_a_fixed_number_of_rounds_with_the_dealer_shown(api):
    state = new_game(api, name="Yahtzee", end="rounds", rounds=2, dealer=True, target=7)
    assert state["options"]["target"] is None
    assert (state["next"]["dealer"], state["next"]["show_dealer"]) == ("Ann", True)
    assert state["next"]["total_hands"] == 2
    state = play(api, state, Ann=100, Ben=150, Cy=150)
    assert state["next"]["dealer"] == "Ben"
    state = play(api, state, Ann=100, Ben=150, Cy=150)
    assert (state["status"], state["winners"]) == ("finished", ["Ben", "Cy"])


def test_one_to_twenty_players(api):
    assert new_game(api, ["Ann"], name="Solitaire")["players"] == ["Ann"]
    twenty = [f"P{n}" for n in range(1, 21)]
    assert len(new_game(api, twenty)["players"]) == 20
    response = api.post(
        "/games",
        {"game": "score_pad", "players": [*twenty, "P21"], "options": {"name": "Darts"}},
    )
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["code"] == "player_count"


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ({}, [("option_value", "options.name")]),
        ({"name": "   "}, [("option_value", "options.name")]),
        ({"name": "x" * 61}, [("option_value", "options.name")]),
        ({"name": "Darts", "end": "target"}, [("option_value", "options.target")]),
        ({"name": "Darts", "end": "rounds", "rounds": 101}, [("option_value", "options.rounds")]),
        ({"name": "Darts", "winner": "most"}, [("option_value", "options.winner")]),
        ({"name": "Darts", "colour": "red"}, [("unknown_option", "options.colour")]),
    ],
)
def test_option_refusals(api, options, expected):
    response = api.post("/games", {"game": "score_pad", "players": THREE, "options": options})
    assert response.status_code == 422
    assert [(e["code"], e["field"]) for e in response.get_json()["errors"]] == expected


@pytest.mark.parametrize(
    ("body", "status", "expected"),
    [
        (
            {"points": {}},
            422,
            [
                (
                    "missing_points",
                    "points",
                    "Round 1: Enter the points of at least one player for this round.",
                )
            ],
        ),
        (
            {},
            422,
            [
                (
                    "missing_points",
                    "points",
                    "Round 1: Enter the points of at least one player for this round.",
                )
            ],
        ),
        (
            {"points": {"Ann": 1, "Zed": 2}},
            422,
            [("unknown_player", "points.Zed", "Round 1: Zed is not playing in this game.")],
        ),
    ],
    ids=["missing_points", "nothing", "unknown_player"],
)
def test_every_refusal_code(api, body, status, expected):
    state = new_game(api)
    response = api.post(f"/games/{state['id']}/hands", body)
    assert response.status_code == status
    errors = response.get_json()["errors"]
    assert [(e["code"], e["field"], e["message"]) for e in errors] == expected
    assert api.get(f"/games/{state['id']}").get_json()["hands"] == []


def test_a_number_that_is_no_whole_number_is_wrong_type(api):
    state = new_game(api)
    for value in (2.5, "3", True):
        response = api.post(f"/games/{state['id']}/hands", {"points": {"Ann": value}})
        assert response.status_code == 400
        assert response.get_json()["errors"][0]["code"] == "wrong_type"


def test_correct_a_round_and_undo_the_last(api):
    state = new_game(api)
    state = play(api, state, Ann=5, Ben=5, Cy=5)
    state = play(api, state, Ann=1, Ben=2, Cy=3)
    fixed = api.patch(f"/games/{state['id']}/hands/1", {"points": {"Ann": -5}})
    assert fixed.status_code == 200
    assert fixed.get_json()["totals"] == {"Ann": -4, "Ben": 7, "Cy": 8}
    undone = api.delete(f"/games/{state['id']}/hands/2").get_json()
    assert undone["totals"] == {"Ann": -5, "Ben": 5, "Cy": 5}


def test_plays_of_one_named_game_are_grouped_on_the_leaderboard(api):
    for name, points in (
        ("Catan", {"Ann": 10, "Ben": 8}),
        ("Catan", {"Ann": 10, "Cy": 12}),
        (" Catan ", {"Ann": 10}),
        ("Dominoes", {"Cy": 30}),
    ):
        state = new_game(api, name=name)
        state = play(api, state, **points)
        close(api, state)
    board = api.get("/leaderboards/score_pad").get_json()
    assert board["plays"] == 4 and board["variant"] is None
    assert board["variants"] == [
        {"variant": "Catan", "label": "Catan"},
        {"variant": "Dominoes", "label": "Dominoes"},
    ]
    catan = api.get("/leaderboards/score_pad?variant=Catan").get_json()
    assert catan["plays"] == 3
    lines = {line["player"]["name"]: (line["played"], line["won"]) for line in catan["players"]}
    assert lines == {"Ann": (3, 2), "Ben": (3, 0), "Cy": (3, 1)}
    assert api.get("/leaderboards/score_pad?variant=Chess").get_json()["plays"] == 0
    players = {p["name"]: p["id"] for p in api.get("/players").get_json()["players"]}
    figures = api.get(f"/players/{players['Cy']}/stats").get_json()["games"]["score_pad"]
    assert (figures["played"], figures["won"], figures["figures"]) == (4, 2, {"rounds_won": 2})


def test_csv(api):
    state = new_game(api)
    state = play(api, state, Ann=5, Ben=-3)
    sheet = api.get(f"/games/{state['id']}.csv")
    assert sheet.status_code == 200
    rows = list(csv.reader(io.StringIO(sheet.text.lstrip("\ufeff"))))
    assert rows[1] == ["1", "Ann", "Ann", "5", "5", "-3", "-3", "0", "0"]
