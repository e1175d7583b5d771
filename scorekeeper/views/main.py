"""The home page."""

from __future__ import annotations

from flask import Blueprint
from flask import redirect
from flask import render_template
from flask import url_for
from flask_login import current_user

from scorekeeper.games import GAMES
from scorekeeper.services import nights
from scorekeeper.services import players

bp = Blueprint("main", __name__)


@bp.route("/")
def home():
    """Start page: tonight's game night and the games in progress, one tap away."""
    if not current_user.is_authenticated:
        return redirect(url_for("auth.login"))
    roster = [player for player in players.roster(current_user) if not player.archived]
    tonight = nights.tonight(current_user)
    return render_template(
        "home.html",
        roster=roster,
        tonight=tonight,
        tonight_games=list(tonight.games) if tonight else [],
        in_progress=nights.games_in_progress(current_user),
        titles={key: GAMES[key].title for key in GAMES},
        night_title=nights.night_title,
    )


@bp.route("/healthz")
def health():
    """For load balancers: the app answers and reaches its database."""
    from sqlalchemy import text

    from scorekeeper.extensions import db

    db.session.execute(text("SELECT 1"))
    return {"status": "ok"}
