"""Partners' form: one number per team (``team-0``, ``team-1`` ..., below zero allowed) and who
went out first (``went_out``: a seat, or blank for nobody)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorekeeper.games.entry_form import whole_or_none
from tests.fifth_game.rules import team_names


def read(form: Mapping[str, str], players: list[str], phase: str) -> dict[str, Any]:
    points = {}
    for index, team in enumerate(team_names(players)):
        value = whole_or_none(
            form.get(f"team-{index}"),
            f"The points of {team} must be a whole number.",
            f"points.{team}",
            negative=True,
        )
        if value is not None:
            points[team] = value
    seat = form.get("went_out", "")
    # Only ASCII digits: "²" passes str.isdigit() but is no seat.
    known = seat.isascii() and seat.isdigit() and len(seat) < 3 and int(seat) < len(players)
    went_out = players[int(seat)] if known else None
    return {"points": points, "went_out": went_out}


def typed(form: Mapping[str, str], players: list[str]) -> dict[str, Any]:
    """What was typed, so a refused form comes back filled in."""
    teams = team_names(players)
    return {
        "points": {team: form.get(f"team-{index}", "") for index, team in enumerate(teams)},
        "went_out": form.get("went_out", ""),
    }
