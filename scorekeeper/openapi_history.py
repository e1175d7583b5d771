"""OpenAPI paths and schemas of the history part of the API: nights, statistics, export,
backup and restore. Merged into the document by ``scorekeeper.openapi.document``."""

from __future__ import annotations

SCHEMAS: dict = {}

PATHS: dict = {}
