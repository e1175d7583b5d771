"""The JSON API skeleton: accounts, tokens, the roster, errors, the OpenAPI document."""

from __future__ import annotations

from tests.conftest import PASSWORD
from tests.conftest import Api
from tests.conftest import basic
from tests.openapi_check import document


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
    assert served == document(app)
    assert served["openapi"].startswith("3.1")
    documented = {
        (path, method.upper())
        for path, item in served["paths"].items()
        for method in item
        if method != "parameters"
    }
    routed = set()
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith("/api/v1/"):
            path = rule.rule.replace("<int:", "{").replace("<", "{").replace(">", "}")
            for method in rule.methods - {"HEAD", "OPTIONS"}:
                routed.add((path, method))
    assert routed == documented


def test_every_object_the_document_describes_is_closed(app):
    """Responses and bodies are closed objects: a key the server adds, or a client sends,
    that no model declares is a schema violation (the backup and this document excepted)."""
    open_on_purpose = {"Backup", "OpenApi", "ListQuery"}
    schemas = document(app)["components"]["schemas"]
    checked = 0
    for name, schema in schemas.items():
        if name in open_on_purpose or schema.get("type") != "object":
            continue
        if "properties" in schema:
            assert schema.get("additionalProperties") is False, name
            checked += 1
    assert checked > 30


def test_unknown_fields_are_refused_with_their_names(api):
    response = api.post("/players", {"name": "Ann", "nickname": "A"})
    assert response.status_code == 400
    assert error_list(response) == [
        {
            "code": "wrong_type",
            "field": "nickname",
            "message": "There is no field called “nickname”.",
        }
    ]
    game = api.post("/games", {"game": "oh_hell", "players": ["Ann", "Ben", "Cy"]}).get_json()
    response = api.post(f"/games/{game['id']}/hands", {"bids": {"Ann": 1}, "trick": {"Ann": 1}})
    assert response.status_code == 400
    assert [e["field"] for e in error_list(response)] == ["trick"]
    assert api.get(f"/games/{game['id']}").get_json()["hands"] == []


def test_several_problems_of_a_new_game_come_in_one_answer(api):
    response = api.post(
        "/games",
        {"game": "oh_hell", "players": [f"P{n}" for n in range(8)], "options": {"sequence": "x"}},
    )
    assert response.status_code == 422
    assert {(e["code"], e["field"]) for e in error_list(response)} == {
        ("option_value", "options.sequence"),
        ("player_count", "players"),
    }


def error_list(response) -> list[dict]:
    return response.get_json()["errors"]
