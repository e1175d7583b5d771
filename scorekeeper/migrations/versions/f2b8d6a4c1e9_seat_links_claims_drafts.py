"""seat links, seat claims and drafts: each player on their own phone

``game.seat_link``: the token of the link the players open to claim their seats;
``game.draft``: the hand being entered from the phones, keyed by seat position;
``seat_claim``: a seat claimed by a phone (the SHA-256 of its seat token).

Revision ID: f2b8d6a4c1e9
Revises: d7e1a4c09b52
Create Date: 2026-12-05 06:00:00

"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "f2b8d6a4c1e9"
down_revision = "d7e1a4c09b52"
branch_labels = None
depends_on = None

JSONType = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql")


def upgrade() -> None:
    with op.batch_alter_table("game") as batch:
        batch.add_column(sa.Column("seat_link", sa.String(length=64), nullable=True))
        batch.add_column(sa.Column("draft", JSONType, nullable=True))
        batch.create_unique_constraint("uq_game_seat_link", ["seat_link"])
    op.create_table(
        "seat_claim",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "position"),
        sa.UniqueConstraint("token_hash"),
    )


def downgrade() -> None:
    op.drop_table("seat_claim")
    with op.batch_alter_table("game") as batch:
        batch.drop_constraint("uq_game_seat_link", type_="unique")
        batch.drop_column("draft")
        batch.drop_column("seat_link")
