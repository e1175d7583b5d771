"""The form reader the bid-then-take-tricks games share (Oh Hell, Wizard, Spades).

Each player bids a number of tricks (``bid-<seat>``), then the tricks each took are entered
(``trick-<seat>``): ``read`` turns the form into ``{"bids": {...}, "tricks": {...}}`` for the
rules (refusing with a ``RuleError``), ``typed`` keeps what was typed to refill a refused form.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorekeeper.games.entry_form import per_seat
from scorekeeper.games.errors import RuleError
from scorekeeper.games.i18n import _
from scorekeeper.games.readers import BIDS
from scorekeeper.games.readers import TRICKS


def read(form: Mapping[str, str], players: list[str], phase: str) -> dict[str, Any]:
    """Bids (phase "bids"), tricks ("tricks") or both ("both", a correction)."""
    entry: dict[str, Any] = {}
    if phase in ("bids", "both"):
        entry["bids"] = per_seat(form, "bid", players, BIDS.not_whole)
    if phase in ("tricks", "both"):
        tricks = per_seat(form, "trick", players, TRICKS.not_whole)
        if len(tricks) < len(players):
            missing = next(name for name in players if name not in tricks)
            raise RuleError(
                "missing_tricks", _("Enter the tricks for %(name)s.", name=missing),
                f"tricks.{missing}",
            )  # fmt: skip
        entry["tricks"] = tricks
    return entry


def typed(form: Mapping[str, str], players: list[str]) -> dict[str, Any]:
    """What was typed, by player name, so a refused form comes back filled in."""
    found: dict[str, Any] = {"trump": form.get("trump")}
    for prefix, key in (("bid", "bids"), ("trick", "tricks")):
        found[key] = {name: form.get(f"{prefix}-{seat}", "") for seat, name in enumerate(players)}
    return found


def fields(entry: Mapping[str, Any], players: list[str]) -> dict[str, str]:
    """A hand's entry as its correction form's fields (``read``'s the other way round): what a
    phone playing offline writes into the correction form made ahead."""
    found: dict[str, str] = {}
    for prefix, key in (("bid", "bids"), ("trick", "tricks")):
        values = entry.get(key) or {}
        found.update(
            {
                f"{prefix}-{seat}": str(values[name])
                for seat, name in enumerate(players)
                if values.get(name) is not None
            }
        )
    return found


def sample(state: Any, players: list[str]) -> tuple[str, dict[str, str]] | None:
    """A filled-in form for the step the game waits for (its phase and fields), any the rules
    take: the server renders the forms of the steps after it from it, ahead, for a phone that
    plays offline (the phone writes what was really entered into them). Bids: 0 each (1 for
    a dealer the hook forbids 0); tricks: all to the first in order. None: nothing to enter."""
    seat = {name: index for index, name in enumerate(players)}
    current = state.current
    if current is not None:
        order = current.info.get("order") or players
        fields = {f"trick-{seat[name]}": "0" for name in order}
        fields[f"trick-{seat[order[0]]}"] = str(current.info.get("cards", 0))
        return "tricks", fields
    coming = state.next
    if not coming:
        return None
    fields = {f"bid-{seat[name]}": "0" for name in coming.get("order") or players}
    if coming.get("forbidden_dealer_bid") == 0 and coming.get("dealer") in seat:
        fields[f"bid-{seat[coming['dealer']]}"] = "1"
    return "bids", fields
