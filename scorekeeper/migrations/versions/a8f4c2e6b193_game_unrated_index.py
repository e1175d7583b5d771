"""the finished games not yet given their standings, indexed apart: every read of the ratings
asks whether there are any, and found none by reading the account's every game

Revision ID: a8f4c2e6b193
Revises: e5c2a7f4b1d3
Create Date: 2026-12-06 21:30:00

An index only (partial: the games it holds are those a database kept from before the ratings;
nearly always none): no data changes.
"""

import sqlalchemy as sa
from alembic import op

revision = "a8f4c2e6b193"
down_revision = "e5c2a7f4b1d3"
branch_labels = None
depends_on = None

UNRATED = sa.text("status = 'finished' AND standing IS NULL")


def upgrade():
    op.create_index(
        "ix_game_unrated",
        "game",
        ["account_id", "id"],
        unique=False,
        sqlite_where=UNRATED,
        postgresql_where=UNRATED,
    )


def downgrade():
    op.drop_index("ix_game_unrated", table_name="game")
