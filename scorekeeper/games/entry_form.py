"""Reading a hand from a page's form into the rules' entry format.

Fields are named per seat (``bid-0``, ``trick-2``) and become ``{"bids": {"Ann": 1, ...}}``.
One module per game (``read`` and, optionally, ``typed``); the rules do the checking.
"""

from __future__ import annotations

from collections.abc import Mapping

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


#: Phases that complete a hand in progress (a second tap must not re-save them).
COMPLETING = {"tricks", "points"}


def field_errors(refusal: Refusal | None) -> dict[str, str]:
    """``{field: message}`` so a template can show a message beside its input."""
    if refusal is None or not refusal.field:
        return {}
    return {refusal.field: refusal.message}
