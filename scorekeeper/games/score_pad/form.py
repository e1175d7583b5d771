"""Score pad: one whole number per player (``point-<seat>``), negative allowed; a blank seat
is left out (the rules count it 0). The same form records a round and corrects one."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorekeeper.games.entry_form import per_seat
from scorekeeper.games.readers import POINTS


def read(form: Mapping[str, str], players: list[str], phase: str) -> dict[str, Any]:
    return {"points": per_seat(form, "point", players, POINTS.not_whole, negative=True)}


def typed(form: Mapping[str, str], players: list[str]) -> dict[str, Any]:
    """What was typed, by player name, so a refused form comes back filled in."""
    return {"points": {name: form.get(f"point-{seat}", "") for seat, name in enumerate(players)}}
