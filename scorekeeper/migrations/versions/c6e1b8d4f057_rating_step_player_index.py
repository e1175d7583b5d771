"""a player's rating steps indexed by player first: their statistics read their rating in
every scope from their own steps, not from every step of the account

Revision ID: c6e1b8d4f057
Revises: a8f4c2e6b193
Create Date: 2026-12-06 21:40:00

An index only: no data changes.
"""

from alembic import op

revision = "c6e1b8d4f057"
down_revision = "a8f4c2e6b193"
branch_labels = None
depends_on = None


def upgrade():
    op.create_index(
        "ix_rating_step_player_scope",
        "rating_step",
        ["account_id", "player_id", "scope", "position"],
        unique=False,
    )


def downgrade():
    op.drop_index("ix_rating_step_player_scope", table_name="rating_step")
