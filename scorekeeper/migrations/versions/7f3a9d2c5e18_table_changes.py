"""table changes: the changes of the table between hands, and the seats of who came later

Revision ID: 7f3a9d2c5e18
Revises: e4a7c2d91f30
Create Date: 2026-12-04 20:00:00

Games before this revision have no change and every seat is the starting table's
(``table_size`` NULL): they read back exactly as before.
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "7f3a9d2c5e18"
down_revision = "e4a7c2d91f30"
branch_labels = None
depends_on = None

JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def upgrade():
    op.create_table(
        "table_change",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("before_hand", sa.Integer(), nullable=False),
        sa.Column("body", JSON, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["game.id"],
            name=op.f("fk_table_change_game_id_game"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_table_change")),
    )
    with op.batch_alter_table("table_change", schema=None) as batch_op:
        batch_op.create_index("ix_table_change_game", ["game_id", "before_hand"], unique=False)
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.add_column(sa.Column("table_size", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("side_seats", JSON, nullable=True))


def downgrade():
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.drop_column("side_seats")
        batch_op.drop_column("table_size")
    with op.batch_alter_table("table_change", schema=None) as batch_op:
        batch_op.drop_index("ix_table_change_game")
    op.drop_table("table_change")
