"""Ratings across nights (RULES.md, "Ratings across nights"): OpenSkill's Plackett-Luce model
with its defaults, one rating per game (a score pad per game name: ``rated_by_variant``) and
one over every card game (the games that are ``rated_together``).

Every finished game is a match, taken in the order the games finished, its ranks the game's
final standings (``Game.standing``, derived by the rules with the game's other copies). The
ratings are kept as ``rating_step`` rows: each player's rating after each game of a scope,
and how many games of the scope they have played by then.
A change of a finished game (a correction, a reopen, a deletion, a restore) rewrites the steps
from that game on, so the ratings are always those a replay of the whole history gives; the
games before it are not rated again. A player's rating now, and their games, are their last
step's.

The number shown is the ordinal, mu - 3 sigma: a newcomer starts near 0 and rises as the
rating grows sure. A rating is provisional while sigma is above ``PROVISIONAL_SIGMA``.
"""

from __future__ import annotations

import functools
from array import array
from collections import defaultdict
from collections.abc import Iterable
from collections.abc import Iterator
from dataclasses import dataclass
from dataclasses import field
from datetime import datetime
from typing import Any
from typing import NamedTuple

import sqlalchemy as sa
from openskill.models import PlackettLuce

from scorekeeper.extensions import db
from scorekeeper.games import GAMES
from scorekeeper.models import Game
from scorekeeper.models import Player
from scorekeeper.models import RatingStep
from scorekeeper.models import Seat
from scorekeeper.services import bulk

#: The scope of the rating over every card game.
ALL = "*"
#: Sigma above this marks a rating as provisional: the default is 25/3 (about 8.3); after
#: about five games against a steady table it falls below 6.
PROVISIONAL_SIGMA = 6.0
MODEL = PlackettLuce()
#: Steps written per statement.
CHUNK = 5000


def scope(kind: str, variant: str = "") -> str:
    """The scope of a game kind's own rating (a score pad: its game name's)."""
    plugin = GAMES.get(kind)
    return f"{kind}/{variant}" if plugin.rules.rated_by_variant else kind


def scopes_of(game: Game) -> list[str]:
    """The ratings a game counts in: its own, and the one over every card game."""
    return _scopes(game.kind, game.variant)


def _scopes(kind: str, variant: str) -> list[str]:
    found = [scope(kind, variant)]
    if GAMES.get(kind).rules.rated_together:
        found.append(ALL)
    return found


def _in_scope(where: str):
    """The games of a scope (a condition on ``Game``)."""
    if where == ALL:
        together = [key for key in GAMES if GAMES[key].rules.rated_together]
        return Game.kind.in_(together)
    kind, _, variant = where.partition("/")
    if GAMES.get(kind).rules.rated_by_variant:
        return sa.and_(Game.kind == kind, Game.variant == variant)
    return Game.kind == kind


def changed(account_id: int, game: Game, before: tuple[datetime | None, list | None]) -> None:
    """Re-rate after a change of ``game`` (no commit): ``before`` is its end time and its
    standings before the change. Nothing to do unless it was or is a finished game whose
    standings or end moved."""
    was_at, was_standing = before
    now_at = game.finished_at if game.status == "finished" else None
    if was_at is None and now_at is None:
        return
    if was_at == now_at and was_standing == game.standing:
        return
    wheres = scopes_of(game)
    if was_at is None and _append(account_id, game, wheres):
        return
    since = min(at for at in (was_at, now_at) if at is not None)
    for where in wheres:
        rerate(account_id, where, since)


def _append(account_id: int, game: Game, wheres: list[str]) -> bool:
    """Rate a game that has just finished after every other game of its scopes (the usual
    case: three statements, whatever the history's size); False if a game of one of its
    scopes finished later (then the scope is rated again from it).

    Its place in a scope is found as ``_places_after`` finds it, in the statement that asks
    for later games: not by counting the account's every finished game, which at 10,000
    games took 8.6 ms of every game's end (bench/ratings.py's history), while the save held
    SQLite's turn to write."""
    places = _places_after(account_id, wheres, game.finished_at, game.id)
    if places is None:
        return False
    by_seat = {seat.position: seat.player_id for seat in game.seats}
    known = _last_steps(account_id, wheres, sorted(set(by_seat.values())))
    steps = []
    for where, place in zip(wheres, places, strict=True):
        now = {player: last for (each, player), last in known.items() if each == where}
        order = [(game.id, game.standing, by_seat)]
        steps += (_step(account_id, where, *step) for step in rated(order, now, place))
    if steps:
        db.session.execute(sa.insert(RatingStep), steps)
    return True


def _finished_in(account, where: str):
    """The finished games of scope ``where`` of ``account`` (an id or a bound parameter): a
    condition on ``Game``."""
    return sa.and_(Game.account_id == account, Game.status == "finished", _in_scope(where))


def _in_order():
    """A game's place in the order the games finished, and the place of the bound
    parameters ``at`` and ``key`` (a game's end and id) in it, to compare."""
    at = sa.bindparam("at", type_=Game.finished_at.type)
    return sa.tuple_(Game.finished_at, Game.id), sa.tuple_(at, sa.bindparam("key"))


def _earlier(key: bool):
    """The games that finished before the bound parameter ``at`` (and, with ``key``, those
    that finished at ``at`` with a smaller id than the parameter ``key``)."""
    if not key:
        return Game.finished_at < sa.bindparam("at", type_=Game.finished_at.type)
    order, mark = _in_order()
    return order < mark


@functools.cache
def _places_statement(wheres: tuple[str, ...], key: bool) -> sa.Select:
    """``_places_after``'s statement for the scopes ``wheres``, built once (the parameters
    ``account``, ``at`` and, with ``key``, ``key``): with ``key``, first whether any game of
    each scope finished later; then, for each scope, the last game before and its step's
    place."""
    account = sa.bindparam("account")
    columns = []
    if key:
        order, mark = _in_order()
        later = order > mark
        columns += [
            sa.select(Game.id).where(_finished_in(account, where), later).exists()
            for where in wheres
        ]
    for where in wheres:
        last = (
            sa.select(Game.id)
            .where(_finished_in(account, where), _earlier(key))
            .order_by(Game.finished_at.desc(), Game.id.desc())
            .limit(1)
            .scalar_subquery()
        )
        place = sa.select(RatingStep.position).where(
            RatingStep.game_id == last, RatingStep.scope == where
        )
        columns += [last, place.limit(1).scalar_subquery()]
    return sa.select(*columns)


def _places_after(
    account_id: int, wheres: list[str], at: datetime, key: int | None = None
) -> list[int] | None:
    """Each scope's number of finished games before ``at`` (with ``key``: before the game
    ``key`` that finished at ``at``, in the order the games finished): the place of the last
    of them, plus one, read from its step, both found on the finished games' index
    (``ix_game_account_finished``) in one statement, whatever the history's size. Only
    where that game has no step in the scope (no standings yet) are the games counted.
    With ``key``, None if a game of one of the scopes finished after that game."""
    params = {"account": account_id, "at": at, "key": key}
    row = db.session.execute(_places_statement(tuple(wheres), key is not None), params).one()
    vetoes = len(wheres) if key is not None else 0
    if any(row[:vetoes]):
        return None
    found = row[vetoes:]
    places = []
    for index, where in enumerate(wheres):
        last, place = found[2 * index], found[2 * index + 1]
        if last is None:
            places.append(0)
        elif place is not None:
            places.append(place + 1)
        else:
            counted = sa.select(sa.func.count()).select_from(Game)
            where_ = (_finished_in(account_id, where), _earlier(key is not None))
            places.append(db.session.scalar(counted.where(*where_), params))
    return places


#: What ``_last_steps`` reads of a player's last step in a scope.
_LAST = (RatingStep.scope, RatingStep.player_id, RatingStep.mu, RatingStep.sigma, RatingStep.games)
#: A player's rating and games in a scope, as their last step says: ``(mu, sigma, games)``.
Last = tuple[float, float, int]

#: At most this many players and scopes are read by ``_last_steps`` one seek each (SQLite
#: takes at most 500 parts of a compound statement); more, by ``_latest``.
SEEKS = 200


@functools.cache
def _last_steps_statement(wheres: tuple[str, ...], players: int, before: bool):
    """``_last_steps``'s statement for the scopes ``wheres`` and that many players, built
    once: the parameters ``account``, ``player_0`` ... and, with ``before``, ``before``."""
    below = [RatingStep.position < sa.bindparam("before")] if before else []
    last = [
        sa.select(*_LAST)
        .where(
            RatingStep.account_id == sa.bindparam("account"),
            RatingStep.scope == where,
            RatingStep.player_id == sa.bindparam(f"player_{index}"),
            *below,
        )
        .order_by(RatingStep.position.desc())
        .limit(1)
        .subquery()
        for where in wheres
        for index in range(players)
    ]
    return sa.union_all(*(sa.select(each) for each in last))


def _last_steps(
    account_id: int, wheres: list[str], players: list[int], before: int | None = None
) -> dict[tuple[str, int], Last]:
    """The last rating and games of each of ``players`` in each scope of ``wheres``, among the steps
    before position ``before`` (if given): one statement, each player's last step in a scope
    read at the end of their steps on the scope's index. The steps' greatest positions
    grouped and joined back to their rows (as ``_latest`` reads them) had SQLite read the
    account's every step: at 10,000 games (82,070 steps), 10 ms of every game's end."""
    if not players or not wheres:
        return {}
    if len(players) * len(wheres) > SEEKS:
        return _latest(account_id, wheres, players, before)
    statement = _last_steps_statement(tuple(wheres), len(players), before is not None)
    params = {"account": account_id, "before": before}
    params.update({f"player_{index}": player for index, player in enumerate(players)})
    rows = db.session.execute(statement, params).all()
    return {(where, player): (mu, sigma, games) for where, player, mu, sigma, games in rows}


def _latest(
    account_id: int, wheres: list[str], players: list[int], before: int | None = None
) -> dict[tuple[str, int], Last]:
    """``_last_steps`` for more players than it seeks one by one: the greatest positions of
    the players' steps grouped, joined back to their rows (one statement)."""
    conditions = [
        RatingStep.account_id == account_id,
        RatingStep.scope.in_(wheres),
        RatingStep.player_id.in_(players),
    ]
    if before is not None:
        conditions.append(RatingStep.position < before)
    last = (
        sa.select(
            RatingStep.scope,
            RatingStep.player_id,
            sa.func.max(RatingStep.position).label("position"),
        )
        .where(*conditions)
        .group_by(RatingStep.scope, RatingStep.player_id)
        .subquery()
    )
    rows = db.session.execute(
        sa.select(*_LAST)
        .join(
            last,
            sa.and_(
                last.c.scope == RatingStep.scope,
                last.c.player_id == RatingStep.player_id,
                last.c.position == RatingStep.position,
            ),
        )
        .where(RatingStep.account_id == account_id)
    ).all()
    return {(where, player): (mu, sigma, games) for where, player, mu, sigma, games in rows}


def forget(account_id: int, kind: str, variant: str, finished_at: datetime | None) -> None:
    """Re-rate after a finished game was deleted (its steps went with it)."""
    if finished_at is None:
        return
    for where in _scopes(kind, variant):
        rerate(account_id, where, finished_at)


def rebuild(account_id: int) -> None:
    """Rate every scope of an account from its first game (after a restore)."""
    db.session.flush()
    db.session.execute(sa.delete(RatingStep).where(RatingStep.account_id == account_id))
    rows = db.session.execute(
        sa.select(Game.kind, Game.variant)
        .where(Game.account_id == account_id, Game.status == "finished")
        .distinct()
    ).all()
    wheres = {where for kind, variant in rows if kind in GAMES for where in _scopes(kind, variant)}
    for where in sorted(wheres):
        rerate(account_id, where, None)


def rerate(account_id: int, where: str, since: datetime | None) -> None:
    """Rewrite the steps of scope ``where`` from the first game that finished at ``since``
    or later (None: from the first game). The games before it keep their steps: its place
    is found after the last of them (``_places_after``), the games from it on read on the
    finished games' index, and their players' ratings before it one seek each, so that a
    correction of the newest game costs the same at 10,000 games as at 10."""
    db.session.flush()
    finished = _finished_in(account_id, where)
    first = 0
    if since is not None:
        [first] = _places_after(account_id, [where], since)
    db.session.execute(
        sa.delete(RatingStep).where(
            RatingStep.account_id == account_id,
            RatingStep.scope == where,
            RatingStep.position >= first,
        )
    )
    games = db.session.execute(
        sa.select(Game.id, Game.standing)
        .where(finished, *([] if since is None else [Game.finished_at >= since]))
        .order_by(Game.finished_at, Game.id)
    ).all()
    players = _players_by_seat([game_id for game_id, _ in games])
    everyone = sorted({player for seats in players.values() for player in seats.values()})
    known = (
        {
            player: last
            for (_, player), last in _last_steps(
                account_id, [where], everyone, before=first
            ).items()
        }
        if first
        else {}
    )
    order = ((game_id, standing, players.get(game_id, {})) for game_id, standing in games)
    _insert_steps(_step(account_id, where, *step) for step in rated(order, known, first))


def _insert_steps(rows: Iterable[dict]) -> None:
    """``rating_step`` rows written a chunk at a time, as they come: a restore's history
    holds many."""
    chunk = []
    for row in rows:
        chunk.append(row)
        if len(chunk) >= CHUNK:
            bulk.insert(RatingStep.__table__, chunk)
            chunk = []
    bulk.insert(RatingStep.__table__, chunk)


def rated(
    games: Iterable[tuple[Any, list | None, dict[int, Any]]],
    known: dict[Any, Last] | None = None,
    first: int = 0,
) -> Iterator[tuple[int, Any, Any, float, float, int]]:
    """Games rated in turn, each ``(key, standing, {seat: player})``, from the players'
    ``known`` ratings and games (the others start at the model's defaults, with none): each
    player's rating after each game and their games by then, ``(position, key, player, mu,
    sigma, games)``, positions counted from ``first``."""
    ratings = {player: (mu, sigma) for player, (mu, sigma, _) in (known or {}).items()}
    played = {player: games for player, (_, _, games) in (known or {}).items()}
    for position, (key, standing, by_seat) in enumerate(games, start=first):
        for player, (mu, sigma) in rate(standing or [], by_seat, ratings).items():
            ratings[player] = (mu, sigma)
            played[player] = games = played.get(player, 0) + 1
            yield position, key, player, mu, sigma, games


class Finished(NamedTuple):
    """A finished game as a history's ratings read it (``history``)."""

    finished_at: datetime
    #: Its place among the games: the order of games that finished at the same moment.
    key: int
    kind: str
    variant: str
    standing: list | None
    #: Each seat's player, by seat position (as ``Game.standing`` names them).
    seats: list[int]


#: A scope's steps as ``history`` gives them: its name, then the positions, the games' keys,
#: the players, the mus, the sigmas and the players' games, one item of each per step.
Steps = tuple[str, array, array, array, array, array, array]


def history(games: Iterable[Finished]) -> list[Steps]:
    """The steps of every scope of a whole history, as ``rebuild`` writes them from the
    database. Pure, for the history of a restore, worked out beside its writing
    (services/backup/checking.py), and compact: a history of 10,000 games has about 80,000."""
    by_scope: dict[str, list[Finished]] = defaultdict(list)
    for game in sorted(games, key=lambda game: (game.finished_at, game.key)):
        if game.kind in GAMES:
            for where in _scopes(game.kind, game.variant):
                by_scope[where].append(game)
    found = []
    for where in sorted(by_scope):
        order = ((game.key, game.standing, dict(enumerate(game.seats))) for game in by_scope[where])
        columns = (array("q"), array("q"), array("q"), array("d"), array("d"), array("q"))
        for step in rated(order):
            for column, value in zip(columns, step, strict=True):
                column.append(value)
        found.append((where, *columns))
    return found


def write_history(
    account_id: int, steps: list[Steps], game_ids: list[int], player_ids: dict[int, int]
) -> None:
    """Write the steps ``history`` worked out for an account with no steps yet, its games'
    keys standing for ``game_ids[key]`` and its players for ``player_ids[player]``."""
    _insert_steps(
        _step(account_id, where, position, game_ids[key], player_ids[player], mu, sigma, games)
        for where, *columns in steps
        for position, key, player, mu, sigma, games in zip(*columns, strict=True)
    )


def _step(
    account_id: int,
    where: str,
    position: int,
    game_id: int,
    player_id: int,
    mu: float,
    sigma: float,
    games: int,
) -> dict:
    """A ``rating_step`` row."""
    return {
        "account_id": account_id,
        "scope": where,
        "position": position,
        "game_id": game_id,
        "player_id": player_id,
        "mu": mu,
        "sigma": sigma,
        "games": games,
    }


def rate(
    standing: list, by_seat: dict[int, int], ratings: dict[int, tuple[float, float]]
) -> dict[int, tuple[float, float]]:
    """One match: the new (mu, sigma) of each player of ``standing`` (``[[rank, [seats]]]``),
    from their ``ratings`` before it (a newcomer: the model's defaults)."""
    teams, ranks, members = [], [], []
    for rank, seats in standing:
        team = [by_seat[seat] for seat in seats if seat in by_seat]
        if not team:
            continue
        members.append(team)
        ranks.append(rank)
        teams.append([MODEL.rating(*ratings[p]) if p in ratings else MODEL.rating() for p in team])
    if len(teams) < 2:
        return {}
    rated = MODEL.rate(teams, ranks=ranks)
    return {
        player: (after.mu, after.sigma)
        for team, new in zip(members, rated, strict=True)
        for player, after in zip(team, new, strict=True)
    }


def _players_by_seat(game_ids: list[int]) -> dict[int, dict[int, int]]:
    found: dict[int, dict[int, int]] = {}
    for start in range(0, len(game_ids), CHUNK):
        rows = db.session.execute(
            sa.select(Seat.game_id, Seat.position, Seat.player_id).where(
                Seat.game_id.in_(game_ids[start : start + CHUNK])
            )
        ).all()
        for game_id, position, player_id in rows:
            found.setdefault(game_id, {})[position] = player_id
    return found


# Reading ---------------------------------------------------------------------------------


@dataclass
class Rating:
    player_id: int
    player: str
    mu: float
    sigma: float
    games: int
    history: list[dict] = field(default_factory=list)

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma

    @property
    def provisional(self) -> bool:
        return self.sigma > PROVISIONAL_SIGMA


def ratings(account_id: int, where: str, history: bool = True) -> list[Rating]:
    """The ratings of a scope now, best ordinal first (then by name), with each player's
    games and, with ``history``, their ordinal after each game.

    Each player's last step in the scope (their rating and games now) is one seek on the index
    of their own steps (``ix_rating_step_player_scope``), whatever the history's size: the
    scope's every step grouped by player took 21.9 ms of ``/stats/ratings`` at 10,000 games
    (bench/ratings.py), 5.5 ms at 1,000."""
    last = (
        sa.select(RatingStep.id)
        .where(
            RatingStep.account_id == account_id,
            RatingStep.player_id == Player.id,
            RatingStep.scope == where,
        )
        .order_by(RatingStep.position.desc())
        .limit(1)
        .correlate(Player)
        .scalar_subquery()
    )
    rows = db.session.execute(
        sa.select(Player.id, Player.name, RatingStep.mu, RatingStep.sigma, RatingStep.games)
        .join(RatingStep, RatingStep.id == last)
        .where(Player.account_id == account_id)
    ).all()
    found = {row[0]: Rating(*row) for row in rows}
    if history and found:
        steps = db.session.execute(
            sa.select(
                RatingStep.player_id,
                RatingStep.game_id,
                Game.finished_at,
                RatingStep.mu,
                RatingStep.sigma,
            )
            .join(Game, Game.id == RatingStep.game_id)
            .where(RatingStep.account_id == account_id, RatingStep.scope == where)
            .order_by(RatingStep.position)
        ).all()
        for player_id, game_id, finished_at, mu, sigma in steps:
            found[player_id].history.append(
                {"game_id": game_id, "finished_at": finished_at, "ordinal": mu - 3 * sigma}
            )
    return sorted(found.values(), key=lambda rating: (-rating.ordinal, rating.player.casefold()))


def player_ratings(account_id: int, player_id: int) -> dict[str, Rating]:
    """One player's rating and games now in every scope they were rated in, their last step's
    (one query, on the index of the player's own steps: bench/ratings.py, 10,000 games, 82,070
    steps of which 3,372 the player's, 12.8 ms on the account's steps by scope, 1.0 ms on the
    player's)."""
    last = (
        sa.select(RatingStep.scope, sa.func.max(RatingStep.position).label("position"))
        .where(RatingStep.account_id == account_id, RatingStep.player_id == player_id)
        .group_by(RatingStep.scope)
        .subquery()
    )
    rows = db.session.execute(
        sa.select(RatingStep.scope, RatingStep.mu, RatingStep.sigma, RatingStep.games)
        .join(
            last,
            sa.and_(last.c.scope == RatingStep.scope, last.c.position == RatingStep.position),
        )
        .where(RatingStep.account_id == account_id, RatingStep.player_id == player_id)
    ).all()
    return {where: Rating(player_id, "", mu, sigma, games) for where, mu, sigma, games in rows}


def player_history(account_id: int, player_id: int, where: str) -> list[float]:
    """One player's ordinal after each of their games in a scope, oldest first (one query,
    on the index of the player's steps)."""
    rows = db.session.execute(
        sa.select(RatingStep.mu, RatingStep.sigma)
        .where(
            RatingStep.account_id == account_id,
            RatingStep.scope == where,
            RatingStep.player_id == player_id,
        )
        .order_by(RatingStep.position)
    )
    return [mu - 3 * sigma for mu, sigma in rows]
