"""Scorekeeper: the scorekeeping companion for physical card games.

The package imports nothing at import time: the rules (``scorekeeper.games``) run with only
the standard library and Babel. ``create_app`` (the Flask app) is in ``scorekeeper.factory``,
loaded when first asked for.
"""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    if name in ("create_app", "ROOT"):
        from scorekeeper import factory

        return getattr(factory, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["create_app"]
