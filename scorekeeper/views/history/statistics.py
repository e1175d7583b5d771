"""Statistics pages: every player's figures, and a leaderboard per game."""

from __future__ import annotations

from flask import abort
from flask import render_template
from flask import request
from flask_login import current_user

from scorekeeper.games import GAMES
from scorekeeper.games.i18n import _
from scorekeeper.services import games
from scorekeeper.services import players as roster
from scorekeeper.services import ratings
from scorekeeper.services import stats
from scorekeeper.text import sort_key
from scorekeeper.views.chart import chart
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
    """One player's statistics, game by game, their ratings with a chart of their rating over
    every card game, and a choice of another player to compare with."""
    found = stats.player_stats(current_user, player_id)
    return render_template(
        "history/player.html",
        stats=found,
        rated=rating_lines(found.ratings),
        rating_chart=rating_chart(found.player.name, found.rating_history),
        others=[p for p in roster.roster(current_user) if p.id != found.player.id],
        titles=titles(),
    )


def rating_lines(rated: dict[str, ratings.Rating]) -> list[tuple[str, ratings.Rating]]:
    """A player's ratings as (what they rate, the rating): every card game first, then each
    game by its title (a score pad's by its game's name)."""
    lines = []
    for where, rating in rated.items():
        kind, _slash, variant = where.partition("/")
        if where == ratings.ALL:
            lines.append(((0,), _("Every card game"), rating))
        elif kind in GAMES:
            title = variant or str(GAMES[kind].title)
            lines.append(((1, sort_key(title)), title, rating))
    return [(title, rating) for _key, title, rating in sorted(lines, key=lambda line: line[0])]


#: The most points a rating chart draws (a long career is drawn every few games, the last one
#: always), and the most games its table lists (the latest).
CHART_POINTS, TABLE_ROWS = 120, 20


def rating_chart(name: str, history: list[float]) -> dict | None:
    """The chart of a player's rating after each game (from the newcomer's 0), drawn like a
    game's score chart (``views/chart.py``), with the latest games for its table."""
    if not history:
        return None
    points = [0.0, *(round(ordinal, 1) for ordinal in history)]
    step = -(-len(points) // CHART_POINTS)
    kept = sorted({*range(0, len(points), step), len(points) - 1})
    series = stats.Progression([name], [str(i) for i in kept], {name: [points[i] for i in kept]})
    drawn = chart(series)
    first = max(1, len(history) - TABLE_ROWS + 1)
    drawn["table"] = [(number, history[number - 1]) for number in range(first, len(history) + 1)]
    return drawn


@bp.get("/stats/players/<int:player_id>/versus")
def versus(player_id: int):
    """Head to head: the player against another (``?other=<id>``), in every finished game they
    both played. Without another player (or with the same one), the page asks for one."""
    player = roster.get_player(current_user, player_id)
    other = request.args.get("other", "")
    others = [p for p in roster.roster(current_user) if p.id != player.id]
    if not other.isascii() or not other.isdigit() or int(other) == player.id:
        return render_template(
            "history/versus.html", player=player, others=others, meeting=None, titles=titles()
        )
    found = stats.versus(current_user, player.id, int(other))
    rated = {
        who.id: games.player_ratings(current_user, who.id).get(ratings.ALL)
        for who in (found.player, found.other)
    }
    return render_template(
        "history/versus.html",
        player=player,
        others=others,
        meeting=found,
        rated=rated,
        titles=titles(),
    )


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
