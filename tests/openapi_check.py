"""Check real API responses against the OpenAPI document the server generates and ships."""

from __future__ import annotations

import re

from jsonschema import Draft202012Validator
from referencing import Registry
from referencing.jsonschema import DRAFT202012

from scorekeeper.games import GAMES

_CACHE: dict[int, tuple[dict, Registry]] = {}


def document(app) -> dict:
    """The document as the app serves it (drawn again when a game is registered)."""
    if GAMES.version not in _CACHE:
        served = app.test_client().get("/api/v1/openapi.json").get_json()
        registry = Registry().with_resource("urn:openapi", DRAFT202012.create_resource(served))
        _CACHE.clear()
        _CACHE[GAMES.version] = (served, registry)
    return _CACHE[GAMES.version][0]


def _template_for(doc: dict, path: str, method: str) -> str:
    for template, item in doc["paths"].items():
        pattern = "^" + re.sub(r"\\\{[^}]+\\\}", "[^/.]+", re.escape(template)) + "$"
        if re.match(pattern, path) and method.lower() in item:
            return template
    raise AssertionError(f"{method} {path} is not in the OpenAPI document")


def check_response(app, method: str, path: str, response) -> None:
    """Fail unless the response's status and body are documented for this operation."""
    doc = document(app)
    registry = _CACHE[GAMES.version][1]
    path = path.split("?")[0]
    operation = doc["paths"][_template_for(doc, path, method)][method.lower()]
    status = str(response.status_code)
    documented = operation["responses"]
    assert status in documented, (
        f"{method} {path} answered {status}, documented: {list(documented)}"
    )
    content = documented[status].get("content")
    if content is None:
        assert not response.data, f"{method} {path} {status} should have no body"
        return
    media = response.mimetype
    assert media in content, f"{media} is not one of {list(content)}"
    if media != "application/json":
        return
    schema = _absolute_refs(content[media]["schema"])
    Draft202012Validator(schema, registry=registry).validate(response.get_json())


def _absolute_refs(node):
    if isinstance(node, dict):
        return {
            key: (
                "urn:openapi" + value
                if key == "$ref" and value.startswith("#")
                else _absolute_refs(value)
            )
            for key, value in node.items()
        }
    if isinstance(node, list):
        return [_absolute_refs(item) for item in node]
    return node
