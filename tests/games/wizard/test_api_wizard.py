"""Wizard through the JSON API (every answer checked against the served OpenAPI document):
a whole game, the trump, the hook, every refusal code, corrections, undo, statistics, CSV,
backup and restore, and the shared live view."""

from __future__ import annotations

import csv
import io

import pytest

from scorekeeper.games.wizard.rules import round_points
from tests.bid_games import restored_elsewhere
from tests.openapi_check import document

THREE = ["Ann", "Ben", "Cy"]


def new_game(api, players=THREE, **options):
    response = api.post("/games", {"game": "wizard", "players": players, "options": options})
    assert response.status_code == 201, response.text
    return response.get_json()


def legal_round(state) -> tuple[dict, dict]:
    """The first bidder bids every card and takes every trick; the others bid and take 0 (with
    the hook, the dealer bids 1 more when 0 is forbidden and misses)."""
    upcoming = state["next"]
    order = upcoming["order"]
    bids = dict.fromkeys(order, 0)
    bids[order[0]] = upcoming["cards"]
    if upcoming["hook"] and sum(bids.values()) == upcoming["cards"]:
        bids[upcoming["dealer"]] = 1
    tricks = dict.fromkeys(order, 0)
    tricks[order[0]] = upcoming["cards"]
    return bids, tricks


def play_round(api, state) -> dict:
    bids, tricks = legal_round(state)
    number = state["next"]["number"]
    opened = api.post(f"/games/{state['id']}/hands", {"number": number, "bids": bids})
    assert opened.status_code == 201, opened.text
    assert opened.get_json()["hands"][-1]["status"] == "playing"
    done = api.patch(f"/games/{state['id']}/hands/{number}", {"tricks": tricks})
    assert done.status_code == 200, done.text
    return done.get_json()


def test_the_document_names_wizard_and_its_hands(app):
    schemas = document(app)["components"]["schemas"]
    assert "WizardState" in schemas and "WizardHandBody" in schemas
    entry = schemas["WizardEntry"]["properties"]
    assert {"bids", "tricks", "trump", "trump_chosen"} <= set(entry)
    assert set(schemas["WizardOptions"]["properties"]) == {"bids_may_not_equal", "hook_min_cards"}


@pytest.mark.parametrize(("players", "rounds"), [(3, 20), (4, 15), (5, 12), (6, 10)])
def test_a_whole_game_for_each_table_size(api, players, rounds):
    names = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"][:players]
    state = new_game(api, names, bids_may_not_equal=players == 4)
    assert state["next"]["total_hands"] == rounds
    while state["next"]:
        state = play_round(api, state)
    hands = state["hands"]
    assert [hand["cards"] for hand in hands] == list(range(1, rounds + 1))
    assert hands[-1]["no_trump"] is True
    assert state["status"] == "finished"
    expected = dict.fromkeys(names, 0)
    for hand in hands:
        for name in names:
            expected[name] += round_points(
                hand["input"]["bids"][name], hand["input"]["tricks"][name]
            )
        if players == 4:
            assert sum(hand["input"]["bids"].values()) != hand["cards"]
    assert state["totals"] == expected
    best = max(expected.values())
    assert state["winners"] == [name for name in names if expected[name] == best]
    over = api.post(f"/games/{state['id']}/hands", {"bids": dict.fromkeys(names, 0)})
    assert over.status_code == 422
    assert over.get_json()["errors"][0]["code"] == "game_over"


def test_the_trump_reminder_and_the_hook_before_the_dealer_bids(api):
    state = new_game(api, ["Ann", "Ben", "Cy", "Dee"], bids_may_not_equal=True)
    game = state["id"]
    for _ in range(2):
        state = play_round(api, state)
    # Round 3: Cy deals; Dee, Ann and Ben bid 1 + 0 + 1 so Cy may not bid 1.
    partial = api.post(
        f"/games/{game}/hands",
        {
            "number": 3,
            "bids": {"Dee": 1, "Ann": 0, "Ben": 1},
            "trump": "clubs",
            "trump_chosen": True,
        },
    )
    assert partial.status_code == 201
    body = partial.get_json()
    assert body["hands"][2]["status"] == "bidding"
    assert body["next"]["forbidden_dealer_bid"] == 1
    assert "Cy is the dealer and may not bid 1." in body["notices"]
    assert "A Wizard was turned: Cy chose clubs as trump." in body["notices"]
    refused = api.patch(f"/games/{game}/hands/3", {"bids": {"Cy": 1}})
    assert refused.status_code == 422
    assert refused.get_json()["errors"] == [
        {
            "code": "hook_violation",
            "field": "bids.Cy",
            "message": "Round 3: Cy is the dealer and may not bid 1: "
            "the bids would total the 3 cards.",
        }
    ]
    ok = api.patch(f"/games/{game}/hands/3", {"bids": {"Cy": 2}}).get_json()
    hand = ok["hands"][2]
    assert (hand["status"], hand["trump"], hand["trump_chosen"]) == ("playing", "clubs", True)
    assert hand["balance"] == "1 over"
    jester = api.patch(f"/games/{game}/hands/3", {"trump": "none", "trump_chosen": False})
    assert jester.get_json()["hands"][2]["no_trump"] is True


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
        (
            {"bids": {"Ann": 0, "Ben": 0, "Cy": 0}, "tricks": {"Ann": 1, "Ben": 0}},
            "missing_tricks",
            "tricks.Cy",
        ),
        ({"bids": {"Ann": 0, "Ben": 0, "Cy": 0}, "trump": "roses"}, "trump_invalid", "trump"),
        (
            {"bids": {"Ann": 0, "Ben": 0, "Cy": 0}, "trump": "none", "trump_chosen": True},
            "trump_invalid",
            "trump",
        ),
        (
            {"bids": {"Ann": 0, "Ben": 0, "Cy": 0}, "trump_chosen": "yes"},
            "wrong_type",
            "trump_chosen",
        ),
        ({"bids": {"Ann": 0, "Ben": 0, "Cy": 0}, "jesters": 4}, "wrong_type", "jesters"),
    ],
)
def test_refusals_name_the_code_and_field_and_change_nothing(api, body, code, field):
    state = new_game(api)
    response = api.post(f"/games/{state['id']}/hands", body)
    assert response.status_code == (400 if code == "wrong_type" else 422)
    error = response.get_json()["errors"][0]
    assert (error["code"], error["field"]) == (code, field)
    if response.status_code == 422:
        assert error["message"].startswith("Round 1: ")
    assert api.get(f"/games/{state['id']}").get_json()["hands"] == []


def test_several_problems_come_back_at_once(api):
    state = new_game(api)
    response = api.post(
        f"/games/{state['id']}/hands",
        {"bids": {"Ann": 3, "Ben": 2, "Cy": 0}, "trump": "roses"},
    )
    assert [(e["code"], e["field"]) for e in response.get_json()["errors"]] == [
        ("bid_out_of_range", "bids.Ann"),
        ("bid_out_of_range", "bids.Ben"),
        ("trump_invalid", "trump"),
    ]


def test_a_suit_in_the_last_round_is_refused(api):
    state = new_game(api, ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"])
    while state["next"]["number"] < 10:
        state = play_round(api, state)
    assert state["next"]["no_trump"] is True
    bids, _ = legal_round(state)
    response = api.post(f"/games/{state['id']}/hands", {"bids": bids, "trump": "spades"})
    assert response.status_code == 422
    error = response.get_json()["errors"][0]
    assert (error["code"], error["field"]) == ("trump_invalid", "trump")
    assert "Every card is dealt in the last round (round 10)" in error["message"]


@pytest.mark.parametrize(
    ("players", "options", "code", "field"),
    [
        (["Ann", "Ben"], {}, "player_count", "players"),
        (["Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus"], {}, "player_count", "players"),
        (THREE, {"jokers": True}, "unknown_option", "options.jokers"),
        (THREE, {"hook_min_cards": 21}, "option_value", "options.hook_min_cards"),
        (THREE, {"bids_may_not_equal": "yes"}, "option_value", "options.bids_may_not_equal"),
    ],
)
def test_new_game_refusals(api, players, options, code, field):
    response = api.post("/games", {"game": "wizard", "players": players, "options": options})
    assert response.status_code in (400, 422)
    assert (
        response.get_json()["errors"][0]["code"],
        response.get_json()["errors"][0]["field"],
    ) == (
        code,
        field,
    )


def test_a_double_send_is_409_and_recorded_once(api):
    state = new_game(api)
    body = {"number": 1, "bids": {"Ann": 0, "Ben": 1, "Cy": 0}}
    assert api.post(f"/games/{state['id']}/hands", body).status_code == 201
    again = api.post(f"/games/{state['id']}/hands", body)
    assert again.status_code == 409
    assert again.get_json()["errors"][0]["code"] == "not_next_hand"
    assert len(api.get(f"/games/{state['id']}").get_json()["hands"]) == 1


def test_a_correction_rescores_later_rounds_and_undo_removes_the_last(api):
    state = new_game(api)
    game = state["id"]
    one = {"Ann": 1, "Ben": 0, "Cy": 0}
    api.post(f"/games/{game}/hands", {"bids": one, "tricks": one})
    two = {"Ann": 0, "Ben": 2, "Cy": 0}
    state = api.post(f"/games/{game}/hands", {"bids": two, "tricks": two}).get_json()
    assert state["totals"] == {"Ann": 50, "Ben": 60, "Cy": 40}
    corrected = api.patch(f"/games/{game}/hands/1", {"tricks": {"Ann": 0, "Ben": 1, "Cy": 0}})
    assert corrected.status_code == 200
    assert corrected.get_json()["hands"][0]["points"] == {"Ann": -10, "Ben": -10, "Cy": 20}
    assert corrected.get_json()["totals"] == {"Ann": 10, "Ben": 30, "Cy": 40}
    assert api.delete(f"/games/{game}/hands/1").status_code == 409
    undone = api.delete(f"/games/{game}/hands/2")
    assert undone.status_code == 200
    assert undone.get_json()["totals"] == {"Ann": -10, "Ben": -10, "Cy": 20}


def finished_game(api) -> dict:
    state = new_game(api)
    while state["next"]:
        state = play_round(api, state)
    return state


def test_statistics_leaderboard_csv_backup_and_the_shared_view(app, api):
    state = finished_game(api)
    ann = next(p for p in api.get("/players").get_json()["players"] if p["name"] == "Ann")
    figures = api.get(f"/players/{ann['id']}/stats").get_json()["games"]["wizard"]
    zero = sum(1 for hand in state["hands"] if hand["input"]["bids"]["Ann"] == 0)
    assert (figures["played"], figures["hands"]) == (1, 20)
    assert figures["figures"] == {
        "bids": 20,
        "bids_made": 20,
        "zero_bids": zero,
        "zero_bids_made": zero,
        "tricks_off": 0,
    }
    board = api.get("/leaderboards/wizard").get_json()["players"]
    assert {line["player"]["name"] for line in board} == set(THREE)

    sheet = api.get(f"/games/{state['id']}.csv")
    rows = list(csv.reader(io.StringIO(sheet.text.removeprefix("\ufeff"))))
    assert rows[0][:5] == ["Round", "Dealer", "Cards", "Trump", "Dealer chose trump"]
    assert len(rows) == 1 + 20 + 2  # header, the rounds, total, winner

    url = api.post(f"/games/{state['id']}/share").get_json()["url"]
    shared = app.test_client().get(url.removeprefix("http://localhost"))
    assert shared.status_code == 200
    assert "wizard-sheet" in shared.text and "Game over" in shared.text

    other = restored_elsewhere(app, api)
    copy = other.get("/games").get_json()["games"][0]
    assert other.get(f"/games/{copy['id']}").get_json()["totals"] == state["totals"]


def test_the_shared_view_shows_the_trump_and_who_bid_what(app, api):
    state = new_game(api)
    game = state["id"]
    api.post(
        f"/games/{game}/hands",
        {"bids": {"Ann": 1, "Ben": 0, "Cy": 0}, "tricks": {"Ann": 1, "Ben": 0, "Cy": 0}},
    )
    api.post(
        f"/games/{game}/hands",
        {"bids": {"Ben": 1, "Cy": 2}, "trump": "hearts", "trump_chosen": True},
    )
    url = api.post(f"/games/{game}/share").get_json()["url"]
    page = app.test_client().get(url.removeprefix("http://localhost")).text
    assert "Round 2" in page
    assert "Trump ♥ · the dealer chose" in page
    assert '<span class="who">Cy</span><span class="bid">2</span>' in page
    assert '<span class="who">Ann</span><span class="bid">·</span>' in page
