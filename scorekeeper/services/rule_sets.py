"""Saved rule sets: an account names a set of options for a game ("Friday rules") and starts
new games from it in one tap. A game copies the options when it starts, so changing or
deleting a set changes no game already played."""

from __future__ import annotations

from collections.abc import Mapping

import sqlalchemy as sa

from scorekeeper.api.schemas import RuleSetOut
from scorekeeper.errors import NotFound
from scorekeeper.errors import Refusal
from scorekeeper.errors import as_refusal
from scorekeeper.extensions import db
from scorekeeper.games import GAMES
from scorekeeper.games.i18n import _
from scorekeeper.models import Account
from scorekeeper.models import RuleSet
from scorekeeper.text import clean_line
from scorekeeper.text import sort_key
from scorekeeper.text import text_key

NAME_MAX = 40


def answer(rule_set: RuleSet) -> RuleSetOut:
    """A rule set in the API."""
    return RuleSetOut(
        id=rule_set.id, game=rule_set.kind, name=rule_set.name, options=dict(rule_set.options)
    )


def rule_sets(account: Account, kind: str | None = None) -> list[RuleSet]:
    """The account's rule sets (of one game), by name."""
    query = sa.select(RuleSet).where(RuleSet.account_id == account.id)
    if kind:
        query = query.where(RuleSet.kind == kind)
    return sorted(db.session.scalars(query), key=lambda rule_set: sort_key(rule_set.name))


def get_rule_set(account: Account, rule_set_id: int) -> RuleSet:
    found = db.session.get(RuleSet, rule_set_id) if 0 < rule_set_id < 2**31 else None
    if found is None or found.account_id != account.id:
        raise NotFound(_("That rule set was not found."))
    return found


def save_rule_set(account: Account, kind: object, name: object, options: object) -> RuleSet:
    """Name a set of options for a game (a set of the same name is replaced)."""
    if not isinstance(kind, str) or kind not in GAMES:
        raise Refusal("option_value", _("Choose one of the games."), "game")
    name = clean_line(
        name, _("A rule set's name"), "name", NAME_MAX, required=_("Name the rule set.")
    )
    if not isinstance(options, Mapping):
        raise Refusal("wrong_type", _("Options must be an object of option values."), "options")
    rules = GAMES[kind].rules
    with as_refusal():
        # The options are checked as for the biggest table (whose ranges are the widest).
        rules.resolve_options(options, rules.min_players)
    key = text_key(name)
    held = db.session.scalar(
        sa.select(RuleSet).where(
            RuleSet.account_id == account.id, RuleSet.kind == kind, RuleSet.name_key == key
        )
    )
    if held is None:
        held = RuleSet(account_id=account.id, kind=kind, name=name, name_key=key, options={})
        db.session.add(held)
    held.name = name
    held.options = dict(options)
    try:
        db.session.commit()
    except sa.exc.IntegrityError:
        db.session.rollback()
        raise Refusal(
            "conflict", _("That rule set was saved at the same moment elsewhere.")
        ) from None
    return held


def delete_rule_set(account: Account, rule_set_id: int) -> None:
    """Forget a rule set. Deleting it twice at the same moment is no error: it is gone."""
    found = get_rule_set(account, rule_set_id)
    db.session.execute(
        sa.delete(RuleSet).where(RuleSet.id == found.id, RuleSet.account_id == account.id)
    )
    db.session.commit()
