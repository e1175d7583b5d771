"""The history blueprint, its login check and the filters its pages use."""

from __future__ import annotations

from flask import Blueprint
from flask_login import login_required

from scorekeeper import i18n
from scorekeeper.games import GAMES

bp = Blueprint("history", __name__)


@bp.before_request
@login_required
def require_login():
    """Every history page needs a logged-in account."""


@bp.app_template_filter("percent")
def percent(value: float | None) -> str:
    """0.4286 -> "43%"; nothing to divide -> "–"."""
    return i18n.percent(value)


@bp.app_template_filter("average")
def average(value: float | None, places: int = 1) -> str:
    """12.345 -> "12.3"; nothing to divide -> "–"."""
    return "–" if value is None else i18n.decimal(value, places)


def titles() -> dict[str, str]:
    return {key: plugin.title for key, plugin in GAMES.items()}
