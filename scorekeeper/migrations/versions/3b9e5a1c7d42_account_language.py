"""the language of an account's pages

Revision ID: 3b9e5a1c7d42
Revises: 8d41b7c3e210
Create Date: 2026-12-01 14:20:00

"""

import sqlalchemy as sa
from alembic import op

revision = "3b9e5a1c7d42"
down_revision = "8d41b7c3e210"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("account", schema=None) as batch_op:
        batch_op.add_column(sa.Column("locale", sa.String(length=10), nullable=True))


def downgrade():
    with op.batch_alter_table("account", schema=None) as batch_op:
        batch_op.drop_column("locale")
