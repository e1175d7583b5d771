"""Reading the per-player numbers of an entry, every problem reported at once.

Game-neutral helpers for rules modules: ``player_numbers`` reads ``{name: int}`` (bids, tricks,
points) and adds each player's problem to a ``Problems`` collector instead of stopping at the
first one, so the table can fix two bad bids in one go, in whole sentences (``NumberWords``).
``join_names`` writes names as the reader's language does.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from collections.abc import Mapping
from collections.abc import Sequence
from typing import Any

from scorekeeper.games.base import Problems
from scorekeeper.games.base import RuleError
from scorekeeper.games.base import each_player
from scorekeeper.games.i18n import _
from scorekeeper.games.words import HANDS
from scorekeeper.games.words import HandWords


@dataclasses.dataclass(frozen=True)
class NumberWords:
    """The whole sentences ``player_numbers`` says about one kind of number (bids, tricks,
    points), so that each language words them its own way (none is glued from a noun)."""

    #: "Enter a bid for every player."
    every: Callable[[], str]
    #: "A bid must be given per player."
    per_player: Callable[[], str]
    #: "Enter a bid for Ann."
    enter: Callable[[str], str]
    #: "Ann's bid must be a whole number."
    not_whole: Callable[[str], str]
    #: "Ann's bid must be 0 or more."
    at_least: Callable[[str, int], str]
    #: "Ann's bid must be 7 or less."
    at_most: Callable[[str, int], str]
    #: "Ann's bid must be from 0 to 7."
    between: Callable[[str, int, int], str]


BIDS = NumberWords(
    every=lambda: _("Enter a bid for every player."),
    per_player=lambda: _("A bid must be given per player."),
    enter=lambda name: _("Enter a bid for %(name)s.", name=name),
    not_whole=lambda name: _("%(name)s's bid must be a whole number.", name=name),
    at_least=lambda name, low: _("%(name)s's bid must be %(low)s or more.", name=name, low=low),
    at_most=lambda name, high: _("%(name)s's bid must be %(high)s or less.", name=name, high=high),
    between=lambda name, low, high: _(
        "%(name)s's bid must be from %(low)s to %(high)s.", name=name, low=low, high=high
    ),
)
TRICKS = NumberWords(
    every=lambda: _("Enter the tricks for every player."),
    per_player=lambda: _("The tricks must be given per player."),
    enter=lambda name: _("Enter the tricks for %(name)s.", name=name),
    not_whole=lambda name: _("%(name)s's tricks must be a whole number.", name=name),
    at_least=lambda name, low: _("%(name)s's tricks must be %(low)s or more.", name=name, low=low),
    at_most=lambda name, high: _(
        "%(name)s's tricks must be %(high)s or less.", name=name, high=high
    ),
    between=lambda name, low, high: _(
        "%(name)s's tricks must be from %(low)s to %(high)s.", name=name, low=low, high=high
    ),
)
POINTS = NumberWords(
    every=lambda: _("Enter the points for every player."),
    per_player=lambda: _("The points must be given per player."),
    enter=lambda name: _("Enter the points for %(name)s.", name=name),
    not_whole=lambda name: _("%(name)s's points must be a whole number.", name=name),
    at_least=lambda name, low: _("%(name)s's points must be %(low)s or more.", name=name, low=low),
    at_most=lambda name, high: _(
        "%(name)s's points must be %(high)s or less.", name=name, high=high
    ),
    between=lambda name, low, high: _(
        "%(name)s's points must be from %(low)s to %(high)s.", name=name, low=low, high=high
    ),
)


def whole_of(
    value: Any,
    words: NumberWords,
    name: str,
    where: str,
    code: str,
    low: int | None,
    high: int | None,
) -> int:
    """``value`` as a whole number from ``low`` to ``high`` (either may be None: no bound),
    refused in the whole sentences of ``words`` about ``name``'s number."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError("wrong_type", words.not_whole(name), where)
    if (low is not None and value < low) or (high is not None and value > high):
        if high is None:
            raise RuleError(code, words.at_least(name, low), where)
        if low is None:
            raise RuleError(code, words.at_most(name, high), where)
        raise RuleError(code, words.between(name, low, high), where)
    return value


def player_numbers(
    entry: Mapping[str, Any],
    key: str,
    players: Sequence[str],
    problems: Problems,
    *,
    words: NumberWords,
    missing_code: str,
    range_code: str,
    low: int | None = 0,
    high: int | None = None,
    partial: bool = False,
    blank: int | None = None,
    empty_message: str | None = None,
) -> dict[str, int] | None:
    """The valid numbers of ``entry[key]`` in seat order; each problem goes to ``problems``.

    ``words`` holds the whole sentences about them (``BIDS``, ``TRICKS``, ``POINTS`` or a
    game's own). Every player needs a value unless ``partial`` (those without one are left out)
    or ``blank`` (they count as that number). Nothing at all (missing, empty, every value
    None) is one ``missing_code`` problem (``empty_message`` says it, if given). Returns None
    when ``entry[key]`` is missing or not a mapping; otherwise the values that passed.
    """
    values = entry.get(key)
    if values is None or (isinstance(values, Mapping) and all(v is None for v in values.values())):
        message = empty_message or words.every()
        problems.add(RuleError(missing_code, message, key))
        return None
    if not isinstance(values, Mapping):
        problems.add(RuleError("wrong_type", words.per_player(), key))
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
                problems.add(RuleError(missing_code, words.enter(name), where))
            continue
        with problems.check():
            numbers[name] = whole_of(value, words, name, where, range_code, low, high)
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


def dealt_numbers(
    entry: Mapping[str, Any],
    key: str,
    deal: Any,
    problems: Problems,
    words: NumberWords,
    codes: tuple[str, str],
    high: int,
    partial: bool = False,
    deals: HandWords = HANDS,
) -> dict[str, int] | None:
    """The bids or tricks (``key``) of the players dealt in (``deal``: a ``table.Deal``),
    each from 0 to ``high`` (``codes``: when one is missing, when one is out of range);
    None, with the problems in ``problems``, when any is refused. A name at the table who
    is not dealt in (a sitter, a player who left or handed their seat over) is
    ``not_seated`` (said in ``deals``' words), a stranger ``unknown_player``."""
    missing, out_of_range = codes

    def read(name: str, value: Any) -> int:
        return whole_of(value, words, name, f"{key}.{name}", out_of_range, 0, high)

    with problems.check():
        return each_player(
            entry, key, deal.players, missing, words, read, partial, deal.members, deals
        )
    return None
