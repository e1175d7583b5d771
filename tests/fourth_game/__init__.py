"""A fourth game that lives only in the tests: "Race", a dice race to a target.

It is registered by the fixture in ``conftest.py`` and shows that a game is one folder: its
rules, form reader, API schema, templates and stylesheet are all here, and nothing outside
this folder knows it exists.
"""

from scorekeeper.games.plugin import GamePlugin
from tests.fourth_game import form
from tests.fourth_game import schema
from tests.fourth_game.rules import RULES

GAME = GamePlugin.from_folder(__file__, RULES, form, schema)
