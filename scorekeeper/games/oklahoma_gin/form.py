"""Oklahoma Gin: one round from the game page's form (phase "round"; "both" is a correction).

Fields: ``upcard`` (rank), ``upcard_suit`` (only asked with spades double), ``result``
(knock, gin or draw), ``knocker`` (a seat number, as the chips send it) and the two deadwood
counts ``knocker_deadwood`` and ``opponent_deadwood``. Every key is always present in the
entry (None when blank), so a correction replaces what the round held; the rules do the
checking and say what is missing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorekeeper.games.entry_form import whole_or_none
from scorekeeper.games.errors import RuleError
from scorekeeper.games.i18n import _

FIELDS = (
    "upcard",
    "upcard_suit",
    "result",
    "knocker",
    "knocker_deadwood",
    "opponent_deadwood",
)


def _text(form: Mapping[str, str], key: str) -> str | None:
    value = (form.get(key) or "").strip()
    return value or None


def _knocker(raw: str | None, players: list[str]) -> str | None:
    if raw is None:
        return None
    if raw.isascii() and raw.isdigit() and int(raw) < len(players):
        return players[int(raw)]
    raise RuleError("unknown_player", _("Choose who knocked: one of the two players."), "knocker")


def _deadwood(raw: str | None, field: str, not_whole: str) -> int | None:
    """A deadwood count as a whole number (blank is None), else refused with ``not_whole``."""
    return whole_or_none(raw, not_whole, field)


def read(form: Mapping[str, str], players: list[str], phase: str) -> dict[str, Any]:
    """The round as the rules take it; blank fields are None."""
    entry: dict[str, Any] = {
        "upcard": _text(form, "upcard"),
        "upcard_suit": _text(form, "upcard_suit"),
        "result": _text(form, "result"),
        "knocker": None,
        "knocker_deadwood": None,
        "opponent_deadwood": None,
    }
    if (entry["result"] or "").lower() == "draw":
        # A draw has no knocker: whatever else the form still holds is not part of it.
        return entry
    knocker = _knocker(_text(form, "knocker"), players)
    entry["knocker"] = knocker
    opponent = next((name for name in players if name != knocker), None) if knocker else None
    entry["knocker_deadwood"] = _deadwood(
        form.get("knocker_deadwood"),
        "knocker_deadwood",
        _("%(name)s's deadwood must be a whole number.", name=knocker)
        if knocker
        else _("The knocker's deadwood must be a whole number."),
    )
    entry["opponent_deadwood"] = _deadwood(
        form.get("opponent_deadwood"),
        "opponent_deadwood",
        _("%(name)s's deadwood must be a whole number.", name=opponent)
        if opponent
        else _("The opponent's deadwood must be a whole number."),
    )
    return entry


def typed(form: Mapping[str, str], players: list[str]) -> dict[str, str]:
    """What was typed (raw strings, the knocker as a seat), to refill a refused form."""
    return {key: (form.get(key) or "").strip() for key in FIELDS}


def sample(state: Any, players: list[str]) -> tuple[str, dict[str, str]] | None:
    """A filled-in form for the next round, any the rules take: the server renders the forms
    of the rounds after it from it, ahead, for a phone that plays offline (the phone writes
    what was really entered into them). It keeps the game going: a king of clubs turned up,
    the player who plays first knocks with 1 against 2 (1 point). None: the game is over."""
    coming = state.next
    if not coming:
        return None
    order = coming.get("order") or players
    return "round", {
        "upcard": "K",
        "upcard_suit": "clubs",
        "result": "knock",
        "knocker": str(players.index(order[0])),
        "knocker_deadwood": "1",
        "opponent_deadwood": "2",
    }
