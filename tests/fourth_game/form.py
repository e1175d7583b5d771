"""Race's form: one roll per seat (``roll-0``, ``roll-1`` ...)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorekeeper.games.entry_form import per_seat


def read(form: Mapping[str, str], players: list[str], phase: str) -> dict[str, Any]:
    return {
        "rolls": per_seat(
            form, "roll", players, lambda name: f"{name}'s roll must be a whole number."
        )
    }
