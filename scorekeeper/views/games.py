"""Game pages: set up a game, enter each hand, correct, undo, reopen; the score sheet."""

from __future__ import annotations

from flask import Blueprint
from flask import abort
from flask import flash
from flask import redirect
from flask import render_template
from flask import request
from flask import url_for
from flask_login import current_user
from flask_login import login_required

from scorekeeper.errors import Refusal
from scorekeeper.forms import ActionForm
from scorekeeper.games import GAMES
from scorekeeper.games import entry_form
from scorekeeper.services import games
from scorekeeper.services import nights
from scorekeeper.services import players as roster
from scorekeeper.views.setup_form import NEW_PLAYER_ROWS
from scorekeeper.views.setup_form import OPTION_CHOICE_LABELS
from scorekeeper.views.setup_form import OPTION_HINTS
from scorekeeper.views.setup_form import read_setup

bp = Blueprint("games", __name__, url_prefix="/games")


@bp.before_request
@login_required
def require_login():
    """Every game page needs a logged-in account."""


def check_action(game_id: int | None = None) -> None:
    """Refuse a forged or expired form; a game that is not the account's is a 404 first."""
    if game_id is not None:
        games.get_game(current_user, game_id)
    if not ActionForm().validate_on_submit():
        abort(400)


@bp.get("/")
def index():
    """Games in progress first, then finished ones, newest first."""
    found, total = games.list_games(current_user, per_page=50)
    return render_template(
        "games/index.html",
        in_progress=[g for g in found if g.status == "in_progress"],
        finished=[g for g in found if g.status == "finished"],
        total=total,
        titles={key: GAMES[key].title for key in GAMES},
    )


@bp.route("/new", methods=["GET", "POST"])
def new():
    """Choose a game, its players in seat order, the first dealer and the options."""
    kind = request.values.get("game")
    if kind not in GAMES:
        return render_template(
            "games/choose.html",
            choices=[plugin.rules for plugin in GAMES.values()],
            night=request.args.get("night", ""),
        )
    game_rules = GAMES[kind].rules
    active = [p for p in roster.roster(current_user) if not p.archived]
    night_arg = request.values.get("night", "")
    night = nights.get_night(current_user, int(night_arg), False) if night_arg.isdigit() else None
    refusal = None
    if request.method == "POST":
        check_action()
        try:
            names, first_dealer, options = read_setup(request.form, active, game_rules)
            result = games.create_game(
                current_user, kind, names, options, first_dealer, night.id if night else None
            )
        except Refusal as error:
            refusal = error
        else:
            message = f"{game_rules.title} started: {', '.join(result.players)}."
            if request.form.get("first_dealer") == "random":
                message += f" {result.state.next['dealer']} deals first (picked at random)."
            flash(message, "success")
            return redirect(url_for("games.show", game_id=result.game.id))
    return (
        render_template(
            "games/new.html",
            rules=game_rules,
            kind=kind,
            night=night,
            roster=active,
            specs=game_rules.option_specs(game_rules.max_players),
            choice_labels=OPTION_CHOICE_LABELS,
            option_hints=OPTION_HINTS,
            new_rows=range(1, NEW_PLAYER_ROWS + 1),
            form=request.form,
            refusal=refusal,
            action_form=ActionForm(formdata=None),
        ),
        422 if refusal else 200,
    )


def game_context(result) -> dict:
    """What one game's templates need beyond the state."""
    return result.rules.page_context(result.setup)


def _render_game(result, refusal=None, entered=None, phase=None, status=200):
    template = f"games/{result.game.kind}/show.html"
    return (
        render_template(
            template,
            **game_context(result),
            played=result,
            state=result.state,
            game=result.game,
            refusal=refusal,
            errors=entry_form.field_errors(refusal),
            entered=entered,
            phase=phase,
            running=running_totals(result.state),
            action_form=ActionForm(formdata=None),
        ),
        status,
    )


def running_totals(state) -> list[dict[str, int]]:
    """The totals after each hand, for the score sheet."""
    totals = {side: 0 for side in state.sides}
    rows = []
    for hand in state.hands:
        for side, points in (hand.points or {}).items():
            totals[side] += points
        rows.append(dict(totals))
    return rows


@bp.get("/<int:game_id>")
def show(game_id: int):
    """The game: what to enter next, the reminder of bids, totals and the score sheet."""
    return _render_game(games.load(current_user, game_id))


@bp.post("/<int:game_id>/hands")
def record(game_id: int):
    """Record the next hand's bids (a form always carries the hand number it was made for)."""
    check_action(game_id)
    result = games.load(current_user, game_id)
    phase = request.form.get("phase", "")
    try:
        number = entry_form.whole_or_none(request.form.get("number"), "The hand number", "number")
        entry = GAMES[result.game.kind].read_hand(request.form, result.players, phase)
        games.record_hand(current_user, game_id, entry, number=number)
    except Refusal as refusal:
        return _refused(game_id, refusal, phase)
    return redirect(url_for("games.show", game_id=game_id))


@bp.post("/<int:game_id>/hands/<int:number>")
def update(game_id: int, number: int):
    """Complete a hand (its tricks) or correct it (bids and tricks)."""
    check_action(game_id)
    result = games.load(current_user, game_id)
    phase = request.form.get("phase", "")
    correcting = phase == "both"
    try:
        entry = GAMES[result.game.kind].read_hand(request.form, result.players, phase)
        complete = phase in entry_form.COMPLETING
        games.update_hand(
            current_user, game_id, number, entry, complete=complete, replace=correcting
        )
    except Refusal as refusal:
        if correcting:
            return _render_edit(games.load(current_user, game_id), number, refusal, 422)
        return _refused(game_id, refusal, phase)
    if correcting:
        word = result.rules.hand_word
        flash(f"{word} {number} corrected; later {word.lower()}s re-scored.", "success")
    return redirect(url_for("games.show", game_id=game_id))


def _refused(game_id: int, refusal: Refusal, phase: str):
    """Show the game again with the message and everything that was typed."""
    result = games.load(current_user, game_id)
    if refusal.code in ("not_next_hand", "conflict"):
        flash(refusal.message, "warning")
        return redirect(url_for("games.show", game_id=game_id))
    entered = GAMES[result.game.kind].typed(request.form, result.players)
    return _render_game(result, refusal, entered, phase, refusal.status)


@bp.get("/<int:game_id>/hands/<int:number>/edit")
def edit(game_id: int, number: int):
    """Correct a hand: its bids and tricks, prefilled."""
    return _render_edit(games.load(current_user, game_id), number)


def _render_edit(result, number, refusal=None, status=200):
    if not 1 <= number <= len(result.state.hands):
        abort(404)
    hand = result.state.hands[number - 1]
    entered = None
    if refusal is not None:
        entered = GAMES[result.game.kind].typed(request.form, result.players)
    return (
        render_template(
            f"games/{result.game.kind}/edit.html",
            **game_context(result),
            played=result,
            game=result.game,
            hand=hand,
            refusal=refusal,
            errors=entry_form.field_errors(refusal),
            entered=entered,
            action_form=ActionForm(formdata=None),
        ),
        status,
    )


@bp.post("/<int:game_id>/hands/<int:number>/undo")
def undo(game_id: int, number: int):
    """Undo the last hand."""
    check_action(game_id)
    try:
        result = games.undo_last_hand(current_user, game_id, number)
    except Refusal as refusal:
        flash(refusal.message, "warning")
    else:
        flash(f"{result.rules.hand_word} {number} removed.", "success")
    return redirect(url_for("games.show", game_id=game_id))


@bp.post("/<int:game_id>/reopen")
def reopen(game_id: int):
    """Reopen a finished game to correct a mistake."""
    check_action(game_id)
    try:
        games.reopen(current_user, game_id)
    except Refusal as refusal:
        flash(refusal.message, "warning")
    else:
        flash("Game reopened: correct what needs correcting, then close it again.", "info")
    return redirect(url_for("games.show", game_id=game_id))


@bp.post("/<int:game_id>/close")
def close(game_id: int):
    """Close a reopened game again."""
    check_action(game_id)
    try:
        games.close(current_user, game_id)
    except Refusal as refusal:
        flash(refusal.message, "warning")
    return redirect(url_for("games.show", game_id=game_id))
