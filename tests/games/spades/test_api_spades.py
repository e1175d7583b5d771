"""Spades through the JSON API (every answer checked against the served OpenAPI document): a
whole game to the target, nil and blind nil, bags, the set-out, every refusal code,
corrections, undo, statistics, CSV, backup and restore, and the shared live view."""

from __future__ import annotations

import csv
import io

import pytest

from tests.bid_games import restored_elsewhere
from tests.openapi_check import document

FOUR = ["Ann", "Ben", "Cy", "Dee"]
US, THEM = "Ann & Cy", "Ben & Dee"


def new_game(api, players=FOUR, **options):
    response = api.post("/games", {"game": "spades", "players": players, "options": options})
    assert response.status_code == 201, response.text
    return response.get_json()


def by_name(*values: int) -> dict:
    return dict(zip(FOUR, values, strict=True))


def record(api, game: int, bids, tricks, blind=None, status=201) -> dict:
    body = {"bids": by_name(*bids), "tricks": by_name(*tricks)}
    if blind:
        body["blind_nil"] = blind
    response = api.post(f"/games/{game}/hands", body)
    assert response.status_code == status, response.text
    return response.get_json()


def test_the_document_names_spades_and_its_hands(app):
    schemas = document(app)["components"]["schemas"]
    assert "SpadesState" in schemas
    assert set(schemas["SpadesEntry"]["properties"]) == {"bids", "blind_nil", "tricks"}
    assert {"contract", "made", "bags", "bags_total", "nil"} <= set(
        schemas["SpadesHand"]["properties"]
    )
    assert "bags" in schemas["SpadesNext"]["properties"]


def test_a_whole_game_to_500_with_nils_a_set_and_a_bag_penalty(api):
    state = new_game(api, blind_nil=True)
    assert state["teams"] == [["Ann", "Cy"], ["Ben", "Dee"]]
    assert state["next"]["order"] == ["Ben", "Cy", "Dee", "Ann"]
    assert state["next"]["bags"] == {US: 0, THEM: 0}
    game = state["id"]
    # 1: Ben's nil fails (-100, his trick a bag); both contracts made.
    state = record(api, game, (3, 0, 4, 4), (4, 1, 4, 4))
    assert state["totals"] == {US: 71, THEM: -60}
    assert state["hands"][0]["nil"][THEM] == [{"player": "Ben", "blind": False, "made": False}]
    # 2: 131 behind, Ben may bid blind nil, and makes it (+200).
    assert state["next"]["blind_nil_allowed"] == {US: False, THEM: True}
    state = record(api, game, (3, 0, 3, 5), (4, 0, 4, 5), blind=["Ben"])
    assert state["hands"][1]["points"] == {US: 62, THEM: 250}
    # 3: Ann & Cy are set: -10 a trick bid.
    state = record(api, game, (7, 1, 5, 0), (5, 2, 5, 1))
    assert state["hands"][2]["made"] == {US: False, THEM: True}
    assert state["totals"] == {US: 13, THEM: 101}
    # 4-5: Ann & Cy make a nil and pile up bags: ten of them cost 100.
    state = record(api, game, (0, 2, 2, 3), (0, 2, 8, 3))
    assert state["hands"][3]["nil"][US] == [{"player": "Ann", "blind": False, "made": True}]
    assert state["hands"][3]["bags_total"] == {US: 9, THEM: 3}
    state = record(api, game, (2, 2, 2, 3), (4, 2, 4, 3))
    assert state["hands"][4]["bag_penalty"] == {US: -100, THEM: 0}
    assert state["hands"][4]["bags_total"] == {US: 3, THEM: 3}
    assert any("reached 10 bags in hand 5" in notice for notice in state["notices"])
    while state["status"] != "finished":
        state = record(api, game, (5, 2, 5, 1), (5, 2, 5, 1))
    assert state["winners"] == [US] and state["totals"][US] >= 500
    assert state["next"] is None and state["locked"] is True
    assert sum(state["totals"].values()) == sum(sum(h["points"].values()) for h in state["hands"])
    over = api.post(f"/games/{game}/hands", {"bids": by_name(3, 3, 3, 4)})
    assert over.status_code == 422
    assert over.get_json()["errors"][0]["code"] == "game_over"


def test_bids_open_the_hand_and_tricks_complete_it(api):
    game = new_game(api)["id"]
    opened = api.post(f"/games/{game}/hands", {"number": 1, "bids": by_name(4, 3, 2, 3)})
    assert opened.status_code == 201
    hand = opened.get_json()["hands"][0]
    assert (hand["status"], hand["contract"], hand["made"]) == ("playing", {US: 6, THEM: 6}, None)
    assert "Contracts: Ann & Cy 6, Ben & Dee 6." in opened.get_json()["notices"]
    done = api.patch(f"/games/{game}/hands/1", {"tricks": by_name(4, 3, 3, 3)})
    assert done.get_json()["hands"][0]["points"] == {US: 61, THEM: 60}
    assert (
        api.post(f"/games/{game}/hands", {"number": 1, "bids": by_name(4, 3, 2, 3)}).status_code
        == 409
    )


def test_the_set_out_ends_the_game(api):
    game = new_game(api)["id"]
    state = record(api, game, (7, 1, 6, 0), (0, 13, 0, 0))  # Ann & Cy set -130, Dee's nil made
    state = record(api, game, (7, 1, 6, 0), (0, 13, 0, 0))
    assert state["totals"][US] == -260
    assert state["status"] == "finished" and state["winners"] == [THEM]
    assert any("set out" in notice for notice in state["notices"])


@pytest.mark.parametrize(
    ("body", "code", "field"),
    [
        ({"bids": by_name(14, 0, 0, 0)}, "bid_out_of_range", "bids.Ann"),
        ({"bids": {"Ann": 3, "Ben": 3, "Cy": 3}}, "missing_bid", "bids.Dee"),
        ({"tricks": by_name(4, 3, 3, 3)}, "missing_bid", "bids"),
        ({"bids": {**by_name(3, 3, 3, 3), "Zed": 1}}, "unknown_player", "bids.Zed"),
        ({"bids": {**by_name(3, 3, 3, 3), "Ann": "three"}}, "wrong_type", "bids.Ann"),
        ({"bids": by_name(3, 3, 3, 3), "blind_nil": ["Ben"]}, "blind_nil_not_allowed", "blind_nil"),
        ({"bids": by_name(3, 3, 3, 3), "blind_nil": ["Zed"]}, "unknown_player", "blind_nil.0"),
        ({"bids": by_name(3, 3, 3, 3), "blind_nil": "Ben"}, "wrong_type", "blind_nil"),
        (
            {"bids": by_name(3, 3, 3, 3), "tricks": by_name(4, 4, 4, 4)},
            "tricks_sum_mismatch",
            "tricks",
        ),
        (
            {"bids": by_name(3, 3, 3, 3), "tricks": by_name(14, 0, 0, 0)},
            "tricks_out_of_range",
            "tricks.Ann",
        ),
        ({"bids": by_name(3, 3, 3, 3), "tricks": {"Ann": 13}}, "missing_tricks", "tricks.Ben"),
    ],
)
def test_refusals_name_the_code_and_field_and_change_nothing(api, body, code, field):
    game = new_game(api)["id"]
    response = api.post(f"/games/{game}/hands", body)
    assert response.status_code == (400 if code == "wrong_type" else 422)
    error = response.get_json()["errors"][0]
    assert (error["code"], error["field"]) == (code, field)
    assert api.get(f"/games/{game}").get_json()["hands"] == []


def test_blind_nil_only_while_the_team_is_100_behind(api):
    game = new_game(api, blind_nil=True)["id"]
    refused = api.post(f"/games/{game}/hands", {"bids": by_name(3, 0, 4, 4), "blind_nil": ["Ben"]})
    assert refused.status_code == 422
    error = refused.get_json()["errors"][0]
    assert error["code"] == "blind_nil_not_allowed"
    assert "Ben & Dee are not behind at the start of this hand" in error["message"]
    record(api, game, (3, 3, 3, 3), (4, 3, 3, 3))  # 61 to 60: one behind
    refused = api.post(f"/games/{game}/hands", {"bids": by_name(3, 0, 4, 4), "blind_nil": ["Ben"]})
    assert "behind by only 1" in refused.get_json()["errors"][0]["message"]
    wrong_bid = api.post(f"/games/{game}/hands", {"bids": by_name(3, 2, 4, 4), "blind_nil": ["Cy"]})
    codes = [(e["code"], e["field"]) for e in wrong_bid.get_json()["errors"]]
    # Cy's team is ahead, and a blind nil bidder bids 0, not 4: both are said at once.
    assert codes == [("blind_nil_not_allowed", "blind_nil"), ("bid_out_of_range", "bids.Cy")]


def test_new_game_refusals(api):
    three = api.post("/games", {"game": "spades", "players": FOUR[:3]})
    assert three.get_json()["errors"][0]["code"] == "player_count"
    bad = api.post(
        "/games", {"game": "spades", "players": FOUR, "options": {"target": 400, "jokers": 2}}
    )
    assert [(e["code"], e["field"]) for e in bad.get_json()["errors"]] == [
        ("unknown_option", "options.jokers"),
        ("option_value", "options.target"),
    ]


def test_a_correction_rescores_the_bags_of_later_hands_and_undo_removes_the_last(api):
    game = new_game(api)["id"]
    record(api, game, (3, 0, 4, 4), (4, 1, 4, 4))
    record(api, game, (3, 3, 3, 3), (4, 3, 3, 3))
    corrected = api.patch(f"/games/{game}/hands/1", {"tricks": by_name(5, 0, 4, 4)})
    assert corrected.status_code == 200
    hands = corrected.get_json()["hands"]
    assert hands[0]["points"] == {US: 72, THEM: 140}
    assert hands[1]["bags_total"] == {US: 3, THEM: 0}
    refused = api.patch(f"/games/{game}/hands/1", {"tricks": by_name(5, 1, 4, 4)})
    assert refused.get_json()["errors"][0]["code"] == "tricks_sum_mismatch"
    assert api.delete(f"/games/{game}/hands/1").status_code == 409
    undone = api.delete(f"/games/{game}/hands/2").get_json()
    assert undone["totals"] == {US: 72, THEM: 140} and undone["next"]["bags"] == {US: 2, THEM: 0}


def finished_game(api) -> dict:
    state = new_game(api, target=250)
    record(api, state["id"], (0, 3, 5, 4), (0, 3, 6, 4))  # Ann's nil made, a bag
    record(api, state["id"], (1, 0, 5, 4), (1, 1, 6, 5))  # Ben's nil fails
    while state["status"] != "finished":
        state = record(api, state["id"], (5, 2, 5, 1), (5, 2, 5, 1))
    return state


def test_statistics_leaderboard_csv_backup_and_the_shared_view(app, api):
    state = finished_game(api)
    roster = {p["name"]: p["id"] for p in api.get("/players").get_json()["players"]}
    ann = api.get(f"/players/{roster['Ann']}/stats").get_json()["games"]["spades"]
    hands = len(state["hands"])
    assert (ann["played"], ann["won"], ann["hands"]) == (1, 1, hands)
    bags = sum(hand["bags"][US] for hand in state["hands"])
    assert ann["figures"]["nils"] == 1 and ann["figures"]["nils_made"] == 1
    assert ann["figures"]["contracts"] == ann["figures"]["contracts_made"] == hands
    assert ann["figures"]["bags"] == bags
    ben = api.get(f"/players/{roster['Ben']}/stats").get_json()["games"]["spades"]
    assert (ben["figures"]["nils"], ben["figures"].get("nils_made")) == (1, 0)
    board = api.get("/leaderboards/spades").get_json()["players"]
    assert {line["player"]["name"]: line["won"] for line in board} == {
        "Ann": 1, "Cy": 1, "Ben": 0, "Dee": 0,
    }  # fmt: skip

    rows = list(
        csv.reader(io.StringIO(api.get(f"/games/{state['id']}.csv").text.removeprefix("\ufeff")))
    )
    header = rows[0]
    assert header[:2] == ["Hand", "Dealer"] and f"{US} bags total" in header
    assert rows[1][header.index(f"{US} bags")] == "1"
    assert rows[-1][:2] == ["Winner", US]

    url = api.post(f"/games/{state['id']}/share").get_json()["url"]
    shared = app.test_client().get(url.removeprefix("http://localhost"))
    assert shared.status_code == 200 and "spades-sheet" in shared.text

    other = restored_elsewhere(app, api)
    copy = other.get("/games").get_json()["games"][0]
    again = other.get(f"/games/{copy['id']}").get_json()
    assert again["totals"] == state["totals"] and again["hands"] == state["hands"]


def test_the_shared_view_shows_the_contracts_and_nils(app, api):
    game = new_game(api, blind_nil=True)["id"]
    record(api, game, (3, 0, 4, 4), (4, 1, 4, 4))
    api.post(f"/games/{game}/hands", {"bids": by_name(3, 0, 3, 5), "blind_nil": ["Ben"]})
    url = api.post(f"/games/{game}/share").get_json()["url"]
    page = app.test_client().get(url.removeprefix("http://localhost")).text
    assert "Hand 2" in page
    assert '<span class="who">Ben</span><span class="bid">blind nil</span>' in page
    assert "Ann &amp; Cy: contract 6" in page and "Ben &amp; Dee: contract 5" in page
