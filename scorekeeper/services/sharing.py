"""Read-only links for the other phones at the table.

A link carries an unguessable token; revoking it (or issuing a new one) makes the old link
answer 404. The view needs no login and can change nothing.
"""

from __future__ import annotations

import secrets

import sqlalchemy as sa
from sqlalchemy.orm import selectinload

from scorekeeper.errors import NotFound
from scorekeeper.extensions import db
from scorekeeper.models import Account
from scorekeeper.models import Game
from scorekeeper.services import games


def share(account: Account, game_id: int, renew: bool = False) -> Game:
    """Give the game a share token (a new one with ``renew``); the existing one otherwise."""
    game = games.get_game(account, game_id)
    if game.share_token is None or renew:
        game.share_token = secrets.token_urlsafe(24)
        db.session.commit()
    return game


def revoke(account: Account, game_id: int) -> Game:
    """Stop sharing: the old link answers 404 from now on."""
    game = games.get_game(account, game_id)
    if game.share_token is not None:
        game.share_token = None
        db.session.commit()
    return game


def version_for_token(token: str) -> tuple[int, int] | None:
    """``(game id, version)`` of the shared game, in one small query (the 304 path)."""
    row = db.session.execute(
        sa.select(Game.id, Game.version).where(Game.share_token == token)
    ).first()
    return (row.id, row.version) if row else None


def game_for_token(token: str) -> games.Played:
    """The shared game with its state, or 404 (unknown or revoked token)."""
    game = db.session.scalar(
        sa.select(Game)
        .where(Game.share_token == token)
        .options(selectinload(Game.seats), selectinload(Game.hands))
    )
    if game is None or not token:
        raise NotFound("That shared game")
    return games.played(game)
