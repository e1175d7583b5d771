"""Player statistics, leaderboards and the score progression of a game.

Figures come from the stored copies the games service keeps up to date (``Game.status``,
``totals``, ``winners``; ``HandEntry.input`` as normalised by the rules and ``points``), read
with a fixed handful of queries, never by replaying games: the games' results come back as
columns, and the database picks the player's figures out of each hand's JSON and sums them
(Oh Hell, Gin) or returns them hand by hand (Pitch, whose pitcher may have to be read from an
auction). The tests check every figure against a slow recomputation that replays each game
through the rules.

Definitions:
- Games played, won, win rate and average final score count finished games only; games in
  progress are counted apart. In Pitch partnerships a player shares the team's result and score.
- Hand figures count every scored hand, in finished games and in games still in progress.
- Oh Hell: bids made out of bids, zero bids made out of zero bids, points per hand.
- Pitch: hands pitched, made and set back; points per hand (the player's side's points).
- Oklahoma Gin: rounds played and won, gins, undercuts made (as the knocker's opponent) and
  suffered, and the head-to-head record of finished games against each opponent.
"""

from __future__ import annotations

import json
import sqlite3
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field
from typing import Any

import sqlalchemy as sa

from scorekeeper.errors import NotFound
from scorekeeper.extensions import db
from scorekeeper.games import GAMES
from scorekeeper.games import State
from scorekeeper.games.pitch.rules import teams_for
from scorekeeper.models import Account
from scorekeeper.models import Game
from scorekeeper.models import HandEntry
from scorekeeper.models import Player
from scorekeeper.models import Seat
from scorekeeper.services import players as roster

KINDS = tuple(GAMES)
#: ``WITH ... AS MATERIALIZED`` came with SQLite 3.35 (older ones: the same, only slower).
SQLITE_MATERIALIZES = sqlite3.sqlite_version_info >= (3, 35)


def ratio(part: int | float, whole: int) -> float | None:
    """``part / whole``, or None when there is nothing to divide by."""
    return part / whole if whole else None


def side_of(kind: str, options: Mapping[str, Any], names: list[str], name: str) -> str:
    """The side a player scores for: themselves, or their team in Pitch partnerships."""
    if kind == "pitch":
        teams = teams_for(names, options)
        if teams:
            return next(" & ".join(team) for team in teams if name in team)
    return name


def pitcher_of(entry: Mapping[str, Any]) -> str | None:
    """Who pitched a Pitch hand, read from its normalised entry (short form or auction:
    every bid in a legal auction tops or steals the last, so the last bid is the pitcher's)."""
    if entry.get("pitcher"):
        return entry["pitcher"]
    bids = [turn for turn in entry.get("auction") or [] if turn[1] != "pass"]
    return bids[-1][0] if bids else None


@dataclass
class KindStats:
    """One player's figures for one game."""

    kind: str
    played: int = 0
    won: int = 0
    in_progress: int = 0
    score_total: int = 0
    hands: int = 0
    points_total: int = 0
    # Oh Hell
    bids: int = 0
    bids_made: int = 0
    zero_bids: int = 0
    zero_bids_made: int = 0
    # Pitch
    pitched: int = 0
    pitched_made: int = 0
    pitched_set: int = 0
    # Oklahoma Gin
    rounds_won: int = 0
    gins: int = 0
    undercuts: int = 0
    undercut: int = 0
    head_to_head: dict[int, dict[str, Any]] = field(default_factory=dict)

    @property
    def title(self) -> str:
        return GAMES[self.kind].title

    @property
    def win_rate(self) -> float | None:
        return ratio(self.won, self.played)

    @property
    def average_score(self) -> float | None:
        return ratio(self.score_total, self.played)

    @property
    def points_per_hand(self) -> float | None:
        return ratio(self.points_total, self.hands)

    def to_json(self) -> dict:
        data: dict[str, Any] = {
            "game": self.kind,
            "title": self.title,
            "played": self.played,
            "won": self.won,
            "in_progress": self.in_progress,
            "win_rate": self.win_rate,
            "score_total": self.score_total,
            "average_score": self.average_score,
            "hands": self.hands,
            "points_total": self.points_total,
            "points_per_hand": self.points_per_hand,
        }
        if self.kind == "oh_hell":
            data.update(
                bids=self.bids,
                bids_made=self.bids_made,
                zero_bids=self.zero_bids,
                zero_bids_made=self.zero_bids_made,
            )
        elif self.kind == "pitch":
            data.update(
                hands_pitched=self.pitched,
                pitches_made=self.pitched_made,
                pitches_set=self.pitched_set,
            )
        elif self.kind == "oklahoma_gin":
            data.update(
                rounds_won=self.rounds_won,
                gins=self.gins,
                undercuts=self.undercuts,
                undercut=self.undercut,
                head_to_head=self.records(),
            )
        return data

    def records(self) -> list[dict[str, Any]]:
        """Head-to-head records, most games first."""
        return sorted(
            self.head_to_head.values(), key=lambda r: (-r["played"], r["opponent"]["name"])
        )


@dataclass
class PlayerStats:
    player: Player
    kinds: dict[str, KindStats]

    @property
    def played(self) -> int:
        return sum(stats.played for stats in self.kinds.values())

    @property
    def won(self) -> int:
        return sum(stats.won for stats in self.kinds.values())

    @property
    def in_progress(self) -> int:
        return sum(stats.in_progress for stats in self.kinds.values())

    @property
    def win_rate(self) -> float | None:
        return ratio(self.won, self.played)

    def to_json(self) -> dict:
        return {
            "player": self.player.to_json(),
            "played": self.played,
            "won": self.won,
            "in_progress": self.in_progress,
            "win_rate": self.win_rate,
            "games": {kind: stats.to_json() for kind, stats in self.kinds.items()},
        }


def as_text(column) -> sa.Cast:
    """A JSON column read as its text, to be decoded with the others in one pass."""
    return sa.cast(column, sa.Text)


def decoded(rows, plain: int) -> list[tuple]:
    """Rows whose first ``plain`` columns are values and whose others are JSON text, with the
    JSON decoded: all of it in one ``json.loads`` (a page of statistics reads thousands of
    small JSON values, and decoding them one by one is most of its time)."""
    rows = list(rows)
    if not rows:
        return []
    texts = ",".join("[" + ",".join(text or "null" for text in row[plain:]) + "]" for row in rows)
    values = json.loads("[" + texts + "]")
    return [(*row[:plain], *parsed) for row, parsed in zip(rows, values, strict=True)]


def json_member(column, key: str, *path: str):
    """``column[path...][key]``, a whole number, with ``key`` (a player's name) passed as a
    bound parameter: PostgreSQL's ``->>``; on SQLite ``json_each``, since a SQLite JSON path
    cannot spell every key (quotes, or accents, which are stored escaped)."""
    if db.session.get_bind().dialect.name == "postgresql":
        expression = column
        for step in path:
            expression = expression[step]
        return expression[key].as_integer()
    members = (
        sa.func.json_each(column, "$." + ".".join(path)) if path else sa.func.json_each(column)
    ).table_valued("key", "value")
    return sa.select(members.c.value).where(members.c.key == key).scalar_subquery()


def _count(condition) -> sa.Function:
    return sa.func.coalesce(sa.func.sum(sa.case((condition, 1), else_=0)), 0)


def _hands_of(player: Player, kind: str, *columns) -> sa.CTE:
    """The player's scored hands of one game, with ``columns`` picked out of each by the
    database (materialized, so that each is read once per hand)."""
    of_kind = (
        sa.select(Seat.game_id)
        .join(Game, Game.id == Seat.game_id)
        .where(Seat.player_id == player.id, Game.kind == kind)
    )
    points = json_member(HandEntry.points, player.name).label("points")
    hands = sa.select(points, *columns).where(HandEntry.game_id.in_(of_kind)).cte(f"{kind}_hands")
    if SQLITE_MATERIALIZES or db.session.get_bind().dialect.name == "postgresql":
        hands = hands.prefix_with("MATERIALIZED")
    return hands


def _oh_hell_figures(player: Player, stats: KindStats) -> None:
    """Hands, points, bids made and zero bids, summed by the database in one query."""
    entry = HandEntry.input
    hands = _hands_of(
        player,
        "oh_hell",
        json_member(entry, player.name, "bids").label("bid"),
        json_member(entry, player.name, "tricks").label("tricks"),
    )
    bid, tricks = hands.c.bid, hands.c.tricks
    row = db.session.execute(
        sa.select(
            sa.func.count(hands.c.points),
            sa.func.coalesce(sa.func.sum(hands.c.points), 0),
            _count(bid == tricks),
            _count(bid == 0),
            _count(sa.and_(bid == 0, tricks == 0)),
        ).where(hands.c.points.is_not(None))
    ).one()
    stats.hands, stats.points_total, stats.bids_made, stats.zero_bids, stats.zero_bids_made = row
    stats.bids = stats.hands


def _gin_figures(player: Player, stats: KindStats) -> None:
    """Rounds, points, rounds won, gins and undercuts, summed by the database in one query.
    Only a round's winner scores, always more than 0; a draw scores nobody."""
    entry = HandEntry.input
    hands = _hands_of(
        player,
        "oklahoma_gin",
        entry["result"].as_string().label("result"),
        entry["knocker"].as_string().label("knocker"),
        entry["knocker_deadwood"].as_integer().label("kd"),
        entry["opponent_deadwood"].as_integer().label("od"),
    )
    c = hands.c
    undercut = sa.and_(c.result == "knock", c.kd >= c.od)
    row = db.session.execute(
        sa.select(
            sa.func.count(c.points),
            sa.func.coalesce(sa.func.sum(c.points), 0),
            _count(c.points > 0),
            _count(sa.and_(c.result == "gin", c.knocker == player.name)),
            _count(sa.and_(undercut, c.knocker != player.name)),
            _count(sa.and_(undercut, c.knocker == player.name)),
        ).where(c.points.is_not(None))
    ).one()
    (
        stats.hands,
        stats.points_total,
        stats.rounds_won,
        stats.gins,
        stats.undercuts,
        stats.undercut,
    ) = row


def _pitch_figures(player: Player, stats: KindStats, sides: dict[int, str]) -> None:
    """Hands, points and pitches, hand by hand: the pitcher of an auction (the last bid) and a
    team's points (keyed by the team's name) are read here."""
    entry = HandEntry.input
    points = json_member(HandEntry.points, player.name)
    of_pitch = (
        sa.select(Seat.game_id)
        .join(Game, Game.id == Seat.game_id)
        .where(Seat.player_id == player.id, Game.kind == "pitch")
    )
    rows = db.session.execute(
        sa.select(
            HandEntry.game_id,
            points,
            sa.case((points.is_(None), as_text(HandEntry.points)), else_=None),
            entry["pitcher"].as_string(),
            sa.case((entry["pitcher"].as_string().is_(None), as_text(entry["auction"]))),
        ).where(HandEntry.game_id.in_(of_pitch))
    )
    name = player.name
    for game_id, own, team_text, pitcher, auction_text in rows:
        if own is None:
            team_points = json.loads(team_text) if team_text else None
            if not team_points:
                continue  # not scored yet
            own = team_points[sides[game_id]]
        stats.hands += 1
        stats.points_total += own
        if pitcher is None and auction_text:
            pitcher = pitcher_of({"auction": json.loads(auction_text)})
        if pitcher == name:
            stats.pitched += 1
            # A pitcher set back loses the bid: the side's points for the hand go below 0.
            if own < 0:
                stats.pitched_set += 1
            else:
                stats.pitched_made += 1


def player_stats(account: Account, player_id: int) -> PlayerStats:
    """Every figure of one player, from seven queries whatever the history's size: the
    player, the games' stored results, the seats of Pitch and Gin games (teams, opponents),
    then the hands of each game."""
    player = roster.get_player(account, player_id)
    name = player.name
    mine = sa.select(Seat.game_id).where(Seat.player_id == player.id)
    games = decoded(
        db.session.execute(
            sa.select(
                Game.id,
                Game.kind,
                Game.status,
                as_text(Game.options),
                as_text(Game.totals),
                as_text(Game.winners),
            )
            .where(Game.account_id == account.id, Game.id.in_(mine))
            .order_by(Game.id)
        ),
        plain=3,
    )
    seats: dict[int, list[tuple[int, str]]] = defaultdict(list)
    for game_id, player_ref, seated in db.session.execute(
        sa.select(Seat.game_id, Seat.player_id, Player.name)
        .join(Player, Player.id == Seat.player_id)
        .join(Game, Game.id == Seat.game_id)
        .where(Seat.game_id.in_(mine), Game.kind != "oh_hell")
        .order_by(Seat.game_id, Seat.position)
    ):
        seats[game_id].append((player_ref, seated))

    kinds = {kind: KindStats(kind) for kind in KINDS}
    sides: dict[int, str] = {}
    for game_id, kind, status, options, totals, winners in games:
        stats = kinds[kind]
        table = seats[game_id]
        side = side_of(kind, options, [seated for _, seated in table], name)
        sides[game_id] = side
        finished = status == "finished"
        if finished:
            stats.played += 1
            stats.won += side in winners
            stats.score_total += totals[side]
        else:
            stats.in_progress += 1
        if kind == "oklahoma_gin" and finished:
            ref, opponent = next((ref, other) for ref, other in table if ref != player.id)
            record = stats.head_to_head.setdefault(
                ref,
                {"opponent": {"id": ref, "name": opponent}, "played": 0, "won": 0, "lost": 0},
            )
            record["played"] += 1
            record["won" if name in winners else "lost"] += 1
    _oh_hell_figures(player, kinds["oh_hell"])
    _pitch_figures(player, kinds["pitch"], sides)
    _gin_figures(player, kinds["oklahoma_gin"])
    return PlayerStats(player, kinds)


# Leaderboards ------------------------------------------------------------------------------


@dataclass
class Standing:
    """One player's line on a game's leaderboard (finished games only)."""

    player_id: int
    name: str
    archived: bool
    played: int = 0
    won: int = 0
    score_total: int = 0
    best: int | None = None

    @property
    def win_rate(self) -> float | None:
        return ratio(self.won, self.played)

    @property
    def average_score(self) -> float | None:
        return ratio(self.score_total, self.played)

    def to_json(self) -> dict:
        return {
            "player": {"id": self.player_id, "name": self.name, "archived": self.archived},
            "played": self.played,
            "won": self.won,
            "win_rate": self.win_rate,
            "average_score": self.average_score,
            "best_score": self.best,
        }


def leaderboard(account: Account, kind: str) -> list[Standing]:
    """Everyone who finished a game of ``kind``: best win rate first, then most wins, then
    most games. Two queries whatever the history's size."""
    if kind not in GAMES:
        raise NotFound("That game")
    finished = sa.select(Game.id).where(
        Game.account_id == account.id, Game.kind == kind, Game.status == "finished"
    )
    games = {
        game_id: (options, totals, winners)
        for game_id, options, totals, winners in decoded(
            db.session.execute(
                sa.select(
                    Game.id, as_text(Game.options), as_text(Game.totals), as_text(Game.winners)
                ).where(Game.id.in_(finished))
            ),
            plain=1,
        )
    }
    tables: dict[int, list[tuple[int, str, bool]]] = defaultdict(list)
    for game_id, player_id, name, archived in db.session.execute(
        sa.select(Seat.game_id, Player.id, Player.name, Player.archived)
        .join(Player, Player.id == Seat.player_id)
        .where(Seat.game_id.in_(finished))
        .order_by(Seat.game_id, Seat.position)
    ):
        tables[game_id].append((player_id, name, archived))
    lines: dict[int, Standing] = {}
    for game_id, (options, totals, winners) in games.items():
        names = [name for _, name, _ in tables[game_id]]
        for player_id, name, archived in tables[game_id]:
            line = lines.setdefault(player_id, Standing(player_id, name, archived))
            side = side_of(kind, options, names, name)
            score = totals[side]
            line.played += 1
            line.won += side in winners
            line.score_total += score
            line.best = score if line.best is None else max(line.best, score)
    return sorted(
        lines.values(),
        key=lambda s: (-(s.win_rate or 0), -s.won, -s.played, s.name.casefold()),
    )


def games_per_player(account: Account) -> dict[int, int]:
    """How many games each roster player sat in (one query)."""
    return dict(
        db.session.execute(
            sa.select(Seat.player_id, sa.func.count(Seat.game_id))
            .join(Player, Player.id == Seat.player_id)
            .where(Player.account_id == account.id)
            .group_by(Seat.player_id)
        ).all()
    )


# Progression of a game's scores (the chart) ------------------------------------------------


@dataclass
class Progression:
    """Each side's running total after every scored hand, from 0 before the first.

    ``labels`` name the points on the x axis: "0" (start), then hand numbers, and "Bonus" for
    an Oklahoma Gin game's end-of-game lines when there are any.
    """

    sides: list[str]
    labels: list[str]
    series: dict[str, list[int]]
    hand_word: str = "Hand"

    @property
    def finals(self) -> dict[str, int]:
        return {side: values[-1] for side, values in self.series.items()}


def progression(state: State, hand_word: str = "Hand") -> Progression:
    """The running totals of a replayed game, for its chart and the chart's text table."""
    running = {side: 0 for side in state.sides}
    labels = ["0"]
    series = {side: [0] for side in state.sides}
    for hand in state.hands:
        if hand.points is None:
            continue
        for side, value in hand.points.items():
            running[side] += value
        labels.append(str(hand.number))
        for side in state.sides:
            series[side].append(running[side])
    if state.bonuses:
        labels.append("Bonus")
        for side in state.sides:
            series[side].append(state.totals[side])
    return Progression(list(state.sides), labels, series, hand_word)
