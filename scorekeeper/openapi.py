"""The OpenAPI 3.1 document for /api/v1, served at /api/v1/openapi.json.

Tests check real responses against the schemas here, so this stays what the server does.
"""

from __future__ import annotations

from copy import deepcopy


def ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


def json_content(schema: dict) -> dict:
    return {"content": {"application/json": {"schema": schema}}}


def error_responses(*statuses: int) -> dict:
    words = {
        400: "Malformed JSON or wrong types",
        401: "No or bad credentials",
        403: "Not allowed (sign-up switched off)",
        404: "Not found, or not this account's",
        409: "A conflicting concurrent change",
        422: "Well-formed but against the rules",
        429: "Too many failed logins",
    }
    return {
        str(status): {"description": words[status], **json_content(ref("Errors"))}
        for status in statuses
    }


BEARER = [{"bearer": []}]

SCHEMAS: dict = {
    "Error": {
        "type": "object",
        "required": ["code", "field", "message"],
        "properties": {
            "code": {"type": "string", "description": "Stable identifier (see API.md)."},
            "field": {"type": ["string", "null"], "description": "Input path, if any."},
            "message": {"type": "string", "description": "A sentence for people."},
        },
        "additionalProperties": False,
    },
    "Errors": {
        "type": "object",
        "required": ["errors"],
        "properties": {"errors": {"type": "array", "minItems": 1, "items": ref("Error")}},
        "additionalProperties": False,
    },
    "Account": {
        "type": "object",
        "required": ["id", "username"],
        "properties": {"id": {"type": "integer"}, "username": {"type": "string"}},
        "additionalProperties": False,
    },
    "Credentials": {
        "type": "object",
        "required": ["username", "password"],
        "properties": {
            "username": {"type": "string", "minLength": 3, "maxLength": 40},
            "password": {"type": "string", "minLength": 8},
        },
    },
    "Token": {
        "type": "object",
        "required": ["token"],
        "properties": {"token": {"type": "string"}},
        "additionalProperties": False,
    },
    "Player": {
        "type": "object",
        "required": ["id", "name", "archived"],
        "properties": {
            "id": {"type": "integer"},
            "name": {"type": "string", "minLength": 1, "maxLength": 40},
            "archived": {"type": "boolean"},
        },
        "additionalProperties": False,
    },
    "PlayerList": {
        "type": "object",
        "required": ["players"],
        "properties": {"players": {"type": "array", "items": ref("Player")}},
        "additionalProperties": False,
    },
    "NewPlayer": {
        "type": "object",
        "required": ["name"],
        "properties": {"name": {"type": "string"}},
    },
    "PlayerChange": {
        "type": "object",
        "properties": {"name": {"type": "string"}, "archived": {"type": "boolean"}},
        "additionalProperties": False,
    },
}

PATHS: dict = {
    "/api/v1/openapi.json": {
        "get": {
            "summary": "This document",
            "responses": {
                "200": {"description": "OpenAPI 3.1", **json_content({"type": "object"})}
            },
        }
    },
    "/api/v1/accounts": {
        "post": {
            "summary": "Create an account (unless sign-up is switched off)",
            "requestBody": {"required": True, **json_content(ref("Credentials"))},
            "responses": {
                "201": {"description": "Created", **json_content(ref("Account"))},
                **error_responses(400, 403, 422),
            },
        }
    },
    "/api/v1/tokens": {
        "post": {
            "summary": "Exchange HTTP Basic credentials for a bearer token",
            "security": [{"basic": []}],
            "responses": {
                "201": {"description": "A new token", **json_content(ref("Token"))},
                **error_responses(401, 429),
            },
        },
        "delete": {
            "summary": "Revoke the token sent with this request",
            "security": BEARER,
            "responses": {"204": {"description": "Revoked"}, **error_responses(401)},
        },
    },
    "/api/v1/players": {
        "get": {
            "summary": "The roster, archived players last",
            "security": BEARER,
            "responses": {
                "200": {"description": "Players", **json_content(ref("PlayerList"))},
                **error_responses(401),
            },
        },
        "post": {
            "summary": "Add a player",
            "security": BEARER,
            "requestBody": {"required": True, **json_content(ref("NewPlayer"))},
            "responses": {
                "201": {"description": "Added", **json_content(ref("Player"))},
                **error_responses(400, 401, 422),
            },
        },
    },
    "/api/v1/players/{player_id}": {
        "parameters": [
            {"name": "player_id", "in": "path", "required": True, "schema": {"type": "integer"}}
        ],
        "patch": {
            "summary": "Rename, archive or restore a player",
            "security": BEARER,
            "requestBody": {"required": True, **json_content(ref("PlayerChange"))},
            "responses": {
                "200": {"description": "Changed", **json_content(ref("Player"))},
                **error_responses(400, 401, 404, 422),
            },
        },
    },
}


def document() -> dict:
    """The whole OpenAPI document."""
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Scorekeeper API",
            "version": "1",
            "description": "Keep score of Oh Hell, Auction Pitch and Oklahoma Gin. "
            "Errors are {errors: [{code, field, message}]}; a refused request changes nothing.",
        },
        "servers": [{"url": "/"}],
        "components": {
            "securitySchemes": {
                "basic": {"type": "http", "scheme": "basic"},
                "bearer": {"type": "http", "scheme": "bearer"},
            },
            "schemas": deepcopy(SCHEMAS),
        },
        "paths": deepcopy(PATHS),
    }
