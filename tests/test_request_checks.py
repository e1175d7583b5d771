"""What every request goes through: 405s say what is allowed, JSON bodies are checked for
depth and lone surrogates, integer URL parts stay within the database's integers."""

from __future__ import annotations

import json

import pytest
from werkzeug.routing import IntegerConverter

from scorekeeper.errors import Refusal
from scorekeeper.extensions import db
from scorekeeper.models import Night
from scorekeeper.models import Player
from scorekeeper.web import JSON_MAX_DEPTH
from scorekeeper.web import check_json


def _count(app, model) -> int:
    with app.app_context():
        return db.session.scalar(db.select(db.func.count()).select_from(model))


# 405 answers carry Allow --------------------------------------------------------------------


def _allowed(response) -> set[str]:
    return {method.strip() for method in response.headers["Allow"].split(",")}


def test_a_page_answering_405_says_which_methods_it_allows(client):
    response = client.delete("/login")
    assert response.status_code == 405
    assert {"GET", "POST"} <= _allowed(response)
    assert "That action is not available here." in response.text


def test_an_api_405_says_which_methods_are_allowed_and_stays_json(client):
    response = client.put("/api/v1/players", json={})
    assert response.status_code == 405
    assert {"GET", "POST"} <= _allowed(response)
    assert response.mimetype == "application/json"
    assert response.get_json()["errors"][0]["message"] == "That action is not available here."
    response = client.get("/api/v1/tokens")
    assert response.status_code == 405
    assert {"POST", "DELETE"} <= _allowed(response)


def test_a_logged_in_405_says_which_methods_are_allowed(logged_in):
    response = logged_in.delete("/players/")
    assert response.status_code == 405
    assert {"GET", "POST"} <= _allowed(response)


# JSON bodies: nesting and lone surrogates ----------------------------------------------------


def nested(depth: int, inner: str = "1") -> str:
    return '{"name": ' + "[" * depth + inner + "]" * depth + "}"


def test_check_json_allows_the_limit_and_refuses_one_more():
    check_json(json.loads("[" * JSON_MAX_DEPTH + "]" * JSON_MAX_DEPTH))
    with pytest.raises(Refusal) as refused:
        check_json(json.loads("[" * (JSON_MAX_DEPTH + 1) + "]" * (JSON_MAX_DEPTH + 1)))
    assert (refused.value.code, refused.value.status) == ("invalid_json", 400)


@pytest.mark.parametrize("depth", [40, 1000, 100_000])
def test_deeply_nested_json_is_refused_with_400(app, api, depth):
    response = api.client.post(
        "/api/v1/players",
        data=nested(depth),
        headers=api.headers(),
        content_type="application/json",
    )
    assert response.status_code == 400
    assert response.get_json()["errors"] == [
        {"code": "invalid_json", "field": None, "message": "The request body is nested too deeply."}
    ]
    assert _count(app, Player) == 0


def test_deeply_nested_game_options_are_refused(api):
    body = '{"game": "oh_hell", "players": ["Ann", "Ben", "Cy"], "options": ' + "[" * 999
    body += "]" * 999 + "}"
    response = api.client.post(
        "/api/v1/games", data=body, headers=api.headers(), content_type="application/json"
    )
    assert response.status_code == 400
    assert response.get_json()["errors"][0]["code"] == "invalid_json"


@pytest.mark.parametrize(
    "body",
    [
        '{"name": "Sur\\ud800"}',
        '{"name": "\\udfffAnn"}',
        '{"name\\ud800": "Ann"}',
        '{"name": "Ann", "extra": ["\\ud83d"]}',
    ],
)
def test_lone_surrogates_in_json_are_refused_with_400(app, api, body):
    response = api.client.post(
        "/api/v1/players", data=body, headers=api.headers(), content_type="application/json"
    )
    assert response.status_code == 400
    error = response.get_json()["errors"][0]
    assert error["code"] == "invalid_json"
    assert "lone surrogate" in error["message"]
    assert _count(app, Player) == 0


def test_a_surrogate_pair_is_an_ordinary_character(app, api):
    response = api.client.post(
        "/api/v1/players",
        data='{"name": "Ann \\ud83c\\udccf"}',
        headers=api.headers(),
        content_type="application/json",
    )
    assert response.status_code == 201
    assert response.get_json()["name"] == "Ann 🃏"


def test_lone_surrogates_in_night_notes_are_refused(app, api):
    response = api.client.post(
        "/api/v1/nights",
        data='{"notes": "late \\ud800"}',
        headers=api.headers(),
        content_type="application/json",
    )
    assert response.status_code == 400
    assert _count(app, Night) == 0


# Integer URL parts beyond the database's integers --------------------------------------------


def _int_routes(app):
    for rule in app.url_map.iter_rules():
        ints = [
            name for name, conv in rule._converters.items() if isinstance(conv, IntegerConverter)
        ]
        if ints:
            yield rule, ints


def test_every_int_url_part_is_bounded(app):
    routes = list(_int_routes(app))
    assert routes
    for rule, names in routes:
        for name in names:
            assert rule._converters[name].max == 2**31 - 1, rule.rule


@pytest.mark.parametrize("big", [2**31, 2**63, 10**30])
def test_ids_beyond_the_database_integers_are_not_found(app, api, logged_in, big):
    """Every route with an integer part, pages logged in and API with a token: 404."""
    checked = 0
    for rule, names in _int_routes(app):
        url = rule.rule
        for name in names:
            url = url.replace(f"<int:{name}>", str(big))
        methods = sorted(rule.methods - {"HEAD", "OPTIONS"})
        for method in methods:
            if url.startswith("/api/"):
                response = api.client.open(url, method=method, json={}, headers=api.headers())
            else:
                response = logged_in.open(url, method=method, data={})
            assert response.status_code == 404, (method, url, response.status_code)
            checked += 1
    assert checked > 10


def test_ids_within_range_still_reach_the_views(api):
    assert api.get(f"/games/{2**31 - 1}").status_code == 404
    assert api.get("/games/0").status_code == 404
