"""Wizard: the game plug-in."""

from scorekeeper.games.plugin import GamePlugin
from scorekeeper.games.wizard import form
from scorekeeper.games.wizard import schema
from scorekeeper.games.wizard.rules import RULES

GAME = GamePlugin.from_folder(__file__, RULES, form, schema, families=("bidding",))
