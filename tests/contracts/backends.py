"""The back ends the contract suites run against, each behind one small harness.

A harness opens stores on databases of its own and reaches those databases the way any
other client could, for what the store must refuse or survive:

- ``for_test(request, tmp_path)``: the harness of one test;
- ``open(database)``: a store on the named database of this test (made empty on first
  use);
- ``plain(sql, *params)``: a statement through a plain connection, append-only triggers
  in force, committed; the rows it returns.  SQL is written with ``?`` placeholders;
  a back end with another style translates them;
- ``refusal``: the error a plain connection raises when the database refuses one;
- ``tamper(sql, *params)``: the same with the append-only triggers dropped, as an
  attacker who owns the database would;
- ``write_non_utf8_body(match_id, seq)``: the row's body replaced by bytes that are not
  UTF-8 (skips where the database cannot hold them).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import psycopg
import pytest
from matchledger.ledger.postgres_store import PostgresStore
from matchledger.ledger.store import Store


class SQLiteBackend:
    name = "sqlite"
    refusal = sqlite3.DatabaseError

    def __init__(self, folder: Path):
        self.folder = folder

    @classmethod
    def for_test(cls, request, tmp_path: Path) -> SQLiteBackend:
        return cls(tmp_path)

    def open(self, database: str = "main") -> Store:
        return Store(self._path(database))

    def plain(self, sql: str, *params, database: str = "main") -> list[tuple]:
        return self._execute([], sql, params, database)

    def tamper(self, sql: str, *params, database: str = "main") -> None:
        drop = ["DROP TRIGGER IF EXISTS events_no_update", "DROP TRIGGER IF EXISTS events_no_delete"]
        self._execute(drop, sql, params, database)

    def write_non_utf8_body(self, match_id: str, seq: int, database: str = "main") -> None:
        # {"<0xff>} : TEXT as far as SQLite is concerned, not UTF-8 to anyone else
        self.tamper("UPDATE events SET body = CAST(X'7b22ff7d' AS TEXT) WHERE match_id = ? AND seq = ?",
                    match_id, seq, database=database)

    def _path(self, database: str) -> Path:
        return self.folder / f"{database}.db"

    def _execute(self, before: list[str], sql: str, params, database: str) -> list[tuple]:
        conn = sqlite3.connect(self._path(database))
        try:
            for statement in before:
                conn.execute(statement)
            rows = conn.execute(sql, params).fetchall()
            conn.commit()
            return rows
        finally:
            conn.close()


class PostgresBackend:
    """Databases of the session's throwaway server (tests/conftest.py), one per name and
    test; the test skips, saying why, where there is no server."""

    name = "postgresql"
    refusal = psycopg.Error

    def __init__(self, databases):
        self.databases = databases

    @classmethod
    def for_test(cls, request, tmp_path: Path) -> PostgresBackend:
        return cls(request.getfixturevalue("postgres_databases"))

    def open(self, database: str = "main") -> PostgresStore:
        return PostgresStore(self.databases.url(database))

    def plain(self, sql: str, *params, database: str = "main") -> list[tuple]:
        return self._execute([], sql, params, database)

    def tamper(self, sql: str, *params, database: str = "main") -> None:
        # the owner of the table can switch its triggers off (and on again after)
        self._execute(["ALTER TABLE events DISABLE TRIGGER USER"], sql, params, database,
                      after=["ALTER TABLE events ENABLE TRIGGER USER"])

    def write_non_utf8_body(self, match_id: str, seq: int, database: str = "main") -> None:
        pytest.skip("a UTF8 PostgreSQL database (the only encoding matchledger opens) holds no text that is not UTF-8")

    def _execute(self, before: list[str], sql: str, params, database: str, after=()) -> list[tuple]:
        with psycopg.connect(self.databases.url(database)) as conn:  # committed at the end of the block
            for statement in before:
                conn.execute(statement)
            cursor = conn.execute(sql.replace("?", "%s"), params)
            rows = cursor.fetchall() if cursor.description else []
            for statement in after:
                conn.execute(statement)
            return rows


#: Every back end the contract suites run against (a new one is one more entry).
BACKENDS = [SQLiteBackend, PostgresBackend]
