"""the finished games indexed in the order they finished: a game that has just finished is
rated after the game before it in its scopes, found on the index, not by counting the
account's every finished game

Revision ID: b5d8e2f1a637
Revises: d3a9f1c7e482
Create Date: 2026-12-07 08:20:00

An index only: no data changes.
"""

from alembic import op

revision = "b5d8e2f1a637"
down_revision = "d3a9f1c7e482"
branch_labels = None
depends_on = None


def upgrade():
    op.create_index(
        "ix_game_account_finished",
        "game",
        ["account_id", "status", "finished_at", "id"],
        unique=False,
    )


def downgrade():
    op.drop_index("ix_game_account_finished", table_name="game")
