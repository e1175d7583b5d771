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
from collections.abc import Sequence
from typing import Any

import scorekeeper.games.hearts.hooks as hooks
from scorekeeper.games.base import Fact
from scorekeeper.games.base import GameRules
from scorekeeper.games.base import Hand
from scorekeeper.games.base import Option
from scorekeeper.games.base import Problems
from scorekeeper.games.base import RuleError
from scorekeeper.games.base import Setup
from scorekeeper.games.base import Stat
from scorekeeper.games.base import State
from scorekeeper.games.base import add_points
from scorekeeper.games.base import order_from_left_of
from scorekeeper.games.base import seat_after
from scorekeeper.games.readers import join_names
from scorekeeper.games.readers import player_numbers

HAND_POINTS = 26
QUEEN_OF_SPADES = 13
JACK_OF_DIAMONDS = -10
#: The passing cycle: with 4 players left, right, across, no pass; otherwise no "across".
PASSING_FOUR = ("left", "right", "across", "none")
PASSING_OTHER = ("left", "right", "none")


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
    title = "Hearts"
    min_players = 3
    max_players = 6
    hand_word = "Hand"
    name_fields = ("jack_of_diamonds",)
    name_maps = ("points",)
    facts = (
        Fact("moons", "Moons shot"),
        Fact("points_taken", "Points taken"),
        Fact("clean_hands", "Hands without a point"),
        Fact("jacks", "Jacks of diamonds taken"),
    )
    stats = (
        Stat("Moons shot", "moons", out_of="hands"),
        Stat("Points taken per hand", "points_taken", per="hands"),
        Stat("Points per hand", "points", per="hands"),
        Stat("Hands without a point", "clean_hands", out_of="hands"),
        Stat("Jacks of diamonds taken", "jacks", out_of="hands"),
    )

    # Self-description ---------------------------------------------------------------------

    def option_specs(self, player_count: int) -> list[Option]:
        return [
            Option(
                "target",
                "Game ends at",
                "choice",
                100,
                choices=(50, 100),
                help="The game ends after the hand in which a player reaches this total; "
                "the lowest total wins.",
            ),
            Option(
                "moon",
                "Shooting the moon",
                "choice",
                "plus",
                choices=("plus", "minus"),
                help="A player who takes all 26 points either adds 26 to everyone else or "
                "takes 26 off their own total.",
                choice_labels={
                    "plus": "Everyone else scores 26",
                    "minus": "The shooter scores -26",
                },
            ),
            Option(
                "jack_of_diamonds",
                "Jack of diamonds -10",
                "bool",
                False,
                help="Whoever takes the jack of diamonds scores 10 points off.",
            ),
            Option(
                "passing",
                "Passing",
                "choice",
                "standard",
                choices=("standard", "none"),
                help="Standard: pass three cards left, right, across (4 players), then keep; "
                "with 3, 5 or 6 players left, right, then keep. None: never pass.",
                choice_labels={"standard": "Left, right, (across,) keep", "none": "No passing"},
            ),
        ]

    def hand_facts(self, setup: Setup, hand: Hand) -> list[dict[str, int]]:
        taken = hand.info["taken"]
        facts = []
        for name in setup.players:
            seat = {
                "moons": int(hand.info["moon"] == name),
                "points_taken": taken[name],
                "clean_hands": int(taken[name] == 0),
                "jacks": int(hand.info["jack_of_diamonds"] == name),
            }
            facts.append({key: value for key, value in seat.items() if value})
        return facts

    def csv_columns(self, setup: Setup) -> list[str]:
        columns = ["Passing", "Moon"]
        if setup.options["jack_of_diamonds"]:
            columns.append("Jack of diamonds")
        return columns + [f"{name} taken" for name in setup.players]

    def csv_cells(self, setup: Setup, hand: Hand) -> list[Any]:
        info = hand.info
        cells = [info["passing"], info["moon"]]
        if setup.options["jack_of_diamonds"]:
            cells.append(info["jack_of_diamonds"])
        return cells + [info["taken"][name] for name in setup.players]

    # Replaying the game -------------------------------------------------------------------

    def play(self, setup: Setup, entries: Sequence[Mapping[str, Any]]) -> State:
        players = tuple(setup.players)
        options = setup.options
        self.check_players(players, options)
        totals = {name: 0 for name in players}
        hands: list[Hand] = []
        finished = False
        for number, entry in enumerate(entries, start=1):
            if finished:
                raise RuleError("game_over", "This game is over.", hand=number)
            try:
                hand = self._hand(setup, number, entry)
            except RuleError as error:
                raise error.for_hand(number) from None
            hands.append(hand)
            add_points(totals, hand.points)
            finished = max(totals.values()) >= options["target"]

        state = State(
            sides=list(players),
            teams=None,
            hands=hands,
            totals=totals,
            finished=finished,
            low_wins=True,
        )
        if finished:
            state.winners = state.leaders()
        else:
            state.next = self._next(setup, len(hands) + 1)
        state.notices = self._notices(setup, state)
        return state

    # One hand -----------------------------------------------------------------------------

    def _hand(self, setup: Setup, number: int, entry: Mapping[str, Any]) -> Hand:
        if not isinstance(entry, Mapping):
            raise RuleError("wrong_type", "A hand must be given as the points per player.")
        players = setup.players
        options = setup.options
        problems = Problems()
        taken = player_numbers(
            entry,
            "points",
            players,
            problems,
            noun="points",
            what="the points",
            missing_code="missing_points",
            range_code="points_out_of_range",
            high=HAND_POINTS,
        )
        valid = taken is not None and not problems
        jack = None
        with problems.check():
            jack = self._jack(entry.get("jack_of_diamonds"), players, options)
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
        dealer_seat = seat_after(setup.first_dealer, len(players), number - 1)
        info = {
            "taken": dict(taken),
            "moon": shooter,
            "jack_of_diamonds": jack,
            "passing": passing_for(number, len(players), options["passing"]),
            "order": order_from_left_of(dealer_seat, players),
        }
        return Hand(number, players[dealer_seat], "scored", normalised, points, info)

    @staticmethod
    def _jack(value: Any, players: Sequence[str], options: Mapping[str, Any]) -> str | None:
        if value is None or value == "":
            return None
        if not options["jack_of_diamonds"]:
            raise RuleError(
                "jack_invalid",
                "The jack of diamonds scores nothing in this game, so nobody is named for it.",
                "jack_of_diamonds",
            )
        if not isinstance(value, str):
            raise RuleError(
                "wrong_type", "Name the player who took the jack of diamonds.", "jack_of_diamonds"
            )
        if value not in players:
            raise RuleError(
                "unknown_player", f"{value} is not playing in this game.", "jack_of_diamonds"
            )
        return value

    # What comes next ----------------------------------------------------------------------

    def _next(self, setup: Setup, number: int) -> dict[str, Any]:
        players = setup.players
        dealer_seat = seat_after(setup.first_dealer, len(players), number - 1)
        order = order_from_left_of(dealer_seat, players)
        return {
            "number": number,
            "dealer": players[dealer_seat],
            "order": order,
            "passing": passing_for(number, len(players), setup.options["passing"]),
            "cards": None,
            "no_trump": None,
            "forbidden_dealer_bid": None,
            "knock_limit": None,
        }

    @staticmethod
    def _notices(setup: Setup, state: State) -> list[str]:
        notices = []
        if state.hands:
            latest = state.hands[-1]
            shooter = latest.info["moon"]
            if shooter is not None:
                if setup.options["moon"] == "minus":
                    effect = f"{shooter} scores -26"
                else:
                    effect = "everyone else scores 26"
                notices.append(f"{shooter} shot the moon in hand {latest.number}: {effect}.")
        if state.finished:
            target = setup.options["target"]
            over = [name for name in state.sides if state.totals[name] >= target]
            reached = f"{join_names(over)} reached {target}"
            best = state.totals[state.winners[0]]
            if len(state.winners) == 1:
                notices.append(f"{reached}: {state.winners[0]} wins with the lowest total, {best}.")
            else:
                notices.append(f"{reached}: {join_names(state.winners)} share the win with {best}.")
            return notices
        upcoming = state.next
        if upcoming["passing"] == "none":
            notices.append(f"Hand {upcoming['number']}: no passing, keep your cards.")
        else:
            notices.append(f"Hand {upcoming['number']}: pass three cards {upcoming['passing']}.")
        return notices


def _check_points_total(taken: Mapping[str, int]) -> None:
    total = sum(taken.values())
    if total != HAND_POINTS:
        raise RuleError(
            "points_sum_mismatch",
            f"The points add up to {total}, but every hand holds {HAND_POINTS} "
            "(13 hearts and 13 for the queen of spades).",
            "points",
        )
    if max(taken.values()) < QUEEN_OF_SPADES:
        raise RuleError(
            "points_sum_mismatch",
            "Whoever took the queen of spades has at least 13 points, but nobody has 13 or more.",
            "points",
        )


RULES = Hearts()
