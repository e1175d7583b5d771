"""Spades: bids (phase "bids", with the blind nil boxes), tricks ("tricks") or both ("both", a
correction). A blind nil box ticked (``blind-<seat>``) bids blind nil: the bid is 0."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorekeeper.games.bidding import form as bidding

#: The phase whose form completes a hand in progress: its tricks.
COMPLETING = frozenset({"tricks"})

#: A hidden field on the forms that show the blind nil boxes (so that none ticked means none).
BLIND_SHOWN = "blind_shown"


def read(form: Mapping[str, str], players: list[str], phase: str) -> dict[str, Any]:
    entry = bidding.read(form, players, phase)
    if phase in ("bids", "both") and form.get(BLIND_SHOWN):
        entry["blind_nil"] = [
            name for seat, name in enumerate(players) if form.get(f"blind-{seat}")
        ]
    return entry


def typed(form: Mapping[str, str], players: list[str]) -> dict[str, Any]:
    """What was typed, by player name, so a refused form comes back filled in."""
    found = bidding.typed(form, players)
    found["blind"] = {name: bool(form.get(f"blind-{seat}")) for seat, name in enumerate(players)}
    return found
