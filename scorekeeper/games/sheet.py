"""The score sheet as the table lived it (RULES.md, "the table changes mid-game"): a column
for everyone who has been at the table, each hand and each change of the table on its own line
in the order they happened. Every game's ``_sheet.html`` draws its own cells; this says which
column a hand's cell belongs to, whether that player was dealt in, sat out or was not at the
table, and what each change line shows in which column.

Never names a game: a team game (``state.teams``) has a column per team, keyed in each hand
by the team's name as it was then (a substitute renames a team from the next hand on); every
other game has a column per player (``game.members``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field
from typing import Any

from scorekeeper.games.table import describe

#: What a column's cell of a hand is: the player (side) was dealt in, sat that hand out, or
#: was not at the table then (before a join, after leaving or handing the seat over).
DEALT, SAT_OUT, AWAY = "dealt", "sat_out", "away"

#: The characters a figure of the sheet takes at its usual size ("−120", "+25"), and the most
#: the stylesheet makes room for (longer ones stay this small and the sheet scrolls).
USUAL, LONGEST = 4, 8

#: A game page's score sheet shows this many of the latest hands (a long game's page stays
#: small); ``?sheet=all`` shows every hand.
SHEET_HANDS = 24

#: The seat colours (``--s1`` ... in app.css): a seat, or a side in team games, has the same
#: one on the entry rows, the score sheet's header and the chart's line; beyond seven they
#: repeat (the seat number tells them apart, as it does without colour).
SEAT_COLOURS = 7


def seat_tint(index: int) -> str:
    """The class of the colour of seat (or side) ``index`` (0-based): "s1" ... "s7"."""
    return f"s{index % SEAT_COLOURS + 1}"


def latest_start(state, every: bool = False) -> int:
    """Where a game page's sheet starts: its latest ``SHEET_HANDS`` hands (after this many),
    or every hand (``every``: ``?sheet=all``, and the pages that show the whole sheet)."""
    return 0 if every else max(0, len(state.hands) - SHEET_HANDS)


@dataclass
class Column:
    """One column of the sheet: who, their seat colour, and where their column starts and
    ends."""

    name: str
    index: int
    #: The total now (None for a player who handed the seat over: it went with the seat).
    total: int | None
    #: The last hand played before they left (None: at the table, or never left).
    left_after: int | None = None
    #: Who took their seat over (a player game).
    handed_to: str | None = None


@dataclass(frozen=True)
class Cell:
    """A column's cell of one hand: ``key`` is how the hand names the side (its points,
    its totals, its info), None when it was not dealt in."""

    column: Column
    key: str | None
    status: str


@dataclass
class Line:
    """A line of the sheet: a hand (its cells) or a change (its sentence, and the figure it
    puts in a column: a starting total, an adjustment's points, a seat's total taken over)."""

    hand: Any = None
    cells: list[Cell] = field(default_factory=list)
    change: Mapping[str, Any] | None = None
    text: str = ""
    #: Column name -> what the change line shows there: ("start", a joiner's starting total),
    #: ("points", an adjustment's), ("gone", None: the seat handed over), ("taken", the seat's
    #: total its new player takes over).
    marks: dict[str, tuple[str, int | None]] = field(default_factory=dict)

    @property
    def number(self) -> int:
        """The hand's number, or for a change the hand it comes before."""
        return self.hand.number if self.hand is not None else self.change["before_hand"]


@dataclass
class Sheet:
    columns: list[Column]
    lines: list[Line]
    #: The change that is the record's last entry (the undo offers it), else None.
    last_change: Mapping[str, Any] | None
    #: The hand that is the record's last entry, else None.
    last_hand: Any
    #: The hands a page shows are those after this one (``latest_start``): the
    #: lines of the hands up to it have no cells (a long game's page draws its latest hands).
    start: int = 0

    def lines_from(self, start: int) -> list[Line]:
        """The lines of the hands after ``start`` and the changes before them."""
        return [line for line in self.lines if line.number > start]

    @property
    def figures(self) -> int:
        """The most characters a figure of the sheet takes, a sign counted: a hand's points
        and running totals, a change's figure, a total."""
        numbers = [column.total for column in self.columns]
        for line in self.lines_from(self.start):
            if line.hand is not None:
                numbers += (line.hand.points or {}).values()
                numbers += (line.hand.totals or {}).values()
            numbers += [mark[1] for mark in line.marks.values()]
        return max((len(str(abs(n))) + 1 for n in numbers if isinstance(n, int)), default=1)

    @property
    def size_class(self) -> str:
        """The sheet's class for its longest figures: ``figures-5`` to ``figures-8`` where a
        figure takes more than four characters (thousands, a minus sign), which the stylesheet
        draws smaller so that seven columns still fit a phone; else nothing."""
        longest = self.figures
        return f"figures-{min(longest, LONGEST)}" if longest > USUAL else ""


def sheet_of(played, start: int = 0) -> Sheet:
    """The sheet of a played game (``services.games.Played``); the hands up to ``start`` (not
    shown) have their lines, without cells."""
    state = played.state
    rules = played.rules
    options = played.game.options
    teams = bool(state.teams)
    seats = list(played.setup.players)  # the starting table: each change then moves it on
    seated = set(seats)
    if teams:
        names = list(state.sides)
    else:  # everyone the record has at the table (a newcomer whose change was undone: not)
        came = {name for hand in state.hands for name in hand.players or ()}
        came |= {change.get(key) for change in state.changes for key in ("player", "by")}
        came |= {*state.sides, *state.left}
        names = [name for name in played.game.members if name in came]
        names += [name for name in state.sides if name not in names]
    columns = [Column(name, index, state.totals.get(name)) for index, name in enumerate(names)]
    by_name = {column.name: column for column in columns}
    running: dict[str, int] = {name: 0 for name in rules.sides(seats, options)}
    lines: list[Line] = []
    changes = list(state.changes)

    def team_names() -> list[str]:
        return rules.sides(seats, options)

    def change_line(change: Mapping[str, Any]) -> Line:
        line = Line(change=change, text=describe(change))
        kind = change.get("kind")
        player = change.get("player")
        if kind == "join":
            running[player] = change.get("score") or 0
            line.marks[player] = ("start", running[player])
            seats.append(player)
            seated.add(player)
        elif kind == "leave":
            seated.discard(player)
        elif kind == "adjust":
            side = player
            if teams:  # the team as it was named then: its column by position
                now = team_names()
                side = names[now.index(player)] if player in now else player
            running[player] = running.get(player, 0) + (change.get("points") or 0)
            line.marks[side] = ("points", change.get("points"))
        elif kind == "substitute":
            by = change.get("by")
            before = team_names()
            if player in seats:
                seats[seats.index(player)] = by
            seated.discard(player)
            seated.add(by)
            if teams:
                after = team_names()
                for old, new in zip(before, after, strict=False):
                    if old != new:
                        running[new] = running.pop(old, 0)
            else:
                running[by] = running.pop(player, 0)
                line.marks[player] = ("gone", None)
                line.marks[by] = ("taken", running[by])
        return line

    for hand in state.hands:
        while changes and changes[0]["before_hand"] <= hand.number:
            lines.append(change_line(changes.pop(0)))
        if hand.number <= start:
            lines.append(Line(hand=hand))
            if hand.totals:
                running.update(hand.totals)
            continue
        dealt = list(hand.players or [])
        keys = rules.sides(dealt, options) if teams and dealt else list(names)
        cells = []
        for column in columns:
            if teams:
                key = keys[column.index] if column.index < len(keys) else column.name
                cells.append(Cell(column, key, DEALT))
            elif column.name in dealt or (not dealt and column.name in seated):
                cells.append(Cell(column, column.name, DEALT))
            elif column.name in seated:
                cells.append(Cell(column, None, SAT_OUT))
            else:
                cells.append(Cell(column, None, AWAY))
        lines.append(Line(hand=hand, cells=cells))
        if hand.totals:
            running.update(hand.totals)
    lines += [change_line(change) for change in changes]

    for change in state.changes:
        column = by_name.get(change.get("player"))
        if column is None:
            continue
        if change["kind"] == "leave":
            column.left_after = change["before_hand"] - 1
        elif change["kind"] == "join":
            column.left_after = None
        elif change["kind"] == "substitute" and not teams:
            column.handed_to = change.get("by")
    for column in columns:
        if column.name not in state.left:
            column.left_after = None

    last_change = None
    if state.changes and state.changes[-1]["before_hand"] > len(state.hands):
        last_change = state.changes[-1]
    last_hand = state.hands[-1] if state.hands and last_change is None else None
    return Sheet(columns, lines, last_change, last_hand, start)
