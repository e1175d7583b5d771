"""Oh Hell through the JSON API: the whole flow, every refusal, corrections, double taps."""

from __future__ import annotations

import pytest

from scorekeeper.games.oh_hell.rules import forbidden_dealer_bid
from scorekeeper.games.oh_hell.rules import hand_sizes

THREE = ["Ann", "Ben", "Cy"]
SEVEN = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus"]


def new_game(api, players=THREE, **options):
    response = api.post("/games", {"game": "oh_hell", "players": players, "options": options})
    assert response.status_code == 201, response.text
    return response.get_json()


def legal_hand(state) -> tuple[dict, dict]:
    """Bids and tricks for the next hand: the first player in order bids everything and takes
    every trick; with the hook the dealer avoids the forbidden value."""
    upcoming = state["next"]
    cards = upcoming["cards"]
    order = upcoming["order"] or state["players"]
    bids = {name: 0 for name in order}
    bids[order[0]] = cards
    if state["options"]["hook"]:
        dealer = upcoming["dealer"]
        others = [bid for name, bid in bids.items() if name != dealer]
        if bids[dealer] == forbidden_dealer_bid(cards, others):
            bids[dealer] = 1 if bids[dealer] == 0 else 0
    tricks = {name: 0 for name in order}
    tricks[order[0]] = cards
    return bids, tricks


def play_hand(api, state) -> dict:
    bids, tricks = legal_hand(state)
    number = state["next"]["number"]
    opened = api.post(f"/games/{state['id']}/hands", {"number": number, "bids": bids})
    assert opened.status_code == 201, opened.text
    assert opened.get_json()["hands"][-1]["status"] == "playing"
    done = api.patch(f"/games/{state['id']}/hands/{number}", {"tricks": tricks})
    assert done.status_code == 200, done.text
    return done.get_json()


def test_three_player_game_of_fifteen_hands_to_a_winner(api):
    state = new_game(api)
    assert state["options"]["max_cards"] == 15
    assert state["next"] == {
        "number": 1,
        "dealer": "Ann",
        "cards": 1,
        "order": ["Ben", "Cy", "Ann"],
        "leader": "Ben",
        "no_trump": False,
        "forbidden_dealer_bid": None,
        "total_hands": 15,
        "schedule": list(range(1, 16)),
        "players": ["Ann", "Ben", "Cy"],
    }
    while state["next"]:
        state = play_hand(api, state)
    assert len(state["hands"]) == 15
    assert state["status"] == "finished"
    assert sum(state["totals"].values()) == sum(
        sum(hand["points"].values()) for hand in state["hands"]
    )
    # The first bidder took everything they bid each hand: 10 + cards for them, 10 for the rest.
    expected = {name: 0 for name in THREE}
    for hand in state["hands"]:
        for name in THREE:
            expected[name] += 10 + (hand["cards"] if name == hand["order"][0] else 0)
    assert state["totals"] == expected
    best = max(expected.values())
    assert state["winners"] == [n for n in THREE if expected[n] == best]
    response = api.post(f"/games/{state['id']}/hands", {"bids": {"Ann": 0, "Ben": 0, "Cy": 0}})
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["code"] == "game_over"


def test_seven_player_up_down_game_with_the_hook_to_the_end(api):
    state = new_game(api, SEVEN, sequence="up-down", hook=True)
    sizes = hand_sizes("up-down", 7)
    assert len(sizes) == 13
    while state["next"]:
        state = play_hand(api, state)
    assert [hand["cards"] for hand in state["hands"]] == sizes
    for hand in state["hands"]:
        assert sum(hand["input"]["bids"].values()) != hand["cards"]
    dealers = [hand["dealer"] for hand in state["hands"]]
    assert dealers[:8] == SEVEN + ["Ann"]
    assert state["status"] == "finished"


def test_the_hook_forbids_the_dealers_value_and_says_so_first(api):
    state = new_game(api, ["Ann", "Ben", "Cy", "Dee"], hook=True, sequence="down", max_cards=5)
    game = state["id"]
    # Hand 1: 5 cards, Ann deals; Ben, Cy, Dee bid 1 + 2 + 0 = 3 so Ann may not bid 2.
    partial = api.post(f"/games/{game}/hands", {"number": 1, "bids": {"Ben": 1, "Cy": 2, "Dee": 0}})
    assert partial.status_code == 201
    body = partial.get_json()
    assert body["hands"][0]["status"] == "bidding"
    assert body["next"]["forbidden_dealer_bid"] == 2
    assert "Ann is the dealer and may not bid 2." in body["notices"]
    refused = api.patch(f"/games/{game}/hands/1", {"bids": {"Ann": 2}})
    assert refused.status_code == 422
    assert refused.get_json()["errors"][0] == {
        "code": "hook_violation",
        "field": "bids.Ann",
        "message": "Hand 1: Ann is the dealer and may not bid 2: the bids would total the 5 cards.",
    }
    ok = api.patch(f"/games/{game}/hands/1", {"bids": {"Ann": 3}})
    assert ok.get_json()["hands"][0]["status"] == "playing"
    assert ok.get_json()["hands"][0]["balance"] == "1 over"


def test_simultaneous_bids_with_the_hook_are_refused_as_a_whole(api):
    state = new_game(api, hook=True, simultaneous=True, sequence="down", max_cards=2)
    assert state["next"]["order"] is None
    response = api.post(f"/games/{state['id']}/hands", {"bids": {"Ann": 1, "Ben": 1, "Cy": 0}})
    assert response.status_code == 422
    error = response.get_json()["errors"][0]
    assert (error["code"], error["field"]) == ("hook_violation", "bids")
    assert "the table must bid again" in error["message"]
    assert api.get(f"/games/{state['id']}").get_json()["hands"] == []


@pytest.mark.parametrize(
    ("body", "code", "field"),
    [
        ({"bids": {"Ann": 0, "Ben": 0, "Cy": 2}}, "bid_out_of_range", "bids.Cy"),
        ({"bids": {"Ann": 0, "Ben": "one", "Cy": 0}}, "wrong_type", "bids.Ben"),
        ({"bids": {"Ann": 0, "Ben": 0, "Zed": 0}}, "unknown_player", "bids.Zed"),
        ({"tricks": {"Ann": 1, "Ben": 0, "Cy": 0}}, "missing_bid", "bids"),
        (
            {"bids": {"Ann": 0, "Ben": 0, "Cy": 0}, "tricks": {"Ann": 1, "Ben": 1, "Cy": 0}},
            "tricks_sum_mismatch",
            "tricks",
        ),
        (
            {"bids": {"Ann": 0, "Ben": 0, "Cy": 0}, "tricks": {"Ann": 2, "Ben": 0, "Cy": 0}},
            "tricks_out_of_range",
            "tricks.Ann",
        ),
        ({"bids": {"Ann": 0, "Ben": 0, "Cy": 0}, "trump": "roses"}, "trump_invalid", "trump"),
    ],
)
def test_refusals_name_the_code_and_field_and_change_nothing(api, body, code, field):
    state = new_game(api)
    response = api.post(f"/games/{state['id']}/hands", body)
    expected_status = 400 if code == "wrong_type" else 422
    assert response.status_code == expected_status
    error = response.get_json()["errors"][0]
    assert (error["code"], error["field"]) == (code, field)
    assert error["message"].startswith("Hand 1: ")
    assert api.get(f"/games/{state['id']}").get_json()["hands"] == []


def test_the_same_hand_sent_twice_is_recorded_once(api):
    state = new_game(api)
    body = {"number": 1, "bids": {"Ann": 0, "Ben": 1, "Cy": 0}}
    assert api.post(f"/games/{state['id']}/hands", body).status_code == 201
    again = api.post(f"/games/{state['id']}/hands", body)
    assert again.status_code == 409
    error = again.get_json()["errors"][0]
    assert error["code"] == "not_next_hand"
    assert "Hand 1 is already recorded" in error["message"]
    assert len(api.get(f"/games/{state['id']}").get_json()["hands"]) == 1


def test_a_correction_rescores_later_hands_and_undo_removes_only_the_last(api):
    state = new_game(api)
    game = state["id"]
    api.post(
        f"/games/{game}/hands",
        {"bids": {"Ann": 1, "Ben": 0, "Cy": 0}, "tricks": {"Ann": 1, "Ben": 0, "Cy": 0}},
    )
    state = api.post(
        f"/games/{game}/hands",
        {"bids": {"Ann": 0, "Ben": 2, "Cy": 0}, "tricks": {"Ann": 0, "Ben": 2, "Cy": 0}},
    ).get_json()
    assert state["totals"] == {"Ann": 21, "Ben": 22, "Cy": 20}
    corrected = api.patch(f"/games/{game}/hands/1", {"tricks": {"Ann": 0, "Ben": 1, "Cy": 0}})
    assert corrected.status_code == 200
    assert corrected.get_json()["hands"][0]["points"] == {"Ann": 0, "Ben": 0, "Cy": 10}
    assert corrected.get_json()["totals"] == {"Ann": 10, "Ben": 12, "Cy": 20}
    refused = api.delete(f"/games/{game}/hands/1")
    assert refused.status_code == 409
    assert (
        "Only the last hand (Hand 2) can be undone." in refused.get_json()["errors"][0]["message"]
    )
    undone = api.delete(f"/games/{game}/hands/2")
    assert undone.status_code == 200
    assert undone.get_json()["totals"] == {"Ann": 0, "Ben": 0, "Cy": 10}
    assert undone.get_json()["next"]["number"] == 2


def test_a_correction_the_rules_forbid_is_refused_and_changes_nothing(api):
    state = new_game(api, hook=True, sequence="down", max_cards=2)
    game = state["id"]
    api.post(
        f"/games/{game}/hands",
        {"bids": {"Ann": 0, "Ben": 0, "Cy": 1}, "tricks": {"Ann": 0, "Ben": 1, "Cy": 1}},
    )
    # Changing a scored hand's bids so that the dealer's bid completes the hook is refused.
    response = api.patch(f"/games/{game}/hands/1", {"bids": {"Ben": 1, "Cy": 1}})
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["code"] == "hook_violation"
    hand = api.get(f"/games/{game}").get_json()["hands"][0]
    assert hand["input"]["bids"] == {"Ann": 0, "Ben": 0, "Cy": 1}


def test_a_finished_game_is_read_only_until_reopened(api):
    state = new_game(api, sequence="down", max_cards=1)
    game = state["id"]
    state = api.post(
        f"/games/{game}/hands",
        {"bids": {"Ann": 1, "Ben": 0, "Cy": 0}, "tricks": {"Ann": 1, "Ben": 0, "Cy": 0}},
    ).get_json()
    assert state["status"] == "finished"
    assert state["winners"] == ["Ann"]
    assert state["locked"] is True
    refused = api.patch(f"/games/{game}/hands/1", {"tricks": {"Ann": 0, "Ben": 1, "Cy": 0}})
    assert refused.status_code == 422
    assert "Reopen it first" in refused.get_json()["errors"][0]["message"]
    assert api.delete(f"/games/{game}/hands/1").status_code == 422
    assert api.post(f"/games/{game}/reopen").get_json()["locked"] is False
    fixed = api.patch(f"/games/{game}/hands/1", {"tricks": {"Ann": 0, "Ben": 1, "Cy": 0}})
    assert fixed.get_json()["winners"] == ["Cy"]
    closed = api.post(f"/games/{game}/close").get_json()
    assert closed["locked"] is True


def test_options_are_checked(api):
    response = api.post("/games", {"game": "oh_hell", "players": THREE, "options": {"jokers": 2}})
    assert response.get_json()["errors"][0]["code"] == "unknown_option"
    response = api.post(
        "/games", {"game": "oh_hell", "players": THREE, "options": {"max_cards": 16}}
    )
    assert response.get_json()["errors"][0] == {
        "code": "option_value",
        "field": "options.max_cards",
        "message": "Most cards in a hand must be from 1 to 15.",
    }
    response = api.post("/games", {"game": "oh_hell", "players": ["Ann", "Ben"]})
    assert response.get_json()["errors"][0]["code"] == "player_count"


def test_new_names_join_the_roster_and_renames_reach_the_game(api):
    state = new_game(api, ["Ann", "Ben", "Cy"])
    api.post(
        f"/games/{state['id']}/hands",
        {"bids": {"Ann": 1, "Ben": 0, "Cy": 0}, "tricks": {"Ann": 1, "Ben": 0, "Cy": 0}},
    )
    roster = {p["name"]: p["id"] for p in api.get("/players").get_json()["players"]}
    assert set(roster) == {"Ann", "Ben", "Cy"}
    api.patch(f"/players/{roster['Ann']}", {"name": "Annie"})
    state = api.get(f"/games/{state['id']}").get_json()
    assert state["players"] == ["Annie", "Ben", "Cy"]
    assert state["hands"][0]["input"]["bids"] == {"Annie": 1, "Ben": 0, "Cy": 0}
    assert state["totals"] == {"Annie": 11, "Ben": 10, "Cy": 10}


def test_first_dealer_is_chosen_by_name(api):
    response = api.post(
        "/games", {"game": "oh_hell", "players": THREE, "first_dealer": "Cy"}
    ).get_json()
    assert response["next"]["dealer"] == "Cy"
    assert response["next"]["order"] == ["Ann", "Ben", "Cy"]


def test_another_account_cannot_see_or_touch_a_game(api, other_api):
    state = new_game(api)
    game = state["id"]
    assert other_api.get(f"/games/{game}").status_code == 404
    assert other_api.post(f"/games/{game}/hands", {"bids": {"Ann": 1}}).status_code == 404
    assert other_api.patch(f"/games/{game}/hands/1", {"tricks": {}}).status_code == 404
    assert other_api.delete(f"/games/{game}/hands/1").status_code == 404
    assert other_api.get("/games").get_json()["games"] == []
    assert api.get(f"/games/{game}").get_json()["hands"] == []


def test_games_list_newest_first_filtered_and_paged(api):
    first = new_game(api)["id"]
    second = new_game(api, ["Ann", "Dee", "Eve"])["id"]
    listed = api.get("/games").get_json()
    assert [game["id"] for game in listed["games"]] == [second, first]
    assert listed["total"] == 2
    assert [g["id"] for g in api.get("/games?player=dee").get_json()["games"]] == [second]
    assert api.get("/games?game=pitch").get_json()["games"] == []
    assert api.get("/games?page=0").status_code == 400


def test_a_game_can_belong_to_a_night_of_the_account_only(app, account, api, other_api):
    from datetime import date

    from scorekeeper.extensions import db
    from scorekeeper.models import Night

    with app.app_context():
        night = Night(account_id=account.id, date=date(2026, 11, 27), name="Friday")
        db.session.add(night)
        db.session.commit()
        night_id = night.id
    body = {"game": "oh_hell", "players": THREE, "night_id": night_id}
    created = api.post("/games", body)
    assert created.status_code == 201
    assert created.get_json()["night_id"] == night_id
    refused = other_api.post("/games", body)
    assert refused.status_code == 404
    assert refused.get_json()["errors"][0]["field"] == "night_id"
