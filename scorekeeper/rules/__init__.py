"""The rules of every game, one module each, behind the common interface in ``base``.

A fourth game is one new module here and one line in ``GAMES``.
"""

from scorekeeper.rules import oh_hell
from scorekeeper.rules import oklahoma_gin
from scorekeeper.rules import pitch
from scorekeeper.rules.base import GameRules
from scorekeeper.rules.base import Hand
from scorekeeper.rules.base import Option
from scorekeeper.rules.base import RuleError
from scorekeeper.rules.base import Setup
from scorekeeper.rules.base import State

#: Every game the app keeps score of, by its key.
GAMES: dict[str, GameRules] = {
    module.RULES.key: module.RULES for module in (oh_hell, pitch, oklahoma_gin)
}


def get(key: str) -> GameRules:
    """The rules for a game key; RuleError ``option_value`` for an unknown game."""
    try:
        return GAMES[key]
    except KeyError:
        known = ", ".join(GAMES)
        raise RuleError(
            "option_value", f"Unknown game “{key}”; choose one of: {known}.", "game"
        ) from None


__all__ = ["GAMES", "GameRules", "Hand", "Option", "RuleError", "Setup", "State", "get"]
