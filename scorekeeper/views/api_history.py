"""The history part of the JSON API: nights, statistics, CSV, backup and restore."""

from __future__ import annotations

import math

from flask import Blueprint
from flask import Response
from flask import current_app
from flask import g
from flask import request
from flask import url_for
from werkzeug.exceptions import RequestEntityTooLarge

from scorekeeper.api import schemas as s
from scorekeeper.api.spec import an_object
from scorekeeper.api.spec import answers
from scorekeeper.api.spec import declare
from scorekeeper.errors import as_refusal
from scorekeeper.extensions import csrf
from scorekeeper.games import GAMES
from scorekeeper.games.i18n import _
from scorekeeper.models import as_utc
from scorekeeper.services import backup
from scorekeeper.services import games
from scorekeeper.services import nights
from scorekeeper.services import ratings
from scorekeeper.services import recap
from scorekeeper.services import stats
from scorekeeper.services.backup import job as restore_job
from scorekeeper.views.common import no_store
from scorekeeper.views.common import page_number
from scorekeeper.views.common import token_required
from scorekeeper.views.history.backup import restore_limit
from scorekeeper.views.history.backup import unpacked_limit
from scorekeeper.views.history.nights import NIGHTS_PER_PAGE
from scorekeeper.views.history.nights import csv_response

#: A ``player`` filter that cannot be a name (a control character, ...).
NOT_A_NAME = (
    422,
    "A player filter that is no name (name_invalid), a game that is not installed (option_value).",
)

bp = Blueprint("api_history", __name__, url_prefix="/api/v1")
csrf.exempt(bp)
bp.after_request(no_store)


# Nights ------------------------------------------------------------------------------------


@bp.post("/nights")
@token_required
@declare(
    json=s.NewNight,
    resp=answers(
        400,
        401,
        (
            422,
            "A date before 1900-01-01 or more than a year from today (date_invalid), or a "
            "text longer than its limit once spaces are collapsed (text_too_long).",
        ),
        HTTP_201=s.NightOut,
    ),
)
def create_night():
    """Start a game night (dated today unless a date is given)."""
    sent = request.context.json
    night = nights.create_night(g.account, sent.date, sent.name, sent.place, sent.notes)
    return nights.night_answer(night, games=[]), 201


@bp.get("/nights")
@token_required
@declare(query=s.ListQuery, resp=answers(400, 401, NOT_A_NAME, HTTP_200=s.NightList))
def list_nights():
    """A page of nights, newest first, each with its games' ids, kinds, status and winners.

    ``player`` (a roster name) and ``game`` (a game key) keep the nights with a matching
    game, each with its matching games."""
    page = page_number()
    per_page = current_app.config.get("NIGHTS_PER_PAGE", NIGHTS_PER_PAGE)
    found, total = nights.list_night_answers(
        g.account,
        player=request.args.get("player") or None,
        kind=request.args.get("game") or None,
        page=page,
        per_page=per_page,
    )
    return s.NightList(
        nights=found,
        page=page,
        per_page=per_page,
        pages=max(1, math.ceil(total / per_page)),
        total=total,
    )


@bp.get("/nights/<int:night_id>")
@token_required
@declare(resp=answers(401, 404, HTTP_200=s.NightOut))
def get_night(night_id: int):
    """A night with every game in it and the games' standings."""
    night = nights.get_night(g.account, night_id)
    return nights.night_answer(night)


@bp.get("/nights/<int:night_id>/recap")
@token_required
@declare(resp=answers(401, 404, HTTP_200=s.Recap))
def get_recap(night_id: int):
    """The night's story: the winners of each game and its highlights, as facts and as
    sentences in the reader's language."""
    found = recap.night_recap(g.account, night_id)
    return s.Recap(
        games=[s.RecapGame(**game) for game in found.games],
        highlights=[
            s.RecapHighlight(
                kind=moment.kind,
                player=moment.player,
                game_id=moment.game_id,
                hand=moment.hand,
                value=moment.value,
            )
            for moment in found.highlights
        ],
        sentences=found.sentences,
    )


# Statistics --------------------------------------------------------------------------------


@bp.get("/players/<int:player_id>/stats")
@token_required
@declare(resp=answers(401, 404, HTTP_200=s.PlayerStatsOut))
def player_stats(player_id: int):
    """A player's statistics, game by game."""
    return stats.player_stats(g.account, player_id).answer()


@bp.get("/leaderboards/<game>")
@token_required
@declare(query=s.LeaderboardQuery, resp=answers(400, 401, 404, HTTP_200=s.Leaderboard))
def leaderboard(game: str):
    """Everyone's record at one game (finished games), best first; ``variant`` keeps the
    games of one variant (a score pad's game name)."""
    variant = request.args.get("variant")
    lines = stats.leaderboard(g.account, game, variant)
    rules = GAMES[game].rules
    return s.Leaderboard(
        game=game,
        variant=variant,
        plays=stats.finished_games(g.account, game, variant),
        variants=[
            s.Variant(variant=each, label=str(rules.variant_label(each)))
            for each in stats.variants(g.account, game)
        ],
        players=[line.answer() for line in lines],
    )


@bp.get("/ratings")
@token_required
@declare(query=s.RatingsQuery, resp=answers(400, 401, 422, HTTP_200=s.Ratings))
def get_ratings():
    """The ratings (OpenSkill, Plackett-Luce) of one game, or over every card game, best
    first, with each player's ordinal after each of their games."""
    game = request.args.get("game")
    variant = request.args.get("variant")
    with as_refusal():
        where = ratings.ALL if game is None else ratings.scope(game, variant or "")
    moments: dict[int, str] = {}  # each game's end, written once for all its players

    def moment(game_id: int, at) -> str:
        found = moments.get(game_id)
        if found is None:
            found = moments[game_id] = as_utc(at).isoformat()
        return found

    return s.Ratings(
        game=game,
        variant=variant,
        ratings=[
            s.PlayerRating(
                player=line.player,
                player_id=line.player_id,
                mu=line.mu,
                sigma=line.sigma,
                ordinal=line.ordinal,
                games=line.games,
                provisional=line.provisional,
                history=[  # s.RatingPoint, a typed dict
                    {
                        "game_id": point["game_id"],
                        "finished_at": moment(point["game_id"], point["finished_at"]),
                        "ordinal": point["ordinal"],
                    }
                    for point in line.history
                ],
            )
            for line in games.ratings(g.account, where)
        ],
    )


# Export, backup, restore -------------------------------------------------------------------


@bp.get("/games/<int:game_id>.csv")
@token_required
@declare(resp=answers(401, 404, HTTP_200=None), raw="text/csv")
def game_csv(game_id: int):
    """The game's score sheet as CSV."""
    return csv_response(games.load(g.account, game_id))


@bp.get("/backup")
@token_required
@declare(resp=answers(401, HTTP_200=s.Backup), streamed=True)
def get_backup():
    """The whole account as one JSON document, written as it is read (gzip-compressed when
    the client accepts it: ``Content-Encoding: gzip``)."""
    chunks = backup.document_chunks(g.account)
    if request.accept_encodings["gzip"] > 0:
        response = Response(backup.gzipped(chunks), mimetype="application/json")
        response.headers["Content-Encoding"] = "gzip"
    else:
        response = Response(chunks, mimetype="application/json")
    response.headers["Vary"] = "Accept-Encoding"
    return response


@bp.post("/restore")
@token_required
@declare(
    resp=answers(
        400,
        401,
        413,
        (
            422,
            "Not a whole, undamaged backup of a known version, or an account that holds "
            "players, nights or games already (restore_refused).",
        ),
        HTTP_201=s.Restored,
        HTTP_202=s.RestoreJob,
    ),
    raw_body=s.Backup,
)
def restore():
    """Restore a backup into this account, which must hold no data: all of it or nothing.

    The body is the backup as ``GET /backup`` gave it, plain or gzip-compressed. Anything but
    a whole, undamaged backup of a known version into an account with no players, nights or
    games is refused and changes nothing. A small backup is restored at once (201); a large
    one (over 512 KB as sent) in the background: 202 with the job, whose ``status_url`` (also
    the ``Location`` header) says how it goes until it is done or refused."""
    request.max_content_length = restore_limit()
    try:
        raw = request.get_data(cache=False)
    except RequestEntityTooLarge:
        limit = restore_limit() / 1024 / 1024
        raise backup.refuse(
            _("This backup is larger than the %(size)s MB this server accepts.", size=limit)
        ) from None
    if restore_job.in_background(raw):
        job = restore_job.start(g.account, raw, unpacked_limit(), an_object)
        url = url_for("api_history.restore_status", job_id=job.id)
        return _job_answer(job), 202, {"Location": url}
    counts = backup.restore_file(g.account, raw, unpacked_limit(), an_object)
    return s.Restored(restored=counts), 201


@bp.get("/restore/<int:job_id>")
@token_required
@declare(resp=answers(401, 404, HTTP_200=s.RestoreJob))
def restore_status(job_id: int):
    """How a restore in the background goes: checking (games read so far), writing, done
    (the counts), refused (why; nothing changed), failed or stopped (nothing changed)."""
    return _job_answer(restore_job.get(g.account, job_id))


def _job_answer(job) -> s.RestoreJob:
    url = url_for("api_history.restore_status", job_id=job.id)
    return s.RestoreJob(**restore_job.answer(job), status_url=url)
