"""The restore writer: a checked backup (``check.Plan``) written into an empty account with
bulk inserts in one transaction: all of it, or nothing."""

from __future__ import annotations

from array import array
from collections import defaultdict
from collections.abc import Iterable
from collections.abc import Iterator
from contextlib import contextmanager
from itertools import chain
from itertools import repeat

import sqlalchemy as sa

from scorekeeper.errors import Refusal
from scorekeeper.extensions import db
from scorekeeper.games.i18n import _
from scorekeeper.models import Account
from scorekeeper.models import Game
from scorekeeper.models import HandEntry
from scorekeeper.models import HandResult
from scorekeeper.models import Night
from scorekeeper.models import Player
from scorekeeper.models import PlayerStat
from scorekeeper.models import RuleSet
from scorekeeper.models import Seat
from scorekeeper.models import TableChange
from scorekeeper.services import bulk
from scorekeeper.services import ratings
from scorekeeper.services import results
from scorekeeper.services.backup import check
from scorekeeper.services.backup.check import Damaged
from scorekeeper.services.backup.check import Plan
from scorekeeper.services.backup.check import refuse
from scorekeeper.services.backup.writer import BATCH


def is_empty(account: Account) -> bool:
    """True when the account has no players, nights or games (so it may be restored into)."""
    counts = [
        sa.select(sa.func.count()).where(model.account_id == account.id)
        for model in (Player, Night, Game)
    ]
    return all(db.session.scalar(count) == 0 for count in counts)


def restore_account(account: Account, document: object) -> dict[str, int]:
    """Load a backup into an empty account; how many players, nights, games and hands (and
    rule sets).

    Refused (``restore_refused``, nothing changed) when the account already holds data, when
    the document is not a Scorekeeper backup of a version this app reads, or when anything in
    it is damaged: a missing or ill-typed field, an unknown game, a bad seat, or a hand the
    rules refuse.
    """
    check.model_for(document)
    if not is_empty(account):
        raise refuse(
            _(
                "A backup can only be restored into an account with no players, nights or games "
                "yet; this one already has some. Sign up for a new account and restore there."
            )
        )
    try:
        plan = check.plan(document)
    except Damaged as damage:
        raise damaged(damage) from None
    with all_or_nothing():
        counts = write(plan, account)
        ratings.rebuild(account.id)
    return counts


def damaged(damage: Damaged) -> Refusal:
    """The refusal of a damaged backup, said of the place of the damage."""
    return refuse(_("This backup is damaged: %(problem)s", problem=damage.message), damage.where)


@contextmanager
def all_or_nothing() -> Iterator[None]:
    """A restore's writes, committed at the end, or all undone: refused when another phone
    gave the account data meanwhile (a constraint broken), raised again otherwise."""
    try:
        yield
        db.session.commit()
    except sa.exc.IntegrityError:
        db.session.rollback()
        raise refuse(
            _("The account received other data while restoring (from another phone?).")
        ) from None
    except BaseException:
        db.session.rollback()
        raise


def write(plan: Plan, account: Account) -> dict[str, int]:
    """Insert every row in bulk, a batch of games at a time (the caller commits).

    Rows are inserted in the document's order, so ids (and so a later export) keep it.
    """
    rows = Writer(plan, account)
    for start in range(0, len(plan.games), BATCH):
        rows.games(plan.games[start : start + BATCH])
    return rows.finish()


class Writer:
    """The rows of a checked backup written as they come: the head's on making, then the
    games a batch at a time (``games``), then the players' statistics (``finish``), all in
    the session's transaction (the caller commits, or rolls back: nothing is half-saved).
    """

    def __init__(self, plan: Plan, account: Account) -> None:
        self.plan, self.account = plan, account
        self.player_ids = _insert_owned(Player.__table__, plan.players, account)
        self.night_ids = _insert_owned(Night.__table__, plan.nights, account)
        if plan.rule_sets:
            db.session.execute(
                sa.insert(RuleSet.__table__),
                [{"account_id": account.id, **values} for values in plan.rule_sets],
            )
        self.sums: dict[tuple, int] = defaultdict(int)
        self.best: dict[tuple, int] = {}
        self.game_count = self.hand_count = 0
        #: The games' new ids, in the document's order.
        self.game_ids: list[int] = []

    def games(self, games: list[dict], keys: list[str] | None = None) -> None:
        """Insert a batch of checked games (``check.plan_game``'s rows); ``keys``: the names
        of their hand results' key numbers (by default the plan's)."""
        if not games:
            return
        player_ids, night_ids, sums, best = self.player_ids, self.night_ids, self.sums, self.best
        game_ids = _insert_returning(
            Game.__table__,
            [
                {
                    "account_id": self.account.id,
                    "night_id": night_ids.get(game["night"]),
                    "share_token": None,
                    **game["row"],
                }
                for game in games
            ],
        )
        self.game_ids += game_ids
        seats, hands, changes = [], [], []
        for game_id, game in zip(game_ids, games, strict=True):
            changes.extend(
                {
                    "game_id": game_id,
                    "before_hand": before_hand,
                    "body": body,
                    "created_at": created,
                    "updated_at": updated,
                }
                for before_hand, body, created, updated in game["changes"]
            )
            players = [player_ids[ref] for ref in game["seats"]]
            seats.extend(
                {"game_id": game_id, "position": seat, "player_id": player}
                for seat, player in enumerate(players)
            )
            hands.extend(
                {
                    "game_id": game_id,
                    "number": number,
                    "input": entry,
                    "created_at": created,
                    "updated_at": updated,
                }
                for number, entry, created, updated in game["hands"]
            )
            kind, variant = game["row"]["kind"], game["row"]["variant"]
            for player, counts in zip(players, game["row"]["tally"], strict=True):
                for key, value in counts.items():
                    where = (player, kind, variant, key)
                    if key == results.BEST:
                        best[where] = max(best.get(where, value), value)
                    else:
                        sums[where] += value
        bulk.insert(Seat.__table__, seats)
        bulk.insert(HandEntry.__table__, hands, as_text=("input",))
        bulk.insert(TableChange.__table__, changes)
        keys = list(self.plan.keys) if keys is None else keys
        _insert_results(_result_rows(game_ids, games, keys))
        self.game_count += len(games)
        self.hand_count += len(hands)

    def finish(self) -> dict[str, int]:
        """Insert the players' statistics; how many players, nights, rule sets, games and
        hands were written."""
        stats = [
            {"player_id": p, "kind": k, "variant": v, "key": key, "value": value}
            for (p, k, v, key), value in [*self.sums.items(), *self.best.items()]
            if value or key == results.BEST
        ]
        if stats:
            db.session.execute(sa.insert(PlayerStat.__table__), stats)
        plan = self.plan
        return {
            "players": len(plan.players),
            "nights": len(plan.nights),
            "rule_sets": len(plan.rule_sets),
            "games": self.game_count,
            "hands": self.hand_count,
        }


def _insert_owned(table: sa.Table, planned: dict[int, dict], account: Account) -> dict[int, int]:
    """Insert the account's rows planned under their document ids: {document id: new id}."""
    rows = [{"account_id": account.id, **values} for values in planned.values()]
    return dict(zip(planned, _insert_returning(table, rows), strict=True))


def _insert_returning(table: sa.Table, rows: list[dict]) -> list[int]:
    """Insert rows in bulk; their new ids, in the rows' order.

    On SQLite the first row is inserted alone, its id given back; from then on this
    transaction holds the database's one lock to write, so no one else can take an id, and
    the ids after the first one (SQLite gives a new row the greatest id plus one) are set
    here: the other rows go straight to the driver (``bulk.insert``), at a third of the time
    SQLAlchemy's insert returning each row's id took for a restore's 10,000 games."""
    if not rows:
        return []
    statement = sa.insert(table).returning(table.c.id, sort_by_parameter_order=True)
    if db.session.connection().dialect.name != "sqlite":
        return list(db.session.execute(statement, rows).scalars())
    first = db.session.execute(statement, rows[:1]).scalar_one()
    ids = list(range(first, first + len(rows)))
    bulk.insert(table, [{"id": id_, **row} for id_, row in zip(ids[1:], rows[1:], strict=True)])
    return ids


def _result_rows(game_ids: list[int], games: list[dict], keys: list[str]) -> Iterable[tuple]:
    """The hand results of a batch of games, unpacked, as ``RESULT_COLUMNS`` (iterated at
    C speed: a game's four arrays zipped with its id and its keys' names)."""
    key_of = keys.__getitem__

    def rows(game_id: int, numbers: array, seats: array, codes: array, values: array):
        return zip(repeat(game_id), numbers, seats, map(key_of, codes), values)

    return chain.from_iterable(
        rows(game_id, *game["results"])
        for game_id, game in zip(game_ids, games, strict=True)
        if game["results"]
    )


def _insert_results(rows: Iterable[tuple]) -> None:
    """Hand results, the most numerous rows, straight to the driver inside the session's
    transaction: COPY on PostgreSQL, multi-row INSERTs on SQLite."""
    connection = db.session.connection()
    if connection.dialect.name == "postgresql":
        columns = ", ".join(results.RESULT_COLUMNS)
        driver = connection.connection.driver_connection
        with (
            driver.cursor() as cursor,
            cursor.copy(f"COPY hand_result ({columns}) FROM STDIN") as copy,
        ):
            for row in rows:
                copy.write_row(row)
    elif connection.dialect.paramstyle == "qmark":
        bulk.insert_sqlite("hand_result", list(results.RESULT_COLUMNS), rows)
    else:
        params = [dict(zip(results.RESULT_COLUMNS, row, strict=True)) for row in rows]
        if params:
            connection.execute(sa.insert(HandResult.__table__), params)
