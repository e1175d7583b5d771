"""Oh Hell: bids (phase "bids"), tricks ("tricks") or both ("both", a correction)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorekeeper.games.bidding import form as bidding

#: The phase whose form completes a hand in progress: its tricks.
COMPLETING = frozenset({"tricks"})


def read(form: Mapping[str, str], players: list[str], phase: str) -> dict[str, Any]:
    """Bids (phase "bids"), tricks ("tricks") or both ("both", a correction); the trump with
    the bids, when the form has one."""
    entry = bidding.read(form, players, phase)
    if phase in ("bids", "both") and "trump" in form:
        entry["trump"] = form.get("trump") or None
    return entry


#: What was typed, by player name, so a refused form comes back filled in.
typed = bidding.typed

#: A filled-in form for the next step (the forms of the steps ahead, for offline play).
sample = bidding.sample


def fields(entry: Mapping[str, Any], players: list[str]) -> dict[str, str]:
    """A hand's entry as its correction form's fields, its trump with them."""
    return {**bidding.fields(entry, players), "trump": entry.get("trump") or ""}
