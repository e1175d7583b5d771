"""Score pad: a plain sheet for any game the app has no rules for.

Each round is one whole number per player (negative allowed; a player left out counts 0)::

    {"points": {name: int}}

Options: the game's ``name`` (kept so history and statistics can group plays of one game),
``winner`` highest or lowest, and how the game ends: ``open`` (only when the scorekeeper closes
it: see ``ScorePad.close``), ``target`` (at the end of a round in which a total reached the
target) or ``rounds`` (a fixed number of rounds). An optional dealer rotation is a reminder.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from collections.abc import Sequence
from typing import Any

from scorekeeper.games.base import Fact
from scorekeeper.games.base import GameRules
from scorekeeper.games.base import Hand
from scorekeeper.games.base import Option
from scorekeeper.games.base import Problems
from scorekeeper.games.base import RuleError
from scorekeeper.games.base import SeatEntry
from scorekeeper.games.base import Setup
from scorekeeper.games.base import Stat
from scorekeeper.games.base import State
from scorekeeper.games.base import Tally
from scorekeeper.games.base import add_points
from scorekeeper.games.base import check_option_value
from scorekeeper.games.base import each_player
from scorekeeper.games.base import resolve_options
from scorekeeper.games.i18n import N_
from scorekeeper.games.i18n import _
from scorekeeper.games.i18n import lazy_pgettext
from scorekeeper.games.i18n import names
from scorekeeper.games.i18n import ngettext
from scorekeeper.games.readers import POINTS
from scorekeeper.games.readers import whole_of
from scorekeeper.games.score_pad.hooks import ScorePadHooks
from scorekeeper.games.table import Change
from scorekeeper.games.table import Deal
from scorekeeper.games.words import ROUNDS

NAME_LENGTH = (1, 60)
MAX_ROUNDS = 100
MAX_TARGET = 1_000_000
ENDS = ("open", "target", "rounds")
#: Options that only count with one way of ending: given with another end, they are ignored.
END_OPTIONS = {"target": "target", "rounds": "rounds"}
MISSING = {
    "target": N_("Enter the target: this game ends when a total reaches it."),
    "rounds": N_("Enter the number of rounds: this game ends after them."),
}
#: What a round says when it holds no points at all.
ROUND_POINTS = dataclasses.replace(
    POINTS, every=lambda: _("Enter the points of at least one player for this round.")
)


def round_winners(points: Mapping[str, int], lowest: bool) -> list[str]:
    """Who won a round: the best score (lowest or highest), shared on a tie; nobody when every
    player scored the same (a single player never wins a round)."""
    values = set(points.values())
    if len(values) < 2:
        return []
    best = min(values) if lowest else max(values)
    return [name for name, value in points.items() if value == best]


class ScorePad(ScorePadHooks, GameRules):
    key = "score_pad"
    title = lazy_pgettext("game title", "Score pad")
    min_players = 1
    max_players = 20
    hand_words = ROUNDS
    # Any game at all: rated per game name, and not in the rating over every card game.
    rated_together = False
    rated_by_variant = True
    name_maps = ("points",)
    facts = (Fact("rounds_won", N_("Rounds won")),)
    stats = (
        Stat(N_("Games won"), "won", out_of="played"),
        Stat(N_("Rounds won"), "rounds_won", out_of="hands"),
        Stat(N_("Points per round"), "points", per="hands"),
        Stat(N_("Rounds per game"), "hands", per="played"),
    )

    # Self-description ---------------------------------------------------------------------

    def seat_entry(self, options: Mapping[str, Any]) -> SeatEntry:
        """Each player's phone enters its own points; the scorekeeper saves the round."""
        return SeatEntry("points", "points", opens=False, incomplete=("missing_points",))

    def option_specs(self, player_count: int) -> list[Option]:
        return [
            Option(
                "name",
                N_("Game name"),
                "text",
                None,
                minimum=NAME_LENGTH[0],
                maximum=NAME_LENGTH[1],
                help=N_(
                    "What the table is playing (Rummikub, Yahtzee ...): plays with the same "
                    "name are grouped in history and statistics."
                ),
            ),
            Option(
                "winner",
                N_("Winner"),
                "choice",
                "highest",
                choices=("highest", "lowest"),
                help=N_("Whether the highest or the lowest total wins."),
                choice_labels={
                    "highest": N_("Highest total wins"),
                    "lowest": N_("Lowest total wins"),
                },
            ),
            Option(
                "end",
                N_("End of the game"),
                "choice",
                "open",
                choices=ENDS,
                help=N_(
                    "When you end it, when a total reaches a target, or after a number of rounds."
                ),
                choice_labels={
                    "open": N_("When you end it"),
                    "target": N_("When a total reaches the target"),
                    "rounds": N_("After a number of rounds"),
                },
            ),
            Option(
                "target",
                N_("Target"),
                "int",
                None,
                minimum=1,
                maximum=MAX_TARGET,
                help=N_(
                    "With “when a total reaches the target”: the game ends after the round "
                    "in which someone's total reaches it."
                ),
            ),
            Option(
                "rounds",
                N_("Number of rounds"),
                "int",
                None,
                minimum=1,
                maximum=MAX_ROUNDS,
                help=N_("With “after a number of rounds”: how many rounds are played."),
            ),
            Option(
                "dealer",
                N_("Show the dealer"),
                "bool",
                False,
                help=N_("Remind the table who deals: the deal passes to the left each round."),
            ),
        ]

    def resolve_options(self, raw: Mapping[str, Any] | None, player_count: int) -> dict[str, Any]:
        """Every option with its effective value. ``target`` is needed (and kept) only with
        end "target", ``rounds`` only with end "rounds"; given with another end they are
        ignored (None)."""
        raw = dict(raw or {})
        specs = self.option_specs(player_count)
        problems = Problems()
        general = [spec for spec in specs if spec.key not in END_OPTIONS]
        resolved: dict[str, Any] = {}
        with problems.check():
            resolved = resolve_options(
                general, {key: value for key, value in raw.items() if key not in END_OPTIONS}
            )
        end = raw.get("end") if raw.get("end") is not None else "open"
        for spec in specs:
            if spec.key not in END_OPTIONS:
                continue
            resolved[spec.key] = None
            if end != END_OPTIONS[spec.key]:
                continue
            value = raw.get(spec.key)
            if value is None:
                problems.add(
                    RuleError("option_value", str(MISSING[spec.key]), f"options.{spec.key}")
                )
                continue
            with problems.check():
                resolved[spec.key] = check_option_value(spec, value)
        problems.raise_any()
        return {spec.key: resolved[spec.key] for spec in specs}

    def low_wins(self, options: Mapping[str, Any]) -> bool:
        return options.get("winner") == "lowest"

    def hand_facts(self, setup: Setup, hand: Hand) -> list[dict[str, int]]:
        won = hand.info["round_winners"]
        return [{"rounds_won": 1} if name in won else {} for name in setup.players]

    # Replaying the game -------------------------------------------------------------------

    def begin(self, setup: Setup) -> Tally:
        self.check_players(setup.players, setup.options)
        # ``rounds``: how many rounds the game has as the table's schedule stands.
        return Tally(
            setup,
            setup.players,
            lowest=self.low_wins(setup.options),
            rounds=setup.options["rounds"],
        )

    def step(self, tally: Tally, number: int, entry: Mapping[str, Any], last: bool) -> None:
        hand = self._round(tally.deal, number, entry, tally.lowest)
        tally.hands.append(hand)
        add_points(tally.totals, hand.points)
        tally.finished = self._ended(tally, number)

    def end(self, tally: Tally) -> State:
        state = State(
            sides=list(tally.sides),
            teams=None,
            hands=list(tally.hands),
            totals=dict(tally.totals),
            finished=tally.finished,
            low_wins=tally.lowest,
            left=list(tally.seating.left),
        )
        if state.finished:
            return self._finish(tally.options, state, tally.rounds)
        return self._open(tally.options, state, tally.next_deal(), tally.rounds)

    # The table's changes: every one; the schedule is the number of rounds ------------------

    def table_changes(self, options: Mapping[str, Any]) -> tuple[str, ...]:
        changes = ("join", "leave", "sit_out", "substitute", "adjust")
        return (*changes, "schedule") if options["end"] == "rounds" else changes

    def reschedule(self, tally: Tally, change: Change, apply: bool) -> dict[str, Any]:
        """The number of rounds (end "rounds" only): from the rounds played (at least 1) to
        100; the rounds played end the game at once."""
        rounds = change.body.get("rounds")
        played = len(tally.hands)
        low = max(played, 1)
        if (
            isinstance(rounds, bool)
            or not isinstance(rounds, int)
            or not low <= rounds <= MAX_ROUNDS
        ):
            raise RuleError(
                "option_value",
                _(
                    "The number of rounds must be a whole number from %(low)s to %(high)s.",
                    low=low,
                    high=MAX_ROUNDS,
                ),
                f"{change.where}.rounds",
            )
        if apply:
            tally.rounds = rounds
            tally.finished = rounds == played
        return {"kind": "schedule", "rounds": rounds}

    def close(self, setup: Setup, state: State) -> State:
        """End an open-ended game (``end = "open"``) when the scorekeeper says so: the best
        totals by the ``winner`` option win, shared on a tie. A game that ends by a target or
        a number of rounds is returned unchanged (it ends by its own rule), and so is a game
        already over; an open game without a round is refused (``not_finished``)."""
        if state.finished or setup.options["end"] != "open":
            return state
        if not state.hands:
            raise RuleError(
                "not_finished", _("Enter at least one round before ending the game."), None
            )
        return self._finish(setup.options, dataclasses.replace(state, finished=True))

    @staticmethod
    def _ended(tally: Tally, number: int) -> bool:
        """Whether round ``number`` ends the game: a seated player's total reached the
        target, or the last round of the schedule as it stands was played."""
        options = tally.options
        if options["end"] == "target":
            return max(tally.totals[name] for name in tally.seated) >= options["target"]
        if options["end"] == "rounds":
            return number >= tally.rounds
        return False

    # One round ----------------------------------------------------------------------------

    @staticmethod
    def _round(deal: Deal, number: int, entry: Mapping[str, Any], lowest: bool) -> Hand:
        """Round ``number`` of the players dealt in (a sitter scores nothing in it and is
        not among its winners)."""
        if not isinstance(entry, Mapping):
            raise RuleError("wrong_type", _("A round must be given as the points per player."))
        given = each_player(
            entry,
            "points",
            deal.players,
            "missing_points",
            ROUND_POINTS,
            _read_points,
            partial=True,
            members=deal.members,
        )
        points = {name: given.get(name, 0) for name in deal.players}
        info = {
            "round_winners": round_winners(points, lowest),
            "order": deal.order,
        }
        return Hand(number, deal.dealer, "scored", {"points": points}, points, info)

    # The state ----------------------------------------------------------------------------

    @staticmethod
    def _finish(options: Mapping[str, Any], state: State, rounds: int | None = None) -> State:
        """The finished state: the winners among the players still seated."""
        state.next = None
        state.winners = state.leaders()
        notices = []
        if options["end"] == "target":
            over = [name for name in _seated(state) if state.totals[name] >= options["target"]]
            notices.append(
                _(
                    "%(names)s reached %(target)s: the game is over.",
                    names=names(over),
                    target=options["target"],
                )
            )
        elif options["end"] == "rounds":
            notices.append(
                ngettext(
                    "All %(num)s round is played: the game is over.",
                    "All %(num)s rounds are played: the game is over.",
                    rounds,
                )
            )
        best = state.totals[state.winners[0]]
        one = state.winners[0]
        together = names(state.winners)
        if len(state.winners) == 1 and state.low_wins:
            notices.append(
                _("%(name)s wins with %(points)s (lowest total).", name=one, points=best)
            )
        elif len(state.winners) == 1:
            notices.append(_("%(name)s wins with %(points)s.", name=one, points=best))
        elif state.low_wins:
            notices.append(
                _(
                    "%(names)s share the win with %(points)s (lowest total).",
                    names=together,
                    points=best,
                )
            )
        else:
            notices.append(
                _("%(names)s share the win with %(points)s.", names=together, points=best)
            )
        state.notices = notices
        return state

    @staticmethod
    def _open(options: Mapping[str, Any], state: State, deal: Deal, rounds: int | None) -> State:
        """The game going on: the next round as dealt to the players dealt into it."""
        number = deal.number
        state.next = {
            "number": number,
            "dealer": deal.dealer,
            "show_dealer": bool(options["dealer"]),
            "order": deal.order,
            "total_hands": rounds,
            "target": options["target"],
        }
        notices = []
        if options["end"] == "rounds":
            notices.append(_("Round %(number)s of %(rounds)s.", number=number, rounds=rounds))
        elif options["end"] == "open" and state.hands:
            notices.append(_("The game goes on until you end it."))
        if options["dealer"]:
            notices.append(_("%(name)s deals round %(number)s.", name=deal.dealer, number=number))
        state.notices = notices
        return state


def _read_points(name: str, value: Any) -> int:
    """A player's points in a round: any whole number."""
    return whole_of(value, POINTS, name, f"points.{name}", "wrong_type", None, None)


def _seated(state: State) -> Sequence[str]:
    """The sides still at the table."""
    return [name for name in state.sides if name not in state.left]


RULES = ScorePad()
