"""The roster page: add, rename, archive and restore players."""

from __future__ import annotations

from flask import Blueprint
from flask import flash
from flask import redirect
from flask import render_template
from flask import url_for
from flask_login import current_user
from flask_login import login_required

from scorekeeper.errors import Refusal
from scorekeeper.forms import ActionForm
from scorekeeper.forms import PlayerForm
from scorekeeper.forms import RenameForm
from scorekeeper.forms import show_refusal
from scorekeeper.games.i18n import _
from scorekeeper.services import players

bp = Blueprint("players", __name__, url_prefix="/players")


@bp.before_request
@login_required
def require_login():
    """Every roster page needs a logged-in account."""


def _render(add_form=None, rename_form=None, renaming=None, status=200):
    roster = players.roster(current_user)
    return (
        render_template(
            "players/index.html",
            active=[p for p in roster if not p.archived],
            archived=[p for p in roster if p.archived],
            add_form=add_form or PlayerForm(formdata=None),
            rename_form=rename_form,
            renaming=renaming,
            action_form=ActionForm(formdata=None),
        ),
        status,
    )


@bp.get("/")
def index():
    """The roster: active players, then archived ones."""
    return _render()


@bp.post("/")
def add():
    """Add a player to the roster."""
    form = PlayerForm()
    if form.validate_on_submit():
        try:
            player = players.add_player(current_user, form.name.data)
        except Refusal as refusal:
            show_refusal(form, refusal)
        else:
            flash(_("%(name)s added.", name=player.name), "success")
            return redirect(url_for("players.index"))
    return _render(add_form=form, status=422)


@bp.route("/<int:player_id>/rename", methods=["GET", "POST"])
def rename(player_id: int):
    """Rename a player; past games show the new name."""
    player = players.get_player(current_user, player_id)
    form = RenameForm(data={"name": player.name})
    if form.validate_on_submit():
        old = player.name
        try:
            players.update_player(current_user, player.id, name=form.name.data)
        except Refusal as refusal:
            show_refusal(form, refusal)
            return _render(rename_form=form, renaming=player, status=422)
        flash(_("%(old)s is now %(new)s.", old=old, new=player.name), "success")
        return redirect(url_for("players.index"))
    return _render(rename_form=form, renaming=player)


@bp.post("/<int:player_id>/archive")
def archive(player_id: int):
    """Hide a player from new games; their past games stay."""
    return _set_archived(player_id, True)


@bp.post("/<int:player_id>/restore")
def restore(player_id: int):
    """Bring an archived player back to the roster."""
    return _set_archived(player_id, False)


def _set_archived(player_id: int, archived: bool):
    player = players.get_player(current_user, player_id)
    if ActionForm().validate_on_submit():
        players.update_player(current_user, player.id, archived=archived)
        if archived:
            flash(_("%(name)s archived.", name=player.name), "success")
        else:
            flash(_("%(name)s restored.", name=player.name), "success")
    return redirect(url_for("players.index"))
