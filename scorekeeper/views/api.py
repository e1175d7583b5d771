"""The JSON API (v1): the same services and messages as the pages.

Bearer tokens only (no cookies), so the API needs no CSRF token.
"""

from __future__ import annotations

from flask import Blueprint
from flask import current_app
from flask import g
from flask import jsonify
from flask import request
from flask import url_for

from scorekeeper.errors import Refusal
from scorekeeper.extensions import csrf
from scorekeeper.openapi import document as openapi_document
from scorekeeper.services import accounts
from scorekeeper.services import games
from scorekeeper.services import players
from scorekeeper.services import sharing
from scorekeeper.views.common import bearer_token
from scorekeeper.views.common import json_body
from scorekeeper.views.common import no_store
from scorekeeper.views.common import page_number
from scorekeeper.views.common import token_required

bp = Blueprint("api", __name__, url_prefix="/api/v1")
csrf.exempt(bp)


bp.after_request(no_store)


@bp.get("/openapi.json")
def openapi():
    """The OpenAPI document describing this API."""
    return jsonify(openapi_document())


@bp.post("/accounts")
def create_account():
    """Sign up (unless sign-up is switched off)."""
    body = json_body()
    account = accounts.create_account(body.get("username"), body.get("password"))
    return jsonify({"id": account.id, "username": account.username}), 201


@bp.post("/tokens")
def create_token():
    """Exchange HTTP Basic credentials for a bearer token."""
    auth = request.authorization
    if auth is None or auth.type != "basic":
        raise Refusal("unauthorized", "Send your username and password with HTTP Basic auth.")
    account = accounts.authenticate(auth.username, auth.password)
    return jsonify({"token": accounts.issue_token(account)}), 201


@bp.delete("/tokens")
@token_required
def revoke_token():
    """Revoke the token this request was sent with."""
    accounts.revoke_token(bearer_token())
    return "", 204


@bp.get("/players")
@token_required
def list_players():
    """The roster, archived players last."""
    return jsonify({"players": [p.to_json() for p in players.roster(g.account)]})


@bp.post("/players")
@token_required
def add_player():
    """Add a player to the roster."""
    body = json_body()
    if "name" not in body:
        raise Refusal("required", "Enter a name.", "name")
    return jsonify(players.add_player(g.account, body["name"]).to_json()), 201


@bp.patch("/players/<int:player_id>")
@token_required
def update_player(player_id: int):
    """Rename, archive or restore a player."""
    body = json_body()
    unknown = set(body) - {"name", "archived"}
    if unknown:
        field = sorted(unknown)[0]
        raise Refusal("wrong_type", f"Unknown field “{field}”.", field)
    player = players.update_player(
        g.account, player_id, name=body.get("name"), archived=body.get("archived")
    )
    return jsonify(player.to_json())


# Games ------------------------------------------------------------------------------------


@bp.post("/games")
@token_required
def create_game():
    """Create a game: players in seat order, options, first dealer."""
    body = json_body()
    result = games.create_game(
        g.account,
        body.get("game"),
        body.get("players"),
        body.get("options"),
        body.get("first_dealer"),
        body.get("night_id"),
    )
    return jsonify(games.state_json(result)), 201


@bp.get("/games")
@token_required
def list_games():
    """A page of the account's games, newest first."""
    page = page_number()
    per_page = current_app.config["GAMES_PER_PAGE"]
    found = games.list_games(
        g.account,
        player=request.args.get("player") or None,
        kind=request.args.get("game") or None,
        page=page,
        per_page=per_page,
    )
    return jsonify(
        {
            "games": [games.summary_json(game) for game in found.items],
            "page": page,
            "per_page": per_page,
            "total": found.total,
        }
    )


@bp.get("/games/<int:game_id>")
@token_required
def get_game(game_id: int):
    """The game state."""
    return jsonify(games.state_json(games.load(g.account, game_id)))


@bp.post("/games/<int:game_id>/hands")
@token_required
def record_hand(game_id: int):
    """Start or record the next hand; ``number`` guards against double submission."""
    body = json_body()
    number = body.pop("number", None)
    result = games.record_hand(games.get_game(g.account, game_id), body, number=number)
    return jsonify(games.state_json(result)), 201


@bp.patch("/games/<int:game_id>/hands/<int:number>")
@token_required
def update_hand(game_id: int, number: int):
    """Complete or correct a hand; later hands are re-scored."""
    body = json_body()
    body.pop("number", None)
    return jsonify(
        games.state_json(games.update_hand(games.get_game(g.account, game_id), number, body))
    )


@bp.delete("/games/<int:game_id>/hands/<int:number>")
@token_required
def undo_hand(game_id: int, number: int):
    """Undo the last hand."""
    return jsonify(
        games.state_json(games.undo_last_hand(games.get_game(g.account, game_id), number))
    )


@bp.post("/games/<int:game_id>/reopen")
@token_required
def reopen_game(game_id: int):
    """Unlock a finished game to correct a hand."""
    return jsonify(games.state_json(games.reopen(games.get_game(g.account, game_id))))


@bp.post("/games/<int:game_id>/close")
@token_required
def close_game(game_id: int):
    """Lock a finished game again."""
    return jsonify(games.state_json(games.close(games.get_game(g.account, game_id))))


@bp.post("/games/<int:game_id>/share")
@token_required
def share_game(game_id: int):
    """The absolute link of the game's read-only view (made on first call)."""
    game = sharing.share(games.get_game(g.account, game_id))
    return jsonify({"url": url_for("share.view", token=game.share_token, _external=True)}), 201


@bp.delete("/games/<int:game_id>/share")
@token_required
def unshare_game(game_id: int):
    """Revoke the read-only link: it answers 404 from now on."""
    sharing.revoke(games.get_game(g.account, game_id))
    return "", 204
