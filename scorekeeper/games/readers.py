"""Reading the per-player numbers of an entry, every problem reported at once.

Game-neutral helpers for rules modules: ``player_numbers`` reads ``{name: int}`` (bids, tricks,
points) and adds each player's problem to a ``Problems`` collector instead of stopping at the
first one, so the table can fix two bad bids in one go. ``join_names`` writes names as English.
"""

from __future__ import annotations

from collections.abc import Mapping
from collections.abc import Sequence
from typing import Any

from scorekeeper.games.base import Problems
from scorekeeper.games.base import RuleError
from scorekeeper.games.i18n import _


def whole(value: Any, what: str, where: str, code: str, low: int | None, high: int | None) -> int:
    """``value`` as a whole number from ``low`` to ``high`` (either may be None: no bound)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError("wrong_type", _("%(what)s must be a whole number.", what=what), where)
    if (low is not None and value < low) or (high is not None and value > high):
        if high is None:
            raise RuleError(code, _("%(what)s must be %(low)s or more.", what=what, low=low), where)
        if low is None:
            raise RuleError(
                code, _("%(what)s must be %(high)s or less.", what=what, high=high), where
            )
        raise RuleError(
            code,
            _("%(what)s must be from %(low)s to %(high)s.", what=what, low=low, high=high),
            where,
        )
    return value


def player_numbers(
    entry: Mapping[str, Any],
    key: str,
    players: Sequence[str],
    problems: Problems,
    *,
    noun: str,
    what: str,
    missing_code: str,
    range_code: str,
    low: int | None = 0,
    high: int | None = None,
    partial: bool = False,
    blank: int | None = None,
    empty_message: str | None = None,
) -> dict[str, int] | None:
    """The valid numbers of ``entry[key]`` in seat order; each problem goes to ``problems``.

    ``noun`` names one value ("Ann's bid must be ..."), ``what`` asks for one ("Enter a bid
    for Ann."). Every player needs a value unless ``partial`` (those without one are left out)
    or ``blank`` (they count as that number). Nothing at all (missing, empty, every value
    None) is one ``missing_code`` problem (``empty_message`` says it, if given). Returns None
    when ``entry[key]`` is missing or not a mapping; otherwise the values that passed.
    """
    values = entry.get(key)
    if values is None or (isinstance(values, Mapping) and all(v is None for v in values.values())):
        message = empty_message or _("Enter %(what)s for every player.", what=what)
        problems.add(RuleError(missing_code, message, key))
        return None
    if not isinstance(values, Mapping):
        problems.add(
            RuleError(
                "wrong_type", _("%(what)s must be given per player.", what=what.capitalize()), key
            )
        )
        return None
    for name in values:
        if name not in players:
            problems.add(
                RuleError(
                    "unknown_player",
                    _("%(name)s is not playing in this game.", name=name),
                    f"{key}.{name}",
                )
            )
    numbers: dict[str, int] = {}
    for name in players:
        value = values.get(name)
        where = f"{key}.{name}"
        if value is None:
            if blank is not None:
                numbers[name] = blank
            elif not partial:
                problems.add(
                    RuleError(
                        missing_code, _("Enter %(what)s for %(name)s.", what=what, name=name), where
                    )
                )
            continue
        with problems.check():
            numbers[name] = whole(
                value, _("%(name)s's %(noun)s", name=name, noun=noun), where, range_code, low, high
            )
    return numbers


def join_names(names: Sequence[str]) -> str:
    """``["Ann", "Ben", "Cy"]`` -> ``"Ann, Ben and Cy"`` (in the reader's language)."""
    if len(names) <= 1:
        return "".join(names)
    return _("%(names)s and %(last)s", names=", ".join(names[:-1]), last=names[-1])


def merge_per_player(
    entered: Mapping[str, Any], change: Mapping[str, Any], keys: Sequence[str]
) -> dict[str, Any]:
    """``entered`` updated with ``change``; the per-player mappings under ``keys`` are merged
    name by name (one figure can be added or corrected alone), other keys replaced."""
    merged = dict(entered)
    for key, value in change.items():
        held = merged.get(key)
        if key in keys and isinstance(held, Mapping) and isinstance(value, Mapping):
            merged[key] = {**held, **value}
        else:
            merged[key] = value
    return merged
