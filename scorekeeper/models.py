"""Tables only: what was entered. Everything derivable comes from the rules layer."""

from __future__ import annotations

from datetime import UTC
from datetime import datetime

import sqlalchemy as sa
from flask_login import UserMixin
from sqlalchemy.orm import Mapped
from sqlalchemy.orm import mapped_column
from sqlalchemy.orm import relationship

from scorekeeper.extensions import db


def utcnow() -> datetime:
    return datetime.now(UTC)


def as_utc(moment: datetime | None) -> datetime | None:
    """SQLite hands datetimes back without a zone; they were stored as UTC."""
    if moment is not None and moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment


class Account(UserMixin, db.Model):
    """A group that keeps score together: owns its players, nights and games."""

    __tablename__ = "account"

    id: Mapped[int] = mapped_column(primary_key=True)
    username: Mapped[str] = mapped_column(sa.String(40))
    # Lower-cased username: logins and uniqueness ignore case.
    username_key: Mapped[str] = mapped_column(sa.String(40), unique=True)
    password_hash: Mapped[str] = mapped_column(sa.String(256))
    created_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)

    players: Mapped[list[Player]] = relationship(
        back_populates="account", cascade="all, delete-orphan", passive_deletes=True
    )

    def __repr__(self) -> str:
        return f"<Account {self.username}>"


class ApiToken(db.Model):
    """A bearer token for the JSON API; only its SHA-256 is kept."""

    __tablename__ = "api_token"

    id: Mapped[int] = mapped_column(primary_key=True)
    account_id: Mapped[int] = mapped_column(
        sa.ForeignKey("account.id", ondelete="CASCADE"), index=True
    )
    token_hash: Mapped[str] = mapped_column(sa.String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)

    account: Mapped[Account] = relationship()


class LoginThrottle(db.Model):
    """Failed logins per username, so guessing is slowed across every worker."""

    __tablename__ = "login_throttle"

    username_key: Mapped[str] = mapped_column(sa.String(40), primary_key=True)
    failures: Mapped[int] = mapped_column(default=0)
    locked_until: Mapped[datetime | None] = mapped_column(sa.DateTime(timezone=True))


class Player(db.Model):
    """Someone on the account's roster."""

    __tablename__ = "player"
    __table_args__ = (sa.UniqueConstraint("account_id", "name_key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    account_id: Mapped[int] = mapped_column(sa.ForeignKey("account.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(sa.String(40))
    # Case-folded name: "ann" and "Ann" are the same player.
    name_key: Mapped[str] = mapped_column(sa.String(40))
    archived: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)

    account: Mapped[Account] = relationship(back_populates="players")

    def to_json(self) -> dict:
        return {"id": self.id, "name": self.name, "archived": self.archived}
