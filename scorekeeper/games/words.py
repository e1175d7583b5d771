"""What the shared pages say about one deal of a game: whole sentences, declared by the game.

A game names its deals in ``GameRules.hand_words``: ``HANDS`` ("Hand 3", "Undo hand 3", the
default), ``ROUNDS`` ("Round 3", "Undo round 3") or a ``HandWords`` of its own. Each sentence
is whole, so that a language can word each its way; the shared code asks for a sentence by
its name (``rules.phrase("undo", number=3)``) and never looks at the word itself.

A set of sentences for another word is a subclass that says every sentence again (a
sentence it leaves out would say "hand"): ``ROUNDS`` is one.
"""

from __future__ import annotations

from scorekeeper.games.i18n import _
from scorekeeper.games.i18n import ngettext


class HandWords:
    """The shared pages' sentences about a game's deals, each a method (named parameters):
    the deals are hands."""

    def word(self) -> str:
        """The word for one deal, as a column of the score sheet and of the CSV says it."""
        return _("Hand")

    def title(self, *, number: int) -> str:
        return _("Hand %(number)s", number=number)

    def title_of(self, *, number: int, total: int) -> str:
        return _("Hand %(number)s of %(total)s", number=number, total=total)

    def count(self, *, count: int) -> str:
        return ngettext("%(num)s hand", "%(num)s hands", count)

    def entered(self, *, count: int) -> str:
        return ngettext("%(num)s hand entered", "%(num)s hands entered", count)

    def so_far(self, *, count: int) -> str:
        return ngettext(
            "In progress: %(num)s hand so far.", "In progress: %(num)s hands so far.", count
        )

    def not_dealt(self, *, name: str) -> str:
        """A name at the table who is not dealt in (a sitter, a player who left)."""
        return _("%(name)s is not dealt into this hand.", name=name)

    def undo(self, *, number: int) -> str:
        return _("Undo hand %(number)s", number=number)

    def undo_heading(self, *, number: int) -> str:
        return _("Undo hand %(number)s?", number=number)

    def undo_ask(self, *, number: int) -> str:
        return _("Undo hand %(number)s? What was entered for it is removed.", number=number)

    def undo_question(self, *, number: int) -> str:
        return _("What was entered for hand %(number)s is removed.", number=number)

    def reopen(self) -> str:
        return _("Reopen to correct a hand")

    def reopened(self) -> str:
        return _(
            "Reopened for correction: correct a hand from the score sheet, then close the game "
            "again."
        )

    def table_help(self, *, game: str, players: str) -> str:
        return _(
            "%(game)s · %(players)s. Pick who really sat in each seat (clockwise) and who dealt "
            "the first hand. Someone who stays keeps what was entered for them; a new name takes "
            "over what was entered for the player it replaces. Every hand is scored again.",
            game=game,
            players=players,
        )

    def chart_desc(self, *, finals: str) -> str:
        return _(
            "Running totals after each hand, from 0 to the last. Final: %(finals)s.", finals=finals
        )

    def chart_caption(self) -> str:
        return _("Running totals after each hand")

    def chart_empty(self) -> str:
        return _("The chart appears once a hand is scored.")

    def per(self) -> str:
        return _("Points per hand")

    def average(self, *, average: str) -> str:
        """An average per deal, in a player's statistics ("2.4 a hand")."""
        return _("%(average)s a hand", average=average)

    def delete_question(self, *, count: int, players: str) -> str:
        return ngettext(
            "%(players)s: %(num)s hand entered.",
            "%(players)s: %(num)s hands entered.",
            count,
            players=players,
        )

    def problem(self, *, number: int, problem: str) -> str:
        return _("Hand %(number)s: %(problem)s", number=number, problem=problem)

    def not_found(self, *, number: int) -> str:
        return _("Hand %(number)s was not found.", number=number)

    def nothing_to_undo(self) -> str:
        return _("There is no hand to undo.")

    def only_last(self, *, number: int) -> str:
        return _("Only the last hand (Hand %(number)s) can be undone.", number=number)

    def already_recorded(self, *, number: int) -> str:
        return _(
            "Hand %(number)s is already recorded (a second tap, or another phone got there "
            "first). Nothing was changed.",
            number=number,
        )

    def already_complete(self, *, number: int) -> str:
        return _(
            "Hand %(number)s is already complete (a second tap, or another phone got there "
            "first). Nothing was changed.",
            number=number,
        )

    def not_next(self, *, count: int, number: int) -> str:
        return ngettext(
            "Hand %(number)s is not next: %(num)s hand recorded so far. Nothing was changed.",
            "Hand %(number)s is not next: %(num)s hands recorded so far. Nothing was changed.",
            count,
            number=number,
        )

    def show_earlier(self, *, last: int) -> str:
        return _("Show hands 1 to %(last)s too", last=last)

    def none_yet(self) -> str:
        return _("No hands yet.")

    def corrected(self, *, number: int) -> str:
        return _("Hand %(number)s corrected; later hands re-scored.", number=number)

    def bids_changed(self, *, number: int) -> str:
        """Said once a change of the bids of the hand in play is saved (the bidding games)."""
        return _("Bids of hand %(number)s changed.", number=number)

    def removed(self, *, number: int) -> str:
        return _("Hand %(number)s removed.", number=number)

    def left_after(self, *, number: int) -> str:
        """Under a player's total on the score sheet: they left the game after that hand."""
        return _("left after hand %(number)s", number=number)

    def sat_out(self, *, number: int) -> str:
        """A player's cell of a hand they sat out (read aloud; the cell shows "–")."""
        return _("sat out hand %(number)s", number=number)


class RoundWords(HandWords):
    """The same sentences for a game whose deals are rounds."""

    def word(self) -> str:
        return _("Round")

    def title(self, *, number: int) -> str:
        return _("Round %(number)s", number=number)

    def title_of(self, *, number: int, total: int) -> str:
        return _("Round %(number)s of %(total)s", number=number, total=total)

    def count(self, *, count: int) -> str:
        return ngettext("%(num)s round", "%(num)s rounds", count)

    def entered(self, *, count: int) -> str:
        return ngettext("%(num)s round entered", "%(num)s rounds entered", count)

    def so_far(self, *, count: int) -> str:
        return ngettext(
            "In progress: %(num)s round so far.", "In progress: %(num)s rounds so far.", count
        )

    def not_dealt(self, *, name: str) -> str:
        return _("%(name)s is not dealt into this round.", name=name)

    def undo(self, *, number: int) -> str:
        return _("Undo round %(number)s", number=number)

    def undo_heading(self, *, number: int) -> str:
        return _("Undo round %(number)s?", number=number)

    def undo_ask(self, *, number: int) -> str:
        return _("Undo round %(number)s? What was entered for it is removed.", number=number)

    def undo_question(self, *, number: int) -> str:
        return _("What was entered for round %(number)s is removed.", number=number)

    def reopen(self) -> str:
        return _("Reopen to correct a round")

    def reopened(self) -> str:
        return _(
            "Reopened for correction: correct a round from the score sheet, then close the game "
            "again."
        )

    def table_help(self, *, game: str, players: str) -> str:
        return _(
            "%(game)s · %(players)s. Pick who really sat in each seat (clockwise) and who dealt "
            "the first round. Someone who stays keeps what was entered for them; a new name takes "
            "over what was entered for the player it replaces. Every round is scored again.",
            game=game,
            players=players,
        )

    def chart_desc(self, *, finals: str) -> str:
        return _(
            "Running totals after each round, from 0 to the last. Final: %(finals)s.", finals=finals
        )

    def chart_caption(self) -> str:
        return _("Running totals after each round")

    def chart_empty(self) -> str:
        return _("The chart appears once a round is scored.")

    def per(self) -> str:
        return _("Points per round")

    def average(self, *, average: str) -> str:
        return _("%(average)s a round", average=average)

    def delete_question(self, *, count: int, players: str) -> str:
        return ngettext(
            "%(players)s: %(num)s round entered.",
            "%(players)s: %(num)s rounds entered.",
            count,
            players=players,
        )

    def problem(self, *, number: int, problem: str) -> str:
        return _("Round %(number)s: %(problem)s", number=number, problem=problem)

    def not_found(self, *, number: int) -> str:
        return _("Round %(number)s was not found.", number=number)

    def nothing_to_undo(self) -> str:
        return _("There is no round to undo.")

    def only_last(self, *, number: int) -> str:
        return _("Only the last round (Round %(number)s) can be undone.", number=number)

    def already_recorded(self, *, number: int) -> str:
        return _(
            "Round %(number)s is already recorded (a second tap, or another phone got there "
            "first). Nothing was changed.",
            number=number,
        )

    def already_complete(self, *, number: int) -> str:
        return _(
            "Round %(number)s is already complete (a second tap, or another phone got there "
            "first). Nothing was changed.",
            number=number,
        )

    def not_next(self, *, count: int, number: int) -> str:
        return ngettext(
            "Round %(number)s is not next: %(num)s round recorded so far. Nothing was changed.",
            "Round %(number)s is not next: %(num)s rounds recorded so far. Nothing was changed.",
            count,
            number=number,
        )

    def show_earlier(self, *, last: int) -> str:
        return _("Show rounds 1 to %(last)s too", last=last)

    def none_yet(self) -> str:
        return _("No rounds yet.")

    def corrected(self, *, number: int) -> str:
        return _("Round %(number)s corrected; later rounds re-scored.", number=number)

    def bids_changed(self, *, number: int) -> str:
        return _("Bids of round %(number)s changed.", number=number)

    def removed(self, *, number: int) -> str:
        return _("Round %(number)s removed.", number=number)

    def left_after(self, *, number: int) -> str:
        return _("left after round %(number)s", number=number)

    def sat_out(self, *, number: int) -> str:
        return _("sat out round %(number)s", number=number)


#: The sentences of a game whose deals are hands (``GameRules.hand_words`` by default).
HANDS = HandWords()
#: The sentences of a game whose deals are rounds (a game picks it: ``hand_words = ROUNDS``).
ROUNDS = RoundWords()


def sentence_names() -> list[str]:
    """The name of every sentence a ``HandWords`` says (what ``GameRules.phrase`` takes)."""
    return [name for name in vars(HandWords) if not name.startswith("_")]
