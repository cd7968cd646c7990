"""The SQLite event store: one ``events`` table, append-only, hash-chained per match.

Append-only is enforced by the database itself (triggers abort any UPDATE or DELETE),
so a script that bypasses this module cannot silently rewrite history.  Which files are
matchledger databases, and how each is opened, is :mod:`.sqlite_file`'s business.  What
every back end shares (appends that state the seq they expect, hashing, batching) is
:class:`.log_store.LogStore`'s.
"""

from __future__ import annotations

import functools
import sqlite3
from pathlib import Path

from .capabilities import Capability
from .errors import CorruptLog
from .limits import LOCK_TIMEOUT_SECONDS
from .log_store import COLUMNS, LogStore, StoredEvent
from .sqlite_file import (
    CAPABILITIES_TABLE,
    SNAPSHOTS_TABLE,
    check_schema,
    database_error,
    open_for_reading,
    open_for_writing,
    schema_version,
)

__all__ = ["COLUMNS", "Store", "StoredEvent"]

_CAPABILITY_COLUMNS = "token_hash, match_id, role, participant, can_submit, created_at, revoked_at"


def _plain_errors(method):
    """``method`` with what SQLite raises turned into the error a user sees (a busy or
    read-only database, a file that cannot be read), naming the file."""

    @functools.wraps(method)
    def translated(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except sqlite3.Error as exc:
            raise database_error(self.path, exc, self.lock_timeout) from None

    return translated


class Store(LogStore):
    """An open SQLite database file holding any number of matches.

    ``read_only`` opens it for reading only (it must exist and be a matchledger
    database, and nothing is changed); otherwise ``create`` makes the file if there is
    none.  A writer waits up to ``lock_timeout`` seconds for another writer's lock.
    """

    def __init__(
        self,
        path: str | Path,
        *,
        create: bool = True,
        read_only: bool = False,
        lock_timeout: float = LOCK_TIMEOUT_SECONDS,
    ):
        super().__init__()
        self.path = str(path)
        self.read_only = read_only
        self.lock_timeout = lock_timeout
        if read_only:
            self.conn = open_for_reading(self.path, lock_timeout)
        else:
            self.conn = open_for_writing(self.path, lock_timeout, create=create)
        self._checked_schema = self._schema_version()  # the open checked the schema as it is now

    @property
    def location(self) -> str:
        return self.path

    @property
    def address(self) -> str:
        return self.path

    def close(self) -> None:
        self.conn.close()

    def command_ended(self) -> None:
        # Left to the end of the process, as it always was: closing the last connection
        # checkpoints the WAL and removes the -wal and -shm files, which changes the
        # files a command leaves beside the database (tests/trust pins them).
        pass

    # ---- transactions: BEGIN IMMEDIATE takes the file's write lock, so every match is locked

    def _begin(self) -> None:
        self._execute("BEGIN IMMEDIATE")
        # Under the write lock: a trigger planted since the schema was last checked (while
        # a server holds this connection) would run on this transaction's writes.
        version = self._schema_version()
        if version != self._checked_schema:
            try:
                check_schema(self.conn, self.path)
            except BaseException:
                self.conn.execute("ROLLBACK")
                raise
            self._checked_schema = version

    def _commit(self) -> None:
        try:
            self._execute("COMMIT")
        except BaseException:
            if self.conn.in_transaction:  # a COMMIT that failed leaves it open
                self.conn.execute("ROLLBACK")
            raise

    def _rollback(self) -> None:
        self.conn.execute("ROLLBACK")

    @_plain_errors
    def _schema_version(self) -> int:
        return schema_version(self.conn)

    @_plain_errors
    def _execute(self, statement: str) -> None:
        self.conn.execute(statement)

    # ---- reading

    @_plain_errors
    def _match_ids(self) -> list[str]:
        return [row[0] for row in self.conn.execute("SELECT DISTINCT match_id FROM events ORDER BY match_id")]

    @_plain_errors
    def _has_match(self, match_id: str) -> bool:
        return self.conn.execute("SELECT 1 FROM events WHERE match_id = ? LIMIT 1", (match_id,)).fetchone() is not None

    @_plain_errors
    def _read(
        self, columns: str, match_id: str, after: int, upto: int | None, *, replace_bad_utf8: bool
    ) -> list[tuple]:
        """``columns`` of the match's rows with seq in (``after``, ``upto``], in seq order.

        Only a row edited behind the store's back holds text that is not UTF-8.  With
        ``replace_bad_utf8`` such text is read with replacement characters (its hash can
        no longer match, so verify names the row); without, the read fails as any
        unreadable file does (:func:`database_error` words it).
        """
        sql = f"SELECT {columns} FROM events WHERE match_id = ? AND seq > ?"
        params: list = [match_id, after]
        if upto is not None:
            sql += " AND seq <= ?"
            params.append(upto)
        sql += " ORDER BY seq"
        try:
            return self.conn.execute(sql, params).fetchall()
        except sqlite3.OperationalError as exc:
            if not replace_bad_utf8 or "decode" not in str(exc):
                raise
            self.conn.text_factory = lambda data: data.decode("utf-8", "replace")
            try:
                return self.conn.execute(sql, params).fetchall()
            finally:
                self.conn.text_factory = str

    @_plain_errors
    def _head(self, match_id: str) -> tuple[int, str] | None:
        row = self.conn.execute(
            "SELECT seq, hash FROM events WHERE match_id = ? ORDER BY seq DESC LIMIT 1", (match_id,)
        ).fetchone()
        return (row[0], row[1]) if row else None

    # ---- snapshots (a cache of folded states; see projections/snapshots.py)

    def snapshot(self, match_id: str, revision: str, upto: int | None = None) -> tuple[int, bytes, str] | None:
        self._flush_for(match_id)
        sql = (
            "SELECT s.seq, s.body, s.hash FROM snapshots s "
            "JOIN events e ON e.match_id = s.match_id AND e.seq = s.seq AND e.hash = s.hash "
            "WHERE s.match_id = ? AND s.revision = ?"
        )
        params: list = [match_id, revision]
        if upto is not None:
            sql += " AND s.seq <= ?"
            params.append(upto)
        try:
            row = self.conn.execute(sql, params).fetchone()
        except sqlite3.OperationalError:  # a file from before snapshots existed: no table
            return None
        except sqlite3.DatabaseError as exc:
            raise CorruptLog(f"cannot read {self.path!r}: {exc}") from None
        return (row[0], bytes(row[1]), row[2]) if row else None

    @_plain_errors
    def save_snapshot(self, match_id: str, seq: int, event_hash: str, revision: str, body: bytes) -> None:
        with self.transaction():
            self.conn.execute(SNAPSHOTS_TABLE)
            self.conn.execute(
                "INSERT OR REPLACE INTO snapshots (match_id, seq, hash, revision, body) VALUES (?, ?, ?, ?, ?)",
                (match_id, seq, event_hash, revision, body),
            )

    # ---- noticing other writers

    @_plain_errors
    def data_version(self) -> int:
        """A number that changes whenever another connection has committed to the
        database since it was last read here (SQLite's ``data_version``): the service
        polls it to learn cheaply that some match may have moved on, or a token was
        revoked."""
        return self.conn.execute("PRAGMA data_version").fetchone()[0]

    # ---- capabilities (the service's tokens, by hash; see ledger/capabilities.py)

    @_plain_errors
    def save_capability(self, capability: Capability) -> None:
        """Keep ``capability`` (its token hash is new: tokens are random)."""
        with self.transaction():
            self.conn.execute(CAPABILITIES_TABLE)
            self.conn.execute(
                f"INSERT INTO capabilities ({_CAPABILITY_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    capability.token_hash,
                    capability.match_id,
                    capability.role,
                    capability.participant,
                    int(capability.can_submit),
                    capability.created_at,
                    capability.revoked_at,
                ),
            )

    def capability(self, token_hash: str) -> Capability | None:
        """The capability issued for the token with this hash, revoked or not (None: none)."""
        try:
            row = self.conn.execute(
                f"SELECT {_CAPABILITY_COLUMNS} FROM capabilities WHERE token_hash = ?", (token_hash,)
            ).fetchone()
        except sqlite3.OperationalError as exc:
            if "no such table" in str(exc):  # nobody was ever invited
                return None
            raise database_error(self.path, exc, self.lock_timeout) from None
        except sqlite3.Error as exc:
            raise database_error(self.path, exc, self.lock_timeout) from None
        return None if row is None else _capability_of(row)

    def capabilities(self, match_id: str | None = None) -> list[Capability]:
        where, params = ("WHERE match_id = ? ", (match_id,)) if match_id is not None else ("", ())
        try:
            rows = self.conn.execute(
                f"SELECT {_CAPABILITY_COLUMNS} FROM capabilities {where}ORDER BY created_at, token_hash", params
            ).fetchall()
        except sqlite3.OperationalError as exc:
            if "no such table" in str(exc):  # nobody was ever invited
                return []
            raise database_error(self.path, exc, self.lock_timeout) from None
        except sqlite3.Error as exc:
            raise database_error(self.path, exc, self.lock_timeout) from None
        return [_capability_of(row) for row in rows]

    @_plain_errors
    def revoke_capability(self, token_hash: str, revoked_at: str) -> Capability | None:
        """Stamp the capability of this token hash revoked (if it is not yet); the
        capability as it now stands (None: no such token)."""
        if self.capability(token_hash) is None:
            return None
        with self.transaction():
            self.conn.execute(
                "UPDATE capabilities SET revoked_at = ? WHERE token_hash = ? AND revoked_at IS NULL",
                (revoked_at, token_hash),
            )
        return self.capability(token_hash)

    # ---- writing

    @_plain_errors
    def _insert(self, rows: list[tuple]) -> None:
        try:
            self.conn.executemany(
                "INSERT INTO events (match_id, seq, kind, body, recorded_at, actor, prev_hash, hash) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                rows,
            )
        except sqlite3.IntegrityError as exc:
            raise self._conflict(rows, str(exc)) from None


def _capability_of(row: tuple) -> Capability:
    """A row of ``capabilities`` (its columns in ``_CAPABILITY_COLUMNS``'s order)."""
    token, match_id, role, participant, can_submit, created_at, revoked_at = row
    return Capability(
        token_hash=token,
        match_id=match_id,
        role=role,
        participant=participant,
        can_submit=bool(can_submit),
        created_at=created_at,
        revoked_at=revoked_at,
    )
