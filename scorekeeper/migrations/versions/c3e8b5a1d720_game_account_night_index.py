"""games indexed by account, night and play order: the history lists read a page of nights'
games, and count the games outside any night, without scanning the account's every game

Revision ID: c3e8b5a1d720
Revises: a6d2f9c41e07
Create Date: 2026-12-05 01:35:00

An index only: no data changes.
"""

from alembic import op

revision = "c3e8b5a1d720"
down_revision = "a6d2f9c41e07"
branch_labels = None
depends_on = None


def upgrade():
    op.create_index(
        "ix_game_account_night", "game", ["account_id", "night_id", "created_at"], unique=False
    )


def downgrade():
    op.drop_index("ix_game_account_night", table_name="game")
