"""Score pad (any other game): the game plug-in."""

from scorekeeper.games.plugin import GamePlugin
from scorekeeper.games.score_pad import form
from scorekeeper.games.score_pad import schema
from scorekeeper.games.score_pad.rules import RULES

GAME = GamePlugin.from_folder(__file__, RULES, form, schema)
