"""Game nights, history, player statistics, leaderboards, export and backup (pages)."""

from __future__ import annotations

import json
import math
import re

from flask import Blueprint
from flask import Response
from flask import abort
from flask import current_app
from flask import flash
from flask import redirect
from flask import render_template
from flask import request
from flask import url_for
from flask_login import current_user
from flask_login import login_required
from werkzeug.exceptions import RequestEntityTooLarge

from scorekeeper.errors import Refusal
from scorekeeper.extensions import csrf
from scorekeeper.forms import ActionForm
from scorekeeper.forms import NightForm
from scorekeeper.forms import RestoreForm
from scorekeeper.forms import show_refusal
from scorekeeper.games import GAMES
from scorekeeper.services import backup
from scorekeeper.services import games
from scorekeeper.services import nights
from scorekeeper.services import players as roster
from scorekeeper.services import stats
from scorekeeper.services.stats import Progression
from scorekeeper.views.games import game_context
from scorekeeper.views.games import running_totals

bp = Blueprint("history", __name__)

NIGHTS_PER_PAGE = 10
#: A backup file may be larger than any other request (MAX_CONTENT_LENGTH).
RESTORE_MAX_CONTENT_LENGTH = 16 * 1024 * 1024


@bp.before_request
@login_required
def require_login():
    """Every history page needs a logged-in account."""


@bp.app_template_filter("percent")
def percent(value: float | None) -> str:
    """0.4286 -> "43%"; nothing to divide -> "–"."""
    return "–" if value is None else f"{round(value * 100)}%"


@bp.app_template_filter("average")
def average(value: float | None, places: int = 1) -> str:
    """12.345 -> "12.3"; nothing to divide -> "–"."""
    return "–" if value is None else f"{value:.{places}f}".replace("-", "−")


def titles() -> dict[str, str]:
    return {key: game_rules.title for key, game_rules in GAMES.items()}


def _page_number() -> int:
    raw = request.args.get("page", "1")
    return int(raw) if raw.isdigit() and int(raw) >= 1 else 1


# Nights ------------------------------------------------------------------------------------


@bp.get("/nights/")
def index():
    """History: nights newest first, filtered by player and game, a page at a time."""
    player = (request.args.get("player") or "").strip() or None
    kind = request.args.get("game") or None
    if kind not in GAMES:
        kind = None
    page = _page_number()
    per_page = current_app.config.get("NIGHTS_PER_PAGE", NIGHTS_PER_PAGE)
    rows, total = nights.list_nights(current_user, player, kind, page, per_page)
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
            flash(f"{nights.night_title(night)}: game night started.", "success")
            return redirect(url_for("history.night", night_id=night.id))
    status = 422 if form.errors or form.form_errors else 200
    return render_template("history/night_form.html", form=form, night=None), status


@bp.post("/nights/tonight")
def start_tonight():
    """One tap from home: tonight's night (started now unless there is one already)."""
    if not ActionForm().validate_on_submit():
        abort(400)
    night = nights.tonight(current_user)
    if night is None:
        night = nights.create_night(current_user)
        flash("Tonight's game night started. Start a game in it below.", "success")
    return redirect(url_for("history.night", night_id=night.id))


@bp.get("/nights/<int:night_id>")
def night(night_id: int):
    """A night: its details, each game with its winner and final standings."""
    found = nights.get_night(current_user, night_id)
    return render_template(
        "history/night.html",
        night=found,
        games=list(found.games),
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
    form.submit.label.text = "Save the night"
    if form.validate_on_submit():
        try:
            nights.update_night(current_user, night_id, **_night_form_values(form))
        except Refusal as refusal:
            show_refusal(form, refusal)
        else:
            flash("Night saved.", "success")
            return redirect(url_for("history.night", night_id=night_id))
    status = 422 if form.errors or form.form_errors else 200
    return render_template("history/night_form.html", form=form, night=found), status


@bp.post("/nights/<int:night_id>/games")
def add_game(night_id: int):
    """Put a game of that day that was started on its own into the night."""
    nights.get_night(current_user, night_id, with_games=False)
    if not ActionForm().validate_on_submit():
        abort(400)
    raw = request.form.get("game_id", "")
    if not raw.isdigit():
        abort(400)
    try:
        game = nights.add_game(current_user, night_id, int(raw))
    except Refusal as refusal:
        if refusal.status == 404:
            raise
        flash(refusal.message, "warning")
    else:
        flash(f"{GAMES[game.kind].title} added to this night.", "success")
    return redirect(url_for("history.night", night_id=night_id))


# One game: review page with the chart, and its CSV -----------------------------------------


@bp.get("/history/games/<int:game_id>")
def game(game_id: int):
    """A game to look back on: standings, the score-progression chart, the score sheet."""
    result = games.load(current_user, game_id)
    series = stats.progression(result.state, result.rules.hand_word)
    return render_template(
        "history/game.html",
        **game_context(result),
        played=result,
        state=result.state,
        game=result.game,
        running=running_totals(result.state),
        series=series,
        chart=chart(series),
        title=result.rules.title,
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


# Statistics --------------------------------------------------------------------------------


@bp.get("/stats/")
def stats_index():
    """Statistics: every player (to their page) and a leaderboard per game."""
    return render_template(
        "history/stats_index.html",
        roster=roster.roster(current_user),
        counts=stats.games_per_player(current_user),
        titles=titles(),
    )


@bp.get("/stats/players/<int:player_id>")
def player(player_id: int):
    """One player's statistics, game by game."""
    found = stats.player_stats(current_user, player_id)
    return render_template("history/player.html", stats=found, titles=titles())


@bp.get("/stats/<game>")
def leaderboard(game: str):
    """Everyone's record at one game, best first."""
    if game not in GAMES:
        abort(404)
    return render_template(
        "history/leaderboard.html",
        kind=game,
        title=GAMES[game].title,
        lines=stats.leaderboard(current_user, game),
        titles=titles(),
    )


# Backup and restore ------------------------------------------------------------------------


def _backup_page(form: RestoreForm, status: int = 200):
    return (
        render_template(
            "history/backup.html",
            form=form,
            empty=backup.is_empty(current_user),
            limit_mb=restore_limit() / 1024 / 1024,
        ),
        status,
    )


@bp.get("/backup")
def backup_page():
    """Download a backup of the account; restore one into an empty account."""
    return _backup_page(RestoreForm(formdata=None))


@bp.get("/backup/download")
def backup_download():
    """The whole account as one JSON file."""
    document = backup.export_account(current_user)
    body = json.dumps(document, ensure_ascii=False, separators=(",", ":"))
    name = re.sub(r"[^A-Za-z0-9_-]+", "-", current_user.username).strip("-") or "account"
    day = nights.today().isoformat()
    response = Response(body, mimetype="application/json")
    response.headers["Content-Disposition"] = (
        f'attachment; filename="scorekeeper-{name}-{day}.json"'
    )
    return response


def restore_limit() -> int:
    """The largest backup accepted (bytes): more than other requests may send."""
    return current_app.config.get("RESTORE_MAX_CONTENT_LENGTH", RESTORE_MAX_CONTENT_LENGTH)


@bp.post("/backup")
@csrf.exempt  # checked below, once the larger limit for a backup file is in place
def restore():
    """Restore an uploaded backup into this (empty) account: all of it or nothing."""
    request.max_content_length = restore_limit()
    try:
        if current_app.config.get("WTF_CSRF_ENABLED", True):
            csrf.protect()
        form = RestoreForm()
        valid = form.validate_on_submit()
    except RequestEntityTooLarge:
        form = RestoreForm(formdata=None)
        form.backup.errors = [
            f"That file is larger than the {restore_limit() / 1024 / 1024:g} MB this server "
            "accepts. Nothing was restored."
        ]
        return _backup_page(form, 413)
    if not valid:
        abort(400)
    upload = form.backup.data
    if upload is None or not getattr(upload, "filename", ""):
        form.backup.errors = ["Choose the backup file to restore."]
        return _backup_page(form, 422)
    try:
        document = backup.read_document(upload.read())
        counts = backup.restore_account(current_user, document)
    except Refusal as refusal:
        form.backup.errors = [refusal.message]
        return _backup_page(form, 422)
    flash(
        "Backup restored: "
        f"{counts['players']} players, {counts['nights']} nights, {counts['games']} games.",
        "success",
    )
    return redirect(url_for("history.index"))


# The chart ---------------------------------------------------------------------------------

WIDTH, HEIGHT = 300, 200
LEFT, RIGHT, TOP, BOTTOM = 38, 14, 10, 24


def nice_step(span: float, ticks: int = 4) -> int:
    """A round step (1, 2, 5, 10, 20, 25, 50 ...) giving about ``ticks`` gridlines."""
    raw = max(span / ticks, 1)
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 2.5, 5, 10):
        step = factor * power
        if step >= raw and float(step).is_integer():
            return int(step)
    return int(10 * power)


def chart(series: Progression) -> dict | None:
    """Coordinates of the score-progression chart in a 300 x 200 viewBox (None before any
    score): one polyline per side, gridlines with round values, hand numbers underneath."""
    count = len(series.labels)
    if count < 2:
        return None
    values = [value for line in series.series.values() for value in line]
    low, high = min(0, *values), max(1, *values)
    step = nice_step(high - low)
    low = math.floor(low / step) * step
    high = math.ceil(high / step) * step
    if high == low:
        high = low + step
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(index: int) -> float:
        return round(LEFT + plot_w * index / (count - 1), 1)

    def y(value: float) -> float:
        return round(TOP + plot_h * (high - value) / (high - low), 1)

    every = max(1, math.ceil((count - 1) / 8))
    xticks = [
        {"x": x(i), "label": label}
        for i, label in enumerate(series.labels)
        if i % every == 0 or i == count - 1
    ]
    if len(xticks) >= 2 and xticks[-1]["x"] - xticks[-2]["x"] < 24:
        del xticks[-2]
    lines = []
    for number, side in enumerate(series.sides, start=1):
        points = [(x(i), y(v)) for i, v in enumerate(series.series[side])]
        lines.append(
            {
                "side": side,
                "cls": f"s{(number - 1) % 7 + 1}",
                "points": " ".join(f"{px},{py}" for px, py in points),
                "dots": points if count <= 16 else [],
                "final": series.series[side][-1],
            }
        )
    return {
        "width": WIDTH,
        "height": HEIGHT,
        "left": LEFT,
        "right": WIDTH - RIGHT,
        "top": TOP,
        "bottom": HEIGHT - BOTTOM,
        "yticks": [{"y": y(v), "label": v} for v in range(low, high + 1, step)],
        "zero": y(0),
        "xticks": xticks,
        "lines": lines,
        "word": series.hand_word,
    }
