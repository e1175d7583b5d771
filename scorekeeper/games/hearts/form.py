"""Hearts: the points each player took (``point-<seat>``) and who took the jack of diamonds
(``jack_of_diamonds``: a seat, or blank). The same form records a hand and corrects one."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorekeeper.games.entry_form import per_seat
from scorekeeper.games.errors import RuleError
from scorekeeper.games.hearts.rules import HAND_POINTS
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


def sample(state: Any, players: list[str]) -> tuple[str, dict[str, str]] | None:
    """A filled-in form for the next hand, any the rules take: the server renders the forms of
    the hands after it from it, ahead, for a phone that plays offline (the phone writes what
    was really entered into them). It keeps the game going: 13 points each to the two players
    with the lowest totals (no moon, nobody far ahead); no jack. None: the game is over."""
    if not state.next:
        return None
    lowest = sorted(range(len(players)), key=lambda seat: state.totals.get(players[seat], 0))
    fields = {f"point-{seat}": "0" for seat in range(len(players))}
    for seat in lowest[:2]:
        fields[f"point-{seat}"] = str(HAND_POINTS // 2)
    return "points", fields
