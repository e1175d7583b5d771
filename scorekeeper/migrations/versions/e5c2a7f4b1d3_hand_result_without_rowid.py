"""hand results stored by their key on SQLite (WITHOUT ROWID): the largest table is kept once,
not once as rows and again as its primary key's index

Revision ID: e5c2a7f4b1d3
Revises: b7e3c1d5a924
Create Date: 2026-12-06 13:10:00

On SQLite the table is built again WITHOUT ROWID and its rows copied over as they are (the
same columns, key and foreign key). PostgreSQL has no such choice: nothing changes there.
"""

import sqlalchemy as sa
from alembic import op

revision = "e5c2a7f4b1d3"
down_revision = "b7e3c1d5a924"
branch_labels = None
depends_on = None

COLUMNS = '"game_id", "number", "seat", "key", "value"'


def _rebuild(with_rowid: bool) -> None:
    """The table made again (rowid or not) under a passing name, filled, then named back."""
    if op.get_bind().dialect.name != "sqlite":
        return
    op.create_table(
        "_hand_result_new",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=32), nullable=False),
        sa.Column("value", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["game.id"], name="fk_hand_result_game_id_game", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("game_id", "number", "seat", "key", name="pk_hand_result"),
        sqlite_with_rowid=with_rowid,
    )
    op.execute(f"INSERT INTO _hand_result_new ({COLUMNS}) SELECT {COLUMNS} FROM hand_result")
    op.drop_table("hand_result")
    op.rename_table("_hand_result_new", "hand_result")


def upgrade():
    _rebuild(with_rowid=False)


def downgrade():
    _rebuild(with_rowid=True)
