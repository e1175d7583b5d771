"""Oh Hell: bids (phase "bids"), tricks ("tricks") or both ("both", a correction)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorekeeper.errors import Refusal
from scorekeeper.games.entry_form import per_seat
from scorekeeper.games.i18n import _


def read(form: Mapping[str, str], players: list[str], phase: str) -> dict[str, Any]:
    """Bids (phase "bids"), tricks ("tricks") or both ("both", a correction)."""
    entry: dict[str, Any] = {}
    if phase in ("bids", "both"):
        entry["bids"] = per_seat(form, "bid", players, _("bid"))
        if "trump" in form:
            entry["trump"] = form.get("trump") or None
    if phase in ("tricks", "both"):
        tricks = per_seat(form, "trick", players, _("tricks"))
        if len(tricks) < len(players):
            missing = next(name for name in players if name not in tricks)
            raise Refusal(
                "missing_tricks",
                _("Enter the tricks for %(name)s.", name=missing),
                f"tricks.{missing}",
            )
        entry["tricks"] = tricks
    return entry


def typed(form: Mapping[str, str], players: list[str]) -> dict[str, Any]:
    """What was typed, by player name, so a refused form comes back filled in."""
    typed: dict[str, Any] = {"trump": form.get("trump")}
    for prefix, key in (("bid", "bids"), ("trick", "tricks")):
        typed[key] = {name: form.get(f"{prefix}-{seat}", "") for seat, name in enumerate(players)}
    return typed
