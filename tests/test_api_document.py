"""The OpenAPI document says what the server enforces (issue 27, item 5): the text rules as
patterns and lengths, one hand body per game, the answers of the state on each operation,
and a 414 in the error format for an address longer than the app takes."""

from __future__ import annotations

import re
import unicodedata

import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from scorekeeper.games import GAMES
from scorekeeper.games import text as rules_text
from scorekeeper.games.errors import RuleError
from scorekeeper.web import URL_MAX
from tests.openapi_check import document

REFUSED_NAMES = ["", "   ", "Ann\x00", "A\x07nn", "a\u200bb", "a\u200db", "\u202eAnn", "x" * 41]
NAMES = ["Ann", "Åsa", "Ｂｅｎ", "👩🏽‍🦱", "👨‍👩‍👧", "Cy\tD", "x" * 40]


def _schema(app, name: str) -> Draft202012Validator:
    return Draft202012Validator(document(app)["components"]["schemas"][name])


@pytest.mark.parametrize("name", REFUSED_NAMES)
def test_a_name_the_server_refuses_is_refused_by_the_document(app, api, name):
    assert not _schema(app, "Name").is_valid(name)
    answer = api.post("/players", {"name": name})
    assert answer.status_code == 422
    assert answer.get_json()["errors"][0]["code"] == "name_invalid"
    assert api.get("/players").get_json()["players"] == []


@pytest.mark.parametrize("name", NAMES)
def test_a_name_the_document_takes_is_taken(app, api, name):
    assert _schema(app, "Name").is_valid(name)
    assert api.post("/players", {"name": name}).status_code == 201


def test_the_name_pattern_takes_a_character_exactly_when_the_checks_take_it():
    pattern = re.compile(rules_text.line_pattern())
    for code in range(0x110000):
        if 0xD800 <= code <= 0xDFFF:
            continue
        char = chr(code)
        if pattern.match(f"a{char}"):
            # the checks take it, and NFKC keeps it one character
            assert rules_text.normalize_line(f"a{char}", "A name", None) != ""
            assert len(unicodedata.normalize("NFKC", char)) == 1, f"U+{code:04X}"


def test_a_ligature_is_refused_with_a_message_of_its_own(api):
    answer = api.post("/players", {"name": "ﬁona"})
    assert answer.status_code == 422
    assert "ligature" in answer.get_json()["errors"][0]["message"]


def test_query_strings_are_names_or_game_keys(app, api):
    operation = document(app)["paths"]["/api/v1/games"]["get"]
    schemas = {each["name"]: each["schema"] for each in operation["parameters"]}
    assert schemas["player"] == {"$ref": "#/components/schemas/Name"}
    assert api.get("/games?player=A%07nn").status_code == 422
    assert api.get("/games?game=chess").status_code == 422
    assert api.get("/games?game=pitch").status_code == 200


def test_the_leaderboard_s_variant_filter_is_a_line_of_text_in_the_document_as_here(app, api):
    """A variant is a score pad's game name, a preset's key or "" (a game without variants):
    a control character (NUL included) or an invisible one is refused by both."""
    operation = document(app)["paths"]["/api/v1/leaderboards/{game}"]["get"]
    schema = next(each["schema"] for each in operation["parameters"] if each["name"] == "variant")
    assert schema == {"$ref": "#/components/schemas/VariantFilter"}
    variant = _schema(app, "VariantFilter")
    for sent in ("\x00", "Cat\x01an", "a\u200bb", "\u202eCatan", "ﬁ", "x" * 61):
        answer = api.get("/leaderboards/score_pad", query_string={"variant": sent})
        assert answer.status_code == 400, (sent, answer.text)
        assert answer.get_json()["errors"][0]["code"] == "wrong_type"
        assert not variant.is_valid(sent), repr(sent)
    for sent in ("", "Catan", "👨‍👩‍👧 night", "custom:10/1/0:per_trick", "x" * 60):
        assert api.get("/leaderboards/score_pad", query_string={"variant": sent}).status_code == 200
        assert variant.is_valid(sent), repr(sent)


def test_the_hand_body_is_one_of_the_games_own(app):
    schemas = document(app)["components"]["schemas"]
    body = schemas["HandBody"]
    refs = {branch["$ref"].rsplit("/", 1)[1] for branch in body["anyOf"]}
    assert len(refs) == len(GAMES)
    assert all(ref.endswith("HandBody") for ref in refs)


def test_another_games_hand_is_a_conflict_not_a_malformed_request(api):
    game = api.post("/games", {"game": "pitch", "players": ["Ann", "Ben", "Cy", "Dee"]})
    answer = api.post(f"/games/{game.get_json()['id']}/hands", {"bids": {"Ann": 1}})
    assert answer.status_code == 409
    error = answer.get_json()["errors"][0]
    assert (error["code"], error["field"]) == ("conflict", "bids")
    strange = api.post(f"/games/{game.get_json()['id']}/hands", {"nonsense": 1})
    assert strange.status_code == 400


def test_state_answers_are_documented_on_each_operation(app):
    paths = document(app)["paths"]
    for path, verb in (
        ("/api/v1/games/{game_id}/close", "post"),
        ("/api/v1/games/{game_id}/reopen", "post"),
        ("/api/v1/games/{game_id}/resume", "post"),
        ("/api/v1/games/{game_id}/abandon", "post"),
        ("/api/v1/games/{game_id}/hands", "post"),
    ):
        responses = paths[path][verb]["responses"]
        for status in ("409", "422"):
            assert responses[status]["description"] not in ("", "Unprocessable Content"), path
            assert responses[status]["content"]["application/json"]["schema"] == {
                "$ref": "#/components/schemas/Errors"
            }
    assert "name_taken" in paths["/api/v1/players"]["post"]["responses"]["422"]["description"]
    restore = paths["/api/v1/restore"]["post"]
    assert set(restore["requestBody"]["content"]) == {"application/json", "application/gzip"}
    assert "413" in paths["/api/v1/players"]["post"]["responses"]


def test_a_new_score_pad_needs_its_name_in_the_document(app, api):
    schemas = document(app)["components"]["schemas"]
    assert "options" in schemas["ScorePadNewGame"]["required"]
    assert "name" in schemas["ScorePadOptionsIn"]["required"]
    assert schemas["OhHellNewGame"]["properties"]["players"]["minItems"] >= 2


def test_an_address_longer_than_the_app_takes_is_414_in_the_error_format(app, api):
    answer = api.get("/games?player=" + "a" * URL_MAX)
    assert answer.status_code == 414
    assert answer.mimetype == "application/json"
    assert answer.get_json()["errors"][0]["code"] == "uri_too_long"
    for item in document(app)["paths"].values():
        for operation in item.values():
            assert "414" in operation["responses"], operation["operationId"]
            # gunicorn's own 414 beyond its limit_request_line (tests/test_gunicorn_limits.py)
            content = operation["responses"]["414"]["content"]
            assert set(content) == {"application/json", "text/html"}, operation["operationId"]
    assert api.get("/games?player=" + "a" * 40).status_code == 200


def test_gunicorn_reads_longer_request_lines_than_the_app_answers():
    from pathlib import Path

    settings: dict = {}
    source = Path(__file__).resolve().parent.parent / "gunicorn.conf.py"
    limit = re.search(r"^limit_request_line = (\d+)$", source.read_text(), re.M)
    assert limit is not None, settings
    # "DELETE " + the address + " HTTP/1.1" fits gunicorn's limit
    assert URL_MAX + len("DELETE  HTTP/1.1") < int(limit.group(1))


#: Characters where the pattern's parts meet: letters, spaces, line breaks, the joiner, emoji
#: parts (a picture, a skin tone, a variation selector), other pictures, invisible ones.
TRICKY = "a é\u00a0\u3000\t\x0b\n\u200d\u200b\U0001f469\U0001f3fd\U0001f9b1\ufe0f\u2603\u2605\x00"


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=TRICKY, max_size=8))
def test_the_name_pattern_takes_a_text_exactly_when_the_checks_take_it(text):
    """The one-line pattern (a repeated class with lookarounds, so that a generator reaches any
    length at once) says what the services' checks say: no control or invisible character,
    a joiner only after an emoji part and before a picture, one character that can be seen."""
    try:
        taken = rules_text.normalize_line(text, "A name", None) != ""
    except RuleError:
        taken = False
    assert bool(re.match(rules_text.line_pattern(), text)) == taken, ascii(text)
