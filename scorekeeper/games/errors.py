"""The rules' own error: an entry (or a form, or a new game) the rules refuse.

Pure Python, like every module of ``scorekeeper.games``: the app turns a ``RuleError`` into
its own refusal (``scorekeeper.errors.Refusal.from_rule``) at its edge, where the pages and
the API call the rules and the game's form reader.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


class RuleError(Exception):
    """An entry the rules refuse.

    ``code`` is a stable identifier (the API's error codes), ``message`` a sentence for the
    players, ``field`` the input path it concerns (``"bids.Ann"``, ``"tricks"``, ``None``) and
    ``hand`` the hand number, when the error is about one hand. ``errors`` lists every
    problem found: just this one, or several independent ones (``RuleErrors``).
    """

    def __init__(
        self,
        code: str,
        message: str,
        field: str | None = None,
        hand: int | None = None,
        *,
        names_hand: bool = False,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field
        self.hand = hand
        #: The message names its hand itself ("Hand 3 has no tricks yet ..."): the app does not
        #: put "Hand 3:" before it (said by the rules, so that it holds in every language).
        self.names_hand = names_hand
        #: The state of the record as it stands, when the rules derived it on the way to this
        #: refusal (``GameRules.replay``); None otherwise.
        self.kept_state: Any = None

    @property
    def errors(self) -> list[RuleError]:
        return [self]

    def said_by(self, rules: Any) -> str:
        """The message as a player reads it: naming the hand (or round) it concerns, in the
        words of ``rules`` (the game's ``"problem"`` phrase), unless it names it itself or
        concerns no hand (or no ``rules`` are given)."""
        message = str(self.message)
        if self.hand is None or rules is None or self.names_hand:
            return message
        return str(rules.phrase("problem", number=self.hand, problem=message))

    def for_hand(self, number: int) -> RuleError:
        """Return this error tagged with a hand number (kept if already set)."""
        for error in self.errors:
            if error.hand is None:
                error.hand = number
        if self.hand is None:
            self.hand = number
        return self

    def __repr__(self) -> str:
        return f"RuleError({self.code!r}, {self.message!r}, field={self.field!r}, hand={self.hand})"


class RuleErrors(RuleError):
    """Several independent problems of one entry or one new game, reported at once."""

    def __init__(self, errors: Sequence[RuleError]) -> None:
        first = errors[0]
        super().__init__(first.code, first.message, first.field, first.hand)
        self._errors = list(errors)

    @property
    def errors(self) -> list[RuleError]:
        return self._errors


class Problems:
    """Collects the independent problems of an entry so that all are reported at once::

    problems = Problems()
    for name in players:
        with problems.check():
            bids[name] = whole_number(...)
    problems.raise_any()
    """

    def __init__(self) -> None:
        self.errors: list[RuleError] = []

    def check(self) -> Problems:
        """A ``with`` block whose RuleError is collected instead of raised (a plain context
        manager: every value of every hand goes through one, so it must cost little)."""
        return self

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type | None, error: BaseException | None, trace: Any) -> bool:
        if isinstance(error, RuleError):
            self.errors.extend(error.errors)
            return True
        return False

    def add(self, error: RuleError) -> None:
        self.errors.extend(error.errors)

    def __bool__(self) -> bool:
        return bool(self.errors)

    def raise_any(self) -> None:
        """Raise what was found: the one problem, or all of them together."""
        if len(self.errors) == 1:
            raise self.errors[0]
        if self.errors:
            raise RuleErrors(self.errors)
