"""The API's answers are its documented models: built as them, written as given, and the
document drawn through spectree's public API only."""

from __future__ import annotations

import ast
from pathlib import Path

from flask import Flask
from spectree import SpecTree

from scorekeeper.api import spec as api_spec
from scorekeeper.services import games

ROOT = Path(__file__).resolve().parent.parent / "scorekeeper"


def new_game(api, game: str, players: list[str], **options) -> dict:
    response = api.post("/games", {"game": game, "players": players, "options": options})
    assert response.status_code == 201, response.text
    return response.get_json()


def record(api, state: dict, body: dict) -> dict:
    number = state["next"]["number"]
    response = api.post(f"/games/{state['id']}/hands", {"number": number, **body})
    assert response.status_code == 201, response.text
    return response.get_json()


def test_a_hand_is_written_as_entered_no_field_left_out_comes_back_as_null(api):
    state = new_game(api, "oh_hell", ["Ann", "Ben", "Cy"])
    state = record(api, state, {"bids": {"Ann": 1, "Ben": 0, "Cy": 1}})
    assert state["hands"][0]["input"] == {"bids": {"Ann": 1, "Ben": 0, "Cy": 1}}
    state = new_game(api, "pitch", ["Ann", "Ben", "Cy"])
    state = record(api, state, {"pitcher": "Ben", "bid": 2})
    assert set(state["hands"][0]["input"]) == {"pitcher", "bid"}


def test_hollywood_columns_are_only_in_a_hollywood_game(api):
    knock = {
        "upcard": "K",
        "result": "knock",
        "knocker": "Ann",
        "knocker_deadwood": 3,
        "opponent_deadwood": 20,
    }
    plain = record(api, new_game(api, "oklahoma_gin", ["Ann", "Ben"]), knock)
    assert "columns" not in plain
    assert "columns" not in plain["hands"][0]
    hollywood = record(api, new_game(api, "oklahoma_gin", ["Ann", "Ben"], hollywood=True), knock)
    assert [column["number"] for column in hollywood["columns"]] == [1, 2, 3]
    assert hollywood["hands"][0]["columns"] == [1]


def test_a_state_answer_that_is_not_the_game_model_is_refused(api, monkeypatch):
    """The state is answered as the game's own model: the same state as a plain dict (what
    a hand-written serializer would give) is not an answer the API accepts from a view."""
    state = new_game(api, "oh_hell", ["Ann", "Ben", "Cy"])
    assert api.get(f"/games/{state['id']}").get_json() == state
    built = games.state_answer
    monkeypatch.setattr(games, "state_answer", lambda result: built(result).model_dump(mode="json"))
    assert api.client.get(f"/api/v1/games/{state['id']}", headers=api.headers()).status_code == 500


def _private_names() -> set[str]:
    """spectree's private methods and attributes (``_add_model``, ``_spec``, ...)."""
    names = {name for name in vars(SpecTree) if name.startswith("_") and name[1] != "_"}
    made = SpecTree("flask")
    with Flask(__name__).app_context():
        made.spec  # noqa: B018 - spectree keeps the document it wrote in a private attribute
    return names | {name for name in vars(made) if name.startswith("_") and name[1] != "_"}


def test_spectree_is_used_through_its_public_api_only():
    private = _private_names()
    assert {"_add_model", "_generate_spec", "_spec"} <= private
    assert type(api_spec.spec) is SpecTree
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                bases = {getattr(base, "id", getattr(base, "attr", None)) for base in node.bases}
                if "SpecTree" in bases:
                    found.append(f"{path.name}: class {node.name}(SpecTree)")
            if isinstance(node, ast.Attribute) and node.attr in private:
                found.append(f"{path.name}:{node.lineno} .{node.attr}")
    assert found == []
