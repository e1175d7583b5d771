"""Oh Hell: the game plug-in."""

from scorekeeper.games.oh_hell import form
from scorekeeper.games.oh_hell import schema
from scorekeeper.games.oh_hell.rules import RULES
from scorekeeper.games.plugin import GamePlugin

GAME = GamePlugin.from_folder(__file__, RULES, form, schema, families=("bidding",))
