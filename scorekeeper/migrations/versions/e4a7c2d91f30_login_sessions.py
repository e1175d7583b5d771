"""login sessions: one row per login, named by the cookies' token

Revision ID: e4a7c2d91f30
Revises: 3b9e5a1c7d42
Create Date: 2026-12-02 01:00:00

Every browser logged in before this revision carries the account's id in its cookies, which
no longer logs in: each phone logs in once more after the upgrade (that is the point: an id
copied from a cookie is worth nothing).
"""

import sqlalchemy as sa
from alembic import op

revision = "e4a7c2d91f30"
down_revision = "3b9e5a1c7d42"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "login_session",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("browser", sa.String(length=40), nullable=False),
        sa.Column("system", sa.String(length=40), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["account.id"],
            name=op.f("fk_login_session_account_id_account"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_login_session")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_login_session_token_hash")),
    )
    with op.batch_alter_table("login_session", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_login_session_account_id"), ["account_id"], unique=False
        )


def downgrade():
    with op.batch_alter_table("login_session", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_login_session_account_id"))
    op.drop_table("login_session")
