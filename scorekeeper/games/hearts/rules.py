"""Hearts: avoid hearts and the queen of spades; the lowest total wins.

Each hand is entered as the points each player took, and (with the ``jack_of_diamonds``
option) who took the jack of diamonds::

    {"points": {name: int}, "jack_of_diamonds": name | None}

The points taken add up to 26 (13 hearts and the queen of spades, 13). A player who took all
26 shot the moon: by default everyone else scores 26 and the shooter 0 (``moon = "minus"``:
the shooter scores -26, the others 0). The jack's -10 comes after the moon rule. Every hand is
complete when entered (status "scored").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import scorekeeper.games.hearts.hooks as hooks
from scorekeeper.games.base import Fact
from scorekeeper.games.base import GameRules
from scorekeeper.games.base import Hand
from scorekeeper.games.base import Highlight
from scorekeeper.games.base import Option
from scorekeeper.games.base import Problems
from scorekeeper.games.base import RuleError
from scorekeeper.games.base import SeatEntry
from scorekeeper.games.base import Setup
from scorekeeper.games.base import Stat
from scorekeeper.games.base import State
from scorekeeper.games.base import Tally
from scorekeeper.games.base import add_points
from scorekeeper.games.base import each_player
from scorekeeper.games.i18n import N_
from scorekeeper.games.i18n import _
from scorekeeper.games.i18n import lazy_pgettext
from scorekeeper.games.i18n import names
from scorekeeper.games.readers import POINTS
from scorekeeper.games.readers import whole_of
from scorekeeper.games.table import Deal
from scorekeeper.games.words import HANDS

HAND_POINTS = 26
QUEEN_OF_SPADES = 13
JACK_OF_DIAMONDS = -10
#: The passing cycle: with 4 players left, right, across, no pass; otherwise no "across".
PASSING_FOUR = ("left", "right", "across", "none")
PASSING_OTHER = ("left", "right", "none")
#: A hand's passing as a score sheet (CSV) writes it, in the reader's language.
PASSING_WORDS = {
    "left": lambda: _("Pass left"),
    "right": lambda: _("Pass right"),
    "across": lambda: _("Pass across"),
    "none": lambda: _("No passing"),
}


def passing_for(number: int, player_count: int, passing: str = "standard") -> str:
    """Where the cards are passed before hand ``number``: left, right, across or none."""
    if passing == "none":
        return "none"
    cycle = PASSING_FOUR if player_count == 4 else PASSING_OTHER
    return cycle[(number - 1) % len(cycle)]


def hand_points(
    taken: Mapping[str, int], moon: str = "plus", jack: str | None = None
) -> tuple[dict[str, int], str | None]:
    """Each player's score for the points ``taken`` and who shot the moon (or None).

    ``taken`` must add up to 26. With the moon shot, ``moon = "plus"`` gives everyone else
    26 and the shooter 0; ``"minus"`` gives the shooter -26 and the others 0. Whoever took the
    jack of diamonds (``jack``) then scores -10.
    """
    shooter = next((name for name, value in taken.items() if value == HAND_POINTS), None)
    if shooter is None:
        points = dict(taken)
    elif moon == "minus":
        points = {name: -HAND_POINTS if name == shooter else 0 for name in taken}
    else:
        points = {name: 0 if name == shooter else HAND_POINTS for name in taken}
    if jack is not None:
        points[jack] += JACK_OF_DIAMONDS
    return points, shooter


class Hearts(hooks.HeartsHooks, GameRules):
    key = "hearts"
    title = lazy_pgettext("game title", "Hearts")
    min_players = 3
    max_players = 6
    hand_words = HANDS
    name_fields = ("jack_of_diamonds",)
    name_maps = ("points",)
    facts = (
        Fact("moons", N_("Moons shot")),
        Fact("points_taken", N_("Points taken")),
        Fact("clean_hands", N_("Hands without a point")),
        Fact("jacks", N_("Jacks of diamonds taken")),
    )
    highlights = (
        Highlight(
            "moon", "moons", "each", N_("%(name)s shot the moon in hand %(hand)s of %(game)s.")
        ),
    )
    stats = (
        Stat(N_("Moons shot"), "moons", out_of="hands"),
        Stat(N_("Points taken per hand"), "points_taken", per="hands"),
        Stat(N_("Points per hand"), "points", per="hands"),
        Stat(N_("Hands without a point"), "clean_hands", out_of="hands"),
        Stat(N_("Jacks of diamonds taken"), "jacks", out_of="hands"),
    )

    # Self-description ---------------------------------------------------------------------

    def seat_entry(self, options: Mapping[str, Any]) -> SeatEntry:
        """Each player's phone enters the points it took; the scorekeeper saves the hand."""
        return SeatEntry(
            "points",
            "points",
            opens=False,
            incomplete=("missing_points", "points_sum_mismatch", "jack_invalid"),
        )

    def option_specs(self, player_count: int) -> list[Option]:
        return [
            Option(
                "target",
                N_("Game ends at"),
                "choice",
                100,
                choices=(50, 100),
                help=N_(
                    "The game ends after the hand in which a player reaches this total; "
                    "the lowest total wins."
                ),
            ),
            Option(
                "moon",
                N_("Shooting the moon"),
                "choice",
                "plus",
                choices=("plus", "minus"),
                help=N_(
                    "A player who takes all %(points)s points either adds %(points)s to everyone "
                    "else or takes %(points)s off their own total.",
                    points=HAND_POINTS,
                ),
                choice_labels={
                    "plus": N_("Everyone else scores %(points)s", points=HAND_POINTS),
                    "minus": N_("The shooter scores %(points)s", points=-HAND_POINTS),
                },
            ),
            Option(
                "jack_of_diamonds",
                N_("Jack of diamonds %(points)s", points=JACK_OF_DIAMONDS),
                "bool",
                False,
                help=N_(
                    "Whoever takes the jack of diamonds scores %(points)s points off.",
                    points=-JACK_OF_DIAMONDS,
                ),
            ),
            Option(
                "passing",
                N_("Passing"),
                "choice",
                "standard",
                choices=("standard", "none"),
                help=N_(
                    "Standard: pass three cards left, right, across (%(four)s players), then "
                    "keep; with %(three)s, %(five)s or %(six)s players left, right, then keep. "
                    "None: never pass.",
                    three=3,
                    four=4,
                    five=5,
                    six=6,
                ),
                choice_labels={
                    "standard": N_("Left, right, (across,) keep"),
                    "none": N_("No passing"),
                },
            ),
        ]

    def low_wins(self, options: Mapping[str, Any]) -> bool:
        return True

    def hand_facts(self, setup: Setup, hand: Hand) -> list[dict[str, int]]:
        taken = hand.info["taken"]
        facts = []
        for name in setup.players:
            if name not in taken:  # not dealt into this hand: it counts for none of theirs
                facts.append({})
                continue
            seat = {
                "moons": int(hand.info["moon"] == name),
                "points_taken": taken[name],
                "clean_hands": int(taken[name] == 0),
                "jacks": int(hand.info["jack_of_diamonds"] == name),
            }
            facts.append({key: value for key, value in seat.items() if value})
        return facts

    def csv_columns(self, setup: Setup) -> list[str]:
        columns = [_("Passing"), _("Moon")]
        if setup.options["jack_of_diamonds"]:
            columns.append(_("Jack of diamonds"))
        return columns + [_("%(name)s taken", name=name) for name in setup.players]

    def csv_cells(self, setup: Setup, hand: Hand) -> list[Any]:
        info = hand.info
        cells = [PASSING_WORDS[info["passing"]](), info["moon"]]
        if setup.options["jack_of_diamonds"]:
            cells.append(info["jack_of_diamonds"])
        return cells + [info["taken"].get(name) for name in setup.players]

    # Replaying the game -------------------------------------------------------------------

    def begin(self, setup: Setup) -> Tally:
        self.check_players(setup.players, setup.options)
        return Tally(setup, setup.players)

    def step(self, tally: Tally, number: int, entry: Mapping[str, Any], last: bool) -> None:
        hand = self._hand(tally.deal, number, entry)
        tally.hands.append(hand)
        add_points(tally.totals, hand.points)
        # The end is decided among the players still seated (a player who left cannot win).
        target = tally.options["target"]
        tally.finished = max(tally.totals[name] for name in tally.seated) >= target

    # The table's changes: no sit-out (every seat is dealt into every hand) -----------------

    def table_changes(self, options: Mapping[str, Any]) -> tuple[str, ...]:
        return ("join", "leave", "substitute", "adjust")

    def end(self, tally: Tally) -> State:
        state = State(
            sides=list(tally.sides),
            teams=None,
            hands=list(tally.hands),
            totals=dict(tally.totals),
            finished=tally.finished,
            low_wins=self.low_wins(tally.options),
            left=list(tally.seating.left),
        )
        if state.finished:
            state.winners = state.leaders()
        else:
            state.next = self._next(tally.next_deal())
        state.notices = self._notices(tally.options, state)
        return state

    # One hand -----------------------------------------------------------------------------

    def _hand(self, deal: Deal, number: int, entry: Mapping[str, Any]) -> Hand:
        """Hand ``number`` as dealt to ``deal.players``: their points add up to 26 whatever
        their number."""
        if not isinstance(entry, Mapping):
            raise RuleError("wrong_type", _("A hand must be given as the points per player."))
        players = deal.players
        options = deal.options
        problems = Problems()
        taken = None
        with problems.check():
            taken = each_player(
                entry,
                "points",
                players,
                "missing_points",
                POINTS,
                _read_taken,
                members=deal.members,
            )
        valid = taken is not None
        jack = None
        with problems.check():
            jack = self._jack(entry.get("jack_of_diamonds"), deal, options)
        if valid:
            assert taken is not None
            with problems.check():
                _check_points_total(taken)
        problems.raise_any()
        assert taken is not None

        points, shooter = hand_points(taken, options["moon"], jack)
        normalised: dict[str, Any] = {"points": taken}
        if jack is not None:
            normalised["jack_of_diamonds"] = jack
        info = {
            "taken": dict(taken),
            "moon": shooter,
            "jack_of_diamonds": jack,
            "passing": passing_for(number, len(players), options["passing"]),
            "order": deal.order,
        }
        return Hand(number, deal.dealer, "scored", normalised, points, info)

    @staticmethod
    def _jack(value: Any, deal: Deal, options: Mapping[str, Any]) -> str | None:
        if value is None or value == "":
            return None
        if not options["jack_of_diamonds"]:
            raise RuleError(
                "jack_invalid",
                _("The jack of diamonds scores nothing in this game, so nobody is named for it."),
                "jack_of_diamonds",
            )
        if not isinstance(value, str):
            raise RuleError(
                "wrong_type",
                _("Name the player who took the jack of diamonds."),
                "jack_of_diamonds",
            )
        if value in deal.members and value not in deal.players:
            raise RuleError(
                "not_seated",
                _("%(name)s is not dealt into this hand.", name=value),
                "jack_of_diamonds",
            )
        if value not in deal.players:
            raise RuleError(
                "unknown_player",
                _("%(name)s is not playing in this game.", name=value),
                "jack_of_diamonds",
            )
        return value

    # What comes next ----------------------------------------------------------------------

    @staticmethod
    def _next(deal: Deal) -> dict[str, Any]:
        """The next hand: its dealer and passing follow the players dealt into it (the
        passing by hand number: hand k takes place k - 1 of their cycle)."""
        return {
            "number": deal.number,
            "dealer": deal.dealer,
            "order": deal.order,
            "passing": passing_for(deal.number, len(deal.players), deal.options["passing"]),
        }

    def winner_line(self, state: State) -> str:
        if len(state.winners) == 1:
            return _("%(name)s wins with the lowest total!", name=state.winners[0])
        return _("%(names)s share the win!", names=names(state.winners))

    def page_notices(self, state: State) -> list[str]:
        """The page shows the moon of the last hand (the passing and the end are said by the
        hand's head)."""
        if state.hands and state.hands[-1].info["moon"] is not None:
            return list(state.notices[:1])
        return []

    @staticmethod
    def _notices(options: Mapping[str, Any], state: State) -> list[str]:
        notices = []
        if state.hands:
            latest = state.hands[-1]
            shooter = latest.info["moon"]
            if shooter is not None:
                said = {"name": shooter, "number": latest.number}
                if options["moon"] == "minus":
                    notices.append(
                        _(
                            "%(name)s shot the moon in hand %(number)s: %(name)s scores "
                            "%(points)s.",
                            points=-HAND_POINTS,
                            **said,
                        )
                    )
                else:
                    notices.append(
                        _(
                            "%(name)s shot the moon in hand %(number)s: everyone else scores "
                            "%(points)s.",
                            points=HAND_POINTS,
                            **said,
                        )
                    )
        if state.finished:
            target = options["target"]
            over = [
                name
                for name in state.sides
                if name not in state.left and state.totals[name] >= target
            ]
            best = state.totals[state.winners[0]]
            if len(state.winners) == 1:
                notices.append(
                    _(
                        "%(over)s reached %(target)s: %(name)s wins with the lowest total, "
                        "%(points)s.",
                        over=names(over),
                        target=target,
                        name=state.winners[0],
                        points=best,
                    )
                )
            else:
                notices.append(
                    _(
                        "%(over)s reached %(target)s: %(names)s share the win with %(points)s.",
                        over=names(over),
                        target=target,
                        names=names(state.winners),
                        points=best,
                    )
                )
            return notices
        upcoming = state.next
        notices.append(_passing_notice(upcoming["number"], upcoming["passing"]))
        return notices


def _passing_notice(number: int, passing: str) -> str:
    """Where the cards go before hand ``number``."""
    if passing == "left":
        return _("Hand %(number)s: pass three cards left.", number=number)
    if passing == "right":
        return _("Hand %(number)s: pass three cards right.", number=number)
    if passing == "across":
        return _("Hand %(number)s: pass three cards across.", number=number)
    return _("Hand %(number)s: no passing, keep your cards.", number=number)


def _read_taken(name: str, value: Any) -> int:
    """The points ``name`` took: a whole number from 0 to 26."""
    return whole_of(value, POINTS, name, f"points.{name}", "points_out_of_range", 0, HAND_POINTS)


def _check_points_total(taken: Mapping[str, int]) -> None:
    total = sum(taken.values())
    if total != HAND_POINTS:
        raise RuleError(
            "points_sum_mismatch",
            _(
                "The points add up to %(total)s, but every hand holds %(points)s "
                "(%(hearts)s hearts and %(queen)s for the queen of spades).",
                total=total,
                points=HAND_POINTS,
                hearts=13,
                queen=QUEEN_OF_SPADES,
            ),
            "points",
        )
    if max(taken.values()) < QUEEN_OF_SPADES:
        raise RuleError(
            "points_sum_mismatch",
            _(
                "Whoever took the queen of spades has at least %(queen)s points, but nobody has "
                "%(queen)s or more.",
                queen=QUEEN_OF_SPADES,
            ),
            "points",
        )


RULES = Hearts()
