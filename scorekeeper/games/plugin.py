"""A game plug-in: one folder that holds everything the app needs to know about one game.

``scorekeeper/games/<key>/`` holds
- ``rules.py``: the pure rules (no Flask, no database), a ``GameRules`` subclass;
- ``form.py``: the reader that turns the game page's form into an entry for the rules;
- ``schema.py``: the shapes of its hands in the JSON API (see ``scorekeeper.games.schema``);
- ``templates/``: ``show.html`` (the game page), ``edit.html`` (a correction), ``_sheet.html``
  (the score sheet), for the shared view ``_now.html`` and ``_upcoming.html`` (optional: its
  part of the view, its reminders of the hand to play next), and any partials they include;
- ``static/`` (optional): ``game.css`` and ``game.js``, loaded on the game's pages (in one
  pack with the app's own and its family's: ``views/assets.py``);
- ``plugin.py``: ``GAME = GamePlugin.from_folder(__file__, RULES, form, schema)``, the one
  module that gathers the rest (the registry imports it); ``__init__.py`` imports nothing, so
  the rules import alone (pure Python: no form reader, no pydantic).

A family of games (``bidding/``: Oh Hell, Wizard, Spades) shares a folder of its own the same
way (``GameFamily``): its templates are found as ``games/<family>/<name>`` and its static files
beside the games' own.

The rest of the app asks the plug-in (and through it the rules) for everything else: the
game's options, the sentences about its deals, its per-hand facts and statistics, its CSV
columns and end-of-game lines.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from scorekeeper.games.base import GameRules


class Folder:
    """What a game's or a family's ``folder`` holds: its templates and static files."""

    folder: Path

    @property
    def template_folder(self) -> Path:
        return self.folder / "templates"

    @property
    def static_folder(self) -> Path:
        return self.folder / "static"

    def has_static(self, filename: str) -> bool:
        return (self.static_folder / filename).is_file()


@dataclass(frozen=True)
class GameFamily(Folder):
    """A folder that games share (templates, scripts): ``games/bidding/``."""

    key: str
    folder: Path

    @classmethod
    def from_folder(cls, init_file: str, key: str) -> GameFamily:
        return cls(key=key, folder=Path(init_file).resolve().parent)


@dataclass(frozen=True)
class GamePlugin(Folder):
    """One registered game: its rules, its form reader and its folder."""

    rules: GameRules
    form: ModuleType
    schema: ModuleType
    folder: Path
    #: The families whose folders the game's pages use too (their scripts and styles come
    #: before the game's own in the page's pack: views/assets.py).
    families: tuple[str, ...] = ()

    @classmethod
    def from_folder(
        cls,
        init_file: str,
        rules: GameRules,
        form: ModuleType,
        schema: ModuleType,
        families: tuple[str, ...] = (),
    ) -> GamePlugin:
        folder = Path(init_file).resolve().parent
        return cls(rules=rules, form=form, schema=schema, folder=folder, families=families)

    @property
    def key(self) -> str:
        return self.rules.key

    @property
    def title(self) -> str:
        return self.rules.title

    def game_title(self, options: Any) -> str:
        """The name of one game of this kind, by its options (see ``GameRules.game_title``)."""
        return self.rules.game_title(options or {})

    def template(self, name: str) -> str:
        """The name a page renders this game's template ``name`` by."""
        return f"games/{self.key}/{name}"

    def read_hand(self, form: Any, players: list[str], phase: str) -> dict:
        """The entry for the rules: ``phase`` says which part of the hand the form holds."""
        return self.form.read(form, players, phase)

    @property
    def completing(self) -> frozenset[str]:
        """The phases of the game's forms that complete a hand in progress (its form module's
        ``COMPLETING``): a second tap on one must not save the hand again."""
        return frozenset(getattr(self.form, "COMPLETING", ()))

    def typed(self, form: Any, players: list[str]) -> Any:
        """What was typed, for refilling a refused form (default: the form itself)."""
        reader = getattr(self.form, "typed", None)
        return reader(form, players) if reader else form
