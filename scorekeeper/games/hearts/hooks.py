"""What the app asks of Hearts beyond replaying its hands (kept apart from the rules' replay
in ``rules``; ``Hearts`` takes these in)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorekeeper.games.readers import merge_per_player


class HeartsHooks:
    """Mixed into the rules class."""

    def merge(self, entered: Mapping[str, Any], change: Mapping[str, Any]) -> dict[str, Any]:
        """A correction through the API may name only the players whose points change."""
        return merge_per_player(entered, change, ("points",))
