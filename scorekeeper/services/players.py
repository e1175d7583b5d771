"""The roster: add, rename, archive, restore."""

from __future__ import annotations

import sqlalchemy as sa

from scorekeeper.api.schemas import PlayerOut
from scorekeeper.errors import NotFound
from scorekeeper.errors import Refusal
from scorekeeper.errors import as_refusal
from scorekeeper.extensions import db
from scorekeeper.games import text as rules_text
from scorekeeper.games.i18n import _
from scorekeeper.models import Account
from scorekeeper.models import Player
from scorekeeper.text import sort_key
from scorekeeper.text import text_key

NAME_MAX = rules_text.NAME_MAX


def clean_name(name: object) -> str:
    """A player name in NFKC form, spaces collapsed, 1 to 40 characters, nothing invisible
    (``scorekeeper.games.text.clean_name``, refused as the app refuses)."""
    with as_refusal():
        return rules_text.clean_name(name)


def name_key(name: str) -> str:
    """What makes two names the same player: ``Ann``, ``ANN`` and ``Ａｎｎ`` are one."""
    return text_key(name)


def answer(player: Player) -> PlayerOut:
    """A player in the API."""
    return PlayerOut(id=player.id, name=player.name, archived=player.archived)


def roster(account: Account) -> list[Player]:
    """Every player of the account, active ones first, then by name in the reader's
    alphabet (Élodie with the E's)."""
    players = db.session.scalars(sa.select(Player).where(Player.account_id == account.id))
    return sorted(players, key=lambda player: (player.archived, sort_key(player.name)))


def get_player(account: Account, player_id: int) -> Player:
    player = db.session.get(Player, player_id)
    if player is None or player.account_id != account.id:
        raise NotFound(_("That player was not found."))
    return player


def _check_free(account: Account, name: str, except_id: int | None = None) -> None:
    query = sa.select(Player).where(
        Player.account_id == account.id, Player.name_key == name_key(name)
    )
    other = db.session.scalar(query)
    if other is not None and other.id != except_id:
        if other.archived:
            message = _(
                "There is already a player called %(name)s (archived: restore them instead).",
                name=other.name,
            )
        else:
            message = _("There is already a player called %(name)s.", name=other.name)
        raise Refusal("name_taken", message, "name")


def _taken(name: str) -> Refusal:
    return Refusal("name_taken", _("There is already a player called %(name)s.", name=name), "name")


def _commit_or_taken(name: str) -> None:
    try:
        db.session.commit()
    except sa.exc.IntegrityError:  # the same name added at the same moment elsewhere
        db.session.rollback()
        raise _taken(name) from None


def add_player(account: Account, name: object) -> Player:
    name = clean_name(name)
    _check_free(account, name)
    player = Player(account_id=account.id, name=name, name_key=name_key(name))
    db.session.add(player)
    _commit_or_taken(name)
    return player


def update_player(
    account: Account, player_id: int, name: object = None, archived: object = None
) -> Player:
    """Rename and/or archive or restore a player."""
    player = get_player(account, player_id)
    if archived is not None and not isinstance(archived, bool):
        raise Refusal("wrong_type", _("Archived must be true or false."), "archived")
    if name is not None:
        name = clean_name(name)
        _check_free(account, name, except_id=player.id)
        # Games store seats, not names: the rename is this one row.
        player.name = name
        player.name_key = name_key(name)
    if archived is not None:
        player.archived = archived
    _commit_or_taken(player.name)
    return player
