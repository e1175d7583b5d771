"""Every game the app keeps score of: one folder each (see ``plugin``), listed once here.

A new game is a new folder ``scorekeeper/games/<key>/`` and one line in ``INSTALLED``. The
registry imports each game's ``plugin`` (its rules, form reader and schema); the rules alone
import without it (``scorekeeper.games`` loads this module only when ``GAMES`` is asked for).
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Iterator
from importlib import import_module

from scorekeeper.games.errors import RuleError
from scorekeeper.games.i18n import _
from scorekeeper.games.plugin import GameFamily
from scorekeeper.games.plugin import GamePlugin

#: The installed games, in the order the app offers them: one line per game.
INSTALLED = (
    "oh_hell",
    "pitch",
    "oklahoma_gin",
    "wizard",
    "spades",
    "hearts",
    "score_pad",
)

#: The families of games that share a folder (templates, scripts): one line per family.
FAMILIES_INSTALLED = ("bidding",)


class Registry:
    """The games by key. Tests may ``add`` a game of their own (and ``remove`` it after)."""

    def __init__(self, plugins: Iterable[GamePlugin] = ()) -> None:
        self._games: dict[str, GamePlugin] = {}
        #: Goes up with every change, so what is built from the games (the API document)
        #: knows to build itself again.
        self.version = 0
        for plugin in plugins:
            self.add(plugin)

    def add(self, plugin: GamePlugin) -> GamePlugin:
        if plugin.key in self._games:
            raise ValueError(f"a game with the key {plugin.key!r} is registered already")
        self._games[plugin.key] = plugin
        self.version += 1
        return plugin

    def remove(self, key: str) -> None:
        if self._games.pop(key, None) is not None:
            self.version += 1

    def __contains__(self, key: object) -> bool:
        return key in self._games

    def __iter__(self) -> Iterator[str]:
        return iter(self._games)

    def __len__(self) -> int:
        return len(self._games)

    def __getitem__(self, key: str) -> GamePlugin:
        return self._games[key]

    def get(self, key: str) -> GamePlugin:
        """The game for a key; RuleError ``option_value`` for an unknown game."""
        try:
            return self._games[key]
        except (KeyError, TypeError):
            known = ", ".join(self._games)
            raise RuleError(
                "option_value",
                _("Unknown game “%(key)s”; choose one of: %(known)s.", key=str(key), known=known),
                "game",
            ) from None

    def keys(self) -> list[str]:
        return list(self._games)

    def values(self) -> list[GamePlugin]:
        return list(self._games.values())

    def items(self) -> list[tuple[str, GamePlugin]]:
        return list(self._games.items())


GAMES = Registry(import_module(f"scorekeeper.games.{name}.plugin").GAME for name in INSTALLED)

#: The families by key (``bidding``): their templates and static files, served like a game's.
FAMILIES: dict[str, GameFamily] = {
    name: import_module(f"scorekeeper.games.{name}.plugin").FAMILY for name in FAMILIES_INSTALLED
}


def get(key: str) -> GamePlugin:
    return GAMES.get(key)
