"""Wizard: bids (phase "bids"), tricks ("tricks") or both ("both", a correction), as in Oh
Hell; the turned card's effect is one choice: a suit, "none" (a Jester) or "chose-<suit>" (a
Wizard: the dealer chose the suit)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorekeeper.games.bidding import form as bidding

#: The phase whose form completes a hand in progress: its tricks.
COMPLETING = frozenset({"tricks"})

#: The trump field's value when the dealer chose the suit after turning a Wizard.
CHOSE = "chose-"


def read(form: Mapping[str, str], players: list[str], phase: str) -> dict[str, Any]:
    entry = bidding.read(form, players, phase)
    if phase in ("bids", "both") and "trump" in form:
        value = (form.get("trump") or "").strip()
        chosen = value.startswith(CHOSE)
        entry["trump"] = value.removeprefix(CHOSE) or None
        entry["trump_chosen"] = chosen
    return entry


#: What was typed, by player name, so a refused form comes back filled in.
typed = bidding.typed

#: A filled-in form for the next step (the forms of the steps ahead, for offline play).
sample = bidding.sample


def fields(entry: Mapping[str, Any], players: list[str]) -> dict[str, str]:
    """A hand's entry as its correction form's fields, the turned card's effect with them."""
    trump = entry.get("trump") or ""
    chosen = CHOSE if trump and entry.get("trump_chosen") else ""
    return {**bidding.fields(entry, players), "trump": f"{chosen}{trump}"}
