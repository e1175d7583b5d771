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


def sample(state: Any, players: list[str]) -> tuple[str, dict[str, str]] | None:
    """A filled-in form for the next round, any the rules take (0 points each): the server
    renders the forms of the rounds after it from it, ahead, for a phone that plays offline.
    None: the game is over."""
    if not state.next:
        return None
    return "points", {f"point-{seat}": "0" for seat in range(len(players))}


def fields(entry: Mapping[str, Any], players: list[str]) -> dict[str, str]:
    """A round's entry as its correction form's fields (``read``'s the other way round)."""
    points = entry.get("points") or {}
    return {
        f"point-{seat}": str(points[name]) for seat, name in enumerate(players) if name in points
    }
