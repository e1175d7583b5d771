"""Reading a hand from a page's form: fields per seat (``bid-0``, ``tricks-2``) to the rules'
entry format (``{"bids": {"Ann": 1, ...}}``). One reader per game; the rules do the checking.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Mapping
from typing import Any

from scorekeeper.errors import Refusal


def whole_or_none(raw: str | None, what: str, field: str) -> int | None:
    """A form value as a whole number; blank is None; anything else is refused."""
    raw = (raw or "").strip()
    if raw == "":
        return None
    if not raw.isdigit():
        raise Refusal("wrong_type", f"{what} must be a whole number.", field)
    return int(raw)


def per_seat(form: Mapping[str, str], prefix: str, players: list[str], what: str) -> dict:
    """``{name: int}`` for the seats that have a value (blank seats are left out)."""
    values = {}
    for seat, name in enumerate(players):
        value = whole_or_none(form.get(f"{prefix}-{seat}"), f"{name}'s {what}", f"{prefix}s.{name}")
        if value is not None:
            values[name] = value
    return values


def oh_hell(form: Mapping[str, str], players: list[str], phase: str) -> dict[str, Any]:
    """Bids (phase "bids"), tricks ("tricks") or both ("both", a correction)."""
    entry: dict[str, Any] = {}
    if phase in ("bids", "both"):
        entry["bids"] = per_seat(form, "bid", players, "bid")
        if "trump" in form:
            entry["trump"] = form.get("trump") or None
    if phase in ("tricks", "both"):
        tricks = per_seat(form, "trick", players, "tricks")
        if len(tricks) < len(players):
            missing = next(name for name in players if name not in tricks)
            raise Refusal("missing_tricks", f"Enter the tricks for {missing}.", f"tricks.{missing}")
        entry["tricks"] = tricks
    return entry


READERS: dict[str, Callable[[Mapping[str, str], list[str], str], dict[str, Any]]] = {
    "oh_hell": oh_hell,
}


def read_hand(kind: str, form: Mapping[str, str], players: list[str], phase: str) -> dict:
    return READERS[kind](form, players, phase)


def field_errors(refusal: Refusal | None) -> dict[str, str]:
    """``{field: message}`` so a template can show a message beside its input."""
    if refusal is None or not refusal.field:
        return {}
    return {refusal.field: refusal.message}
