"""Spades (partnerships): the game plug-in."""

from scorekeeper.games.plugin import GamePlugin
from scorekeeper.games.spades import form
from scorekeeper.games.spades import schema
from scorekeeper.games.spades.rules import RULES

GAME = GamePlugin.from_folder(__file__, RULES, form, schema, families=("bidding",))
