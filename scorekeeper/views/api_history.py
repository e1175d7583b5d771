"""The history part of the JSON API: nights, statistics, CSV, backup and restore."""

from __future__ import annotations

import math

from flask import Blueprint
from flask import current_app
from flask import g
from flask import jsonify
from flask import request
from werkzeug.exceptions import RequestEntityTooLarge

from scorekeeper.errors import Refusal
from scorekeeper.extensions import csrf
from scorekeeper.services import backup
from scorekeeper.services import games
from scorekeeper.services import nights
from scorekeeper.services import stats
from scorekeeper.views.common import json_body
from scorekeeper.views.common import no_store
from scorekeeper.views.common import page_number
from scorekeeper.views.common import token_required
from scorekeeper.views.history.backup import restore_limit
from scorekeeper.views.history.nights import NIGHTS_PER_PAGE
from scorekeeper.views.history.nights import csv_response

bp = Blueprint("api_history", __name__, url_prefix="/api/v1")
csrf.exempt(bp)

NIGHT_FIELDS = {"date", "name", "place", "notes"}


bp.after_request(no_store)


# Nights ------------------------------------------------------------------------------------


@bp.post("/nights")
@token_required
def create_night():
    """Start a game night (dated today unless a date is given)."""
    body = json_body()
    unknown = set(body) - NIGHT_FIELDS
    if unknown:
        field = sorted(unknown)[0]
        raise Refusal("wrong_type", f"Unknown field “{field}”.", field)
    night = nights.create_night(
        g.account, body.get("date"), body.get("name"), body.get("place"), body.get("notes")
    )
    return jsonify(nights.night_json(night, games=[])), 201


@bp.get("/nights")
@token_required
def list_nights():
    """A page of nights, newest first, each with its games' ids, kinds, status and winners."""
    page = page_number()
    per_page = current_app.config.get("NIGHTS_PER_PAGE", NIGHTS_PER_PAGE)
    rows, total = nights.list_nights(
        g.account,
        player=request.args.get("player") or None,
        kind=request.args.get("game") or None,
        page=page,
        per_page=per_page,
    )
    return jsonify(
        {
            "nights": [nights.night_json(row.night, row.games, row.game_count) for row in rows],
            "page": page,
            "per_page": per_page,
            "pages": max(1, math.ceil(total / per_page)),
            "total": total,
        }
    )


@bp.get("/nights/<int:night_id>")
@token_required
def get_night(night_id: int):
    """A night with every game in it and the games' standings."""
    night = nights.get_night(g.account, night_id)
    return jsonify(nights.night_json(night))


# Statistics --------------------------------------------------------------------------------


@bp.get("/players/<int:player_id>/stats")
@token_required
def player_stats(player_id: int):
    """A player's statistics, game by game."""
    return jsonify(stats.player_stats(g.account, player_id).to_json())


@bp.get("/leaderboards/<game>")
@token_required
def leaderboard(game: str):
    """Everyone's record at one game (finished games), best first."""
    lines = stats.leaderboard(g.account, game)
    return jsonify({"game": game, "players": [line.to_json() for line in lines]})


# Export, backup, restore -------------------------------------------------------------------


@bp.get("/games/<int:game_id>.csv")
@token_required
def game_csv(game_id: int):
    """The game's score sheet as CSV."""
    return csv_response(games.load(g.account, game_id))


@bp.get("/backup")
@token_required
def get_backup():
    """The whole account as one JSON document."""
    return jsonify(backup.export_account(g.account))


@bp.post("/restore")
@token_required
def restore():
    """Restore a backup into this account, which must hold no data: all of it or nothing."""
    request.max_content_length = restore_limit()
    try:
        raw = request.get_data(cache=False)
    except RequestEntityTooLarge:
        limit = restore_limit() / 1024 / 1024
        raise backup.refuse(
            f"This backup is larger than the {limit:g} MB this server accepts."
        ) from None
    counts = backup.restore_account(g.account, backup.read_document(raw))
    return jsonify({"restored": counts}), 201
