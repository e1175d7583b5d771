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

#: The query arguments of the account's lists (games, nights): by player, by game, page.
LIST_FILTERS = [
    {"name": "player", "in": "query", "schema": {"type": "string"}},
    {"name": "game", "in": "query", "schema": {"type": "string"}},
    {"name": "page", "in": "query", "schema": {"type": "integer", "minimum": 1}},
]

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
    "NewGame": {
        "type": "object",
        "required": ["game", "players"],
        "properties": {
            "game": {"enum": ["oh_hell", "pitch", "oklahoma_gin"]},
            "players": {
                "type": "array",
                "items": {"type": "string"},
                "description": "Names in seat order, clockwise; new names join the roster.",
            },
            "options": {"type": "object", "description": "See API.md; defaults fill the rest."},
            "first_dealer": {"type": "string"},
            "night_id": {"type": ["integer", "null"]},
        },
    },
    "Hand": {
        "type": "object",
        "required": ["number", "dealer", "status", "input", "points"],
        "properties": {
            "number": {"type": "integer", "minimum": 1},
            "dealer": {"type": "string"},
            "status": {"enum": ["bidding", "playing", "scored"]},
            "input": {"type": "object", "description": "As entered (normalised)."},
            "points": {
                "type": ["object", "null"],
                "additionalProperties": {"type": "integer"},
            },
            "cards": {"type": "integer", "description": "Oh Hell"},
            "no_trump": {"type": "boolean", "description": "Oh Hell"},
            "pitcher": {"type": "string", "description": "Pitch"},
            "bid": {"type": "integer", "description": "Pitch"},
            "stolen": {"type": "boolean", "description": "Pitch"},
            "made": {"description": "Pitch: bool or null; Oh Hell: {name: bool} or null"},
            "knock_limit": {"type": "integer", "description": "Oklahoma Gin"},
            "result": {"enum": ["knock", "gin", "draw"], "description": "Oklahoma Gin"},
            "winner": {"type": ["string", "null"], "description": "Oklahoma Gin"},
            "undercut": {"type": "boolean", "description": "Oklahoma Gin"},
            "doubled": {"type": "boolean", "description": "Oklahoma Gin: spade upcard"},
            "upcard": {"type": "string", "description": "Oklahoma Gin"},
        },
    },
    "Next": {
        "type": "object",
        "required": [
            "number",
            "dealer",
            "order",
            "cards",
            "no_trump",
            "forbidden_dealer_bid",
            "knock_limit",
        ],
        "properties": {
            "number": {"type": "integer"},
            "dealer": {"type": "string"},
            "order": {"type": ["array", "null"], "items": {"type": "string"}},
            "cards": {"type": ["integer", "null"]},
            "no_trump": {"type": ["boolean", "null"]},
            "forbidden_dealer_bid": {"type": ["integer", "null"]},
            "knock_limit": {"type": ["integer", "null"]},
        },
    },
    "GameState": {
        "type": "object",
        "required": [
            "id",
            "game",
            "options",
            "players",
            "teams",
            "status",
            "hands",
            "totals",
            "winners",
            "bonuses",
            "next",
        ],
        "properties": {
            "id": {"type": "integer"},
            "game": {"enum": ["oh_hell", "pitch", "oklahoma_gin"]},
            "night_id": {"type": ["integer", "null"]},
            "options": {"type": "object"},
            "players": {"type": "array", "items": {"type": "string"}},
            "teams": {
                "type": ["array", "null"],
                "items": {"type": "array", "items": {"type": "string"}},
            },
            "status": {"enum": ["in_progress", "finished"]},
            "locked": {"type": "boolean", "description": "Finished and not reopened."},
            "hands": {"type": "array", "items": ref("Hand")},
            "totals": {"type": "object", "additionalProperties": {"type": "integer"}},
            "winners": {"type": "array", "items": {"type": "string"}},
            "bonuses": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["player", "kind", "points"],
                    "properties": {
                        "player": {"type": "string"},
                        "kind": {"enum": ["game", "box", "shutout"]},
                        "points": {"type": "integer"},
                    },
                },
            },
            "notices": {"type": "array", "items": {"type": "string"}},
            "next": {"oneOf": [{"type": "null"}, ref("Next")]},
        },
    },
    "GameSummary": {
        "type": "object",
        "required": ["id", "game", "players", "status", "hands", "totals", "winners"],
        "properties": {
            "id": {"type": "integer"},
            "game": {"type": "string"},
            "players": {"type": "array", "items": {"type": "string"}},
            "status": {"enum": ["in_progress", "finished"]},
            "hands": {"type": "integer"},
            "totals": {"type": "object", "additionalProperties": {"type": "integer"}},
            "winners": {"type": "array", "items": {"type": "string"}},
            "night_id": {"type": ["integer", "null"]},
            "created_at": {"type": "string"},
        },
    },
    "GameList": {
        "type": "object",
        "required": ["games", "page", "per_page", "total"],
        "properties": {
            "games": {"type": "array", "items": ref("GameSummary")},
            "page": {"type": "integer"},
            "per_page": {"type": "integer"},
            "total": {"type": "integer"},
        },
    },
    "HandBody": {
        "type": "object",
        "description": "Per game, see API.md 'Hand bodies'; number guards against repeats.",
        "properties": {"number": {"type": "integer"}},
    },
}


def game_id_parameter() -> dict:
    return {"name": "game_id", "in": "path", "required": True, "schema": {"type": "integer"}}


def state_responses(success: str, *errors: int) -> dict:
    return {
        success: {"description": "The game state", **json_content(ref("GameState"))},
        **error_responses(*errors),
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
    "/api/v1/games": {
        "get": {
            "summary": "A page of the account's games, newest first",
            "security": BEARER,
            "parameters": LIST_FILTERS,
            "responses": {
                "200": {"description": "Games", **json_content(ref("GameList"))},
                **error_responses(400, 401),
            },
        },
        "post": {
            "summary": "Create a game",
            "security": BEARER,
            "requestBody": {"required": True, **json_content(ref("NewGame"))},
            "responses": state_responses("201", 400, 401, 404, 422),
        },
    },
    "/api/v1/games/{game_id}": {
        "parameters": [game_id_parameter()],
        "get": {
            "summary": "The game state",
            "security": BEARER,
            "responses": state_responses("200", 401, 404),
        },
    },
    "/api/v1/games/{game_id}/hands": {
        "parameters": [game_id_parameter()],
        "post": {
            "summary": "Start or record the next hand (409 when number is not next)",
            "security": BEARER,
            "requestBody": {"required": True, **json_content(ref("HandBody"))},
            "responses": state_responses("201", 400, 401, 404, 409, 422),
        },
    },
    "/api/v1/games/{game_id}/hands/{number}": {
        "parameters": [
            game_id_parameter(),
            {"name": "number", "in": "path", "required": True, "schema": {"type": "integer"}},
        ],
        "patch": {
            "summary": "Complete or correct a hand; later hands are re-scored",
            "security": BEARER,
            "requestBody": {"required": True, **json_content(ref("HandBody"))},
            "responses": state_responses("200", 400, 401, 404, 409, 422),
        },
        "delete": {
            "summary": "Undo the last hand",
            "security": BEARER,
            "responses": state_responses("200", 401, 404, 409, 422),
        },
    },
    "/api/v1/games/{game_id}/reopen": {
        "parameters": [game_id_parameter()],
        "post": {
            "summary": "Reopen a finished game to correct a hand",
            "security": BEARER,
            "responses": state_responses("200", 401, 404, 409, 422),
        },
    },
    "/api/v1/games/{game_id}/share": {
        "parameters": [game_id_parameter()],
        "post": {
            "summary": "Share the game: the absolute link of its read-only live view",
            "security": BEARER,
            "responses": {
                "201": {
                    "description": "The link (the same one until revoked)",
                    **json_content(
                        {
                            "type": "object",
                            "required": ["url"],
                            "properties": {"url": {"type": "string", "format": "uri"}},
                            "additionalProperties": False,
                        }
                    ),
                },
                **error_responses(401, 404),
            },
        },
        "delete": {
            "summary": "Revoke the link (it then answers 404)",
            "security": BEARER,
            "responses": {"204": {"description": "Revoked"}, **error_responses(401, 404)},
        },
    },
    "/api/v1/games/{game_id}/close": {
        "parameters": [game_id_parameter()],
        "post": {
            "summary": "Close a reopened game again",
            "security": BEARER,
            "responses": state_responses("200", 401, 404, 409, 422),
        },
    },
}


def document() -> dict:
    """The whole OpenAPI document (the history part lives in ``openapi_history``)."""
    from scorekeeper import openapi_history

    schemas = {**deepcopy(SCHEMAS), **deepcopy(openapi_history.SCHEMAS)}
    paths = {**deepcopy(PATHS), **deepcopy(openapi_history.PATHS)}
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
            "schemas": schemas,
        },
        "paths": paths,
    }
