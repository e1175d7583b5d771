"""The table's changes through the JSON API (API.md, "Table changes"): record, correct and
remove a change; the state's players, left, changes, each hand's players and next.players;
the codes; every answer checked against the served OpenAPI document (the ``api`` fixture)."""

from __future__ import annotations

import pytest
from jsonschema import Draft202012Validator

from tests.openapi_check import document
from tests.replay_check import check_database
from tests.test_table_changes_service import FOUR
from tests.test_table_changes_service import OPENING
from tests.test_table_changes_service import hand


def new_game(api, kind="oh_hell", players=FOUR, **options) -> int:
    body = {"game": kind, "players": list(players), "options": options}
    answer = api.post("/games", body)
    assert answer.status_code == 201, answer.text
    return answer.get_json()["id"]


def opened(api) -> int:
    game = new_game(api)
    for number, entry in enumerate(OPENING, start=1):
        assert api.post(f"/games/{game}/hands", {**entry, "number": number}).status_code == 201
    return game


def codes(answer) -> list[tuple[str, str | None]]:
    return [(error["code"], error.get("field")) for error in answer.get_json()["errors"]]


def test_a_late_join_a_hand_and_the_state_that_says_so(api):
    game = opened(api)
    joined = api.post(f"/games/{game}/changes", {"kind": "join", "player": "Eve", "before_hand": 4})
    assert joined.status_code == 201, joined.text
    state = joined.get_json()
    assert state["players"] == [*FOUR, "Eve"]
    assert state["left"] == []
    (change,) = state["changes"]
    assert change["kind"] == "join" and change["player"] == "Eve"
    assert (change["before_hand"], change["score"]) == (4, 20)
    assert state["next"]["players"] == [*FOUR, "Eve"]
    assert state["next"]["total_hands"] == 10
    fourth = hand(Ann=(0, 0), Ben=(0, 0), Cy=(0, 0), Dee=(2, 2), Eve=(2, 2))
    played = api.post(f"/games/{game}/hands", {**fourth, "number": 4}).get_json()
    assert played["hands"][3]["players"] == [*FOUR, "Eve"]
    assert played["hands"][0]["players"] == FOUR
    assert played["totals"]["Eve"] == 32


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("note", "\x00"),  # PostgreSQL cannot store it: it was a 500 there
        ("note", "re\x07nege"),
        ("note", "re\u200bnege"),
        ("player", "\x01Cy"),
        ("player", "Cy\x00"),
    ],
)
def test_an_adjustment_s_texts_refuse_control_and_invisible_characters(app, api, key, value):
    """An adjustment's note and side are lines of text as every other text of the API: the
    document refuses what the server refuses (422 name_invalid), and nothing is stored."""
    game = opened(api)
    change = {"kind": "adjust", "player": "Cy", "points": 5, "note": "renege", key: value}
    answer = api.post(f"/games/{game}/changes", change)
    assert answer.status_code == 422, answer.text
    ((code, field),) = codes(answer)
    assert code == "name_invalid" and field.rsplit(".", 1)[-1] == key, (code, field)
    assert api.get(f"/games/{game}").get_json()["changes"] == []
    schemas = document(app)["components"]["schemas"]
    properties = schemas["AdjustChange"]["properties"]
    (ref,) = [
        each["$ref"]
        for each in [properties[key], *properties[key].get("anyOf", [])]
        if "$ref" in each
    ]
    assert not Draft202012Validator(schemas[ref.rsplit("/", 1)[1]]).is_valid(value)
    plain = {"kind": "adjust", "player": "Cy", "points": 5, "note": "renege"}
    assert api.post(f"/games/{game}/changes", plain).status_code == 201


def test_a_resent_change_is_409_and_a_stranger_422(api):
    game = opened(api)
    stale = api.post(
        f"/games/{game}/changes", {"kind": "sit_out", "player": "Ann", "before_hand": 2}
    )
    assert stale.status_code == 409
    assert codes(stale)[0][0] == "not_next_hand"
    stranger = api.post(f"/games/{game}/changes", {"kind": "leave", "player": "Zed"})
    assert stranger.status_code == 422
    assert codes(stranger) == [("not_seated", "player")]
    unknown = api.post(f"/games/{game}/changes", {"kind": "swap", "player": "Ann"})
    assert unknown.status_code in (400, 422)
    assert api.get(f"/games/{game}").get_json()["changes"] == []


def test_a_game_that_does_not_allow_a_change_says_so(api):
    game = new_game(api, "spades", ("Ann", "Ben", "Cy", "Dee"))
    refused = api.post(f"/games/{game}/changes", {"kind": "join", "player": "Eve"})
    assert refused.status_code == 422
    assert codes(refused)[0][0] == "change_not_allowed"


def test_a_change_is_corrected_and_removed(api):
    game = opened(api)
    adjusted = api.post(
        f"/games/{game}/changes",
        {"kind": "adjust", "player": "Ann", "points": -10, "note": "Renege"},
    ).get_json()
    change_id = adjusted["changes"][0]["id"]
    assert adjusted["totals"]["Ann"] == 23
    fixed = api.patch(
        f"/games/{game}/changes/{change_id}", {"kind": "adjust", "player": "Ann", "points": -5}
    )
    assert fixed.status_code == 200, fixed.text
    assert fixed.get_json()["totals"]["Ann"] == 28
    # The last entry is the change: undoing hand 3 is refused, removing the change is not.
    assert api.delete(f"/games/{game}/hands/3").status_code == 409
    removed = api.delete(f"/games/{game}/changes/{change_id}")
    assert removed.status_code == 200
    assert removed.get_json()["totals"]["Ann"] == 33
    assert removed.get_json()["changes"] == []
    assert api.delete(f"/games/{game}/changes/{change_id}").status_code == 404


def test_a_change_while_a_hand_is_open_and_in_a_finished_game(api):
    game = opened(api)
    bids = {"bids": {"Ann": 0, "Ben": 0, "Cy": 0, "Dee": 0}, "number": 4}
    assert api.post(f"/games/{game}/hands", bids).status_code == 201
    open_hand = api.post(f"/games/{game}/changes", {"kind": "sit_out", "player": "Ann"})
    assert (open_hand.status_code, codes(open_hand)[0][0]) == (422, "hand_in_progress")
    short = new_game(api, sequence="custom", custom_sizes=[1])
    api.post(f"/games/{short}/hands", {**OPENING[0], "number": 1})
    over = api.post(f"/games/{short}/changes", {"kind": "leave", "player": "Ann"})
    assert over.status_code in (409, 422)
    assert codes(over)[0][0] == "game_over"


def test_backup_and_restore_round_trip_a_game_with_changes(app, api, other_api):
    """Every kind of change Oh Hell takes, a joiner who plays, a substitute: the backup holds
    them in order with the hands; restored elsewhere, the game is the same, and backs up to
    the same document (a version 1 backup, without changes, still restores: test_backup)."""
    game = opened(api)
    for change in (
        {"kind": "join", "player": "Eve", "after": "Ann", "score": "average"},
        {"kind": "sit_out", "player": "Ben"},
        {"kind": "adjust", "player": "Cy", "points": 7, "note": "Found a lost trick"},
    ):
        assert api.post(f"/games/{game}/changes", change).status_code == 201
    fourth = hand(Ann=(0, 0), Eve=(1, 1), Cy=(0, 0), Dee=(3, 3))
    assert api.post(f"/games/{game}/hands", {**fourth, "number": 4}).status_code == 201
    for change in (
        {"kind": "substitute", "player": "Dee", "by": "Gus"},
        {"kind": "leave", "player": "Ann"},
        {"kind": "schedule", "sizes": [5, 2]},
    ):
        assert api.post(f"/games/{game}/changes", change).status_code == 201, change
    before = api.get(f"/games/{game}").get_json()
    document = api.get("/backup").get_json()
    (saved,) = document["games"]
    assert saved["players"] and len(saved["joined"]) == 2
    assert [c["change"]["kind"] for c in saved["changes"]] == [
        "join", "sit_out", "adjust", "substitute", "leave", "schedule"
    ]  # fmt: skip
    assert other_api.post("/restore", document).status_code == 201
    (restored_id,) = [g["id"] for g in other_api.get("/games").get_json()["games"]]
    after = other_api.get(f"/games/{restored_id}").get_json()
    for key in ("players", "left", "totals", "next", "status"):
        assert after[key] == before[key], key
    assert [c["kind"] for c in after["changes"]] == [c["kind"] for c in before["changes"]]
    assert [h["players"] for h in after["hands"]] == [h["players"] for h in before["hands"]]
    again = other_api.get("/backup").get_json()
    assert again["games"][0]["changes"] == [
        {**c, "created_at": c2["created_at"], "updated_at": c2["updated_at"]}
        for c, c2 in zip(saved["changes"], again["games"][0]["changes"], strict=True)
    ]
    with app.app_context():
        assert check_database(app) == 2


def test_the_csv_has_a_column_for_a_joiner_and_a_line_for_each_change(api):
    game = opened(api)
    api.post(f"/games/{game}/changes", {"kind": "join", "player": "Eve"})
    api.post(f"/games/{game}/changes", {"kind": "adjust", "player": "Ann", "points": -10})
    fourth = hand(Ann=(0, 0), Ben=(0, 0), Cy=(0, 0), Dee=(2, 2), Eve=(2, 2))
    api.post(f"/games/{game}/hands", {**fourth, "number": 4})
    sheet = api.client.get(f"/api/v1/games/{game}.csv", headers=api.headers())
    assert sheet.status_code == 200
    lines = sheet.get_data(as_text=True).lstrip("\ufeff").splitlines()
    assert "Eve points" in lines[0] and "Eve total" in lines[0]
    assert lines[4].startswith('Change,"Eve joins, starting on 20."')
    assert lines[5].startswith("Change,Ann: −10 points.")
    assert lines[6].startswith("4,Dee,")
    assert lines[1].split(",")[-2:] == ["", ""]  # Eve was not at the table for hand 1


def test_the_seats_are_corrected_in_a_game_whose_table_changed(api):
    """A wrong name at the start put right after a join: the joiner keeps their seat, the
    changes and hands follow the corrected name; the joiner cannot be put in a seat too."""
    game = opened(api)
    api.post(f"/games/{game}/changes", {"kind": "join", "player": "Eve"})
    api.post(f"/games/{game}/changes", {"kind": "adjust", "player": "Ben", "points": 4})
    fixed = api.patch(f"/games/{game}", {"players": ["Ann", "Bea", "Cy", "Dee"]})
    assert fixed.status_code == 200, fixed.text
    state = fixed.get_json()
    assert state["players"] == ["Ann", "Bea", "Cy", "Dee", "Eve"]
    assert state["changes"][1]["player"] == "Bea"
    assert state["totals"]["Bea"] == 31 + 4
    twice = api.patch(f"/games/{game}", {"players": ["Ann", "Eve", "Cy", "Dee"]})
    assert twice.status_code == 422


def test_a_correction_that_breaks_a_later_hand_names_it(api):
    game = opened(api)
    joined = api.post(f"/games/{game}/changes", {"kind": "join", "player": "Eve"}).get_json()
    fourth = hand(Ann=(0, 0), Ben=(0, 0), Cy=(0, 0), Dee=(2, 2), Eve=(2, 2))
    api.post(f"/games/{game}/hands", {**fourth, "number": 4})
    change_id = joined["changes"][0]["id"]
    # Eve joining as Fay instead: hand 4 names Eve, who is then no player of the game.
    refused = api.patch(f"/games/{game}/changes/{change_id}", {"kind": "join", "player": "Fay"})
    assert refused.status_code == 422
    assert ("unknown_player", "hands/4.bids.Eve") in codes(refused)
    assert "Hand 4" in refused.get_json()["errors"][0]["message"]
    # A correction of hand 2 that breaks nothing later is taken, and one that does is named.
    wrong = hand(Ann=(0, 0), Ben=(0, 0), Cy=(2, 2), Dee=(0, 0))
    assert api.patch(f"/games/{game}/hands/2", wrong).status_code == 200


def test_play_again_takes_the_table_as_it_ended(api):
    """A game that ended with a joiner and without a leaver: the next game seats who was at
    the table at the end, in their seats, the first dealer one seat to the left."""
    game = new_game(api, sequence="custom", custom_sizes=[1, 1])
    api.post(f"/games/{game}/hands", {**OPENING[0], "number": 1})
    api.post(f"/games/{game}/changes", {"kind": "join", "player": "Eve", "after": "Ann"})
    api.post(f"/games/{game}/changes", {"kind": "leave", "player": "Cy"})
    last = hand(Ann=(0, 0), Eve=(0, 0), Ben=(1, 1), Dee=(0, 0))
    assert api.post(f"/games/{game}/hands", {**last, "number": 2}).get_json()["status"] == (
        "finished"
    )
    again = api.post(f"/games/{game}/again")
    assert again.status_code == 201, again.text
    state = again.get_json()
    assert state["players"] == ["Ann", "Eve", "Ben", "Dee"]
    assert state["next"]["dealer"] == "Eve"  # Ann dealt first last time


def test_a_whole_number_sent_as_a_json_float_is_taken_and_true_is_not(api):
    """JSON Schema's integers include -756.0 (schemathesis sends it): the API takes it as
    -756; ``true`` and ``"5"`` stay refused."""
    game = opened(api)
    taken = api.post(
        f"/games/{game}/changes", {"kind": "adjust", "player": "Ann", "points": -756.0}
    )
    assert taken.status_code == 201, taken.text
    assert taken.get_json()["changes"][0]["points"] == -756
    for wrong in (True, "5", 5.5):
        body = {"kind": "adjust", "player": "Ann", "points": wrong}
        assert api.post(f"/games/{game}/changes", body).status_code in (400, 422), wrong
