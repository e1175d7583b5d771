"""restore jobs: a large restore runs in the background, any worker reports how it goes

Revision ID: b7e3c1d5a924
Revises: f2b8d6a4c1e9
Create Date: 2026-12-05 17:40:00

A new table only: nothing before this revision changes.
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "b7e3c1d5a924"
down_revision = "f2b8d6a4c1e9"
branch_labels = None
depends_on = None

JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def upgrade():
    op.create_table(
        "restore_job",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("state", sa.String(length=20), nullable=False),
        sa.Column("games_read", sa.Integer(), nullable=False),
        sa.Column("answer", JSON, nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["account.id"],
            name=op.f("fk_restore_job_account_id_account"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_restore_job")),
    )
    with op.batch_alter_table("restore_job", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_restore_job_account_id"), ["account_id"], unique=False)


def downgrade():
    with op.batch_alter_table("restore_job", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_restore_job_account_id"))
    op.drop_table("restore_job")
