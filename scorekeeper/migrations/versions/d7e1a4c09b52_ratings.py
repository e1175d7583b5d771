"""ratings: each finished game's standings, and every player's rating after each game

``game.standing``: a finished game's final standings by side (``[[rank, [seats]], ...]``),
derived by the rules like the game's other copies; existing finished games get theirs when
the ratings are first read (``flask ratings-rebuild`` or the first rating page: see
``services/ratings.py``). ``rating_step``: a player's rating after each game, per scope.

Revision ID: d7e1a4c09b52
Revises: c3e8b5a1d720
Create Date: 2026-12-05 02:00:00

"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "d7e1a4c09b52"
down_revision = "c3e8b5a1d720"
branch_labels = None
depends_on = None

JSONType = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql")


def upgrade() -> None:
    with op.batch_alter_table("game") as batch:
        batch.add_column(sa.Column("standing", JSONType, nullable=True))
    op.create_table(
        "rating_step",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("scope", sa.String(length=90), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(["account_id"], ["account.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["player_id"], ["player.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_rating_step_game_id", "rating_step", ["game_id"])
    op.create_index(
        "ix_rating_step_scope_player",
        "rating_step",
        ["account_id", "scope", "player_id", "position"],
    )
    op.create_index(
        "ix_rating_step_scope_position", "rating_step", ["account_id", "scope", "position"]
    )


def downgrade() -> None:
    op.drop_table("rating_step")
    with op.batch_alter_table("game") as batch:
        batch.drop_column("standing")
