"""Auction Pitch (Setback): the game plug-in."""

from scorekeeper.games.pitch import form
from scorekeeper.games.pitch import schema
from scorekeeper.games.pitch.rules import RULES
from scorekeeper.games.plugin import GamePlugin

GAME = GamePlugin.from_folder(__file__, RULES, form, schema)
