"""History pages: game nights, a game to look back on (with its chart) and its CSV."""

from __future__ import annotations

import math

from flask import Response
from flask import abort
from flask import current_app
from flask import flash
from flask import redirect
from flask import render_template
from flask import request
from flask import url_for
from flask_login import current_user

from scorekeeper.errors import Refusal
from scorekeeper.forms import ActionForm
from scorekeeper.forms import NightForm
from scorekeeper.forms import show_refusal
from scorekeeper.games import GAMES
from scorekeeper.games.i18n import _
from scorekeeper.services import backup
from scorekeeper.services import games
from scorekeeper.services import nights
from scorekeeper.services import players as roster
from scorekeeper.services import recap
from scorekeeper.services import stats
from scorekeeper.views.chart import chart
from scorekeeper.views.common import check_action
from scorekeeper.views.common import page_number
from scorekeeper.views.history.blueprint import bp
from scorekeeper.views.history.blueprint import titles

NIGHTS_PER_PAGE = 10
#: Games shown in each night's card of the list (the rest are on the night's own page), so
#: that the list costs the same however many games a night holds.
GAMES_PER_NIGHT = 6


# Nights ------------------------------------------------------------------------------------


@bp.get("/nights/")
def index():
    """History: nights newest first, filtered by player and game, a page at a time."""
    player = (request.args.get("player") or "").strip() or None
    kind = request.args.get("game") or None
    if kind not in GAMES:
        kind = None
    page = page_number()
    per_page = current_app.config.get("NIGHTS_PER_PAGE", NIGHTS_PER_PAGE)
    shown = current_app.config.get("GAMES_PER_NIGHT", GAMES_PER_NIGHT)
    rows, total = nights.list_nights(current_user, player, kind, page, per_page, shown)
    pages = max(1, math.ceil(total / per_page))
    return render_template(
        "history/index.html",
        rows=rows,
        total=total,
        page=page,
        pages=pages,
        player=player,
        kind=kind,
        roster=roster.roster(current_user),
        loose=nights.count_loose_games(current_user, player, kind),
        titles=titles(),
        night_title=nights.night_title,
        standings=nights.standings,
    )


def _night_form_values(form: NightForm) -> dict:
    return {
        "day": form.date.data,
        "name": form.name.data,
        "place": form.place.data,
        "notes": form.notes.data,
    }


@bp.route("/nights/new", methods=["GET", "POST"])
def new_night():
    """Start a game night: the date (today unless changed), a name, place and notes."""
    form = NightForm(data={"date": nights.today().isoformat()})
    if form.validate_on_submit():
        try:
            night = nights.create_night(current_user, **_night_form_values(form))
        except Refusal as refusal:
            show_refusal(form, refusal)
        else:
            flash(_("%(night)s: game night started.", night=nights.night_title(night)), "success")
            return redirect(url_for("history.night", night_id=night.id))
    status = 422 if form.errors or form.form_errors else 200
    return render_template("history/night_form.html", form=form, night=None), status


@bp.post("/nights/tonight")
def start_tonight():
    """One tap from home: tonight's night (started now unless there is one already)."""
    check_action()
    night = nights.tonight(current_user)
    if night is None:
        night = nights.create_night(current_user)
        flash(_("Tonight's game night started. Start a game in it below."), "success")
    return redirect(url_for("history.night", night_id=night.id))


@bp.get("/nights/<int:night_id>")
def night(night_id: int):
    """A night: its details, each game with its winner and final standings."""
    found = nights.get_night(current_user, night_id)
    return render_template(
        "history/night.html",
        night=found,
        games=list(found.games),
        recap=recap.story(found),
        loose=nights.loose_games(current_user, found.date),
        titles=titles(),
        kinds=list(GAMES),
        night_title=nights.night_title,
        standings=nights.standings,
        action_form=ActionForm(formdata=None),
    )


@bp.route("/nights/<int:night_id>/edit", methods=["GET", "POST"])
def edit_night(night_id: int):
    """Change a night's date, name, place or notes."""
    found = nights.get_night(current_user, night_id, with_games=False)
    form = NightForm(
        data={
            "date": found.date.isoformat(),
            "name": found.name,
            "place": found.place,
            "notes": found.notes,
        }
    )
    form.submit.label.text = _("Save the night")
    if form.validate_on_submit():
        try:
            nights.update_night(current_user, night_id, **_night_form_values(form))
        except Refusal as refusal:
            show_refusal(form, refusal)
        else:
            flash(_("Night saved."), "success")
            return redirect(url_for("history.night", night_id=night_id))
    status = 422 if form.errors or form.form_errors else 200
    return render_template("history/night_form.html", form=form, night=found), status


@bp.post("/nights/<int:night_id>/games")
def add_game(night_id: int):
    """Put a game of that day that was started on its own into the night."""
    nights.get_night(current_user, night_id, with_games=False)
    check_action()
    raw = request.form.get("game_id", "")
    if not (raw.isascii() and raw.isdigit()) or int(raw) >= 2**31:
        abort(400)
    try:
        game = nights.add_game(current_user, night_id, int(raw))
    except Refusal as refusal:
        if refusal.status == 404:
            raise
        flash(refusal.message, "warning")
    else:
        flash(_("%(game)s added to this night.", game=GAMES[game.kind].title), "success")
    return redirect(url_for("history.night", night_id=night_id))


# One game: review page with the chart, and its CSV -----------------------------------------


@bp.get("/history/games/<int:game_id>")
def game(game_id: int):
    """A game to look back on: standings, the score-progression chart, the score sheet."""
    result = games.load(current_user, game_id)
    series = stats.progression(result.state, result.rules.hand_word)
    return render_template(
        "history/game.html",
        **result.rules.page_context(result.setup),
        played=result,
        state=result.state,
        game=result.game,
        series=series,
        chart=chart(series),
        title=result.plugin.game_title(result.game.options),
        night_title=nights.night_title,
    )


@bp.get("/games/<int:game_id>/sheet.csv")
def sheet_csv(game_id: int):
    """The game's score sheet as a CSV file (opens in any spreadsheet)."""
    result = games.load(current_user, game_id)
    return csv_response(result)


def csv_filename(result) -> str:
    day = result.game.created_at.date().isoformat()
    kind = result.game.kind.replace("_", "-")
    return f"{kind}-{day}-game-{result.game.id}.csv"


def csv_response(result) -> Response:
    response = Response(backup.game_csv(result), mimetype="text/csv")
    response.headers["Content-Disposition"] = f'attachment; filename="{csv_filename(result)}"'
    return response
