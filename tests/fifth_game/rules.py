"""Partners: a meld game played in teams of two to a target, with hands of no fixed size.

Four players (partners opposite: seats 1+3 against 2+4) or six (three teams: 1+4, 2+5, 3+6).
Points, totals and winners belong to the teams ("Ann & Cy"). A hand is dealt with as many
cards as the table likes; what it scores is counted at the end and entered per team::

    {"points": {team: int}, "went_out": name or None}

Each team's points may be below zero (melds left in hand count against it). ``went_out``
(optional) names the player who went out first: with the ``going_out`` option on, that
player's team scores 100 more. The first team at or above the target at the end of a hand
wins; teams level at the top there play another hand.

Stored by seat: the team points as a list by team (the team's name is its players' names,
which a roster rename or a table correction changes), ``went_out`` as a seat.
"""

from __future__ import annotations

from collections.abc import Mapping
from collections.abc import Sequence
from typing import Any

from scorekeeper.games.base import Fact
from scorekeeper.games.base import GameRules
from scorekeeper.games.base import Hand
from scorekeeper.games.base import Option
from scorekeeper.games.base import Problems
from scorekeeper.games.base import RuleError
from scorekeeper.games.base import Setup
from scorekeeper.games.base import Stat
from scorekeeper.games.base import State
from scorekeeper.games.base import Tally
from scorekeeper.games.base import add_points
from scorekeeper.games.base import check_player_count
from scorekeeper.games.base import order_from_left_of
from scorekeeper.games.base import seat_after
from scorekeeper.games.base import team_name
from scorekeeper.games.base import whole_number
from scorekeeper.games.readers import merge_per_player
from scorekeeper.games.words import HANDS

GOING_OUT_BONUS = 100
#: The most a team can score (or lose) in one hand, as entered.
LIMIT = 10_000


def team_seats(count: int) -> list[list[int]]:
    """Partners sit opposite: with ``count`` seats, seat ``i`` plays with ``i + count/2``."""
    half = count // 2
    return [[seat, seat + half] for seat in range(half)]


def teams_of(players: Sequence[str]) -> list[list[str]]:
    return [[players[seat] for seat in team] for team in team_seats(len(players))]


def team_names(players: Sequence[str]) -> list[str]:
    return [team_name(team) for team in teams_of(players)]


class Partners(GameRules):
    key = "partners"
    title = "Partners"
    min_players = 4
    max_players = 6
    hand_words = HANDS
    plays_in_teams = True
    name_fields = ("went_out",)
    facts = (Fact("went_out", "Went out first"), Fact("hands_won", "Hands won"))
    stats = (
        Stat("Went out first", "went_out", out_of="hands"),
        Stat("Hands won", "hands_won", out_of="hands"),
    )

    def option_specs(self, player_count: int) -> list[Option]:
        return [
            Option(
                "target",
                "Points to win",
                "int",
                1000,
                choices=(500, 1000, 5000),
                minimum=100,
                maximum=LIMIT,
                help="The first team at or above this at the end of a hand wins.",
            ),
            Option(
                "going_out",
                "Going-out bonus",
                "bool",
                True,
                help="The team of the player who went out first scores 100 more.",
            ),
        ]

    def check_players(self, players: Sequence[str], options: Mapping[str, Any]) -> None:
        check_player_count(players, 4, 6)
        if len(players) % 2:
            raise RuleError(
                "player_count", "Partners is played in teams of two: 4 or 6 players.", "players"
            )

    def team_seats(self, options: Mapping[str, Any], count: int) -> list[list[int]] | None:
        return team_seats(count)

    def describe(self, options: Mapping[str, Any], player_count: int | None = None) -> list[str]:
        lines = [
            "Partners sit opposite each other.",
            f"The first team to {options['target']} wins.",
        ]
        if options.get("going_out"):
            lines.append("Going out first: 100 more for the team.")
        return lines

    def standing_note(
        self, state: State, side: str, options: Mapping[str, Any] | None = None
    ) -> str | None:
        if state.finished or not options:
            return None
        left = options["target"] - state.totals[side]
        return f"{left} to go" if left > 0 else None

    def merge(self, entered: Mapping[str, Any], change: Mapping[str, Any]) -> dict[str, Any]:
        """A correction through the API may name only the teams whose points change."""
        return merge_per_player(entered, change, ("points",))

    # Storage: the team points by team, ``went_out`` by seat ------------------------------

    def to_seats(self, entry: Mapping[str, Any], players: Sequence[str]) -> dict[str, Any]:
        stored = super().to_seats(entry, players)
        points = stored.get("points")
        if isinstance(points, Mapping):
            stored["points"] = [points.get(team) for team in team_names(players)]
        return stored

    def from_seats(self, stored: Mapping[str, Any], players: Sequence[str]) -> dict[str, Any]:
        entry = super().from_seats(stored, players)
        points = entry.get("points")
        if isinstance(points, list):
            entry["points"] = {
                team: value
                for team, value in zip(team_names(players), points, strict=True)
                if value is not None
            }
        return entry

    # Replaying the game -------------------------------------------------------------------

    def begin(self, setup: Setup) -> Tally:
        players = tuple(setup.players)
        self.check_players(players, setup.options)
        teams = teams_of(players)
        sides = [team_name(team) for team in teams]
        side_of = {name: team_name(team) for team in teams for name in team}
        return Tally(setup, sides, teams=teams, side_of=side_of)

    def step(self, tally: Tally, number: int, entry: Mapping[str, Any], last: bool) -> None:
        hand = self._hand(tally.setup, number, entry, tally.sides, tally.side_of)
        tally.hands.append(hand)
        add_points(tally.totals, hand.points)
        tally.winners = self._winners(tally.options["target"], tally.totals)
        tally.finished = bool(tally.winners)

    def end(self, tally: Tally) -> State:
        setup, sides, totals = tally.setup, tally.sides, dict(tally.totals)
        players, hands, winners = tally.players, list(tally.hands), list(tally.winners)
        state = State(sides=list(sides), teams=tally.teams, hands=hands, totals=totals)
        state.finished = bool(winners)
        state.winners = winners
        if winners:
            state.notices = [f"{winners[0]} win with {totals[winners[0]]}."]
        else:
            number = len(hands) + 1
            seat = seat_after(setup.first_dealer, len(players), number - 1)
            state.next = {
                "number": number,
                "dealer": players[seat],
                "order": order_from_left_of(seat, players),
                "to_go": {side: setup.options["target"] - totals[side] for side in sides},
            }
            level = [side for side in sides if totals[side] >= setup.options["target"]]
            if level:
                state.notices = [f"{' and '.join(level)} are level: another hand decides."]
        return state

    @staticmethod
    def _winners(target: int, totals: Mapping[str, int]) -> list[str]:
        """The team at or above the target with the single highest total (none on a tie)."""
        over = [side for side in totals if totals[side] >= target]
        if not over:
            return []
        best = max(totals[side] for side in over)
        top = [side for side in over if totals[side] == best]
        return top if len(top) == 1 else []

    def _hand(
        self,
        setup: Setup,
        number: int,
        entry: Mapping[str, Any],
        sides: Sequence[str],
        side_of: Mapping[str, str],
    ) -> Hand:
        if not isinstance(entry, Mapping):
            raise RuleError("wrong_type", "A hand must be given as the points per team.")
        problems = Problems()
        raw = entry.get("points")
        points: dict[str, int] = {}
        if not isinstance(raw, Mapping):
            problems.add(RuleError("missing_points", "Enter every team's points.", "points"))
        else:
            for key in raw:
                if key not in sides:
                    problems.add(
                        RuleError(
                            "unknown_player",
                            f"{key} is not a team of this game.",
                            f"points.{key}",
                        )
                    )
            for side in sides:
                with problems.check():
                    if raw.get(side) is None:
                        raise RuleError(
                            "missing_points", f"Enter the points of {side}.", f"points.{side}"
                        )
                    points[side] = whole_number(
                        raw[side],
                        f"points.{side}",
                        "points_out_of_range",
                        -LIMIT,
                        LIMIT,
                        not_whole=f"The points of {side} must be a whole number.",
                        out_of_range=f"The points of {side} must be from −{LIMIT} to {LIMIT}.",
                    )
        went_out = entry.get("went_out")
        if went_out is not None and went_out not in side_of:
            problems.add(
                RuleError("unknown_player", f"{went_out} is not playing in this game.", "went_out")
            )
        problems.raise_any()
        players = setup.players
        dealer_seat = seat_after(setup.first_dealer, len(players), number - 1)
        bonus = dict.fromkeys(sides, 0)
        if went_out is not None and setup.options["going_out"]:
            bonus[side_of[went_out]] = GOING_OUT_BONUS
        scored = {side: points[side] + bonus[side] for side in sides}
        best = max(scored.values())
        level = len(set(scored.values())) < 2
        info = {
            "bonus": bonus,
            "hand_winners": [] if level else [side for side in sides if scored[side] == best],
        }
        entered: dict[str, Any] = {"points": points}
        if went_out is not None:
            entered["went_out"] = went_out
        return Hand(number, players[dealer_seat], "scored", entered, scored, info)

    # What the rest of the app asks ----------------------------------------------------------

    def hand_facts(self, setup: Setup, hand: Hand) -> list[dict[str, int]]:
        side_of = {name: team_name(team) for team in teams_of(setup.players) for name in team}
        facts = []
        for name in setup.players:
            seat = {
                "went_out": int(hand.input.get("went_out") == name),
                "hands_won": int(side_of[name] in hand.info["hand_winners"]),
            }
            facts.append({key: value for key, value in seat.items() if value})
        return facts

    def csv_columns(self, setup: Setup) -> list[str]:
        return ["Went out", "Hand won by"]

    def csv_cells(self, setup: Setup, hand: Hand) -> list[Any]:
        return [hand.input.get("went_out"), ", ".join(hand.info["hand_winners"])]


RULES = Partners()
