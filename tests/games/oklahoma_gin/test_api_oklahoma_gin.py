"""Oklahoma Gin through the JSON API: a game to 100, every refusal, variants, bonuses, guards."""

from __future__ import annotations

from itertools import pairwise

import pytest

TWO = ["Ann", "Ben"]


def new_game(api, players=TWO, first_dealer=None, **options):
    body = {"game": "oklahoma_gin", "players": players, "options": options}
    if first_dealer:
        body["first_dealer"] = first_dealer
    response = api.post("/games", body)
    assert response.status_code == 201, response.text
    return response.get_json()


def knock(knocker, mine, theirs, upcard="K", **extra):
    return {
        "upcard": upcard,
        "result": "knock",
        "knocker": knocker,
        "knocker_deadwood": mine,
        "opponent_deadwood": theirs,
        **extra,
    }


def gin(knocker, theirs, upcard="K", **extra):
    return {
        "upcard": upcard,
        "result": "gin",
        "knocker": knocker,
        "opponent_deadwood": theirs,
        **extra,
    }


def draw(upcard="K", **extra):
    return {"upcard": upcard, "result": "draw", **extra}


def play(api, state, body):
    number = state["next"]["number"]
    response = api.post(f"/games/{state['id']}/hands", {"number": number, **body})
    assert response.status_code == 201, response.text
    return response.get_json()


def test_a_game_to_100_with_knock_undercut_gin_and_a_draw(api):
    state = new_game(api)
    assert state["options"] == {
        "target": 100,
        "gin_bonus": 25,
        "undercut_bonus": 10,
        "spade_double": False,
        "ace_requires_gin": False,
        "game_bonus": 0,
        "box_bonus": 0,
        "shutout_double": False,
        "hollywood": False,
    }
    assert state["next"]["dealer"] == "Ann"  # seat 1 deals when nobody is chosen
    assert state["next"]["order"] == ["Ben", "Ann"]
    assert state["next"]["knock_limit"] is None

    # Round 1: a 7 turned up; Ann knocks with 3 against 20: she scores 17 and deals next.
    state = play(api, state, knock("Ann", 3, 20, upcard="7"))
    first = state["hands"][0]
    assert (first["knock_limit"], first["result"], first["winner"], first["undercut"]) == (
        7,
        "knock",
        "Ann",
        False,
    )
    assert first["points"] == {"Ann": 17, "Ben": 0}
    assert state["next"]["dealer"] == "Ann"

    # Round 2: a draw scores nothing and Ann deals again.
    state = play(api, state, draw(upcard="4"))
    assert state["hands"][1]["points"] == {"Ann": 0, "Ben": 0}
    assert state["hands"][1]["winner"] is None
    assert state["next"]["dealer"] == "Ann"
    assert "Round 2 was a draw: Ann deals again." in state["notices"]

    # Round 3: Ben knocks with 9 against 5: undercut, Ann scores 10 + 4.
    state = play(api, state, knock("Ben", 9, 5, upcard="Q"))
    third = state["hands"][2]
    assert third["undercut"] is True
    assert third["winner"] == "Ann"
    assert third["points"] == {"Ann": 14, "Ben": 0}

    # Round 4: Ben goes gin against 30: 30 + 25, and Ben deals round 5.
    state = play(api, state, gin("Ben", 30, upcard="2"))
    assert state["hands"][3]["points"] == {"Ann": 0, "Ben": 55}
    assert state["hands"][3]["knock_limit"] == 2
    assert state["next"]["dealer"] == "Ben"
    assert state["status"] == "in_progress"
    assert state["bonuses"] == []

    # Round 5: a knock with no deadwood is gin: Ann scores 60 + 25 and reaches 116.
    state = play(api, state, knock("Ann", 0, 60, upcard="A"))
    last = state["hands"][4]
    assert last["result"] == "gin"
    assert last["input"]["result"] == "gin"
    assert last["points"] == {"Ann": 85, "Ben": 0}

    assert state["status"] == "finished"
    assert state["locked"] is True
    assert state["winners"] == ["Ann"]
    assert state["next"] is None
    assert state["totals"] == {"Ann": 116, "Ben": 55}
    assert "Ann wins the game with 116 points." in state["notices"]
    for name in TWO:
        assert state["totals"][name] == sum(hand["points"][name] for hand in state["hands"])
    assert [hand["dealer"] for hand in state["hands"]] == ["Ann", "Ann", "Ann", "Ann", "Ben"]
    for before, hand in pairwise(state["hands"]):
        assert hand["dealer"] == (before["winner"] or before["dealer"])

    refused = api.post(f"/games/{state['id']}/hands", draw())
    assert refused.status_code == 422
    assert refused.get_json()["errors"][0]["code"] == "game_over"
    assert len(api.get(f"/games/{state['id']}").get_json()["hands"]) == 5


def test_the_first_dealer_can_be_chosen(api):
    state = new_game(api, first_dealer="Ben")
    assert state["next"]["dealer"] == "Ben"
    state = play(api, state, draw())
    assert state["hands"][0]["dealer"] == "Ben"
    assert state["next"]["dealer"] == "Ben"


def test_exactly_two_players(api):
    for players in (["Ann"], ["Ann", "Ben", "Cy"]):
        response = api.post("/games", {"game": "oklahoma_gin", "players": players})
        assert response.status_code == 422
        error = response.get_json()["errors"][0]
        assert (error["code"], error["field"]) == ("player_count", "players")
        assert error["message"] == (f"This game needs exactly 2 players; {len(players)} chosen.")


@pytest.mark.parametrize(
    ("options", "body", "status", "code", "field", "message"),
    [
        ({}, {"result": "draw"}, 422, "required", "upcard", "Enter the upcard"),
        ({}, draw(upcard="Z"), 422, "upcard_invalid", "upcard", "“Z” is not a card rank"),
        ({}, draw(upcard="1"), 422, "upcard_invalid", "upcard", "is not a card rank"),
        ({}, draw(upcard=7), 400, "wrong_type", "upcard", "must be a rank"),
        ({}, {"upcard": "7"}, 422, "required", "result", "knock, gin or draw"),
        ({}, {"upcard": "7", "result": "rummy"}, 400, "wrong_type", "result", "not a result"),
        ({}, draw(upcard_suit="roses"), 422, "upcard_invalid", "upcard_suit", "not a suit"),
        (
            {},
            knock("Ann", 6, 20, upcard="5"),
            422,
            "knock_above_limit",
            "knocker_deadwood",
            "Knock with 5 or less: Ann has 6.",
        ),
        (
            {},
            knock("Ben", 11, 20, upcard="J"),
            422,
            "knock_above_limit",
            "knocker_deadwood",
            "Knock with 10 or less: Ben has 11.",
        ),
        (
            {},
            knock("Ann", 2, 20, upcard="A"),
            422,
            "knock_above_limit",
            "knocker_deadwood",
            "Knock with 1 or less: Ann has 2.",
        ),
        (
            {"ace_requires_gin": True},
            knock("Ann", 1, 20, upcard="A"),
            422,
            "knock_above_limit",
            "knocker_deadwood",
            "An ace was turned up: only gin can end this round.",
        ),
        (
            {},
            {**gin("Ann", 20), "knocker_deadwood": 3},
            422,
            "gin_with_deadwood",
            "knocker_deadwood",
            "Gin means no deadwood, but Ann has 3. Enter it as a knock instead.",
        ),
        (
            {},
            knock("Ann", 2, 99),
            422,
            "deadwood_invalid",
            "opponent_deadwood",
            "Ben's deadwood must be from 0 to 98.",
        ),
        (
            {},
            knock("Ben", -1, 20),
            422,
            "deadwood_invalid",
            "knocker_deadwood",
            "Ben's deadwood must be from 0 to 98.",
        ),
        (
            {},
            knock("Ann", 2, "ten"),
            400,
            "wrong_type",
            "opponent_deadwood",
            "Ben's deadwood must be a whole number.",
        ),
        (
            {},
            {"upcard": "K", "result": "knock", "knocker": "Ann", "knocker_deadwood": 2},
            422,
            "required",
            "opponent_deadwood",
            "Enter Ben's deadwood.",
        ),
        ({}, knock("Zed", 2, 20), 422, "unknown_player", "knocker", "Zed is not playing"),
        ({}, {"upcard": "K", "result": "gin"}, 422, "required", "knocker", "who ended the round"),
        (
            {"spade_double": True},
            knock("Ann", 2, 20),
            422,
            "upcard_invalid",
            "upcard_suit",
            "Spades double is on: enter the suit of the upcard.",
        ),
    ],
)
def test_refusals_name_the_code_and_field_and_change_nothing(
    api, options, body, status, code, field, message
):
    state = new_game(api, **options)
    game = state["id"]
    # One good round first: a refusal must leave it (and the totals) exactly as they were.
    state = play(api, state, knock("Ann", 2, 12, upcard="K", upcard_suit="clubs"))
    before = api.get(f"/games/{game}").get_json()
    response = api.post(f"/games/{game}/hands", {"number": 2, **body})
    assert response.status_code == status, response.text
    error = response.get_json()["errors"][0]
    assert (error["code"], error["field"]) == (code, field)
    assert message in error["message"]
    after = api.get(f"/games/{game}").get_json()
    assert after == before
    assert len(after["hands"]) == 1
    assert after["totals"] == {"Ann": 10, "Ben": 0}


def test_spade_double_needs_the_suit_and_doubles_the_round(api):
    state = new_game(api, spade_double=True)
    game = state["id"]
    refused = api.post(f"/games/{game}/hands", knock("Ann", 2, 12, upcard="7"))
    assert refused.get_json()["errors"][0]["field"] == "upcard_suit"
    state = play(api, state, knock("Ann", 2, 12, upcard="7", upcard_suit="spades"))
    assert state["hands"][0]["points"] == {"Ann": 20, "Ben": 0}
    assert state["hands"][0]["doubled"] is True
    assert state["hands"][0]["input"]["upcard_suit"] == "spades"
    state = play(api, state, knock("Ann", 2, 12, upcard="7", upcard_suit="Hearts"))
    assert state["hands"][1]["points"] == {"Ann": 10, "Ben": 0}
    assert state["hands"][1]["doubled"] is False
    assert state["hands"][1]["input"]["upcard_suit"] == "hearts"
    # An undercut and a gin on a spade are doubled too.
    state = play(api, state, knock("Ann", 6, 4, upcard="9", upcard_suit="spades"))
    assert state["hands"][2]["points"] == {"Ann": 0, "Ben": 24}
    state = play(api, state, gin("Ben", 10, upcard="9", upcard_suit="spades"))
    assert state["hands"][3]["points"] == {"Ann": 0, "Ben": 70}


def test_a_spade_does_not_double_without_the_variant(api):
    state = new_game(api)
    state = play(api, state, knock("Ann", 2, 12, upcard="7", upcard_suit="spades"))
    assert state["hands"][0]["points"] == {"Ann": 10, "Ben": 0}
    assert state["hands"][0]["doubled"] is False


def test_gin_and_undercut_bonus_variants(api):
    state = new_game(api, gin_bonus=20, undercut_bonus=25)
    state = play(api, state, gin("Ann", 10))
    state = play(api, state, knock("Ann", 5, 5))
    assert [hand["points"] for hand in state["hands"]] == [
        {"Ann": 30, "Ben": 0},
        {"Ann": 0, "Ben": 25},
    ]
    refused = api.post(
        "/games", {"game": "oklahoma_gin", "players": TWO, "options": {"gin_bonus": 30}}
    )
    assert refused.get_json()["errors"][0]["code"] == "option_value"
    refused = api.post(
        "/games", {"game": "oklahoma_gin", "players": TWO, "options": {"target": 40}}
    )
    assert refused.get_json()["errors"][0] == {
        "code": "option_value",
        "field": "options.target",
        "message": "Game to must be from 50 to 1000.",
    }


def test_game_box_and_shutout_bonuses_are_lines_and_in_the_totals(api):
    state = new_game(api, target=50, game_bonus=100, box_bonus=25, shutout_double=True)
    state = play(api, state, knock("Ann", 2, 12))  # Ann 10
    assert state["bonuses"] == []
    assert state["totals"] == {"Ann": 10, "Ben": 0}
    state = play(api, state, draw())
    state = play(api, state, gin("Ann", 30))  # Ann 55: 65 in all
    assert state["status"] == "finished"
    assert state["winners"] == ["Ann"]
    assert state["bonuses"] == [
        {"player": "Ann", "kind": "game", "points": 100},
        {"player": "Ann", "kind": "box", "points": 50},
        {"player": "Ann", "kind": "shutout", "points": 215},
    ]
    assert state["totals"] == {"Ann": 430, "Ben": 0}
    rounds = {name: sum(hand["points"][name] for hand in state["hands"]) for name in TWO}
    for name in TWO:
        extra = sum(line["points"] for line in state["bonuses"] if line["player"] == name)
        assert state["totals"][name] == rounds[name] + extra
    listed = api.get("/games?game=oklahoma_gin").get_json()["games"][0]
    assert listed["totals"] == {"Ann": 430, "Ben": 0}
    assert listed["winners"] == ["Ann"]


def test_box_bonuses_for_both_players_and_no_shutout_when_the_loser_scored(api):
    state = new_game(api, game_bonus=100, box_bonus=20, shutout_double=True)
    state = play(api, state, knock("Ann", 8, 4))  # undercut: Ben 14
    state = play(api, state, gin("Ann", 50))  # Ann 75
    state = play(api, state, gin("Ann", 10))  # Ann 35: 110
    assert state["status"] == "finished"
    assert state["bonuses"] == [
        {"player": "Ann", "kind": "game", "points": 100},
        {"player": "Ann", "kind": "box", "points": 40},
        {"player": "Ben", "kind": "box", "points": 20},
    ]
    assert state["totals"] == {"Ann": 250, "Ben": 34}


def test_a_repeated_or_skipped_round_number_is_409_and_changes_nothing(api):
    state = new_game(api)
    game = state["id"]
    body = {"number": 1, **knock("Ann", 2, 12)}
    assert api.post(f"/games/{game}/hands", body).status_code == 201
    again = api.post(f"/games/{game}/hands", body)
    assert again.status_code == 409
    error = again.get_json()["errors"][0]
    assert (error["code"], error["field"]) == ("not_next_hand", "number")
    assert "Round 1 is already recorded" in error["message"]
    ahead = api.post(f"/games/{game}/hands", {"number": 3, **draw()})
    assert ahead.status_code == 409
    assert "Round 3 is not next" in ahead.get_json()["errors"][0]["message"]
    after = api.get(f"/games/{game}").get_json()
    assert len(after["hands"]) == 1
    assert after["totals"] == {"Ann": 12 - 2, "Ben": 0}


def test_a_correction_rescores_and_moves_the_deal_and_undo_removes_the_last(api):
    state = new_game(api)
    game = state["id"]
    state = play(api, state, knock("Ann", 2, 12))
    state = play(api, state, knock("Ann", 3, 13))
    assert state["hands"][1]["dealer"] == "Ann"
    # Round 1 was really Ben's gin: Ben deals round 2 now.
    # A PATCH is merged into what the round holds, so the old deadwood of 2 must go too.
    change = {"result": "gin", "knocker": "Ben", "knocker_deadwood": 0}
    corrected = api.patch(f"/games/{game}/hands/1", change)
    assert corrected.status_code == 200, corrected.text
    state = corrected.get_json()
    assert state["hands"][0]["points"] == {"Ann": 0, "Ben": 37}
    assert state["hands"][1]["dealer"] == "Ben"
    assert state["totals"] == {"Ann": 10, "Ben": 37}
    refused = api.patch(f"/games/{game}/hands/2", {"upcard": "2"})
    assert refused.status_code == 422
    assert refused.get_json()["errors"][0]["code"] == "knock_above_limit"
    assert api.get(f"/games/{game}").get_json()["hands"][1]["input"]["upcard"] == "K"
    assert api.delete(f"/games/{game}/hands/1").status_code == 409
    undone = api.delete(f"/games/{game}/hands/2")
    assert undone.status_code == 200
    assert undone.get_json()["totals"] == {"Ann": 0, "Ben": 37}
    assert undone.get_json()["next"] == {
        "number": 2,
        "dealer": "Ben",
        "order": ["Ann", "Ben"],
        "knock_limit": None,
        "players": ["Ann", "Ben"],
    }


def test_a_finished_game_is_read_only_until_reopened(api):
    state = new_game(api, target=50, game_bonus=100)
    game = state["id"]
    state = play(api, state, gin("Ann", 30))
    assert state["status"] == "finished"
    assert state["totals"] == {"Ann": 155, "Ben": 0}
    refused = api.patch(f"/games/{game}/hands/1", {"knocker": "Ben"})
    assert refused.status_code == 422
    assert refused.get_json()["errors"][0]["code"] == "game_over"
    assert api.post(f"/games/{game}/reopen").get_json()["locked"] is False
    fixed = api.patch(f"/games/{game}/hands/1", {"knocker": "Ben"}).get_json()
    assert fixed["winners"] == ["Ben"]
    assert fixed["bonuses"] == [{"player": "Ben", "kind": "game", "points": 100}]
    assert fixed["totals"] == {"Ann": 0, "Ben": 155}
    # A correction that brings the winner under the target reopens play.
    open_again = api.patch(f"/games/{game}/hands/1", {"opponent_deadwood": 10}).get_json()
    assert open_again["status"] == "in_progress"
    assert open_again["bonuses"] == []
    assert open_again["totals"] == {"Ann": 0, "Ben": 35}
    assert open_again["next"]["dealer"] == "Ben"


def test_another_account_gets_404(api, other_api):
    state = new_game(api)
    game = state["id"]
    play(api, state, knock("Ann", 2, 12))
    assert other_api.get(f"/games/{game}").status_code == 404
    assert other_api.post(f"/games/{game}/hands", draw()).status_code == 404
    assert other_api.patch(f"/games/{game}/hands/1", {"knocker": "Ben"}).status_code == 404
    assert other_api.delete(f"/games/{game}/hands/1").status_code == 404
    assert other_api.post(f"/games/{game}/reopen").status_code == 404
    assert other_api.get("/games").get_json()["games"] == []
    mine = api.get(f"/games/{game}").get_json()
    assert len(mine["hands"]) == 1
    assert mine["totals"] == {"Ann": 10, "Ben": 0}


def test_gin_refusals_name_the_round(api):
    state = api.post("/games", {"game": "oklahoma_gin", "players": ["Ann", "Ben"]}).get_json()
    body = {
        "upcard": "6",
        "result": "knock",
        "knocker": "Ann",
        "knocker_deadwood": 8,
        "opponent_deadwood": 20,
    }
    error = api.post(f"/games/{state['id']}/hands", body).get_json()["errors"][0]
    assert error["message"] == "Round 1: Knock with 6 or less: Ann has 8."
