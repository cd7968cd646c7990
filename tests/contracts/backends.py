"""The back ends the repository's store contract runs against: the shipped harnesses
(:mod:`matchledger.testing.store_contract`), each made for one test."""

from __future__ import annotations

from matchledger.testing.store_contract import PostgresHarness, SQLiteHarness


def sqlite(request, tmp_path) -> SQLiteHarness:
    return SQLiteHarness(tmp_path)


def postgresql(request, tmp_path) -> PostgresHarness:
    """Databases of the session's throwaway server (tests/conftest.py), one per name and
    test; the test skips, saying why, where there is no server."""
    return PostgresHarness(request.getfixturevalue("postgres_databases").url)


#: Every back end the contract suite runs against (a new one is one more entry).
BACKENDS = [sqlite, postgresql]
