"""The PostgreSQL suite: every test here runs on the session's throwaway server
(``postgres_server``, ``postgres_databases`` and ``postgres_url`` in tests/conftest.py)
and skips, saying why, where none can be started."""

from __future__ import annotations

import pytest

from matchledger.ledger.stores import open_store


@pytest.fixture
def opened():
    """``opened(db, **options)``: ``open_store`` for a test that holds several stores at
    once, each closed at the test's end whatever happened (an open connection left to
    the collector is a ResourceWarning, and the warning an error, in whichever test
    the collector happens to run)."""
    stores = []

    def open_one(db, **options):
        stores.append(open_store(db, **options))
        return stores[-1]

    yield open_one
    for store in stores:
        store.close()
