"""The home page."""

from __future__ import annotations

from flask import Blueprint
from flask import abort
from flask import redirect
from flask import render_template
from flask import request
from flask import url_for
from flask_login import current_user

from scorekeeper.extensions import db
from scorekeeper.games import GAMES
from scorekeeper.i18n import COOKIE
from scorekeeper.i18n import LANGUAGES
from scorekeeper.services import nights
from scorekeeper.services import players
from scorekeeper.views.common import check_action
from scorekeeper.views.common import safe_next

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


@bp.post("/language")
def language():
    """Switch the pages' language (a button on every page, with the form's CSRF token, so no
    other site can switch it): remembered for the account (when logged in) and for this
    browser (a cookie, for the pages before logging in); back to the page it was asked on."""
    code = request.form.get("code", "")
    if code not in LANGUAGES:
        abort(404)
    check_action()
    if current_user.is_authenticated:
        current_user.locale = code
        db.session.commit()
    response = redirect(safe_next(request.form.get("next")))
    response.set_cookie(COOKIE, code, max_age=365 * 24 * 3600, samesite="Lax", httponly=True)
    return response
