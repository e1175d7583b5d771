"""a player's seats indexed with their games: the history filtered by a player finds the
player's games in the index alone, without reading each seat's row

Revision ID: d3a9f1c7e482
Revises: c6e1b8d4f057
Create Date: 2026-12-07 02:30:00

An index only: no data changes. The new index begins with the player, as the one it replaces
did, so it serves what that one served (a player's seats, the player's foreign key).
"""

from alembic import op

revision = "d3a9f1c7e482"
down_revision = "c6e1b8d4f057"
branch_labels = None
depends_on = None


def upgrade():
    op.create_index("ix_seat_player_game", "seat", ["player_id", "game_id"], unique=False)
    op.drop_index("ix_seat_player_id", table_name="seat")


def downgrade():
    op.create_index("ix_seat_player_id", "seat", ["player_id"], unique=False)
    op.drop_index("ix_seat_player_game", table_name="seat")
