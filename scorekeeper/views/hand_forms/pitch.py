"""Auction Pitch: reading a hand from the game page's form."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def read(form: Mapping[str, str], players: list[str], phase: str) -> dict[str, Any]:
    raise NotImplementedError("Auction Pitch has no page form yet")
