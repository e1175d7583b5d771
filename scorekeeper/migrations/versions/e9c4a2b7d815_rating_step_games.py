"""each rating step says how many games of its scope the player has been rated in by then:
the ratings of a scope read each player's last step, one seek each, not the scope's every step
grouped by player to count them

Revision ID: e9c4a2b7d815
Revises: b5d8e2f1a637
Create Date: 2026-12-07 10:10:00

The count is filled in for the steps already kept: a step's games are its player's steps in
its scope up to its position (a window function, one pass over the table). On SQLite the
column is then made NOT NULL by copying the table (alembic's batch mode), as SQLite cannot
change a column.
"""

import sqlalchemy as sa
from alembic import op

revision = "e9c4a2b7d815"
down_revision = "b5d8e2f1a637"
branch_labels = None
depends_on = None

FILL = """
UPDATE rating_step SET games = counted.games
FROM (
    SELECT id, ROW_NUMBER() OVER (
        PARTITION BY account_id, scope, player_id ORDER BY position
    ) AS games
    FROM rating_step
) AS counted
WHERE counted.id = rating_step.id
"""


def upgrade():
    op.add_column("rating_step", sa.Column("games", sa.Integer(), nullable=True))
    op.execute(FILL)
    with op.batch_alter_table("rating_step") as batch:
        batch.alter_column("games", existing_type=sa.Integer(), nullable=False)


def downgrade():
    with op.batch_alter_table("rating_step") as batch:
        batch.drop_column("games")
