"""What the bid-then-take-tricks games with a schedule of hand sizes (Oh Hell, Wizard) share
when the table changes: a join drops the hands still to play that need more cards than the
deck gives each seated player; a join that would leave none is refused (``no_hands_left``);
a leave never adds hands. Pure Python, like the rules."""

from __future__ import annotations

from collections.abc import Sequence

from scorekeeper.games.base import Tally
from scorekeeper.games.errors import RuleError


class DroppedBySeats:
    """A game's ``check_seats`` and ``seats_changed`` for a schedule kept on the tally
    (``tally.sizes``: every hand's cards, played and to play). The game sets ``deck`` and says
    ``no_hands_left(count)`` in its own words (hands or rounds)."""

    deck: int

    def no_hands_left(self, count: int) -> str:
        raise NotImplementedError

    def _still_to_play(self, tally: Tally, seated: int) -> list[int]:
        """The hands still to play that ``seated`` players can be dealt (deck // seated)."""
        return [cards for cards in tally.sizes[len(tally.hands) :] if cards <= self.deck // seated]

    def check_seats(self, tally: Tally, seated: Sequence[str]) -> None:
        if not self._still_to_play(tally, len(seated)):
            raise RuleError("no_hands_left", self.no_hands_left(len(seated)))

    def seats_changed(self, tally: Tally) -> None:
        """A join drops the hands too big for the seated players (a leave adds none)."""
        tally.sizes = tally.sizes[: len(tally.hands)] + self._still_to_play(
            tally, len(tally.seated)
        )
