"""The history part of the JSON API: nights, statistics, CSV, backup and restore."""

from __future__ import annotations

from flask import Blueprint

from scorekeeper.extensions import csrf

bp = Blueprint("api_history", __name__, url_prefix="/api/v1")
csrf.exempt(bp)
