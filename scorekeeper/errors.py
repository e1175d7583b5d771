"""Refusals the services give, shared by the pages and the JSON API."""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING
from typing import Any

from scorekeeper.games.errors import RuleError

if TYPE_CHECKING:  # the rules import nothing of the app
    from scorekeeper.games.base import GameRules

#: HTTP status for each error code that is not a plain 422 "against the rules".
STATUS_BY_CODE = {
    "invalid_json": 400,
    "wrong_type": 400,
    "idempotency_key_invalid": 400,
    "unauthorized": 401,
    "signup_disabled": 403,
    "not_found": 404,
    "not_next_hand": 409,
    "conflict": 409,
    "seat_taken": 409,
    "too_many_attempts": 429,
}


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a request: a stable ``code``, the ``field`` it concerns (a form
    field or an input path such as ``bids.Ann``) and a ``message`` for people."""

    code: str
    message: str
    field: str | None = None


class Refusal(Exception):
    """A request the app refuses: nothing was changed.

    ``problems`` lists everything found wrong at once; ``code``, ``message`` and ``field``
    are the first one's (most requests have just one).
    """

    def __init__(
        self,
        code: str,
        message: str,
        field: str | None = None,
        problems: Iterable[Problem] | None = None,
    ) -> None:
        message = str(message)  # a lazy text (``N_``) in the reader's language, now
        super().__init__(message)
        self.problems = list(problems) if problems else [Problem(code, message, field)]
        first = self.problems[0]
        self.code, self.message, self.field = first.code, first.message, first.field
        #: The rules' state of the game as it stands, when they derived it on the way to this
        #: refusal (a refused save shows it without replaying the game again); else None.
        self.kept_state: Any = None

    @classmethod
    def of(cls, problems: Iterable[Problem]) -> Refusal:
        problems = list(problems)
        first = problems[0]
        return cls(first.code, first.message, first.field, problems)

    @property
    def status(self) -> int:
        """The answer's HTTP status: the most basic problem decides (400 before 422)."""
        return min(STATUS_BY_CODE.get(problem.code, 422) for problem in self.problems)

    @classmethod
    def from_rule(cls, error: RuleError, rules: GameRules | None = None) -> Refusal:
        """The rules' refusal (every problem they found), each message naming the hand (or
        round) it concerns (in the words of ``rules``, the game's)."""
        return cls.of(
            [Problem(each.code, each.said_by(rules), each.field) for each in error.errors]
        )


class NotFound(Refusal):
    """Nothing of that id here; ``message`` says what ("That game was not found.")."""

    def __init__(self, message: str | None = None) -> None:
        from scorekeeper.games.i18n import _

        super().__init__("not_found", message or _("That was not found."))


@contextmanager
def as_refusal(rules: GameRules | None = None) -> Iterator[None]:
    """The app's edge of the rules floor: a ``RuleError`` raised by the rules (or a game's
    form reader) inside becomes the app's ``Refusal``, every problem kept, each message
    naming its hand in the words of ``rules`` (see ``Refusal.from_rule``)."""
    try:
        yield
    except RuleError as error:
        raise Refusal.from_rule(error, rules) from None
