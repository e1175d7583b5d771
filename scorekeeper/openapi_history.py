"""OpenAPI paths and schemas of the history part of the API: nights, statistics, export,
backup and restore. Merged into the document by ``scorekeeper.openapi.document``."""

from __future__ import annotations

from scorekeeper.openapi import BEARER
from scorekeeper.openapi import LIST_FILTERS
from scorekeeper.openapi import error_responses
from scorekeeper.openapi import json_content
from scorekeeper.openapi import ref

GAME_KEYS = ["oh_hell", "pitch", "oklahoma_gin"]
RATE = {"type": ["number", "null"], "description": "null when there is nothing to divide by"}
COUNT = {"type": "integer", "minimum": 0}
MOMENT = {"type": "string", "description": "ISO 8601 date and time with its zone"}


def _object(required: list[str], properties: dict, closed: bool = True, **extra) -> dict:
    schema = {"type": "object", "required": required, "properties": properties, **extra}
    if closed:
        schema["additionalProperties"] = False
    return schema


_KIND_STATS_COMMON = {
    "game": {"enum": GAME_KEYS},
    "title": {"type": "string"},
    "played": {**COUNT, "description": "Finished games"},
    "won": COUNT,
    "in_progress": COUNT,
    "win_rate": RATE,
    "score_total": {"type": "integer", "description": "Sum of final scores (finished games)"},
    "average_score": RATE,
    "hands": {**COUNT, "description": "Scored hands (rounds), finished games or not"},
    "points_total": {"type": "integer"},
    "points_per_hand": RATE,
}

SCHEMAS: dict = {
    "NewNight": {
        "type": "object",
        "properties": {
            "date": {"type": "string", "format": "date", "description": "Default: today"},
            "name": {"type": "string", "maxLength": 80},
            "place": {"type": "string", "maxLength": 80},
            "notes": {"type": "string", "maxLength": 2000},
        },
        "additionalProperties": False,
    },
    "NightGame": _object(
        ["id", "game", "title", "players", "status", "hands", "winners", "totals", "created_at"],
        {
            "id": {"type": "integer"},
            "game": {"enum": GAME_KEYS},
            "title": {"type": "string"},
            "players": {"type": "array", "items": {"type": "string"}},
            "status": {"enum": ["in_progress", "finished"]},
            "hands": COUNT,
            "winners": {"type": "array", "items": {"type": "string"}},
            "totals": {
                "type": "object",
                "additionalProperties": {"type": "integer"},
                "description": "Final (or current) totals by player or team",
            },
            "created_at": MOMENT,
        },
    ),
    "Night": _object(
        ["id", "date", "name", "place", "notes", "game_count", "games"],
        {
            "id": {"type": "integer"},
            "date": {"type": "string", "format": "date"},
            "name": {"type": "string"},
            "place": {"type": "string"},
            "notes": {"type": "string"},
            "game_count": {**COUNT, "description": "Every game of the night"},
            "games": {
                "type": "array",
                "items": ref("NightGame"),
                "description": "In a filtered list: the night's games that match",
            },
        },
    ),
    "NightList": _object(
        ["nights", "page", "per_page", "pages", "total"],
        {
            "nights": {"type": "array", "items": ref("Night")},
            "page": {"type": "integer"},
            "per_page": {"type": "integer"},
            "pages": {"type": "integer"},
            "total": {"type": "integer"},
        },
    ),
    "HeadToHead": _object(
        ["opponent", "played", "won", "lost"],
        {
            "opponent": _object(
                ["id", "name"], {"id": {"type": "integer"}, "name": {"type": "string"}}
            ),
            "played": COUNT,
            "won": COUNT,
            "lost": COUNT,
        },
    ),
    "OhHellStats": _object(
        [*_KIND_STATS_COMMON, "best_score", "figures"],
        {
            **_KIND_STATS_COMMON,
            "best_score": {"type": ["integer", "null"]},
            "figures": _object(
                ["bids", "bids_made", "zero_bids", "zero_bids_made"],
                {"bids": COUNT, "bids_made": COUNT, "zero_bids": COUNT, "zero_bids_made": COUNT},
            ),
        },
    ),
    "PitchStats": _object(
        [*_KIND_STATS_COMMON, "best_score", "figures"],
        {
            **_KIND_STATS_COMMON,
            "best_score": {"type": ["integer", "null"]},
            "figures": _object(
                ["hands_pitched", "pitches_made", "pitches_set"],
                {"hands_pitched": COUNT, "pitches_made": COUNT, "pitches_set": COUNT},
            ),
        },
    ),
    "OklahomaGinStats": _object(
        [*_KIND_STATS_COMMON, "best_score", "figures", "head_to_head"],
        {
            **_KIND_STATS_COMMON,
            "best_score": {"type": ["integer", "null"]},
            "figures": _object(
                ["rounds_won", "gins", "undercuts", "undercut"],
                {"rounds_won": COUNT, "gins": COUNT, "undercuts": COUNT, "undercut": COUNT},
            ),
            "head_to_head": {"type": "array", "items": ref("HeadToHead")},
        },
    ),
    "PlayerStats": _object(
        ["player", "played", "won", "in_progress", "win_rate", "games"],
        {
            "player": ref("Player"),
            "played": COUNT,
            "won": COUNT,
            "in_progress": COUNT,
            "win_rate": RATE,
            "games": _object(
                GAME_KEYS,
                {
                    "oh_hell": ref("OhHellStats"),
                    "pitch": ref("PitchStats"),
                    "oklahoma_gin": ref("OklahomaGinStats"),
                },
            ),
        },
    ),
    "Leaderboard": _object(
        ["game", "players"],
        {
            "game": {"enum": GAME_KEYS},
            "players": {
                "type": "array",
                "items": _object(
                    ["player", "played", "won", "win_rate", "average_score", "best_score"],
                    {
                        "player": ref("Player"),
                        "played": COUNT,
                        "won": COUNT,
                        "win_rate": RATE,
                        "average_score": RATE,
                        "best_score": {"type": ["integer", "null"]},
                    },
                ),
            },
        },
    ),
    "Backup": _object(
        ["format", "version", "exported_at", "account", "players", "nights", "games"],
        {
            "format": {"const": "scorekeeper-backup"},
            "version": {"const": 1},
            "exported_at": MOMENT,
            "account": {"type": "object", "properties": {"username": {"type": "string"}}},
            "players": {
                "type": "array",
                "items": _object(
                    ["id", "name", "archived", "created_at"],
                    {
                        "id": {"type": "integer"},
                        "name": {"type": "string"},
                        "archived": {"type": "boolean"},
                        "created_at": MOMENT,
                    },
                ),
            },
            "nights": {
                "type": "array",
                "items": _object(
                    ["id", "date", "name", "place", "notes", "created_at"],
                    {
                        "id": {"type": "integer"},
                        "date": {"type": "string", "format": "date"},
                        "name": {"type": "string"},
                        "place": {"type": "string"},
                        "notes": {"type": "string"},
                        "created_at": MOMENT,
                    },
                ),
            },
            "games": {
                "type": "array",
                "items": _object(
                    [
                        "id",
                        "game",
                        "options",
                        "first_dealer",
                        "players",
                        "night",
                        "locked",
                        "created_at",
                        "updated_at",
                        "finished_at",
                        "hands",
                    ],
                    {
                        "id": {"type": "integer"},
                        "game": {"enum": GAME_KEYS},
                        "options": {"type": "object"},
                        "first_dealer": {"type": "integer", "description": "Seat, from 0"},
                        "players": {
                            "type": "array",
                            "items": {"type": "integer"},
                            "description": "Player ids of this document, in seat order",
                        },
                        "night": {"type": ["integer", "null"]},
                        "locked": {"type": "boolean"},
                        "created_at": MOMENT,
                        "updated_at": MOMENT,
                        "finished_at": {"type": ["string", "null"]},
                        "hands": {
                            "type": "array",
                            "items": _object(
                                ["number", "input", "created_at", "updated_at"],
                                {
                                    "number": {"type": "integer", "minimum": 1},
                                    "input": {"type": "object"},
                                    "created_at": MOMENT,
                                    "updated_at": MOMENT,
                                },
                            ),
                        },
                    },
                ),
            },
        },
        description="Everything entered in an account; ids are the document's own.",
    ),
    "Restored": _object(
        ["restored"],
        {
            "restored": _object(
                ["players", "nights", "games", "hands"],
                {"players": COUNT, "nights": COUNT, "games": COUNT, "hands": COUNT},
            )
        },
    ),
}


def _id(name: str) -> dict:
    return {"name": name, "in": "path", "required": True, "schema": {"type": "integer"}}


PATHS: dict = {
    "/api/v1/nights": {
        "get": {
            "summary": "A page of nights, newest first, each with its games",
            "description": "player (a roster name) and game (a game key) keep the nights "
            "with a matching game, each listing its matching games.",
            "security": BEARER,
            "parameters": LIST_FILTERS,
            "responses": {
                "200": {"description": "Nights", **json_content(ref("NightList"))},
                **error_responses(400, 401),
            },
        },
        "post": {
            "summary": "Start a game night",
            "security": BEARER,
            "requestBody": {"required": True, **json_content(ref("NewNight"))},
            "responses": {
                "201": {"description": "The night", **json_content(ref("Night"))},
                **error_responses(400, 401, 422),
            },
        },
    },
    "/api/v1/nights/{night_id}": {
        "parameters": [_id("night_id")],
        "get": {
            "summary": "A night with its games and their standings",
            "security": BEARER,
            "responses": {
                "200": {"description": "The night", **json_content(ref("Night"))},
                **error_responses(401, 404),
            },
        },
    },
    "/api/v1/players/{player_id}/stats": {
        "parameters": [_id("player_id")],
        "get": {
            "summary": "A player's statistics, game by game",
            "security": BEARER,
            "responses": {
                "200": {"description": "Statistics", **json_content(ref("PlayerStats"))},
                **error_responses(401, 404),
            },
        },
    },
    "/api/v1/leaderboards/{game}": {
        "parameters": [
            {"name": "game", "in": "path", "required": True, "schema": {"enum": GAME_KEYS}}
        ],
        "get": {
            "summary": "Everyone's record at one game (finished games), best win rate first",
            "security": BEARER,
            "responses": {
                "200": {"description": "Leaderboard", **json_content(ref("Leaderboard"))},
                **error_responses(401, 404),
            },
        },
    },
    "/api/v1/games/{game_id}.csv": {
        "parameters": [_id("game_id")],
        "get": {
            "summary": "The game's score sheet as CSV",
            "security": BEARER,
            "responses": {
                "200": {
                    "description": "A row per hand, bonus lines, the totals",
                    "content": {"text/csv": {"schema": {"type": "string"}}},
                },
                **error_responses(401, 404),
            },
        },
    },
    "/api/v1/backup": {
        "get": {
            "summary": "The whole account as one JSON document",
            "security": BEARER,
            "responses": {
                "200": {"description": "The backup", **json_content(ref("Backup"))},
                **error_responses(401),
            },
        },
    },
    "/api/v1/restore": {
        "post": {
            "summary": "Restore a backup into an account with no data (all or nothing)",
            "description": "Anything but a whole, undamaged backup of a known version into an "
            "empty account is refused with code restore_refused, and nothing changes.",
            "security": BEARER,
            "requestBody": {"required": True, **json_content(ref("Backup"))},
            "responses": {
                "201": {"description": "Restored", **json_content(ref("Restored"))},
                **error_responses(401, 422),
            },
        },
    },
}
