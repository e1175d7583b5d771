"""an account's games indexed by game, status and variant: a game's statistics page counts
the finished games of its game in the index alone, not by reading every finished game's row

Revision ID: f1b7c3d9a264
Revises: e9c4a2b7d815
Create Date: 2026-12-07 12:55:00

An index only: no data changes.
"""

from alembic import op

revision = "f1b7c3d9a264"
down_revision = "e9c4a2b7d815"
branch_labels = None
depends_on = None


def upgrade():
    op.create_index(
        "ix_game_account_kind", "game", ["account_id", "kind", "status", "variant"], unique=False
    )


def downgrade():
    op.drop_index("ix_game_account_kind", table_name="game")
