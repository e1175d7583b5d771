"""A fifth game that lives only in the tests: "Partners", a meld game in teams of two.

Unlike the fourth one (Race: everyone for themselves, one die roll each round), its points,
totals and winners belong to teams, a hand has no fixed size and is entered per team, the
table has 4 or 6 seats, and the entry is stored by team and seat (the rules' own
``to_seats``). Registered by the fixture in ``conftest.py``; nothing outside this folder
knows it exists.
"""

from scorekeeper.games.plugin import GamePlugin
from tests.fifth_game import form
from tests.fifth_game import schema
from tests.fifth_game.rules import RULES

GAME = GamePlugin.from_folder(__file__, RULES, form, schema)
