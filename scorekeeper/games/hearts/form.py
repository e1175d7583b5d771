"""Hearts: the points each player took (``point-<seat>``) and who took the jack of diamonds
(``jack_of_diamonds``: a seat, or blank). The same form records a hand and corrects one."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorekeeper.games.entry_form import per_seat
from scorekeeper.games.errors import RuleError
from scorekeeper.games.i18n import _
from scorekeeper.games.readers import POINTS


def read(form: Mapping[str, str], players: list[str], phase: str) -> dict[str, Any]:
    """The points taken (blank seats are left out: the rules ask for them) and the jack."""
    entry: dict[str, Any] = {"points": per_seat(form, "point", players, POINTS.not_whole)}
    jack = (form.get("jack_of_diamonds") or "").strip()
    if jack:
        if not (jack.isascii() and jack.isdigit() and int(jack) < len(players)):
            raise RuleError(
                "unknown_player", _("Choose who took the jack of diamonds."), "jack_of_diamonds"
            )
        entry["jack_of_diamonds"] = players[int(jack)]
    return entry


def typed(form: Mapping[str, str], players: list[str]) -> dict[str, Any]:
    """What was typed, by player name, so a refused form comes back filled in."""
    return {
        "points": {name: form.get(f"point-{seat}", "") for seat, name in enumerate(players)},
        "jack_of_diamonds": form.get("jack_of_diamonds", ""),
    }
