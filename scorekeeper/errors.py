"""Refusals the services give, shared by the pages and the JSON API."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the rules import nothing of the app, and this module nothing of them
    from scorekeeper.games.base import RuleError

#: HTTP status for each error code that is not a plain 422 "against the rules".
STATUS_BY_CODE = {
    "invalid_json": 400,
    "wrong_type": 400,
    "unauthorized": 401,
    "signup_disabled": 403,
    "not_found": 404,
    "not_next_hand": 409,
    "conflict": 409,
    "too_many_attempts": 429,
}


class Refusal(Exception):
    """A request the app refuses: nothing was changed.

    ``code`` is the API's stable error code, ``message`` a sentence for people and ``field``
    the input it concerns (for forms: which field to show it under).
    """

    def __init__(self, code: str, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field

    @property
    def status(self) -> int:
        return STATUS_BY_CODE.get(self.code, 422)

    @classmethod
    def from_rule(cls, error: RuleError, hand_word: str = "Hand") -> Refusal:
        """The rules' refusal, its message naming the hand (or round) it concerns."""
        message = error.message
        if error.hand is not None and not message.startswith(("Hand ", "Round ")):
            message = f"{hand_word} {error.hand}: {message}"
        return cls(error.code, message, error.field)

    def to_json(self) -> dict:
        return {"code": self.code, "field": self.field, "message": self.message}


class NotFound(Refusal):
    def __init__(self, what: str = "That") -> None:
        super().__init__("not_found", f"{what} was not found.")
