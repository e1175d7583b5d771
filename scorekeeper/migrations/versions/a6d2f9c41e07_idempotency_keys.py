"""idempotency keys: the first answer to a write sent with an Idempotency-Key, per account

Revision ID: a6d2f9c41e07
Revises: a25c7e0d9b41
Create Date: 2026-12-10 10:00:00

A new table only: nothing before this revision changes.
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "a6d2f9c41e07"
down_revision = "a25c7e0d9b41"
branch_labels = None
depends_on = None

JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def upgrade():
    op.create_table(
        "idempotency_key",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=200), nullable=False),
        sa.Column("fingerprint", sa.String(length=64), nullable=False),
        sa.Column("claimed_at", sa.Float(), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
        sa.Column("status", sa.Integer(), nullable=True),
        sa.Column("kept", JSON, nullable=True),
        sa.Column("body", sa.LargeBinary(), nullable=True),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["account.id"],
            name=op.f("fk_idempotency_key_account_id_account"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_idempotency_key")),
        sa.UniqueConstraint("account_id", "key", name=op.f("uq_idempotency_key_account_id")),
    )
    with op.batch_alter_table("idempotency_key", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_idempotency_key_expires_at"), ["expires_at"], unique=False
        )


def downgrade():
    with op.batch_alter_table("idempotency_key", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_idempotency_key_expires_at"))
    op.drop_table("idempotency_key")
