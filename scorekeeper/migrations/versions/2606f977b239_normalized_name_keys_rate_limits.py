"""normalized name keys (NFKC, case-folded), login rate-limit counters

Player and account keys are recomputed the way scorekeeper.text.text_key makes them now: NFKC,
case-folded, without the characters that are never shown. Names that were told apart only by
width, Unicode form or an invisible character (``Ann`` and ``Ａｎｎ``) now have the same key:
the later of them (by id) is renamed ``Ann (2)`` (accounts: ``name-2``), in its games too, and
every rename is printed and logged.

``login_throttle`` (failures and a lock per username) becomes the table of the login rate-limit
counters (key, hits, expires_at: per address, per username, per known device), shared by every
worker when no Redis is configured; counts in progress are dropped.

Revision ID: 2606f977b239
Revises: 221a387d2506
Create Date: 2026-12-01 12:00:00

"""

from __future__ import annotations

import logging
import unicodedata
from contextlib import contextmanager

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

# revision identifiers, used by Alembic.
revision = "2606f977b239"
down_revision = "221a387d2506"
branch_labels = None
depends_on = None

logger = logging.getLogger("alembic.runtime.migration")

NAME_MAX = 40
USERNAME_MAX = 40
OLD_KEY_LENGTH = 40
KEY_LENGTH = 160

JSONType = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql")
account = sa.table(
    "account", sa.column("id"), sa.column("username"), sa.column("username_key", sa.String)
)
player = sa.table(
    "player", sa.column("id"), sa.column("account_id"), sa.column("name"), sa.column("name_key")
)
seat = sa.table("seat", sa.column("game_id"), sa.column("player_id"))
game = sa.table(
    "game", sa.column("id"), sa.column("totals", JSONType), sa.column("winners", JSONType)
)
hand = sa.table(
    "hand_entry",
    sa.column("id"),
    sa.column("game_id"),
    sa.column("input", JSONType),
    sa.column("points", JSONType),
)


# The normalization of this revision, frozen here (scorekeeper.text may change later) ---------

_SPACES = str.maketrans({"\t": " ", "\n": " ", "\r": " ", "\u2028": " ", "\u2029": " "})
_INVISIBLE = frozenset([0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x2800, 0x3164, 0xFFA0])


def _ignorable(char: str) -> bool:
    code = ord(char)
    return (
        unicodedata.category(char) in ("Cc", "Cf", "Cs")
        or code in _INVISIBLE
        or 0xFDD0 <= code <= 0xFDEF
        or (code & 0xFFFE) == 0xFFFE
        or code == 0x180E
        or 0xFE00 <= code <= 0xFE0F
        or 0xE0100 <= code <= 0xE01EF
        or 0x180B <= code <= 0x180F
    )


def new_key(text: str) -> str:
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())
    visible = "".join(char for char in folded.translate(_SPACES) if not _ignorable(char))
    return " ".join(visible.split())


def visible_line(text: str) -> str:
    """The text in NFKC form without what is never shown: the base of a new name."""
    text = unicodedata.normalize("NFKC", text).translate(_SPACES)
    return " ".join("".join(char for char in text if not _ignorable(char)).split())


def old_key(text: str) -> str:
    return " ".join(text.split()).casefold()[:OLD_KEY_LENGTH]


# Renaming a player inside the games it sits in ----------------------------------------------


def _renamed(value, old: str, new: str):
    """The JSON value with the name ``old`` (alone, or in a team name "A & B") made ``new``."""
    if isinstance(value, str):
        if value == old:
            return new
        parts = value.split(" & ")
        if len(parts) > 1 and old in parts:
            return " & ".join(new if part == old else part for part in parts)
        return value
    if isinstance(value, list):
        return [_renamed(item, old, new) for item in value]
    if isinstance(value, dict):
        return {_renamed(key, old, new): _renamed(item, old, new) for key, item in value.items()}
    return value


def _rename_in_games(bind, player_id: int, old: str, new: str) -> int:
    game_ids = [
        row[0]
        for row in bind.execute(sa.select(seat.c.game_id).where(seat.c.player_id == player_id))
    ]
    for game_id in game_ids:
        row = bind.execute(
            sa.select(game.c.totals, game.c.winners).where(game.c.id == game_id)
        ).one()
        bind.execute(
            game.update()
            .where(game.c.id == game_id)
            .values(totals=_renamed(row.totals, old, new), winners=_renamed(row.winners, old, new))
        )
        hands = bind.execute(
            sa.select(hand.c.id, hand.c.input, hand.c.points).where(hand.c.game_id == game_id)
        ).all()
        for entry in hands:
            bind.execute(
                hand.update()
                .where(hand.c.id == entry.id)
                .values(
                    input=_renamed(entry.input, old, new), points=_renamed(entry.points, old, new)
                )
            )
    return len(game_ids)


# Recomputing the keys ------------------------------------------------------------------------


def _free_name(base: str, taken: set[str], max_len: int, pattern: str) -> str:
    number = 2
    while True:
        suffix = pattern.format(number)
        candidate = base[: max_len - len(suffix)].rstrip() + suffix
        if new_key(candidate) not in taken:
            return candidate
        number += 1


def _write_keys(bind, table, key_column, rows: dict[int, str]) -> None:
    """Write the new keys in two steps, so no key is ever held by two rows in between."""
    column = table.c[key_column]
    for row_id in rows:
        bind.execute(table.update().where(table.c.id == row_id).values({column: f"\x01{row_id}"}))
    for row_id, key in rows.items():
        bind.execute(table.update().where(table.c.id == row_id).values({column: key}))


def renormalize_players(bind) -> list[str]:
    """New name keys; a later player whose key is now taken is renamed. Returns what was done."""
    report = []
    rows = bind.execute(
        sa.select(player.c.id, player.c.account_id, player.c.name, player.c.name_key).order_by(
            player.c.id
        )
    ).all()
    taken: dict[int, set[str]] = {}
    for row in rows:
        taken.setdefault(row.account_id, set()).add(new_key(row.name))
    seen: dict[tuple[int, str], str] = {}
    changed: dict[int, str] = {}
    for row in rows:
        key = new_key(row.name)
        name = row.name
        if (row.account_id, key) in seen or not key:
            base = visible_line(row.name) or "Player"
            name = _free_name(base, taken[row.account_id], NAME_MAX, " ({})")
            key = new_key(name)
            taken[row.account_id].add(key)
            bind.execute(player.update().where(player.c.id == row.id).values(name=name))
            games = _rename_in_games(bind, row.id, row.name, name)
            first = seen.get((row.account_id, new_key(row.name)))
            why = f"the same name as “{first}”" if first else "no visible name"
            report.append(
                f"player {row.id} of account {row.account_id}: “{row.name}” had {why}; "
                f"renamed “{name}” (in {games} game{'s' if games != 1 else ''})"
            )
        seen[(row.account_id, key)] = name
        if key != row.name_key:
            changed[row.id] = key
    _write_keys(bind, player, "name_key", changed)
    return report


def renormalize_accounts(bind) -> list[str]:
    """New username keys (and NFKC usernames); a later clashing account becomes ``name-2``."""
    report = []
    rows = bind.execute(
        sa.select(account.c.id, account.c.username, account.c.username_key).order_by(account.c.id)
    ).all()
    taken = {new_key(row.username) for row in rows}
    seen: dict[str, str] = {}
    changed: dict[int, str] = {}
    for row in rows:
        username = visible_line(row.username) or f"account-{row.id}"
        key = new_key(username)
        if key in seen:
            first = seen[key]
            username = _free_name(username, taken, USERNAME_MAX, "-{}")
            key = new_key(username)
            taken.add(key)
            report.append(
                f"account {row.id}: username “{row.username}” is now the same as “{first}”; "
                f"renamed “{username}” (tell its owner to log in with the new name)"
            )
        seen[key] = username
        if username != row.username:
            bind.execute(account.update().where(account.c.id == row.id).values(username=username))
        if key != row.username_key:
            changed[row.id] = key
    _write_keys(bind, account, "username_key", changed)
    return report


def _say(lines: list[str]) -> None:
    for line in lines:
        message = f"name keys: {line}"
        logger.warning(message)
        print(message)


@contextmanager
def _key_columns(old_length: int, new_length: int):
    """Alter both key columns (SQLite rebuilds each table to do so: env.py runs every
    migration with foreign keys off, so the rebuild cascades into nothing, and checks them
    afterwards)."""
    for table, column in (("account", "username_key"), ("player", "name_key")):
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.alter_column(
                column,
                existing_type=sa.String(length=old_length),
                type_=sa.String(length=new_length),
                existing_nullable=False,
            )
    yield


def upgrade():
    with _key_columns(OLD_KEY_LENGTH, KEY_LENGTH):
        bind = op.get_bind()
        _say(renormalize_accounts(bind) + renormalize_players(bind))
    # The old per-username lock rows are replaced by rate-limit counters (per address, per
    # username, per known device; see scorekeeper/throttle_storage.py). Counts in progress
    # are dropped: nothing else refers to them.
    op.drop_table("login_throttle")
    op.create_table(
        "login_throttle",
        sa.Column("key", sa.String(length=255), nullable=False),
        sa.Column("hits", sa.Integer(), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_login_throttle")),
    )


def downgrade():
    op.drop_table("login_throttle")
    op.create_table(
        "login_throttle",
        sa.Column("username_key", sa.String(length=40), nullable=False),
        sa.Column("failures", sa.Integer(), nullable=False),
        sa.Column("locked_until", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("username_key", name=op.f("pk_login_throttle")),
    )
    bind = op.get_bind()
    for table, name_column, key_column in (
        (account, "username", "username_key"),
        (player, "name", "name_key"),
    ):
        rows = bind.execute(sa.select(table.c.id, table.c[name_column])).all()
        _write_keys(bind, table, key_column, {row.id: old_key(row[1]) for row in rows})
    with _key_columns(KEY_LENGTH, OLD_KEY_LENGTH):
        pass
