"""The home page."""

from __future__ import annotations

from flask import Blueprint
from flask import redirect
from flask import render_template
from flask import url_for
from flask_login import current_user

from scorekeeper import rules
from scorekeeper.services import games
from scorekeeper.services import players

bp = Blueprint("main", __name__)


@bp.route("/")
def home():
    """Start page: what to do next at the table."""
    if not current_user.is_authenticated:
        return redirect(url_for("auth.login"))
    roster = [player for player in players.roster(current_user) if not player.archived]
    recent, _ = games.list_games(current_user, per_page=5)
    return render_template(
        "home.html",
        roster=roster,
        in_progress=[game for game in recent if game.status == "in_progress"],
        titles={key: rules.GAMES[key].title for key in rules.GAMES},
    )


@bp.route("/healthz")
def health():
    """For load balancers: the app answers and reaches its database."""
    from sqlalchemy import text

    from scorekeeper.extensions import db

    db.session.execute(text("SELECT 1"))
    return {"status": "ok"}
