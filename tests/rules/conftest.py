"""The rules are pure Python: these tests touch no database, so the PostgreSQL pass of
``make test`` leaves them out (``-m "not pure"``)."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(items):
    for item in items:
        if "/rules/" in str(item.fspath):
            item.add_marker(pytest.mark.pure)
