"""Reading a hand from a page's form into the rules' entry format.

Fields are named per seat (``bid-0``, ``trick-2``) and become ``{"bids": {"Ann": 1, ...}}``.
One module per game (``read`` and, optionally, ``typed``); the rules do the checking. A value
that is no number is refused with a ``RuleError`` (the app's edge turns it into its refusal).
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Mapping
from typing import Any

from scorekeeper.games.errors import Problems
from scorekeeper.games.errors import RuleError

#: The largest whole number a form field takes (far beyond any score; keeps values in range
#: of the database's 64-bit integers).
LARGEST = 10**9


def whole_or_none(
    raw: str | None, not_whole: str, field: str, negative: bool = False
) -> int | None:
    """A form value as a whole number (below zero too, with ``negative``); blank is None;
    anything else is refused with the whole sentence ``not_whole`` ("The hand number must
    be a whole number.")."""
    raw = (raw or "").strip()
    if raw == "":
        return None
    minus = negative and raw.startswith(("-", "−"))
    sign, digits = ("-", raw[1:]) if minus else ("", raw)
    # Only ASCII digits: "²" and "①" pass str.isdigit() but are no whole number.
    if not (digits.isascii() and digits.isdigit()) or len(digits) > len(str(LARGEST)):
        raise RuleError("wrong_type", not_whole, field)
    value = int(sign + digits)
    if abs(value) > LARGEST:
        raise RuleError("wrong_type", not_whole, field)
    return value


def per_seat(
    form: Mapping[str, str],
    prefix: str,
    players: list[str],
    not_whole: Callable[[str], str],
    negative: bool = False,
) -> dict:
    """``{name: int}`` for the seats that have a value (blank seats are left out); a value
    that is no whole number is refused with the whole sentence ``not_whole(name)`` ("Ann's
    bid must be a whole number.", such as ``readers.BIDS.not_whole``)."""
    values = {}
    problems = Problems()
    for seat, name in enumerate(players):
        try:
            value = whole_or_none(
                form.get(f"{prefix}-{seat}"),
                not_whole(name),
                f"{prefix}s.{name}",
                negative,
            )
        except RuleError as error:
            problems.add(error)
            continue
        if value is not None:
            values[name] = value
    problems.raise_any()
    return values


def field_errors(refusal: Any) -> dict[str, str]:
    """``{field: message}`` so a template can show each message beside its input (of the
    app's refusal, or None)."""
    if refusal is None:
        return {}
    errors: dict[str, str] = {}
    for problem in refusal.problems:
        if problem.field and problem.field not in errors:
            errors[problem.field] = problem.message
    return errors
