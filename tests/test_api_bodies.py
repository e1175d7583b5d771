"""Every JSON body that is not an object is refused as ``400 wrong_type``, before anything
is created or changed (issue 27, item 4)."""

from __future__ import annotations

import pytest

from scorekeeper.extensions import db
from scorekeeper.models import Night

NOT_OBJECTS = ["false", "[]", '""', "1", "null", '["x"]']


def send(api, method: str, path: str, raw: str):
    return getattr(api.client, method)(
        f"/api/v1{path}",
        data=raw,
        content_type="application/json",
        headers={"Authorization": f"Bearer {api.token}"},
    )


@pytest.mark.parametrize("raw", NOT_OBJECTS)
def test_a_body_that_is_not_an_object_is_refused(app, api, raw):
    game = api.post("/games", {"game": "oh_hell", "players": ["Ann", "Ben", "Cy"]}).get_json()
    player = api.get("/players").get_json()["players"][0]
    for method, path in [
        ("post", "/nights"),
        ("patch", f"/players/{player['id']}"),
        ("patch", f"/games/{game['id']}"),
        ("post", f"/games/{game['id']}/hands"),
        ("post", "/games"),
    ]:
        answer = send(api, method, path, raw)
        assert answer.status_code == 400, (method, path, raw, answer.status_code, answer.text)
        assert answer.get_json()["errors"][0]["code"] == "wrong_type", (method, path, raw)
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(Night)) == 0


def test_every_operation_that_takes_a_body_refuses_one_that_is_not_an_object(app, api):
    """Every operation of the served document with a JSON request body, its path filled
    with ids that exist: ``false`` is 400 ``wrong_type`` everywhere."""
    import re

    from tests.openapi_check import document

    game = api.post("/games", {"game": "oh_hell", "players": ["Ann", "Ben", "Cy"]}).get_json()
    api.post(f"/games/{game['id']}/hands", {"bids": {"Ann": 1, "Ben": 0, "Cy": 0}})
    ids = {
        "game_id": game["id"],
        "number": 1,
        "player_id": api.get("/players").get_json()["players"][0]["id"],
        "night_id": api.post("/nights", {}).get_json()["id"],
    }
    checked = []
    for path, operations in document(app)["paths"].items():
        for method, operation in operations.items():
            if "application/json" not in operation.get("requestBody", {}).get("content", {}):
                continue
            filled = re.sub(r"\{(\w+)\}", lambda m: str(ids.get(m.group(1), 1)), path)
            answer = send(api, method, filled.removeprefix("/api/v1"), "false")
            assert answer.status_code == 400, (method, path, answer.status_code, answer.text)
            assert answer.get_json()["errors"][0]["code"] == "wrong_type", (method, path)
            checked.append((method, path))
    assert len(checked) >= 8, checked
