"""The rules are pure Python: these tests touch no database, so the PostgreSQL pass of
``make test`` leaves them out (``-m "not pure"``)."""

from __future__ import annotations

import pytest

from scorekeeper.games import i18n


def pytest_collection_modifyitems(items):
    for item in items:
        if "/rules/" in str(item.fspath):
            item.add_marker(pytest.mark.pure)


@pytest.fixture(autouse=True)
def english_as_it_is():
    """The rules speak their plain English here, whatever an app test plugged in before."""
    i18n.plain()
