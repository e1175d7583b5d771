"""Game nights, history, player statistics, leaderboards, export and backup (pages)."""

from __future__ import annotations

from flask import Blueprint

bp = Blueprint("history", __name__)
