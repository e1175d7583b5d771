"""What the app asks of a score pad beyond replaying its rounds (kept apart from the rules'
replay in ``rules``; ``ScorePad`` takes these in): the game's name groups its plays, names
it in lists, and the rules card, corrections and CSV."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorekeeper.games.base import Hand
from scorekeeper.games.base import Setup
from scorekeeper.games.i18n import _
from scorekeeper.games.readers import merge_per_player


class ScorePadHooks:
    """Mixed into the rules class."""

    title: Any

    # Plays of one named game, together -----------------------------------------------------

    def variant_of(self, options: Mapping[str, Any]) -> str:
        """The game's name (spaces tidied): plays of one game are compared with each other."""
        return " ".join(str(options.get("name") or "").split())

    def variant_label(self, variant: str) -> str:
        return variant or str(self.title)

    def game_title(self, options: Mapping[str, Any]) -> str:
        name = self.variant_of(options)
        return _("%(name)s (score pad)", name=name) if name else str(self.title)

    def describe(self, options: Mapping[str, Any], player_count: int | None = None) -> list[str]:
        lines = [
            _("The lowest total wins.")
            if options.get("winner") == "lowest"
            else _("The highest total wins.")
        ]
        if options.get("end") == "target":
            lines.append(
                _(
                    "The game ends after the round in which a total reaches %(target)s.",
                    target=options["target"],
                )
            )
        elif options.get("end") == "rounds":
            lines.append(_("The game ends after %(rounds)s rounds.", rounds=options["rounds"]))
        else:
            lines.append(_("The game goes on until you end it."))
        lines.append(_("Each round: one whole number per player; a blank counts 0."))
        return lines

    # Corrections and the CSV -----------------------------------------------------------------

    def merge(self, entered: Mapping[str, Any], change: Mapping[str, Any]) -> dict[str, Any]:
        """A correction through the API may name only the players whose points change."""
        return merge_per_player(entered, change, ("points",))

    def csv_columns(self, setup: Setup) -> list[str]:
        return [_("Round winners")]

    def csv_cells(self, setup: Setup, hand: Hand) -> list[Any]:
        return [", ".join(hand.info["round_winners"])]
