"""Reading the new-game form: who sits where, who deals first, and the options.

Every option is drawn from the game's own option list, so a new game needs no new form code.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from collections.abc import Sequence
from typing import Any

from scorekeeper.errors import Refusal
from scorekeeper.games import GameRules
from scorekeeper.games import Option
from scorekeeper.games.base import Problems
from scorekeeper.games.base import RuleError
from scorekeeper.games.base import check_option_value
from scorekeeper.games.i18n import Numbers
from scorekeeper.games.i18n import _
from scorekeeper.games.i18n import number
from scorekeeper.i18n import ascii_digits
from scorekeeper.models import Player
from scorekeeper.views.helpers import join_names

#: Blank rows on the form for players not yet in the roster.
NEW_PLAYER_ROWS = 3


def read_setup(
    form: Mapping[str, str], roster: Sequence[Player], rules: GameRules
) -> tuple[list[str], str | None, dict[str, Any]]:
    """Names in seat order, the first dealer's name (or None) and the typed options."""
    seated: list[tuple[int, str, str]] = []  # (seat, name, key of the first-dealer radio)
    for player in roster:
        seat = _seat(form.get(f"seat-{player.id}"), player.name)
        if seat is not None:
            seated.append((seat, player.name, str(player.id)))
    for row in range(1, NEW_PLAYER_ROWS + 1):
        name = (form.get(f"new-name-{row}") or "").strip()
        raw_seat = form.get(f"new-seat-{row}")
        if not name:
            continue
        seat = _seat(raw_seat, name)
        if seat is None:
            raise Refusal(
                "required", _("Choose a seat for %(name)s.", name=name), f"new-seat-{row}"
            )
        seated.append((seat, name, f"new-{row}"))
    if len(seated) > rules.max_players:
        raise Refusal("player_count", seats_full(rules), "players")
    seats = [seat for seat, _name, _key in seated]
    for seat in seats:
        if seats.count(seat) > 1:
            sharing = [name for s, name, _key in seated if s == seat]
            who = join_names(sharing)
            raise Refusal(
                "player_count",
                _("%(names)s are both in seat %(seat)s.", names=who, seat=seat),
                "players",
            )
    seated.sort()
    names = [name for _seat_no, name, _key in seated]
    dealer_key = form.get("first_dealer")
    if dealer_key == "random" and names:
        first_dealer = random.SystemRandom().choice(names)
    else:
        first_dealer = next((name for _seat_no, name, key in seated if key == dealer_key), None)
    if dealer_key and first_dealer is None:
        raise Refusal(
            "unknown_player", _("The first dealer must be one of the players."), "first_dealer"
        )
    specs = rules.option_specs(max(len(names), rules.min_players))
    return names, first_dealer, read_options(form, specs)


def seats_full(rules: GameRules) -> str:
    """Why no one more can be seated: the page says it when a name is tapped with every seat
    taken, and the server when a form seats more players than the game has seats."""
    if rules.min_players == rules.max_players:
        return _(
            "All %(high)s seats are taken: %(game)s is played by %(high)s players. "
            "Free a seat first.",
            high=rules.max_players,
            game=rules.title,
        )
    return _(
        "All %(high)s seats are taken: %(game)s is played by %(low)s to %(high)s players. "
        "Free a seat first.",
        low=rules.min_players,
        high=rules.max_players,
        game=rules.title,
    )


def seated_line(rules: GameRules, count: int) -> str:
    """How many are seated, against the game's player range ("6 of 3–6 seated")."""
    if rules.min_players == rules.max_players:
        return _("%(count)s of %(high)s seated", count=count, high=rules.max_players)
    return _(
        "%(count)s of %(low)s–%(high)s seated",
        count=count,
        low=rules.min_players,
        high=rules.max_players,
    )


def seat_words(rules: GameRules) -> dict[str, Any]:
    """The seat picker's words for the page's script: the count line for each number seated
    and the refusal of one more."""
    return {
        "seated": [seated_line(rules, count) for count in range(rules.max_players + 1)],
        "full": seats_full(rules),
    }


def seated_count(form: Mapping[str, str]) -> int:
    """How many seats the form gives (as the page's script counts them)."""
    return sum(
        1
        for key, value in form.items()
        if key.startswith(("seat-", "new-seat-")) and (value or "").strip()
    )


def options_need_a_look(
    form: Mapping[str, str], specs: Sequence[Option], errors: Mapping[str, str]
) -> bool:
    """Whether the new-game page shows its options unfolded: one of them (or the rule set's
    name, or the preset) is refused, or one that must be given (a text without a default) is
    still blank."""
    if any(field.startswith("options") or field in ("name", "preset") for field in errors):
        return True
    return any(
        spec.kind == "text" and spec.default is None and not form.get(f"opt-{spec.key}", "").strip()
        for spec in specs
    )


def _seat(raw: str | None, name: str) -> int | None:
    raw = (raw or "").strip()
    if not raw:
        return None
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 3:
        raise Refusal("wrong_type", _("%(name)s's seat must be a number.", name=name), "players")
    return int(raw)


def read_options(form: Mapping[str, str], specs: Sequence[Option]) -> dict[str, Any]:
    """Options as typed values; a blank number means "the default". A number that is not a
    whole one is kept as the text typed, for the rules to refuse; only a list of hand sizes
    the form cannot read is refused here."""
    options: dict[str, Any] = {}
    for spec in specs:
        field = f"opt-{spec.key}"
        raw = form.get(field)
        if spec.kind == "bool":
            options[spec.key] = raw is not None
        elif raw is None or raw.strip() == "":
            continue
        elif spec.kind == "list":
            # The numbers as the reader writes them (Bengali ৭, ৭, ৭ as 7, 7, 7).
            raw = ascii_digits(raw)
            parts = [part for part in re.split(r"[\s,;]+", raw.strip()) if part]
            if not all(part.isascii() and part.isdigit() and len(part) <= 4 for part in parts):
                raise Refusal(
                    "option_value",
                    _(
                        "%(option)s: whole numbers separated by commas, like %(example)s.",
                        option=spec.label,
                        example=Numbers(7, 7, 7),
                    ),
                    f"options.{spec.key}",
                )
            options[spec.key] = [int(part) for part in parts]
        elif spec.kind == "int" or (spec.choices and isinstance(spec.choices[0], int)):
            raw = ascii_digits(raw.strip())
            digits = raw.removeprefix("-")
            # Anything but a whole number ("2.5", "ten") stays as typed: the rules refuse it
            # (``option_value``) with every other problem of the setup at once.
            whole = digits.isascii() and digits.isdigit() and len(digits) <= 9
            options[spec.key] = int(raw) if whole else raw
        else:
            options[spec.key] = raw
    return options


def worked_example(form: Mapping[str, str], rules: GameRules) -> tuple[str | None, list[str]]:
    """The game's worked example for the options typed on the form (an empty form: the
    defaults), computed by the rules; or, when a value it depends on is not one the rules
    take, no example and what is wrong with it."""
    specs = [
        spec for spec in rules.option_specs(rules.max_players) if spec.key in rules.example_options
    ]
    if not specs:
        return None, []
    problems = Problems()
    options: dict[str, Any] = {}
    typed: dict[str, Any] = {}
    if form:
        try:
            typed = read_options(form, specs)
        except Refusal as refused:
            return None, [problem.message for problem in refused.problems]
    for spec in specs:
        with problems.check():
            options[spec.key] = check_option_value(spec, typed.get(spec.key, spec.default))
    if problems:
        return None, [error.message for error in problems.errors]
    return rules.worked_example(options), []


def follows_the_table(rules: GameRules) -> set[str]:
    """The options whose default follows the player count (the most cards in a hand): their
    default at the smallest table is not the one at the largest."""
    widest = {spec.key: spec.default for spec in rules.option_specs(rules.max_players)}
    return {
        spec.key
        for spec in rules.option_specs(rules.min_players)
        if spec.key in widest and widest[spec.key] != spec.default
    }


def options_summary(form: Mapping[str, str], rules: GameRules) -> str:
    """The options on the form in one line: the preset they amount to, then every option that
    differs from its default ("Standard · Hook · Most cards in a hand: 5"); an empty form has
    the defaults. A value the rules do not take is left out (the form says what is wrong)."""
    specs = rules.option_specs(rules.min_players)
    by_table = follows_the_table(rules)
    values = {spec.key: spec.default for spec in specs}
    typed: dict[str, Any] = {}
    if form:
        for spec in specs:
            try:
                typed.update(
                    (key, check_option_value(spec, value))
                    for key, value in read_options(form, [spec]).items()
                )
            except (Refusal, RuleError):
                continue
    values.update(typed)
    preset_key = rules.preset_of(values)
    preset = next((p for p in rules.presets if p.key == preset_key), None)
    parts = [str(preset.label)] if preset else []
    for spec in specs:
        if spec.key not in typed or (preset and spec.key in preset.options):
            continue
        value = typed[spec.key]
        # A default that depends on the table (the most cards by player count): any value
        # typed is a choice of the table.
        if value == spec.default and spec.key not in by_table:
            continue
        parts.append(_option_words(spec, value))
    return " · ".join(parts) or _("Standard")


def _option_words(spec: Option, value: Any) -> str:
    if spec.kind == "bool":
        return str(spec.label) if value else _("%(option)s: off", option=spec.label)
    if spec.choices and value in spec.choice_labels:
        shown = str(spec.choice_labels[value])
    elif isinstance(value, list):
        shown = ", ".join(number(size) for size in value)
    else:
        shown = number(value) if isinstance(value, int) else str(value)
    return _("%(option)s: %(value)s", option=spec.label, value=shown)
