"""seat links, seat claims and drafts: each player on their own phone

``game.seat_link``: the token of the link the players open to claim their seats;
``game.draft``: the hand being entered from the phones, keyed by seat position;
``seat_claim``: a seat claimed by a phone (the SHA-256 of its seat token).
On PostgreSQL, a trigger notifies ``scorekeeper_games`` with ``<id>:<version>`` whenever a game
row is written (delivered at commit): every app process listening learns of the change, and
the app sends no statement of its own for it (services/events.py).

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

NOTIFY_FUNCTION = """
CREATE OR REPLACE FUNCTION scorekeeper_game_changed() RETURNS trigger AS $$
BEGIN
    PERFORM pg_notify('scorekeeper_games', NEW.id || ':' || NEW.version);
    RETURN NULL;
END;
$$ LANGUAGE plpgsql
"""

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

    if op.get_bind().dialect.name == "postgresql":
        op.execute(NOTIFY_FUNCTION)
        op.execute(
            "CREATE TRIGGER game_changed AFTER INSERT OR UPDATE ON game "
            "FOR EACH ROW EXECUTE FUNCTION scorekeeper_game_changed()"
        )


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER IF EXISTS game_changed ON game")
        op.execute("DROP FUNCTION IF EXISTS scorekeeper_game_changed()")
    op.drop_table("seat_claim")
    with op.batch_alter_table("game") as batch:
        batch.drop_constraint("uq_game_seat_link", type_="unique")
        batch.drop_column("draft")
        batch.drop_column("seat_link")
