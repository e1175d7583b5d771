"""The JSON API skeleton: accounts, tokens, the roster, errors, the OpenAPI document."""

from __future__ import annotations

from scorekeeper.openapi import document
from tests.conftest import PASSWORD
from tests.conftest import Api
from tests.conftest import basic


def test_create_account_then_token_then_roster(client):
    api = Api(client)
    response = api.post("/accounts", {"username": "api-club", "password": PASSWORD})
    assert response.status_code == 201
    assert response.get_json()["username"] == "api-club"
    response = api.post("/tokens", headers=basic("api-club", PASSWORD))
    assert response.status_code == 201
    api.token = response.get_json()["token"]
    assert api.get("/players").get_json() == {"players": []}


def test_signup_refusals_use_codes(client, account):
    api = Api(client)
    taken = api.post("/accounts", {"username": "Friday-Club", "password": PASSWORD})
    assert taken.status_code == 422
    assert taken.get_json()["errors"][0]["code"] == "name_taken"
    short = api.post("/accounts", {"username": "new-club", "password": "x"})
    assert short.get_json()["errors"][0] == {
        "code": "password_invalid",
        "field": "password",
        "message": "Password must be at least 8 characters.",
    }


def test_signup_switched_off_is_forbidden(make_app):
    app = make_app(SIGNUP_ENABLED=False)
    response = Api(app.test_client()).post(
        "/accounts", {"username": "x-club", "password": PASSWORD}
    )
    assert response.status_code == 403
    assert response.get_json()["errors"][0]["code"] == "signup_disabled"


def test_wrong_credentials_get_401(client, account):
    api = Api(client)
    response = api.post("/tokens", headers=basic("friday-club", "nope"))
    assert response.status_code == 401
    assert response.get_json()["errors"][0]["code"] == "unauthorized"
    assert api.post("/tokens").status_code == 401


def test_requests_without_a_valid_token_get_401(client, account):
    api = Api(client, "not-a-token")
    response = api.get("/players")
    assert response.status_code == 401
    assert response.headers["WWW-Authenticate"].startswith("Bearer")
    assert Api(client).get("/players").status_code == 401


def test_revoked_tokens_stop_working(api):
    assert api.get("/players").status_code == 200
    assert api.delete("/tokens").status_code == 204
    assert api.get("/players").status_code == 401


def test_roster_through_the_api(api):
    ann = api.post("/players", {"name": " Ann "})
    assert ann.status_code == 201
    assert ann.get_json()["name"] == "Ann"
    ben = api.post("/players", {"name": "Ben"}).get_json()
    again = api.post("/players", {"name": "ann"})
    assert again.status_code == 422
    assert again.get_json()["errors"][0] == {
        "code": "name_taken",
        "field": "name",
        "message": "There is already a player called Ann.",
    }
    archived = api.patch(f"/players/{ann.get_json()['id']}", {"archived": True})
    assert archived.get_json()["archived"] is True
    renamed = api.patch(f"/players/{ben['id']}", {"name": "Benny"})
    assert renamed.get_json()["name"] == "Benny"
    listed = api.get("/players").get_json()["players"]
    assert [(p["name"], p["archived"]) for p in listed] == [("Benny", False), ("Ann", True)]


def test_malformed_and_wrongly_typed_bodies_get_400(api):
    response = api.post("/players", data="{not json", content_type="application/json")
    assert response.status_code == 400
    assert response.get_json()["errors"][0]["code"] == "invalid_json"
    assert api.post("/players", ["Ann"]).status_code == 400
    response = api.post("/players", {"name": 7})
    assert response.status_code == 400
    assert response.get_json()["errors"][0]["code"] == "wrong_type"
    assert api.get("/players").get_json()["players"] == []


def test_name_rules_match_the_pages(api):
    response = api.post("/players", {"name": "x" * 41})
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["message"] == (
        "A name can be at most 40 characters (41 given)."
    )


def test_another_account_gets_404_for_a_player(api, other_api):
    ann = api.post("/players", {"name": "Ann"}).get_json()
    response = other_api.patch(f"/players/{ann['id']}", {"name": "Hacked"})
    assert response.status_code == 404
    assert response.get_json()["errors"][0]["code"] == "not_found"
    assert other_api.get("/players").get_json() == {"players": []}
    assert api.get("/players").get_json()["players"][0]["name"] == "Ann"


def test_unknown_api_paths_answer_json(api):
    response = api.client.get("/api/v1/nothing-here")
    assert response.status_code == 404
    assert response.get_json()["errors"][0]["code"] == "not_found"


def test_openapi_document_is_served_and_lists_every_api_route(app, client):
    response = client.get("/api/v1/openapi.json")
    assert response.status_code == 200
    served = response.get_json()
    assert served == document()
    documented = {
        (path, method.upper())
        for path, item in served["paths"].items()
        for method in item
        if method != "parameters"
    }
    routed = set()
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith("/api/v1"):
            path = rule.rule.replace("<int:", "{").replace("<", "{").replace(">", "}")
            for method in rule.methods - {"HEAD", "OPTIONS"}:
                routed.add((path, method))
    assert routed == documented
