"""Auction Pitch through the JSON API: auctions, points, set backs, partnerships, the win."""

from __future__ import annotations

import pytest


def new_game(api, players, **options):
    response = api.post("/games", {"game": "pitch", "players": players, "options": options})
    assert response.status_code == 201, response.text
    return response.get_json()


def hand(api, state, calls: dict, **points):
    """Record a whole hand: calls by name in bidding order, then the points."""
    order = state["next"]["order"]
    body = {
        "number": state["next"]["number"],
        "auction": [[name, calls.get(name, "pass")] for name in order],
        **points,
    }
    response = api.post(f"/games/{state['id']}/hands", body)
    assert response.status_code == 201, response.text
    return response.get_json()


def test_three_player_game_to_a_win(api):
    state = new_game(api, ["Ann", "Ben", "Cy"], target=7)
    assert state["next"]["order"] == ["Ben", "Cy", "Ann"]
    # Hand 1: Ben pitches 2 and takes High, Low, Game; Cy the Jack.
    state = hand(api, state, {"Ben": 2}, high="Ben", low="Ben", jack="Cy", game="Ben")
    last = state["hands"][-1]
    assert (last["pitcher"], last["bid"], last["stolen"], last["made"]) == ("Ben", 2, False, True)
    assert state["totals"] == {"Ann": 0, "Ben": 3, "Cy": 1}
    # Hand 2 (Ben deals): Cy bids 3, Ann passes, Ben steals at 3 and is set back.
    state = hand(api, state, {"Cy": 3, "Ben": 3}, high="Cy", low="Ben", jack=None, game="Cy")
    last = state["hands"][-1]
    assert (last["pitcher"], last["stolen"], last["made"]) == ("Ben", True, False)
    assert state["totals"] == {"Ann": 0, "Ben": 0, "Cy": 3}
    # Hand 3 (Cy deals): Ann pitches 4 and takes all four.
    state = hand(api, state, {"Ann": 4}, high="Ann", low="Ann", jack="Ann", game="Ann")
    assert state["totals"] == {"Ann": 4, "Ben": 0, "Cy": 3}
    assert state["status"] == "in_progress"
    # Hand 4 (Ann deals): Cy reaches 7 as the pitcher and wins.
    state = hand(api, state, {"Ben": 2, "Cy": 4}, high="Cy", low="Cy", jack="Cy", game="Cy")
    assert state["status"] == "finished"
    assert state["winners"] == ["Cy"]
    assert state["next"] is None
    refused = api.post(f"/games/{state['id']}/hands", {"pitcher": "Ann", "bid": 2})
    assert refused.get_json()["errors"][0]["code"] == "game_over"


def test_partnership_game_through_the_api(api):
    state = new_game(api, ["Ann", "Ben", "Cy", "Dee"], partnerships=True)
    assert state["teams"] == [["Ann", "Cy"], ["Ben", "Dee"]]
    state = hand(api, state, {"Ben": 3}, high="Dee", low="Ben", jack="Ben", game="Ann")
    assert state["hands"][0]["points"] == {"Ann & Cy": 1, "Ben & Dee": 3}
    assert state["totals"] == {"Ann & Cy": 1, "Ben & Dee": 3}
    state = hand(
        api,
        state,
        {"Cy": 2},
        high="Ann",
        low="Cy",
        jack=None,
        game_points={"Ann": 10, "Ben": 4, "Cy": 12, "Dee": 3},
    )
    assert state["totals"] == {"Ann & Cy": 4, "Ben & Dee": 3}
    state = hand(api, state, {"Dee": 4}, high="Dee", low="Dee", jack="Ben", game="Ben")
    assert state["winners"] == ["Ben & Dee"]
    assert state["status"] == "finished"


def test_the_auction_may_be_entered_first_and_the_points_later(api):
    state = new_game(api, ["Ann", "Ben", "Cy"])
    opened = api.post(f"/games/{state['id']}/hands", {"pitcher": "Cy", "bid": 3}).get_json()
    assert opened["hands"][0]["status"] == "playing"
    assert (opened["next"]["pitcher"], opened["next"]["bid"]) == ("Cy", 3)
    done = api.patch(
        f"/games/{state['id']}/hands/1", {"high": "Cy", "low": "Ann", "jack": None, "game": None}
    )
    assert done.status_code == 200
    assert done.get_json()["totals"] == {"Ann": 1, "Ben": 0, "Cy": -3}


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"auction": [["Ben", "pass"], ["Cy", "pass"], ["Ann", "pass"]]}, "dealer_must_bid"),
        ({"auction": [["Ben", "pass"], ["Cy", "pass"], ["Ann", 1]]}, "dealer_min_bid"),
        ({"auction": [["Ben", 2], ["Cy", 2], ["Ann", "pass"]]}, "bid_not_higher"),
        ({"auction": [["Ben", 4], ["Cy", "pass"], ["Ann", 4]]}, "steal_not_allowed"),
        ({"auction": [["Cy", 2], ["Ben", "pass"], ["Ann", "pass"]]}, "bid_invalid"),
        (
            {"pitcher": "Ben", "bid": 2, "high": "Cy", "low": "Cy", "single_trump": True},
            "single_trump_mismatch",
        ),
        (
            {
                "pitcher": "Ben",
                "bid": 2,
                "high": "Ben",
                "low": "Ben",
                "game": "Ann",
                "game_points": {"Ann": 5, "Ben": 9},
            },
            "game_point_mismatch",
        ),
        (
            {
                "pitcher": "Ben",
                "bid": 2,
                "high": "Ben",
                "low": "Ben",
                "game": "Ann",
                "game_points": {"Ann": 9, "Ben": 9},
            },
            "game_point_on_tie",
        ),
        (
            {
                "pitcher": "Ben",
                "bid": 2,
                "high": "Ben",
                "low": "Ben",
                "game_points": {"Ann": 50, "Ben": 31},
            },
            "game_points_invalid",
        ),
    ],
)
def test_refusals_use_the_contract_codes_and_change_nothing(api, body, code):
    state = new_game(api, ["Ann", "Ben", "Cy"])
    response = api.post(f"/games/{state['id']}/hands", body)
    assert response.status_code == 422, response.text
    assert response.get_json()["errors"][0]["code"] == code
    assert api.get(f"/games/{state['id']}").get_json()["hands"] == []


def test_partnerships_need_exactly_four(api):
    response = api.post(
        "/games",
        {"game": "pitch", "players": ["Ann", "Ben", "Cy"], "options": {"partnerships": True}},
    )
    assert response.get_json()["errors"][0]["code"] == "partnership_count"


def test_a_correction_that_makes_a_later_hand_impossible_is_refused(api):
    state = new_game(api, ["Ann", "Ben", "Cy"], target=7)
    state = hand(api, state, {"Ben": 4}, high="Ben", low="Ben", jack="Ben", game="Ben")
    state = hand(api, state, {"Cy": 2}, high="Cy", low="Cy", jack=None, game="Cy")
    state = hand(api, state, {"Ann": 2}, high="Ann", low="Ann", jack=None, game="Ann")
    # Hand 4: Ben pitches again and reaches 7.
    state = hand(api, state, {"Ben": 3}, high="Ben", low="Ben", jack=None, game="Ben")
    assert state["winners"] == ["Ben"]
    api.post(f"/games/{state['id']}/reopen")
    # Corrected, hand 3 is Ben's pitch of 4 making all four: Ben reaches 8 and wins there,
    # so hand 4 could not have been played.
    body = {
        "auction": [["Ann", "pass"], ["Ben", 4], ["Cy", "pass"]],
        "high": "Ben",
        "low": "Ben",
        "jack": "Ben",
        "game": "Ben",
    }
    response = api.patch(f"/games/{state['id']}/hands/3", body)
    assert response.status_code == 422
    error = response.get_json()["errors"][0]
    assert error["code"] == "game_over", error
    assert error["message"].startswith("Hand 4: ")
    assert api.get(f"/games/{state['id']}").get_json()["hands"][2]["pitcher"] == "Ann"
