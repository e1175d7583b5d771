"""Check real API responses against the OpenAPI document the server ships."""

from __future__ import annotations

import re

from jsonschema import Draft202012Validator
from referencing import Registry
from referencing.jsonschema import DRAFT202012

from scorekeeper.openapi import document

DOC = document()
_REGISTRY = Registry().with_resource("urn:openapi", DRAFT202012.create_resource(DOC))


def _template_for(path: str, method: str) -> str:
    for template, item in DOC["paths"].items():
        pattern = "^" + re.sub(r"\\\{[^}]+\\\}", "[^/.]+", re.escape(template)) + "$"
        if re.match(pattern, path) and method.lower() in item:
            return template
    raise AssertionError(f"{method} {path} is not in the OpenAPI document")


def check_response(method: str, path: str, response) -> None:
    """Fail unless the response's status and body are documented for this operation."""
    path = path.split("?")[0]
    operation = DOC["paths"][_template_for(path, method)][method.lower()]
    status = str(response.status_code)
    documented = operation["responses"]
    assert status in documented, (
        f"{method} {path} answered {status}, documented: {list(documented)}"
    )
    content = documented[status].get("content")
    if content is None:
        assert not response.data, f"{method} {path} {status} should have no body"
        return
    media = next(iter(content))
    assert response.mimetype == media, f"{response.mimetype} is not {media}"
    if media != "application/json":
        return
    schema = _absolute_refs(content[media]["schema"])
    Draft202012Validator(schema, registry=_REGISTRY).validate(response.get_json())


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
