"""Game nights: an evening's date, name, place and notes, and the games played in it.

A game may also stand alone (no night). Lists read only the stored derived copies of each game
(status, totals, winners), never replay one, so a page of history costs the same few queries
however long the history is.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field
from datetime import UTC
from datetime import date
from datetime import datetime
from datetime import time
from datetime import timedelta

import sqlalchemy as sa
from sqlalchemy.orm import selectinload

from scorekeeper.api.schemas import NightGame
from scorekeeper.api.schemas import NightOut
from scorekeeper.errors import NotFound
from scorekeeper.errors import Refusal
from scorekeeper.extensions import db
from scorekeeper.games import GAMES
from scorekeeper.games.i18n import _
from scorekeeper.games.i18n import ngettext
from scorekeeper.i18n import day
from scorekeeper.models import Account
from scorekeeper.models import Game
from scorekeeper.models import GameCopies
from scorekeeper.models import Night
from scorekeeper.models import Player
from scorekeeper.models import Seat
from scorekeeper.models import as_utc
from scorekeeper.services import games as game_service
from scorekeeper.services import players as roster
from scorekeeper.text import normalize_line

NAME_MAX = 80
PLACE_MAX = 80
NOTES_MAX = 2000
#: Before this hour a night that began yesterday evening is still "tonight".
LATE_NIGHT_HOUR = 6
#: How far ahead a night may be planned.
FUTURE_DAYS = 366
EARLIEST = date(1900, 1, 1)


def today() -> date:
    """The date here (the server's local time): what a new night is dated by default."""
    return datetime.now().astimezone().date()


def local_day_bounds(day: date) -> tuple[datetime, datetime]:
    """The UTC moments at which a local calendar day starts and ends."""
    start = datetime.combine(day, time.min).astimezone().astimezone(UTC)
    end = datetime.combine(day + timedelta(days=1), time.min).astimezone().astimezone(UTC)
    return start, end


# Checking what was typed -------------------------------------------------------------------


def clean_date(value: object, now: date | None = None) -> date:
    """A night's date from ``YYYY-MM-DD`` (blank or missing: today)."""
    now = now or today()
    if value is None or (isinstance(value, str) and not value.strip()):
        return now
    if isinstance(value, date):
        parsed = value
    elif isinstance(value, str):
        try:
            parsed = date.fromisoformat(value.strip())
        except ValueError:
            raise Refusal(
                "date_invalid",
                _(
                    "“%(typed)s” is not a date: enter it as YYYY-MM-DD, like %(example)s.",
                    typed=value.strip(),
                    example=now.isoformat(),
                ),
                "date",
            ) from None
    else:
        raise Refusal(
            "wrong_type", _("The date must be text like %(example)s.", example="2024-05-17"), "date"
        )
    latest = now + timedelta(days=FUTURE_DAYS)
    if parsed < EARLIEST or parsed > latest:
        raise Refusal(
            "date_invalid",
            _(
                "The date must be from %(earliest)s to a year from now (%(latest)s).",
                earliest=EARLIEST.isoformat(),
                latest=latest.isoformat(),
            ),
            "date",
        )
    return parsed


#: What a night's text fields say when refused: (not text, too long) for each field.
TEXT_MESSAGES = {
    "name": (
        lambda: _("The name must be text."),
        lambda limit, given: ngettext(
            "The name can be at most %(num)s character (%(given)s given).",
            "The name can be at most %(num)s characters (%(given)s given).",
            limit,
            given=given,
        ),
    ),
    "place": (
        lambda: _("The place must be text."),
        lambda limit, given: ngettext(
            "The place can be at most %(num)s character (%(given)s given).",
            "The place can be at most %(num)s characters (%(given)s given).",
            limit,
            given=given,
        ),
    ),
    "notes": (
        lambda: _("The notes must be text."),
        lambda limit, given: ngettext(
            "The notes can be at most %(num)s character (%(given)s given).",
            "The notes can be at most %(num)s characters (%(given)s given).",
            limit,
            given=given,
        ),
    ),
}


#: What a night's text fields are called in the refusal of a character.
TEXT_NAMES = {"name": lambda: _("The name"), "place": lambda: _("The place"),
              "notes": lambda: _("The notes")}  # fmt: skip


def clean_text(value: object, where: str, limit: int, lines: bool = False) -> str:
    """Optional text in NFKC form, trimmed (spaces collapsed, except the line breaks of
    notes); refused when it holds control (NUL included) or invisible characters."""
    not_text, too_long = TEXT_MESSAGES[where]
    if value is None:
        return ""
    if not isinstance(value, str):
        raise Refusal("wrong_type", not_text(), where)
    what = TEXT_NAMES[where]()
    if lines:
        text = "\n".join(
            normalize_line(line, what, where) for line in value.strip().splitlines()
        ).strip()
    else:
        text = normalize_line(value, what, where)
    if len(text) > limit:
        raise Refusal(
            "text_too_long",
            too_long(limit, len(text)),
            where,
        )
    return text


# Creating and changing ---------------------------------------------------------------------


def create_night(
    account: Account,
    day: object = None,
    name: object = None,
    place: object = None,
    notes: object = None,
) -> Night:
    """A new game night (dated today unless a date is given)."""
    night = Night(account_id=account.id)
    _fill(night, day, name, place, notes)
    db.session.add(night)
    db.session.commit()
    return night


def update_night(
    account: Account,
    night_id: int,
    day: object = None,
    name: object = None,
    place: object = None,
    notes: object = None,
) -> Night:
    """Change a night's date, name, place or notes."""
    night = get_night(account, night_id)
    _fill(night, day, name, place, notes)
    db.session.commit()
    return night


def _fill(night: Night, day: object, name: object, place: object, notes: object) -> None:
    # Check everything before changing anything: a refusal leaves the night as it was.
    values = {
        "date": clean_date(day),
        "name": clean_text(name, "name", NAME_MAX),
        "place": clean_text(place, "place", PLACE_MAX),
        "notes": clean_text(notes, "notes", NOTES_MAX, lines=True),
    }
    for key, value in values.items():
        setattr(night, key, value)


def add_game(account: Account, night_id: int, game_id: int) -> Game:
    """Put a game that stands alone into a night (a game started before its night was)."""
    night = get_night(account, night_id, with_games=False)
    game = db.session.scalar(
        sa.select(Game).where(Game.id == game_id, Game.account_id == account.id)
    )
    if game is None:
        raise NotFound(_("That game was not found."))
    if game.night_id is not None and game.night_id != night.id:
        raise Refusal("night_taken", _("That game already belongs to another night."), "game_id")
    game.night_id = night.id
    # The game's version guards this like any change: a hand saved at the same moment is 409.
    game_service.commit()
    return game


# Reading -----------------------------------------------------------------------------------


def get_night(account: Account, night_id: int, with_games: bool = True) -> Night:
    """The account's night (its games and their seats loaded), or 404 for anyone else's."""
    query = sa.select(Night).where(Night.id == night_id, Night.account_id == account.id)
    if with_games:
        query = query.options(selectinload(Night.games).selectinload(Game.seats))
    night = db.session.scalar(query)
    if night is None:
        raise NotFound(_("That night was not found."))
    return night


def tonight(account: Account, now: datetime | None = None) -> Night | None:
    """The night dated today (the latest one, if several); in the small hours, last
    evening's night is still tonight."""
    now = now or datetime.now().astimezone()
    days = [now.date()]
    if now.hour < LATE_NIGHT_HOUR:
        days.append(now.date() - timedelta(days=1))
    return db.session.scalar(
        sa.select(Night)
        .where(Night.account_id == account.id, Night.date.in_(days))
        .options(selectinload(Night.games).selectinload(Game.seats))
        .order_by(Night.date.desc(), Night.id.desc())
        .limit(1)
    )


def games_in_progress(account: Account, limit: int = 10) -> list[Game]:
    """Unfinished games, most recently changed first (the home page's one-tap list)."""
    return list(
        db.session.scalars(
            sa.select(Game)
            .where(Game.account_id == account.id, Game.status == "in_progress")
            .options(selectinload(Game.seats))
            .order_by(Game.updated_at.desc(), Game.id.desc())
            .limit(limit)
        )
    )


def loose_games(account: Account, day: date, limit: int = 20) -> list[Game]:
    """Games of that (local) day that belong to no night: candidates to add to it."""
    start, end = local_day_bounds(day)
    return list(
        db.session.scalars(
            sa.select(Game)
            .where(
                Game.account_id == account.id,
                Game.night_id.is_(None),
                Game.created_at >= start,
                Game.created_at < end,
            )
            .options(selectinload(Game.seats))
            .order_by(Game.created_at, Game.id)
            .limit(limit)
        )
    )


@dataclass(slots=True)
class GameLine(GameCopies):
    """A game in a history list, read from its stored copies (``BRIEF_COLUMNS``) and its
    players' names alone: it reads as a ``Game`` does (``GameCopies``) where a list shows it,
    without an object of the session for the game and each of its seats."""

    id: int
    night_id: int | None
    kind: str
    options: dict
    status: str
    hand_count: int
    totals: list
    winners: list
    table_size: int | None
    side_seats: list | None
    created_at: datetime
    members: list[str] = field(default_factory=list)


@dataclass
class NightRow:
    """A night in a list: the night and its games (those matching the filters; the first
    few of them where the list shows only a few a night)."""

    night: Night
    games: list[GameLine] = field(default_factory=list)
    game_count: int = 0
    #: How many of its games match the filters (all of them when there are none).
    matching: int = 0

    @property
    def hidden(self) -> int:
        """How many matching games the list leaves out (shown on the night's own page)."""
        return self.matching - len(self.games)


def _player_games(account: Account, player: str) -> sa.Select:
    return (
        sa.select(Seat.game_id)
        .join(Player, Player.id == Seat.player_id)
        .where(Player.account_id == account.id, Player.name_key == roster.name_key(player))
    )


def _nights_with(account: Account, player: str | None, kind: str | None) -> sa.Select:
    """The nights of the games that match: with a player, read from the player's seats (their
    games by key), not from every game of the account (bench/nights.py, 10,000 games, about 1
    in 3 of them the player's: the filtered page's two reads of the nights took 6.5 and 6.9
    ms, now 2.9 and 2.6)."""
    games = _game_filter(account, None, kind)
    if not player:
        return sa.select(Game.night_id).where(*games)
    return (
        _player_games(account, player)
        .join(Game, Game.id == Seat.game_id)
        .with_only_columns(Game.night_id)
        .where(*games)
    )


def _game_filter(account: Account, player: str | None, kind: str | None) -> list:
    conditions = [Game.account_id == account.id]
    if kind:
        conditions.append(Game.kind == kind)
    if player:
        conditions.append(Game.id.in_(_player_games(account, player)))
    return conditions


def list_nights(
    account: Account,
    player: str | None = None,
    kind: str | None = None,
    page: int = 1,
    per_page: int = 10,
    games_per_night: int | None = None,
) -> tuple[list[NightRow], int]:
    """A page of nights, newest first, and how many there are in all.

    With ``player`` (a roster name) or ``kind`` (a game key) only nights with a matching game
    are listed, each with its matching games; with ``games_per_night`` only the first that
    many of them (in the order played), so that a page costs the same however many games a
    night holds. Four queries (five with a filter), whatever the history's size, each on
    an indexed key (the nights by account and date, the games by night).
    """
    found, total = _night_page(account, player, kind, page, per_page)
    conditions = _game_filter(account, player, kind)
    filtered = bool(player or kind)
    ids = [night.id for night in found]
    rows = {night.id: NightRow(night) for night in found}
    counted = _counts_by_night(Game.account_id == account.id, ids)
    for night_id, count in counted.items():
        rows[night_id].game_count = rows[night_id].matching = count
    if filtered and games_per_night is not None:
        for night_id, count in _counts_by_night(sa.and_(*conditions), ids).items():
            rows[night_id].matching = count
    matching = sa.select(*BRIEF_COLUMNS).where(*conditions, Game.night_id.in_(ids))
    if games_per_night is not None:
        place = (
            sa.func.row_number()
            .over(partition_by=Game.night_id, order_by=(Game.created_at, Game.id))
            .label("place")
        )
        first = sa.select(Game.id, place).where(*conditions, Game.night_id.in_(ids)).subquery()
        matching = (
            sa.select(*BRIEF_COLUMNS)
            .join(first, first.c.id == Game.id)
            .where(first.c.place <= games_per_night)
        )
    for line in game_lines(matching):
        rows[line.night_id].games.append(line)
    if games_per_night is None:
        for row in rows.values():
            row.matching = len(row.games)
    return [rows[night_id] for night_id in ids], total


def game_lines(matching: sa.Select) -> list[GameLine]:
    """The games of ``matching`` (a SELECT of ``BRIEF_COLUMNS``) in play order, each with its
    players' names in seat order: two statements (one more for each ``NAMES_AT_ONCE`` games
    past the first). Read as whole games with their seats, the 60 games of a history page
    (10,000 games in all) took about 45% of the page's time (``bench/nights.py``).

    Put in play order here, not by the database: asked for in that order, SQLite read the
    account's every game by its index of creation times (which gives that order) and kept
    those of the page's nights, a read that grew with the history (4.4 ms of a page of ten
    5-game nights at 10,000 games against 1.0 at 1,000); unordered, it seeks each night's
    games on the index of the account's nights."""
    lines = [GameLine(**row._mapping) for row in db.session.execute(matching)]
    lines.sort(key=_play_order)
    by_id = {line.id: line for line in lines}
    ids = list(by_id)
    # By the games' ids (not by ``matching`` again: its window over the nights' every game
    # took as long as the games' own read), a few hundred at a time.
    for start in range(0, len(ids), NAMES_AT_ONCE):
        for game_id, name in db.session.execute(
            sa.select(Seat.game_id, Player.name)
            .join(Player, Player.id == Seat.player_id)
            .where(Seat.game_id.in_(ids[start : start + NAMES_AT_ONCE]))
            .order_by(Seat.game_id, Seat.position)
        ):
            by_id[game_id].members.append(name)
    return lines


def _play_order(line: GameLine) -> tuple:
    return line.created_at, line.id


#: How many games' names ``game_lines`` asks for in one statement (SQLite takes at most 32,766
#: parameters in one; the first page of a history of large nights lists hundreds of games).
NAMES_AT_ONCE = 500


def _night_page(
    account: Account, player: str | None, kind: str | None, page: int, per_page: int
) -> tuple[list[Night], int]:
    """A page of the account's nights (those with a game matching the filters), newest
    first, and how many there are in all, by the nights' account and date.

    Unfiltered: the page, then the count (two reads of the nights' index). Filtered: one
    read, whose rows each carry the count of every matching night (a window over the same
    rows), so that the matching nights are found from the player's seats or the games once,
    not once for the page and again for the count (``bench/nights.py``, 10,000 games, the page
    filtered by a player: two reads of 4.5 ms each before, one of 2.9 ms). A window would
    cost the unfiltered page more than its count does: every night's row read, not the first
    few (0.7 ms against 0.1 at 200 nights). A page past the last one counts them apart."""
    page, per_page = max(page, 1), per_page if per_page >= 1 else 20
    matching = sa.select(Night).where(Night.account_id == account.id)
    ordered = (Night.date.desc(), Night.id.desc())
    start = (page - 1) * per_page
    if not (player or kind):
        found = db.session.scalars(matching.order_by(*ordered).limit(per_page).offset(start))
        return list(found), _count(matching)
    matching = matching.where(Night.id.in_(_nights_with(account, player, kind)))
    rows = db.session.execute(
        matching.add_columns(sa.func.count().over().label("total"))
        .order_by(*ordered)
        .limit(per_page)
        .offset(start)
    ).all()
    if rows:
        return [row.Night for row in rows], rows[0].total
    return [], 0 if page == 1 else _count(matching)


def _count(query: sa.Select) -> int:
    return db.session.scalar(sa.select(sa.func.count()).select_from(query.subquery()))


def list_night_answers(
    account: Account,
    player: str | None = None,
    kind: str | None = None,
    page: int = 1,
    per_page: int = 10,
) -> tuple[list[NightOut], int]:
    """A page of nights as the API gives them (``list_nights``' page, each night with all
    its matching games), and how many nights there are in all.

    The games are read as the few stored columns their briefs need, and their players'
    names in one more query, not as whole games with their seats: a page of nights costs
    four queries (five with a filter: the nights' counts of all their games), then time in
    proportion to the games it lists. ``bench/nights.py`` at 10,000 games (50 a night, 500
    on the first page): 22.6 ms a page, against 53.3 ms read as whole games.
    """
    found, total = _night_page(account, player, kind, page, per_page)
    ids = [night.id for night in found]
    conditions = [*_game_filter(account, player, kind), Game.night_id.in_(ids)]
    briefs: dict[int, list[NightGame]] = {night_id: [] for night_id in ids}
    titles = _titles()
    for line in game_lines(sa.select(*BRIEF_COLUMNS).where(*conditions)):
        briefs[line.night_id].append(_brief(line, titles))
    # A night's count is of all its games, also where a filter lists only some of them.
    counts = (
        _counts_by_night(Game.account_id == account.id, ids)
        if player or kind
        else {night_id: len(games) for night_id, games in briefs.items()}
    )
    return [_night_out(night, briefs[night.id], counts.get(night.id, 0)) for night in found], total


#: The stored columns of a game that its brief in a list of nights reads.
BRIEF_COLUMNS = (
    Game.id,
    Game.night_id,
    Game.kind,
    Game.options,
    Game.status,
    Game.hand_count,
    Game.totals,
    Game.winners,
    Game.table_size,
    Game.side_seats,
    Game.created_at,
)


def _titles() -> dict[str, str]:
    """Each registered game's title in the reader's language."""
    return {kind: str(plugin.title) for kind, plugin in GAMES.items()}


def _brief(game: GameCopies, titles: dict[str, str]) -> NightGame:
    """A game inside a night: what it was, who played, who won, from its stored copies only
    (a ``Game``, or its ``GameLine``)."""
    return NightGame(
        id=game.id,
        game=game.kind,
        title=titles[game.kind],
        players=game.players,
        status=game.status,
        hands=game.hand_count,
        winners=game.winner_names,
        totals=game.totals_by_side,
        created_at=as_utc(game.created_at).isoformat(),
    )


def _night_out(night: Night, briefs: list[NightGame], game_count: int) -> NightOut:
    return NightOut(
        id=night.id,
        date=night.date.isoformat(),
        name=night.name,
        place=night.place,
        notes=night.notes,
        game_count=game_count,
        games=briefs,
    )


def _counts_by_night(condition: sa.ColumnElement, ids: list[int]) -> dict[int, int]:
    """How many games meeting ``condition`` each of the nights ``ids`` holds."""
    return dict(
        db.session.execute(
            sa.select(Game.night_id, sa.func.count(Game.id))
            .where(condition, Game.night_id.in_(ids))
            .group_by(Game.night_id)
        ).all()
    )


def count_loose_games(account: Account, player: str | None = None, kind: str | None = None) -> int:
    """How many games (matching the filters) belong to no night."""
    return db.session.scalar(
        sa.select(sa.func.count(Game.id)).where(
            *_game_filter(account, player, kind), Game.night_id.is_(None)
        )
    )


# As JSON (the API) -------------------------------------------------------------------------


def standings(game: Game) -> list[dict]:
    """Final (or current) standings from the stored totals: highest first, seat order among
    equals."""
    sides = game.sides
    low = game.plugin.rules.low_wins(game.options)
    ranked = sorted(range(len(sides)), key=lambda i: ((1 if low else -1) * game.totals[i], i))
    return [
        {"side": sides[i], "total": game.totals[i], "winner": i in game.winners} for i in ranked
    ]


def night_answer(night: Night, games: list[Game] | None = None) -> NightOut:
    """A night in the API, with its games (all of them unless given)."""
    games = list(night.games) if games is None else games
    titles = _titles()
    return _night_out(night, [_brief(game, titles) for game in games], len(games))


def night_title(night: Night) -> str:
    """How a night is called in lists: its name, or its date."""
    return night.name or day(night.date)
