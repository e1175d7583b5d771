"""Race: each round every player rolls a die and scores what it shows (0 for a miss, 1 to 6);
the round's single highest roll wins the round; the first total at or above the target at
the end of a round ends the game, and the highest total wins (equal totals share)."""

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
from scorekeeper.games.base import order_from_left_of
from scorekeeper.games.base import whole_number
from scorekeeper.games.words import ROUNDS


class Race(GameRules):
    key = "race"
    title = "Race"
    min_players = 2
    max_players = 4
    hand_words = ROUNDS
    name_maps = ("rolls",)
    facts = (Fact("rounds_won", "Rounds won"), Fact("sixes", "Sixes rolled"))
    stats = (Stat("Rounds won", "rounds_won", out_of="hands"), Stat("Sixes", "sixes"))

    def option_specs(self, player_count: int) -> list[Option]:
        return [
            Option(
                "target",
                "Race to",
                "choice",
                10,
                choices=(10, 20),
                form_help="The first total to reach it ends the race.",
            )
        ]

    def begin(self, setup: Setup) -> Tally:
        return Tally(setup, setup.players)

    def step(self, tally: Tally, number: int, entry: Mapping[str, Any], last: bool) -> None:
        players = tally.players
        rolls = self._rolls(entry, players)
        best = max(rolls.values())
        leaders = [name for name in players if rolls[name] == best]
        dealer = players[(tally.setup.first_dealer + number - 1) % len(players)]
        info = {"round_winner": leaders[0] if len(leaders) == 1 else None}
        tally.hands.append(Hand(number, dealer, "scored", {"rolls": rolls}, dict(rolls), info))
        add_points(tally.totals, rolls)
        tally.finished = max(tally.totals.values()) >= tally.options["target"]

    def end(self, tally: Tally) -> State:
        players = tally.players
        hands = list(tally.hands)
        state = State(sides=list(players), teams=None, hands=hands, totals=dict(tally.totals))
        state.finished = tally.finished
        if state.finished:
            state.winners = state.leaders()
        else:
            seat = (tally.setup.first_dealer + len(hands)) % len(players)
            state.next = {
                "number": len(hands) + 1,
                "dealer": players[seat],
                "order": order_from_left_of(seat, players),
            }
        return state

    @staticmethod
    def _rolls(entry: Mapping[str, Any], players: Sequence[str]) -> dict[str, int]:
        raw = entry.get("rolls") if isinstance(entry, Mapping) else None
        if not isinstance(raw, Mapping):
            raise RuleError("missing_points", "Enter every player's roll.", "rolls")
        problems = Problems()
        rolls = {}
        for name in players:
            with problems.check():
                if raw.get(name) is None:
                    raise RuleError("missing_points", f"Enter {name}'s roll.", f"rolls.{name}")
                rolls[name] = whole_number(
                    raw[name],
                    f"rolls.{name}",
                    "points_out_of_range",
                    0,
                    6,
                    not_whole=f"{name}'s roll must be a whole number.",
                    out_of_range=f"{name}'s roll must be from 0 to 6.",
                )
        problems.raise_any()
        return rolls

    def hand_facts(self, setup: Setup, hand: Hand) -> list[dict[str, int]]:
        return [
            {
                "rounds_won": int(hand.info["round_winner"] == name),
                "sixes": int(hand.input["rolls"][name] == 6),
            }
            for name in setup.players
        ]

    def csv_columns(self, setup: Setup) -> list[str]:
        return ["Round winner"]

    def csv_cells(self, setup: Setup, hand: Hand) -> list[Any]:
        return [hand.info["round_winner"]]


RULES = Race()
