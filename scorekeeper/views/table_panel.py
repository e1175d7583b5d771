"""The "Table" panel of a game (RULES.md, "the table changes mid-game"): a player joins,
leaves, sits out the next hand, hands their seat over, gets points with a note, and the
hands still to play change; the last change is undone from here too.

The panel offers only what the game allows (``rules.table_changes``); each kind is one form
that this view reads into a change body and hands to the table service once. A refusal comes
back beside its field with what was typed; a saved change goes back to the game with the
change said as a sentence (``table.describe``).
"""

from __future__ import annotations

from flask import Blueprint
from flask import abort
from flask import flash
from flask import redirect
from flask import request
from flask import url_for
from flask_login import current_user
from flask_login import login_required

from scorekeeper.errors import Refusal
from scorekeeper.errors import as_refusal
from scorekeeper.games import entry_form
from scorekeeper.games import page_context
from scorekeeper.games import table as table_rules
from scorekeeper.games import table_form
from scorekeeper.games.i18n import _
from scorekeeper.games.table_form import typed_for
from scorekeeper.i18n import digits_of
from scorekeeper.i18n import locale_code
from scorekeeper.services import games
from scorekeeper.services import players as roster
from scorekeeper.services import table
from scorekeeper.views.common import check_action
from scorekeeper.views.common import never_kept
from scorekeeper.views.games import game_page
from scorekeeper.views.games import owned_action
from scorekeeper.views.idempotency import keyed

bp = Blueprint("table_panel", __name__, url_prefix="/games")
bp.after_request(never_kept)


@bp.before_request
@login_required
def require_login():
    """Every panel needs a logged-in account."""


@bp.get("/<int:game_id>/table/changes")
def panel(game_id: int):
    """The table's changes this game allows, one form each (``?kind=join`` opens one)."""
    return _render(games.load(current_user, game_id), request.args.get("kind", ""))


@bp.post("/<int:game_id>/table/changes")
@keyed
def record(game_id: int):
    """Record one change before the next hand; back to the game, saying it."""
    kind = request.form.get("kind", "")
    try:
        with as_refusal():
            body = read_change(request.form, kind)
            before_hand = table_form.read_before_hand(request.form)
    except Refusal as refusal:
        return _render(games.as_it_stands(owned_action(game_id), refusal), kind, refusal)
    game, known = table.game_for(current_user, game_id, body)
    check_action()
    try:
        result = table.record_change(game, body, before_hand, known)
    except Refusal as refusal:
        if refusal.code in ("not_next_hand", "conflict", "not_found"):
            flash(refusal.message, "warning")
            return redirect(url_for("table_panel.panel", game_id=game_id))
        return _render(games.as_it_stands(game, refusal), kind, refusal)
    flash(table_rules.describe(result.state.changes[-1]), "success")
    return redirect(url_for("games.show", game_id=game_id, _anchor="now"))


@bp.get("/<int:game_id>/table/changes/<int:change_id>")
def edit(game_id: int, change_id: int):
    """One change's form, filled in as it was recorded, to correct it (or remove it)."""
    result = games.load(current_user, game_id)
    change = _said(result, change_id)
    recorded = next((row.body for row in result.game.changes if row.id == change_id), None)
    return _render(result, change["kind"], editing=change, recorded=recorded)


@bp.post("/<int:game_id>/table/changes/<int:change_id>")
@keyed
def correct(game_id: int, change_id: int):
    """Correct a change: the record is replayed with it (the game read and replayed once); a
    later entry it would break is refused beside the form, with what was typed."""
    kind = request.form.get("kind", "")
    try:
        with as_refusal():
            body = read_change(request.form, kind)
    except Refusal as refusal:
        kept = games.as_it_stands(owned_action(game_id), refusal)
        return _render(kept, kind, refusal, editing=_said(kept, change_id))
    game, known = table.game_for(current_user, game_id, body)
    check_action()
    if not any(row.id == change_id and row.body.get("kind") == kind for row in game.changes):
        abort(404)  # no such change, or the form of another kind
    try:
        corrected = table.correct_change(game, change_id, body, known)
    except Refusal as refusal:
        if refusal.code in ("conflict", "not_found"):
            flash(refusal.message, "warning")
            return redirect(url_for("table_panel.panel", game_id=game_id))
        kept = games.as_it_stands(game, refusal)
        return _render(kept, kind, refusal, editing=_said(kept, change_id))
    now = _said(corrected, change_id)
    flash(_("Change corrected: %(change)s", change=table_rules.describe(now)), "success")
    return redirect(url_for("games.show", game_id=game_id, _anchor="now"))


@bp.post("/<int:game_id>/table/changes/<int:change_id>/remove")
@keyed
def remove(game_id: int, change_id: int):
    """Remove a change (the last one: its undo; an earlier one when nothing after it
    depends on it); everything after it is derived again."""
    game = owned_action(game_id)
    said = _said(games.played(game), change_id)
    try:
        table.remove_change(game, change_id)
    except Refusal as refusal:
        flash(refusal.message, "warning")
        return redirect(url_for("table_panel.edit", game_id=game_id, change_id=change_id))
    flash(_("Change undone: %(change)s", change=table_rules.describe(said)), "success")
    return redirect(url_for("games.show", game_id=game_id, _anchor="now"))


def _said(result: games.Played, change_id: int) -> dict:
    """The change ``change_id`` of the game as the state says it (404 when there is none)."""
    said = next((c for c in result.state.changes if c.get("id") == change_id), None)
    if said is None:
        abort(404)
    return said


def read_change(form, kind: str) -> dict:
    """The change a panel form describes (``table_form.read_change``), numbers read in the
    reader's digits too (Bengali ৫), as the panel writes them."""
    return table_form.read_change(form, kind, digits_of(locale_code()))


def _render(
    result: games.Played,
    kind: str,
    refusal: Refusal | None = None,
    editing: dict | None = None,
    recorded: dict | None = None,
):
    """The panel: what the game allows, the figures each starting total gives now, the
    changes so far (each one correctable, the last one undoable); ``editing``: only that
    change's form, filled in as recorded (or as typed, after a refusal)."""
    active = [p.name for p in roster.roster(current_user) if not p.archived]
    context = page_context.panel_context(
        result.rules, result.game.options, result.state, result.players, active, kind, editing
    )
    if context is None:
        abort(404)
    return game_page(
        result,
        "games/table_changes.html",
        refusal.status if refusal else 200,
        **context,
        refusal=refusal,
        errors=entry_form.field_errors(refusal),
        form=request.form if refusal else typed_for(editing, recorded) if editing else {},
        editing=editing,
    )
