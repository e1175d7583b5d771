"""Tables only: what was entered. Everything derivable comes from the rules layer."""

from __future__ import annotations

from datetime import UTC
from datetime import date
from datetime import datetime

import sqlalchemy as sa
from flask_login import UserMixin
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import Mapped
from sqlalchemy.orm import mapped_column
from sqlalchemy.orm import relationship
from sqlalchemy.orm import validates

from scorekeeper.extensions import db
from scorekeeper.games import GAMES
from scorekeeper.games import GamePlugin
from scorekeeper.text import text_key


def utcnow() -> datetime:
    return datetime.now(UTC)


def as_utc(moment: datetime | None) -> datetime | None:
    """SQLite hands datetimes back without a zone; they were stored as UTC."""
    if moment is not None and moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment


class Account(UserMixin, db.Model):
    """A group that keeps score together: owns its players, nights and games."""

    __tablename__ = "account"

    id: Mapped[int] = mapped_column(primary_key=True)
    username: Mapped[str] = mapped_column(sa.String(40))
    # The username's key (scorekeeper.text.text_key: NFKC, case-folded): logins and uniqueness
    # ignore case and width. Wider than the username: case folding can lengthen text (ß: ss).
    username_key: Mapped[str] = mapped_column(sa.String(160), unique=True)
    password_hash: Mapped[str] = mapped_column(sa.String(256))
    # The language the account's pages are shown in (None: the browser's).
    locale: Mapped[str | None] = mapped_column(sa.String(10))
    created_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)

    players: Mapped[list[Player]] = relationship(
        back_populates="account", cascade="all, delete-orphan", passive_deletes=True
    )

    @validates("username_key")
    def _normal_key(self, _field: str, key: str) -> str:
        """Whoever writes the key, it is stored in text_key's form."""
        return text_key(key)

    #: The login this request belongs to (set by scorekeeper.services.sessions when the
    #: account logs in or is loaded for a request), and its token. Not columns.
    login = None
    login_token = None

    def get_id(self) -> str:
        """Flask-Login's id, the one the session and remember-me cookies carry: the token of
        this login (a ``LoginSession``), never the account's id, so a cookie is worth
        something only while its login lasts (Flask-Login's "alternative tokens")."""
        if self.login_token is None:
            raise LookupError("log an account in through scorekeeper.services.sessions.start")
        return self.login_token

    def __repr__(self) -> str:
        return f"<Account {self.username}>"


class ApiToken(db.Model):
    """A bearer token for the JSON API; only its SHA-256 is kept."""

    __tablename__ = "api_token"

    id: Mapped[int] = mapped_column(primary_key=True)
    account_id: Mapped[int] = mapped_column(
        sa.ForeignKey("account.id", ondelete="CASCADE"), index=True
    )
    token_hash: Mapped[str] = mapped_column(sa.String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)

    account: Mapped[Account] = relationship()


class LoginSession(db.Model):
    """One login of one browser, until it logs out (or another device ends it, or a password
    change does, or it is unused for the remember-me days). The cookies name it by a random
    token (``Account.get_id``); only the token's SHA-256 is kept. ``browser`` and ``system``
    are product names read from the User-Agent at login ("Firefox", "Android"; "" unknown)."""

    __tablename__ = "login_session"

    id: Mapped[int] = mapped_column(primary_key=True)
    account_id: Mapped[int] = mapped_column(
        sa.ForeignKey("account.id", ondelete="CASCADE"), index=True
    )
    token_hash: Mapped[str] = mapped_column(sa.String(64), unique=True)
    browser: Mapped[str] = mapped_column(sa.String(40), default="")
    system: Mapped[str] = mapped_column(sa.String(40), default="")
    created_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)
    last_seen_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)

    account: Mapped[Account] = relationship()


class LoginThrottle(db.Model):
    """Counters of login attempts (per address, per username, per known device): the storage
    of the login rate limits that every worker shares when no Redis is configured (see
    scorekeeper/throttle_storage.py). A row is one counter; it is void once it expires."""

    __tablename__ = "login_throttle"

    key: Mapped[str] = mapped_column(sa.String(255), primary_key=True)
    hits: Mapped[int] = mapped_column(default=0)
    # When the counter's window ends, in seconds since the epoch (time.time()).
    expires_at: Mapped[float] = mapped_column(sa.Float)


class Player(db.Model):
    """Someone on the account's roster."""

    __tablename__ = "player"
    __table_args__ = (sa.UniqueConstraint("account_id", "name_key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    account_id: Mapped[int] = mapped_column(sa.ForeignKey("account.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(sa.String(40))
    # The name's key (scorekeeper.text.text_key): "ann", "Ann" and "Ａｎｎ" are the same player.
    name_key: Mapped[str] = mapped_column(sa.String(160))
    archived: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)

    account: Mapped[Account] = relationship(back_populates="players")

    @validates("name_key")
    def _normal_key(self, _field: str, key: str) -> str:
        """Whoever writes the key (``name.casefold()`` included), it is stored in text_key's
        form, so one spelling of a name can never hold two keys."""
        return text_key(key)


class Night(db.Model):
    """A game night: a date, optionally a name, place and notes, and the games played."""

    __tablename__ = "night"
    __table_args__ = (sa.Index("ix_night_account_date", "account_id", "date"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    account_id: Mapped[int] = mapped_column(sa.ForeignKey("account.id", ondelete="CASCADE"))
    date: Mapped[date] = mapped_column(sa.Date)
    name: Mapped[str] = mapped_column(sa.String(80), default="")
    place: Mapped[str] = mapped_column(sa.String(80), default="")
    notes: Mapped[str] = mapped_column(sa.Text, default="")
    created_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)

    games: Mapped[list[Game]] = relationship(
        back_populates="night", order_by="Game.created_at", passive_deletes=True
    )


#: JSON on SQLite, JSONB on PostgreSQL.
JSONType = sa.JSON().with_variant(JSONB(), "postgresql")


class RuleSet(db.Model):
    """An account's named set of options for one game ("Friday rules"), to start a game with
    in one tap. A game copies the options when it starts: editing the set later changes no
    game already played."""

    __tablename__ = "rule_set"
    __table_args__ = (sa.UniqueConstraint("account_id", "kind", "name_key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    account_id: Mapped[int] = mapped_column(sa.ForeignKey("account.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(sa.String(20))
    name: Mapped[str] = mapped_column(sa.String(40))
    name_key: Mapped[str] = mapped_column(sa.String(160))
    options: Mapped[dict] = mapped_column(JSONType)
    created_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)


#: The games of ``ix_game_unrated``: finished, no standings yet (a query that would read that
#: index names the status as this literal, not as a parameter, so the planner may use it).
UNRATED = "status = 'finished' AND standing IS NULL"


def side_names(
    kind: str,
    members: list[str],
    table_size: int | None,
    options: dict,
    side_seats: list | None,
) -> list[str]:
    """Who scores in a game of ``kind`` (``Game.sides``, from its stored columns and its
    members' names in seat order): the players, or the teams by their players' names."""
    if side_seats is not None:
        return [" & ".join(members[seat] for seat in side) for side in side_seats]
    return GAMES[kind].rules.sides(members[:table_size], options)


class GameCopies:
    """What a game's stored copies say of it, read alike from a ``Game`` and from a line of
    those copies alone (``services.nights.GameLine``: a history list's games, read without
    their seats' and hands' rows). Needs ``kind``, ``options``, ``members``, ``table_size``,
    ``side_seats``, ``totals`` and ``winners``."""

    @property
    def plugin(self) -> GamePlugin:
        return GAMES[self.kind]

    @property
    def players(self) -> list[str]:
        """The names of the table the game started with, in seat order."""
        return self.members[: self.table_size]

    @property
    def sides(self) -> list[str]:
        """Who scores: the players, or the teams by their players' names."""
        return side_names(self.kind, self.members, self.table_size, self.options, self.side_seats)

    @property
    def totals_by_side(self) -> dict[str, int]:
        return dict(zip(self.sides, self.totals, strict=True))

    @property
    def winner_names(self) -> list[str]:
        sides = self.sides
        return [sides[index] for index in self.winners]


class Game(GameCopies, db.Model):
    """One game: which card game, its options and seats. The hands hold what was entered.

    ``status``, ``totals`` (by side: the seats, or the teams), ``winners`` (side numbers),
    ``hand_count`` and ``tally`` (each seat's part in the statistics) are copies derived by the
    rules, rewritten on every change, so lists and history need not replay every game. None
    of them holds a name: a roster rename changes the player's row only. ``version`` goes up
    with every change: a change made from a stale copy is refused.
    """

    __tablename__ = "game"
    __table_args__ = (
        sa.Index("ix_game_account_created", "account_id", "created_at"),
        # A night's games in play order, and the games outside any night (history lists).
        sa.Index("ix_game_account_night", "account_id", "night_id", "created_at"),
        # The finished games in the order they finished: a game that has just finished is
        # rated after the one before it in its scopes (``services.ratings._append``).
        sa.Index("ix_game_account_finished", "account_id", "status", "finished_at", "id"),
        # An account's games of one game (and status, variant): how many it finished, counted
        # in the index alone (a game's statistics page: ``services.stats.finished_games``).
        sa.Index("ix_game_account_kind", "account_id", "kind", "status", "variant"),
        # The finished games without standings (kept from before the ratings): every read of
        # the ratings asks for them (``services.games._rate_unrated``), nearly always none.
        sa.Index(
            "ix_game_unrated",
            "account_id",
            "id",
            sqlite_where=sa.text(UNRATED),
            postgresql_where=sa.text(UNRATED),
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    account_id: Mapped[int] = mapped_column(sa.ForeignKey("account.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(sa.String(20))
    options: Mapped[dict] = mapped_column(JSONType)
    first_dealer: Mapped[int] = mapped_column(default=0)
    night_id: Mapped[int | None] = mapped_column(
        sa.ForeignKey("night.id", ondelete="SET NULL"), index=True
    )
    # The read-only view for the other phones at the table: /view/<share_token>.
    share_token: Mapped[str | None] = mapped_column(sa.String(64), unique=True)
    # The players' own phones: /play/<seat_link> lists the seats to claim (``SeatClaim``).
    seat_link: Mapped[str | None] = mapped_column(sa.String(64), unique=True)
    #: The hand being entered from the phones, before it is recorded:
    #: ``{"number": n, "entries": {"<seat position>": value}}`` (``services.seats``).
    draft: Mapped[dict | None] = mapped_column(JSONType, default=None)
    # A finished game takes no change until it is deliberately reopened.
    locked: Mapped[bool] = mapped_column(default=False)
    version: Mapped[int] = mapped_column(default=0)
    status: Mapped[str] = mapped_column(sa.String(20), default="in_progress")
    totals: Mapped[list] = mapped_column(JSONType, default=list)
    winners: Mapped[list] = mapped_column(JSONType, default=list)
    hand_count: Mapped[int] = mapped_column(default=0)
    # Which rule set the game's options amount to, for statistics that compare like with
    # like (a preset's key, a score pad's game name; "" for plain play).
    variant: Mapped[str] = mapped_column(sa.String(60), default="")
    tally: Mapped[list] = mapped_column(JSONType, default=list)
    created_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(sa.DateTime(timezone=True))

    seats: Mapped[list[Seat]] = relationship(
        order_by="Seat.position", cascade="all, delete-orphan", passive_deletes=True
    )
    night: Mapped[Night | None] = relationship(back_populates="games")

    # Optimistic locking: SQLAlchemy adds "AND version = <read>" to every UPDATE of a game.
    __mapper_args__ = {"version_id_col": version}
    hands: Mapped[list[HandEntry]] = relationship(
        order_by="HandEntry.number", cascade="all, delete-orphan", passive_deletes=True
    )
    #: The table's changes between hands, in the order of the record (before which hand,
    #: then as recorded).
    changes: Mapped[list[TableChange]] = relationship(
        order_by=lambda: [TableChange.before_hand, TableChange.id],
        cascade="all, delete-orphan",
        passive_deletes=True,
    )
    #: How many of the seats are the table the game started with (None: all of them); the
    #: seats after those are the players who came later (a join, a substitute), in order.
    table_size: Mapped[int | None] = mapped_column(default=None)
    #: A finished game's final standings for the ratings: ``[[rank, [seat positions]], ...]``
    #: by side (a team's seats together), best first; None while the game is not finished.
    standing: Mapped[list | None] = mapped_column(JSONType, default=None)
    #: After a change of the table: each side of ``totals`` by its players' seat positions
    #: (a joiner, a renamed team); None while the sides are the starting table's.
    side_seats: Mapped[list | None] = mapped_column(JSONType, default=None)

    @property
    def members(self) -> list[str]:
        """Everyone who has been at the table: the starting seats, then who came later (what
        is stored is keyed by these positions; the seats must be loaded)."""
        return [seat.player.name for seat in self.seats]


class Seat(db.Model):
    """A player's place at a game's table (0 = first seat, clockwise)."""

    __tablename__ = "seat"
    # A player's seats with their games, read from the index alone (the history filtered by a
    # player: ``services.nights``).
    __table_args__ = (sa.Index("ix_seat_player_game", "player_id", "game_id"),)

    game_id: Mapped[int] = mapped_column(
        sa.ForeignKey("game.id", ondelete="CASCADE"), primary_key=True
    )
    position: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(sa.ForeignKey("player.id"))

    player: Mapped[Player] = relationship(lazy="joined")


class SeatClaim(db.Model):
    """A seat claimed by a player's phone through the game's seat link; only the SHA-256 of
    the phone's seat token is kept."""

    __tablename__ = "seat_claim"

    game_id: Mapped[int] = mapped_column(
        sa.ForeignKey("game.id", ondelete="CASCADE"), primary_key=True
    )
    position: Mapped[int] = mapped_column(primary_key=True)
    token_hash: Mapped[str] = mapped_column(sa.String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)


class HandEntry(db.Model):
    """One hand (round) as the scorekeeper entered it, keyed by seat (``to_seats``)."""

    __tablename__ = "hand_entry"
    # One row per hand number: a second "hand 5" (double tap, two phones) cannot exist.
    __table_args__ = (sa.UniqueConstraint("game_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(sa.ForeignKey("game.id", ondelete="CASCADE"))
    number: Mapped[int]
    input: Mapped[dict] = mapped_column(JSONType)
    created_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)


class TableChange(db.Model):
    """One change of the table between two hands (``games.table``), as given, with every
    player named by their seat position (``Seat.position``: a roster rename changes none)."""

    __tablename__ = "table_change"
    __table_args__ = (sa.Index("ix_table_change_game", "game_id", "before_hand"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(sa.ForeignKey("game.id", ondelete="CASCADE"))
    #: The hand that comes after it: 1 before the first hand.
    before_hand: Mapped[int]
    body: Mapped[dict] = mapped_column(JSONType)
    created_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)


class HandResult(db.Model):
    """What the rules derived from each scored hand, per seat, one figure a row: ``points``
    (the seat's side's points), ``total`` (its running total) and the game's facts
    (``bids_made``, ``gins`` ... only where not 0). Hand ``number`` 0 holds the end of a
    finished game: ``final`` (the final total, bonuses included) and ``won``.

    Written by the rules on every save; statistics are plain GROUP BY queries over it.

    On SQLite a table WITHOUT ROWID, its rows kept in the order of their key: the largest
    table by far (a history of 10,000 games holds 1.6 million rows) is stored once, not once
    as rows and again as the key's index (half the size; a restore writes it in about half
    the time, and a game's rows are read together).
    """

    __tablename__ = "hand_result"
    __table_args__ = {"sqlite_with_rowid": False}

    game_id: Mapped[int] = mapped_column(
        sa.ForeignKey("game.id", ondelete="CASCADE"), primary_key=True
    )
    number: Mapped[int] = mapped_column(primary_key=True)
    seat: Mapped[int] = mapped_column(primary_key=True)
    key: Mapped[str] = mapped_column(sa.String(32), primary_key=True)
    value: Mapped[int]


class PlayerStat(db.Model):
    """One player's running sum of one figure for one game (and variant): kept up to date on
    every save from the games' ``tally``, so a statistics page reads a handful of rows
    whatever the history's size. ``best`` holds a maximum instead of a sum."""

    __tablename__ = "player_stat"

    player_id: Mapped[int] = mapped_column(
        sa.ForeignKey("player.id", ondelete="CASCADE"), primary_key=True
    )
    kind: Mapped[str] = mapped_column(sa.String(20), primary_key=True)
    variant: Mapped[str] = mapped_column(sa.String(60), primary_key=True)
    key: Mapped[str] = mapped_column(sa.String(32), primary_key=True)
    value: Mapped[int] = mapped_column(sa.BigInteger)


class RatingStep(db.Model):
    """A player's rating after one finished game, in one scope (``services/ratings.py``):
    rewritten from the changed game on whenever a finished game changes. ``position`` is the
    game's place in the scope's order (by the time games finished), so a player's rating now
    is their step of the highest position. ``games`` is how many games of the scope the player
    has been rated in by then (this one included): their last step says how many they have
    played, without counting their steps."""

    __tablename__ = "rating_step"
    __table_args__ = (
        sa.Index("ix_rating_step_scope_player", "account_id", "scope", "player_id", "position"),
        sa.Index("ix_rating_step_scope_position", "account_id", "scope", "position"),
        # A player's ratings in every scope (their statistics): their own steps only.
        sa.Index("ix_rating_step_player_scope", "account_id", "player_id", "scope", "position"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    account_id: Mapped[int] = mapped_column(sa.ForeignKey("account.id", ondelete="CASCADE"))
    scope: Mapped[str] = mapped_column(sa.String(90))
    position: Mapped[int]
    game_id: Mapped[int] = mapped_column(sa.ForeignKey("game.id", ondelete="CASCADE"), index=True)
    player_id: Mapped[int] = mapped_column(sa.ForeignKey("player.id", ondelete="CASCADE"))
    mu: Mapped[float] = mapped_column(sa.Float())
    sigma: Mapped[float] = mapped_column(sa.Float())
    games: Mapped[int]


class IdempotencyKey(db.Model):
    """The first answer to a write sent with an ``Idempotency-Key`` (API.md, "Idempotency
    keys"), kept per account for ``LIFETIME`` (scorekeeper/services/idempotency.py): the same
    key with the same request gets this answer again. ``status`` is NULL while the first
    request is being answered (the row is its claim); ``fingerprint`` is the SHA-256 of its
    method, path and body; ``kept`` the headers that matter and the page's messages (flashes).
    Times are seconds since the epoch, as in ``login_throttle``."""

    __tablename__ = "idempotency_key"
    __table_args__ = (sa.UniqueConstraint("account_id", "key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    account_id: Mapped[int] = mapped_column(sa.ForeignKey("account.id", ondelete="CASCADE"))
    key: Mapped[str] = mapped_column(sa.String(200))
    fingerprint: Mapped[str] = mapped_column(sa.String(64))
    claimed_at: Mapped[float] = mapped_column(sa.Float)
    expires_at: Mapped[float] = mapped_column(sa.Float, index=True)
    status: Mapped[int | None] = mapped_column(default=None)
    kept: Mapped[dict | None] = mapped_column(JSONType, default=None)
    body: Mapped[bytes | None] = mapped_column(sa.LargeBinary, default=None)


class RestoreJob(db.Model):
    """A restore run in the background (``services/backup/job.py``): a large backup is
    checked and written by a thread of the worker that took it, and any worker answers how it
    goes from this row. ``state``: ``checking`` (``games_read`` so far), ``writing``,
    ``done`` (``answer``: the counts), ``refused`` (``answer``: the refusal) or ``failed``."""

    __tablename__ = "restore_job"

    id: Mapped[int] = mapped_column(primary_key=True)
    account_id: Mapped[int] = mapped_column(
        sa.ForeignKey("account.id", ondelete="CASCADE"), index=True
    )
    state: Mapped[str] = mapped_column(sa.String(20))
    games_read: Mapped[int] = mapped_column(default=0)
    answer: Mapped[dict | None] = mapped_column(JSONType, default=None)
    created_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)
