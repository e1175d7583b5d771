"""Oklahoma Gin: the game plug-in."""

from scorekeeper.games.oklahoma_gin import form
from scorekeeper.games.oklahoma_gin import schema
from scorekeeper.games.oklahoma_gin.rules import RULES
from scorekeeper.games.plugin import GamePlugin

GAME = GamePlugin.from_folder(__file__, RULES, form, schema)
