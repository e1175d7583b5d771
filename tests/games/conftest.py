"""Each game's tests in a folder of its own (tests/games/<key>/): its rules tests
(``test_rules_*.py``, pure Python, no database), API tests, page tests and browser tests."""

from __future__ import annotations

import pytest

from scorekeeper.games import i18n


@pytest.fixture(autouse=True)
def english_as_it_is(request):
    """The rules speak their plain English in the rules tests, whatever an app test plugged
    in before (as tests/rules/conftest.py does for the shared rules)."""
    if request.module.__name__.rpartition(".")[2].startswith("test_rules_"):
        i18n.plain()
