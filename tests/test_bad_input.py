"""The drills' bad input (issue 15, findings 1-4 and 8), on the pages and the API: each is
answered with its 4xx and the error format, never a 500, and changes nothing stored.

Numbers beyond the database's integers, Unicode digits that ``str.isdigit`` takes (``²``,
``①``), JSON nested too deeply, lone surrogates and NUL characters (in a restored backup
too), options given as floats. What test_request_checks.py and test_names.py cover (ids in
URLs, 405 Allow, deep JSON and surrogates on /players, hidden characters in names) is not
repeated here.
"""

from __future__ import annotations

import json

import pytest
import sqlalchemy as sa

from scorekeeper.extensions import db
from tests.conftest import Api
from tests.conftest import make_account
from tests.conftest import new_token
from tests.pages import game_id
from tests.pages import start_game

HUGE = [str(2**31), str(2**63), "4611686018427387904", "9" * 40]
DIGITS = ["²", "①", "٣", "-1", "1.0", "0x1", " "]
#: Tables whose rows a refused request must leave as they were (login counters may move).
WATCHED = [
    "account",
    "api_token",
    "player",
    "night",
    "rule_set",
    "game",
    "seat",
    "hand_entry",
    "hand_result",
    "player_stat",
]


def snapshot(app) -> dict[str, list]:
    """Every row of the watched tables (tokens without their last use)."""
    with app.app_context():
        found = {}
        for name in WATCHED:
            table = db.metadata.tables[name]
            columns = [c for c in table.columns if c.name not in ("last_used_at",)]
            rows = db.session.execute(sa.select(*columns)).all()
            found[name] = sorted(repr(tuple(row)) for row in rows)
        return found


@pytest.fixture
def games_at_table(app, table):
    """An Oh Hell, an Oklahoma Gin and a Pitch game, by kind."""
    return {
        "oh_hell": game_id(start_game(table, app, "oh_hell", {"Ann": 1, "Ben": 2, "Cy": 3})),
        "oklahoma_gin": game_id(start_game(table, app, "oklahoma_gin", {"Ann": 1, "Ben": 2})),
        "pitch": game_id(start_game(table, app, "pitch", {"Ann": 1, "Ben": 2, "Cy": 3})),
    }


@pytest.fixture
def night(table) -> int:
    response = table.post("/nights/new", data={"date": "2026-11-27"})
    assert response.status_code == 302, response.text
    return int(response.headers["Location"].rstrip("/").rsplit("/", 1)[1])


@pytest.fixture
def table_api(app, table):
    """The API for the same account as ``table``."""
    client = app.test_client()
    return Api(client, new_token(client))


def assert_page_refused(response, status: int | tuple[int, ...]) -> None:
    statuses = status if isinstance(status, tuple) else (status,)
    assert response.status_code in statuses, (response.status_code, response.text[:500])
    assert "Something went wrong" not in response.text


def assert_api_refused(response, status: int | tuple[int, ...], field: str | None = ...):
    statuses = status if isinstance(status, tuple) else (status,)
    assert response.status_code in statuses, (response.status_code, response.text[:500])
    errors = response.get_json()["errors"]
    assert errors and all(error["code"] and error["message"] for error in errors)
    if field is not ...:
        assert field in [error["field"] for error in errors], errors
    return errors


# Finding 1: numbers beyond the database's integers --------------------------------------------


def test_page_numbers_beyond_range_are_400(app, api, logged_in):
    before = snapshot(app)
    for page in HUGE:
        assert_api_refused(api.get(f"/games?page={page}"), 400, "page")
        assert_api_refused(api.get(f"/nights?page={page}"), 400, "page")
        assert_page_refused(logged_in.get(f"/nights/?page={page}"), 400)
    assert snapshot(app) == before


def test_a_new_game_in_a_night_beyond_range_is_not_found(app, api):
    before = snapshot(app)
    for night_id in [2**31, 2**63, 10**30, -1, 0, 1.0, "1"]:
        sent = {"game": "oh_hell", "players": ["Ann", "Ben", "Cy"], "night_id": night_id}
        assert_api_refused(api.post("/games", sent), (400, 404, 422), "night_id")
    assert snapshot(app) == before


def test_a_hand_number_beyond_range_is_refused(app, table_api, games_at_table):
    game = games_at_table["oh_hell"]
    before = snapshot(app)
    sent = {"bids": {"Ann": 1, "Ben": 0, "Cy": 0}, "tricks": {"Ann": 1, "Ben": 0, "Cy": 0}}
    for number in [2**31, 2**63, 10**30, -(2**63) - 1, 1.0, "1"]:
        answer = table_api.post(f"/games/{game}/hands", {**sent, "number": number})
        assert_api_refused(answer, (400, 409, 422), "number")
    assert snapshot(app) == before


def test_a_game_id_for_a_night_that_is_no_id_is_400(app, table, night, games_at_table):
    before = snapshot(app)
    for raw in [*HUGE, *DIGITS, ""]:
        response = table.post(f"/nights/{night}/games", data={"game_id": raw})
        assert_page_refused(response, 400)
    assert snapshot(app) == before


def test_a_rule_set_beyond_range_is_not_found(app, table):
    before = snapshot(app)
    for raw in HUGE:
        assert_page_refused(table.get(f"/games/new?game=oh_hell&rule_set={raw}"), 404)
        for field in ("rule_set", "forget_rule_set"):
            response = table.post("/games/new?game=oh_hell", data={"game": "oh_hell", field: raw})
            assert_page_refused(response, 404)
    assert snapshot(app) == before


# Finding 2: Unicode digits that str.isdigit() takes ------------------------------------------


def test_unicode_digits_as_a_page_number_are_400(app, api, logged_in):
    before = snapshot(app)
    for page in DIGITS:
        assert_api_refused(api.get(f"/games?page={page}"), 400, "page")
        assert_api_refused(api.get(f"/nights?page={page}"), 400, "page")
        assert_page_refused(logged_in.get(f"/nights/?page={page}"), 400)
    assert snapshot(app) == before


def test_a_night_argument_that_is_no_id_is_ignored(app, table):
    """``/games/new?night=`` only preselects a night: an id that cannot be one is none."""
    before = snapshot(app)
    for raw in ["²", "①", *HUGE]:
        assert table.get(f"/games/new?night={raw}").status_code == 200
        assert table.get(f"/games/new?game=oh_hell&night={raw}").status_code == 200
    assert snapshot(app) == before


def test_a_rule_set_field_in_unicode_digits_is_not_found(app, table):
    before = snapshot(app)
    for raw in ["²", "①"]:
        assert table.get(f"/games/new?game=oh_hell&rule_set={raw}").status_code == 200
        for field in ("rule_set", "forget_rule_set"):
            response = table.post("/games/new?game=oh_hell", data={"game": "oh_hell", field: raw})
            assert_page_refused(response, 404)
    assert snapshot(app) == before


def test_a_hand_form_number_that_is_no_number_is_refused(app, table, games_at_table):
    game = games_at_table["oh_hell"]
    before = snapshot(app)
    for raw in ["²", "①", "٣", *HUGE]:
        form = {"phase": "bids", "number": raw, "bid-0": "1", "bid-1": "0", "bid-2": "0"}
        response = table.post(f"/games/{game}/hands", data=form)
        assert_page_refused(response, (400, 409, 422))
    assert snapshot(app) == before


GIN_ROUND = {
    "phase": "round",
    "number": "1",
    "upcard": "5",
    "result": "knock",
    "knocker": "0",
    "knocker_deadwood": "3",
    "opponent_deadwood": "20",
}


@pytest.mark.parametrize("field", ["knocker", "knocker_deadwood", "opponent_deadwood"])
def test_gin_form_numbers_that_are_no_numbers_are_422(app, table, games_at_table, field):
    game = games_at_table["oklahoma_gin"]
    before = snapshot(app)
    for raw in ["²", "①", "٣", *HUGE]:
        response = table.post(f"/games/{game}/hands", data={**GIN_ROUND, field: raw})
        assert_page_refused(response, (400, 422))
        assert field in response.text or "knock" in response.text
    assert snapshot(app) == before


PITCH_BIDDING = {"number": "1", "phase": "auction", "quick": "1", "pitcher": "0", "bid": "2"}


@pytest.mark.parametrize("field", ["pitcher", "bid", "order"])
def test_pitch_form_numbers_that_are_no_numbers_are_refused(app, table, games_at_table, field):
    game = games_at_table["pitch"]
    before = snapshot(app)
    for raw in ["²", "①", *HUGE]:
        form = {**PITCH_BIDDING, field: raw}
        if field == "order":  # the full auction: the order of seats, then each seat's call
            form = {"number": "1", "phase": "auction", "order": f"{raw},0,1,2", "call-0": "x"}
            form |= {"call-1": "pass", "call-2": "pass"}
        assert_page_refused(table.post(f"/games/{game}/hands", data=form), (400, 422))
    assert snapshot(app) == before


def test_pitch_point_seats_that_are_no_numbers_are_422(app, table, games_at_table):
    game = games_at_table["pitch"]
    assert table.post(f"/games/{game}/hands", data=PITCH_BIDDING).status_code == 302
    before = snapshot(app)
    for field in ("pitcher_seat", "high", "low", "game"):
        for raw in ["²", "①", "1.0", *HUGE]:
            points = {"phase": "points", "pitcher_seat": "0", "high": "0", "low": "1", "game": "2"}
            points[field] = raw
            response = table.post(f"/games/{game}/hands/1", data=points)
            assert_page_refused(response, (400, 422))
    assert snapshot(app) == before


def test_a_table_correction_in_unicode_digits_is_refused(app, table, games_at_table):
    game = games_at_table["oh_hell"]
    before = snapshot(app)
    for raw in ["²", "①", *HUGE]:
        response = table.post(f"/games/{game}/table", data={"seat-0": raw, "first_dealer": raw})
        assert_page_refused(response, (400, 422))
    assert snapshot(app) == before


# Finding 3: JSON nested too deeply, on every JSON body -----------------------------------------


def _deep(depth: int) -> str:
    return "[" * depth + "]" * depth


@pytest.mark.parametrize("depth", [40, 100_000])
def test_deep_json_is_refused_on_every_json_body(app, table_api, games_at_table, depth):
    game = games_at_table["oh_hell"]
    bodies = {
        f"/games/{game}/hands": '{"bids": ' + _deep(depth) + "}",
        f"/games/{game}/hands/1": '{"tricks": ' + _deep(depth) + "}",
        f"/games/{game}": '{"players": ' + _deep(depth) + "}",
        "/nights": '{"notes": ' + _deep(depth) + "}",
        "/rulesets": '{"game": "oh_hell", "name": "x", "options": ' + _deep(depth) + "}",
        "/restore": '{"format": "scorekeeper-backup", "players": ' + _deep(depth) + "}",
    }
    before = snapshot(app)
    for path, body in bodies.items():
        method = "PATCH" if path.endswith(("/1", f"/{game}")) else "POST"
        response = table_api.client.open(
            "/api/v1" + path,
            method=method,
            data=body,
            headers=table_api.headers(),
            content_type="application/json",
        )
        # A restore answers as it answers a file that is not JSON: 422 restore_refused.
        status, code = (422, "restore_refused") if path == "/restore" else (400, "invalid_json")
        assert response.status_code == status, (path, response.status_code, response.text[:300])
        error = response.get_json()["errors"][0]
        assert error["code"] == code
        assert "nested too deeply" in error["message"]
    assert snapshot(app) == before


# Finding 4: lone surrogates and NUL characters -----------------------------------------------


def test_surrogates_and_nul_in_game_and_night_bodies_are_refused(app, table_api):
    before = snapshot(app)
    for text in ["Ann\\ud800", "\\udfff", "Ann\\u0000", "A\\u0000nn"]:
        bodies = {
            "/games": '{"game": "oh_hell", "players": ["' + text + '", "Ben", "Cy"]}',
            "/nights": '{"notes": "' + text + '", "place": "x"}',
            "/rulesets": '{"game": "oh_hell", "name": "' + text + '", "options": {}}',
        }
        for path, body in bodies.items():
            response = table_api.client.post(
                "/api/v1" + path,
                data=body,
                headers=table_api.headers(),
                content_type="application/json",
            )
            assert response.status_code in (400, 422), (path, text, response.text)
            assert response.get_json()["errors"][0]["message"]
    assert snapshot(app) == before


def test_nul_on_the_pages_is_refused(app, table):
    before = snapshot(app)
    for text in ["Ann\x00", "\x00", "Night\x00notes"]:
        assert_page_refused(table.post("/players/", data={"name": text}), 422)
        for field in ("name", "place", "notes"):
            response = table.post("/nights/new", data={"date": "2026-11-27", field: text})
            assert_page_refused(response, 422)
            assert "invisible or control character" in response.text
    assert snapshot(app) == before


@pytest.fixture
def backup_document(app, table_api, games_at_table, night) -> dict:
    """A small account's backup (its players, a night and three games)."""
    answer = table_api.get("/backup")
    assert answer.status_code == 200
    return answer.get_json()


def _restore_into_new_account(app, raw: str | bytes):
    make_account(app, "new-club")
    client = app.test_client()
    api = Api(client, new_token(client, "new-club"))
    return api.client.post(
        "/api/v1/restore", data=raw, headers=api.headers(), content_type="application/json"
    )


@pytest.mark.parametrize(
    "where",
    ["player name", "night notes", "night place", "game option"],
)
@pytest.mark.parametrize("bad", ["\\u0000", "\\ud800"])
def test_nul_or_a_surrogate_in_a_backup_restores_nothing(app, backup_document, where, bad):
    doc = json.loads(json.dumps(backup_document))
    marker = "@@BAD@@"
    if where == "player name":
        doc["players"][0]["name"] = "Ann" + marker
    elif where == "night notes":
        doc["nights"][0]["notes"] = "late" + marker
    elif where == "night place":
        doc["nights"][0]["place"] = "Bo" + marker
    else:
        oh_hell = next(g for g in doc["games"] if g["game"] == "oh_hell")
        oh_hell["options"]["sequence"] = "up" + marker
    raw = json.dumps(doc).replace(marker, bad)
    before = snapshot(app)
    make_account_before = before["account"]
    response = _restore_into_new_account(app, raw)
    assert response.status_code in (400, 422), (response.status_code, response.text[:500])
    assert response.get_json()["errors"][0]["message"]
    after = snapshot(app)
    assert len(after["account"]) == len(make_account_before) + 1  # the new account only
    assert {k: v for k, v in after.items() if k not in ("account", "api_token")} == {
        k: v for k, v in before.items() if k not in ("account", "api_token")
    }


# Finding 8: options given as floats ----------------------------------------------------------


def test_options_of_the_wrong_json_type_are_refused(app, api):
    before = snapshot(app)
    for options in [
        {"max_cards": 5.0},
        {"hook_min_cards": 2.0},
        {"max_cards": 5.5},
        {"max_cards": "5"},
        {"hook": 1},
        {"hook": 0.0},
        {"sequence": ["up"]},
    ]:
        sent = {"game": "oh_hell", "players": ["Ann", "Ben", "Cy"], "options": options}
        errors = assert_api_refused(api.post("/games", sent), (400, 422))
        assert any((error["field"] or "").startswith("options") for error in errors), errors
        saved = api.post("/rulesets", {"game": "oh_hell", "name": "Float", "options": options})
        assert_api_refused(saved, (400, 422))
    assert snapshot(app) == before


@pytest.mark.pure
@pytest.mark.parametrize("name", ["Yah\x00tzee", "\u202eYahtzee", "Yaht\u200bzee", "\x1b[31m"])
def test_a_text_option_with_control_or_invisible_characters_is_refused(name):
    """The score pad's game name (a text option) goes into the database like any name."""
    from scorekeeper.games.base import RuleError
    from scorekeeper.games.score_pad.rules import RULES

    with pytest.raises(RuleError) as refused:
        RULES.resolve_options({"name": name}, 2)
    assert refused.value.code == "option_value"
    assert "invisible or control character" in refused.value.message
    assert RULES.resolve_options({"name": "Ｙａｈｔｚｅｅ  Dice"}, 2)["name"] == "Yahtzee Dice"


# NUL in the address (PostgreSQL cannot compare text holding one) ------------------------------


def test_nul_in_a_query_argument_is_400(app, api, logged_in):
    before = snapshot(app)
    for path in ("/games?game=oh%00", "/nights?game=%00", "/games?player=Ann%00"):
        errors = assert_api_refused(api.get(path), 400)
        assert errors[0]["code"] == "wrong_type"
        assert "NUL" in errors[0]["message"]
    for path in ("/stats/oh_hell?variant=%00", "/nights/?game=%00", "/games/new?night=1%00"):
        response = logged_in.get(path)
        assert_page_refused(response, 400)
        assert "NUL character" in response.text
    assert snapshot(app) == before


def test_nul_in_the_path_is_not_found(app, logged_in, client):
    before = snapshot(app)
    for path in ("/view/%00", "/view/abc%00def", "/stats/oh_hell%00"):
        assert_page_refused(client.get(path), 404)
        assert_page_refused(logged_in.get(path), 404)
    assert snapshot(app) == before
