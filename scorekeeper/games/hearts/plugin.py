"""Hearts: the game plug-in."""

from scorekeeper.games.hearts import form
from scorekeeper.games.hearts import schema
from scorekeeper.games.hearts.rules import RULES
from scorekeeper.games.plugin import GamePlugin

GAME = GamePlugin.from_folder(__file__, RULES, form, schema)
