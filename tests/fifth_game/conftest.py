"""Register the test-only game for the tests of this folder, and take it away after."""

from __future__ import annotations

import pytest

from scorekeeper.games import GAMES
from tests.fifth_game import GAME


@pytest.fixture(autouse=True)
def partners_registered():
    GAMES.add(GAME)
    yield GAME
    GAMES.remove(GAME.key)
