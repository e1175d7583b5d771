"""Checks the table-change property tests share (Pitch and Oklahoma Gin): a record with
changes folded one entry at a time is what ``play`` derives, and a refused change, tried
where it was generated, leaves the record as it stood."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from scorekeeper.games.base import GameRules
from scorekeeper.games.base import RuleError
from scorekeeper.games.base import Setup
from scorekeeper.games.base import State
from scorekeeper.games.table import Change


def folded(rules: GameRules, setup: Setup, record: Sequence[Any]) -> State:
    """The state of ``record`` folded one entry at a time, checked against ``play``."""
    tally = rules.begin(setup)
    for entry in record:
        rules._fold(tally, entry, last=True)
    state = rules._state(tally)
    assert state == rules.play(setup, record)
    return state


def assert_refused_changes_change_nothing(
    rules: GameRules, setup: Setup, record: list[Any], tried: list[tuple[int, Change]]
) -> None:
    """Each refused change, put back where it was tried: the state is the record before it."""
    for where, attempt in tried:
        with pytest.raises(RuleError) as caught:
            rules.replay(setup, [*record[:where], attempt, *record[where:]], record[:where], where)
        assert caught.value.kept_state == rules.play(setup, record[:where])
