"""Each player on their own phone, as pages: the seat link (the seats to take), a seat's own
page (the hand, whose turn it is, its bid pad or points, its total and place), the
scorekeeper's seat-link page, and the pages' live event streams.

A phone that takes a seat keeps its seat token in a cookie that only this seat link's pages
receive (no account needed); the scorekeeper's phone keeps the whole game.
"""

from __future__ import annotations

from flask import Blueprint
from flask import abort
from flask import flash
from flask import make_response
from flask import redirect
from flask import render_template
from flask import request
from flask import url_for
from flask_login import current_user
from flask_login import login_required

from scorekeeper.errors import Refusal
from scorekeeper.forms import ActionForm
from scorekeeper.games.i18n import _
from scorekeeper.services import games
from scorekeeper.services import seats
from scorekeeper.services import sharing
from scorekeeper.views.common import absolute_url
from scorekeeper.views.common import never_kept
from scorekeeper.views.events import stream
from scorekeeper.views.games import owned_action
from scorekeeper.views.share import qr_response

bp = Blueprint("seats", __name__)

COOKIE = "seat"
#: How long a phone keeps its seat without opening the page (a long game night).
COOKIE_SECONDS = 2 * 24 * 3600


def seat_link_url(game) -> str:
    return absolute_url("seats.pick", link=game.seat_link)


# The scorekeeper's side -------------------------------------------------------------------


@bp.get("/games/<int:game_id>/seats")
@login_required
def manage(game_id: int):
    """The seat link, its QR code, the seats taken (each can be freed), revoke."""
    game = games.get_game(current_user, game_id)
    return never_kept(
        make_response(
            render_template(
                "seats/manage.html",
                game=game,
                title=game.plugin.title,
                url=seat_link_url(game) if game.seat_link else None,
                taken=seats.claimed_names(game) if game.seat_link else [],
                enters=game.plugin.rules.seat_entry(game.options) is not None,
                action_form=ActionForm(formdata=None),
            )
        )
    )


@bp.post("/games/<int:game_id>/seats")
@login_required
def create(game_id: int):
    """Make the seat link (a new one with renew=1: every seat is freed)."""
    renew = request.form.get("renew") == "1"
    seats.make_link(owned_action(game_id), renew=renew)
    if renew:
        flash(_("New seat link made: every phone must take its seat again."), "success")
    return redirect(url_for("seats.manage", game_id=game_id))


@bp.post("/games/<int:game_id>/seats/revoke")
@login_required
def revoke(game_id: int):
    seats.revoke_link(owned_action(game_id))
    flash(_("The seat link no longer works, and every phone has left its seat."), "success")
    return redirect(url_for("seats.manage", game_id=game_id))


@bp.post("/games/<int:game_id>/seats/<name>/free")
@login_required
def free(game_id: int, name: str):
    seats.free(owned_action(game_id), name)
    flash(_("%(name)s's seat is free: another phone can take it.", name=name), "success")
    return redirect(url_for("seats.manage", game_id=game_id))


@bp.post("/games/<int:game_id>/draft/clear")
@login_required
def clear(game_id: int):
    """Clear what the phones entered for the hand being entered."""
    seats.clear(games.played(owned_action(game_id)))
    flash(_("Cleared: the table enters this hand again."), "success")
    return redirect(url_for("games.show", game_id=game_id))


@bp.get("/games/<int:game_id>/seats/qr.svg")
@login_required
def qr(game_id: int):
    game = games.get_game(current_user, game_id)
    if game.seat_link is None:
        abort(404)
    return qr_response(seat_link_url(game))


@bp.get("/games/<int:game_id>/events")
@login_required
def game_events(game_id: int):
    """The scorekeeper's game page follows the phones' entries (its version only)."""
    games.get_game(current_user, game_id)
    return stream(game_id)


# A player's phone -------------------------------------------------------------------------


def _holder(link: str) -> seats.SeatHolder | None:
    """This phone's seat in the game of ``link``, if it holds one."""
    try:
        holder = seats.seat_for_token(request.cookies.get(COOKIE))
    except Refusal:
        return None
    return holder if holder.game.seat_link == link else None


@bp.get("/play/<link>")
def pick(link: str):
    """The seats to take (those held by another phone say so)."""
    game = seats.game_for_link(link)
    if _holder(link) is not None:
        return redirect(url_for("seats.seat", link=link))
    return _pick_page(game, link)


def _phone_page(html: str, status: int):
    """A page of a player's phone: never indexed, never kept by the browser."""
    response = make_response(html, status)
    response.headers["X-Robots-Tag"] = "noindex"
    return never_kept(response)


def _pick_page(game, link: str, refusal: Refusal | None = None, status: int = 200):
    taken = set(seats.claimed_names(game))
    return _phone_page(
        render_template(
            "seats/pick.html",
            game=game,
            link=link,
            players=seats.claimable(game),
            taken=taken,
            refusal=refusal,
            action_form=ActionForm(formdata=None),
        ),
        status,
    )


@bp.post("/play/<link>")
def take(link: str):
    """Take a seat: this phone keeps its seat token in a cookie for this link's pages."""
    game = seats.game_for_link(link)
    form = ActionForm()
    if not form.validate():
        abort(400)
    try:
        token = seats.claim(game, request.form.get("player"))
    except Refusal as refusal:
        return _pick_page(seats.game_for_link(link), link, refusal, refusal.status)
    response = redirect(url_for("seats.seat", link=link))
    response.set_cookie(
        COOKIE,
        token,
        max_age=COOKIE_SECONDS,
        path=url_for("seats.pick", link=link),
        secure=request.is_secure,
        httponly=True,
        samesite="Lax",
    )
    return response


def _seat_page(holder: seats.SeatHolder, link: str, refusal=None, typed=None, status=200):
    played = games.played(holder.game)
    draft = seats.draft_of(played)
    state = seats.preview(played, draft) if draft is not None else played.state
    return _phone_page(
        render_template(
            "seats/seat.html",
            played=played,
            game=holder.game,
            state=state,
            link=link,
            me=holder.name,
            draft=draft,
            place=seats.place_of(played, holder.name),
            refusal=refusal,
            typed=typed,
            action_form=ActionForm(formdata=None),
        ),
        status,
    )


@bp.get("/play/<link>/seat")
def seat(link: str):
    """This phone's seat: the hand, whose turn it is, its own entry, its total and place."""
    holder = _holder(link)
    if holder is None:
        seats.game_for_link(link)  # 404 for a link that no longer works
        return redirect(url_for("seats.pick", link=link))
    return _seat_page(holder, link)


@bp.post("/play/<link>/seat")
def enter(link: str):
    """This seat's bid, call or points for the hand being entered."""
    holder = _holder(link)
    if holder is None:
        seats.game_for_link(link)
        return redirect(url_for("seats.pick", link=link))
    if not ActionForm().validate():
        abort(400)
    raw = (request.form.get("value") or "").strip()
    try:
        played = games.played(holder.game)
        spec = played.rules.seat_entry(played.setup.options)
        word = spec.word(raw) if spec is not None else None
        value = int(raw) if raw.lstrip("-").isdigit() and raw.isascii() else word
        if value is None:
            raise Refusal("wrong_type", _("Enter a whole number."), "value")
        marks = dict.fromkeys(request.form.getlist("mark"), True)  # a mark's button
        seats.enter(played, holder.name, value, marks=marks)
    except Refusal as refusal:
        return _seat_page(_holder(link) or holder, link, refusal, raw, refusal.status)
    return redirect(url_for("seats.seat", link=link))


@bp.post("/play/<link>/leave")
def leave(link: str):
    """This phone gives its seat up (another phone may take it)."""
    holder = _holder(link)
    if holder is not None and ActionForm().validate():
        seats.free(holder.game, holder.name)
    response = redirect(url_for("seats.pick", link=link))
    response.delete_cookie(COOKIE, path=url_for("seats.pick", link=link))
    return response


@bp.get("/play/<link>/events")
def seat_events(link: str):
    """A seat's page follows the game (its version only: the page asks for itself again)."""
    holder = _holder(link)
    if holder is None:
        abort(404)
    return stream(holder.game.id)


@bp.get("/view/<token>/events")
def view_events(token: str):
    """The shared view follows the game (its version only)."""
    found = sharing.version_for_token(token)
    if found is None:
        abort(404)
    return stream(found[0])
