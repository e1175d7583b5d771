"""Fixed-choice fields of the games' hand bodies (issue 27, item 5): the document declares
each as its choices (an enum), or the same in any case with spaces around it, as the rules
read it; a value the server refuses the document refuses, and a value it takes it takes."""

from __future__ import annotations

import pytest
from jsonschema import Draft202012Validator

from tests.openapi_check import document

GIN = {"upcard": "7", "result": "gin", "knocker": "Ann", "opponent_deadwood": 10}
OH_HELL = {"bids": {"Ann": 1, "Ben": 0, "Cy": 0}, "tricks": {"Ann": 1, "Ben": 0, "Cy": 0}}
WIZARD = {"bids": {"Ann": 1, "Ben": 0, "Cy": 0}, "tricks": {"Ann": 1, "Ben": 0, "Cy": 0}}

#: (game, players, a whole hand, the field, values the rules take, values they refuse)
CASES = [
    ("oklahoma_gin", ["Ann", "Ben"], GIN, "result",
     ["gin", " GIN\t", "Gin\u3000", "gin\n"], ["x", "gın", "g in", "gins"]),
    ("oklahoma_gin", ["Ann", "Ben"], GIN, "upcard",
     ["7", " k ", "q", "10", "\u00a0A"], ["x", "11", "1 0", "ı", "\u212a"]),
    ("oklahoma_gin", ["Ann", "Ben"], GIN, "upcard_suit",
     ["hearts", " SPADES ", "   ", "Clubs"], ["x", "heart", "spade s"]),
    ("oh_hell", ["Ann", "Ben", "Cy"], OH_HELL, "trump",
     ["hearts", " Spades\t", "CLUBS"], ["x", "", "  ", "none"]),
    ("pitch", ["Ann", "Ben", "Cy"], {}, "auction",
     ["pass", " PASS ", "Pass\t"], ["x", "passe", "p ass"]),
    ("wizard", ["Ann", "Ben", "Cy"], WIZARD, "trump",
     ["hearts", " None ", "DIAMONDS"], ["x", "", "jester"]),
]  # fmt: skip


def validator(app, kind: str) -> Draft202012Validator:
    doc = document(app)
    name = "".join(part.capitalize() for part in kind.split("_")) + "HandBody"
    return Draft202012Validator({"$ref": f"#/components/schemas/{name}", **doc})


@pytest.mark.parametrize(("kind", "players", "hand", "field", "taken", "refused"), CASES)
def test_the_document_takes_a_choice_exactly_when_the_server_does(
    app, api, kind, players, hand, field, taken, refused
):
    schema = validator(app, kind)
    for value, expected in [(v, True) for v in taken] + [(v, False) for v in refused]:
        body = {**hand, field: value}
        if field == "auction":  # Ben's call, then Cy bids 2 and Ann (the dealer) passes
            body = {"auction": [["Ben", value], ["Cy", 2], ["Ann", "pass"]]}
        game = api.post("/games", {"game": kind, "players": players}).get_json()["id"]
        answer = api.post(f"/games/{game}/hands", body)
        assert (answer.status_code == 201) is expected, (field, value, answer.get_json())
        assert schema.is_valid(body) is expected, (field, value)


def test_the_document_lists_each_field_s_choices(app):
    schemas = document(app)["components"]["schemas"]
    result = schemas["OklahomaGinHandBody"]["properties"]["result"]
    enums = [branch.get("enum") for branch in result["anyOf"] for branch in [branch]]
    assert ["knock", "gin", "draw"] in enums
    trump = schemas["WizardHandBody"]["properties"]["trump"]
    assert ["clubs", "diamonds", "hearts", "spades", "none"] in [
        b.get("enum") for b in trump["anyOf"]
    ]
