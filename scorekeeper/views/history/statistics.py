"""Statistics pages: every player's figures, and a leaderboard per game."""

from __future__ import annotations

from flask import abort
from flask import render_template
from flask import request
from flask_login import current_user

from scorekeeper.games import GAMES
from scorekeeper.services import games
from scorekeeper.services import players as roster
from scorekeeper.services import ratings
from scorekeeper.services import stats
from scorekeeper.views.history.blueprint import bp
from scorekeeper.views.history.blueprint import titles


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


@bp.get("/stats/ratings")
def ratings_board():
    """The ratings across nights, best first: over every card game, or of one game."""
    game = request.args.get("game")
    if game is not None and (game not in GAMES or not GAMES[game].rules.rated_together):
        abort(404)
    where = ratings.ALL if game is None else ratings.scope(game)
    return render_template(
        "history/ratings.html",
        kind=game,
        lines=games.ratings(current_user, where, history=False),
        boards={key: title for key, title in titles().items() if GAMES[key].rules.rated_together},
        titles=titles(),
    )


@bp.get("/stats/<game>")
def leaderboard(game: str):
    """Everyone's record at one game, best first (of one variant, with ``?variant=``)."""
    if game not in GAMES:
        abort(404)
    variant = request.args.get("variant")
    return render_template(
        "history/leaderboard.html",
        kind=game,
        title=GAMES[game].title,
        lines=stats.leaderboard(current_user, game, variant),
        variant=variant,
        variants=stats.variants(current_user, game),
        plays=stats.finished_games(current_user, game, variant),
        rules=GAMES[game].rules,
        titles=titles(),
    )
