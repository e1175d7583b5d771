"""Player statistics, leaderboards and the score progression of a game.

Figures come from ``player_stat``, the per-player, per-game sums that every save keeps up to
date (``results``), so a statistics page or a leaderboard reads a few rows whatever the
history's size: no replay, no JSON in SQL, the same plain queries on SQLite and PostgreSQL.
Head-to-head records (two-player games) are a GROUP BY over the ends of the player's games
in ``hand_result``. The tests check every figure against a slow replay of every hand.

Definitions (for every game):
- Games played, won, win rate and average final score count finished games only; games in
  progress are counted apart. In a partnership a player shares the team's result and score.
- Hand figures count every scored hand, in finished games and in games still in progress:
  the hands, the points of the player's side, and the game's own facts (``GameRules.facts``)
  from which its statistics lines (``GameRules.stats``) are built.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field

import sqlalchemy as sa
from pydantic import BaseModel
from sqlalchemy.orm import aliased

from scorekeeper.api.schemas import HeadToHead
from scorekeeper.api.schemas import Opponent
from scorekeeper.api.schemas import PlayerOut
from scorekeeper.api.schemas import PlayerStatsOut
from scorekeeper.api.schemas import ScopeRating
from scorekeeper.api.schemas import Standing as StandingOut
from scorekeeper.api.schemas import StatsByGame
from scorekeeper.api.schemas import game_models
from scorekeeper.errors import NotFound
from scorekeeper.extensions import db
from scorekeeper.games import GAMES
from scorekeeper.games import GamePlugin
from scorekeeper.games import State
from scorekeeper.games.base import Stat
from scorekeeper.games.i18n import _
from scorekeeper.models import Account
from scorekeeper.models import Game
from scorekeeper.models import HandResult
from scorekeeper.models import Player
from scorekeeper.models import PlayerStat
from scorekeeper.models import Seat
from scorekeeper.services import games
from scorekeeper.services import players as roster
from scorekeeper.services.ratings import ALL
from scorekeeper.services.ratings import Rating
from scorekeeper.services.results import BEST
from scorekeeper.services.results import END
from scorekeeper.services.results import HANDS
from scorekeeper.services.results import IN_PROGRESS
from scorekeeper.services.results import PLAYED
from scorekeeper.services.results import POINTS
from scorekeeper.services.results import SCORE
from scorekeeper.services.results import WON
from scorekeeper.text import sort_key


def ratio(part: int | float, whole: int) -> float | None:
    """``part / whole``, or None when there is nothing to divide by."""
    return part / whole if whole else None


@dataclass
class Line:
    """One statistics line as the page shows it."""

    label: str
    count: int
    out_of: int | None = None
    share: float | None = None
    per: float | None = None
    #: What ``per`` divides by: "played" (a game) or "hands" (a hand of the game).
    per_what: str | None = None


@dataclass
class KindStats:
    """One player's figures for one game."""

    kind: str
    figures: dict[str, int] = field(default_factory=dict)
    best: int | None = None
    head_to_head: list[HeadToHead] = field(default_factory=list)
    #: Finished games played and won per variant (a score pad's game name, a preset).
    by_variant: dict[str, dict[str, int]] = field(default_factory=dict)

    @property
    def plugin(self) -> GamePlugin:
        return GAMES[self.kind]

    @property
    def title(self) -> str:
        return self.plugin.title

    def figure(self, key: str) -> int:
        return self.figures.get(key, 0)

    @property
    def played(self) -> int:
        return self.figure(PLAYED)

    @property
    def won(self) -> int:
        return self.figure(WON)

    @property
    def in_progress(self) -> int:
        return self.figure(IN_PROGRESS)

    @property
    def hands(self) -> int:
        return self.figure(HANDS)

    @property
    def score_total(self) -> int:
        return self.figure(SCORE)

    @property
    def points_total(self) -> int:
        return self.figure(POINTS)

    @property
    def win_rate(self) -> float | None:
        return ratio(self.won, self.played)

    @property
    def average_score(self) -> float | None:
        return ratio(self.score_total, self.played)

    @property
    def points_per_hand(self) -> float | None:
        return ratio(self.points_total, self.hands)

    def line(self, stat: Stat) -> Line:
        count = self.figure(stat.count)
        line = Line(stat.label, count)
        if stat.out_of:
            line.out_of = self.figure(stat.out_of)
            line.share = ratio(count, line.out_of)
        if stat.per:
            line.per = ratio(count, self.figure(stat.per))
            line.per_what = stat.per
        return line

    @property
    def lines(self) -> list[Line]:
        """The game's own statistics lines (``GameRules.stats``)."""
        return [self.line(stat) for stat in self.plugin.rules.stats]

    def answer(self) -> BaseModel:
        """The figures in the API: the game's own statistics model (``game_models``)."""
        rules = self.plugin.rules
        models = game_models(self.plugin)
        extra = {"head_to_head": self.head_to_head} if rules.head_to_head else {}
        return models["stats"](
            **extra,
            game=self.kind,
            title=str(self.title),
            played=self.played,
            won=self.won,
            in_progress=self.in_progress,
            win_rate=self.win_rate,
            score_total=self.score_total,
            average_score=self.average_score,
            best_score=self.best,
            hands=self.hands,
            points_total=self.points_total,
            points_per_hand=self.points_per_hand,
            figures={fact.key: self.figure(fact.key) for fact in rules.facts},
        )


@dataclass
class PlayerStats:
    player: Player
    kinds: dict[str, KindStats]
    #: The player's ratings now, by scope (``services/ratings.py``).
    ratings: dict[str, Rating] = field(default_factory=dict)
    #: Their ordinal after each of their games over every card game, oldest first.
    rating_history: list[float] = field(default_factory=list)

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

    def answer(self) -> PlayerStatsOut:
        """The player's statistics in the API."""
        return PlayerStatsOut(
            player=roster.answer(self.player),
            played=self.played,
            won=self.won,
            in_progress=self.in_progress,
            win_rate=self.win_rate,
            games=StatsByGame({kind: stats.answer() for kind, stats in self.kinds.items()}),
            ratings={
                where: ScopeRating(
                    mu=rating.mu,
                    sigma=rating.sigma,
                    ordinal=rating.ordinal,
                    games=rating.games,
                    provisional=rating.provisional,
                )
                for where, rating in sorted(self.ratings.items())
            },
        )


def _sums(query) -> sa.Select:
    """Each figure summed over the variants (``best``: their maximum)."""
    return query.add_columns(
        PlayerStat.kind,
        PlayerStat.key,
        sa.cast(sa.func.sum(PlayerStat.value), sa.BigInteger),  # not NUMERIC on PostgreSQL
        sa.func.max(PlayerStat.value),
    ).group_by(PlayerStat.kind, PlayerStat.key)


def player_stats(account: Account, player_id: int) -> PlayerStats:
    """Every figure of one player: the player, their sums, and one head-to-head query per
    two-player game, whatever the history's size."""
    player = roster.get_player(account, player_id)
    kinds = {key: KindStats(key) for key in GAMES}
    rows = db.session.execute(
        sa.select(PlayerStat.kind, PlayerStat.variant, PlayerStat.key, PlayerStat.value).where(
            PlayerStat.player_id == player.id
        )
    )
    for kind, variant, key, value in rows:
        if kind not in kinds:
            continue  # a game no longer installed
        found = kinds[kind]
        if key == BEST:
            found.best = value if found.best is None else max(found.best, value)
            continue
        found.figures[key] = found.figures.get(key, 0) + value
        if variant and key in (PLAYED, WON) and value:
            found.by_variant.setdefault(variant, {PLAYED: 0, WON: 0})[key] += value
    for kind, stats in kinds.items():
        if stats.plugin.rules.head_to_head and stats.played:
            stats.head_to_head = head_to_head(player, kind)
    rated = games.player_ratings(account, player.id)
    history = games.player_rating_history(account, player.id, ALL) if ALL in rated else []
    return PlayerStats(player, kinds, rated, history)


def head_to_head(player: Player, kind: str) -> list[HeadToHead]:
    """The player's finished games of ``kind`` against each opponent, most games first."""
    me, other = aliased(Seat), aliased(Seat)
    rows = db.session.execute(
        sa.select(
            Player.id,
            Player.name,
            sa.func.sum(sa.case((HandResult.key == "final", 1), else_=0)),
            sa.func.sum(sa.case((HandResult.key == WON, HandResult.value), else_=0)),
        )
        .select_from(HandResult)
        .join(me, sa.and_(me.game_id == HandResult.game_id, me.position == HandResult.seat))
        .join(other, sa.and_(other.game_id == me.game_id, other.position != me.position))
        .join(Player, Player.id == other.player_id)
        .join(Game, Game.id == HandResult.game_id)
        .where(me.player_id == player.id, Game.kind == kind, HandResult.number == END)
        .group_by(Player.id, Player.name)
    )
    records = [
        HeadToHead(opponent=Opponent(id=ref, name=name), played=played, won=won, lost=played - won)
        for ref, name, played, won in rows
    ]
    return sorted(records, key=lambda r: (-r.played, sort_key(r.opponent.name)))


@dataclass
class Meeting:
    """Two players' finished games of one kind together: how often each finished ahead."""

    kind: str
    played: int = 0
    ahead: int = 0  # the first player finished ahead of the other
    behind: int = 0

    @property
    def level(self) -> int:
        return self.played - self.ahead - self.behind

    @property
    def title(self) -> str:
        return GAMES[self.kind].title


@dataclass
class Versus:
    """Head to head: ``player`` against ``other`` in every finished game they both played,
    by the final standings (a tie when they share a rank, or are partners)."""

    player: Player
    other: Player
    kinds: dict[str, Meeting] = field(default_factory=dict)

    @property
    def total(self) -> Meeting:
        meetings = self.kinds.values()
        return Meeting(
            "",
            sum(m.played for m in meetings),
            sum(m.ahead for m in meetings),
            sum(m.behind for m in meetings),
        )


def versus(account: Account, player_id: int, other_id: int) -> Versus:
    """Head to head between two players of the account (one query): their finished games
    together and who finished ahead, by game, most played first."""
    player = roster.get_player(account, player_id)
    other = roster.get_player(account, other_id)
    me, them = aliased(Seat), aliased(Seat)
    rows = db.session.execute(
        sa.select(Game.kind, Game.standing, me.position, them.position)
        .join(me, me.game_id == Game.id)
        .join(them, them.game_id == Game.id)
        .where(
            Game.account_id == account.id,
            Game.status == "finished",
            me.player_id == player.id,
            them.player_id == other.id,
        )
    )
    found: dict[str, Meeting] = {}
    for kind, standing, mine, theirs in rows:
        if kind not in GAMES:
            continue  # a game no longer installed
        ranks = {seat: rank for rank, seats in standing or [] for seat in seats}
        if mine not in ranks or theirs not in ranks:
            continue
        meeting = found.setdefault(kind, Meeting(kind))
        meeting.played += 1
        # A lower rank finished higher (rank 1 won).
        meeting.ahead += ranks[mine] < ranks[theirs]
        meeting.behind += ranks[mine] > ranks[theirs]
    ordered = sorted(found.values(), key=lambda m: (-m.played, sort_key(str(m.title))))
    return Versus(player, other, {meeting.kind: meeting for meeting in ordered})


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

    def answer(self) -> StandingOut:
        """The line in the API's leaderboard."""
        return StandingOut(
            player=PlayerOut(id=self.player_id, name=self.name, archived=self.archived),
            played=self.played,
            won=self.won,
            win_rate=self.win_rate,
            average_score=self.average_score,
            best_score=self.best,
        )


def leaderboard(account: Account, kind: str, variant: str | None = None) -> list[Standing]:
    """Everyone who finished a game of ``kind`` (of one ``variant``, if given): best win rate
    first, then most wins, then the best average score (the lowest where the lowest wins),
    then most games, then by name. One query whatever the history's size."""
    if kind not in GAMES:
        raise NotFound(_("That game was not found."))
    query = (
        sa.select(Player.id, Player.name, Player.archived)
        .join(PlayerStat, PlayerStat.player_id == Player.id)
        .where(
            Player.account_id == account.id,
            PlayerStat.kind == kind,
            PlayerStat.key.in_([PLAYED, WON, SCORE, BEST]),
        )
        .group_by(Player.id, Player.name, Player.archived)
    )
    if variant is not None:
        query = query.where(PlayerStat.variant == variant)
    lines: dict[int, Standing] = {}
    for player_id, name, archived, _kind, key, total, highest in db.session.execute(_sums(query)):
        line = lines.setdefault(player_id, Standing(player_id, name, archived))
        if key == PLAYED:
            line.played = total
        elif key == WON:
            line.won = total
        elif key == SCORE:
            line.score_total = total
        else:
            line.best = highest
    rules = GAMES[kind].rules
    better = 1 if rules.low_wins(rules.defaults(rules.min_players)) else -1
    return sorted(
        (line for line in lines.values() if line.played),
        key=lambda s: (
            -(s.win_rate or 0),
            -s.won,
            better * (s.average_score or 0),
            -s.played,
            sort_key(s.name),
        ),
    )


def variants(account: Account, kind: str) -> list[str]:
    """The variants of ``kind`` the account has finished games of (for a leaderboard filter)."""
    return list(
        db.session.scalars(
            sa.select(PlayerStat.variant)
            .join(Player, Player.id == PlayerStat.player_id)
            .where(
                Player.account_id == account.id,
                PlayerStat.kind == kind,
                PlayerStat.key == PLAYED,
                PlayerStat.value > 0,
            )
            .distinct()
            .order_by(PlayerStat.variant)
        )
    )


def finished_games(account: Account, kind: str, variant: str | None = None) -> int:
    """How many games of ``kind`` (of one ``variant``, if given) the account finished."""
    query = sa.select(sa.func.count(Game.id)).where(
        Game.account_id == account.id, Game.kind == kind, Game.status == "finished"
    )
    if variant is not None:
        query = query.where(Game.variant == variant)
    return db.session.scalar(query) or 0


def games_per_player(account: Account) -> dict[int, int]:
    """How many games each roster player sat in, finished or not (one query)."""
    rows = db.session.execute(
        sa.select(PlayerStat.player_id, sa.cast(sa.func.sum(PlayerStat.value), sa.BigInteger))
        .join(Player, Player.id == PlayerStat.player_id)
        .where(Player.account_id == account.id, PlayerStat.key.in_([PLAYED, IN_PROGRESS]))
        .group_by(PlayerStat.player_id)
    )
    return {player_id: total for player_id, total in rows}


# Progression of a game's scores (the chart) ------------------------------------------------


@dataclass
class Progression:
    """Each side's running total after every scored hand, from 0 before the first.

    ``labels`` name the points on the x axis: "0" (start), then hand numbers, and "Bonus" for
    end-of-game lines (Oklahoma Gin's bonuses) when there are any.
    """

    sides: list[str]
    labels: list[str]
    series: dict[str, list[int]]
    hand_word: str = "Hand"

    @property
    def finals(self) -> dict[str, int]:
        return {side: values[-1] for side, values in self.series.items()}


def progression(state: State, hand_word: str = "Hand") -> Progression:
    """The running totals the rules put on each hand, for the chart and its text table."""
    labels = ["0"]
    series = {side: [0] for side in state.sides}
    for hand in state.hands:
        if hand.totals is None:
            continue
        labels.append(str(hand.number))
        # A seat handed over (a team renamed) is keyed by its name then: the hand's totals
        # are in the order of the sides then, and a side keeps its place (a joiner comes
        # after); before a joiner came, their line stays where it starts.
        then = list(hand.totals.values())
        for place, side in enumerate(state.sides):
            if side in hand.totals:
                series[side].append(hand.totals[side])
            elif place < len(then):
                series[side].append(then[place])
            else:
                series[side].append(series[side][-1])
    if state.bonuses:
        labels.append("Bonus")
        for side in state.sides:
            series[side].append(state.totals[side])
    return Progression(list(state.sides), labels, series, hand_word)
