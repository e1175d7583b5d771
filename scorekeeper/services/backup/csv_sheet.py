"""One game's score sheet as CSV."""

from __future__ import annotations

import csv
import io

from scorekeeper.games import Setup
from scorekeeper.games.i18n import _
from scorekeeper.games.i18n import names as name_list
from scorekeeper.games.i18n import ngettext
from scorekeeper.games.table import describe
from scorekeeper.services.games import Played

#: A spreadsheet runs a cell starting with one of these as a formula.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _cell(value: object) -> object:
    """A CSV cell: numbers as they are, text defused so that no name runs as a formula."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, str):
        value = str(value)  # a lazy text in the reader's language (csv writes a str's English)
        if value.startswith(FORMULA_STARTS):
            return "'" + value
    return value


def _change_row(change: dict, width: int) -> list[object]:
    """A change of the table, on its own line between the hands: what it was, in a
    sentence."""
    return [_("Change"), describe(change)] + [None] * (width - 2)


def game_csv(result: Played) -> str:
    """The score sheet: a row per hand (what was entered, as the game's own columns, what it
    scored, the running totals), end-of-game bonus lines, then the totals. It starts with a
    UTF-8 byte-order mark, so spreadsheet apps read accented names right."""
    state = result.state
    rules = result.rules
    setup = result.setup
    if state.changes:  # a column for everyone who has been at the table
        setup = Setup(tuple(result.game.members), setup.options, setup.first_dealer)
    sides = list(state.sides)
    header = [rules.phrase("word"), _("Dealer"), *rules.csv_columns(setup)]
    for side in sides:
        header += [_("%(side)s points", side=side), _("%(side)s total", side=side)]
    width = len(header)
    rows = [header]
    changes = list(state.changes)
    for hand in state.hands:
        while changes and changes[0]["before_hand"] <= hand.number:
            rows.append(_change_row(changes.pop(0), width))
        row: list[object] = [hand.number, hand.dealer, *rules.csv_cells(setup, hand)]
        for side in sides:
            if hand.points is None:
                row += [None, None]
            else:  # a side not dealt in (a joiner before the join, a sitter) has no cell
                row += [hand.points.get(side), (hand.totals or {}).get(side)]
        rows.append(row)
    rows += [_change_row(change, width) for change in changes]
    for line in state.bonuses:
        row = [rules.bonus_word(line["kind"])] + [None] * (width - 1 - 2 * len(sides))
        for side in sides:
            row += [line["points"] if side == line["player"] else None, None]
        rows.append(row)
    total = [_("Total")] + [None] * (width - 1 - 2 * len(sides))
    for side in sides:
        total += [None, state.totals[side]]
    rows.append(total)
    if state.winners:
        rows.append(
            [
                ngettext("Winner", "Winners", len(state.winners)),
                name_list(state.winners),
            ]
            + [None] * (width - 2)
        )
    out = io.StringIO()
    out.write("\ufeff")
    writer = csv.writer(out, lineterminator="\r\n")
    for row in rows:
        writer.writerow([_cell(value) for value in row])
    return out.getvalue()
