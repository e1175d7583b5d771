"""Read-only links for the other phones at the table.

A link carries an unguessable token; revoking it (or issuing a new one) makes the old link
answer 404. The view needs no login and can change nothing.
"""

from __future__ import annotations

import secrets

import sqlalchemy as sa
from sqlalchemy.orm import joinedload

from scorekeeper.errors import NotFound
from scorekeeper.extensions import db
from scorekeeper.games.i18n import _
from scorekeeper.models import Game
from scorekeeper.services import games


def share(game: Game, renew: bool = False) -> Game:
    """Give the game a share token (a new one with ``renew``); the existing one otherwise.
    A change made at the same moment elsewhere answers 409 (nothing saved)."""
    if game.share_token is None or renew:
        game.share_token = secrets.token_urlsafe(24)
        games.commit()
    return game


def revoke(game: Game) -> Game:
    """Stop sharing: the old link answers 404 from now on."""
    if game.share_token is not None:
        game.share_token = None
        games.commit()
    return game


def version_for_token(token: str) -> tuple[int, int] | None:
    """``(game id, version)`` of the shared game, in one small query (the 304 path)."""
    row = db.session.execute(
        sa.select(Game.id, Game.version).where(Game.share_token == token)
    ).first()
    return (row.id, row.version) if row else None


def game_for_token(token: str) -> games.Played:
    """The shared game with its state, or 404 (unknown or revoked token)."""
    game = (
        db.session.execute(
            sa.select(Game)
            .where(Game.share_token == token)
            .options(joinedload(Game.seats), joinedload(Game.hands))
        )
        .unique()
        .scalar_one_or_none()
    )
    if game is None or not token:
        raise NotFound(_("That shared game was not found."))
    return games.played(game)
