"""Sharing a game: the scorekeeper's share page (link, QR code, revoke) and the public
read-only view the other phones follow live."""

from __future__ import annotations

import hashlib
import io

import segno
from flask import Blueprint
from flask import Response
from flask import abort
from flask import flash
from flask import redirect
from flask import render_template
from flask import request
from flask import url_for
from flask_login import current_user
from flask_login import login_required

from scorekeeper.forms import ActionForm
from scorekeeper.games.i18n import _
from scorekeeper.i18n import locale_code
from scorekeeper.services import games
from scorekeeper.services import seats
from scorekeeper.services import sharing
from scorekeeper.services import stats
from scorekeeper.views.chart import chart
from scorekeeper.views.common import absolute_url
from scorekeeper.views.games import owned_action

bp = Blueprint("share", __name__)

#: Bump when the view's markup changes, so cached copies are not reused.
VIEW_REVISION = "2"


def share_url(game) -> str:
    return absolute_url("share.view", token=game.share_token)


@bp.get("/games/<int:game_id>/share")
@login_required
def manage(game_id: int):
    """The scorekeeper's share page: the link, its QR code, revoke or renew."""
    game = games.get_game(current_user, game_id)
    return render_template(
        "share/manage.html",
        game=game,
        title=game.plugin.title,
        url=share_url(game) if game.share_token else None,
        action_form=ActionForm(formdata=None),
    )


@bp.post("/games/<int:game_id>/share")
@login_required
def create(game_id: int):
    """Share the game (or issue a new link with renew=1, which ends the old one)."""
    game = owned_action(game_id)
    renew = request.form.get("renew") == "1"
    sharing.share(game, renew=renew)
    if renew:
        flash(_("New link made: the old one no longer works."), "success")
    return redirect(url_for("share.manage", game_id=game_id))


@bp.post("/games/<int:game_id>/share/revoke")
@login_required
def revoke(game_id: int):
    """Stop sharing: the link shows nothing from now on."""
    sharing.revoke(owned_action(game_id))
    flash(_("Sharing stopped: the link no longer works."), "success")
    return redirect(url_for("share.manage", game_id=game_id))


@bp.get("/games/<int:game_id>/share/qr.svg")
@login_required
def qr(game_id: int):
    """The share link as a QR code, drawn here (no outside service)."""
    game = games.get_game(current_user, game_id)
    if game.share_token is None:
        abort(404)
    return qr_response(share_url(game))


def qr_response(url: str) -> Response:
    """A link as a QR code (SVG), drawn here: no outside service sees it."""
    out = io.BytesIO()
    segno.make(url, error="m").save(
        out, kind="svg", scale=6, border=2, dark="#000", light="#fff", xmldecl=False
    )
    response = Response(out.getvalue(), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "private, no-cache"
    return response


def _etag(token: str, game_id: int, version: int) -> str:
    """The view's version as this reader gets it: the game's, and the reader's language (a
    viewer who turns to Lao must not be told the English page they hold is current)."""
    raw = f"{VIEW_REVISION}:{game_id}:{version}:{token}:{locale_code()}".encode()
    return hashlib.sha256(raw).hexdigest()[:32]


@bp.get("/view/<token>")
def view(token: str):
    """The read-only view of a shared game; 304 when nothing changed since last time."""
    found = sharing.version_for_token(token)
    if found is None:
        abort(404)
    etag = _etag(token, *found)
    if etag in request.if_none_match:
        response = Response(status=304)
    else:
        result = sharing.game_for_token(token)
        series = stats.progression(result.state, result.rules.hand_word)
        response = Response(
            render_template(
                "share/view.html",
                series=series,
                chart=chart(series),
                played=result,
                state=result.state,
                game=result.game,
                readonly=True,
                draft=seats.draft_of(result),
                **result.rules.page_context(result.setup),
            )
        )
    response.set_etag(etag)
    response.headers["Cache-Control"] = "private, no-cache"
    response.headers["X-Robots-Tag"] = "noindex"
    return response
