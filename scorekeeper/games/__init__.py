"""The games: the shared rules (``base``), one folder per game, the registry.

Importing a game's rules imports nothing else: no form reader, no schema, nothing of the app
(``python -c "import scorekeeper.games.oh_hell.rules"`` needs only the standard library and
Babel). ``GAMES``, ``get`` and the shared types are still found here, loaded on first use.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

#: Where each name offered here lives (loaded when first asked for).
_LAZY = {
    "GAMES": "scorekeeper.games.registry",
    "FAMILIES": "scorekeeper.games.registry",
    "INSTALLED": "scorekeeper.games.registry",
    "Registry": "scorekeeper.games.registry",
    "get": "scorekeeper.games.registry",
    "GamePlugin": "scorekeeper.games.plugin",
    "GameRules": "scorekeeper.games.base",
    "Hand": "scorekeeper.games.base",
    "Option": "scorekeeper.games.base",
    "Setup": "scorekeeper.games.base",
    "State": "scorekeeper.games.base",
    "RuleError": "scorekeeper.games.errors",
}


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(_LAZY[name]), name)
    globals()[name] = value
    return value


__all__ = sorted(_LAZY)
